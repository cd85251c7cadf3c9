"""Converters kwb gives TVM's Relax frontend (from_exported_program's
custom_convert_map), for aten ops it lacks or lowers inaccurately.

The frontend runs torch's decompositions first, so the names here are the
decomposed ones: nn.SELU arrives as elu.default with a scale, LayerNorm and
GroupNorm as native_layer_norm / native_group_norm, InstanceNorm as
_native_batch_norm_legit.no_stats on a [1, N*C, ...] view.

Each converter emits ordinary Relax ops (sum, subtract, multiply, rsqrt,
reshape, ...) with scalar constants only, so the module prints as TVMScript
without metadata and TVM's pipeline and MetaSchedule build and tune it as
they would any graph. A converter is function(node, translator) -> Relax
expression, the value the frontend binds to the node.
"""

import math

# The longest run of float32 additions one reduction stage makes. A sequential
# float32 sum drifts with the run's length: TVM's own norms sum each group
# (up to millions of elements) in one run and miss float64 PyTorch by up to
# 1e-3 x rms on 1M-element groups; stages of at most 256 keep it near 1e-6,
# as PyTorch's own float32.
_STAGE = 256


def _reduce_converter(op_name):
    """aten.amax / aten.amin, which TVM 0.27's frontend lacks."""

    def convert(node, translator):
        from tvm import relax

        x = translator.env[node.args[0]]
        dim = node.args[1] if len(node.args) > 1 else node.kwargs.get("dim", None)
        keepdim = node.args[2] if len(node.args) > 2 else node.kwargs.get("keepdim", False)
        if isinstance(dim, int):
            dim = [dim]
        if dim is not None and len(dim) == 0:
            dim = None
        op = relax.op.max if op_name == "max" else relax.op.min
        return translator.block_builder.emit(op(x, axis=dim, keepdims=bool(keepdim)))

    return convert


def _arg(node, i, name, default):
    return node.args[i] if len(node.args) > i else node.kwargs.get(name, default)


def _dtype(x):
    return str(x.ty.dtype)


def _shape(x):
    return [int(d) for d in x.ty.shape]


def _elu(node, translator):
    """aten.elu(x, alpha, scale, input_scale), which nn.SELU decomposes to.
    TVM's converter drops scale and input_scale, so its SELU is off by 5%.
    As PyTorch: scale*x for x > 0, scale*alpha*(exp(input_scale*x) - 1) else."""
    from tvm import relax

    op = relax.op
    bb = translator.block_builder
    x = translator.env[node.args[0]]
    dtype = _dtype(x)
    alpha = float(_arg(node, 1, "alpha", 1.0))
    scale = float(_arg(node, 2, "scale", 1.0))
    input_scale = float(_arg(node, 3, "input_scale", 1.0))
    c = lambda v: relax.const(v, dtype)  # noqa: E731
    arg = x if input_scale == 1.0 else op.multiply(x, c(input_scale))
    # min(exp - 1, 0) is exp - 1 for x <= 0 and 0 above (also where exp overflows).
    neg = op.minimum(op.subtract(op.exp(arg), c(1.0)), c(0.0))
    pos = op.maximum(x, c(0.0))
    if scale != 1.0:
        pos = op.multiply(pos, c(scale))
    return bb.emit(op.add(pos, op.multiply(neg, c(alpha * scale))))


def _stages(n):
    """(m, stages): the least m >= n whose factors can all be at most
    _STAGE, and those factors, innermost first. m > n only where n has a
    prime factor above _STAGE; the sum then pads with zeros up to m."""
    m = n
    while True:
        stages, rest = [], m
        while rest > _STAGE:
            d = max(d for d in range(1, _STAGE + 1) if rest % d == 0)
            if d == 1:
                break
            stages.append(d)
            rest //= d
        if rest <= _STAGE:
            return m, stages + [rest]
        m += 1


def _staged_sum(bb, x, k):
    """Sums x over its last k axes one axis at a time, keeping them as 1s."""
    from tvm import relax

    for i in range(k):
        x = bb.emit(relax.op.sum(x, axis=[-1 - i], keepdims=True))
    return x


def _unview(bb, x):
    """What x reshapes, if x is bound to a reshape (as InstanceNorm's view
    is): the same elements in the same order. TVM turns a lone reshape into a
    view but two fused ones into a copy, so reshape the source once."""
    import tvm
    from tvm import relax

    while isinstance(x, relax.Var):
        bound = bb.lookup_binding(x)
        if not (isinstance(bound, relax.Call) and bound.op.same_as(tvm.ir.Op.get("relax.reshape"))):
            break
        x = bound.args[0]
    return x


def _normalize(bb, x, outer, n, eps, dtype):
    """(x - mean) * rstd over rows of n elements, x (of dtype) read in
    row-major order as outer + [n].

    Each sum runs over a view of the row as [..., s2, s1] with every stage at
    most _STAGE long (_stages). The variance is two-pass, the mean of squared
    deviations, not E[x^2] - E[x]^2, which cancels when the mean is large
    against the spread. Every elementwise step works on that view, not on the
    row, so TVM fuses it into the first stage's sum: a reshape between them
    would cut the fusion and write a full-size tensor. Returns (y, mean,
    rstd): y emitted, shaped outer + [n]; mean and rstd with the row's
    elements on trailing axes of 1.
    """
    from tvm import relax

    op = relax.op
    c = lambda v: relax.const(float(v), dtype)  # noqa: E731
    m, stages = _stages(n)
    x = _unview(bb, x)  # see there: one reshape, a view, not two, a copy
    if m > n:
        x = op.nn.pad(op.reshape(x, outer + [n]), [0, 0] * len(outer) + [0, m - n])
    xs = bb.emit(op.reshape(x, outer + stages[::-1]))
    mean = bb.emit(op.divide(_staged_sum(bb, xs, len(stages)), c(n)))
    # x - mean is written twice, not bound once: one binding feeding both the
    # variance and the output would be a tensor of its own, not fused.
    dev = op.subtract(xs, mean)
    ssq = _staged_sum(bb, bb.emit(op.multiply(dev, dev)), len(stages))
    if m > n:  # each padding zero added (0 - mean)^2
        ssq = op.subtract(ssq, op.multiply(op.multiply(mean, mean), c(m - n)))
    rstd = bb.emit(op.rsqrt(op.add(op.divide(ssq, c(n)), c(eps))))
    y = op.reshape(op.multiply(op.subtract(xs, mean), rstd), outer + [m])
    if m > n:
        y = op.strided_slice(y, axes=[len(outer)], begin=[0], end=[n])
    return bb.emit(y), mean, rstd


def _upcast(x):
    """(x in the dtype a norm computes in, that dtype): 16-bit floats are
    normalised in float32, as PyTorch does."""
    from tvm import relax

    dtype = _dtype(x)
    if dtype in ("float16", "bfloat16"):
        return relax.op.astype(x, "float32"), "float32"
    return x, dtype


def _emit_as(bb, y, dtype, cdtype):
    """Binds y (computed in cdtype) cast back to the input's dtype."""
    from tvm import relax

    return bb.emit(relax.op.astype(y, dtype) if cdtype != dtype else y)


def _norm_outputs(bb, y, x, affine, cdtype, stats, stat_shape):
    """(out, mean, rstd) as aten's norms return them: y with the affine
    (weight, bias, their broadcast shape) applied, in x's dtype, and the
    statistics reshaped to stat_shape. The statistics are not emitted: only
    the getitems that use them bind them."""
    from tvm import relax

    weight, bias, param_shape = affine
    out = _emit_as(bb, _affine(y, weight, bias, param_shape, cdtype), _dtype(x), cdtype)
    return relax.Tuple([out] + [relax.op.reshape(s, stat_shape) for s in stats])


def _native_layer_norm(node, translator):
    """aten.native_layer_norm(x, normalized_shape, weight, bias, eps) ->
    (out, mean, rstd), mean and rstd shaped x.shape[:axis] + [1] * k."""
    from tvm import relax

    op = relax.op
    bb = translator.block_builder
    env = translator.env
    x = env[node.args[0]]
    shape = _shape(x)
    k = len(node.args[1])
    weight = env.get(_arg(node, 2, "weight", None))
    bias = env.get(_arg(node, 3, "bias", None))
    eps = _arg(node, 4, "eps", 1e-5)
    xf, cdtype = _upcast(x)
    lead = shape[: len(shape) - k]
    y, mean, rstd = _normalize(bb, xf, lead, math.prod(shape[len(lead):]), eps, cdtype)
    return _norm_outputs(bb, op.reshape(y, shape), x, (weight, bias, None), cdtype, (mean, rstd), lead + [1] * k)


def _native_group_norm(node, translator):
    """aten.native_group_norm(x, weight, bias, N, C, HxW, group, eps) ->
    (out, mean, rstd), mean and rstd shaped [N, group]."""
    from tvm import relax

    op = relax.op
    bb = translator.block_builder
    env = translator.env
    x = env[node.args[0]]
    shape = _shape(x)
    weight = env.get(_arg(node, 1, "weight", None))
    bias = env.get(_arg(node, 2, "bias", None))
    groups = int(_arg(node, 6, "group", 1))
    eps = _arg(node, 7, "eps", 1e-5)
    xf, cdtype = _upcast(x)
    y, mean, rstd = _normalize(bb, xf, [shape[0], groups], math.prod(shape[1:]) // groups, eps, cdtype)
    # Per-channel weight and bias broadcast over the spatial axes.
    affine = (weight, bias, [shape[1]] + [1] * (len(shape) - 2))
    return _norm_outputs(bb, op.reshape(y, shape), x, affine, cdtype, (mean, rstd), [shape[0], groups])


def _batch_norm_no_stats(node, translator):
    """aten._native_batch_norm_legit.no_stats(x, weight, bias, training,
    momentum, eps) -> (out, mean, invstd), statistics of the batch per channel
    (axis 1), shaped [C]. InstanceNorm decomposes to it on a [1, N*C, ...]
    view; eval-mode BatchNorm without running statistics on x itself."""
    from tvm import relax

    op = relax.op
    bb = translator.block_builder
    env = translator.env
    x = env[node.args[0]]
    shape = _shape(x)
    weight = env.get(_arg(node, 1, "weight", None))
    bias = env.get(_arg(node, 2, "bias", None))
    eps = _arg(node, 5, "eps", 1e-5)
    xf, cdtype = _upcast(x)
    b, c = shape[0], shape[1]
    # Channels first, so each channel's elements are one contiguous row; a
    # batch of one (the instance-norm view) needs no transpose.
    perm = [1, 0] + list(range(2, len(shape)))
    rows = xf if b == 1 else op.permute_dims(xf, perm)
    y, mean, rstd = _normalize(bb, rows, [c], math.prod(shape) // c, eps, cdtype)
    y = _affine(y, weight, bias, [c, 1], cdtype)
    if b == 1:
        y = op.reshape(y, shape)
    else:
        y = op.permute_dims(op.reshape(y, [shape[i] for i in perm]), perm)
    out = _emit_as(bb, y, _dtype(x), cdtype)
    return relax.Tuple([out, op.reshape(mean, [c]), op.reshape(rstd, [c])])


def _affine(y, weight, bias, param_shape, cdtype):
    """y * weight + bias, each skipped when absent (no all-ones constant), the
    parameters reshaped to param_shape to broadcast (None: as they are)."""
    from tvm import relax

    op = relax.op
    for p, f in ((weight, op.multiply), (bias, op.add)):
        if p is None:
            continue
        if _dtype(p) != cdtype:
            p = op.astype(p, cdtype)
        y = f(y, p if param_shape is None else op.reshape(p, param_shape))
    return y


# Reductions over fewer elements than this stay one TVM reduction, as the
# frontend emits them; above it, a single float32 run loses digits (summing
# 64M squares of unit size, the running sum passes 2^24 and stops growing:
# a Frobenius norm came out 40% off).
_STAGED_ABOVE = 1 << 16


def _reduced_axes(x, dim):
    rank = len(_shape(x))
    if dim is None or (isinstance(dim, (list, tuple)) and len(dim) == 0):
        return list(range(rank))
    dims = [dim] if isinstance(dim, int) else list(dim)
    return sorted(d % rank for d in dims)


def _staged_reduce(bb, x, axes, keepdim):
    """Sum of x over `axes` in stages of at most _STAGE elements (as the
    norms above): the reduced axes are moved last and viewed as stages."""
    from tvm import relax

    op = relax.op
    shape = _shape(x)
    kept = [a for a in range(len(shape)) if a not in axes]
    n = math.prod(shape[a] for a in axes)
    outer = [shape[a] for a in kept]
    moved = x if kept + axes == list(range(len(shape))) else op.permute_dims(x, kept + axes)
    m, stages = _stages(n)
    flat = op.reshape(moved, outer + [n])
    if m > n:
        flat = op.nn.pad(flat, [0, 0] * len(outer) + [0, m - n])
    total = _staged_sum(bb, bb.emit(op.reshape(flat, outer + stages[::-1])), len(stages))
    keep_shape = [1 if a in axes else shape[a] for a in range(len(shape))] if keepdim else outer
    return op.reshape(total, keep_shape), n


def _sum_or_mean(mean):
    """aten.sum / aten.mean (.default, .dim_IntList, .dim): staged above
    _STAGED_ABOVE elements, TVM's own single reduction below."""

    def convert(node, translator):
        from tvm import relax

        op = relax.op
        bb = translator.block_builder
        x = translator.env[node.args[0]]
        dim = _arg(node, 1, "dim", None)
        keepdim = bool(_arg(node, 2, "keepdim", False))
        dtype = node.kwargs.get("dtype", None)
        axes = _reduced_axes(x, dim)
        n = math.prod(_shape(x)[a] for a in axes)
        if not mean and dtype is None and (_dtype(x) == "bool" or _dtype(x) in ("int8", "int16", "int32", "uint8")):
            # PyTorch sums booleans and small integers as int64 (a count of
            # True); TVM keeps the dtype, so a count of a bool mask came out 1.
            return bb.emit(op.sum(op.astype(x, "int64"), axis=axes, keepdims=keepdim))
        if dtype is not None or _dtype(x) not in ("float32", "float16", "bfloat16") or n <= _STAGED_ABOVE:
            f = op.mean if mean else op.sum
            y = f(x, axis=axes, keepdims=keepdim)
            if dtype is not None:
                y = op.astype(y, translator._convert_data_type(dtype) if hasattr(translator, "_convert_data_type") else str(dtype).replace("torch.", ""))
            return bb.emit(y)
        xf, cdtype = _upcast(x)
        total, n = _staged_reduce(bb, xf, axes, keepdim)
        if mean:
            total = op.divide(total, relax.const(float(n), cdtype))
        return _emit_as(bb, total, _dtype(x), cdtype)

    return convert


def _vector_norm(node, translator):
    """aten.linalg_vector_norm(x, ord, dim, keepdim): ord 2 and 1 with staged
    sums above _STAGED_ABOVE elements; inf, -inf and 0 as TVM would."""
    from tvm import relax

    op = relax.op
    bb = translator.block_builder
    x = translator.env[node.args[0]]
    order = float(_arg(node, 1, "ord", 2))
    dim = _arg(node, 2, "dim", None)
    keepdim = bool(_arg(node, 3, "keepdim", False))
    axes = _reduced_axes(x, dim)
    xf, cdtype = _upcast(x)
    if order == float("inf"):
        return _emit_as(bb, op.max(op.abs(xf), axis=axes, keepdims=keepdim), _dtype(x), cdtype)
    if order == float("-inf"):
        return _emit_as(bb, op.min(op.abs(xf), axis=axes, keepdims=keepdim), _dtype(x), cdtype)
    if order == 0:
        nz = op.astype(op.not_equal(xf, relax.const(0.0, cdtype)), cdtype)
        return _emit_as(bb, op.sum(nz, axis=axes, keepdims=keepdim), _dtype(x), cdtype)
    mag = op.abs(xf)
    powered = mag if order == 1 else (op.multiply(mag, mag) if order == 2 else op.power(mag, relax.const(order, cdtype)))
    n = math.prod(_shape(x)[a] for a in axes)
    if n > _STAGED_ABOVE:
        total, _ = _staged_reduce(bb, bb.emit(powered), axes, keepdim)
    else:
        total = op.sum(powered, axis=axes, keepdims=keepdim)
    if order == 1:
        y = total
    elif order == 2:
        y = op.sqrt(total)
    else:
        y = op.power(total, relax.const(1.0 / order, cdtype))
    return _emit_as(bb, y, _dtype(x), cdtype)


def _min_dim(node, translator):
    """aten.min.dim(x, dim, keepdim) -> (values, indices), which TVM 0.27's
    frontend lacks (it has max.dim, through topk). A plain min reduction and
    argmin (int64, first index of the minimum, as PyTorch's CPU kernel)."""
    from tvm import relax

    op = relax.op
    bb = translator.block_builder
    x = translator.env[node.args[0]]
    dim = int(_arg(node, 1, "dim", 0)) % len(_shape(x))
    keepdim = bool(_arg(node, 2, "keepdim", False))
    values = bb.emit(op.min(x, axis=[dim], keepdims=keepdim))
    # Not emitted: only a getitem that uses the indices binds the argmin, so
    # torch.min(x, dim)[0] costs one reduction.
    return relax.Tuple([values, op.argmin(x, axis=dim, keepdims=keepdim)])


def _triple(v):
    return [int(v)] * 3 if isinstance(v, int) else [int(e) for e in v] * (3 // len(v))


def _convolution(node, translator):
    """aten.convolution(x, w, bias, stride, padding, dilation, transposed,
    output_padding, groups), which every nn.Conv*/ConvTranspose* lowers to.
    TVM 0.27's converter raises on 5-D transposed ones; Relax has
    nn.conv3d_transpose (TOPI legalizes it, dilation included), so that case
    is emitted here and every other defers to TVM's converter."""
    from tvm import relax

    op = relax.op
    bb = translator.block_builder
    env = translator.env
    x = env[node.args[0]]
    if not bool(_arg(node, 6, "transposed", False)) or len(_shape(x)) != 5:
        return translator._convolution(node)
    weight = env[node.args[1]]
    bias = _arg(node, 2, "bias", None)
    bias = env[bias] if bias is not None else None
    stride = _triple(_arg(node, 3, "stride", 1))
    pad = _triple(_arg(node, 4, "padding", 0))
    dilation = _triple(_arg(node, 5, "dilation", 1))
    opad = _triple(_arg(node, 7, "output_padding", 0))
    groups = int(_arg(node, 8, "groups", 1))
    # Output padding extends the back of each axis. TOPI asserts it is below
    # the stride, but PyTorch allows it up to the dilation too; the back
    # padding gives the same outputs (out = full[p_front : end - p_back]), and
    # where output padding exceeds the padding, the rows past the full
    # output are zero (before the bias) and are padded on after.
    extra = [0, 0, 0]
    if any(o >= s for o, s in zip(opad, stride)):
        back = [p - o for p, o in zip(pad, opad)]
        extra = [max(-b, 0) for b in back]
        padding = pad + [max(b, 0) for b in back]
        opad = [0, 0, 0]
    else:
        padding = pad + pad
    y = op.nn.conv3d_transpose(
        x,
        weight,
        strides=stride,
        padding=padding,
        output_padding=opad,
        dilation=dilation,
        groups=groups,
        data_layout="NCDHW",
        kernel_layout="IODHW",
        out_dtype=_dtype(x),
    )
    if any(extra):
        y = op.nn.pad(bb.emit(y), [0, 0, 0, 0] + [v for e in extra for v in (0, e)])
    if bias is not None:
        y = op.add(bb.emit(y), op.reshape(bias, [1, -1, 1, 1, 1]))
    return bb.emit(y)


def _unfold(node, translator):
    """aten.unfold(x, dim, size, step) (Tensor.unfold, a ViT's patches),
    which TVM 0.27's frontend lacks: the windows along `dim` become a new
    axis of n = (D - size) // step + 1 beside a last axis of `size`. Windows
    that tile the axis (step == size) are a reshape; overlapping or spaced
    ones a gather with in-graph indices (no tensor constant)."""
    from tvm import relax

    op = relax.op
    bb = translator.block_builder
    x = translator.env[node.args[0]]
    shape = _shape(x)
    dim = int(node.args[1]) % len(shape)
    size, step = int(node.args[2]), int(node.args[3])
    n = (shape[dim] - size) // step + 1
    if step == size:
        if n * size != shape[dim]:
            x = bb.emit(op.strided_slice(x, axes=[dim], begin=[0], end=[n * size]))
        windows = bb.emit(op.reshape(x, shape[:dim] + [n, size] + shape[dim + 1:]))
    else:
        starts = op.expand_dims(op.arange(0, n * step, step, dtype="int64"), 1)
        index = bb.emit(op.add(starts, op.expand_dims(op.arange(0, size, 1, dtype="int64"), 0)))
        windows = bb.emit(op.take(x, index, axis=dim))
    rank = len(shape) + 1
    axes = [a for a in range(rank) if a != dim + 1] + [dim + 1]
    return bb.emit(op.permute_dims(windows, axes=axes))


def _select(node, translator):
    """aten.select(x, dim, index) (x[:, -1]): TVM 0.27 takes the index as
    given, and a negative one reads out of bounds (garbage: an LSTM's last
    step was 1e32 off) where PyTorch counts from the end."""
    from tvm import relax

    x = translator.env[node.args[0]]
    shape = _shape(x)
    dim = int(node.args[1]) % len(shape)
    index = int(node.args[2])
    if index < 0:
        index += shape[dim]
    return translator.block_builder.emit(relax.op.take(x, relax.const(index, "int64"), dim))


# aten op name (after run_decompositions) -> converter.
CUSTOM_CONVERTERS = {
    "amax.default": _reduce_converter("max"),
    "amin.default": _reduce_converter("min"),
    "elu.default": _elu,
    "native_layer_norm.default": _native_layer_norm,
    "native_group_norm.default": _native_group_norm,
    "_native_batch_norm_legit.no_stats": _batch_norm_no_stats,
    "sum.default": _sum_or_mean(False),
    "sum.dim_IntList": _sum_or_mean(False),
    "mean.default": _sum_or_mean(True),
    "mean.dim": _sum_or_mean(True),
    "linalg_vector_norm.default": _vector_norm,
    "min.dim": _min_dim,
    "convolution.default": _convolution,
    "unfold.default": _unfold,
    "select.int": _select,
}
