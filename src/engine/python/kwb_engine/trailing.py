"""Elementwise kernels whose innermost axis no vector divides.

A bias and ReLU over NCHW's 14 x 14 pixels has an innermost loop of 14:
no 4, 8 or 16 lanes divide it, so the elementwise moves offered nothing
and TVM's default build ran it scalar. The trailing axes are fused here
into one loop (14 x 14 = 196 pixels) and cut at its last whole vector
(TVM's loop_partition): full vectors up to 192, one shorter vector after.

Only axes that every operand indexes all together or not at all are
fused: a vector that crosses an axis some operand indexes alone (the
channel of a per-channel bias) computes that operand's index per lane, and
every load of it goes lane by lane. Measured on conv_avgpool_linear_head's
bias-and-ReLU kernel (128 x 14 x 14, one Emerald Rapids core): TVM's
default build 135 us; pixels fused and cut at 192, 16 lanes then 4,
11.4 us; pixels fused in 4-lane vectors, 14.9 us; every axis fused in
16-lane vectors, 158 us (the bias's channel divided per lane).
"""

import tvm
from tvm import s_tir

from . import text_policy
from .microkernel import SPATIAL

# At least this many whole vectors in the fused loop, or the cut buys nothing.
MIN_VECTORS = 2


def _used(region, names):
    """The iterator names of `names` that a buffer region's indices use."""
    used = set()
    for r in region.region:
        used |= {v.name for v in tvm.tirx.analysis.undefined_vars(r.min, [])} & names
    return used


def fusable_suffix(mod, kernel, prefix, block_name):
    """How many trailing axes of `block_name` (once the trace lines
    `prefix` have run) can be fused into one vector loop: the fewest, two
    or more, whose product reaches MIN_VECTORS vectors of 4, such that every
    buffer the block reads or writes indexes all of them or none. 0 where
    there is none, or where the block's loops are not its iterators in
    order (an earlier schedule)."""
    sch = s_tir.Schedule(mod)
    sch.work_on(kernel)
    text_policy.run_trace(sch, list(prefix))
    sref = sch.get_sblock(block_name)
    block = sch.get(sref)
    loops = [sch.get(l) for l in sch.get_loops(sref)]
    iters = list(block.iter_vars)
    if len(loops) != len(iters) or any(int(iv.iter_type) != SPATIAL for iv in iters):
        return 0
    if any(int(l.extent) != int(iv.dom.extent) for l, iv in zip(loops, iters)):
        return 0
    regions = list(block.reads) + list(block.writes)
    product = 1
    for k in range(1, len(iters) + 1):
        product *= int(iters[-k].dom.extent)
        if k < 2:
            continue
        names = {iv.var.name for iv in iters[-k:]}
        if any(_used(r, names) not in (set(), names) for r in regions):
            # Wider suffixes only add axes; one that some buffer indexes
            # partly stays partly indexed.
            return 0
        if product >= MIN_VECTORS * 4:
            return k
    return 0


def trace(block_name, n_loops, k, extent, lanes, par):
    """Trace lines: the last `k` of the block's `n_loops` loops fused into
    one of `extent` and cut at the last whole vector of `lanes`; the part
    before in vectors of `lanes`, the rest as one shorter vector where its
    length is a power of two, else scalar; the outer loops fused, across
    cores with `par`. (The fused loop cannot be moved outermost for the
    cut, as the micro-kernel's is: once cut, its blocks' bindings are not
    affine, and TVM reorders none of their loops.)"""
    lines = [f'b = sch.get_sblock("{block_name}")', "L = sch.get_loops(b)"]
    outer = n_loops - k
    lines.append(f"f = sch.fuse({', '.join(f'L[{i}]' for i in range(outer, n_loops))})")
    # A trace assigns only what a schedule call returns.
    o = "L[0]"
    if outer > 1:
        lines.append(f"o = sch.fuse({', '.join(f'L[{i}]' for i in range(outer))})")
        o = "o"
    main, tail = extent - extent % lanes, extent % lanes
    if tail == 0:
        lines += [f"fo, fi = sch.split(f, [None, {lanes}])", "sch.vectorize(fi)"]
    else:
        lines += [f"pp = sch.loop_partition(f, [{main}, None])", f"fo, fi = sch.split(pp[0], [None, {lanes}])", "sch.vectorize(fi)"]
        if tail & (tail - 1) == 0 and tail > 1:
            lines.append("sch.vectorize(pp[1])")
    if par and outer:
        lines.append(f"sch.parallel({o})")
    return lines


def moves(mod, kernel, prefix, block, lanes, par_options):
    """[(name, rationale, lines, prefix)] for the elementwise block `block`
    (after `prefix`, the chain inlined into it) whose innermost loop no
    vector divides."""
    try:
        k = fusable_suffix(mod, kernel, prefix, block["name"])
    except Exception:
        # The chain does not inline (a block writes a second output): the
        # other moves are still offered.
        k = 0
    if not k:
        return []
    extent = 1
    for e in block["loops"][-k:]:
        extent *= e
    out = []
    for v in sorted({lanes, 8}, reverse=True):
        if extent < MIN_VECTORS * v:
            continue
        for par in par_options:
            why = (f"fuse `{block['name']}`'s last {k} loops ({' x '.join(map(str, block['loops'][-k:]))} = {extent}, indexed together by every operand) "
                   f"into one, in vectors of {v} up to {extent - extent % v}" + (f" and one of {extent % v} after" if extent % v else "")
                   + ("; the outer loops across cores" if par else ""))
            out.append((f"trailing-vec{v}{'-par' if par else ''}", why, trace(block["name"], len(block["loops"]), k, extent, v, par), list(prefix)))
    return out
