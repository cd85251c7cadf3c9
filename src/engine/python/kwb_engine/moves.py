"""Built-in agents' moves. Each move is a real edit at one layer, chosen by
rules from the IR's structure: L1 moves are schedule traces (Python lines over
`sch`) picked from a kernel's blocks and loop extents; L0 moves are Relax
graph passes; L2 moves are codegen attributes on one kernel's LLVM IR. Every
move is tried here before it is offered, so none fails to apply."""


import tvm
from tvm import relax, s_tir

from . import concat_split, l0_rewrites, llvm_l2, machine, microkernel, module_text, norm_rewrite, pipeline, ragged, rows, scan_rewrite, text_policy, trailing, transpose_tile, window
from .l0_rewrites import same_module
from .microkernel import REDUCE, SPATIAL


def _blocks(sch):
    out = []

    def walk(parent):
        for b in sch.get_child_blocks(parent):
            node = sch.get(b)
            out.append({
                "name": node.name_hint,
                "iters": [(int(iv.iter_type), int(iv.dom.extent)) for iv in node.iter_vars],
                "loops": [int(sch.get(l).extent) for l in sch.get_loops(b)],
            })
            walk(b)

    walk(sch.get_sblock("root"))
    return out


def _divisor(n, prefs):
    return next((v for v in prefs if n % v == 0 and n >= v), None)


def _row_lanes(b, vec):
    """The lanes an elementwise move uses when asked for `vec`. They must
    divide the innermost loop: a vector that crosses a row (16 lanes over
    rows of 56) leaves the fused index's div/mod in vector form, and every
    load and store goes lane by lane. Measured on relu (64x56x56): 16 lanes
    12x slower than TVM's default build, 8 on par."""
    return _divisor(b["loops"][-1], [vec, 32, 16, 8, 4]) if b["loops"] else None


def _elementwise(b, vec, par):
    n = 1
    for e in b["loops"]:
        n *= e
    v = _row_lanes(b, vec)
    if v is None:
        return None
    lines = [f'b = sch.get_sblock("{b["name"]}")', "f = sch.fuse(*sch.get_loops(b))", f"o, i = sch.split(f, [None, {v}])"]
    if par and n >= v * 64:
        lines.append("sch.parallel(o)")
    lines += ["sch.vectorize(i)"]
    return lines


def _vectorize_spatial_blocks(blocks, vec):
    """Vectorizes the innermost loop of every all-spatial block."""
    lines = []
    for b in blocks:
        if any(t != SPATIAL for t, _ in b["iters"]) or not b["loops"]:
            continue
        v = _divisor(b["loops"][-1], [vec, 16, 8, 4])
        if v is None:
            continue
        n = len(lines)
        lines += [f'b{n} = sch.get_sblock("{b["name"]}")', f"o{n}, i{n} = sch.split(sch.get_loops(b{n})[-1], [None, {v}])", f"sch.vectorize(i{n})"]
    return lines


def _contraction(b, vec, tile, par, decompose, cache):
    """Register tiling for a block with spatial and reduction loops: the
    output's last (contiguous) axis is vectorized, the one before it unrolled
    into a small tile, and the reduction loops run between them and the outer
    spatial loops, so a tile of outputs stays in registers across the sum."""
    iters = b["iters"]
    if len(b["loops"]) != len(iters):
        return None
    sp = [i for i, (t, _) in enumerate(iters) if t == SPATIAL]
    rd = [i for i, (t, _) in enumerate(iters) if t == REDUCE]
    if not sp or not rd or sp != list(range(len(sp))):
        return None
    last = sp[-1]
    v = _divisor(iters[last][1], [vec, 16, 8, 4])
    if v is None:
        return None
    lines = [f'b = sch.get_sblock("{b["name"]}")', "L = sch.get_loops(b)"]
    outer = [f"L[{i}]" for i in sp[:-1]]
    inner = []
    pen = sp[-2] if len(sp) >= 2 else None
    t = _divisor(iters[pen][1], [tile, 4, 2]) if pen is not None else None
    if t:
        lines.append(f"po, pi = sch.split(L[{pen}], [None, {t}])")
        outer[-1] = "po"
        inner.append("pi")
    lines.append(f"lo, li = sch.split(L[{last}], [None, {v}])")
    outer.append("lo")
    inner.append("li")
    reds = [f"L[{i}]" for i in rd]
    lines.append(f"sch.reorder({', '.join(outer + reds + inner)})")
    lines.append("sch.vectorize(li)")
    if t:
        lines.append("sch.unroll(pi)")
    if cache:
        lines += ['cw = sch.cache_write(b, 0, "global")', "sch.reverse_compute_at(cw, lo)"]
    if decompose:
        lines.append(f"sch.decompose_reduction(b, {reds[0]})")
    if par:
        lines.append(f"sch.parallel({outer[0]})")
    return lines


def _try(mod, kernel, lines):
    try:
        sch = s_tir.Schedule(mod)
        sch.work_on(kernel)
        text_policy.run_trace(sch, lines)
        return True
    except Exception:
        return False


def l1_moves(args):
    """{l1_module, kernel, kernel_ms?} -> [{name, rationale, trace}] in the order rules rank them."""
    kernel = args["kernel"]
    mod = module_text.parse_kernel(args["l1_module"], kernel)
    sch = s_tir.Schedule(mod)
    sch.work_on(kernel)
    blocks = _blocks(sch)
    if any(not b["iters"] for b in blocks):
        # A block without iterators is opaque (the interleaved scan's body):
        # TVM cannot tell what its loops carry, and vectorizing them gave
        # wrong sums on cumsum (caught by the check). No loop move touches one.
        return {"kernel": kernel, "blocks": blocks, "moves": [], "tvm_s": 0.0}
    big = float(args.get("kernel_ms") or 0.0) >= float(args.get("parallel_min_ms", 1.0))
    moves = []

    def add(name, rationale, lines, prefix=()):
        if lines is None:
            return
        lines = list(prefix) + lines
        if _try(mod, kernel, lines) and all(m["trace"] != lines for m in moves):
            moves.append({"name": name, "rationale": rationale, "trace": lines})

    main = max((b for b in blocks if any(t == REDUCE for t, _ in b["iters"])), key=lambda b: _work(b), default=None)
    spatial = [b for b in blocks if all(t == SPATIAL for t, _ in b["iters"])]
    inline = []
    for b in spatial:
        if b["name"].startswith("pad") and _try(mod, kernel, inline + [f'sch.compute_inline(sch.get_sblock("{b["name"]}"))']):
            inline.append(f'sch.compute_inline(sch.get_sblock("{b["name"]}"))')
    target = pipeline.make_target(args["target"]) if args.get("target") else None
    row_moves = []
    consumers = {b["name"]: len(sch.get_consumers(sch.get_sblock(b["name"]))) for b in blocks}
    producers = {b["name"]: len(sch.get_producers(sch.get_sblock(b["name"]))) for b in blocks}
    if target is not None and target.kind.name == "llvm":
        row_moves = rows.moves(blocks, consumers, microkernel.isa(target)[0], big, _reduces_along_last_axes(sch, blocks))
    # A contraction's outputs share their operands, which register tiles
    # reuse: its row moves come after the tiles. Otherwise they come first.
    contraction = _is_contraction(sch, blocks)
    if contraction and main is not None and sum(1 for t, n in main["iters"] if t == SPATIAL and n > 1) > 1:
        # Only a contraction with one output row (a batch-1 linear: each
        # weight read once) gains from vector partial sums along a row;
        # with more rows the register tiles reuse every operand load. Of
        # the 53 row candidates on matmuls and convolutions in the l1 and
        # l2 results, the one on a best path was a batch-1 linear;
        # bmm_bias_relu's six measured 0.1x of its tiles.
        row_moves = []
    # A pooling's window: before the register tiles, which treat it as a
    # contraction's reduction and lose (0.3x TVM's build on avg_pool).
    for name, why, lines in ([] if contraction else window.moves(blocks)):
        add(name, why, lines)
    if target is not None and target.kind.name == "llvm":
        # A depthwise convolution's window in vectors of outputs, first: on
        # one Emerald Rapids core 1.95x TVM's build, where the tiles and the
        # pooling moves lose. After the pooling moves for a pooling: its
        # stride-2 window gathers every other input (0.5x to 0.7x).
        for name, why, lines in window.vector_moves(blocks, microkernel.isa(target)[0]):
            add(name, why, lines)
    for name, why, lines in ([] if contraction else row_moves):
        add(name, why, lines)
    if main is not None and target is not None and target.kind.name == "llvm":
        # Across cores only where TVM's runtime has more than one thread:
        # on one, the parallel launch is pure overhead.
        for par in ([True, False] if big and machine.tvm_threads() > 1 else [False]):
            pack = _output_major_operand(sch, main)
            tiled = microkernel.moves(main, blocks, target, par, consumers, producers, lambda lines: _try(mod, kernel, lines), pack)
            for name, why, lines in tiled:
                add(name, why, lines)
            if not tiled and not pack and not par:
                # No strip divides the columns (196 pixels of a 1 x 1
                # convolution as a matmul): the micro-kernel on the part one does.
                for name, why, lines in ragged.moves(main, target):
                    add(name, why, lines)
    if main is not None and len([i for i in main["iters"] if i[0] == SPATIAL]) >= 1 and len(main["iters"]) >= 3:
        for vec, tile, dec, cache in [(16, 4, True, False), (16, 8, True, False), (8, 4, True, False), (32, 2, True, False), (16, 4, False, False), (16, 4, True, True)]:
            for par in ([True, False] if big else [False, True]):
                desc = f"register-tile `{main['name']}`: vectorize its output's last axis by {vec}, unroll a {tile}-row tile, reduction loops in between"
                desc += "; init split from the update" if dec else ""
                desc += "; accumulate in a cache tile" if cache else ""
                desc += "; outer loop across cores" if par else ""
                add(f"tile{vec}x{tile}{'-par' if par else ''}{'-dec' if dec else ''}{'-cache' if cache else ''}", desc, _contraction(main, vec, tile, par, dec, cache))
                if inline:
                    add(f"inline-pad-tile{vec}x{tile}{'-par' if par else ''}", desc + "; padding computed inline", _contraction(main, vec, tile, par, dec, cache), inline)
    for name, why, lines in (row_moves if contraction else []):
        add(name, why, lines)
    if main is None:
        # A layout copy: tiles first, the row moves below would gather.
        for name, why, lines in transpose_tile.moves(mod, kernel, blocks):
            add(name, why, lines)
    if len(blocks) == 1 and main is None:
        for name, why, lines in concat_split.moves(sch, blocks):
            add(name, why, lines)
        for vec in [16, 64, 8]:
            # Named by the lanes it uses, which the row may make fewer than asked.
            lanes = _row_lanes(blocks[0], vec)
            for par in ([True, False] if big else [False, True]):
                add(f"vec{lanes}{'-par' if par else ''}", f"fuse `{blocks[0]['name']}`'s loops into one, vectorize by {lanes}" + (", split the rest across cores" if par else ""), _elementwise(blocks[0], vec, par))
        if _row_lanes(blocks[0], 16) is None and target is not None:
            for name, why, lines, prefix in trailing.moves(mod, kernel, [], blocks[0], microkernel.isa(target)[0], [True, False] if big else [False, True]):
                add(name, why, lines, prefix)
    if len(blocks) > 1 and len(spatial) == len(blocks):
        # An elementwise chain (hardswish: add, two clips, multiply, divide)
        # is one loop nest once every block but the last is inlined into
        # it: one read and one write per element, and no intermediate
        # buffers. Measured on hardswish: 0.0076 ms against the tuned
        # build's 0.0143 and vec-inner16's 0.0222.
        chain = [f'sch.compute_inline(sch.get_sblock("{b["name"]}"))' for b in blocks[:-1]]
        for vec in [16, 64]:
            lanes = _row_lanes(blocks[-1], vec)
            for par in ([True, False] if big and machine.tvm_threads() > 1 else [False]):
                add(f"inline-vec{lanes}{'-par' if par else ''}", f"inline every block into `{blocks[-1]['name']}`, fuse its loops into one and vectorize by {lanes}"
                    + (", split the rest across cores" if par else ""), _elementwise(blocks[-1], vec, par), chain)
        if _row_lanes(blocks[-1], 16) is None and target is not None:
            # No vector divides the innermost loop (14 pixels of a row).
            pars = [True, False] if big and machine.tvm_threads() > 1 else [False]
            for name, why, lines, prefix in trailing.moves(mod, kernel, chain, blocks[-1], microkernel.isa(target)[0], pars):
                add(name, why, lines, prefix)
    if len(blocks) > 1:
        for vec in [16, 8]:
            add(f"vec-inner{vec}", f"vectorize the innermost loop of every elementwise block by {vec}", _vectorize_spatial_blocks(blocks, vec) or None)
        fused = _row_fusion(blocks)
        if fused:
            add("row-fuse", "compute every block under the last block's outer loop, so each row stays in cache between passes", fused)
            add("row-fuse-par", "row-fuse, and run the rows across cores", fused + ["sch.parallel(sch.get_loops(sch.get_sblock(\"%s\"))[0])" % blocks[-1]["name"]])
    return {"kernel": kernel, "blocks": blocks, "moves": moves, "tvm_s": 0.0}


def _reduces_along_last_axes(sch, blocks):
    """Whether every reduction block's innermost iterator indexes the last
    axis of each buffer it reduces over: its row is contiguous in memory.
    Reads of per-row values (a mean, a max) do not count."""
    for b in blocks:
        if not any(t == REDUCE for t, _ in b["iters"]):
            continue
        node = sch.get(sch.get_sblock(b["name"]))
        reduce_vars = {iv.var.name for iv in node.iter_vars if int(iv.iter_type) == REDUCE}
        last = node.iter_vars[-1].var
        for region in node.reads:
            # A read region's buffer is `source` in TVM 0.27.
            buffer = getattr(region, "buffer", None) or region.source
            dims = [str(r.min) for r in region.region]
            if buffer.name == b["name"] or not any(v in d for d in dims for v in reduce_vars):
                continue
            if not region.region[-1].min.same_as(last):
                return False
    return True


def _output_major_operand(sch, main):
    """(read index, rank) of the contraction's operand whose vectorized
    output axis is not its contiguous one: read as [..., n, k] with n the
    block's last spatial axis and k its one reduction (a linear's weight
    once its transpose is folded in, attention's keys). A vector along n
    there loads values k apart. None for any other contraction."""
    block = sch.get(sch.get_sblock(main["name"]))
    spatial = [iv.var for iv in block.iter_vars if int(iv.iter_type) == SPATIAL]
    reduce = [iv.var for iv in block.iter_vars if int(iv.iter_type) == REDUCE]
    if not spatial or len(reduce) != 1:
        return None
    for i, r in enumerate(block.reads):
        region = r.region
        if len(region) < 2 or not all(isinstance(rg.extent, tvm.tirx.IntImm) and int(rg.extent) == 1 for rg in region[-2:]):
            continue
        if region[-1].min.same_as(reduce[0]) and region[-2].min.same_as(spatial[-1]):
            return (i, len(region))
    return None


def _is_contraction(sch, blocks):
    """Whether a reduction block sums products of two operands of two or
    more dimensions, both indexed by the reduction (a matmul, a
    convolution), rather than reducing one tensor along its rows (a norm,
    a softmax, a gemv's matrix times a vector)."""
    for b in blocks:
        if not any(t == REDUCE for t, _ in b["iters"]):
            continue
        block = sch.get(sch.get_sblock(b["name"]))
        reduce_vars = {iv.var.name for iv in block.iter_vars if int(iv.iter_type) == REDUCE}
        written = {w.source.name for w in block.writes}
        operands = {r.source.name for r in block.reads if len(r.region) >= 2 and r.source.name not in written
                    and any(v.name in reduce_vars for rg in r.region for v in tvm.tirx.analysis.undefined_vars(rg.min, []))}
        if len(operands) >= 2:
            return True
    return False


def _work(b):
    n = 1
    for _, e in b["iters"]:
        n *= e
    return n


def _row_fusion(blocks):
    first = blocks[-1]["loops"][:1]
    if not first or any(b["loops"][:1] != first for b in blocks):
        return None
    lines = [f'R = sch.get_loops(sch.get_sblock("{blocks[-1]["name"]}"))[0]']
    for b in reversed(blocks[:-1]):
        lines.append(f'sch.compute_at(sch.get_sblock("{b["name"]}"), R)')
    return lines


def _then(first, second):
    """`first`, then `second` on its result; the module as it was when
    `first` changes nothing, so a move named for `first` is offered only
    where it applies (not as `second` under another name)."""

    def run(mod):
        changed = first(mod)
        return mod if same_module(changed, mod) else second(changed)

    return run


def _epilogue_first(layout_pass):
    """`layout_pass` after any inference batch norm is written as a scale
    and a shift and any clip as a max and a min, so that both fuse into the
    convolution's epilogue in the new layout. One L0 edit per path: a layout
    move that left them as they were could not be followed by one that
    folds them in."""
    return tvm.transform.Sequential([l0_rewrites.batch_norm_as_scale_shift, l0_rewrites.clip_as_max_min, layout_pass])


def _with_conv2d(layout_pass):
    """A layout pass for graphs with a conv2d: elsewhere ConvertLayout only
    rewrites attributes (softmax's axis=-1 as axis=1), a move that changes
    nothing but would cost a trial."""

    def run(mod):
        return layout_pass(mod) if "R.nn.conv2d(" in pipeline.script(mod) else mod

    return run


round_trips = pipeline.round_trips


# What the graph moves that carry the batch-norm rewrite add to their rationale.
_NORM = "; any inference batch norm as a per-channel scale and shift, one multiply-add per element that fuses into the convolution's epilogue"
_CLIP = "; any clip as a max and a min, which the layout conversion carries through (it puts transposes around a clip)"

L0_PASSES = [
    ("fast-math", "compute exp, softmax, erf and tanh with TVM's vectorizable polynomial approximations (topi fast_exp and its kin) "
     "instead of a libm call per element, after writing log_softmax, sigmoid and the GELUs in terms of them; "
     "the result is checked against the reference's tolerance like any other",
     lambda: l0_rewrites.fast_math),
    ("one-kernel-norm", "compute a normalization written as staged sums (mean, sum of squared deviations, reciprocal square root) as TVM's layer_norm operator, "
     "with the weight and bias that follow as its scale and shift: one kernel per row block instead of one per sum stage and one for the scaling",
     lambda: norm_rewrite.recompose_norms),
    ("top1-as-max", "compute a top-1 (torch.max over an axis) as a max reduction and an argmax, one vectorized pass, instead of TVM's sort-based topk; "
     "the index is dropped where nothing reads it", lambda: l0_rewrites.top1_as_reduction),
    ("interleaved-scan", "compute a cumulative sum over the last axis with a kernel that scans a group of rows side by side, each row's running sum in a register: "
     "independent additions the core overlaps, instead of TVM's one sequential loop per row that no schedule reaches; the same additions in the same order",
     lambda: scan_rewrite.interleaved_scan),
    ("fold-constants", "fold constant subexpressions at compile time", lambda: relax.transform.FoldConstant()),
    ("pointwise-matmul", "compute a 1x1 NCHW convolution as a matmul over reshaped views of its input and weights (no layout change): "
     "the register tile takes rows of output channels and vectors of pixels" + _NORM, lambda: _then(l0_rewrites.pointwise_conv_as_matmul, l0_rewrites.batch_norm_as_scale_shift)),
    ("subpixel-deconv-nhwc", "compute a strided conv2d_transpose as one convolution over every output phase (stride^2 times the channels, "
     "kernels stride times smaller, no products with the zeros of a dilated input), interleaved and cropped; that convolution in NHWC/HWIO for the register tile" + _NORM + _CLIP,
     lambda: _then(l0_rewrites.subpixel_deconv, _epilogue_first(relax.transform.ConvertLayout({"relax.nn.conv2d": ["NHWC", "HWIO"]})))),
    ("subpixel-deconv", "compute a strided conv2d_transpose as one convolution over every output phase (stride^2 times the channels, "
     "kernels stride times smaller, no products with the zeros of a dilated input), interleaved and cropped" + _NORM,
     lambda: _then(l0_rewrites.subpixel_deconv, l0_rewrites.batch_norm_as_scale_shift)),
    ("nhwc-hwio", "convert conv2d to NHWC activations and HWIO weights, so the output channels are innermost in both the output and the weights: "
     "a register tile vectorizes over them with contiguous weight loads" + _NORM + _CLIP,
     lambda: _with_conv2d(_epilogue_first(relax.transform.ConvertLayout({"relax.nn.conv2d": ["NHWC", "HWIO"]})))),
    ("nhwc", "convert conv2d to NHWC activations and OHWI weights, so the channel axis is innermost and vectorizable" + _NORM + _CLIP,
     lambda: _with_conv2d(_epilogue_first(relax.transform.ConvertLayout({"relax.nn.conv2d": ["NHWC", "OHWI"]})))),
    ("bn-scale-shift", "compute an inference batch norm as one multiply-add per element with a per-channel scale and shift "
     "(gamma / sqrt(var + eps), beta - mean * scale), instead of a subtraction, a division, a multiplication and an addition per element",
     lambda: l0_rewrites.batch_norm_as_scale_shift),
    ("combine-matmuls", "combine parallel matmuls that share their left operand into one larger matmul", lambda: relax.transform.CombineParallelMatmul()),
    ("fuse-transpose-matmul", "fold a transpose into the matmul that consumes it", lambda: relax.transform.FuseTransposeMatmul()),
    ("simplify", "canonicalize bindings and drop dead code (redundant reshapes and transposes)", lambda: tvm.transform.Sequential([relax.transform.CanonicalizeBindings(), relax.transform.DeadCodeElimination()])),
]


def l0_moves(args):
    """{l0} -> graph rewrites that change the module, each as new L0 text."""
    mod = pipeline.parse_module(args["l0"])
    moves = []
    for name, rationale, make in L0_PASSES:
        try:
            new = make()(mod)
        except Exception:
            continue
        if same_module(new, mod):
            continue
        try:
            # A layout TVM's operator library cannot lower (a grouped
            # convolution in some layouts) is not offered.
            pipeline.lower(new, pipeline.make_target({"kind": "llvm"}))
        except Exception:
            continue
        text = pipeline.script(new)
        if not round_trips(text):
            continue
        moves.append({"name": name, "rationale": rationale, "text": text})
    return {"moves": moves, "tvm_s": 0.0}


def l2_moves(args):
    """{text} (one kernel's LLVM IR) -> L2 moves that change the code itself
    (llvm_l2.py). None that only set `target-cpu`/`target-features`: the
    baseline and every candidate are built for the host CPU's own ISA."""
    return llvm_l2.moves(args)
