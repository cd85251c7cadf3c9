"""The MetaSchedule-tuned baseline: tuning a task's reference and building
with the tuning database.

Traps (TVM 0.27): tune the module lowered with the "zero" pipeline inside the
target, but apply the database with compile_relax on the RAW module (a lowered
one silently misses the records).
"""

import functools
import json
import os
import socket
import time

import tvm
from tvm import relax

from . import errors
from .errors import JobError
from .pipeline import first_line, lower, make_target, parse_module, script


def _ms():
    from .space import metaschedule

    return metaschedule()


def tune(args):
    """Job `tune`: {source, target, work_dir, max_trials, trials_per_iter,
    seed, reuse_from}. `reuse_from` lists finished tunings of other tasks on
    the same target and device (see `_reuse`)."""
    ms = _ms()
    target = make_target(args["target"])
    mod = parse_module(args["source"])
    work_dir = args["work_dir"]
    os.makedirs(work_dir, exist_ok=True)
    t0 = time.perf_counter()
    with target:
        lowered = relax.get_pipeline("zero")(mod)
    max_trials = int(args.get("max_trials", 64))
    run_timeout = int(args.get("run_timeout_s", 60))
    device = args.get("device") or {}
    runner = _runner(ms, device, run_timeout)
    seed = int(args.get("seed", 0))
    # What tune_relax does, with the kernels that other tasks' tunings
    # already searched enough left out (`_reuse`).
    try:
        extracted = ms.relax_integration.extract_tasks(lowered, target, {}, module_equality="structural")
    except Exception as e:
        raise JobError(errors.BUILD, f"MetaSchedule found no kernels to tune: {first_line(e)}", "tune")
    per_kernel = max(1, max_trials // max(len(extracted), 1))
    reused = _reuse(ms, extracted, work_dir, args.get("reuse_from") or [], per_kernel)
    left = [t for i, t in enumerate(extracted) if i not in reused]
    budget = max_trials - per_kernel * len(reused)
    nothing = not extracted
    if left:
        contexts, weights = ms.relax_integration.extracted_tasks_to_tune_contexts(left, work_dir, seed=seed)
        try:
            ms.tune.tune_tasks(
                tasks=contexts,
                task_weights=weights,
                work_dir=work_dir,
                max_trials_global=budget,
                num_trials_per_iter=int(args.get("trials_per_iter", min(budget, 32))),
                builder=_builder(ms, target, int(args.get("build_timeout_s", 120))),
                runner=runner,
            )
        except Exception as e:
            raise JobError(errors.BUILD, f"MetaSchedule tuning failed: {first_line(e)}", "tune")
    # A module whose kernels have no block MetaSchedule can schedule (a scan
    # written as an extern, for one) has nothing to tune: an empty database,
    # so its tuned baseline is the default build, and the report says so.
    ms.database.JSONDatabase(work_dir=work_dir)
    elapsed = time.perf_counter() - t0
    report = summarize(work_dir)
    if device.get("kind") == "rpc" and not nothing and not any(k["best_us"] for k in report["kernels"]):
        # Every trial failed to run there: a tuning with no measurement is no baseline.
        raise JobError(errors.DEVICE, f"no trial ran on the device behind {device.get('tracker')} (key `{device.get('key')}`): "
                       "check `kwb devices` and the server's log, then tune again (the records made so far are kept)", "tune")
    report.update({"max_trials": max_trials, "elapsed_s": elapsed, "tvm_s": elapsed, "nothing_to_tune": nothing,
                   "reused": sorted(reused.values(), key=lambda r: r["kernel"]), "searched_trials": budget if left else 0,
                   "device": device if device.get("kind") == "rpc" else {"kind": "local"}})
    with open(os.path.join(work_dir, "kwb-tuning.json"), "w") as f:
        json.dump(report, f, indent=1)
    return report


_REUSED = "kwb-reused.json"


def _reuse(ms, extracted, work_dir, others, per_kernel):
    """Kernels of this task that finished tunings of other tasks (same
    target, same device) already searched, together, with at least twice
    `per_kernel` trials: MetaSchedule would search the very same kernel
    again. Twice, because within one tuning MetaSchedule gives the kernel
    that dominates the time more than its share (up to 5x), and two
    searches of one kernel can end a third apart. Every such search's records
    are copied into this task's database (so it stands alone, its best
    is the best of them, and its report counts them), and the kernels are
    left out of this search. Records another tuning copied in are not
    counted again. Returns {index in extracted: what was reused}, also
    kept in the tuning folder, so a resumed tuning leaves out the same
    kernels."""
    before = _reused_in(work_dir)
    if not extracted or not (others or before):
        return {}
    db = ms.database.JSONDatabase(work_dir=work_dir)
    sources = []
    for d in others:
        try:
            sources.append((os.path.basename(d), _reused_in(d), ms.database.JSONDatabase(
                path_workload=os.path.join(d, "database_workload.json"),
                path_tuning_record=os.path.join(d, "database_tuning_record.json"), allow_missing=False)))
        except Exception:  # a folder that is not a database is not a source
            continue
    reused = {}
    for i, task in enumerate(extracted):
        kernel = task.dispatched[0]
        shash = ms.database.Workload(kernel).as_json()[0]
        if shash in before:
            reused[i] = dict(before[shash], kernel=task.task_name)
            continue
        found = []
        for name, copied, src in sources:
            # has_workload first: commit_workload on a known workload only looks it up.
            if shash not in copied and src.has_workload(kernel):
                found.append((name, src.get_top_k(src.commit_workload(kernel), 1 << 20)))
        if sum(len(r) for _, r in found) < 2 * per_kernel:
            continue
        mine = db.commit_workload(kernel)
        for _, records in found:
            for r in records:
                db.commit_tuning_record(ms.database.TuningRecord(r.trace, mine, r.run_secs, r.target, r.args_info))
        reused[i] = {"shash": shash, "kernel": task.task_name, "from": [n for n, r in found if r], "trials": sum(len(r) for _, r in found)}
    with open(os.path.join(work_dir, _REUSED), "w") as f:
        json.dump([{k: v for k, v in r.items() if k != "kernel"} for r in reused.values()], f, indent=1)
    return reused


def _reused_in(folder):
    """{shash: record} of the kernels a tuning folder copied from others
    (its list, or else its report's)."""
    for name, key in ((_REUSED, None), ("kwb-tuning.json", "reused")):
        try:
            with open(os.path.join(folder, name)) as f:
                listed = json.load(f)
            return {r["shash"]: r for r in (listed[key] if key else listed)}
        except (OSError, ValueError, KeyError, TypeError):
            continue
    return {}


def _builder(ms, target, timeout_s):
    """MetaSchedule's builder: its own export (object files that the board
    links) for this machine's architecture; for a board of another, each
    trial linked here by the cross toolchain, as kwb's own builds are."""
    from .cross import cross_gcc

    gcc = cross_gcc(target)
    if gcc is None:
        return ms.builder.LocalBuilder(timeout_sec=timeout_s)
    return ms.builder.LocalBuilder(timeout_sec=timeout_s, f_export=functools.partial(cross_export, gcc))


def cross_export(gcc, mod):
    """A trial's module as a shared object linked by `gcc` (run in
    MetaSchedule's build workers, so a module-level function)."""
    import tempfile

    from tvm.support import cc

    path = os.path.join(tempfile.mkdtemp(prefix="kwb-trial-"), "trial.so")
    mod.export_library(path, fcompile=cc.cross_compiler(gcc))
    return path


def _runner(ms, device, timeout_s):
    """Where MetaSchedule measures its trials: this CPU, or the board behind
    an RPC tracker that candidates are timed on (so the tuned baseline is
    tuned on the device it is compared on). Builds stay on this machine."""
    if device.get("kind") != "rpc":
        return ms.runner.LocalRunner(timeout_sec=timeout_s)
    host, _, port = str(device.get("tracker", "")).rpartition(":")
    if not host or not port.isdigit():
        raise JobError(errors.TASK, f"the device's tracker `{device.get('tracker')}` is not HOST:PORT", "tune")
    try:
        # As for measuring: a dead tracker is said at once, not after TVM's minute of retries.
        socket.create_connection((host, int(port)), timeout=5).close()
    except OSError as e:
        raise JobError(errors.DEVICE, f"no RPC tracker answers at {host}:{port} ({e}); is `kwb device serve` running there?", "tune")
    from .device import Rpc

    board = Rpc(device)
    try:
        board.refuse_timing_if_emulated("tuning")
    finally:
        board.close()
    config = ms.runner.RPCConfig(tracker_host=host, tracker_port=int(port), tracker_key=str(device.get("key", "")),
                                 session_timeout_sec=timeout_s)
    return ms.runner.RPCRunner(rpc_config=config, max_workers=1)


def summarize(work_dir):
    """Per tuned kernel: trials, best latency, and how soon search converged
    (the first trial within 2% of the final best)."""
    records = []
    path = os.path.join(work_dir, "database_tuning_record.json")
    workloads = os.path.join(work_dir, "database_workload.json")
    names = {}
    try:
        with open(workloads) as f:
            for i, line in enumerate(f):
                names[i] = f"kernel {i}"
    except OSError:
        pass
    try:
        with open(path) as f:
            for line in f:
                line = line.strip()
                if line:
                    records.append(json.loads(line))
    except OSError:
        pass
    kernels = {}
    for rec in records:
        wid = rec[0]
        body = rec[1]
        secs = body[1] if isinstance(body, list) and len(body) > 1 else None
        lat = None
        if secs:
            vals = [float(s) for s in secs if s is not None]
            lat = sum(vals) / len(vals) if vals else None
        kernels.setdefault(wid, []).append(lat)
    out = []
    total_trials = 0
    for wid, lats in sorted(kernels.items()):
        valid = [l for l in lats if l is not None and l < 1e9]
        total_trials += len(lats)
        if not valid:
            out.append({"workload": wid, "trials": len(lats), "best_us": None, "converged_at": None})
            continue
        best = min(valid)
        best_so_far, conv = float("inf"), None
        curve = []
        for i, l in enumerate(lats):
            if l is not None and l < best_so_far:
                best_so_far = l
            curve.append(best_so_far * 1e6 if best_so_far < float("inf") else None)
            if conv is None and best_so_far <= best * 1.02:
                conv = i + 1
        out.append({"workload": wid, "trials": len(lats), "best_us": best * 1e6, "converged_at": conv, "curve_us": curve})
    return {"trials": total_trials, "kernels": out}


def compile_tuned(mod, target, work_dir):
    """The Relax executable built with the tuning database's best schedules."""
    ms = _ms()
    if not os.path.exists(os.path.join(work_dir, "database_tuning_record.json")):
        raise JobError(errors.TASK, f"no tuning database in {work_dir}: run `kwb baseline tune`", "baseline")
    db = ms.database.JSONDatabase(work_dir=work_dir)
    return ms.relax_integration.compile_relax(db, mod, target, params=None)


def tuned_module(args):
    """Job `tuned_module`: the reference with the database's schedules applied,
    as TVMScript (an L1 module that can be opened as a candidate)."""
    ms = _ms()
    target = make_target(args["target"])
    mod = parse_module(args["source"])
    db = ms.database.JSONDatabase(work_dir=args["work_dir"])
    with target, db:
        l1 = lower(mod, target)
        applied = relax.transform.MetaScheduleApplyDatabase(enable_warning=False)(l1)
    return {"module": script(applied), "summary": summarize(args["work_dir"]), "tvm_s": 0.0}


def best_traces(args):
    """Job `best_traces`: per tuned workload, the best record's schedule trace
    (Python lines using `sch`) and its measured time."""
    ms = _ms()
    db = ms.database.JSONDatabase(work_dir=args["work_dir"])
    best = {}
    for rec in db.get_all_tuning_records():
        secs = [float(x) for x in (rec.run_secs or [])]
        if not secs:
            continue
        t = sum(secs) / len(secs)
        key = tvm.ir.structural_hash(rec.workload.mod) if hasattr(tvm.ir, "structural_hash") else id(rec.workload)
        if key not in best or t < best[key][0]:
            best[key] = (t, rec)
    out = []
    for t, rec in sorted(best.values(), key=lambda x: -x[0]):
        names = [gv.name_hint for gv in rec.workload.mod.get_global_vars()]
        out.append({"kernel": names[0] if names else "?", "best_us": t * 1e6, "trace": list(rec.trace.as_python())})
    return {"workloads": out, "tvm_s": 0.0}
