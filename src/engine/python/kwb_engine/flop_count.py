"""Floating-point operations a kernel does, each distinct value counted once.

TVM's `estimate_tir_flops` counts the expression tree. A kernel whose
chain was inlined holds one subexpression many times over (fast_erf's
clamped argument, `max(min(x * 0.707, 4), -4)`, appears 24 times in its
polynomial), and the compiler computes it once: the tree counts 98 FLOPs
per element of linear_gelu's GELU kernel where its distinct values are 29,
and the profile put that kernel at 233% of its compute roofline. Here each
store's value counts its distinct float operations (a DAG), times the
iterations of its loops.
"""

import tvm
import tvm_ffi
from tvm import s_tir, tirx

# Operations counted, one each, where their operands are floats; on
# integers they are index arithmetic, not the kernel's work.
_ARITH = (tirx.Add, tirx.Sub, tirx.Mul, tirx.Div, tirx.Mod, tirx.FloorDiv, tirx.FloorMod, tirx.Min, tirx.Max)
_COMPARE = (tirx.EQ, tirx.NE, tirx.LT, tirx.LE, tirx.GT, tirx.GE)


def _is_float(e):
    return str(e.ty).startswith(("float", "bfloat"))


def _children(e):
    if isinstance(e, (_ARITH, _COMPARE, tirx.And, tirx.Or)):
        return [e.a, e.b]
    if isinstance(e, tirx.Select):
        return [e.condition, e.true_value, e.false_value]
    if isinstance(e, tvm.ir.expr.Call):
        return list(e.args)
    if isinstance(e, (tirx.Cast, tirx.Broadcast)):
        return [e.value]
    if isinstance(e, tirx.Not):
        return [e.a]
    if isinstance(e, tirx.Let):
        return [e.value, e.body]
    return []


def _counts(e):
    # Arithmetic and comparisons on floats, one each. Integer work (index
    # arithmetic, masks) and calls (exp, rsqrt, ...; TVM's estimate counts
    # them as nothing too) are left out: a share against the peak errs low.
    if isinstance(e, _ARITH):
        return _is_float(e)
    return isinstance(e, _COMPARE) and _is_float(e.a)


def expr_flops(e, seen=None):
    """Distinct float operations in one expression."""
    seen = set() if seen is None else seen
    total = 0
    stack = [e]
    while stack:
        x = stack.pop()
        if isinstance(x, (tirx.IntImm, tirx.FloatImm, tirx.Var)):
            continue
        key = tvm_ffi.structural_hash(x)
        if key in seen:
            continue
        seen.add(key)
        total += 1 if _counts(x) else 0
        stack.extend(_children(x))
    return total


def _extent(loop):
    return int(loop.extent) if isinstance(loop.extent, tirx.IntImm) else 1


def stmt_flops(s, times=1):
    """Float operations of a statement run `times` times."""
    if isinstance(s, tirx.For):
        return stmt_flops(s.body, times * _extent(s))
    if isinstance(s, tirx.SeqStmt):
        return sum(stmt_flops(x, times) for x in s.seq)
    if isinstance(s, s_tir.SBlockRealize):
        return stmt_flops(s.block, times)
    if isinstance(s, s_tir.SBlock):
        # The init runs once per output, not per reduction step: a constant
        # store, no arithmetic worth counting.
        return stmt_flops(s.body, times)
    if isinstance(s, tirx.BufferStore):
        return times * expr_flops(s.value)
    if isinstance(s, tirx.IfThenElse):
        other = stmt_flops(s.else_case, times) if s.else_case is not None else 0
        return times * expr_flops(s.condition) + stmt_flops(s.then_case, times) + other
    if isinstance(s, tirx.LetStmt):
        return times * expr_flops(s.value) + stmt_flops(s.body, times)
    if isinstance(s, tirx.Evaluate):
        return times * expr_flops(s.value)
    body = getattr(s, "body", None)
    return stmt_flops(body, times) if isinstance(body, tirx.Stmt) else 0


def kernel_flops(func):
    """Float operations of one PrimFunc, each distinct value once per iteration."""
    return float(stmt_flops(func.body))
