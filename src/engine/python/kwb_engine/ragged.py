"""Micro-kernels over an output whose vectorized axis no strip divides.

A 1 x 1 convolution computed as a matmul over NCHW's flattened pixels has
14 x 14 = 196 columns: no strip of 16, 32 or 48 lanes divides them, so
`microkernel.tiles` offers nothing and the best register tile left had 4
lanes (0.33 ms for conv_avgpool_linear_head's, 39 GFLOP/s). Here the
column loop is cut (TVM's loop_partition) into the part a strip divides
and the few columns left: the first gets the micro-kernel, the rest a
narrow tile. Measured on that matmul on an Emerald Rapids core: 0.090 ms
with a 4 x 64 tile over 192 columns and the last 4 in one narrow vector
(143 GFLOP/s; the same tile over 192 columns alone: 171 GFLOP/s).

The cut puts each part in a block of its own whose read and write regions
are the whole part, so the tile cannot be staged in a cache buffer (every
tile would copy the part): the accumulators are the output's own elements,
which LLVM keeps in registers across the reduction (the kernel's buffers
do not alias). For the same reason no elementwise block after the
contraction is folded into its write-back.
"""

from . import microkernel

SPATIAL = microkernel.SPATIAL
# Columns left over are computed in one narrow vector; at least this many
# columns must go to the strips, or the cut buys nothing.
MIN_STRIPS = 2


def tiles(rows_extent, cols_extent, lanes, registers):
    """[(rows, vecs, columns the strips cover)], best first, for a column
    count no strip divides (see microkernel.tiles for the order)."""
    out = []
    for vecs in (2, 1, 3, 4):
        strip = vecs * lanes
        main = cols_extent - cols_extent % strip
        if cols_extent % strip == 0 or main < MIN_STRIPS * strip:
            continue
        out += [(rows, v, main) for rows, v in microkernel.tiles(rows_extent, main, lanes, registers) if v == vecs]
    out.sort(key=lambda t: (t[0] * t[1] > registers // 2, -(t[0] * t[1]), -t[1]))
    return out


def trace(block, rows, vecs, lanes, main_cols):
    """The schedule trace: the column loop moved outermost and cut at
    `main_cols`; in the first part the loops are put back in order and the
    micro-kernel runs (without its cache stage); in the second, a tile of
    `rows` rows with the leftover columns as one vector. None where the
    block is not a contraction of spatial loops then reduction loops."""
    axes = microkernel.contraction_axes(block)
    if axes is None:
        return None
    sp, rd = axes
    iters = block["iters"]
    last = sp[-1]
    # After the move, the column loop is first and the others keep their order.
    moved = [last] + [i for i in range(len(iters)) if i != last]
    back = [f"P[{moved.index(i)}]" for i in range(len(iters))]
    lines = [f'b0 = sch.get_sblock("{block["name"]}")', "L0 = sch.get_loops(b0)",
             f"sch.reorder({', '.join(f'L0[{i}]' for i in moved)})",
             f"pp = sch.loop_partition(L0[{last}], [{main_cols}, None])",
             "b = sch.get_child_blocks(pp[0])[0]", "P = sch.get_loops(b)", f"sch.reorder({', '.join(back)})"]
    kernel = microkernel.trace(block, rows, vecs, lanes)
    if kernel is None:
        return None
    # The micro-kernel's lines, on the first part's block, without the cache stage.
    kernel = [line for line in kernel if not line.startswith("b = sch.get_sblock(") and "acc" not in line]
    lines += kernel
    outer = ", ".join(f"Q[{moved.index(i)}]" for i in sp[:-2])
    pen = moved.index(sp[-2])
    reds = ", ".join(f"Q[{moved.index(i)}]" for i in rd)
    lines += ["bt = sch.get_child_blocks(pp[1])[0]", "Q = sch.get_loops(bt)", f"tro, tri = sch.split(Q[{pen}], [None, {rows}])",
              f"sch.reorder({outer + ', ' if outer else ''}tro, {reds}, tri, Q[0])", "sch.unroll(tri)", "sch.vectorize(Q[0])",
              f"sch.decompose_reduction(bt, Q[{moved.index(rd[0])}])"]
    return lines


def moves(main, target):
    """[(name, rationale, trace)] for the contraction `main` where no strip
    of vectors divides its last output axis."""
    lanes, registers = microkernel.isa(target)
    iters = main["iters"]
    sp = [i for i, (t, _) in enumerate(iters) if t == SPATIAL]
    if len(sp) < 2:
        return []
    cols = iters[sp[-1]][1]
    out = []
    for rows, vecs, main_cols in tiles(iters[sp[-2]][1], cols, lanes, registers)[:3]:
        lines = trace(main, rows, vecs, lanes, main_cols)
        if lines:
            why = (f"micro-kernel over a ragged axis: `{main['name']}`'s {cols} columns cut at {main_cols}; a {rows} x {vecs * lanes} tile "
                   f"({rows * vecs} vector accumulators of {lanes} lanes) over the first part, the last {cols - main_cols} as one narrow vector")
            out.append((f"ragged{rows}x{vecs * lanes}", why, lines))
    return out
