"""Register-tiled micro-kernels sized to the target's vector registers.

A contraction (matmul, a convolution in NHWC with HWIO weights) is fastest
when a tile of ROWS x (VECS x LANES) outputs stays in vector registers while
the whole reduction runs over it: each step loads VECS vectors of the
weight's contiguous output axis, broadcasts one input per row and issues
ROWS x VECS independent multiply-adds. Enough independent accumulators hide
the multiply-add latency (two FMA ports x four cycles on x86 want at least
eight); too many spill. The tile is chosen from the register file: 32
vector registers with AVX-512 or on AArch64, 16 with AVX2, keeping a few
for the loaded weight vectors and the broadcast input.

Measured on conv2d_3x3 (32 -> 32 channels, 28 x 28) on an Emerald Rapids
core, NHWC with HWIO weights: a 7 x (2 x 16) tile 0.137 ms; TVM's default
build of the same graph 8.0 ms; MetaSchedule tuned at 179 trials 0.242 ms.

A weight stored output-major ([out, in], a linear's, once the L0 move
folds its transpose into the matmul) has its output axis strided: a vector
of outputs would load values `in` apart. Such an operand is packed, one
column strip at a time, into [out / LANES, in, LANES], the strips
outermost so each is packed once (linear_gelu's matmul on an Emerald
Rapids core: 1.4x the same loops without the copy, 3x to 4x the unpacked
tile with the rows outermost).
"""

from . import peaks

# TIR iteration types of a block's axes (the moves read them from `_blocks`).
SPATIAL, REDUCE = 0, 2

# Accumulators a tile may hold: at least enough to hide FMA latency, at most
# what leaves registers for the operands.
MIN_ACCUMULATORS = 6
SPARE_REGISTERS = 4
ROW_PREFS = (7, 6, 8, 14, 12, 5, 4, 16, 3, 2)


def isa(target):
    """(fp32 lanes per vector, vector registers) of a TVM target."""
    lanes, _ = peaks._lanes(target)
    triple = str(target.attrs.get("mtriple", ""))
    if triple.startswith(("aarch64", "arm64")):
        return lanes, 32
    return lanes, 32 if lanes >= 16 else 16


def tiles(rows_extent, cols_extent, lanes, registers):
    """(rows, vecs) tiles that divide the output exactly, best first: most
    accumulators that still fit, then the wider column strip."""
    out = []
    for vecs in (2, 1, 3, 4):
        if cols_extent % (vecs * lanes):
            continue
        for rows in ROW_PREFS:
            acc = rows * vecs
            if rows_extent % rows or rows_extent < rows or not MIN_ACCUMULATORS <= acc <= registers - SPARE_REGISTERS:
                continue
            out.append((rows, vecs))
    # Half the register file or less first: a tile that fills it leaves
    # LLVM's allocator no room, and it spills (conv2d_3x3: 14 x 2 measured
    # slower than 7 x 2).
    out.sort(key=lambda t: (t[0] * t[1] > registers // 2, -(t[0] * t[1]), -t[1]))
    return out


def contraction_axes(block):
    """(spatial, reduction) axis indices of a block whose loops are its
    axes in order, at least two spatial ones first, then the reductions;
    None for any other block."""
    iters = block["iters"]
    if len(block["loops"]) != len(iters):
        return None
    sp = [i for i, (t, _) in enumerate(iters) if t == SPATIAL]
    rd = [i for i, (t, _) in enumerate(iters) if t == REDUCE]
    if len(sp) < 2 or not rd or sp != list(range(len(sp))) or len(sp) + len(rd) != len(iters):
        return None
    return sp, rd


def trace(block, rows, vecs, lanes, epilogue=(), parallel=False, after=(), forward=(), pack=None):
    """The schedule trace of one micro-kernel over `block` (see moves._blocks
    for its shape). Output spatial loops must come first, then the reduction
    loops; the last spatial axis is the vectorized one, the one before it
    the rows. The elementwise blocks after the result are computed while
    the tile is written back, so the output is written once: the `forward`
    ones are first inlined into their readers (a chain whose blocks read two
    earlier results, hardswish's x * relu6(x + 3), becomes one expression of
    the accumulator), then the `epilogue` ones are inlined into the
    write-back in order (a bias add, then a ReLU). Any `after` them are
    computed tile by tile under the write-back, while the tile is in cache.
    `parallel` runs the outer tiles across cores: it is applied before the
    reduction's init is split off, since TVM refuses to parallelize over a
    decomposed reduction. With `pack` = (read index, rank), that operand
    (a weight stored output-major, [..., N, K], as a linear's) is copied
    per column strip into [..., N / lanes, K, lanes], so each step's vector
    load is contiguous rather than `lanes` values K apart; the strip goes
    outermost, so its copy serves every row tile. None where the block is
    not of that form."""
    axes = contraction_axes(block)
    if axes is None:
        return None
    sp, rd = axes
    pen, last = sp[-2], sp[-1]
    lines = [f'b = sch.get_sblock("{block["name"]}")', "L = sch.get_loops(b)",
             f"ro, ri = sch.split(L[{pen}], [None, {rows}])",
             f"co, cm, ci = sch.split(L[{last}], [None, {vecs}, {lanes}])"]
    outer = [f"L[{i}]" for i in sp[:-2]] + (["co", "ro"] if pack else ["ro", "co"])
    reds = [f"L[{i}]" for i in rd]
    lines.append(f"sch.reorder({', '.join(outer + reds + ['ri', 'cm', 'ci'])})")
    if pack:
        index, rank = pack
        axes = [f"a{i}" for i in range(rank)]
        packed = axes[:-2] + [f"{axes[-2]} // {lanes}", axes[-1], f"{axes[-2]} % {lanes}"]
        lines += [f'Bp = sch.cache_read(b, {index}, "global")', "sch.compute_at(Bp, co)",
                  f'sch.transform_layout(Bp, ("write", 0), lambda {", ".join(axes)}: ({", ".join(packed)}))',
                  # The copy walks the packed buffer in order: K, then lanes.
                  "BL = sch.get_loops(Bp)", "sch.reorder(BL[-1], BL[-2])"]
    lines += ['acc = sch.cache_write(b, 0, "global")', f"sch.reverse_compute_at(acc, {outer[-1]})"]
    for name in forward:
        lines.append(f'sch.compute_inline(sch.get_sblock("{name}"))')
    for name in epilogue:
        lines.append(f'sch.reverse_compute_inline(sch.get_sblock("{name}"))')
    for name in after:
        lines += [f'e = sch.get_sblock("{name}")', f"sch.reverse_compute_at(e, {outer[-1]})", "sch.vectorize(sch.get_loops(e)[-1])"]
    lines += ["sch.unroll(ri)", "sch.unroll(cm)", "sch.vectorize(ci)"]
    if parallel:
        tiles_outer = outer[:-1]
        lines.append(f"p = sch.fuse({', '.join(tiles_outer)})" if len(tiles_outer) > 1 else f"p = {tiles_outer[0]}")
        lines.append("sch.parallel(p)")
    lines.append(f"sch.decompose_reduction(b, {reds[0]})")
    return lines


def moves(main, blocks, target, parallel, consumers, producers, applies=lambda lines: True, pack=None):
    """[(name, rationale, trace)] for the contraction `main`: the best tiles
    for the target's registers, each with the elementwise blocks that
    follow computed into its write-back (see `trace`), and without. A block
    is inlined into the write-back while it is the only reader of the one
    before it and reads nothing else computed here; past the first that is
    not, the chain is inlined forward into its last block, or else computed
    tile by tile. `consumers` and `producers` count each block's readers and
    writers within the kernel; `applies` tells whether a trace schedules.
    With `pack` (see `trace`), each tile is offered with the operand packed
    only: unpacked, every tile measured 1.4x to 4x slower, and offering
    both spent gated_residual's 30 candidates on its three matmuls alone.
    """
    lanes, registers = isa(target)
    iters = main["iters"]
    sp = [i for i, (t, _) in enumerate(iters) if t == SPATIAL]
    if len(sp) < 2:
        return []
    after = blocks[blocks.index(main) + 1:]
    chain = []
    for b in after:
        if not b["iters"] or any(t != SPATIAL for t, _ in b["iters"]):
            break
        chain.append(b["name"])
    inlined = []
    for name in chain:
        before = inlined[-1] if inlined else main["name"]
        if consumers.get(before) != 1 or producers.get(name) != 1:
            break
        inlined.append(name)
    rest = chain[len(inlined):]
    # Best first: the whole chain as one expression in the write-back
    # (where a block reads two earlier results, the ones before the last are
    # inlined forward); else the inlined part with the rest computed tile by
    # tile; else the inlined part alone; else shorter inlined prefixes. As
    # (forward, inlined, tile by tile).
    epilogues = [(chain[:-1], chain[-1:], ())] if rest else []
    epilogues += ([((), inlined, rest)] if rest and inlined else []) + [((), inlined[:n], ()) for n in range(len(inlined), 0, -1)]
    out = []
    for rows, vecs in tiles(iters[sp[-2]][1], iters[sp[-1]][1], lanes, registers)[:3]:
        name = f"micro{rows}x{vecs * lanes}{'-pack' if pack else ''}{'-par' if parallel else ''}"
        why = (f"micro-kernel: a {rows} x {vecs * lanes} tile of `{main['name']}`'s outputs ({rows * vecs} vector accumulators of "
               f"{lanes} lanes, sized to {registers} vector registers) stays in registers across the whole reduction")
        why += "; its output-major operand packed per column strip, so each vector load is contiguous" if pack else ""
        why += "; outer loop across cores" if parallel else ""
        for ahead, inline, later in epilogues:
            lines = trace(main, rows, vecs, lanes, inline, parallel, later, ahead, pack)
            if lines and applies(lines):
                names = ", ".join(f"`{e}`" for e in list(ahead) + list(inline))
                extra = (f"; then {', '.join(f'`{e}`' for e in later)} computed tile by tile") if later else ""
                out.append((name + "-epilogue", why + f"; {names} applied as the tile is written back" + extra, lines))
                break
        lines = trace(main, rows, vecs, lanes, (), parallel, pack=pack)
        if lines:
            out.append((name, why, lines))
    return out
