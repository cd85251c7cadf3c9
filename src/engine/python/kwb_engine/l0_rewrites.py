"""Graph rewrites of kwb's own for the L0 agent, beside TVM's passes.

Fast math. TVM's `FastMathTransform` replaces `exp`, `erf`, `tanh` and
`softmax` with polynomial forms that vectorize; every other transcendental
operator keeps a libm call per element (LLVM scalarizes `llvm.exp` with no
vector math library). `fast_math` first writes `log_softmax`, `sigmoid`
and both GELUs in terms of those four, then runs TVM's pass: a
log_softmax's `exp` becomes a polynomial and its `log` runs once per row
instead of once per element.

A pointwise (1x1) convolution in NCHW is a matrix product: out[n, o, p] =
sum_c W[o, c] * x[n, c, p] over the pixels p = h * W + w, which are
contiguous in both the input and the output. Written as a matmul over
reshaped views it needs no layout change at all (a reshape of a contiguous
tensor is free in Relax's VM), and the matmul gets the register
micro-kernel: rows of output channels, vectors of pixels. Converting to
NHWC instead costs a transpose on each side, which on conv2d_1x1 (64 -> 64
channels, 28 x 28) was a fifth of the time.

Sub-pixel transposed convolution. TVM lowers a strided conv2d_transpose to
a convolution over the input dilated with zeros: at stride 2, three
products in four are with a zero. Each output phase (row and column modulo
the stride) reads only its own taps of the kernel, so the whole operator is
one ordinary convolution with stride^2 times the output channels and
kernels stride times smaller, whose outputs interleave (a pixel shuffle),
cropped by the padding.

Top-1 as a reduction. torch.max(x, dim) imports as `topk` with k = 1,
which TVM lowers to a sort (an extern on the CPU; on a GPU a sort per row,
18 ms for 4096 rows of 16384 on an H200). The largest element and its
index are a max and an argmax reduction: one pass, vectorized, and the
index dropped where nothing reads it.

Batch norm as a scale and a shift. In inference a batch norm is
(x - mean) / sqrt(var + eps) * gamma + beta with every statistic per
channel. TVM decomposes it as written: four passes over the whole tensor,
one of them a division per element (batch_norm at 28 x 28 x 64: 0.025 ms
against PyTorch's 0.019). Per channel, scale = gamma / sqrt(var + eps) and
shift = beta - mean * scale are a few dozen values; the tensor then takes
one multiply-add per element, which fuses into a convolution's epilogue.
PyTorch's own CPU kernel computes it this way.

Clip as a max and a min. TVM's layout conversion has no rule for `clip`:
converting a convolution to NHWC puts a transpose on each side of every
clip after it, which cuts a hardswish or a ReLU6 off the convolution's
kernel (conv_bias_hardswish: a second kernel with three transposes).
`maximum` and `minimum` with a scalar are broadcasts, which it converts;
the result is the same to the bit.
"""

import tvm
from tvm import relax
from tvm.relax.dpl import is_op, rewrite_call, wildcard


def _static(shape):
    """A shape's extents as ints, or None where one is symbolic."""
    try:
        return [int(d) for d in shape]
    except (TypeError, ValueError):
        return None


def _ints(values):
    return [int(v) for v in values]


def _pointwise_as_matmul(call, x, w):
    """The matmul form of a 1x1 NCHW convolution `call`, or the call as is."""
    a = call.attrs
    # TVM 0.27 names an expression's struct info `ty`.
    xi, wi = getattr(x, "ty", None), getattr(w, "ty", None)
    xs = _static(xi.shape) if getattr(xi, "shape", None) is not None else None
    ws = _static(wi.shape) if getattr(wi, "shape", None) is not None else None
    if xs is None or ws is None or len(xs) != 4 or len(ws) != 4:
        return call
    if (a.data_layout, a.kernel_layout, a.out_layout) != ("NCHW", "OIHW", "NCHW") or int(a.groups) != 1:
        return call
    if ws[2:] != [1, 1] or _ints(a.strides) != [1, 1] or _ints(a.padding) != [0, 0, 0, 0] or _ints(a.dilation) != [1, 1]:
        return call
    n, c, h, wd = xs
    o = ws[0]
    out_dtype = a.out_dtype or xi.dtype
    weights = relax.op.reshape(w, (o, c))
    # One image: a plain 2-D product; a batch: the weights broadcast over it.
    pixels = relax.op.reshape(x, (c, h * wd) if n == 1 else (n, c, h * wd))
    product = relax.op.matmul(weights, pixels, out_dtype=out_dtype)
    return relax.op.reshape(product, (n, o, h, wd))


def same_module(a, b):
    """Whether two modules (or functions) are the same IR: structurally where
    TVM offers it, else by their printed text."""
    return tvm.ir.structural_equal(a, b) if hasattr(tvm.ir, "structural_equal") else a.script() == b.script()


def _rewrite_calls(mod, pattern, rewrite):
    """`mod` with every match of `pattern` in its Relax functions rewritten;
    `mod` itself where nothing changed, so that a caller's clean-up passes
    run only after a rewrite (and a move is offered only where it applies)."""
    updates = {gv: rewrite_call(pattern, rewrite, func) for gv, func in mod.functions.items() if isinstance(func, relax.Function)}
    updates = {gv: f for gv, f in updates.items() if not same_module(f, mod[gv])}
    if not updates:
        return mod
    out = tvm.IRModule(dict(mod.functions), attrs=mod.attrs)
    for gv, func in updates.items():
        out[gv] = func
    return out


def _log_softmax(call, x):
    """x - max - log(sum(exp(x - max))), with max and the sum per row."""
    axis = [int(call.attrs.axis)]
    shifted = relax.op.subtract(x, relax.op.max(x, axis=axis, keepdims=True))
    total = relax.op.sum(relax.op.exp(shifted), axis=axis, keepdims=True)
    return relax.op.subtract(shifted, relax.op.log(total))


def _sigmoid(_call, x):
    """0.5 tanh(x / 2) + 0.5: tanh's fast form is a clamped rational
    polynomial, so large |x| saturates where 1 / (1 + exp(-x)) would
    overflow."""
    d = x.ty.dtype
    half = relax.const(0.5, d)
    return relax.op.add(relax.op.multiply(relax.op.tanh(relax.op.multiply(x, half)), half), half)


def _gelu(_call, x):
    """x (1 + erf(x / sqrt 2)) / 2, as TVM's own legalization writes it."""
    d = x.ty.dtype
    erf = relax.op.erf(relax.op.multiply(x, relax.const(0.5 ** 0.5, d)))
    return relax.op.multiply(relax.op.multiply(x, relax.const(0.5, d)), relax.op.add(relax.const(1.0, d), erf))


def _gelu_tanh(_call, x):
    """x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))) / 2."""
    d = x.ty.dtype
    cube = relax.op.multiply(relax.op.multiply(x, x), x)
    inner = relax.op.multiply(relax.const((2.0 / 3.141592653589793) ** 0.5, d), relax.op.add(x, relax.op.multiply(relax.const(0.044715, d), cube)))
    return relax.op.multiply(relax.op.multiply(x, relax.const(0.5, d)), relax.op.add(relax.const(1.0, d), relax.op.tanh(inner)))


# Operators written in terms of exp, erf and tanh before TVM's fast-math pass.
_DECOMPOSED = {"relax.nn.log_softmax": _log_softmax, "relax.sigmoid": _sigmoid, "relax.nn.gelu": _gelu, "relax.nn.gelu_tanh": _gelu_tanh}


def _float_tensor(x):
    ty = getattr(x, "ty", None)
    return isinstance(ty, relax.TensorType) and str(ty.dtype).startswith("float")


@tvm.transform.module_pass(opt_level=0, name="kwb.FastMath")
def fast_math(mod, _ctx):
    """log_softmax, sigmoid and the GELUs decomposed, then TVM's FastMathTransform."""
    for op, decompose in _DECOMPOSED.items():
        x = wildcard()

        def rewrite(call, matches, decompose=decompose, x=x):
            return decompose(call, matches[x]) if _float_tensor(matches[x]) else call

        mod = _rewrite_calls(mod, is_op(op)(x), rewrite)
    return relax.transform.FastMathTransform()(mod)


def _subpixel_deconv(call, x, w):
    """The sub-pixel form of a strided NCHW conv2d_transpose `call`, or the
    call as is. out[o, s*q + r - p] = sum_j x[q - j] w[r + s*j] per phase r:
    a correlation with the phase's taps flipped, over x padded by kr - 1."""
    a = call.attrs
    xi, wi, oi = getattr(x, "ty", None), getattr(w, "ty", None), getattr(call, "ty", None)
    shapes = [_static(t.shape) if getattr(t, "shape", None) is not None else None for t in (xi, wi, oi)]
    if any(sh is None or len(sh) != 4 for sh in shapes):
        return call
    (n, ci, h, wd), (_, co, kh, kw), (_, _, ho, wo) = shapes
    if (a.data_layout, a.kernel_layout, a.out_layout) != ("NCHW", "IOHW", "NCHW") or int(a.groups) != 1 or _ints(a.dilation) != [1, 1]:
        return call
    sh, sw = _ints(a.strides)
    if sh < 2 and sw < 2:
        return call
    pt, pl = _ints(a.padding)[:2]
    rh, rw = -(-kh // sh), -(-kw // sw)  # taps per phase
    # Rows of phase outputs needed (q = (oy + p) // s), and the input's
    # bottom padding that yields them.
    qh, qw = (pt + ho - 1) // sh + 1, (pl + wo - 1) // sw + 1
    bh, bw = max(0, qh - h), max(0, qw - wd)
    # Kernel taps padded to a multiple of the stride: [ci, co, rh, sh, rw, sw]
    # with ky = j * s + r; the phase's taps flipped along j.
    taps = w if (rh * sh, rw * sw) == (kh, kw) else relax.op.nn.pad(w, [0, 0, 0, 0, 0, rh * sh - kh, 0, rw * sw - kw])
    taps = relax.op.reshape(taps, (ci, co, rh, sh, rw, sw))
    taps = relax.op.flip(relax.op.flip(taps, 2), 4)
    # -> OIHW with the phase in the output channel: [co, sh, sw, ci, rh, rw].
    weights = relax.op.reshape(relax.op.permute_dims(taps, [1, 3, 5, 0, 2, 4]), (co * sh * sw, ci, rh, rw))
    phases = relax.op.nn.conv2d(x, weights, padding=[rh - 1, rw - 1, bh, bw], out_dtype=a.out_dtype or xi.dtype)
    gh, gw = h + bh, wd + bw
    shuffled = relax.op.reshape(relax.op.permute_dims(relax.op.reshape(phases, (n, co, sh, sw, gh, gw)), [0, 1, 4, 2, 5, 3]), (n, co, gh * sh, gw * sw))
    return relax.op.strided_slice(shuffled, axes=[2, 3], begin=[pt, pl], end=[pt + ho, pl + wo])


@tvm.transform.module_pass(opt_level=0, name="kwb.SubpixelDeconv")
def subpixel_deconv(mod, _ctx):
    """Every strided, ungrouped NCHW conv2d_transpose becomes one conv2d over
    all output phases, interleaved and cropped."""
    x, w = wildcard(), wildcard()

    def rewrite(call, matches):
        return _subpixel_deconv(call, matches[x], matches[w])

    return _rewrite_calls(mod, is_op("relax.nn.conv2d_transpose")(x, w), rewrite)


@tvm.transform.module_pass(opt_level=0, name="kwb.PointwiseConvAsMatmul")
def pointwise_conv_as_matmul(mod, _ctx):
    """Every 1x1, stride-1, unpadded, ungrouped NCHW conv2d becomes a matmul
    over reshaped views of its input and weights."""
    x, w = wildcard(), wildcard()
    pattern = is_op("relax.nn.conv2d")(x, w)

    def rewrite(call, matches):
        return _pointwise_as_matmul(call, matches[x], matches[w])

    return _rewrite_calls(mod, pattern, rewrite)


def _top1(call, x):
    """topk(x, k=1) as (max, argmax) (min, argmin for the smallest),
    keeping the reduced axis; `call` as is for any other k."""
    a = call.attrs
    if int(a.k) != 1 or not _float_tensor(x):
        return call
    shape = _static(x.ty.shape) if getattr(x.ty, "shape", None) is not None else None
    if shape is None:
        return call
    axis = int(a.axis) % len(shape)
    kept = shape[:axis] + [1] + shape[axis + 1:]
    largest = bool(a.largest)
    # Reduced without keeping the axis, then reshaped (a view): dlight's GPU
    # reduction rule does not take a reduction that writes x_red[i, 0], and
    # schedules it one thread per row (8.5 ms against 0.06 on an H200).
    values = relax.op.reshape((relax.op.max if largest else relax.op.min)(x, axis=[axis]), kept)
    index = relax.op.reshape((relax.op.argmax if largest else relax.op.argmin)(x, axis=axis), kept)
    if str(a.dtype) != "int64":
        index = relax.op.astype(index, str(a.dtype))
    kind = str(a.ret_type)
    if kind == "values":
        return values
    if kind == "indices":
        return index
    return relax.Tuple([values, index])


@tvm.transform.module_pass(opt_level=0, name="kwb.Top1AsReduction")
def top1_as_reduction(mod, _ctx):
    """Every topk with k = 1 as a max (or min) and an arg-reduction, the
    parts nothing reads dropped."""
    x = wildcard()

    def rewrite(call, matches):
        return _top1(call, matches[x])

    new = _rewrite_calls(mod, is_op("relax.topk")(x), rewrite)
    return new if new.same_as(mod) else relax.transform.DeadCodeElimination()(new)


def _scale_shift(call, x, gamma, beta, mean, var):
    """An inference batch_norm `call` as x * scale + shift with per-channel
    scale and shift, in the operator's (output, mean, var) tuple; `call` as
    is in training mode or where a shape is not static."""
    a = call.attrs
    if bool(a.training) or not _float_tensor(x):
        return call
    shape = _static(x.ty.shape) if getattr(x.ty, "shape", None) is not None else None
    if shape is None:
        return call
    axis = int(a.axis) % len(shape)
    dtype = str(x.ty.dtype)
    per_channel = [1] * len(shape)
    per_channel[axis] = shape[axis]
    scale = relax.op.rsqrt(relax.op.add(var, relax.const(float(a.epsilon), dtype)))
    if bool(a.scale):
        scale = relax.op.multiply(gamma, scale)
    shift = relax.op.negative(relax.op.multiply(mean, scale))
    if bool(a.center):
        shift = relax.op.add(beta, shift)
    y = relax.op.add(relax.op.multiply(x, relax.op.reshape(scale, per_channel)), relax.op.reshape(shift, per_channel))
    return relax.Tuple([y, mean, var])


@tvm.transform.module_pass(opt_level=0, name="kwb.BatchNormAsScaleShift")
def batch_norm_as_scale_shift(mod, _ctx):
    """Every inference batch_norm as a per-channel scale and shift."""
    x, g, b, m, v = wildcard(), wildcard(), wildcard(), wildcard(), wildcard()

    def rewrite(call, matches):
        return _scale_shift(call, matches[x], matches[g], matches[b], matches[m], matches[v])

    new = _rewrite_calls(mod, is_op("relax.nn.batch_norm")(x, g, b, m, v), rewrite)
    if new.same_as(mod):
        return mod
    return tvm.transform.Sequential([relax.transform.CanonicalizeBindings(), relax.transform.DeadCodeElimination()])(new)


def _bound(value):
    """A clip bound as a float, None where it is infinite (no bound)."""
    v = float(value.value)
    return None if v in (float("inf"), float("-inf")) else v


def _clip(call, x):
    """clip(x, lo, hi) as minimum(maximum(x, lo), hi), each side only where
    its bound is finite; `call` as is for a non-float or a symbolic bound."""
    if not _float_tensor(x):
        return call
    try:
        lo, hi = _bound(call.args[1]), _bound(call.args[2])
    except (AttributeError, TypeError, ValueError):
        return call
    dtype = str(x.ty.dtype)
    y = x
    if lo is not None:
        y = relax.op.maximum(y, relax.const(lo, dtype))
    if hi is not None:
        y = relax.op.minimum(y, relax.const(hi, dtype))
    return y


@tvm.transform.module_pass(opt_level=0, name="kwb.ClipAsMaxMin")
def clip_as_max_min(mod, _ctx):
    """Every float clip as a maximum and a minimum with scalars."""
    x = wildcard()

    def rewrite(call, matches):
        return _clip(call, matches[x])

    return _rewrite_calls(mod, is_op("relax.clip")(x, wildcard(), wildcard()), rewrite)
