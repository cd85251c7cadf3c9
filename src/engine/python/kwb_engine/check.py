"""Correctness of a built candidate on the task's seeds.

Every seed gets freshly generated inputs; the candidate runs in a process of
its own (sides.py) and the inputs it was given are compared with their
originals afterwards, so a candidate that writes to its inputs is caught.
All seeds run on one VM instance, so a result cached from an earlier call
fails the later seeds.
"""

import time

import numpy as np
import tvm

from . import device, errors, gen, sides
from .errors import JobError


def load_vm(artifact):
    """The built module on this machine's CPU."""
    return device.Local().load_vm(artifact)


def run_main(vm, host_args, on=None):
    """Run main on copies of host_args, on the device `on` (this machine's
    CPU by default); returns (outputs as numpy, seconds, the arguments as
    passed)."""
    on = on or device.Local()
    dev_args = [tvm.runtime.tensor(a.copy(), on.dev) for a in host_args]
    t = time.perf_counter()
    try:
        out = vm["main"](*dev_args)
        outs = [o.numpy() for o in on.flatten(out)]
    except Exception as e:
        if on.kind == "rpc" and device.lost(e):  # the device went away: not the candidate's doing
            raise
        msg = str(e).strip().splitlines()
        msg = " ".join(msg[:3])[:2000] if msg else type(e).__name__
        raise JobError(errors.classify_runtime_error(msg), f"candidate failed at run time: {msg}", "run")
    return outs, time.perf_counter() - t, dev_args


# Elements compared at a time: the temporaries of a comparison stay a few
# tens of MiB whatever the output's size, so a task near the size bound is
# checked within the worker's address-space limit.
CHUNK = 1 << 22


class Reference:
    """One recorded output with what every comparison against it needs. Only
    the reference itself (and a float copy where its dtype needs one) is
    kept: tolerance bounds are derived chunk by chunk when comparing."""

    def __init__(self, ref, atol, rtol):
        self.ref = ref
        self.exact = ref.dtype.kind in "biu"
        if self.exact:
            return
        work = np.float32 if ref.dtype.itemsize <= 4 else np.float64
        r = ref.astype(work, copy=False)
        self.finite = bool(np.all(np.isfinite(r)))
        if not self.finite:
            r = np.where(np.isfinite(r), r, 0).astype(work)
        self.r = r
        self.scale = float(np.sqrt(np.mean(np.square(r, dtype=np.float64)))) if r.size else 0.0
        self.abs_bound = work(atol * self.scale)
        self.rtol = work(rtol)
        self.floor = work(max(atol * self.scale, 1e-30))
        self.work = work

    @property
    def nbytes(self):
        if self.exact or self.r is self.ref:
            return self.ref.nbytes
        return self.ref.nbytes + self.r.nbytes


def compare(out, ref, atol=None, rtol=None):
    """(ok, max_abs_err, max_rel_err, message) for one output tensor.

    Tolerance is scale-aware: |out - ref| <= atol * rms(ref) + rtol * |ref|,
    so on a reference of tiny magnitude an all-zero output still fails.
    """
    if not isinstance(ref, Reference):
        ref = Reference(ref, atol, rtol)
    if tuple(out.shape) != tuple(ref.ref.shape):
        return False, None, None, f"shape {list(out.shape)}, expected {list(ref.ref.shape)}"
    if out.dtype != ref.ref.dtype:
        return False, None, None, f"dtype {out.dtype}, expected {ref.ref.dtype}"
    if ref.exact:
        wrong = int(np.count_nonzero(out != ref.ref))
        return wrong == 0, float(wrong), float(wrong), "" if wrong == 0 else f"{wrong} elements differ"
    flat_out, flat_r, flat_raw = np.ravel(out), np.ravel(ref.r), np.ravel(ref.ref)
    ok, max_abs, max_rel = True, 0.0, 0.0
    for start in range(0, flat_out.size, CHUNK):
        part = slice(start, start + CHUNK)
        o = flat_out[part].astype(ref.work, copy=False)
        if not np.all(np.isfinite(o)):
            raw = flat_raw[part]
            if ref.finite or not np.all(np.isfinite(o) | ~np.isfinite(raw)):
                return False, float("inf"), float("inf"), "non-finite values where the reference is finite"
            o = np.where(np.isfinite(raw), o, 0).astype(ref.work)
        r = flat_r[part]
        err = np.abs(o - r)
        absr = np.abs(r)
        ok = ok and bool(np.all(err <= absr * ref.rtol + ref.abs_bound))
        max_abs = max(max_abs, float(err.max()))
        max_rel = max(max_rel, float((err / np.maximum(absr, ref.floor)).max()))
    msg = "" if ok else f"max abs error {max_abs:.3g} over bound (reference rms {ref.scale:.3g})"
    return ok, max_abs, max_rel, msg


def load_reference(outputs_dir, seed):
    path = f"{outputs_dir}/seed{seed}.npz"
    try:
        with np.load(path) as z:
            return [z[f"out{i}"] for i in range(len(z.files))]
    except Exception as e:
        raise JobError(errors.TASK, f"cannot read the reference outputs {path}: {e}", "reference")


def cached_reference(outputs_dir, seed, atol, rtol):
    import os

    from . import cache

    path = f"{outputs_dir}/seed{seed}.npz"
    try:
        stamp = os.stat(path).st_mtime_ns
    except OSError:
        stamp = None
    key = ("ref", path, stamp, atol, rtol)
    return cache.get_or_make(key, lambda: [Reference(r, atol, rtol) for r in load_reference(outputs_dir, seed)])


def perturb(host_args, spec, seed=7):
    """Copies of the inputs with about 1% of the elements of every float
    input changed at random places."""
    rng = np.random.default_rng([seed, 99])
    roles = [a.get("role") for a in spec]
    pick = [i for i, r in enumerate(roles) if r == "input"] or list(range(len(spec)))
    out = []
    for i, a in enumerate(host_args):
        b = a.copy()
        if i in pick and b.dtype.kind == "f" and b.size:
            flat = b.reshape(-1)
            k = max(1, flat.size // 100)
            idx = rng.choice(flat.size, size=k, replace=False)
            flat[idx] = (flat[idx].astype(np.float64) + 1.0 + rng.standard_normal(k)).astype(b.dtype)
        out.append(b)
    return out


def perturbed_rerun(mods, spec, atol, rtol):
    """Seed 0 again, then at once seed 0 with a few elements changed, compared
    with the baseline on the same inputs: a candidate that returns a result
    kept from an earlier call (or computes only where it expects to be
    checked) fails here."""
    seed0 = gen.cached_args(gen.SEEDS[0], spec)
    mods.fill(seed0)
    # Several calls, so every buffer the VM's memory pool rotates through
    # (the last result stays referenced until the next call) holds seed 0's
    # answer before the perturbed call.
    s1 = 0.0
    for _ in range(4):
        s1 += mods.call("candidate", {"op": "run"})[0]["secs"]
    mods.fill(perturb(seed0, spec))
    head, outs = mods.call("candidate", {"op": "run"})
    s2 = head["secs"]
    head, refs = mods.call("baseline", {"op": "run"})
    s3 = head["secs"]
    for i, (o, r) in enumerate(zip(outs, refs)):
        ok, ma, _, msg = compare(o, r, atol, rtol)
        if not ok:
            return {"ok": False, "message": f"wrong on perturbed seed-0 inputs right after a correct run (a result kept across calls?): output {i}: {msg}", "tvm_s": s1 + s2 + s3}
    if len(outs) != len(refs):
        return {"ok": False, "message": "different number of outputs on perturbed inputs", "tvm_s": s1 + s2 + s3}
    return {"ok": True, "message": "", "tvm_s": s1 + s2 + s3}


def check(args):
    """Job `check`: {artifact, args_spec, outputs_dir, seeds, atol, rtol,
    baseline_artifact?, device?}; on an RPC device, run again on another
    server if the first goes away."""
    return device.run_with_retry(args, lambda d: _check_on(d, args))


def _check_on(dev_handle, args):
    spec = args["args_spec"]
    atol = float(args["atol"])
    rtol = float(args["rtol"])
    seeds = []
    tvm_s = 0.0
    first_failure = None
    seed_list = args.get("seeds", list(gen.SEEDS))
    # The candidate runs in a process of its own (sides.py); its outputs and
    # its inputs are judged here.
    with sides.Modules(dev_handle, gen.cached_args(seed_list[0], spec)) as mods:
        mods.add("candidate", args["artifact"])
        for seed in seed_list:
            host_args = gen.cached_args(seed, spec)
            mods.fill(host_args)
            refs = cached_reference(args["outputs_dir"], seed, atol, rtol)
            head, outs = mods.call("candidate", {"op": "run"})
            tvm_s += head["secs"]
            res = _judge(seed, outs, refs, atol, rtol)
            for i in mods.changed()[:1]:
                res.update(ok=False, message=f"the candidate wrote to its input {i} ({spec[i]['name']})")
            if not res["ok"] and first_failure is None:
                first_failure = f"seed {seed}: {res['message']}"
            seeds.append(res)
            # One seed's tensors at a time: a task near the size bound fits.
            del host_args, refs, outs
        correct = all(s["ok"] for s in seeds)
        rerun = None
        if correct and args.get("baseline_artifact"):
            mods.add("baseline", args["baseline_artifact"])
            rerun = perturbed_rerun(mods, spec, atol, rtol)
            tvm_s += rerun.pop("tvm_s")
            if not rerun["ok"]:
                correct = False
                first_failure = rerun["message"]
        isolation = mods.isolation()
    return {
        "perturbed_rerun": rerun,
        "correct": correct,
        "seeds": seeds,
        "failure": None if correct else {"class": errors.NUMERIC, "message": first_failure},
        "isolation": isolation,
        "tvm_s": tvm_s,
    }


def _judge(seed, outs, refs, atol, rtol):
    """One seed's result: every output against its reference."""
    res = {"seed": seed, "ok": True, "max_abs_err": 0.0, "max_rel_err": 0.0, "message": ""}
    if len(outs) != len(refs):
        res.update(ok=False, max_abs_err=None, max_rel_err=None, message=f"{len(outs)} outputs, expected {len(refs)}")
        return res
    for i, (o, r) in enumerate(zip(outs, refs)):
        ok, ma, mr, msg = compare(o, r, atol, rtol)
        if ma is None or res["max_abs_err"] is None:
            res["max_abs_err"] = None
            res["max_rel_err"] = None
        else:
            res["max_abs_err"] = max(res["max_abs_err"], ma)
            res["max_rel_err"] = max(res["max_rel_err"], mr)
        if not ok and res["ok"]:
            res.update(ok=False, message=f"output {i}: {msg}")
    return res
