"""Row-wise reductions (norms, softmax, row sums, gemv) scheduled one row
at a time with vector lanes across the reduction.

A kernel of this family is a chain of blocks over the same leading rows:
reductions over each row's last axes (a sum, a max, a sum of squares) and
elementwise passes that read their results. TVM's default build runs each
block over the whole tensor in scalar order, so each pass re-reads the
tensor from memory and every sum is one long dependency chain.

The move here, per kernel:
- every block is computed under one row loop (the final block's leading
  loops fused), so a row is read from cache by each pass after the first;
- each reduction is split into `lanes` interleaved partial sums (rfactor),
  whose lane loop is vectorized: `lanes` independent accumulators instead
  of one chain, summed once per row;
- the elementwise passes are vectorized along the row;
- small elementwise producers (a per-row mean, the product before a sum)
  are inlined into their consumers where TVM allows it, or kept per row.

Measured on layer_norm (16x64x256) on a Zen 4 core: 16 lanes, producers
inlined, 0.058 ms; MetaSchedule tuned at 89 trials 0.145 ms; PyTorch eager
0.103 ms.
"""

from .microkernel import REDUCE, SPATIAL

LANE_PREFS = (16, 32, 8)
# Lanes for a row that none of LANE_PREFS divides: a global average pool's
# 14 x 14 = 196. Measured on one Emerald Rapids core, the mean of
# 256 x 196: 4 lanes 3.2 us, 14 lanes (a row of the window) 3.3 us, 28
# lanes 5.3 us, TVM's build 24 us (the tuned baseline about 8 us).
# Only for rows of NARROW_MIN elements or more: a 2 x 2 pooling window or
# a mean over 2 x 2 has too little to split.
NARROW_LANES = (4,)
NARROW_MIN = 32
# Vectors of partial sums per reduction, most preferred first: each is a
# dependency chain of its own, and a vector add or max waits about four
# cycles on the one before it. Only a long row gains: each chain must
# still run CHAIN_MIN_STEPS vectors, since the chains are summed once per
# row. Measured on one Emerald Rapids core: rms_norm (rows of 256, 16
# lanes) one vector 5.7 us, four 11.3 us (4 steps each, the four summed
# lane by lane).
CHAIN_PREFS = (4, 5, 3, 2)
CHAIN_MIN_STEPS = 16


def _divisor(n, prefs):
    return next((v for v in prefs if n % v == 0 and n >= 2 * v), None)


def _row_count(blocks):
    """How many leading loops every block shares with the final block, each
    spatial in all of them: the rows. 0 when the kernel is not of this
    family (no reduction, or blocks over other leading shapes)."""
    final = blocks[-1]
    if not any(t == REDUCE for b in blocks for t, _ in b["iters"]):
        return 0
    rows = len(final["loops"])
    for b in blocks:
        if len(b["loops"]) != len(b["iters"]):
            return 0
        n = 0
        while n < min(len(b["iters"]), len(final["iters"])) and b["iters"][n][0] == SPATIAL \
                and final["iters"][n][0] == SPATIAL and b["iters"][n][1] == final["iters"][n][1]:
            n += 1
        rows = min(rows, n)
    return rows


def _reduce_tail(b, rows):
    """The indices of a reduction block's reduction loops, when they are
    all at the end and whatever spatial loops sit between them and the
    rows are of extent 1; else None."""
    rest = list(range(rows, len(b["iters"])))
    red = [i for i in rest if b["iters"][i][0] == REDUCE]
    if not red or red != rest[len(rest) - len(red):]:
        return None
    if any(b["iters"][i][1] != 1 for i in rest[:len(rest) - len(red)]):
        return None
    return red


def trace(blocks, lanes, inline, unroll=64, parallel=False, chains=False, wide=None):
    """The trace lines of the row move, or None where the kernel is not of
    this family. `inline` names the elementwise blocks to inline; the others
    are computed per row. Blocks are visited consumer first, as compute_at
    needs. With `chains`, each reduction keeps several vectors of partial
    sums where its row holds them (see CHAIN_PREFS), else one. With `wide`
    (the ISA's lanes, more than `lanes`), an elementwise pass over a row
    that no multiple of `wide` fills runs `wide` lanes up to the last
    multiple and a shorter vector after it (see _wide_pass)."""
    rows = _row_count(blocks)
    if rows == 0:
        return None
    final = blocks[-1]
    lines, late = [], []
    final_reduces = any(t == REDUCE for t, _ in final["iters"])
    f_red = _reduce_tail(final, rows) if final_reduces else None
    if final_reduces and f_red is None:
        return None
    lines.append('F = sch.get_sblock("%s")' % final["name"])
    f_chains = _rfactor(lines, "F", final, f_red, rows, lanes, chains) if f_red is not None else 0
    split_any = f_chains > 0
    lines.append("Fl = sch.get_loops(F)")
    lines.append(f"row = sch.fuse({', '.join(f'Fl[{i}]' for i in range(rows))})")
    if split_any:
        lines += _partials_per_row("F", f_chains)
    elif not final_reduces and len(final["loops"]) > rows:
        v = _divisor(final["loops"][-1], (lanes, 16, 8, 4)) or (final["loops"][-1] if final["loops"][-1] in (4, 8, 16) else None)
        if _wide_pass(final["loops"][-1], v, wide):
            late.append(("F", final["loops"][-1]))
        elif v:
            lines += [f"Fo, Fi = sch.split(Fl[-1], [None, {v}])", "sch.vectorize(Fi)"]
    for n, b in reversed(list(enumerate(blocks[:-1]))):
        name = f"b{n}"
        lines.append('%s = sch.get_sblock("%s")' % (name, b["name"]))
        if all(t == SPATIAL for t, _ in b["iters"]):
            if b["name"] in inline:
                lines.append(f"sch.compute_inline({name})")
                continue
            lines.append(f"sch.compute_at({name}, row)")
            inner = b["loops"][-1] if len(b["loops"]) > rows else 1
            v = _divisor(inner, (lanes, 16, 8, 4))
            if _wide_pass(inner, v, wide):
                late.append((name, inner))
            elif v:
                lines += [f"{name}l = sch.get_loops({name})", f"{name}o, {name}i = sch.split({name}l[-1], [None, {v}])", f"sch.vectorize({name}i)"]
            continue
        red = _reduce_tail(b, rows)
        if red is None:
            return None
        rf = _rfactor(lines, name, b, red, rows, lanes, chains)
        split_any |= rf > 0
        lines.append(f"sch.compute_at({name}, row)")
        if rf:
            lines += _partials_per_row(name, rf)
    if not split_any:
        return None
    for name, inner in late:
        lines += _partitioned(name, inner, wide)
    if parallel:
        lines.append("sch.parallel(row)")
    if unroll:
        lines += [f'sch.annotate(row, "pragma_auto_unroll_max_step", {unroll})', 'sch.annotate(row, "pragma_unroll_explicit", 1)']
    return lines


def _wide_pass(inner, v, wide):
    """Whether a row pass of `inner` elements, vectorized by `v`, should run
    `wide` lanes on a partitioned row instead: a row of 1000 takes 8 lanes
    whole, 16 lanes up to 992. Measured on softmax (128 x 1000, one Emerald
    Rapids core), its exponentials and normalization at 8 lanes 71.7 us, at
    16 up to 992 then 8, 55.3 us."""
    return bool(wide) and inner % wide != 0 and inner >= 2 * wide and (v or 0) < wide


def _partitioned(name, inner, wide):
    """A row pass cut in two loops (TVM's loop_partition): `wide` lanes up
    to the last multiple of `wide`, then the rest as one shorter vector
    where it is one (4 or 8 lanes), else scalar. Done after every
    compute_at: a partitioned block's regions cover the whole buffer, so a
    producer computed at the row after it would be computed whole."""
    main, tail = inner - inner % wide, inner % wide
    lines = [f"{name}L = sch.get_loops({name})", f"{name}p = sch.loop_partition({name}L[-1], [{main}, None])",
             f"{name}po, {name}pi = sch.split({name}p[0], [None, {wide}])", f"sch.vectorize({name}pi)"]
    if tail in (4, 8):
        lines.append(f"sch.vectorize({name}p[1])")
    return lines


def _rfactor(lines, name, b, red, rows, lanes, chains=False):
    """Splits block `name`'s reduction into vectors of `lanes` partial sums
    (the rfactor block is `<name>rf`): with `chains`, as many vectors as
    CHAIN_PREFS finds room for, else one. Returns the vectors used, 0 where
    the reduction is too short for one."""
    n = 1
    for i in red:
        n *= b["iters"][i][1]
    count = next((c for c in CHAIN_PREFS if n % (lanes * c) == 0 and n >= CHAIN_MIN_STEPS * lanes * c), 1) if chains else 1
    v = _divisor(n, (lanes * count,))
    if v is None:
        return 0
    lines.append(f"{name}l = sch.get_loops({name})")
    k = f"sch.fuse({', '.join(f'{name}l[{i}]' for i in red)})" if len(red) > 1 else f"{name}l[{red[0]}]"
    lines += [f"{name}ko, {name}ki = sch.split({k}, [None, {v}])", f"{name}rf = sch.rfactor({name}ki, {rows})"]
    if count > 1:
        # The chains are first summed into one vector, lane by lane, so
        # the row's last sum takes `lanes` scalar steps, not all the
        # partials (softmax: 70.5 us with 40 scalar steps, 65.5 with 8).
        lines += [f"{name}m = sch.get_loops({name})", f"{name}mc, {name}mv = sch.split({name}m[-1], [{count}, None])",
                  f"{name}rf2 = sch.rfactor({name}mv, {rows})"]
    return count


def _partials_per_row(name, chains):
    """The partial sums of block `name` computed under the row, consumers
    first: the chains' sum into one vector (`<name>rf2`), when there are
    several, then the chains themselves."""
    lines = []
    if chains > 1:
        lines += [f"sch.compute_at({name}rf2, row)"] + _vector_lanes(f"{name}rf2")
    return lines + [f"sch.compute_at({name}rf, row)"] + _vector_lanes(f"{name}rf", chains)


def _vector_lanes(rf, chains=1):
    """Under the row, an rfactor block's loops are its lane loop then its
    reduction loop (its iterators' order): the lanes go innermost and are
    vectorized, and the partial sums' init is split out so it vectorizes too.
    With several chains the lane loop is split into `chains` unrolled vectors:
    independent accumulators, so the adds (or maxes) of one row overlap
    instead of each waiting on the last."""
    if chains == 1:
        return [f"{rf}l = sch.get_loops({rf})", f"sch.reorder({rf}l[-1], {rf}l[-2])", f"sch.vectorize({rf}l[-2])",
                f"sch.decompose_reduction({rf}, {rf}l[-1])"]
    return [f"{rf}l = sch.get_loops({rf})", f"{rf}c, {rf}v = sch.split({rf}l[-2], [{chains}, None])",
            f"sch.reorder({rf}l[-1], {rf}c, {rf}v)", f"sch.vectorize({rf}v)", f"sch.unroll({rf}c)",
            f"sch.decompose_reduction({rf}, {rf}l[-1])"]


def _worth_inlining(blocks, consumers, rows):
    """The elementwise blocks whose inlining costs no repeated work: those
    read by one block, and per-row values (a mean, a reciprocal), which are
    cheap to recompute. An elementwise pass read by two blocks (softmax's
    exponentials, read by the sum and the normalization) is kept per row:
    inlined, it would be computed twice (measured 0.64x against 1.52x)."""
    out = set()
    for b in blocks[:-1]:
        if all(t == SPATIAL for t, _ in b["iters"]) and (consumers.get(b["name"], 0) <= 1 or all(e == 1 for e in b["loops"][rows:])):
            out.add(b["name"])
    return out


def moves(blocks, consumers, lanes, big, contiguous=True):
    """[(name, rationale, lines)] of this family for a kernel's blocks;
    `consumers` counts the blocks that read each block. `contiguous`: every
    reduction reads its row along an input's last axis, so narrow lanes
    read neighbours; in NHWC a mean over H and W reads its row a channel
    count apart, and there the tiles across channels win (4 lanes 0.53x
    against the tiles' 0.99x, conv_avgpool_linear_head)."""
    out = []
    rows = _row_count(blocks)
    if rows == 0:
        return out
    chosen = _worth_inlining(blocks, consumers, rows)
    for lane in sorted(set(LANE_PREFS), key=lambda v: (v != lanes, LANE_PREFS.index(v))):
        out += _moves_at(blocks, lane, lanes, chosen, big)
    for lane in ([] if out or not contiguous or _longest_reduction(blocks, rows) < NARROW_MIN else NARROW_LANES):
        out += _moves_at(blocks, lane, lanes, chosen, big)
        if out:
            break
    return out


def _longest_reduction(blocks, rows):
    """The most elements any block reduces per row."""
    longest = 0
    for b in blocks:
        n = 1
        for t, extent in b["iters"][rows:]:
            n *= extent if t == REDUCE else 1
        longest = max(longest, n if any(t == REDUCE for t, _ in b["iters"][rows:]) else 0)
    return longest


def _moves_at(blocks, lane, lanes, chosen, big):
    """The row moves with `lane` lanes of partial sums, the ISA having `lanes`."""
    out = []
    for inline in ([chosen, set()] if chosen else [set()]):
        for par in ([True, False] if big else [False]):
            lines = trace(blocks, lane, inline, parallel=par)
            if lines is None:
                continue
            why = (f"compute every block one row at a time; split each reduction into {lane} vector lanes of partial sums; "
                   f"vectorize the elementwise passes along the row")
            why += f"; inline {', '.join(sorted(inline))}" if inline else "; keep the elementwise passes per row"
            why += "; rows across cores" if par else ""
            name = f"rows{lane}{'' if inline or not chosen else '-keep'}{'-par' if par else ''}"
            chained = trace(blocks, lane, inline, parallel=par, chains=True)
            wide = trace(blocks, lane, inline, parallel=par, chains=True, wide=lanes) if lane < lanes else None
            if wide is not None and wide != chained:
                # First: softmax's rows of 1000, 8 lanes for the sums
                # and 16 for the passes up to 992, 55.3 us against 71.7.
                several = "; several vectors of partial sums per reduction" if chained != lines else ""
                out.append((f"{name}{'-chains' if several else ''}-wide{lanes}",
                            why + f"{several}; the passes {lanes} lanes wide up to the row's last multiple of {lanes}", wide))
            if chained != lines:
                # Before its one-chain sibling. Measured on one Emerald
                # Rapids core, one chain against several: reduce_sum
                # (rows of 1024) 7.6 and 5.5 us at 16 lanes; softmax 78
                # and 65.5 us at 8; layer_norm (rows of 256, too short
                # for chains at 16 lanes) 56.8 and 44.5 us at 8.
                out.append((f"{name}-chains", why + "; several vectors of partial sums per reduction, each its own dependency chain", chained))
            out.append((name, why, lines))
    return out
