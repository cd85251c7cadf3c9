"""Job `build`: a candidate given as TVMScript text, parsed and checked by
the pipeline and built into a shared library (Relax VM executable) written
with export_library, so correctness and timing can load it in any worker.
"""

import time

import tvm

from . import errors
from .errors import JobError
from .pipeline import (
    check_precision,
    check_signature,
    first_line,
    make_target,
    parse_module,
)


def build(args):
    """Job `build`: {source, target, artifact, args_spec?} -> compile figures."""
    t0 = time.perf_counter()
    mod = parse_module(args["source"])
    if args.get("args_spec") is not None:
        check_signature(mod, args["args_spec"])
    check_precision(mod, args.get("task_dtype"))
    parse_s = time.perf_counter() - t0
    target = make_target(args["target"])
    t1 = time.perf_counter()
    from . import layers, pipeline

    try:
        from . import rotation

        sets = rotation.sets_for(args["args_spec"]) if args.get("args_spec") is not None else None
        if args.get("tuned_db"):
            from . import tune

            ex = tune.compile_tuned(rotation.add(mod, sets) if sets else mod, target, args["tuned_db"])
        else:
            # Lowered first (deterministic: what L1 shows), so the static IR
            # policy sees every kernel before anything is compiled.
            l1 = mod if args.get("stage", "l0") == "l1" else pipeline.lower(mod, target)
            from . import gpu, ir_policy

            ir_policy.check(l1)
            if gpu.is_gpu(target):
                gpu.check_legal(l1, target)
            if sets:
                l1 = rotation.add(l1, sets)
            with target:
                ex = tvm.compile(l1, target, relax_pipeline=pipeline.build_pipeline(target, "l1"))
        overrides = args.get("l2_overrides") or {}
        if overrides:
            ex = layers.apply_l2_overrides(ex, ex.mod.imports[0].inspect_source("ll"), overrides)
        pipeline.export(ex, args["artifact"], target)
        device_src = None
        if target.kind.name != "llvm":
            from . import gpu

            device_src = gpu.device_source(ex.mod)
    except JobError:
        raise
    except Exception as e:
        msg = first_line(e)
        raise JobError(errors.classify_build_error(msg), f"build failed: {msg}", "build")
    compile_s = time.perf_counter() - t1
    t2 = time.perf_counter()
    try:
        from . import memory

        mem = memory.estimate(mod, target, args.get("stage", "l0"))
    except Exception as e:  # an estimate must never fail a build
        mem = {"error": f"{type(e).__name__}: {e}"}
    mem_s = time.perf_counter() - t2
    kernels = sorted(
        gv.name_hint for gv, f in mod.functions.items() if isinstance(f, tvm.tirx.PrimFunc)
    )
    return {
        "artifact": args["artifact"],
        "parse_s": parse_s,
        "compile_s": compile_s,
        "tvm_s": parse_s + compile_s + mem_s,
        "kernels": kernels,
        "memory": mem,
        "device_source": device_src,
    }
