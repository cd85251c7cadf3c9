"""Tensor constants of a converted module become arguments of `main`.

A module that keeps tensor constants (InstanceNorm's unit scale and zero
shift, a tensor a model holds as a plain attribute) cannot be printed as
TVMScript without a metadata section, which kwb's text layers do not carry.
Each such constant becomes a parameter of `main` whose init spec reproduces
it exactly on every seed (gen.py): `fill` where all elements are equal,
`values` (the raw little-endian bytes, deflated and base64-encoded)
otherwise. Scalars print as `R.const(v, dtype)` and stay where they are.
"""

import base64
import zlib

import numpy as np

ROLE = "const"


def init_for(value):
    """The init spec that regenerates `value` exactly."""
    flat = value.reshape(-1)
    if flat.size and np.all(flat == flat[0]) and not (value.dtype.kind == "f" and np.isnan(flat[0])):
        return {"kind": "fill", "value": flat[0].item()}
    data = np.ascontiguousarray(value).astype(value.dtype.newbyteorder("<"), copy=False).tobytes()
    return {"kind": "values", "encoding": "zlib+base64", "data": base64.b64encode(zlib.compress(data, 9)).decode("ascii")}


def decode(init, shape, dtype):
    """The array a `values` init spec holds."""
    if init.get("encoding") != "zlib+base64":
        raise ValueError(f"unknown encoding {init.get('encoding')!r} of a `values` init")
    raw = zlib.decompress(base64.b64decode(init["data"]))
    return np.frombuffer(raw, dtype=np.dtype(dtype).newbyteorder("<")).astype(dtype).reshape(shape)


def lift(mod):
    """`mod` with every non-scalar constant of `main` made a trailing
    parameter; returns (mod, [(name, numpy value)]) in parameter order."""
    from tvm import relax
    from tvm.relax.expr_functor import PyExprMutator, mutator

    lifted = []

    @mutator
    class Lift(PyExprMutator):
        def __init__(self, m):
            super().__init__(m)
            self.seen = []  # (constant, its parameter): one parameter per constant object

        def visit_generic_const_(self, op):
            # TVM 0.27 calls Relax's tensor constants GenericConst, payload in `value`.
            data = getattr(op, "value", None)
            if not hasattr(data, "numpy") or len(data.shape) == 0:
                return op
            for const, var in self.seen:
                if const.same_as(op):
                    return var
            var = relax.Var(f"const_{len(self.seen)}", op.ty)
            self.seen.append((op, var))
            lifted.append((var, data.numpy()))
            return var

    main = mod["main"]
    body = Lift(mod).visit_expr(main.body)
    if not lifted:
        return mod, []
    params = list(main.params) + [v for v, _ in lifted]
    func = relax.Function(params, body, main.ret_ty if hasattr(main, "ret_ty") else None, main.is_pure, main.attrs, main.span)
    mod = mod.copy() if hasattr(mod, "copy") else mod
    mod["main"] = func
    return mod, [(v.name, value) for v, value in lifted]
