"""The machine's measured peaks, for roofline shares. They must be upper
bounds, or a share passes 100%: so they come from kernels built to reach
them, compiled for this CPU (`gcc -O2 -march=native`), not from a library
call whose overhead hides at small sizes.

- Peak FLOP/s: independent chains of vector FMAs held in registers, on the
  thread count TVM's runtime uses (what a candidate can use).
- Bandwidth per working-set size (64 KiB to 256 MiB, the cache levels and
  memory): the larger of a read-only sum and a copy, both vectorised and
  counted in bytes read plus written, like a task's bytes moved.

Each figure is the best of many short runs, so a loaded machine still gets
some runs at full speed and the peak stays an upper bound."""

import ctypes
import os
import subprocess
import tempfile
import threading
import time

from . import errors
from .errors import JobError

KERNELS_C = r"""
#include <stddef.h>
#include <time.h>
typedef float v16 __attribute__((vector_size(64), aligned(64)));

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

/* 16 independent chains of 16-lane FMAs: enough to cover FMA latency on
   every x86 core with two FMA pipes. Returns seconds; writes the sums so
   nothing is dead code. */
double fma_peak(long iters, float *out) {
    v16 x, y;
    for (int l = 0; l < 16; l++) { x[l] = 0.999f; y[l] = 0.001f; }
    /* Sixteen named accumulators, so every one lives in a register. */
#define INIT(c) v16 a##c = x * (float)(c);
#define STEP(c) a##c = a##c * x + y;
#define EACH(M) M(0) M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15)
    EACH(INIT)
    double t = now();
    for (long i = 0; i < iters; i++) {
        EACH(STEP)
        __asm__ volatile("" : "+v"(x));  /* x is opaque: nothing folds across iterations */
    }
    t = now() - t;
    v16 s = a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9 + a10 + a11 + a12 + a13 + a14 + a15;
    for (int l = 0; l < 16; l++) out[l] = s[l];
    return t;
}

double read_sum(const v16 *a, size_t n, long reps, float *out) {
    v16 s0 = {0}, s1 = {0}, s2 = {0}, s3 = {0};
    double t = now();
    for (long r = 0; r < reps; r++) {
        for (size_t i = 0; i + 4 <= n; i += 4) { s0 += a[i]; s1 += a[i + 1]; s2 += a[i + 2]; s3 += a[i + 3]; }
        __asm__ volatile("" ::: "memory");
    }
    t = now() - t;
    v16 s = s0 + s1 + s2 + s3;
    for (int l = 0; l < 16; l++) out[l] = s[l];
    return t;
}

double copy(v16 *restrict dst, const v16 *restrict src, size_t n, long reps) {
    double t = now();
    for (long r = 0; r < reps; r++) {
        for (size_t i = 0; i < n; i++) dst[i] = src[i];
        __asm__ volatile("" ::: "memory");
    }
    return now() - t;
}
"""

SIZES_KIB = (16, 64, 512, 4096, 32768, 262144)


def _build(scratch):
    src = os.path.join(scratch, "kwb_peaks.c")
    lib = os.path.join(scratch, "kwb_peaks.so")
    with open(src, "w") as f:
        f.write(KERNELS_C)
    cc = os.environ.get("CC", "gcc")
    try:
        subprocess.run([cc, "-O2", "-march=native", "-ffp-contract=fast", "-fno-tree-vectorize", "-shared", "-fPIC", "-o", lib, src],
                       check=True, capture_output=True, timeout=120)
    except (OSError, subprocess.SubprocessError) as e:
        detail = getattr(e, "stderr", b"") or b""
        raise JobError(errors.INTERNAL, f"the peak kernels did not compile with {cc} ({e}; {detail.decode(errors='replace')[:300]}): install a C compiler (gcc) to measure this machine's roofline", "machine")
    so = ctypes.CDLL(lib)
    so.fma_peak.restype = ctypes.c_double
    so.fma_peak.argtypes = [ctypes.c_long, ctypes.c_void_p]
    so.read_sum.restype = ctypes.c_double
    so.read_sum.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_long, ctypes.c_void_p]
    so.copy.restype = ctypes.c_double
    so.copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_long]
    return so


def tvm_threads():
    """TVM's own thread count: a candidate's parallel loops get no more (its
    runtime counts one thread per physical core, taking x86 cores as
    hyper-threaded pairs)."""
    try:
        import tvm

        f = tvm.get_global_func("runtime.NumThreads", allow_missing=True)
        if f:
            return int(f())
    except Exception:
        pass
    return os.cpu_count() or 1


def _aligned(nbytes):
    """A 64-byte aligned buffer of nbytes (kept alive by the returned owner)."""
    raw = ctypes.create_string_buffer(nbytes + 64)
    addr = (ctypes.addressof(raw) + 63) & ~63
    ctypes.memset(addr, 1, nbytes)
    return raw, addr


def _on_threads(threads, run):
    """Runs run(i) on `threads` threads at once (ctypes calls release the
    GIL) and returns the slowest thread's seconds, as the kernels report them."""
    if threads == 1:
        return run(0)
    barrier = threading.Barrier(threads)
    secs = [0.0] * threads

    def worker(i):
        barrier.wait()
        secs[i] = run(i)

    pool = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
    for t in pool:
        t.start()
    for t in pool:
        t.join()
    return max(secs)


def _best_rate(run, work, repeats, budget_s):
    """The highest work/second over `repeats` runs (fewer if over budget)."""
    best, start = 0.0, time.perf_counter()
    for i in range(repeats):
        secs = run()
        if secs > 0:
            best = max(best, work / secs)
        if i >= 2 and time.perf_counter() - start > budget_s:
            break
    return best


def measure(args):
    t0 = time.perf_counter()
    scratch = tempfile.mkdtemp(prefix="kwb-peaks-")
    so = _build(scratch)
    repeats = int(args.get("repeats", 30))
    threads = int(args.get("threads") or tvm_threads())
    outs = [(ctypes.c_float * 16)() for _ in range(threads)]
    iters = int(args.get("fma_iters", 200_000))
    flops = _best_rate(lambda: _on_threads(threads, lambda i: so.fma_peak(iters, outs[i])), threads * 16 * 16 * 2 * iters, repeats, 5.0)
    levels = []
    for kib in SIZES_KIB:
        # The working set is shared out among the threads, as a parallel
        # kernel's would be; every slice a whole number of 4-vector blocks.
        size = max(256 * threads, ((kib << 10) // (256 * threads)) * 256 * threads)
        part = size // threads
        src_owner, src = _aligned(size)
        dst_owner, dst = _aligned(size // 2)
        # About 2 ms per run whatever the size.
        reps = max(1, (64 << 20) // (size * 16))
        read = _best_rate(lambda: _on_threads(threads, lambda i: so.read_sum(src + i * part, part // 64, reps, outs[i])), size * reps, repeats, 3.0)
        # Copy half the working set into the other half: read + written = size.
        half = part // 2
        copied = _best_rate(lambda: _on_threads(threads, lambda i: so.copy(dst + i * half, src + i * half, half // 64, reps)), size * reps, repeats, 3.0)
        del src_owner, dst_owner
        levels.append({"working_set_bytes": kib << 10, "bandwidth_bytes_s": max(read, copied), "read_bytes_s": read, "copy_bytes_s": copied})
    return {
        "peak_flops": flops,
        "threads": threads,
        "bandwidth_bytes_s": levels[-1]["bandwidth_bytes_s"],
        "bandwidth_by_size": levels,
        "cpu_count": os.cpu_count(),
        "method": f"{METHOD}: 16 chains of 16-lane FMAs, read-only sums and copies of 16 KiB to 256 MiB, on {threads} thread(s) (TVM's); best of {repeats} runs each",
        "tvm_s": time.perf_counter() - t0,
    }


METHOD = "kernels v2 (gcc -march=native)"
