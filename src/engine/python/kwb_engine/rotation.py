"""Timing on rotating inputs: every built module (baseline and candidate
alike) gets a Relax function `kwb_rotate` that calls `main` on K input sets
in turn and returns every result. One timed call runs it, so each call of
`main` sees inputs different from the call before it: a result remembered
from the last call never helps, whatever fingerprint of the inputs a
candidate keeps, and nothing outside the kernels is added to either side.
"""

import numpy as np

FUNC = "kwb_rotate"
# Input sets held at once are bounded by memory: all K sets live together.
MAX_SETS = 4
MIN_SETS = 2
BUDGET_BYTES = 256 << 20
# Seeds of the timing sets: apart from the correctness seeds (0, 1, 2).
TIMING_SEED_BASE = 1000


def sets_for(args_spec):
    """How many input sets a task's timing rotates through."""
    one = sum(int(np.prod(a["shape"])) * np.dtype(a["dtype"]).itemsize for a in args_spec)
    if one <= 0:
        return MAX_SETS
    return int(max(MIN_SETS, min(MAX_SETS, BUDGET_BYTES // one)))


def add(mod, k):
    """`mod` with `kwb_rotate(args of set 0, ..., args of set k-1)` added."""
    from tvm import relax

    main_gv = mod.get_global_var("main")
    main = mod["main"]
    bb = relax.BlockBuilder(mod)
    params = [relax.Var(f"{p.name}_s{s}", p.ty) for s in range(k) for p in main.params]
    n = len(main.params)
    with bb.function(FUNC, params, {"global_symbol": FUNC}):
        outs = [bb.emit(relax.Call(main_gv, params[s * n:(s + 1) * n])) for s in range(k)]
        gv = bb.emit(relax.Tuple(outs))
        bb.emit_func_output(gv)
    return bb.get()
