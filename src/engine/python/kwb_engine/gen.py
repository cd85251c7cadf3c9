"""The seeded generator for task inputs and parameters.

Shared by the importer (which feeds PyTorch) and the engine (which feeds TVM),
so reference outputs are reproducible without storing any weights.

Definition (stable; changing it invalidates every recorded output):
  For seed s and the argument at position i of the reference Relax `main`,
  rng = numpy.random.default_rng([s, i]) (PCG64 seeded with the pair).
  The argument's `init` spec then draws, in float32 (rng.standard_normal and
  rng.random with dtype=float32) before the cast to its dtype:
    normal    : shift + scale * standard_normal(shape)
    positive  : low + scale * |standard_normal(shape)|
    uniform   : low + (high - low) * random(shape)
    int       : integers(low, high, shape)          (high exclusive)
    fill      : every element `value` (no draw; a lifted constant)
    values    : the exact array held in the spec (constants.py; no draw)
  and the result is cast with numpy's astype to the argument's dtype.
"""

import numpy as np

SEEDS = (0, 1, 2)


def default_init(role, name, shape, dtype):
    """The init spec the importer assigns when a task does not state one.

    Chosen so signals stay live through deep graphs: weights are scaled by
    1/sqrt(fan_in), norm scales sit near 1, variances stay positive.
    """
    if dtype.startswith("int") or dtype.startswith("uint"):
        return {"kind": "int", "low": 0, "high": 16}
    if dtype == "bool":
        return {"kind": "int", "low": 0, "high": 2}
    if role == "input":
        return {"kind": "normal", "shift": 0.0, "scale": 1.0}
    lname = name.lower()
    if "running_var" in lname or lname.endswith("var"):
        return {"kind": "positive", "low": 0.5, "scale": 0.5}
    if len(shape) >= 2:
        fan_in = int(np.prod(shape[1:]))
        return {"kind": "normal", "shift": 0.0, "scale": float(1.0 / np.sqrt(max(fan_in, 1)))}
    if lname.endswith("weight") or lname.endswith("gamma") or lname.endswith("scale"):
        return {"kind": "normal", "shift": 1.0, "scale": 0.1}
    return {"kind": "normal", "shift": 0.0, "scale": 0.1}


def generate(seed, index, shape, dtype, init):
    rng = np.random.default_rng([int(seed), int(index)])
    shape = tuple(int(d) for d in shape)
    kind = init.get("kind", "normal")
    f32 = np.float32
    if kind == "normal":
        x = f32(init.get("shift", 0.0)) + f32(init.get("scale", 1.0)) * rng.standard_normal(shape, dtype=f32)
    elif kind == "positive":
        x = f32(init.get("low", 0.0)) + f32(init.get("scale", 1.0)) * np.abs(rng.standard_normal(shape, dtype=f32))
    elif kind == "uniform":
        lo, hi = f32(init.get("low", 0.0)), f32(init.get("high", 1.0))
        x = lo + (hi - lo) * rng.random(shape, dtype=f32)
    elif kind == "int":
        x = rng.integers(init.get("low", 0), init.get("high", 16), shape)
    elif kind == "fill":
        x = np.full(shape, init["value"], dtype=dtype)
    elif kind == "values":
        from . import constants

        x = constants.decode(init, shape, dtype)
    else:
        raise ValueError(f"unknown init kind {kind!r}")
    return np.ascontiguousarray(np.asarray(x).astype(dtype))


def generate_args(seed, args_spec):
    """All arguments of `main` for one seed, in signature order."""
    return [generate(seed, i, a["shape"], a["dtype"], a["init"]) for i, a in enumerate(args_spec)]


def cached_args(seed, args_spec):
    """generate_args, memoised per (seed, spec); the arrays are read-only."""
    import json

    from . import cache

    key = ("args", int(seed), json.dumps(args_spec, sort_keys=True))
    return cache.get_or_make(key, lambda: generate_args(seed, args_spec))
