"""Sliding-window reductions (average and max pooling) on a CPU, an output
or an output row at a time, in registers.

TVM lowers a pooling as a padded copy of the whole input, a reduction block
whose window loops sit inside the output's loops (9 scalar additions per
output for a 3 x 3 window, then the next output), and a separate pass for
the average's division. The register-tiling moves for contractions treat
the window as a reduction to tile and lose (0.3x TVM's build on avg_pool).

Two moves, per kernel, the first offered first:
- one output at a time (`window-output`): the padding read in place (the
  copy inlined), each output's window reduced in a register (`cache_write`
  to a local, written back per output) with its taps unrolled, and the
  elementwise consumers (the average's division) per output. This is the
  shape MetaSchedule finds on an Emerald Rapids core.
- one output row at a time (`window-row`): the window's sums go into a
  local row, written back under the output-row loop; the window loops move
  outside the row's last axis, the innermost loop, so each tap adds a row
  of inputs to the row of sums, a loop LLVM vectorizes (a stride-2 pooling
  reads every other input), and the taps are unrolled; the padded copy is
  made per channel, where it stays in cache, and the consumers run per row.

A third, for any window whose taps multiply (a depthwise convolution) as
well as for a pooling (`window-vec`, see vector_rows_trace): a tile of
output rows at a time, each row's outputs in vectors of the ISA's lanes
with the taps outside them, so one weight broadcast feeds a whole vector.

Measured on an Emerald Rapids core (64 x 56 x 56, 3 x 3, stride 2, on
rotating inputs), TVM's build / MetaSchedule's / per output / per row:
avg_pool 0.074 / 0.035 / 0.034 / 0.057 ms; max_pool 0.052 / 0.032 /
0.032 / 0.058 ms. Per output is at parity with the tuned schedule; more
would need the outputs vectorized, which the padding's bounds checks
inside the taps prevent.
"""

from .microkernel import REDUCE, SPATIAL

# The most values a window may hold: beyond it the reduction is a row sum
# (global pooling, a norm), which the row moves take.
MAX_WINDOW = 64


def _window_block(blocks):
    """The kernel's one reduction block when it is a window: spatial loops
    first (at least two), then reduction loops of at most MAX_WINDOW values
    in all, loops bound one to one to its iterators; else None."""
    reductions = [b for b in blocks if any(t == REDUCE for t, _ in b["iters"])]
    if len(reductions) != 1:
        return None
    b = reductions[0]
    kinds = [t for t, _ in b["iters"]]
    n_sp = kinds.index(REDUCE)
    if n_sp < 2 or any(t != REDUCE for t in kinds[n_sp:]) or len(b["loops"]) != len(b["iters"]):
        return None
    window = 1
    for _, n in b["iters"][n_sp:]:
        window *= n
    if window > MAX_WINDOW or b["iters"][n_sp - 1][1] < 8:
        return None
    return b, n_sp


def trace(blocks, producers, consumers):
    """The trace lines of the window move, or None where the kernel is not
    a window reduction. `producers` and `consumers` are the spatial blocks
    before and after it (a padded copy; the average's division)."""
    found = _window_block(blocks)
    if found is None:
        return None
    b, n_sp = found
    n_red = len(b["iters"]) - n_sp
    row = n_sp - 2  # the loop over output rows
    lines = [
        f'P = sch.get_sblock("{b["name"]}")',
        'W = sch.cache_write(P, 0, "local")',
        f'sch.reverse_compute_at(W, sch.get_loops(P)[{row}])',
        'L = sch.get_loops(P)',
        f'sch.reorder(*L[{n_sp}:], L[{n_sp - 1}])',
        f'I = sch.decompose_reduction(P, sch.get_loops(P)[{n_sp - 1}])',
        # The update's row loop is left to LLVM's loop vectorizer: TVM
        # refuses to vectorize a loop over a decomposed reduction's update.
        'L = sch.get_loops(P)',
    ]
    lines += [f'sch.unroll(L[{n_sp - 1 + k}])' for k in range(n_red)]
    lines += ['sch.vectorize(sch.get_loops(I)[-1])', 'sch.vectorize(sch.get_loops(W)[-1])']
    return lines + _placed(producers, consumers, row, f"sch.get_loops(P)[{row}]")


def _placed(producers, consumers, row, consumer_loop):
    """Trace lines that compute the producers (the padded copy) per channel,
    the loop above the output rows, where the copy stays in cache, and the
    consumers under `consumer_loop`; each with its last loop vectorized."""
    lines = []
    for name in producers:
        lines += [f'sch.compute_at(sch.get_sblock("{name}"), sch.get_loops(P)[{max(row - 1, 0)}])',
                  f'sch.vectorize(sch.get_loops(sch.get_sblock("{name}"))[-1])']
    for name in consumers:
        lines += [f'sch.reverse_compute_at(sch.get_sblock("{name}"), {consumer_loop})',
                  f'sch.vectorize(sch.get_loops(sch.get_sblock("{name}"))[-1])']
    return lines


def _neighbours(blocks, b):
    """The spatial blocks before and after the window block `b`: its
    producers (a padded copy) and consumers (an average's division, an
    epilogue)."""
    at = blocks.index(b)
    spatial = lambda x: all(t == SPATIAL for t, _ in x["iters"])
    return [x["name"] for x in blocks[:at] if spatial(x)], [x["name"] for x in blocks[at + 1:] if spatial(x)]


def per_output_trace(blocks, producers, consumers):
    """The trace lines of the per-output move: each output's window
    reduced in a register, the padding read in place, the consumers per
    output; None where the kernel is not a window reduction."""
    found = _window_block(blocks)
    if found is None:
        return None
    b, n_sp = found
    n_red = len(b["iters"]) - n_sp
    lines = [f'sch.compute_inline(sch.get_sblock("{name}"))' for name in producers]
    lines += [
        f'P = sch.get_sblock("{b["name"]}")',
        'W = sch.cache_write(P, 0, "local")',
        f'sch.reverse_compute_at(W, sch.get_loops(P)[{n_sp - 1}])',
    ]
    lines += [f'sch.reverse_compute_at(sch.get_sblock("{name}"), sch.get_loops(P)[{n_sp - 1}])' for name in consumers]
    lines += [f'sch.unroll(sch.get_loops(P)[{n_sp + k}])' for k in range(n_red)]
    return lines


# Output rows per tile of the vector move, most preferred first: each input
# row loaded serves up to three of them. Measured on depthwise_conv2d (64 x
# 56 x 56, 3 x 3) on one Emerald Rapids core, inputs in cache: TVM's build
# 68.6 us; 16 lanes with 2 rows 38.2, 4 rows 34.3, 7 rows 33.5, 8 rows 35.7.
ROW_TILES = (4, 7, 8, 2, 3, 5, 6)


def _vector_width(extent, lanes):
    """The vector for a row of `extent` outputs: the ISA's lanes, halved
    (down to 4) until the row holds two."""
    v = lanes
    while extent < 2 * v and v > 4:
        v //= 2
    return v


def _vector_part(x, n_red, whole):
    """Trace lines for one part of the row loop, block `x`, whose loops end
    with the row loop, the window's taps and the row tile: the row split
    into vectors (unless `whole`: the part is one vector), the taps and the
    tile unrolled inside, the vector innermost, the init split out."""
    if whole:
        lines = [f"{x}L = sch.get_loops({x})", f"sch.reorder(*{x}L[-{n_red + 1}:], {x}L[-{n_red + 2}])",
                 f"sch.vectorize(sch.get_loops({x})[-1])"]
    else:
        lines = [f"{x}L = sch.get_loops({x})", f"{x}o, {x}i = sch.split({x}L[-{n_red + 2}], [None, VEC])",
                 f"sch.reorder({x}o, *{x}L[-{n_red + 1}:], {x}i)", f"sch.vectorize({x}i)"]
    lines.append(f"{x}L = sch.get_loops({x})")
    lines += [f"sch.unroll({x}L[-{k}])" for k in range(2, n_red + 3)]
    lines.append(f"sch.decompose_reduction({x}, {x}L[-{n_red + 2}])")
    return lines


def vector_rows_trace(blocks, producers, consumers, lanes):
    """The trace lines of the vector move: the output rows in tiles of
    ROW_TILES, the row's outputs in vectors of `lanes` (halved for a short
    row) with the window's taps outside the vector and unrolled, the tile's
    rows innermost but for the vector, so LLVM keeps each (row, vector) sum
    in a register and reuses each input load across the tile; the padded
    copy made per channel, where it stays in cache; the consumers per tile.
    A row no vector divides runs full vectors up to its last multiple and
    one shorter vector after it (TVM's loop_partition, done after every
    block is placed). None where the kernel is not a window reduction."""
    found = _window_block(blocks)
    if found is None:
        return None
    b, n_sp = found
    n_red = len(b["iters"]) - n_sp
    row, col = n_sp - 2, n_sp - 1
    height, width = b["loops"][row], b["loops"][col]
    tile = next((r for r in ROW_TILES if height % r == 0 and height > r), 1)
    vec = _vector_width(width, lanes)
    lines = [
        f'P = sch.get_sblock("{b["name"]}")',
        'L = sch.get_loops(P)',
        f'ho, hi = sch.split(L[{row}], [None, {tile}])',
        f'sch.reorder(ho, L[{col}], *L[{n_sp}:], hi)',
    ]
    lines += _placed(producers, consumers, row, "ho")
    if width % vec == 0:
        part = _vector_part("P", n_red, whole=width == vec)
    else:
        main = width - width % vec
        lines += [f"pp = sch.loop_partition(sch.get_loops(P)[{row + 1}], [{main}, None])",
                  "A = sch.get_child_blocks(pp[0])[0]", "B = sch.get_child_blocks(pp[1])[0]"]
        part = _vector_part("A", n_red, whole=main == vec) + _vector_part("B", n_red, whole=True)
    return lines + [line.replace("VEC", str(vec)) for line in part]


def vector_moves(blocks, lanes):
    """[(name, rationale, lines)] of the vector move, for a pooling and a
    depthwise convolution alike. A window slides over two axes at least: a
    reduction of one axis (a batch-1 linear's 64 inputs) is no window."""
    found = _window_block(blocks)
    if found is None or sum(1 for t, n in found[0]["iters"][found[1]:] if n > 1) < 2:
        return []
    b = found[0]
    producers, consumers = _neighbours(blocks, b)
    lines = vector_rows_trace(blocks, producers, consumers, lanes)
    why = (f"window `{b['name']}` a tile of output rows at a time: each row's outputs in vectors of up to {lanes} lanes, "
           "the taps outside the vector and unrolled, the tile's rows inside them (each input load serves several rows); "
           "the padded input made per channel")
    return [(f"window-vec{lanes}", why, lines)] if lines is not None else []


def moves(blocks):
    """[(name, rationale, lines)]: the window move, with and without its
    producers and consumers moved next to it (a move that does not apply
    is dropped when it is tried)."""
    found = _window_block(blocks)
    if found is None:
        return []
    b = found[0]
    producers, consumers = _neighbours(blocks, b)
    why = (f"pool `{b['name']}` a row at a time: its window's taps outside the row's vectorized last axis and unrolled, "
           "the sums in a local row")
    # First: the per-output shape is at parity with MetaSchedule's pooling
    # on Emerald Rapids, where the row move is 0.6x of it (figures above).
    out = [("window-output", f"pool `{b['name']}` one output at a time: its window's taps unrolled and summed in a register, "
            "the padding read in place (no padded copy), the elementwise consumers per output",
            per_output_trace(blocks, producers, consumers))]
    out.append(("window-row", why + "; the padded input made per channel and the elementwise consumers run per row",
                trace(blocks, producers, consumers)))
    out.append(("window-row-only", why, trace(blocks, [], consumers)))
    return [m for m in out if m[2] is not None]
