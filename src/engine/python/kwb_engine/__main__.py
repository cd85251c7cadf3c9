"""Worker entry point: `python -m kwb_engine`.

Protocol (version 1), one JSON object per line:
  worker -> kwb, once at start: {"v":1,"event":"ready","pid":..,"versions":{..},"import_s":..}
  kwb -> worker: {"v":1,"id":N,"op":"build"|"check"|"time"|"doctor"|"import_task"|"ping","args":{..}}
  worker -> kwb: {"v":1,"id":N,"ok":true,"result":{..}}
              or {"v":1,"id":N,"ok":false,"error":{"class":..,"message":..,"stage":..,"line":..,"column":..}}
Every result carries worker_s (time in the handler) and tvm_s (the part of it
spent inside TVM builds and measured runs), so kwb can report its overhead.
"""

import json
import math
import os
import sys
import time
import traceback

from . import PROTOCOL_VERSION


def _protocol_stream():
    # The protocol owns the real stdout; anything else that prints (TVM, LLVM,
    # a candidate's printf) is sent to stderr so it cannot corrupt a reply.
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def _limit_cpu(seconds):
    """CPU-time limit for this job: the kernel sends SIGXCPU past it, which the
    supervisor reports as a timeout even if the wall-clock timer is late."""
    if not seconds:
        return
    import resource

    ru = resource.getrusage(resource.RUSAGE_SELF)
    soft = int(ru.ru_utime + ru.ru_stime + float(seconds)) + 1
    _, hard = resource.getrlimit(resource.RLIMIT_CPU)
    if hard != resource.RLIM_INFINITY:
        soft = min(soft, hard)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, hard))


def _finite(obj):
    """obj with every non-finite float as null: JSON has no Infinity or NaN,
    and a reply the supervisor cannot parse loses the whole result (an
    infinite relative error where the reference is zero)."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: _finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_finite(v) for v in obj]
    return obj


def main():
    out = _protocol_stream()

    def send(obj):
        out.write(json.dumps(_finite(obj), allow_nan=False) + "\n")
        out.flush()

    t = time.perf_counter()
    # Confined before anything else is imported: only this thread exists yet.
    from . import confine

    sandbox = confine.apply()
    from . import lifeline

    lifeline.hold()
    fork_per_job = sandbox.get("role") == "build"
    sandbox["fork_per_job"] = fork_per_job
    import tvm  # noqa: F401  (warm the import once per worker)

    from . import build, carried_profile, check, cuda_l2, doctor, errors, gpu, layers, machine, moves, output_digest, peaks, profile, space, timing, tune

    def import_task(args):
        from . import importer  # needs torch: imported only when asked

        return importer.import_task(args)

    def time_eager(args):
        from . import eager  # needs torch: imported only when asked

        return eager.eager(args)

    ops = {
        "ping": lambda args: {"pong": True, "tvm_s": 0.0},
        "probe": doctor.probe,
        "build": build.build,
        "derive": layers.derive,
        "profile": profile.profile,
        "l0_moves": moves.l0_moves,
        "l1_moves": moves.l1_moves,
        "l1_space_moves": space.l1_space_moves,
        "gpu_variants": gpu.variants,
        "l2_moves": moves.l2_moves,
        "cuda_l2_moves": cuda_l2.moves,
        "gpu_kernel_facts": carried_profile.kernel_facts,
        "size": layers.size,
        "tune": tune.tune,
        "machine": machine.measure,
        "device_peaks": peaks.job,
        "peaks_build": peaks.build_job,
        "tuned_module": tune.tuned_module,
        "best_traces": tune.best_traces,
        "check": check.check,
        "reference_outputs": output_digest.reference_outputs,
        "time": timing.paired,
        "doctor": doctor.doctor,
        "import_task": import_task,
        "eager": time_eager,
    }
    send({
        "v": PROTOCOL_VERSION,
        "event": "ready",
        "pid": os.getpid(),
        "versions": doctor.versions(),
        "sandbox": sandbox,
        "import_s": time.perf_counter() - t,
    })
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        try:
            req = json.loads(line)
        except json.JSONDecodeError as e:
            send({"v": PROTOCOL_VERSION, "id": None, "ok": False,
                  "error": {"class": errors.INTERNAL, "message": f"bad request line: {e}"}})
            continue
        rid = req.get("id")
        if req.get("v") != PROTOCOL_VERSION:
            send({"v": PROTOCOL_VERSION, "id": rid, "ok": False,
                  "error": {"class": errors.INTERNAL,
                            "message": f"protocol version {req.get('v')} is not {PROTOCOL_VERSION}"}})
            continue
        handler = ops.get(req.get("op"))
        if handler is None:
            send({"v": PROTOCOL_VERSION, "id": rid, "ok": False,
                  "error": {"class": errors.INTERNAL, "message": f"unknown op {req.get('op')!r}"}})
            continue
        args = req.get("args") or {}
        _limit_cpu(args.pop("_cpu_limit_s", None))
        if fork_per_job:
            _run_forked(send, rid, handler, args)
        else:
            _run(send, rid, handler, args)


def _run(send, rid, handler, args):
    from . import errors
    from .errors import JobError

    t0 = time.perf_counter()
    try:
        result = handler(args)
        result["worker_s"] = time.perf_counter() - t0
        send({"v": PROTOCOL_VERSION, "id": rid, "ok": True, "result": result})
    except JobError as e:
        send({"v": PROTOCOL_VERSION, "id": rid, "ok": False, "error": e.to_json()})
    except MemoryError as e:
        send({"v": PROTOCOL_VERSION, "id": rid, "ok": False,
              "error": {"class": errors.MEMORY, "message": f"out of memory: {e}"}})
    except Exception as e:
        send({"v": PROTOCOL_VERSION, "id": rid, "ok": False,
              "error": {"class": errors.INTERNAL, "message": f"{type(e).__name__}: {e}",
                        "traceback": traceback.format_exc()[-4000:]}})


def _run_forked(send, rid, handler, args):
    """A build worker never parses candidate text itself: each job runs in a
    child forked from it (TVM already imported, nothing of any candidate
    seen), which replies and exits, so whatever a candidate did to its
    interpreter dies with that job. A child that dies without a reply is
    reported here, with how it died."""
    import signal

    from . import errors

    pid = os.fork()
    if pid == 0:
        # The worker's lifeline (kill the group on SIGTERM) is the worker's alone.
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        code = 0
        try:
            _run(send, rid, handler, args)
        except BaseException:
            code = 1
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status) or os.WEXITSTATUS(status) != 0:
        how = f"killed by {signal.Signals(os.WTERMSIG(status)).name}" if os.WIFSIGNALED(status) else f"exited with {os.WEXITSTATUS(status)}"
        cls = errors.TIMEOUT if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGXCPU else errors.CRASH
        send({"v": PROTOCOL_VERSION, "id": rid, "ok": False,
              "error": {"class": cls, "message": f"the build process died ({how})"}})


if __name__ == "__main__":
    main()
