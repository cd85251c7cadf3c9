"""Job `profile`: what the hardware agent reads. One build of the candidate's
L1 module, then the VM's instrument hook times every kernel call in place
(so the kernels see the real inputs and the real memory plan), plus each
kernel's FLOPs, bytes touched and loop annotations, and the graph's shape
(kernel launches and allocations per run)."""

import os
import statistics
import time

import numpy as np
import tvm
from tvm import relax

from . import carried_profile, gen, layers, pipeline
from .errors import JobError


def _loop_features(func):
    """Loop annotations in a kernel (what L1 has already done to it), read
    from its TVMScript: this build has no TIR visitor in Python."""
    text = func.script()
    return {
        "parallel": text.count("T.parallel("),
        "vectorized": text.count("T.vectorized("),
        "unrolled": text.count("T.unroll("),
        "loops": sum(text.count(k) for k in ("T.grid(", "T.serial(", "T.parallel(", "T.vectorized(", "T.unroll(")),
        "blocks": text.count("T.sblock(") + text.count("T.block("),
    }


def _bytes_of(func):
    total = 0
    for p in func.params:
        # A PrimFunc's parameters are buffers: shape and dtype on the Var itself.
        shape = getattr(p, "shape", None)
        dtype = getattr(p, "dtype", None)
        if shape is None or dtype is None:
            continue
        try:
            total += int(np.prod([int(s) for s in shape])) * np.dtype(dtype).itemsize
        except (TypeError, ValueError):
            pass
    return total


def _flops_of(func):
    from . import flop_count

    try:
        return flop_count.kernel_flops(func)
    except Exception:
        return 0.0


def profile(args):
    """{l1_module, l2_overrides?, target, args_spec} -> per-kernel times and features."""
    target = pipeline.make_target(args["target"])
    mod = pipeline.parse_module(args["l1_module"])
    kernels = pipeline.kernels_of(mod)
    t0 = time.perf_counter()
    try:
        with target:
            ex = tvm.compile(mod, target, relax_pipeline=pipeline.build_pipeline(target, "l1"))
        if args.get("l2_overrides"):
            ex = layers.apply_l2_overrides(ex, ex.mod.imports[0].inspect_source("ll"), args["l2_overrides"])
    except JobError:
        raise
    except Exception as e:
        from . import errors

        raise JobError(errors.classify_build_error(pipeline.first_line(e)), f"profile build failed: {pipeline.first_line(e)}", "profile")
    build_s = time.perf_counter() - t0
    dev = tvm.cpu()
    vm = relax.VirtualMachine(ex, dev)
    host = gen.cached_args(0, args["args_spec"])
    dev_args = [tvm.runtime.tensor(a.copy(), dev) for a in host]
    vm["main"](*dev_args)  # warm-up

    # Whole-graph time without instrumentation.
    whole = vm.time_evaluator("main", dev, number=1, repeat=5, min_repeat_ms=50)(*dev_args)
    whole_ms = min(whole.results) * 1e3

    calls, runs = carried_profile.time_calls(vm, dev_args)

    rows = []
    launches = 0
    other_calls = 0.0
    for name, secs in calls.items():
        per_run = len(secs) / runs
        if name not in kernels:
            other_calls += sum(secs) / runs
            continue
        launches += per_run
        f = kernels[name]
        ms = statistics.median(secs) * 1e3 * per_run
        rows.append({
            "name": name,
            "ms": ms,
            "calls_per_run": per_run,
            "flops": _flops_of(f),
            "bytes": _bytes_of(f),
            **_loop_features(f),
        })
    kernel_ms = sum(r["ms"] for r in rows)
    for r in rows:
        r["share"] = r["ms"] / kernel_ms if kernel_ms > 0 else 0.0
    rows.sort(key=lambda r: -r["ms"])
    main_text = mod["main"].script() if "main" in [gv.name_hint for gv in mod.get_global_vars()] else ""
    allocs = main_text.count("alloc_tensor") + main_text.count("alloc_storage")
    return {
        "kernels": rows,
        "total_ms": whole_ms,
        "kernel_ms": kernel_ms,
        # Time outside the kernels: the VM's dispatch, allocation, packed calls.
        "overhead_ms": max(whole_ms - kernel_ms, 0.0),
        "builtin_ms": other_calls * 1e3,
        "launches": launches,
        "allocations": allocs,
        "build_s": build_s,
        "tvm_s": time.perf_counter() - t0,
        # The process the candidate ran in (a build worker's child for this job).
        "pid": os.getpid(),
    }
