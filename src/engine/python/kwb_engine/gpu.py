"""GPU candidates, built on this machine for a GPU target.

On a GPU the L1 layer is scheduled TIR: every kernel has its loops bound to
blocks and threads (TVM cannot generate code for an unbound loop). The
default build schedules each kernel with dlight's rules; that is the
baseline. A candidate replaces one kernel with a schedule sampled from
MetaSchedule's design space for the GPU (thread binding, shared-memory
tiling, vectorized loads, unrolling: its CUDA rules), ranked by a cost model
trained on what the GPU measured of this kernel's earlier variants, if any.

Everything is checked for the GPU's limits before a build (threads per
block, shared memory per block, loops left unbound), so an illegal schedule
is refused here with the reason instead of failing on the device.
"""

import time

import tvm

from . import errors, pipeline, space
from .errors import JobError, first_line


def is_gpu(target):
    return target.kind.name in ("cuda", "rocm", "vulkan", "metal", "opencl")


def lower_unscheduled(mod, target):
    """L0 -> the GPU target's L1 before dlight: the same kernels, no schedule."""
    p = pipeline._backend(target)
    passes = [x for x in p.library_dispatch_passes(target) + p.legalize_passes(target)
              if x.info.name != "ApplyDefaultSchedule"]
    with target:
        return tvm.transform.Sequential(passes)(mod)


def _limits(target):
    attrs = target.attrs
    get = lambda k, d: int(attrs[k]) if k in attrs else d  # noqa: E731
    return {
        "max_threads_per_block": get("max_threads_per_block", 1024),
        "max_shared_memory_per_block": get("max_shared_memory_per_block", 48 * 1024),
        "max_thread_x": get("max_threads_per_block", 1024),
        "max_thread_y": get("max_threads_per_block", 1024),
        "max_thread_z": 64,
        "max_local_memory_per_block": 2**31 - 1,
        "max_vthread": 8,
        "max_vector_bytes": 16,
    }


def check_legal(mod, target):
    """Every kernel of an L1 module within the GPU's limits, with no loop
    left unbound: raises JobError(syntax_api, stage legality) naming the
    kernel and the rule."""
    limits = _limits(target)
    for gv, func in mod.functions.items():
        if not isinstance(func, tvm.tirx.PrimFunc):
            continue
        name = gv.name_hint
        one = tvm.IRModule({name: func.with_attr("target", target).with_attr("global_symbol", name)})
        try:
            # TVM's own TIR lowering, as a build runs it: VerifyMemory in it
            # refuses a loop left on the host (not bound to blocks/threads).
            with target:
                lowered = tvm.s_tir.pipeline.default_s_tir_pipeline()[0](one)
        except Exception as e:
            raise JobError(errors.SYNTAX_API, f"kernel `{name}` does not lower for the GPU (a loop not bound to "
                           f"blocks or threads?): {first_line(e)}", "legality")
        for f in lowered.functions.values():
            if not tvm.s_tir.analysis.verify_gpu_code(f, limits):
                raise JobError(errors.SYNTAX_API, f"kernel `{name}` exceeds the GPU's limits (threads per block "
                               f"<= {limits['max_threads_per_block']}, shared memory per block <= "
                               f"{limits['max_shared_memory_per_block']} bytes, vector accesses <= 16 bytes)", "legality")


def variants(args):
    """Job `gpu_variants`: {source (L0 text), target, count, seed,
    measured: {kernel: [{trace, seconds}]}, tried: {kernel: [trace]},
    keep: {kernel: [trace]}, kernels?: [names]} -> {l1_default, kernels, variants: [{name, kernel,
    trace, rationale, predicted, l1_module}], refused: [...]}.

    `count` schedules per kernel; each variant is the default (dlight) L1
    with that one kernel replaced; `keep` traces (an earlier run's
    winners) come first, so a later run reports the best of both. On a CPU target (a pack tried out here)
    the default L1 is unscheduled and the variants are CPU schedules."""
    t0 = time.perf_counter()
    target = pipeline.make_target(args["target"])
    mod = pipeline.parse_module(args["source"])
    default = pipeline.lower(mod, target)
    bare = pipeline.kernels_of(lower_unscheduled(mod, target))
    scheduled = pipeline.kernels_of(default)
    wanted = args.get("kernels") or sorted(bare)
    measured = args.get("measured") or {}
    tried = args.get("tried") or {}
    keep = args.get("keep") or {}
    out, refused = [], []
    for kernel in wanted:
        func = bare.get(kernel)
        if func is None or kernel not in scheduled:
            continue
        got = space.sample(func, kernel, target, {
            "count": args.get("count", 4), "seed": args.get("seed", 0),
            "population": args.get("population", 128), "generations": args.get("generations", 2),
            "measured": measured.get(kernel) or [], "tried": tried.get(kernel) or []})
        kept = [{"name": f"kept-{i + 1}", "trace": t, "predicted": None,
                 "rationale": f"the winner of an earlier run on this device for `{kernel}`, measured again beside new samples"}
                for i, t in enumerate(keep.get(kernel) or [])]
        for move in kept + got["moves"]:
            try:
                sch = space._replay(tvm.IRModule({kernel: func}), kernel, move["trace"])
                new_func = sch.mod[kernel].with_attr("tir.is_scheduled", True)
                cand = tvm.IRModule(dict(default.functions.items()), attrs=default.attrs)
                cand[cand.get_global_var(kernel)] = new_func
                if is_gpu(target):
                    check_legal(cand, target)
            except JobError as e:
                refused.append({"kernel": kernel, "name": move["name"], "reason": e.message})
                continue
            except Exception as e:
                refused.append({"kernel": kernel, "name": move["name"], "reason": first_line(e)})
                continue
            out.append({"name": f"{kernel}-{move['name']}", "kernel": kernel, "trace": move["trace"],
                        "rationale": move["rationale"].replace("design space", f"design space for {target.kind.name}"),
                        "predicted": move.get("predicted"), "l1_module": pipeline.script(cand),
                        "trained_on": got["trained_on"]})
    return {"l1_default": pipeline.script(default), "kernels": sorted(scheduled), "variants": out, "refused": refused,
            "tvm_s": time.perf_counter() - t0}


def device_source(lib, depth=0):
    """The CUDA C a built module carries (its L2 on a GPU), or None."""
    for sub in lib.imports:
        try:
            src = sub.inspect_source("cuda")
            if src:
                return src
        except Exception:
            pass
        if depth < 3:
            src = device_source(sub, depth + 1)
            if src:
                return src
    return None
