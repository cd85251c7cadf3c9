"""A normalization written out as staged sums, computed as one operator.

kwb's importer writes LayerNorm (and GroupNorm, InstanceNorm) as explicit
sums in stages of at most 256 additions, so a float32 sum over a long row
stays near PyTorch's accuracy on a CPU (see converters._normalize): the mean,
the sum of squared deviations, the reciprocal square root, the scaling. TVM
lowers that to one kernel per sum stage plus the scaling, each a round trip
through memory. On a GPU, where each row's sum is a tree over a block's
threads anyway, those are five or six launches for what TVM's own
`layer_norm` operator does in one: dlight schedules it one row per block,
both sums in shared memory, the affine epilogue fused in.

`recompose_norms` finds

    mean = sum(xs over trailing axes A) / n
    rstd = rsqrt(sum((xs - mean) * (xs - mean) over A) / n + eps)
    y    = (xs - mean) * rstd

(each sum over A in one call or in stages, keeping dims; n the extent of A)
and writes y as `layer_norm` over the flattened axes A with unit scale and
zero shift; the weight and bias that follow stay where they are and fuse
into it. Anything else, including the zero-padded form a row of prime
length gets, is left as it was.
"""

import math

import tvm
from tvm import relax
from tvm.relax.dpl import is_op, rewrite_call, wildcard


def _call(expr, bound, name):
    """The call `expr` is (or is bound to) if it calls op `name`, else None."""
    value = bound.get(expr, expr) if isinstance(expr, relax.Var) else expr
    if isinstance(value, relax.Call) and isinstance(value.op, tvm.ir.Op) and value.op.same_as(tvm.ir.Op.get(name)):
        return value
    return None


def _scalar(expr, bound):
    value = bound.get(expr, expr) if isinstance(expr, relax.Var) else expr
    if isinstance(value, tvm.ir.expr.Constant):  # TVM 0.27: no relax.Constant
        data = value.value.numpy()  # TVM 0.27 names the tensor `value`
        if data.size == 1:
            return float(data.reshape(()))
    return None


def _shape(expr):
    ty = getattr(expr, "ty", None)
    if not isinstance(ty, relax.TensorType) or getattr(ty, "shape", None) is None:
        return None
    try:
        return [int(d) for d in ty.shape]
    except (TypeError, ValueError):
        return None


def _summed(expr, bound):
    """(source, axes): `expr` is source summed over `axes` (non-negative,
    sorted), in one call or a chain of them, every one keeping dims."""
    axes = set()
    while True:
        s = _call(expr, bound, "relax.sum")
        if s is None or s.attrs.axis is None or not s.attrs.keepdims:
            break
        shape = _shape(s.args[0])
        if shape is None:
            return None, None
        axes |= {int(a) % len(shape) for a in s.attrs.axis}
        expr = s.args[0]
    return (expr, sorted(axes)) if axes else (None, None)


def _is_deviation(expr, bound, xs, mean):
    d = _call(expr, bound, "relax.subtract")
    return d is not None and d.args[0].same_as(xs) and d.args[1].same_as(mean)


def _unreshaped(expr, bound):
    """What `expr` reshapes, if it is a reshape: the same elements in the
    same order (two reshapes fused are a copy; one is a view)."""
    while (r := _call(expr, bound, "relax.reshape")) is not None:
        expr = r.args[0]
    return expr


def _recomposed(y, bound):
    """`y` = (xs - mean) * rstd as one layer_norm, or None if it is not a
    normalization over trailing axes."""
    if len(y.args) != 2:
        return None
    for dev, rstd in (y.args, y.args[::-1]):
        # Relax expressions refuse `and`/`or`: every step is checked for None.
        r = _call(rstd, bound, "relax.rsqrt")
        a = None if r is None else _call(r.args[0], bound, "relax.add")
        v = None if a is None else _call(a.args[0], bound, "relax.divide")
        eps = None if a is None else _scalar(a.args[1], bound)
        d = _call(dev, bound, "relax.subtract")
        if v is None or eps is None or d is None:
            continue
        xs, mean = d.args
        m = _call(mean, bound, "relax.divide")
        shape = _shape(xs)
        if m is None or shape is None:
            continue
        src, axes = _summed(m.args[0], bound)
        sq_src, sq_axes = _summed(v.args[0], bound)
        sq = None if sq_src is None else _call(sq_src, bound, "relax.multiply")
        if src is None or not src.same_as(xs) or sq is None or sq_axes != axes:
            continue
        if not all(_is_deviation(arg, bound, xs, mean) for arg in sq.args):
            continue
        rank, n = len(shape), math.prod(shape[a] for a in axes)
        if axes != list(range(rank - len(axes), rank)) or _scalar(m.args[1], bound) != n or _scalar(v.args[1], bound) != n:
            continue
        dtype = str(xs.ty.dtype)
        if not dtype.startswith("float"):
            continue
        lead = shape[: rank - len(axes)]
        rows = relax.op.reshape(_unreshaped(xs, bound), lead + [n])
        # Unit scale and zero shift as operators, not constants: an array
        # constant does not survive L0's text. The affine that follows takes
        # their place where it can (_absorb_affine).
        unit, zero = relax.op.ones((n,), dtype), relax.op.zeros((n,), dtype)
        normed = relax.op.nn.layer_norm(rows, unit, zero, axes=[-1], epsilon=eps)
        return relax.op.reshape(normed, shape)
    return None


def _absorbed(call, bound, norm, weight, bias):
    """layer_norm(rows, weight, bias) for `call` = norm * weight (+ bias),
    where norm is a layer_norm with unit scale and zero shift (as
    _recomposed writes it) and weight and bias are vectors over its
    normalized axis; None otherwise."""
    ln = _call(_unreshaped(norm, bound), bound, "relax.nn.layer_norm")
    if ln is None or _call(ln.args[1], bound, "relax.ones") is None or _call(ln.args[2], bound, "relax.zeros") is None:
        return None
    rows_shape, out_shape = _shape(ln.args[0]), _shape(call)
    n = rows_shape[-1] if rows_shape else None
    for vec in (weight, bias):
        if vec is not None and (_shape(vec) != [n] or str(vec.ty.dtype) != str(ln.ty.dtype)):
            return None
    if out_shape is None or math.prod(out_shape) != math.prod(rows_shape) or out_shape[-1] != n:
        return None
    shift = bias if bias is not None else ln.args[2]
    normed = relax.op.nn.layer_norm(ln.args[0], weight, shift, axes=[-1], epsilon=float(ln.attrs.epsilon))
    return relax.op.reshape(normed, out_shape)


def _absorb_affine(func):
    """`func` with norm * weight + bias (and norm * weight) folded into the
    layer_norm's own scale and shift, so its kernel writes the output once."""
    bound = relax.analysis.get_var2val(func)
    norm, weight, bias = wildcard(), wildcard(), wildcard()
    scaled = is_op("relax.multiply")(norm, weight)

    def rewrite(call, m):
        new = _absorbed(call, bound, m[norm], m[weight], m.get(bias))
        return call if new is None else new

    return rewrite_call(is_op("relax.add")(scaled, bias) | scaled, rewrite, func)


@tvm.transform.module_pass(opt_level=0, name="kwb.RecomposeNorms")
def recompose_norms(mod, _ctx):
    """Every staged normalization in `mod`'s Relax functions as one
    layer_norm; the statistics left unused are dropped."""
    out = tvm.IRModule(dict(mod.functions), attrs=mod.attrs)
    changed = False
    for gv, func in mod.functions.items():
        if not isinstance(func, relax.Function):
            continue
        bound = relax.analysis.get_var2val(func)
        a, b = wildcard(), wildcard()

        def rewrite(call, _matches):
            new = _recomposed(call, bound)
            return call if new is None else new

        new = rewrite_call(is_op("relax.multiply")(a, b), rewrite, func)
        if not new.same_as(func):
            out[gv] = _absorb_affine(new)
            changed = True
    if not changed:
        return mod
    return tvm.transform.Sequential([relax.transform.RemoveRedundantReshape(), relax.transform.DeadCodeElimination()])(out)
