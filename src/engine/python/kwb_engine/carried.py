"""The device side of a carried pack: run on a machine kwb cannot reach
(a GPU box), with only TVM's runtime there.

`kwb carry pack` builds, on the host, each task's baseline and candidates
for the device's target, with the reference outputs the host checked
against the task's digest. This module runs there:

    python -m kwb_engine.carried PACK OUT [--only a,b] [--cpu] [--time-limit S]

and applies the same checks and the same paired timing as kwb does locally
(check.py, timing.py, on a CUDA device handle): three seeds against the
reference outputs, inputs compared with their originals, a re-run on
perturbed inputs against the baseline, then paired alternating timing
against the baseline on rotating input sets. A task's winner is chosen the
way `kwb bench` chooses one: the (at most) three candidates faster than the
baseline by their point estimates are timed again on other inputs, the
fastest valid one a third time on others again, and that figure is
reported. PyTorch eager runs the task's own model.py on the same device in
the same run. Results go to OUT/results.json after every task, so a run cut
short keeps what it measured.
"""

import argparse
import ctypes
import glob
import hashlib
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor

FINALISTS = 3


# The process's nvcc (None on a CPU): L2 candidates swap sources through it.
_NVCC = None


def _runtime_only():
    """Use TVM's runtime library alone when its compiler is not shipped."""
    try:
        import importlib.util

        spec = importlib.util.find_spec("tvm")
        lib = os.path.join(os.path.dirname(spec.origin), "lib", "libtvm_compiler.so") if spec else None
    except Exception:
        lib = None
    if lib is None or not os.path.exists(lib):
        os.environ["TVM_USE_RUNTIME_LIB"] = "1"


class Nvcc:
    """CUDA C to cubin with the device's nvcc, cached by the source's hash:
    the pack's sources are compiled in parallel before anything is timed,
    so loading a module finds its cubin ready."""

    def __init__(self, arch, cache):
        self.arch = arch
        self.cache = cache
        self.compiled = 0
        # An L2 candidate's edit, while its module loads: (sha256 of the
        # source the module carries, the edited source), and whether it was used.
        self.replacing = None
        self.replaced = False
        os.makedirs(cache, exist_ok=True)

    def path(self, code):
        return os.path.join(self.cache, hashlib.sha256(code.encode()).hexdigest()[:32] + ".cubin")

    def compile(self, code):
        if self.replacing and hashlib.sha256(code.encode()).hexdigest() == self.replacing[0]:
            code, self.replaced = self.replacing[1], True
        out = self.path(code)
        if not os.path.exists(out):
            with tempfile.TemporaryDirectory() as d:
                src = os.path.join(d, "k.cu")
                with open(src, "w") as f:
                    f.write(code)
                # Two modules can carry the same source: each compile writes its own file.
                tmp = f"{out}.{os.getpid()}.{threading.get_ident()}.tmp"
                done = subprocess.run(["nvcc", "--cubin", "-w", "-O3", f"-arch={self.arch}", "-o", tmp, src],
                                      capture_output=True, text=True)
                if done.returncode != 0:
                    # What ptxas or nvcc said (e.g. too much shared memory), not just the exit status.
                    raise RuntimeError("nvcc: " + " ".join((done.stderr or done.stdout or "").split())[-400:])
                os.replace(tmp, out)
                self.compiled += 1
        with open(out, "rb") as f:
            return bytearray(f.read())

    def precompile(self, sources, workers):
        with ThreadPoolExecutor(max_workers=max(1, workers)) as pool:
            errs = [f for f in pool.map(self._try, sources) if f]
        return errs

    def _try(self, path):
        import gzip

        try:
            with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
                self.compile(f.read())
            return None
        except RuntimeError as e:
            return f"{path}: {e}"


def _with_l2_edits(dev, nvcc, edits):
    """Loading an L2 candidate's module (its own copy of its parent's)
    compiles its edited CUDA C instead of the source the module carries; a
    load that did not use the edit fails, so an edit is never timed as its
    parent. `edits`: {artifact path: (sha256 of the parent's source, edited source)}."""
    load = dev.load_vm

    def load_vm(artifact):
        edit = edits.get(os.path.abspath(artifact))
        if edit is None or nvcc is None:
            return load(artifact)
        nvcc.replacing, nvcc.replaced = edit, False
        try:
            vm = load(artifact)
        finally:
            nvcc.replacing = None
        if not nvcc.replaced:
            from .errors import JobError

            raise JobError("build", "the L2 edit was not applied: the module's CUDA source is not the one it edits", "load")
        return vm

    dev.load_vm = load_vm
    return dev


def _l2_edits(task_dir, task):
    import gzip

    out = {}
    for c in task["candidates"]:
        e = c.get("cuda_edit")
        if e and c.get("artifact"):
            with gzip.open(os.path.join(task_dir, e["source"]), "rt") as f:
                out[os.path.abspath(os.path.join(task_dir, c["artifact"]))] = (e["replaces"], f.read())
    return out


def _cuda_runtime(nvcc):
    import tvm

    for p in glob.glob(os.path.join(os.path.dirname(tvm.__file__), "lib", "libtvm_runtime_cuda*.so")):
        ctypes.CDLL(p, mode=ctypes.RTLD_GLOBAL)

    @tvm.register_global_func("tvm_callback_cuda_compile", override=True)
    def _compile(code, target=None):  # noqa: ARG001
        return nvcc.compile(code)


def _timing_args(task, base, cand, offset, opts):
    return {"baseline_artifact": base, "candidate_artifact": cand, "args_spec": task["args_spec"],
            "atol": task["atol"], "rtol": task["rtol"], "input_offset": offset, "min_ms": opts.min_ms,
            "pairs": 15, "repeat": 3, "max_rounds": 4, "max_ci": 0.01, "budget_s": 30.0,
            "order_seed": offset}


def _slim(t):
    return {k: t[k] for k in ("baseline_ms", "candidate_ms", "speedup_median", "ci", "spread", "timing_valid",
                              "rounds", "input_sets", "spot_check", "inputs_mutated", "number") if k in t}


def _measure(dev, task_dir, task, opts):
    from . import check, timing
    from .errors import JobError

    from . import output_digest

    base = os.path.join(task_dir, task["baseline"])
    outputs = os.path.join(task_dir, "outputs")
    dev = _with_l2_edits(dev, _NVCC, _l2_edits(task_dir, task))
    rec = {"id": task["id"], "size": task.get("size"), "shapes": [a["shape"] for a in task["args_spec"] if a.get("role") == "input"], "candidates": [], "flops": task.get("flops"), "bytes": task.get("bytes")}
    # Where a task's device time goes, so a short device session can be planned.
    rec["phases_s"] = phases = {}
    since = [time.perf_counter()]

    def done(phase):
        now = time.perf_counter()
        phases[phase] = round(now - since[0], 2)
        since[0] = now
    if os.path.exists(os.path.join(outputs, output_digest.digest_name(0))):
        # The task ships a digest of PyTorch's outputs: the baseline, run on
        # this device, gives the outputs candidates are held to, and only if
        # it agrees with the digest (as kwb does on any machine).
        ref_dir = os.path.join(tempfile.gettempdir(), "kwb-reference", task["id"])
        try:
            got = output_digest.reference_outputs({"artifact": base, "args_spec": task["args_spec"], "digest_dir": outputs,
                                                   "out_dir": ref_dir, "atol": task["atol"], "rtol": task["rtol"],
                                                   "device": dev.describe()})
            rec["reference_vs_pytorch"] = got["seeds"]
        except JobError as e:
            rec["baseline_correct"] = False
            rec["baseline_failure"] = e.to_json()
            return rec
        outputs = ref_dir
    done("reference")
    chk = {"artifact": base, "args_spec": task["args_spec"], "outputs_dir": outputs, "atol": task["atol"], "rtol": task["rtol"]}
    try:
        b = check._check_on(dev, chk)
        rec["baseline_correct"] = b["correct"]
        rec["baseline_failure"] = b["failure"]
        noise = timing._paired_on(dev, _timing_args(task, base, base, 0, opts))
        rec["baseline_ms"] = noise["baseline_ms"]
        rec["noise"] = abs(noise["speedup_median"] - 1.0)
    except JobError as e:
        rec["baseline_correct"] = False
        rec["baseline_failure"] = e.to_json()
        return rec
    done("baseline")
    rec["profile"] = _profile(dev, task_dir, task, base, task.get("kernels"), _cuda_source_of({"artifact": task["baseline"]}))
    done("profile")
    for c in task["candidates"]:
        row = {k: c.get(k) for k in ("name", "kernel", "layer", "trace", "traces", "rationale", "predicted", "build_failure")}
        rec["candidates"].append(row)
        # A candidate that did not build on the host has no artifact.
        if c.get("build_failure") or not c.get("artifact"):
            row["compiled"] = False
            row["build_failure"] = row["build_failure"] or "no artifact in the pack"
            continue
        art = os.path.join(task_dir, c["artifact"])
        row["compiled"] = True
        try:
            got = check._check_on(dev, dict(chk, artifact=art, baseline_artifact=base))
            row["correct"] = got["correct"]
            row["failure"] = got["failure"]
            if got["correct"]:
                row["timing"] = _slim(timing._paired_on(dev, _timing_args(task, base, art, 0, opts)))
        except JobError as e:
            row["correct"] = False
            row["failure"] = e.to_json()
    done("candidates")
    _choose(dev, task_dir, task, rec, opts)
    done("finalists")
    return rec


def _profile(dev, task_dir, task, artifact, facts, cuda_source):
    """One module's per-kernel times on this device (the baseline's, and the
    winner's), with each kernel's launch shape (from the pack) and resource
    use (from the cubin built here from `cuda_source`, the pack's gzipped
    CUDA C), for the hardware agent's routing in `kwb carry report`; a
    failure here costs only the profile."""
    import gzip

    from . import carried_profile

    try:
        usage = None
        source = os.path.join(task_dir, cuda_source) if cuda_source else None
        if _NVCC is not None and source and os.path.exists(source):
            with gzip.open(source, "rt") as f:
                usage = carried_profile.resource_usage(_NVCC.path(f.read()))
        got = carried_profile.measure(dev, artifact, task["args_spec"], facts or [], usage)
        got["resource_usage"] = "cuobjdump" if usage else None
        return got
    except Exception as e:
        return {"error": f"{type(e).__name__}: {str(e)[:300]}"}


def _cuda_source_of(c):
    """The gzipped CUDA C a packed module's cubin is built from: an L2
    candidate's edit, or the source packed beside its artifact."""
    if c.get("cuda_edit"):
        return c["cuda_edit"]["source"]
    return os.path.splitext(c["artifact"])[0] + ".cu.gz"


def _choose(dev, task_dir, task, rec, opts):
    """Finalists measured again on other inputs; the best valid one a third time."""
    from . import timing

    base = os.path.join(task_dir, task["baseline"])
    timed = [c for c in rec["candidates"] if c.get("timing") and c["timing"]["speedup_median"] > 1.0
             and not c["timing"].get("inputs_mutated") and c["timing"].get("spot_check", {}).get("ok", True)]
    timed.sort(key=lambda c: -c["timing"]["speedup_median"])
    finals = []
    for c in timed[:FINALISTS]:
        art = os.path.join(task_dir, next(x["artifact"] for x in task["candidates"] if x["name"] == c["name"]))
        again = _slim(timing._paired_on(dev, _timing_args(task, base, art, 1, opts)))
        finals.append({"name": c["name"], "search": c["timing"]["speedup_median"], "again": again, "artifact": art})
    rec["finalists"] = [{k: f[k] for k in ("name", "search", "again")} for f in finals]
    valid = [f for f in finals if f["again"]["timing_valid"]]
    if not finals:
        rec["winner"] = None
        return
    if not valid:
        # None timed validly again: the search's best stands, reported as measured again (not valid).
        f = finals[0]
        confirm = f["again"]
    elif len(finals) == 1:
        f = valid[0]
        confirm = f["again"]
    else:
        f = max(valid, key=lambda x: x["again"]["speedup_median"])
        confirm = _slim(timing._paired_on(dev, _timing_args(task, base, f["artifact"], 2, opts)))
    rec["winner"] = {"name": f["name"], "search_speedup": f["search"], "confirm": confirm,
                     "speedup": confirm["speedup_median"], "valid": bool(confirm["timing_valid"]),
                     "candidate_ms": confirm["candidate_ms"], "baseline_ms": confirm["baseline_ms"]}
    # The winner profiled as the baseline was: the hardware agent's reading
    # after the change beside the one before it.
    packed = next(x for x in task["candidates"] if x["name"] == f["name"])
    rec["winner"]["profile"] = _profile(dev, task_dir, task, f["artifact"], packed.get("kernels") or task.get("kernels"),
                                        _cuda_source_of(packed))


def _eager(task_dir, task, cpu):
    """PyTorch eager on the same device: the task's model.py with its
    recorded sizes, four input sets in turn, the median per call."""
    import importlib.util

    import torch

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    spec = importlib.util.spec_from_file_location(f"kwb_task_{task['id']}", os.path.join(task_dir, "model.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    for k, v in (task.get("overrides") or {}).items():
        setattr(module, k, v)
    where = "cpu" if cpu else "cuda"
    sync = (lambda: None) if cpu else torch.cuda.synchronize
    with torch.inference_mode():
        torch.manual_seed(0)
        model = module.Model(*module.get_init_inputs()).eval().to(where)
        sets = []
        for i in range(4):
            torch.manual_seed(1 + i)
            sets.append([x.to(where) if hasattr(x, "to") else x for x in module.get_inputs()])
        for s in sets:
            model(*s)
        sync()
        per_call, start = [], time.perf_counter()
        while len(per_call) < 200 and (len(per_call) < 20 or time.perf_counter() - start < 1.0):
            t = time.perf_counter()
            for _ in range(5):
                for s in sets:
                    model(*s)
            sync()
            per_call.append((time.perf_counter() - t) / (5 * len(sets)))
    per_call.sort()
    return {"ms": per_call[len(per_call) // 2] * 1e3, "rounds": len(per_call), "torch": torch.__version__}


def _run_task(dev, opts, task_id):
    """One task's record: its checks and timings, and PyTorch eager beside them."""
    task_dir = os.path.join(opts.pack, "tasks", task_id)
    task = json.load(open(os.path.join(task_dir, "task.json")))
    t = time.perf_counter()
    try:
        rec = _measure(dev, task_dir, task, opts)
    except Exception as e:  # one task's failure never loses the others
        rec = {"id": task_id, "error": f"{type(e).__name__}: {str(e)[:500]}"}
    if not opts.no_eager:
        e0 = time.perf_counter()
        try:
            rec["eager"] = _eager(task_dir, task, opts.cpu)
        except Exception as e:
            rec["eager"] = {"error": f"{type(e).__name__}: {str(e)[:300]}"}
        rec.setdefault("phases_s", {})["eager"] = round(time.perf_counter() - e0, 2)
    rec["wall_s"] = round(time.perf_counter() - t, 2)
    return rec


def _in_own_process(opts, task_id, limit_s):
    """Runs one task in a process of its own, so that a candidate which
    breaks the CUDA context (an illegal address poisons every later launch)
    or hangs costs that task alone. Its record, or why there is none."""
    rec_path = os.path.join(opts.out, "tasks", f"{task_id}.json")
    if os.path.exists(rec_path):
        os.remove(rec_path)
    cmd = [sys.executable, "-m", "kwb_engine.carried", opts.pack, opts.out, "--task-only", task_id, "--min-ms", str(opts.min_ms)]
    cmd += (["--cpu"] if opts.cpu else []) + (["--no-eager"] if opts.no_eager else [])
    t = time.perf_counter()
    try:
        done = subprocess.run(cmd, timeout=limit_s)
        why = None if done.returncode == 0 else f"its process ended with exit status {done.returncode}"
    except subprocess.TimeoutExpired:
        why = (f"its process ran over the task limit ({limit_s:.0f} s) and was killed: a candidate that hangs, "
               f"or a task that needs more time (run it again with --only {task_id} and a larger --task-limit)")
    if why is None and os.path.exists(rec_path):
        return json.load(open(rec_path))
    return {"id": task_id, "error": why or "its process wrote no record", "wall_s": round(time.perf_counter() - t, 2)}


def _setup(opts, manifest, precompile):
    """The runtime-only TVM, nvcc behind it for CUDA, and the device handle."""
    _runtime_only()
    import tvm

    from . import device

    meta = {"tvm": tvm.__version__, "runtime_only": os.environ.get("TVM_USE_RUNTIME_LIB") == "1",
            "python": sys.version.split()[0], "min_ms": opts.min_ms}
    if not opts.cpu:
        global _NVCC
        nvcc = _NVCC = Nvcc(manifest["target"].get("arch", "sm_90"), os.path.join(tempfile.gettempdir(), "kwb-cubin"))
        _cuda_runtime(nvcc)
        if precompile:
            t = time.perf_counter()
            sources = sorted(glob.glob(os.path.join(opts.pack, "tasks", "*", "*.cu.gz")) + glob.glob(os.path.join(opts.pack, "peaks", "*.cu.gz")))
            meta["nvcc_errors"] = nvcc.precompile(sources, os.cpu_count() or 4)
            meta["nvcc_s"] = round(time.perf_counter() - t, 2)
            meta["nvcc_modules"] = len(sources)
            try:
                meta["gpu"] = subprocess.run(["nvidia-smi", "--query-gpu=name,driver_version,clocks.max.sm,memory.total",
                                              "--format=csv,noheader"], capture_output=True, text=True).stdout.strip()
            except OSError:
                pass
    return (device.Local() if opts.cpu else device.Cuda(0)), meta


def _peaks(dev, opts):
    """The device's peaks from the pack's kernels (built on the host for its
    target), or why there are none; a failure here loses no task."""
    from . import peaks

    folder = os.path.join(opts.pack, "peaks")
    if not os.path.exists(os.path.join(folder, "peaks.json")):
        return {"error": "the pack has no peak kernels"}
    try:
        got = peaks.measure_built(dev, json.load(open(os.path.join(folder, "peaks.json"))), folder)
        print(f"peaks: {got['peak_flops'] / 1e9:.1f} GFLOP/s, {got['bandwidth_bytes_s'] / 1e9:.1f} GB/s from memory "
              f"({got['measure_s']} s)", flush=True)
        return got
    except Exception as e:
        return {"error": f"{type(e).__name__}: {str(e)[:300]}"}


def main(argv=None):
    ap = argparse.ArgumentParser(prog="python -m kwb_engine.carried")
    ap.add_argument("pack")
    ap.add_argument("out")
    ap.add_argument("--only", default="")
    ap.add_argument("--cpu", action="store_true", help="time on this machine's CPU (a pack built for llvm)")
    ap.add_argument("--time-limit", type=float, default=480.0, help="stop starting new tasks after this many seconds")
    ap.add_argument("--task-limit", type=float, default=300.0, help="kill a task's process after this many seconds")
    ap.add_argument("--one-process", action="store_true", help="run every task in this process (faster; one broken CUDA context then spoils the rest)")
    ap.add_argument("--task-only", default="", help=argparse.SUPPRESS)
    ap.add_argument("--min-ms", dest="min_ms", type=float, default=2.0)
    ap.add_argument("--no-eager", action="store_true")
    opts = ap.parse_args(argv)
    started = time.perf_counter()
    manifest = json.load(open(os.path.join(opts.pack, "manifest.json")))
    os.makedirs(os.path.join(opts.out, "tasks"), exist_ok=True)
    if opts.task_only:
        dev, _ = _setup(opts, manifest, precompile=False)
        rec = _run_task(dev, opts, opts.task_only)
        path = os.path.join(opts.out, "tasks", f"{opts.task_only}.json")
        with open(path + ".tmp", "w") as f:
            json.dump(rec, f, indent=1)
        os.replace(path + ".tmp", path)
        return
    res = {"pack": {k: manifest.get(k) for k in ("device", "target", "created_unix_s", "kwb", "suite", "per_kernel", "seed", "learned_from_earlier_run")}, "tasks": {}}
    dev, res["meta"] = _setup(opts, manifest, precompile=True)
    res["meta"]["process_per_task"] = not opts.one_process
    res["peaks"] = _peaks(dev, opts)
    if not opts.cpu:
        from . import carried_profile

        res["gpu"] = carried_profile.gpu_properties()
    only = {x for x in opts.only.split(",") if x}
    out_path = os.path.join(opts.out, "results.json")
    for task_id in manifest["tasks"]:
        if only and task_id not in only:
            continue
        left = opts.time_limit - (time.perf_counter() - started)
        if left <= 0:
            res["tasks"][task_id] = {"id": task_id, "skipped": "the run's time limit"}
            continue
        rec = _run_task(dev, opts, task_id) if opts.one_process else _in_own_process(opts, task_id, max(30.0, min(opts.task_limit, left + 60.0)))
        res["tasks"][task_id] = rec
        w = rec.get("winner") or {}
        print(f"{task_id}: baseline {rec.get('baseline_ms', float('nan')):.4f} ms, "
              f"best {w.get('speedup', 1.0):.3f}x, eager {(rec.get('eager') or {}).get('ms', float('nan')):.4f} ms "
              f"({rec.get('wall_s')} s){'; ' + rec['error'] if rec.get('error') else ''}", flush=True)
        with open(out_path + ".tmp", "w") as f:
            json.dump(res, f, indent=1)
        os.replace(out_path + ".tmp", out_path)
    res["meta"]["wall_s"] = round(time.perf_counter() - started, 2)
    with open(out_path, "w") as f:
        json.dump(res, f, indent=1)
    print("done", out_path, flush=True)


if __name__ == "__main__":
    main()
