"""The machine's measured peaks, for roofline shares: float32 matrix-multiply
throughput (numpy's BLAS, the fastest code on hand) and memory bandwidth (a
large copy, counting bytes read and written). Best of several runs."""

import os
import time

import numpy as np


def _best(fn, repeats):
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def measure(args):
    n = int(args.get("matmul_n", 1024))
    a = np.random.default_rng(0).standard_normal((n, n), dtype=np.float32)
    b = np.random.default_rng(1).standard_normal((n, n), dtype=np.float32)
    a @ b
    t = _best(lambda: a @ b, int(args.get("repeats", 5)))
    flops = 2.0 * n * n * n / t
    # Copy bandwidth by working-set size (read + written bytes), so a kernel
    # whose data stays in cache is judged against the cache it runs from.
    levels = []
    tc_total = 0.0
    for kib in (64, 512, 4096, 32768, 262144):
        size = kib << 10
        src = np.ones(size // 8, dtype=np.float32)  # half read, half written
        dst = np.empty_like(src)
        np.copyto(dst, src)
        reps = max(3, min(2000, (64 << 20) // size))
        tc = _best(lambda: [np.copyto(dst, src) for _ in range(reps)], 3) / reps
        tc_total += tc * reps * 3
        levels.append({"working_set_bytes": size, "bandwidth_bytes_s": size / tc})
    return {"peak_flops": flops, "bandwidth_bytes_s": levels[-1]["bandwidth_bytes_s"], "bandwidth_by_size": levels,
            "cpu_count": os.cpu_count(), "method": f"numpy {np.__version__}: best of matmul {n}^3 float32; copies of 64 KiB to 256 MiB",
            "tvm_s": t + tc_total}
