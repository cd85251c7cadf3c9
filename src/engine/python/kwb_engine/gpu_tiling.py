"""GPU contraction tiling chosen by design, not sampled.

MetaSchedule's CUDA design space for a contraction (matmul, convolution)
already has the structure a fast fp32 kernel needs: each block computes a
BM x BN tile of the output, staging BK-deep slices of both inputs in shared
memory (software-pipelined, with asynchronous copies); each thread keeps a
TM x TN tile of accumulators in registers, so every value read from shared
memory feeds TM or TN multiply-adds. What decides the speed is the tile
sizes, and sampling them at random (the space's own sampler) rarely gives a
tile with both enough register reuse and enough blocks: on the H200 its
samples stayed at a quarter of the fp32 peak, where cuBLAS reaches half.

Here the sizes are chosen from the kernel's axes instead:
- each spatial axis is classed by which input it indexes (a matmul's rows
  index only A, its columns only B; a convolution's output channels only
  the weight, its batch and pixels only the data); an axis indexing both (a
  batch of matmuls) is split across blocks only;
- a thread tile of TM x TN accumulators (4-8 each) and a block of TY x TX
  threads (64-256) are spread over the axes of each class, innermost axis
  first, with every split exact; where the output's contiguous axis
  indexes the data (an NCHW convolution's columns), its elements go to the
  threads first, so a warp stores consecutive outputs;
- the reduction is staged BK elements at a time (the whole of a small
  convolution window, a slice of the channels);
- candidate tilings are ranked by reuse (multiply-adds per value a
  thread reads from shared memory, TM*TN / (TM+TN), and per value a block
  reads from global memory, BM*BN / (BM+BN)) and by whether the grid has a
  block for every SM, and only the best few are built. Whether one pays is measured on the device.

The decisions are written into the design space's own trace, and the
space's postprocessors (cooperative fetch, unroll, verification) run as in
a tuning, so the result is an ordinary MetaSchedule trace: replayed,
checked for the GPU's limits and measured like any sampled schedule.
"""

import math

import tvm
import tvm.sym
from tvm import s_tir

from . import space

# Thread tiles (TM, TN) and thread blocks (TY, TX) tried, most reuse first.
THREAD_TILES = ((8, 8), (4, 8), (8, 4), (4, 4))
THREAD_BLOCKS = ((16, 16), (8, 16), (16, 8), (8, 32), (32, 8), (8, 8))
# Where the threads are spread over a convolution's pixels alone (see
# tilings): on the H200 4x4 per thread beat 4x8, 2x8 and 2x4 on both a
# depthwise (1.58x over dlight against 1.20x at best) and a grouped
# convolution (1.51x against 1.48x), and blocks a whole row wide beat half
# rows (1.58x against 1.32x; 1.51x against 1.49x).
PIXEL_THREAD_TILES = ((4, 4), (4, 8))
# Reduction elements staged in shared memory per step.
STAGE_DEPTHS = (16, 8, 32)
# The cooperative fetch's vector lanes (MetaSchedule's candidates are 1-4).
FETCH_LANES = (4, 2, 1)
# Explicit unroll limit (an index into MetaSchedule's [0, 16, ..., 1024]):
# 512 unrolls a thread's whole register tile.
UNROLL_DECISION = 6
# A grid of fewer blocks than SMs leaves SMs idle, and fewer threads than
# THREADS_PER_SM per SM leaves latency unhidden (the H200 has 132 SMs;
# other GPUs of its class are within 2x).
SMS = 132
THREADS_PER_SM = 512

SPATIAL, REDUCE = 0, 2

# Split-K: ways the reduction is split across blocks, and the least of it
# each block keeps (below that the partial sums cost more than they save).
SPLIT_WAYS = (2, 4, 8, 16)
MIN_SPLIT_DEPTH = 128
SPLIT_K_TILINGS = 4
# Split-K is offered where no tiling of the output alone reaches this share
# of a full GPU (see tilings' fill): a 1024 x 1024 output in 64 x 64 tiles
# (0.97) measured split-K slower on the H200, a 512 x 512 one in 32 x 64
# tiles (0.48) 3.2x faster.
SPLIT_BELOW_FILL = 0.9


def _loop_nest(func, name):
    """The loops (outermost first) around block `name`, and its SBlockRealize."""
    found = []

    def walk(stmt, loops):
        if isinstance(stmt, tvm.tirx.For):
            walk(stmt.body, loops + [stmt])
        elif isinstance(stmt, s_tir.SBlockRealize):
            if stmt.block.name_hint == name:
                found.append((loops, stmt))
                return
            walk(stmt.block.body, loops)
        elif isinstance(stmt, tvm.tirx.SeqStmt):
            for s in stmt.seq:
                walk(s, loops)
        else:
            for attr in ("body", "then_case", "else_case"):
                child = getattr(stmt, attr, None)
                if isinstance(child, tvm.tirx.Stmt):
                    walk(child, loops)

    walk(func.body, [])
    return found[0] if found else (None, None)


def _source(region):
    """The buffer a block's read or write region is of (its name)."""
    buf = getattr(region, "buffer", None) or getattr(region, "source", None)
    return str(getattr(buf, "name", buf))


def _vars(expr):
    return {v.name for v in tvm.tirx.analysis.undefined_vars(expr, [])}


def axes(func, name):
    """Block `name`'s loops as [(extent, kind, class)], outermost first:
    kind SPATIAL or REDUCE; class "a"/"b" (indexes only the first/second
    input it reads), "both", or "none". None if the loops do not map one to
    one onto the block's axes (then the tiling is left to the sampler)."""
    loops, realize = _loop_nest(func, name)
    if realize is None:
        return None
    block = realize.block
    if len(loops) != len(block.iter_vars):
        return None
    written = {_source(w) for w in block.writes}
    reads = [r for r in block.reads if _source(r) not in written]
    if len(reads) < 2:
        return None
    # Simplified over the axes' ranges: a grouped convolution split into
    # group and channel-in-group reads its data at `(g * C + c) // C * C`,
    # which is `g * C`; unsimplified, c would seem to index the data too.
    analyzer = tvm.sym.Analyzer()
    for iv in block.iter_vars:
        analyzer.bind(iv.var, iv.dom)
    used = [set().union(*(_vars(analyzer.simplify(rg.min)) for rg in r.region)) for r in reads[:2]]
    out = []
    for loop, iv, value in zip(loops, block.iter_vars, realize.iter_values):
        if not isinstance(value, tvm.tirx.Var) or value.name != loop.loop_var.name:
            return None
        if int(loop.extent) != int(iv.dom.extent):
            return None
        name_ = iv.var.name
        cls = {(True, False): "a", (False, True): "b", (True, True): "both", (False, False): "none"}[
            (name_ in used[0], name_ in used[1])]
        out.append((int(loop.extent), int(iv.iter_type), cls))
    return out


def _largest_divisor(n, most):
    return max(d for d in range(1, min(n, most) + 1) if n % d == 0)


def _spread(extents, threads, regs, threads_first=False):
    """Threads and register tile over axes of one class (innermost first):
    [(t, r)] per axis with exact splits. Each takes what divides it of what
    is left (gcd); where that cannot give all that is wanted (a 28-wide
    axis has no 8), the largest divisor not above it (7), as long as that
    gives at least half the threads and registers wanted; else None. The
    innermost axis gives its elements to the register tile first (a
    thread's strip is contiguous), or with `threads_first` to the threads
    (consecutive threads on consecutive elements)."""
    for pick in (math.gcd, _largest_divisor):
        out = [(1, 1)] * len(extents)
        got_t = got_r = 1
        for i in reversed(range(len(extents))):
            e = extents[i]
            if threads_first and i == len(extents) - 1:
                t = pick(e, threads // got_t)
                r = pick(e // t, regs // got_r)
            else:
                r = pick(e, regs // got_r)
                t = pick(e // r, threads // got_t)
            out[i] = (t, r)
            got_t, got_r = got_t * t, got_r * r
        if got_t == threads and got_r == regs:
            return out
    return out if 2 * got_t >= threads and 2 * got_r >= regs else None


def _stage(reduce_extents, depth):
    """Each reduction axis as [outer, staged, 1]: the innermost axes (a
    convolution's window) staged whole, the outer ones (channels) sliced so
    one stage holds about `depth` elements."""
    out, left = [None] * len(reduce_extents), depth
    for i in reversed(range(len(reduce_extents))):
        e = reduce_extents[i]
        s = math.gcd(e, left) if left > 1 else 1
        if i > 0 and e <= 7 and left >= e:
            s = e  # a small window axis is staged whole
        out[i] = [e // s, s, 1]
        left = max(1, left // s)
    return out


def tilings(ax, count, threads_along_rows_first=True):
    """Up to `count` tilings of a contraction with axes `ax` (see axes),
    best first: {decisions: [per-axis tile decision], label, score}."""
    spatial = [i for i, (_, k, _) in enumerate(ax) if k == SPATIAL]
    reduce = [i for i, (_, k, _) in enumerate(ax) if k == REDUCE]
    a = [i for i in spatial if ax[i][2] == "a"]
    b = [i for i in spatial if ax[i][2] == "b"]
    pixels = not b and len([i for i in a if ax[i][0] > 1]) >= 2
    if pixels:
        # No axis indexes the weight alone (a depthwise or grouped
        # convolution: each channel reads its own weights, so the channels
        # go across blocks): the threads and each thread's tile are spread
        # over the pixels instead, rows (TY, TM) and columns (TX, TN), and
        # a block stages its window of the data, halo included, once.
        a, b = a[:-1], a[-1:]
    thread_tiles = PIXEL_THREAD_TILES if pixels else THREAD_TILES
    if not a or not b or not reduce:
        return []
    # Where the output's innermost (contiguous) axis indexes the data (an
    # NCHW convolution's columns, not its channels), the threads can also
    # go along it first, so a warp's loads and stores of the output are
    # contiguous.
    data_inner = not pixels and max(spatial) in a and ax[max(spatial)][0] > 1
    shapes = []
    for tile_rank, (tm, tn), threads_first in [(r, tt, f) for r, tt in enumerate(thread_tiles) for f in (False, True)
                                               if not f or data_inner]:
        for ty, tx in THREAD_BLOCKS:
            sa = _spread([ax[i][0] for i in a], ty, tm, threads_first)
            sb = _spread([ax[i][0] for i in b], tx, tn)
            if sa is None or sb is None:
                continue
            variants = []
            for vthread in (False, True):
                dec = {}
                for idx, (t, r) in list(zip(a, sa)) + list(zip(b, sb)):
                    v = 2 if vthread and r >= 4 and idx in (a[-1], b[-1]) else 1
                    dec[idx] = [ax[idx][0] // (t * r), v, t, r // v, 1]
                if vthread and all(d[1] == 1 for d in dec.values()):
                    continue
                for i in spatial:
                    dec.setdefault(i, [ax[i][0], 1, 1, 1, 1])
                variants.append((vthread, dec))
            # What the exact splits gave (at most what was asked).
            ty, tm = math.prod(t for t, _ in sa), math.prod(r for _, r in sa)
            tx, tn = math.prod(t for t, _ in sb), math.prod(r for _, r in sb)
            bm, bn = ty * tm, tx * tn
            blocks = 1
            for i in spatial:
                blocks *= variants[0][1][i][0]
            # Loads per multiply-add: from shared memory per thread (TM+TN
            # per TM*TN), from global memory per block (BM+BN per BM*BN);
            # and a grid that gives every SM a block and enough threads to
            # hide latency (a 1024 x 1024 output in 8 x 8 tiles is only
            # 124 threads per SM: measured slower than dlight's on the H200).
            fill = min(1.0, blocks / SMS) * min(1.0, blocks * ty * tx / (SMS * THREADS_PER_SM))
            score = tm * tn / (tm + tn) * math.sqrt(bm * bn / (bm + bn)) * fill
            shapes.append((score, bm, bn, tm, tn, ty, tx, variants, fill, tile_rank, threads_first))
    shapes.sort(key=lambda x: -x[0])
    unique = {}
    for sh in shapes:
        unique.setdefault(str(sh[7][0][1]), sh)
    shapes = list(unique.values())
    out = []
    # The best shapes first, each plain and with its thread tile
    # interleaved (two strips TX*TN/2 apart: fewer shared-memory bank
    # conflicts); other stage depths for the best shape last.
    if pixels:
        # 4x4 per thread first, then blocks a whole row wide (coalesced
        # rows, the least halo), then the smaller blocks (more per SM) of
        # two warps or more: depthwise 32x56 in 112 threads measured 1.58x,
        # 64x56 in 224 1.53x.
        width = ax[b[-1]][0]
        # (By the tile asked for: a small axis can give less than it.)
        shapes.sort(key=lambda x: (x[9], x[2] != width, x[5] * x[6] < 64, x[1]))
    for rank, (score, bm, bn, tm, tn, ty, tx, variants, fill, _, threads_first) in enumerate(shapes):
        for depth in STAGE_DEPTHS if rank == 0 and not pixels else STAGE_DEPTHS[:1]:
            for vthread, dec in variants:
                d = dict(dec)
                d.update(zip(reduce, _stage([ax[i][0] for i in reduce], depth)))
                label = (f"{bm}x{bn} block, {tm}x{tn} per thread, {ty * tx} threads, k{depth}" + (", interleaved" if vthread else "")
                         + (", threads along the output's rows" if threads_first else ""))
                out.append({"decisions": [d[i] for i in range(len(ax))], "label": label, "fill": fill, "threads_first": threads_first,
                            "score": score * (1.0 if depth == STAGE_DEPTHS[0] else 0.5)})
    if not pixels:
        out.sort(key=lambda f: -f["score"])
    if data_inner:
        # Threads along the output's rows first: on the H200 they beat the
        # same shape with each thread's strip along the rows in 20 of 20
        # pairs over five NCHW convolutions (conv2d_3x3 2.20x against 1.77x
        # over dlight, conv2d_1x1 2.09x against 1.66x).
        out.sort(key=lambda f: f["threads_first"] != threads_along_rows_first)
    return out[:count]


def _tiled_block(trace):
    """The block MultiLevelTiling tiled in a design-space trace, and the
    positions of its tile samples in the trace's instructions."""
    name, samples, block_rv = None, [], {}
    for pos, inst in enumerate(trace.insts):
        kind = inst.kind.name
        if kind == "GetSBlock":
            block_rv[inst.outputs[0]] = str(inst.attrs[0])
        elif kind == "Annotate" and str(inst.attrs[0]) == "meta_schedule.tiling_structure":
            if name is not None:
                return None, []  # two tiled blocks: not this move's shape
            name = block_rv.get(inst.inputs[0])
        elif kind == "SamplePerfectTile" and name is not None:
            samples.append(pos)
    return name, samples


def _with_decisions(trace, samples, decisions, lanes):
    insts = list(trace.insts)
    dec = dict(trace.decisions)
    for pos, d in zip(samples, decisions):
        dec[insts[pos]] = [int(x) for x in d]
    for inst in insts:
        if inst.kind.name != "SampleCategorical":
            continue
        cands = [int(c) for c in inst.attrs[0]]
        if cands == [1, 2, 3, 4]:  # a cooperative fetch's vector lanes
            dec[inst] = cands.index(lanes)
        elif cands[:2] == [0, 16]:  # the explicit unroll limit
            dec[inst] = min(UNROLL_DECISION, len(cands) - 1)
    return s_tir.Trace(insts, dec)


def _pipeline(trace):
    """The software pipeline's stages a design-space trace asks for, or None."""
    return next((str(i.inputs[1]) for i in trace.insts if i.kind.name == "Annotate"
                 and str(i.attrs[0]) == "software_pipeline_stage"), None)


def _split_k(one, kernel, name, ways):
    """Block `name`'s outermost reduction split `ways` ways into a spatial
    axis of its own (rfactor), placed outermost so its loops match its
    axes: (the module, the trace lines that made it), or None where the
    reduction does not split evenly or leaves too little per block."""
    sch = s_tir.Schedule(one)
    sch.work_on(kernel)
    block = sch.get_sblock(name)
    ax = axes(one[kernel], name)
    loops = sch.get_loops(block)
    first = next(i for i, (_, kind, _) in enumerate(ax) if kind == REDUCE)
    extent = ax[first][0]
    if extent % ways or extent // ways < MIN_SPLIT_DEPTH:
        return None
    outer, _ = sch.split(loops[first], [ways, None])
    rf = sch.rfactor(outer, 0)
    rf_loops = sch.get_loops(rf)
    sch.reorder(rf_loops[first], *rf_loops[:first])
    return tvm.IRModule({kernel: sch.mod[kernel]}), [str(line) for line in sch.trace.as_python()]


def _floordivs(expr):
    """(variable name, divisor) of each `v // c` in an index expression."""
    out = []

    def walk(e):
        if isinstance(e, tvm.tirx.FloorDiv) and isinstance(e.a, tvm.tirx.Var) and isinstance(e.b, tvm.tirx.IntImm):
            out.append((e.a.name, int(e.b.value)))
        for part in ("a", "b", "value"):
            sub = getattr(e, part, None)
            if sub is not None and not isinstance(sub, (int, float)):
                walk(sub)

    walk(expr)
    return out


def _group_split(one, kernel, name):
    """A grouped convolution's output channels split into group and
    channel-in-group: (the module, the trace lines that made it), or None.

    TVM's grouped convolution has one output channel axis `ff`, and the
    data is read at channel `ff // C * C + rc` (C channels a group), so ff
    indexes both inputs and the tiling by design found no axis of the
    weight alone to spread threads over. Split as ff = g * C + c, the
    group g still indexes both (across blocks) but c indexes only the
    weight, and the convolution tiles like a plain one within a group."""
    func = one[kernel]
    ax = axes(func, name)
    loops, realize = _loop_nest(func, name)
    if not ax or realize is None:
        return None
    block = realize.block
    written = {_source(w) for w in block.writes}
    data = next(r for r in block.reads if _source(r) not in written)
    divs = [d for rg in data.region for d in _floordivs(rg.min)]
    for i, (iv, (extent, kind, cls)) in enumerate(zip(block.iter_vars, ax)):
        if kind != SPATIAL or cls != "both":
            continue
        per_group = next((c for v, c in divs if v == iv.var.name and 1 < c < extent and extent % c == 0), None)
        if per_group is None:
            continue
        sch = s_tir.Schedule(one)
        sch.work_on(kernel)
        split = tvm.tirx.IndexMap.from_func(
            lambda *v: (*v[:i], v[i] // per_group, v[i] % per_group, *v[i + 1:]), ndim=len(block.iter_vars))
        sch.transform_block_layout(sch.get_sblock(name), split)
        return tvm.IRModule({kernel: sch.mod[kernel]}), [str(line) for line in sch.trace.as_python()]
    return None


def _designed(one, kernel, target, count, original, prefix=(), threads_along_rows_first=True):
    """Tilings by design of the one contraction in `one`'s design space:
    (block name, [{score, fill, label, lines}]), each trace (after
    `prefix`) checked by replaying it on `original`."""
    ms = space.metaschedule()
    ctx = ms.TuneContext(mod=one, target=target, space_generator="post-order-apply", task_name=kernel, num_threads=1)
    # The design space without a software pipeline for every tiling: the
    # pipelined ones measured no faster on the H200 (within 4%, mostly
    # slower).
    designs = sorted(ctx.generate_design_space(), key=lambda d: _pipeline(d.trace) is not None)
    out, seen = [], set()
    for design in designs[:1]:
        name, samples = _tiled_block(design.trace)
        ax = axes(one[kernel], name) if name else None
        if not ax or len(samples) != len(ax):
            return None, []
        for t in tilings(ax, count * 2, threads_along_rows_first):
            for lanes in FETCH_LANES:
                sch = s_tir.Schedule(one)
                try:
                    _with_decisions(design.trace, samples, t["decisions"], lanes).apply_to_schedule(sch, remove_postproc=False)
                    if not all(p.apply(sch) for p in ctx.space_generator.postprocs):
                        continue
                    lines = list(prefix) + [str(line) for line in sch.trace.as_python()]
                    space._replay(original, kernel, lines)
                except Exception:
                    continue
                if "\n".join(lines) in seen:
                    break
                seen.add("\n".join(lines))
                out.append(dict(t, lines=lines, lanes=lanes))
                break
        return name, out
    return None, []


def moves(func, kernel, target, count=4, split=SPLIT_K_TILINGS):
    """Up to `count` traces tiling `kernel`'s contraction by design, and up
    to `split` more that split its reduction across blocks where no tiling
    of the output alone fills the GPU: [{name, rationale, trace (lines)}];
    [] if it has none this can tile."""
    one = tvm.IRModule({kernel: func})
    name, plain = _designed(one, kernel, target, count, one)
    grouped = _group_split(one, kernel, name) if name else None
    if grouped is not None:
        # Tiled within each group first; two of the pixel tilings after,
        # so the device measures one against the other.
        g_mod, prefix = grouped
        # Each thread's strip along the columns first: here, unlike the
        # plain NCHW convolutions, it beat threads along the rows on the
        # H200 (conv2d_grouped 4.41x against 3.90x over dlight).
        _, within = _designed(g_mod, kernel, target, count, one, prefix, threads_along_rows_first=False)
        for t in within:
            t["label"] += ", channels split into group and channel-in-group"
        if within:
            plain = within[:max(1, count - 2)] + plain[:2]
    out = []
    for t in plain[:count]:  # in the order tilings ranked them
        why = f"tile `{name}` by design: {t['label']}, inputs staged in shared memory, {t['lanes']}-wide cooperative loads"
        out.append({"name": f"tile-{len(out) + 1}", "rationale": why, "trace": t["lines"]})
    if not plain or split <= 0 or max(t["fill"] for t in plain) >= SPLIT_BELOW_FILL:
        return out
    # Split-K: the output alone gives too few blocks (or threads) for the
    # GPU, and the reduction is long. Each of `ways` blocks sums a slice of
    # it into a partial output; a second kernel adds the partials.
    split_k = []
    for ways in SPLIT_WAYS:
        made = _split_k(one, kernel, name, ways)
        if made is None:
            continue
        rf_mod, prefix = made
        rf_name, tiled = _designed(rf_mod, kernel, target, split, one, prefix)
        for t in tiled:
            t["ways"], t["rf"] = ways, rf_name
        split_k += tiled
    # Ranked as the plain ones, less a little for the partial sums'
    # round trip through global memory (a write and a read per way).
    # Interleaved first: on the H200 every split-K tiling measured faster
    # interleaved than plain (skinny matmul, 8 ways, 64x128: 2.38x plain,
    # 3.69x interleaved), so a shape is offered once, interleaved where it
    # can be; at most two shapes per way of splitting, so the device sees
    # more than one split.
    split_k.sort(key=lambda t: (-t["score"] / (1 + 0.1 * math.log2(t["ways"])), "interleaved" not in t["label"]))
    shapes, per_ways, chosen = set(), {}, []
    for t in sorted(split_k, key=lambda t: "interleaved" not in t["label"]):
        shape = (t["ways"], t["label"].replace(", interleaved", ""))
        if shape in shapes:
            continue
        shapes.add(shape)
        chosen.append(t)
    chosen.sort(key=lambda t: -t["score"] / (1 + 0.1 * math.log2(t["ways"])))
    picked = []
    for t in chosen:
        if per_ways.get(t["ways"], 0) < 2 and len(picked) < split:
            per_ways[t["ways"]] = per_ways.get(t["ways"], 0) + 1
            picked.append(t)
    for t in picked:
        why = (f"split-K by design: the reduction of `{name}` split {t['ways']} ways across blocks ({t['label']}, "
               f"{t['lanes']}-wide cooperative loads), the partial sums added by a second kernel: "
               f"the output alone gives too few blocks to fill the GPU")
        out.append({"name": f"splitk-{len(out) + 1}", "rationale": why, "trace": t["lines"]})
    return out
