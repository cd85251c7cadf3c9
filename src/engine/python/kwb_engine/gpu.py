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

from . import errors, gpu_map, gpu_tiling, gpu_window, moves, pipeline, space
from .errors import JobError, first_line


# Contraction tilings chosen by design (gpu_tiling) offered per kernel,
# beside the sampled ones.
TILED_PER_KERNEL = 6


class _NoSampling(Exception):
    """`count` 0: no sampled schedules asked for."""


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


def _children(stmt):
    if isinstance(stmt, tvm.tirx.SeqStmt):
        return list(stmt.seq)
    out = []
    for attr in ("body", "block", "init", "then_case", "else_case"):
        child = getattr(stmt, attr, None)
        if isinstance(child, tvm.tirx.Stmt):
            out.append(child)
    return out


def unbound_stores(func):
    """Stores not inside any loop bound to GPU blocks or threads: code the
    host would run on device memory (TVM builds it without complaint)."""
    count = 0
    stack = [func.body]
    while stack:
        s = stack.pop()
        if isinstance(s, tvm.tirx.For) and s.kind == tvm.tirx.ForKind.THREAD_BINDING:
            continue
        if isinstance(s, tvm.tirx.AttrStmt) and s.attr_key == "thread_extent":
            continue
        if isinstance(s, tvm.tirx.BufferStore):
            count += 1
            continue
        stack.extend(_children(s))
    return count


def check_legal(mod, target):
    """Every kernel of an L1 module within the GPU's limits, with no loop
    left unbound: raises JobError(parallel, stage legality) naming the
    kernel and the rule (a failure of the kernel's parallel mapping)."""
    limits = _limits(target)
    for gv, func in mod.functions.items():
        if not isinstance(func, tvm.tirx.PrimFunc):
            continue
        name = gv.name_hint
        if unbound_stores(func):
            raise JobError(errors.PARALLEL, f"kernel `{name}`: {unbound_stores(func)} store(s) outside any loop bound to GPU "
                           "blocks or threads (bind loops with sch.bind, e.g. to blockIdx.x and threadIdx.x)", "legality")
        one = tvm.IRModule({name: func.with_attr("target", target).with_attr("global_symbol", name)})
        try:
            # TVM's own TIR lowering, as a build runs it, so the limits are
            # checked on what the GPU will run.
            with target:
                lowered = tvm.s_tir.pipeline.default_s_tir_pipeline()[0](one)
        except Exception:
            # Lowered alone, outside the module, some kernels TVM builds fine
            # do not lower (dlight's cross-thread reductions): the build
            # itself will say if this one cannot.
            continue
        for f in lowered.functions.values():
            try:
                if tvm.s_tir.analysis.verify_gpu_code(f, limits):
                    continue
            except Exception:
                # TVM's verifier stops at a thread extent it cannot read
                # (a dlight reduction's): nothing to say about that kernel.
                continue
            threads = _threads_per_block(f)
            if threads > limits["max_threads_per_block"]:
                raise JobError(errors.PARALLEL, f"kernel `{name}` exceeds the GPU's limits: {threads} threads per block, "
                               f"at most {limits['max_threads_per_block']}", "legality")
            raise JobError(errors.MEMORY, f"kernel `{name}` exceeds the GPU's limits: more than "
                           f"{limits['max_shared_memory_per_block']} bytes of shared memory per block, or vector "
                           f"accesses wider than {limits['max_vector_bytes']} bytes", "legality")


def _threads_per_block(func):
    extents, stack = {}, [func.body]
    while stack:
        node = stack.pop()
        if isinstance(node, tvm.tirx.AttrStmt) and node.attr_key == "thread_extent":
            tag = node.node.thread_tag
            if tag.startswith("threadIdx") and isinstance(node.value, tvm.tirx.IntImm):
                extents[tag] = max(extents.get(tag, 1), int(node.value))
        stack.extend(_children(node))
    n = 1
    for v in extents.values():
        n *= v
    return n


def variants(args):
    """Job `gpu_variants`: {source (L0 text), target, count, seed,
    measured: {kernel: [{trace, seconds}]}, tried: {kernel: [trace]},
    keep: {kernel: [trace]}, combine?: {kernel: trace}, kernels?: [names], tiled?: count, split_k?: count,
    graph?: bool} -> {l1_default,
    kernels, variants: [{name, kernel, trace, rationale, predicted, l1_module}], refused: [...]}.

    `count` schedules per kernel; each variant is the default (dlight) L1
    with that one kernel replaced; `keep` traces (an earlier run's
    winners) come first, so a later run reports the best of both; then up
    to `tiled` contraction tilings chosen by design (gpu_tiling) and `split_k`
    more that split the reduction across blocks where the output alone
    cannot fill the GPU. With `combine`, a first variant replaces every
    kernel named there at once. On a CPU target (a pack tried out here)
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
        try:
            if int(args.get("count", 4)) <= 0:
                raise _NoSampling()
            got = space.sample(func, kernel, target, {
                "count": args.get("count", 4), "seed": args.get("seed", 0),
                "population": args.get("population", 128), "generations": args.get("generations", 2),
                "measured": measured.get(kernel) or [], "tried": tried.get(kernel) or []})
        except _NoSampling:
            got = {"moves": [], "trained_on": 0}
        except Exception as e:  # a kernel MetaSchedule cannot schedule keeps its default
            refused.append({"kernel": kernel, "name": "design space", "reason": first_line(e)})
            got = {"moves": [], "trained_on": 0}
        designed = []
        if is_gpu(target) and int(args.get("tiled", TILED_PER_KERNEL)) > 0:
            try:
                designed = gpu_tiling.moves(func, kernel, target, int(args.get("tiled", TILED_PER_KERNEL)),
                                            int(args.get("split_k", gpu_tiling.SPLIT_K_TILINGS)))
            except Exception as e:  # a contraction this cannot tile is left to the sampler
                refused.append({"kernel": kernel, "name": "tile by design", "reason": first_line(e)})
            try:
                designed += gpu_window.moves(func, kernel, target) + gpu_window.row_moves(func, kernel, target)
                designed += gpu_map.moves(func, kernel, target)
            except Exception as e:  # a kernel this family cannot shape keeps the others
                refused.append({"kernel": kernel, "name": "one thread per output", "reason": first_line(e)})
        kept = [{"name": f"kept-{i + 1}", "trace": t, "predicted": None,
                 "rationale": f"the winner of an earlier run on this device for `{kernel}`, measured again beside new samples"}
                for i, t in enumerate(keep.get(kernel) or [])]
        for move in kept + designed + got["moves"]:
            try:
                cand = _with_schedule(default, kernel, func, move["trace"], target)
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
    if args.get("graph"):
        out[:0] = _graph_variants(mod, target, refused)
    combined = _combined(default, bare, args.get("combine") or {}, target, refused)
    if combined is not None:
        out.insert(0, combined)
    return {"l1_default": pipeline.script(default), "kernels": sorted(scheduled), "variants": out, "refused": refused,
            "tvm_s": time.perf_counter() - t0}


def _with_schedule(default, kernel, func, trace, target):
    """`default` with `kernel` replaced by its bare `func` scheduled by
    `trace`, checked for the GPU's limits on a GPU target."""
    sch = space._replay(tvm.IRModule({kernel: func}), kernel, trace)
    cand = tvm.IRModule(dict(default.functions.items()), attrs=default.attrs)
    cand[cand.get_global_var(kernel)] = sch.mod[kernel].with_attr("tir.is_scheduled", True)
    if is_gpu(target):
        check_legal(cand, target)
    return cand


def _graph_variants(mod, target, refused):
    """Each L0 move that changes the graph `mod`, lowered with the default
    schedules (dlight's on a GPU): a rewrite that changes which kernels
    there are (a normalization in one kernel instead of five, fast math)
    is a candidate of its own, checked and timed like the others."""
    out = []
    for name, rationale, make in moves.L0_PASSES:
        try:
            new = make()(mod)
            text = pipeline.script(new)
            if moves.same_module(new, mod) or not moves.round_trips(text):
                continue
            cand = pipeline.lower(new, target)
            if is_gpu(target):
                check_legal(cand, target)
        except JobError as e:
            refused.append({"kernel": None, "name": f"l0-{name}", "reason": e.message})
            continue
        except Exception as e:  # a rewrite TVM cannot lower for this target is not offered
            refused.append({"kernel": None, "name": f"l0-{name}", "reason": first_line(e)})
            continue
        out.append({"name": f"l0-{name}", "kernel": None, "trace": None, "layer": "l0", "l0": text,
                    "rationale": f"graph rewrite: {rationale}", "predicted": None, "l1_module": pipeline.script(cand), "trained_on": 0})
        out += _designed_after(name, text, new, cand, target, refused)
    return out


def _designed_after(move, text, mod, default, target, refused):
    """The rewritten graph `mod` with one of its kernels given the first
    schedule a design family offers it, per kernel that has one: a graph
    rewrite can make a kernel (a max where there was a sort) that dlight
    schedules badly."""
    if not is_gpu(target):
        return []
    out = []
    for kernel, func in sorted(pipeline.kernels_of(lower_unscheduled(mod, target)).items()):
        try:
            designs = (gpu_window.moves(func, kernel, target, 1) + gpu_window.row_moves(func, kernel, target, 1))[:1]
            for d in designs:
                cand = _with_schedule(default, kernel, func, d["trace"], target)
                out.append({"name": f"l0-{move}+{kernel}-{d['name']}", "kernel": None, "trace": None, "layer": "l0", "l0": text,
                            "rationale": f"graph rewrite `{move}`, then `{kernel}` scheduled by design: {d['rationale']}",
                            "predicted": None, "l1_module": pipeline.script(cand), "trained_on": 0})
        except JobError as e:
            refused.append({"kernel": kernel, "name": f"l0-{move}+design", "reason": e.message})
        except Exception as e:
            refused.append({"kernel": kernel, "name": f"l0-{move}+design", "reason": first_line(e)})
    return out


def _combined(default, bare, combine, target, refused):
    """One variant with every kernel in `combine` ({kernel: trace}, each
    kernel's fastest schedule of an earlier run) replaced at once: each was
    measured with the others at their default, so together they are a new
    candidate, measured like any other. None for fewer than two kernels."""
    combine = {k: t for k, t in combine.items() if k in bare}
    if len(combine) < 2:
        return None
    cand = tvm.IRModule(dict(default.functions.items()), attrs=default.attrs)
    try:
        for kernel, trace in sorted(combine.items()):
            sch = space._replay(tvm.IRModule({kernel: bare[kernel]}), kernel, trace)
            cand[cand.get_global_var(kernel)] = sch.mod[kernel].with_attr("tir.is_scheduled", True)
        if is_gpu(target):
            check_legal(cand, target)
    except Exception as e:
        refused.append({"kernel": None, "name": "combined", "reason": getattr(e, "message", None) or first_line(e)})
        return None
    names = ", ".join(f"`{k}`" for k in sorted(combine))
    return {"name": "combined", "kernel": None, "trace": None, "traces": dict(sorted(combine.items())),
            "rationale": f"each kernel's fastest schedule of an earlier run on this device, all at once ({names})",
            "predicted": None, "l1_module": pipeline.script(cand), "trained_on": 0}


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
