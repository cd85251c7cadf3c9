"""What a task ships of PyTorch's outputs, and the outputs checks compare with.

Full outputs at three seeds were most of the repository (40 MB of float32
that does not compress), so a task ships a digest of each output instead
(`outputs/seed{N}.digest.npz`), recorded at import from PyTorch:

- shape and dtype, and the output's rms;
- outputs of integer or boolean type, and small ones, in full;
- otherwise 512 elements at places drawn from the seed, exactly, and the sum
  and the sum of absolute values of every block of 256 consecutive
  elements (in float64); an output of more than 1024 such blocks (a task
  sized for a GPU) has blocks of 256 times a power of two, at most 1024 of
  them, so a digest stays under about 40 KB whatever the size (recorded
  as `block{i}`; digests without it have blocks of 256).

On a machine, the outputs candidates are checked against are those of the
task's reference program built by TVM's default pipeline for this machine,
run once per seed by a trusted worker and accepted only if they agree with
the digest: every sampled element within the task's tolerance of PyTorch's,
and every block sum within the sum of the elementwise bounds over the block
(which a reference within tolerance everywhere always meets). A wrong
reference (a layout, an operator, an edge mishandled) moves block sums far
beyond that; what a digest cannot see is an error smaller than the
tolerance summed over 256 elements, confined to unsampled elements.
Candidates are then held to the task's tolerance against those outputs.
"""

import hashlib
import os

import numpy as np

from . import errors, gen
from .errors import JobError

SAMPLES = 512
BLOCK = 256
MAX_BLOCKS = 1024
FULL_UP_TO = 4096


def _block_for(n):
    block = BLOCK
    while -(-n // block) > MAX_BLOCKS:
        block *= 2
    return block


def digest_name(seed):
    return f"seed{seed}.digest.npz"


def _places(seed, i, n):
    rng = np.random.default_rng([int(seed), int(i), 4242])
    return np.sort(rng.choice(n, size=min(SAMPLES, n), replace=False))


def _block_sums(flat, block=BLOCK):
    pad = (-flat.size) % block
    x = np.concatenate([flat.astype(np.float64), np.zeros(pad)]).reshape(-1, block)
    return x.sum(axis=1), np.abs(x).sum(axis=1)


def make(outs, seed):
    """The digest of one seed's outputs, as the arrays of an npz file."""
    d = {"count": np.array(len(outs))}
    for i, o in enumerate(outs):
        o = np.asarray(o)
        d[f"shape{i}"] = np.array(o.shape, dtype=np.int64)
        d[f"dtype{i}"] = np.array(str(o.dtype))
        if o.dtype.kind in "biu" or o.size <= FULL_UP_TO:
            d[f"full{i}"] = o
            continue
        flat = o.reshape(-1)
        if not np.all(np.isfinite(flat)):
            raise JobError(errors.TASK, f"seed {seed}: output {i} has non-finite values", "reference")
        d[f"rms{i}"] = np.array(np.sqrt(np.mean(np.square(flat, dtype=np.float64))))
        d[f"sample{i}"] = flat[_places(seed, i, flat.size)]
        block = _block_for(flat.size)
        if block != BLOCK:
            d[f"block{i}"] = np.array(block, dtype=np.int64)
        d[f"bsum{i}"], d[f"babs{i}"] = _block_sums(flat, block)
    return d


def write(path, outs, seed):
    np.savez_compressed(path, **make(outs, seed))


def load(path):
    try:
        with np.load(path, allow_pickle=False) as z:
            return {k: z[k] for k in z.files}
    except Exception as e:
        raise JobError(errors.TASK, f"cannot read the output digest {path}: {e}", "reference")


def verify(outs, d, seed, atol, rtol, errs=None):
    """'' if `outs` (this machine's reference outputs) agree with the digest
    of PyTorch's, else what differs. Appends to `errs` the largest absolute
    error seen (over full outputs and samples)."""
    from .check import compare

    errs = [] if errs is None else errs
    if len(outs) != int(d["count"]):
        return f"{len(outs)} outputs, PyTorch gave {int(d['count'])}"
    for i, o in enumerate(outs):
        shape, dtype = tuple(int(x) for x in d[f"shape{i}"]), str(d[f"dtype{i}"])
        if tuple(o.shape) != shape or str(o.dtype) != dtype:
            return f"output {i}: {list(o.shape)} {o.dtype}, PyTorch gave {list(shape)} {dtype}"
        if f"full{i}" in d:
            ok, max_abs, _, msg = compare(o, d[f"full{i}"], atol, rtol)
            errs.append(max_abs if max_abs is not None else float("inf"))
            if not ok:
                return f"output {i}: {msg}"
            continue
        flat = o.reshape(-1)
        if not np.all(np.isfinite(flat)):
            return f"output {i} has non-finite values where PyTorch's are finite"
        rms = float(d[f"rms{i}"])
        want = d[f"sample{i}"].astype(np.float64)
        got = flat[_places(seed, i, flat.size)].astype(np.float64)
        bound = rtol * np.abs(want) + atol * rms
        errs.append(float(np.max(np.abs(got - want))))
        worst = int(np.argmax(np.abs(got - want) - bound))
        if abs(got[worst] - want[worst]) > bound[worst]:
            return f"output {i}: a sampled element is {got[worst]:.6g}, PyTorch gave {want[worst]:.6g}"
        block = int(d[f"block{i}"]) if f"block{i}" in d else BLOCK
        s, a = _block_sums(flat, block)
        if s.size != d[f"bsum{i}"].size:
            return f"output {i}: its digest has {d[f'bsum{i}'].size} blocks of {block}, this output {s.size}"
        counts = np.full(s.size, block, dtype=np.float64)
        counts[-1] = flat.size - block * (s.size - 1)
        # Twice the bound's rounding slack: sums of float32 blocks in float64.
        slack = rtol * d[f"babs{i}"] + atol * rms * counts + 1e-12 * (d[f"babs{i}"] + 1.0)
        for got_s, want_s, what in ((s, d[f"bsum{i}"], "sum"), (a, d[f"babs{i}"], "sum of magnitudes")):
            off = np.abs(got_s - want_s) - slack
            b = int(np.argmax(off))
            if off[b] > 0:
                return f"output {i}: the {what} of elements {b * block}..{b * block + block - 1} is {got_s[b]:.6g}, PyTorch's {want_s[b]:.6g}"
    return ""


def reference_outputs(args):
    """Job `reference_outputs`: {artifact, args_spec, digest_dir, out_dir,
    seeds, atol, rtol, device?}. Runs the reference build on each seed, checks it
    against the digest, writes `out_dir/seed{N}.npz`; returns their sha256
    and each seed's largest error against PyTorch's sampled values."""
    from . import device
    from .check import run_main

    on = device.open_device(args.get("device"))
    vm = on.load_vm(args["artifact"])
    spec = args["args_spec"]
    out_dir = args["out_dir"]
    os.makedirs(out_dir, exist_ok=True)
    files, seeds, tvm_s = {}, [], 0.0
    for seed in args.get("seeds", list(gen.SEEDS)):
        d = load(os.path.join(args["digest_dir"], digest_name(seed)))
        outs, secs, _ = run_main(vm, gen.cached_args(seed, spec), on)
        tvm_s += secs
        errs = []
        wrong = verify(outs, d, seed, float(args["atol"]), float(args["rtol"]), errs)
        seeds.append({"seed": seed, "max_abs_err": max(errs, default=0.0)})
        if wrong:
            raise JobError(errors.TASK, f"seed {seed}: the task's reference, built for this machine, disagrees with PyTorch's recorded outputs: {wrong}", "reference")
        name = f"seed{seed}.npz"
        tmp = os.path.join(out_dir, name + ".tmp.npz")
        np.savez(tmp, **{f"out{i}": o for i, o in enumerate(outs)})
        os.replace(tmp, os.path.join(out_dir, name))
        with open(os.path.join(out_dir, name), "rb") as f:
            files[name] = hashlib.sha256(f.read()).hexdigest()
    return {"files": files, "seeds": seeds, "tvm_s": tvm_s}
