"""What a candidate's text may contain before any Python parser sees it.

TVMScript is parsed by evaluating Python expressions (annotations, call
arguments, decorators), and an L1 trace is Python run against a schedule.
So the text is first read with Python's own `ast` module, which executes
nothing, and only the TVMScript surface is let through: the `I`, `R`, `T`
namespaces, literals, names the text binds itself, arithmetic and
comparisons, and the `with`/`for`/`if`/`while` forms the parser knows. A
trace may only be `sch.<primitive>(...)` calls on literals and the names it
bound. Anything else is refused with its line, column and the rule broken.
"""

import ast
import builtins
import functools
import types

from . import errors
from .errors import JobError

NAMESPACES = ("I", "R", "T")
# Builtins the TVMScript parser maps to IR (range -> T.serial, min/max/abs).
SAFE_BUILTINS = {"range", "min", "max", "abs", "int", "float", "bool", "len"}
# Node types of the TVMScript surface. Anything else (lambda, comprehensions,
# f-strings, walrus, imports other than the printer's own, try, global,
# yield, await, del, raise, match) is refused.
_TVMSCRIPT_NODES = (
    ast.Module, ast.ClassDef, ast.FunctionDef, ast.arguments, ast.arg, ast.Return, ast.Assign,
    ast.AnnAssign, ast.AugAssign, ast.For, ast.While, ast.If, ast.With, ast.withitem, ast.Expr,
    ast.Pass, ast.Assert, ast.Break, ast.Continue, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare,
    ast.Call, ast.keyword, ast.IfExp, ast.Constant, ast.Attribute, ast.Subscript, ast.Slice,
    ast.Name, ast.Tuple, ast.List, ast.Dict, ast.Starred, ast.ImportFrom, ast.alias,
    ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop,
)
# The imports a printed module carries (normally as comments).
_ALLOWED_IMPORTS = {("tvm.script", "ir"), ("tvm.script", "tirx"), ("tvm.script", "relax"), ("tvm.script", "tir")}


def refuse(rule, message, node=None):
    line = getattr(node, "lineno", None)
    col = getattr(node, "col_offset", None)
    where = f" (line {line}, column {col + 1})" if line is not None and col is not None else ""
    raise JobError(errors.SYNTAX_API, f"policy `{rule}`: {message}{where}", "policy", line, None if col is None else col + 1)


def _parse(text, what):
    try:
        return ast.parse(text)
    except SyntaxError as e:
        raise JobError(errors.SYNTAX_API, f"syntax error: {e.msg}", "parse", e.lineno, e.offset)
    except (ValueError, RecursionError) as e:
        raise JobError(errors.SYNTAX_API, f"{what} cannot be read: {e}", "parse")


def _namespaces():
    from tvm.script import ir as I
    from tvm.script import relax as R
    from tvm.script import tirx as T

    return {"I": I, "R": R, "T": T}


def _chain(node):
    """`a.b.c` -> ["a", "b", "c"], or None when the root is not a name."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return parts[::-1]


# Sub-namespaces of R and T that hold operators (R.nn, R.image, ...); the
# script builder and parser internals (R.parser, T.builder) are not among them.
_TRUSTED_MODULES = ("tvm.script", "tvm.relax.op.", "tvm.relax.script.parser.dist", "tvm.tirx.script.tile")


def _trusted_object(obj):
    """A value reached from a namespace must be TVM's own: a module under
    tvm.script, or a function, class or constant defined by TVM."""
    if isinstance(obj, types.ModuleType):
        return obj.__name__.startswith(_TRUSTED_MODULES)
    if isinstance(obj, (int, float, str, bool, type(None))):
        return True
    if isinstance(obj, functools.partial):
        # T.alloc_shared and its kin: TVM's own function with arguments bound.
        return _trusted_object(obj.func) and all(_trusted_object(a) for a in list(obj.args) + list(obj.keywords.values()))
    mod = getattr(obj, "__module__", None) or getattr(type(obj), "__module__", "") or ""
    return mod.startswith(("tvm", "tvm_ffi"))


def _resolve(parts, node, spaces):
    obj = spaces[parts[0]]
    for i, name in enumerate(parts[1:], 1):
        if not hasattr(obj, name):
            refuse("namespace", f"`{'.'.join(parts[:i + 1])}` is not part of TVMScript", node)
        obj = getattr(obj, name)
        if not _trusted_object(obj):
            refuse("namespace", f"`{'.'.join(parts[:i + 1])}` reaches outside TVMScript", node)
    return obj


def _bound_names(tree):
    """Every name the text binds itself: classes, functions, parameters,
    assignment, loop and `with ... as` targets."""
    bound = set()
    for n in ast.walk(tree):
        if isinstance(n, (ast.ClassDef, ast.FunctionDef)):
            bound.add(n.name)
        elif isinstance(n, ast.arg):
            bound.add(n.arg)
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            bound.add(n.id)
    return bound


def _is_typevar(stmt):
    """`n = TypeVar("n")`: how the printer declares a symbolic buffer offset."""
    return (
        isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)
        and isinstance(stmt.value, ast.Call) and isinstance(stmt.value.func, ast.Name) and stmt.value.func.id == "TypeVar"
        and len(stmt.value.args) == 1 and not stmt.value.keywords
        and isinstance(stmt.value.args[0], ast.Constant) and stmt.value.args[0].value == stmt.targets[0].id
    )


def _check_name(name, node, bound):
    if name.startswith("__") or name.endswith("__"):
        refuse("dunder", f"the name `{name}` is not allowed", node)
    if name in NAMESPACES or name in bound or name in SAFE_BUILTINS:
        return
    if hasattr(builtins, name):
        refuse("builtin", f"the Python builtin `{name}` is not allowed", node)
    refuse("unknown-name", f"`{name}` is neither TVMScript nor defined in the text", node)


def check_tvmscript(text, what="the candidate"):
    """Refuses (JobError, syntax_api) any TVMScript text that goes beyond
    the TVMScript surface. Returns the parsed tree."""
    tree = _parse(text, what)
    spaces = _namespaces()
    bound = _bound_names(tree)
    typevar_calls = {id(s.value.func) for s in tree.body if _is_typevar(s)}
    for stmt in tree.body:
        if isinstance(stmt, ast.ImportFrom):
            continue
        if isinstance(stmt, (ast.ClassDef, ast.FunctionDef)):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue
        if _is_typevar(stmt):
            continue
        refuse("top-level", f"only an @I.ir_module class or one function may stand at the top level, not `{type(stmt).__name__}`", stmt)
    for node in ast.walk(tree):
        if not isinstance(node, _TVMSCRIPT_NODES):
            refuse("syntax", f"`{type(node).__name__}` is not part of TVMScript", node)
        if isinstance(node, ast.ImportFrom):
            for a in node.names:
                if (node.module, a.name) not in _ALLOWED_IMPORTS:
                    refuse("import", f"`from {node.module} import {a.name}` is not allowed", node)
        elif isinstance(node, ast.ClassDef):
            if node is not tree.body[0] and node not in tree.body:
                refuse("syntax", "a class may only stand at the top level", node)
            if node.bases or node.keywords:
                refuse("syntax", "the module class may not have bases or keywords", node)
        elif isinstance(node, ast.FunctionDef):
            if node.args.vararg or node.args.kwarg:
                refuse("syntax", "functions may not take *args or **kwargs", node)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            if id(node) not in typevar_calls:
                _check_name(node.id, node, bound)
        elif isinstance(node, ast.Name):
            if node.id.startswith("__") or node.id in NAMESPACES:
                refuse("rebind", f"`{node.id}` may not be assigned", node)
        elif isinstance(node, ast.Attribute):
            if node.attr.startswith("_"):
                refuse("dunder", f"the attribute `{node.attr}` is not allowed", node)
            parts = _chain(node)
            if parts and parts[0] in NAMESPACES and parts[0] not in bound:
                _resolve(parts, node, spaces)
        elif isinstance(node, ast.Call):
            _check_call_target(node, bound)
    return tree


def _check_call_target(node, bound):
    f = node.func
    if isinstance(f, ast.Name):
        return  # checked as a name: a function of the text, or a safe builtin
    if isinstance(f, ast.Attribute) and _chain(f) is not None:
        return  # namespaces are resolved; methods of the text's own values
    refuse("call", "only TVMScript functions and the text's own functions may be called", node)


# ---- L1 schedule traces ---------------------------------------------------


def _schedule_methods():
    from tvm import s_tir

    return {n for n in dir(s_tir.Schedule) if not n.startswith("_") and callable(getattr(s_tir.Schedule, n))}


def check_trace(lines):
    """A trace is a list of statements, each a `sch.<primitive>(...)` call,
    alone or assigned to names; arguments are literals, names bound by
    earlier statements, nested `sch` calls, T.<constructor>(literals) and
    index-map lambdas of pure arithmetic."""
    text = "\n".join(lines)
    tree = _parse(text, "the trace")
    methods = _schedule_methods()
    spaces = _namespaces()
    bound = {"sch"}
    for stmt in tree.body:
        if isinstance(stmt, ast.Expr):
            value, targets = stmt.value, []
        elif isinstance(stmt, ast.Assign):
            value, targets = stmt.value, stmt.targets
        else:
            refuse("trace", f"a trace line must be a `sch.<primitive>(...)` call, not `{type(stmt).__name__}`", stmt)
        call = value.value if isinstance(value, ast.Subscript) else value
        if not (isinstance(call, ast.Call) and _is_sch_call(call)):
            refuse("trace", "a trace line must be a `sch.<primitive>(...)` call", stmt)
        _check_trace_expr(value, bound, methods, spaces, set())
        for t in targets:
            for n in ([t] if isinstance(t, ast.Name) else getattr(t, "elts", [None])):
                if isinstance(n, ast.Starred):
                    n = n.value
                if not isinstance(n, ast.Name):
                    refuse("trace", "a trace may assign only to plain names", stmt)
                if n.id in ("sch", "T") or n.id.startswith("_"):
                    refuse("trace", f"`{n.id}` may not be assigned", n)
                bound.add(n.id)
    return tree


def _is_sch_call(node):
    return isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and node.func.value.id == "sch"


def _check_trace_expr(node, bound, methods, spaces, lambda_args):
    if isinstance(node, ast.Constant):
        return
    if isinstance(node, ast.Name):
        if node.id not in bound and node.id not in lambda_args:
            refuse("trace", f"`{node.id}` is not bound by an earlier trace line", node)
        return
    if isinstance(node, (ast.List, ast.Tuple)):
        for e in node.elts:
            _check_trace_expr(e, bound, methods, spaces, lambda_args)
        return
    if isinstance(node, ast.Starred):
        return _check_trace_expr(node.value, bound, methods, spaces, lambda_args)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        return _check_trace_expr(node.operand, bound, methods, spaces, lambda_args)
    if isinstance(node, ast.BinOp) and lambda_args:
        _check_trace_expr(node.left, bound, methods, spaces, lambda_args)
        return _check_trace_expr(node.right, bound, methods, spaces, lambda_args)
    if isinstance(node, ast.Subscript):
        _check_trace_expr(node.value, bound, methods, spaces, lambda_args)
        idx = node.slice
        if isinstance(idx, ast.Slice):
            for part in (idx.lower, idx.upper, idx.step):
                if part is not None:
                    _check_trace_expr(part, bound, methods, spaces, lambda_args)
            return
        return _check_trace_expr(idx, bound, methods, spaces, lambda_args)
    if isinstance(node, ast.Lambda):
        a = node.args
        if a.vararg or a.kwarg or a.defaults or a.kw_defaults:
            refuse("trace", "an index-map lambda takes plain arguments only", node)
        names = {x.arg for x in a.posonlyargs + a.args + a.kwonlyargs}
        return _check_trace_expr(node.body, bound, methods, spaces, lambda_args | names)
    if isinstance(node, ast.Call):
        f = node.func
        if _is_sch_call(node):
            if f.attr not in methods:
                refuse("trace", f"`sch.{f.attr}` is not a schedule primitive", node)
        else:
            parts = _chain(f) if isinstance(f, ast.Attribute) else None
            if not parts or parts[0] != "T" or any(p.startswith("_") for p in parts):
                refuse("trace", "a trace may call only `sch.<primitive>` and `T.<type>`", node)
            _resolve(parts, node, spaces)
        for a in node.args:
            _check_trace_expr(a, bound, methods, spaces, lambda_args)
        for k in node.keywords:
            if k.arg is None:
                refuse("trace", "`**` arguments are not allowed in a trace", node)
            _check_trace_expr(k.value, bound, methods, spaces, lambda_args)
        return
    refuse("trace", f"`{type(node).__name__}` is not allowed in a trace", node)


def run_trace(sch, lines):
    """Runs checked trace lines with nothing but `sch` and `T` in reach."""
    from tvm.script import tirx as T

    check_trace(lines)
    program = "\n".join(lines)
    exec(compile(program, "<trace>", "exec"), {"__builtins__": {}, "sch": sch, "T": T})
