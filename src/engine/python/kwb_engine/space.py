"""The L1 agent's search that learns: schedules sampled from MetaSchedule's
own design space for one kernel, ranked by a cost model trained on this
session's measurements, so only the few it ranks best are built and timed.

Each call is one round: the kernel's measured variants so far (any trace,
the rule-based moves' as well as earlier samples, with the time the session
measured) train an XGBoost model over MetaSchedule's program features;
MetaSchedule's evolutionary search then samples and mutates schedules from
the design space (seeded with the measured ones) and keeps those the model
ranks fastest. What comes back are plain trace lines, the same kind of
move as the rule-based ones, checked and replayed the same way.
"""

import contextlib
import inspect
import sys
import time

import tvm
from tvm import s_tir

from . import module_text, pipeline, text_policy


@contextlib.contextmanager
def _quick_stack():
    """MetaSchedule's first TuneContext imports TVM's tensor intrinsics,
    hundreds of TVMScript functions, each of whose decorators calls
    inspect.stack() and so reads the source lines of every frame: 24 s on
    this machine. The parser reads the code of one frame only (the third,
    to see whether it is in a class), so the others are given without it:
    the import takes a few seconds, once per worker."""
    orig = inspect.stack

    def stack(context=1):
        out, f, i = [], sys._getframe(1), 0
        while f is not None:
            if i == 2:
                out.append(inspect.FrameInfo(f, *inspect.getframeinfo(f, context)))
            else:
                out.append(inspect.FrameInfo(f, f.f_code.co_filename, f.f_lineno, f.f_code.co_name, None, None))
            f, i = f.f_back, i + 1
        return out

    inspect.stack = stack
    try:
        yield
    finally:
        inspect.stack = orig


def metaschedule():
    """TVM's MetaSchedule, its tensor intrinsics imported quickly (see _quick_stack)."""
    with _quick_stack():
        from tvm.s_tir import meta_schedule as ms
        from tvm.s_tir import tensor_intrin  # noqa: F401  (imported here, not inside TuneContext)
    return ms


def _replay(one, kernel, lines):
    sch = s_tir.Schedule(one)
    sch.work_on(kernel)
    text_policy.run_trace(sch, lines)
    return sch


def _key(lines):
    return "\n".join(lines)


def l1_space_moves(args):
    """{l1_module, kernel, target, count, seed, measured: [{trace, seconds}], tried: [trace]}
    -> {moves: [{name, rationale, trace}], trained_on, sampled, spaces}."""
    t0 = time.perf_counter()
    target = pipeline.make_target(args["target"])
    kernel = args["kernel"]
    mod = module_text.parse_kernel(args["l1_module"], kernel)
    func = pipeline.kernels_of(mod).get(kernel)
    if func is None:
        return {"moves": [], "reason": f"no kernel `{kernel}`", "tvm_s": 0.0}
    out = sample(func, kernel, target, args)
    out["tvm_s"] = time.perf_counter() - t0
    return out


def sample(func, kernel, target, args):
    """Schedules for the unscheduled PrimFunc `func` from MetaSchedule's
    design space for `target`, ranked by a cost model trained on
    args["measured"]; args["tried"] and the measured ones are never offered."""
    ms = metaschedule()
    one = tvm.IRModule({kernel: func})
    count = int(args.get("count", 4))
    seed = int(args.get("seed", 0))
    ctx = ms.TuneContext(mod=one, target=target, space_generator="post-order-apply",
                         search_strategy=ms.search_strategy.EvolutionarySearch(
                             population_size=int(args.get("population", 256)), init_measured_ratio=0.5,
                             init_min_unmeasured=64, genetic_num_iters=int(args.get("generations", 2)), eps_greedy=0.05),
                         task_name=kernel, num_threads=1, rand_state=seed)
    spaces = ctx.generate_design_space()
    db = ms.database.MemoryDatabase()
    workload = db.commit_workload(one)
    arg_info = ms.arg_info.ArgInfo.from_prim_func(func)
    cands, results = [], []
    for m in args.get("measured") or []:
        try:
            sch = _replay(one, kernel, m["trace"])
        except Exception:
            continue
        secs = float(m["seconds"])
        cands.append(ms.MeasureCandidate(sch, arg_info))
        results.append(ms.runner.RunnerResult(run_secs=[secs], error_msg=None))
        if any("sample_" in line for line in m["trace"]):
            # Only MetaSchedule's own traces seed its evolution: mutation works on their sampling decisions.
            db.commit_tuning_record(ms.database.TuningRecord(sch.trace, workload, [secs], target, arg_info))
    model = ms.cost_model.XGBModel(num_warmup_samples=2, verbose_eval=10**9)
    trained = len(cands) >= 2
    if trained:
        model.update(ctx, cands, results)
    ctx.pre_tuning(max_trials=count * 8, num_trials_per_iter=count * 8, design_spaces=spaces, database=db,
                   cost_model=model if trained else ms.cost_model.RandomModel(seed=seed))
    picked = ctx.generate_measure_candidates() or []
    tried = {_key(t) for t in args.get("tried") or []} | {_key(m["trace"]) for m in args.get("measured") or []}
    scores = model.predict(ctx, picked) if trained and picked else [None] * len(picked)
    ranked = sorted(zip(picked, scores), key=lambda p: -(p[1] if p[1] is not None else 0.0))
    moves = []
    for cand, score in ranked:
        lines = [str(line) for line in cand.sch.trace.as_python()]
        if _key(lines) in tried:
            continue
        try:
            _replay(one, kernel, lines)  # offered only if it replays under the trace policy
        except Exception:
            continue
        tried.add(_key(lines))
        why = f"a schedule from MetaSchedule's design space for `{kernel}`"
        why += (f", ranked {len(moves) + 1} of {len(picked)} by a cost model trained on {len(cands)} measured variants"
                if trained else ", sampled at random (no measured variants to learn from yet)")
        moves.append({"name": f"space-{seed}-{len(moves) + 1}", "rationale": why, "trace": lines,
                      "predicted": float(score) if score is not None else None})
        if len(moves) >= count:
            break
    return {"moves": moves, "trained_on": len(cands), "sampled": len(picked), "spaces": len(spaces)}
