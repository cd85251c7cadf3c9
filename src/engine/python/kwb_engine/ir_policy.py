"""The static IR policy a parsed, lowered candidate must pass before any build.

Read off the module's serialised graph (this TVM build has no TIR visitor in
Python; `tvm.ir.save_json` lists every node with its fields in declaration
order, which is program order for statements):

- `writes-input`: a kernel called through `call_tir` stores only into its
  output buffers and buffers it allocates itself, never into its inputs
  (parameters, weights, constants passed in);
- `foreign-buffer`: no store through a buffer that is neither (a view of
  another buffer's memory);
- `read-before-write`: no kernel reads an output or its own allocation
  before it has written to it, so nothing left in a buffer by an earlier
  call can be used;
- `extern-call`: `call_extern`/`call_packed`/LLVM intrinsics only from an
  allow-list of math functions and the TVM builtins TVM's own lowering
  emits; `relax-call`: Relax-level packed calls likewise;
- `inplace`: no `call_tir_inplace` (it writes into its inputs).
"""

import json

from . import errors
from .errors import JobError

# Math functions TVM's lowering and a hand-written kernel may call by name.
MATH_EXTERNS = {
    f + s
    for f in ("exp", "exp2", "exp10", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt", "pow", "fabs", "floor",
              "ceil", "trunc", "round", "nearbyint", "rint", "fmod", "fmin", "fmax", "fma", "tanh", "tan", "sin", "cos",
              "sinh", "cosh", "asin", "acos", "atan", "atan2", "asinh", "acosh", "atanh", "erf", "erfc", "hypot",
              "copysign", "ldexp", "lgamma", "tgamma")
    for s in ("", "f")
}
# Packed functions TVM's own legalization emits (topk, sort, argsort).
PACKED_ALLOWED = {"tvm.contrib.sort.topk", "tvm.contrib.sort.sort", "tvm.contrib.sort.argsort"}
# Relax-level packed calls: the VM's own builtins only.
RELAX_PACKED_PREFIXES = ("vm.builtin.",)
# LLVM intrinsics that compute, prefetch or hint, and never write memory.
LLVM_INTRINSIC_PREFIXES = (
    "llvm.fma", "llvm.fmuladd", "llvm.sqrt", "llvm.exp", "llvm.log", "llvm.pow", "llvm.sin", "llvm.cos", "llvm.fabs",
    "llvm.floor", "llvm.ceil", "llvm.trunc", "llvm.round", "llvm.nearbyint", "llvm.rint", "llvm.minnum", "llvm.maxnum",
    "llvm.minimum", "llvm.maximum", "llvm.copysign", "llvm.prefetch", "llvm.ctpop", "llvm.ctlz", "llvm.cttz",
    "llvm.abs", "llvm.smax", "llvm.smin", "llvm.umax", "llvm.umin", "llvm.assume", "llvm.expect",
)
_EXTERN_OPS = {"tirx.call_extern", "tirx.call_pure_extern"}
_PACKED_OPS = {"tirx.tvm_call_packed", "tirx.tvm_call_cpacked", "tirx.call_packed", "tirx.call_cpacked",
               "tirx.tvm_call_packed_lowered", "tirx.tvm_call_cpacked_lowered", "tirx.tvm_call_trace_packed"}
_LLVM_OPS = {"tirx.call_llvm_intrin", "tirx.call_llvm_pure_intrin"}
# Ops that reach into the runtime's own structures: never in a candidate.
_FORBIDDEN_OPS = {"tirx.tvm_struct_set", "tirx.tvm_throw_last_error", "tirx.tvm_thread_context", "tirx.call_spirv_pure_glsl450"}
_RELAX_PACKED_OPS = {"relax.call_packed", "relax.call_pure_packed", "relax.call_dps_packed", "relax.call_builtin_with_ctx"}
_ALLOC_STMTS = {"tirx.AllocBuffer", "tirx.Allocate", "tirx.AllocateConst", "s_tir.AllocBuffer"}


def refuse(rule, message):
    raise JobError(errors.SYNTAX_API, f"policy `{rule}`: {message}", "policy")


class _Graph:
    def __init__(self, mod):
        import tvm

        j = json.loads(tvm.ir.save_json(mod))
        self.nodes = j["nodes"]
        self.root = j["root_index"]

    def type(self, i):
        return self.nodes[i]["type"]

    def data(self, i):
        return self.nodes[i].get("data")

    def field(self, i, name):
        d = self.data(i)
        return d.get(name) if isinstance(d, dict) else None

    def items(self, i):
        """Children of an array node, or [] for None."""
        if i is None or self.type(i) == "None":
            return []
        d = self.data(i)
        return d if isinstance(d, list) else []

    def string(self, i):
        d = self.data(i)
        if isinstance(d, str):
            return d
        if isinstance(d, dict) and "value" in d:
            v = d["value"]
            return self.string(v) if isinstance(v, int) else v
        return None

    def name(self, var):
        n = self.field(var, "name") or self.field(var, "name_hint")
        return self.string(n) if isinstance(n, int) else str(n)

    def functions(self):
        """[(name, node)] of the module's functions."""
        out = []
        m = self.items(self.field(self.root, "functions")) or self.data(self.field(self.root, "functions")) or []
        for k, v in zip(m[0::2], m[1::2]):
            out.append((self.name(k), v))
        return out


def check(mod):
    """Raises JobError(syntax_api, 'policy `<rule>`: ...') when `mod` (an
    IRModule, lowered: Relax calling PrimFuncs through call_tir) breaks a rule."""
    g = _Graph(mod)
    funcs = g.functions()
    inputs_of = {}
    for name, f in funcs:
        if g.type(f) == "relax.expr.Function":
            _check_relax(g, f, name, inputs_of)
    for name, f in funcs:
        if g.type(f) == "tirx.PrimFunc":
            _check_kernel(g, f, name, inputs_of.get(name))


def _op_name(g, call):
    op = g.field(call, "op")
    if op is None or g.type(op) != "ir.Op":
        return None
    return g.data(op)


# Fields that hold types, source spans or plain numbers, not code.
_SKIP_FIELDS = {"span", "ty", "ret_type", "ret_ty", "kind", "iter_type", "data_alignment", "offset_factor", "ndim", "step", "is_pure", "purity"}


def _children(d):
    if isinstance(d, list):
        return [k for k in d if isinstance(k, int)]
    if isinstance(d, dict):
        return [v for k, v in d.items() if k not in _SKIP_FIELDS and isinstance(v, int) and not isinstance(v, bool)]
    return []


def _walk(g, start):
    """Every node reachable from `start`, each once, in field order."""
    seen, stack, out = set(), [start], []
    while stack:
        i = stack.pop()
        if not isinstance(i, int) or i in seen:
            continue
        seen.add(i)
        out.append(i)
        stack.extend(reversed(_children(g.data(i))))
    return out


def _check_relax(g, f, fname, inputs_of):
    for i in _walk(g, f):
        t = g.type(i)
        if t == "relax.expr.ExternFunc":
            sym = g.string(g.field(i, "global_symbol"))
            if not (sym or "").startswith(RELAX_PACKED_PREFIXES):
                refuse("relax-call", f"`{fname}` calls the packed function `{sym}`, which is not a VM builtin")
        if t != "ir.Call":
            continue
        op = _op_name(g, i)
        if op == "relax.call_tir_inplace":
            refuse("inplace", f"`{fname}` uses call_tir_inplace, which writes into its inputs")
        if op in ("relax.call_tir", "relax.call_tir_with_grad"):
            args = g.items(g.field(i, "args"))
            kernel = g.name(args[0]) if args else None
            n_in = len(g.items(g.field(args[1], "fields"))) if len(args) > 1 else 0
            if kernel is not None:
                prev = inputs_of.get(kernel)
                inputs_of[kernel] = n_in if prev is None else min(prev, n_in)


def _kernel_events(g, body, allocated):
    """('load'|'store', var node, ...) in program order; registers buffers a
    block or statement allocates."""
    events = []
    seen = set()

    def visit(i):
        if not isinstance(i, int) or i in seen:
            return
        t = g.type(i)
        if t in ("ir.Var", "tirx.Var"):
            return  # a reference, not an access
        seen.add(i)
        d = g.data(i)
        if t == "tirx.BufferStore":
            for k in ("value", "indices"):
                visit(d.get(k))
            events.append(("store", d["buffer"]))
            return
        if t == "ir.TensorLoad":
            visit(d.get("indices"))
            events.append(("load", d["source"]))
            return
        if t == "s_tir.SBlock":
            for b in g.items(d.get("alloc_buffers")):
                allocated.add(b)
            for m in g.items(d.get("match_buffers")):
                events.append(("alias", m))
            for k in ("init", "body"):
                visit(d.get(k))
            return
        if t in _ALLOC_STMTS:
            for k in ("buffer", "buffer_var"):
                if isinstance(d.get(k), int):
                    allocated.add(d[k])
        if t == "ir.Call":
            events.append(("call", i))
        for k in _children(d):
            visit(k)

    visit(body)
    return events


def _check_kernel(g, f, name, n_in):
    params = g.items(g.field(f, "params"))
    if n_in is None:
        # Not called from Relax: nothing it writes reaches an output.
        n_in = len(params)
    inputs = set(params[:n_in])
    outputs = set(params[n_in:])
    allocated = set()
    events = _kernel_events(g, g.field(f, "body"), allocated)
    written = set()
    for kind, x in events:
        if kind == "call":
            _check_tir_call(g, x, name)
        elif kind == "alias":
            refuse("foreign-buffer", f"kernel `{name}` uses match_buffer; write through its own parameters instead")
        elif kind == "store":
            if x in inputs:
                refuse("writes-input", f"kernel `{name}` stores into its input `{g.name(x)}`; a kernel may write only its outputs and its own allocations")
            if x not in outputs and x not in allocated:
                refuse("foreign-buffer", f"kernel `{name}` stores through `{g.name(x)}`, a buffer it neither received as an output nor allocated")
            written.add(x)
        elif kind == "load":
            if (x in outputs or x in allocated) and x not in written:
                what = "output" if x in outputs else "allocation"
                refuse("read-before-write", f"kernel `{name}` reads its {what} `{g.name(x)}` before writing it (a value left by an earlier call)")


def _check_tir_call(g, call, kernel):
    op = _op_name(g, call)
    if op is None:
        return
    args = g.items(g.field(call, "args"))
    first = g.string(args[0]) if args else None
    if op in _FORBIDDEN_OPS:
        refuse("extern-call", f"kernel `{kernel}` uses `{op}`")
    if op in _EXTERN_OPS:
        if first not in MATH_EXTERNS:
            refuse("extern-call", f"kernel `{kernel}` calls the external function `{first}`; allowed: math functions ({', '.join(sorted(MATH_EXTERNS)[:6])}, ...)")
    elif op in _PACKED_OPS:
        if first not in PACKED_ALLOWED:
            refuse("extern-call", f"kernel `{kernel}` calls the packed function `{first}`; allowed: {', '.join(sorted(PACKED_ALLOWED))}")
    elif op in _LLVM_OPS:
        iname = _llvm_intrinsic_name(g, args[0]) if args else None
        if not (iname or "").startswith(LLVM_INTRINSIC_PREFIXES):
            refuse("extern-call", f"kernel `{kernel}` calls the LLVM intrinsic `{iname}`, which is not on the allow-list of math and prefetch intrinsics")


def _llvm_intrinsic_name(g, node):
    s = g.string(node)
    if isinstance(s, str):
        return s
    v = g.field(node, "value")
    try:
        from tvm.target import codegen

        return str(codegen.llvm_get_intrinsic_name(int(g.data(v) if isinstance(v, int) else v)))
    except Exception:
        return None
