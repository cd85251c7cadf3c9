"""A device's peaks measured on the device itself: kernels built by TVM for
the device's own target and timed there, the way candidates are.

The local CPU has its own gcc-built kernels (machine.py). A board behind an
RPC tracker or a GPU may have no C compiler, only TVM's runtime, so these
are TIR kernels, built on the host and run through the device handle
(device.py) with the runtime's own `time_evaluator`:

- Peak FLOP/s. CPU: independent chains of vector multiply-adds held in
  registers, one parallel chunk per runtime thread. GPU: eight scalar chains
  per thread, a grid of many full blocks.
- Bandwidth by working-set size: the larger of a read-only sum and a copy
  (bytes read plus written, as a task's bytes are counted), repeated inside
  the kernel so that one call lasts long enough to time.

Each figure is the best of several repeats, so a busy moment lowers no
peak: they stay upper bounds for roofline shares.
"""

import os
import time

import tvm

from . import device as devices
from . import errors
from .errors import JobError, first_line

METHOD = "tir kernels v3"
CPU_SIZES_KIB = (16, 64, 512, 4096, 32768, 262144)
# 64 MiB is past a large GPU's L2 (50 MB on an H200): without it, a 134 MB
# working set was judged against the 16 MiB level's L2 bandwidth (55 TB/s),
# a bound too loose to say anything (a layer norm at 77% of HBM showed 6%).
# 128 MiB: a 134 MB elementwise map on an H100 was judged against the 64 MiB
# level (10 TB/s, partly in its 50 MB L2) and showed 28% at 2.8 TB/s.
GPU_SIZES_KIB = (1024, 16384, 65536, 131072, 262144, 1048576)
# The bytes one call moves at least, whatever the working set (repeats).
CALL_BYTES = 64 << 20
# On a GPU, 256 MiB read once per call measured 2946 GB/s on an H100, 1 GiB
# 3075: a short call pays the grid's ramp-up and tail. Each call moves at
# least 1 GiB there (repeats inside the kernel, rotated).
GPU_CALL_BYTES = 1 << 30


def _lanes(target):
    """fp32 lanes of the widest vector the target has, and chains that fit
    its vector registers (two stay free for the operands). The chains stay
    under 1 KiB in all, so TVM puts them on the stack, where LLVM keeps them
    in registers (a larger buffer goes to the runtime's workspace, through
    memory on every step)."""
    attrs = " ".join(str(x) for x in (target.attrs.get("mattr") or [])) + " " + str(target.attrs.get("mcpu", ""))
    triple = str(target.attrs.get("mtriple", ""))
    if triple.startswith(("aarch64", "arm64")):
        return 4, 16
    if "avx512" in attrs or any(m in attrs for m in ("skylake-avx512", "icelake", "sapphirerapids", "emeraldrapids", "znver4", "znver5", "cascadelake", "cooperlake", "tigerlake", "graniterapids")):
        return 16, 15
    return 8, 12


def _cpu_fma(threads, lanes, chains, iters):
    return f"""
@T.prim_func
def fma(x: T.Buffer(({lanes},), "float32"), y: T.Buffer(({lanes},), "float32"), out: T.Buffer(({threads}, {chains}, {lanes}), "float32")):
    T.func_attr({{"tir.noalias": True}})
    for t in T.parallel({threads}):
        acc = T.decl_buffer(({chains}, {lanes}), "float32", scope="global")
        for c in T.unroll({chains}):
            for l in T.vectorized({lanes}):
                acc[c, l] = x[l] * T.Cast("float32", c + t + 1)
        for i in range({iters}):
            for c in T.unroll({chains}):
                for l in T.vectorized({lanes}):
                    acc[c, l] = acc[c, l] * x[l] + y[l]
        for c in T.unroll({chains}):
            for l in T.vectorized({lanes}):
                out[t, c, l] = acc[c, l]
""", [(lanes,), (lanes,)], (threads, chains, lanes)


def _cpu_read(threads, lanes, blocks, reps):
    return f"""
@T.prim_func
def read(a: T.Buffer(({threads}, {blocks}, 4, {lanes}), "float32"), out: T.Buffer(({threads}, 4, {lanes}), "float32")):
    T.func_attr({{"tir.noalias": True}})
    for t in T.parallel({threads}):
        acc = T.decl_buffer((4, {lanes}), "float32", scope="global")
        for k in T.unroll(4):
            for l in T.vectorized({lanes}):
                acc[k, l] = T.float32(0)
        for r, i in T.grid({reps}, {blocks}):
            for k in T.unroll(4):
                for l in T.vectorized({lanes}):
                    acc[k, l] = acc[k, l] + a[t, i, k, l]
        for k in T.unroll(4):
            for l in T.vectorized({lanes}):
                out[t, k, l] = acc[k, l]
""", [(threads, blocks, 4, lanes)], (threads, 4, lanes)


def _cpu_copy(threads, lanes, blocks, reps):
    # Each repeat writes the other half of the output, so no repeat's stores
    # are the same as the one before (nothing for the compiler to drop).
    return f"""
@T.prim_func
def copy(a: T.Buffer(({threads}, {blocks}, {lanes}), "float32"), out: T.Buffer((2, {threads}, {blocks}, {lanes}), "float32")):
    T.func_attr({{"tir.noalias": True}})
    for t in T.parallel({threads}):
        for r, i in T.grid({reps}, {blocks}):
            for l in T.vectorized({lanes}):
                out[r % 2, t, i, l] = a[t, i, l]
""", [(threads, blocks, lanes)], (2, threads, blocks, lanes)


GPU_THREADS = 256


def _gpu_fma(blocks, iters, chains=8, unroll=8):
    """Independent multiply-add chains per thread, the loop unrolled so its
    counter and branch take a small share of the issue slots (measured on an
    H200, nvcc's build of the same loop: a few percent)."""
    total = " + ".join(f"acc[{c}]" for c in range(chains))
    return f"""
@T.prim_func
def fma(x: T.Buffer(({chains},), "float32"), y: T.Buffer(({chains},), "float32"), out: T.Buffer(({blocks * GPU_THREADS},), "float32")):
    T.func_attr({{"tir.noalias": True}})
    for b in T.thread_binding({blocks}, thread="blockIdx.x"):
        for th in T.thread_binding({GPU_THREADS}, thread="threadIdx.x"):
            acc = T.decl_buffer(({chains},), "float32", scope="local")
            xs = T.decl_buffer(({chains},), "float32", scope="local")
            ys = T.decl_buffer(({chains},), "float32", scope="local")
            for c in T.unroll({chains}):
                xs[c] = x[c]
                ys[c] = y[c]
                acc[c] = x[c] * T.Cast("float32", th + c + 1)
            for i in range({iters // unroll}):
                for u in T.unroll({unroll}):
                    for c in T.unroll({chains}):
                        acc[c] = acc[c] * xs[c] + ys[c]
            out[b * {GPU_THREADS} + th] = {total}
""", [(chains,), (chains,)], (blocks * GPU_THREADS,)


def _gpu_read(grid, per_thread, reps, unroll=1):
    """A read-only sum with `unroll` independent loads in flight per thread
    (one accumulator each). One alone was no upper bound: at 256 MiB on an
    H100 it measured 2946 GB/s against 3075 at 1 GiB, and two reductions
    showed 101% and 105% of it.

    Each repeat starts one row further on and takes the next block's
    columns (rotated): with the same addresses in the same order, the
    compiler may keep a short column's values in registers across repeats
    and the kernel reads nothing. With 8 repeats of 128 MiB on an H100 the
    read showed 21 TB/s against the 3 TB/s of its memory; rotating rows
    alone brought it to 6.7 TB/s (part of the set stays in the 50 MB L2),
    but a one-row column (1 MiB: 100 TB/s) needs the columns rotated too."""
    total = " + ".join(f"acc[{u}, l]" for u in range(unroll))
    return f"""
@T.prim_func
def read(a: T.Buffer(({per_thread}, {grid * GPU_THREADS}, 4), "float32"), out: T.Buffer(({grid * GPU_THREADS}, 4), "float32")):
    T.func_attr({{"tir.noalias": True}})
    for b in T.thread_binding({grid}, thread="blockIdx.x"):
        for th in T.thread_binding({GPU_THREADS}, thread="threadIdx.x"):
            acc = T.decl_buffer(({unroll}, 4), "float32", scope="local")
            for u in T.unroll({unroll}):
                for l in T.vectorized(4):
                    acc[u, l] = T.float32(0)
            for r, k in T.grid({reps}, {per_thread // unroll}):
                for u in T.unroll({unroll}):
                    for l in T.vectorized(4):
                        acc[u, l] = acc[u, l] + a[(k + r) % {per_thread // unroll} * {unroll} + u, (b + r) % {grid} * {GPU_THREADS} + th, l]
            for l in T.vectorized(4):
                out[b * {GPU_THREADS} + th, l] = {total}
""", [(per_thread, grid * GPU_THREADS, 4)], (grid * GPU_THREADS, 4)


def _gpu_copy(grid, per_thread, reps):
    """Each thread copies its column of the set; see `_gpu_read` for why
    each repeat starts at another row."""
    return f"""
@T.prim_func
def copy(a: T.Buffer(({per_thread}, {grid * GPU_THREADS}, 4), "float32"), out: T.Buffer((2, {per_thread}, {grid * GPU_THREADS}, 4), "float32")):
    T.func_attr({{"tir.noalias": True}})
    for b in T.thread_binding({grid}, thread="blockIdx.x"):
        for th in T.thread_binding({GPU_THREADS}, thread="threadIdx.x"):
            for r, k in T.grid({reps}, {per_thread}):
                for l in T.vectorized(4):
                    out[r % 2, (k + r) % {per_thread}, (b + r) % {grid} * {GPU_THREADS} + th, l] = a[(k + r) % {per_thread}, (b + r) % {grid} * {GPU_THREADS} + th, l]
""", [(per_thread, grid * GPU_THREADS, 4)], (2, per_thread, grid * GPU_THREADS, 4)


def _module(prim_text, in_shapes, out_shape):
    """An IRModule whose `main` calls the one kernel: the same form as a
    task's module, so any device handle loads and times it as a VM."""
    name = prim_text.split("def ", 1)[1].split("(", 1)[0]
    params = ", ".join(f"a{i}: R.Tensor({tuple(s)}, dtype=\"float32\")" for i, s in enumerate(in_shapes))
    args = ", ".join(f"a{i}" for i in range(len(in_shapes)))
    indented = "\n".join("    " + line for line in prim_text.strip().splitlines())
    text = f"""
@I.ir_module
class Module:
{indented}

    @R.function
    def main({params}) -> R.Tensor({tuple(out_shape)}, dtype="float32"):
        cls = Module
        return R.call_tir(cls.{name}, ({args},), out_ty=R.Tensor({tuple(out_shape)}, dtype="float32"))
"""
    from .pipeline import parse_module

    return parse_module(text)


def kernels(target, threads):
    """[(label, module, input shapes, work, unit, working-set bytes)]."""
    out = []
    if target.kind.name == "llvm":
        lanes, chains = _lanes(target)
        iters = 1 << 20
        text, ins, o = _cpu_fma(threads, lanes, chains, iters)
        out.append(("fma", text, ins, o, threads * chains * lanes * 2 * iters, "flops", 0))
        for kib in CPU_SIZES_KIB:
            # The working set shared out among the threads, in 4-vector blocks.
            blocks = max(1, (kib << 10) // (threads * 4 * lanes * 4))
            size = threads * blocks * 4 * lanes * 4
            reps = max(1, CALL_BYTES // size)
            text, ins, o = _cpu_read(threads, lanes, blocks, reps)
            out.append((f"read_{kib}k", text, ins, o, size * reps, "bytes", kib << 10))
            # Copy half the set into the other half: read + written = size.
            half = max(1, blocks * 2)
            text, ins, o = _cpu_copy(threads, lanes, half, reps)
            out.append((f"copy_{kib}k", text, ins, o, 2 * threads * half * lanes * 4 * reps, "bytes", kib << 10))
    else:
        blocks = 4096
        iters = 4096
        # Chains per thread: measured on an H200 with nvcc's own build of the
        # same loop, 8 chains reach 60% of the datasheet's fp32 peak and 16
        # reach 93%; the best of two counts is taken.
        for label, chains in (("fma", 16), ("fma32", 32)):
            text, ins, o = _gpu_fma(blocks, iters, chains)
            out.append((label, text, ins, o, blocks * GPU_THREADS * chains * 2 * iters, "flops", 0))
        for kib in GPU_SIZES_KIB:
            grid = min(1024, max(1, (kib << 10) // (GPU_THREADS * 16)))
            per_thread = max(1, (kib << 10) // (grid * GPU_THREADS * 16))
            size = per_thread * grid * GPU_THREADS * 16
            reps = max(1, GPU_CALL_BYTES // size)
            text, ins, o = _gpu_read(grid, per_thread, reps)
            out.append((f"read_{kib}k", text, ins, o, size * reps, "bytes", kib << 10))
            unroll = min(8, per_thread)
            if unroll > 1:  # a one-row column's unrolled read is the plain one
                text, ins, o = _gpu_read(grid, per_thread, reps, unroll)
                out.append((f"readu_{kib}k", text, ins, o, size * reps, "bytes", kib << 10))
            half = max(1, per_thread // 2)
            text, ins, o = _gpu_copy(grid, half, reps)
            out.append((f"copy_{kib}k", text, ins, o, 2 * half * grid * GPU_THREADS * 16 * reps, "bytes", kib << 10))
    return out


def build(target_json, threads, out_dir):
    """Builds every kernel for the target into out_dir; the manifest the
    measuring side reads (no compiler needed there)."""
    from . import pipeline

    target = pipeline.make_target(target_json)
    os.makedirs(out_dir, exist_ok=True)
    rows = []
    for label, text, ins, o, work, unit, ws in kernels(target, threads):
        mod = _module(text, ins, o)
        with target:
            ex = tvm.compile(mod, target, relax_pipeline=pipeline.build_pipeline(target, "l1"))
        artifact = os.path.join(out_dir, f"{label}.so")
        pipeline.export(ex, artifact, target)
        row = {"label": label, "artifact": os.path.basename(artifact), "inputs": [list(s) for s in ins], "work": work,
               "unit": unit, "working_set_bytes": ws}
        if target.kind.name != "llvm":
            import gzip

            from . import gpu

            src = gpu.device_source(ex.mod)
            if src:
                with gzip.open(os.path.join(out_dir, f"{label}.cu.gz"), "wt") as f:
                    f.write(src)
        rows.append(row)
    return {"method": METHOD, "target": str(target), "threads": threads, "kernels": rows}


def build_job(args):
    """Job `peaks_build`: {target, out_dir, threads?}: the kernels for a
    carried pack, measured on the device by carried.py."""
    from .machine import tvm_threads

    return build(args["target"], int(args.get("threads") or tvm_threads()), args["out_dir"])


def measure_built(dev_handle, manifest, out_dir, repeats=10, min_ms=20):
    """Times the built kernels on the device: the best rate of `repeats`
    timed calls (each at least min_ms) for each kernel."""
    import numpy as np

    dev = dev_handle.dev
    t0 = time.perf_counter()
    rates = {}
    for k in manifest["kernels"]:
        vm = dev_handle.load_vm(os.path.join(out_dir, k["artifact"]))
        args = [tvm.runtime.tensor(np.full(s, 0.5 if k["unit"] == "bytes" else 0.999, dtype="float32"), dev) for s in k["inputs"]]
        vm["main"](*args)
        if k is manifest["kernels"][0]:
            # Half a second of work first, so a GPU's clocks (or a CPU's) have
            # risen to what they sustain before the first kernel is timed.
            vm.time_evaluator("main", dev, number=1, repeat=1, min_repeat_ms=500)(*args)
        res = vm.time_evaluator("main", dev, number=1, repeat=repeats, min_repeat_ms=int(min_ms))(*args)
        rates[k["label"]] = k["work"] / min(res.results)
        del vm, args
    levels = []
    for k in manifest["kernels"]:
        if k["label"].startswith("read_"):
            size = k["label"][5:]
            # The unrolled read, where the device has one (GPU), counts as a
            # second read: the level's bound is the best of all.
            read = max(rates[k["label"]], rates.get(f"readu_{size}", 0.0))
            copied = rates[f"copy_{size}"]
            levels.append({"working_set_bytes": k["working_set_bytes"], "bandwidth_bytes_s": max(read, copied),
                           "read_bytes_s": read, "copy_bytes_s": copied})
    levels.sort(key=lambda x: x["working_set_bytes"])
    # A working set moves at least as fast as any larger one (it fits the
    # same memories or faster ones): each level is raised to the best of the
    # levels above it, so a short, overhead-bound measurement at one size is
    # no bound below what a larger size showed.
    best = 0.0
    for level in reversed(levels):
        best = max(best, level["bandwidth_bytes_s"])
        level["bandwidth_bytes_s"] = best
    return {
        "peak_flops": max(r for label, r in rates.items() if label.startswith("fma")),
        "threads": manifest["threads"],
        "bandwidth_bytes_s": levels[-1]["bandwidth_bytes_s"],
        "bandwidth_by_size": levels,
        "method": f"{METHOD} ({manifest['target']}): multiply-add chains, read-only sums and copies of "
                  f"{levels[0]['working_set_bytes'] >> 10} KiB to {levels[-1]['working_set_bytes'] >> 20} MiB, built by TVM for the device "
                  f"and timed there; best of {repeats} calls each",
        "measure_s": round(time.perf_counter() - t0, 2),
    }


def _threads_on(dev_handle):
    """The runtime thread count where the kernels run (a CPU's parallel
    loops get no more); a GPU's kernels set their own grid."""
    if dev_handle.kind == "rpc":
        try:
            return int(dev_handle.session.get_function("runtime.NumThreads")())
        except Exception:
            return 1
    from .machine import tvm_threads

    return tvm_threads()


def job(args):
    """Job `device_peaks`: {device, target, scratch}: builds the kernels for
    the device's target, times them on the device, returns its peaks."""
    import tempfile

    def on(dev_handle):
        dev_handle.refuse_timing_if_emulated("measuring peaks")
        threads = _threads_on(dev_handle) if dev_handle.kind != "cuda" else 1
        out_dir = tempfile.mkdtemp(prefix="kwb-device-peaks-", dir=args.get("scratch"))
        try:
            manifest = build(args["target"], threads, out_dir)
        except Exception as e:
            raise JobError(errors.INTERNAL, f"the peak kernels did not build for {args['target']}: {first_line(e)}", "build")
        return measure_built(dev_handle, manifest, out_dir)

    return devices.run_with_retry(args, on)
