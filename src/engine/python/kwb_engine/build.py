"""Parse, legality-check and build a candidate IRModule given as TVMScript text.

The artifact is a shared library (Relax VM executable) written with
export_library, so correctness and timing can load it in any worker.
"""

import re
import time

import tvm
from tvm import relax

from . import errors
from .errors import JobError


def parse_module(text):
    """TVMScript text -> IRModule, or JobError(syntax_api) with line and column.

    Parses with the well-formedness check off, then runs it on its own: the
    parser's own check reports only 'not well-formed' at 1:1, while
    relax.analysis.well_formed names the real fault. The text is first
    checked against the TVMScript surface (text_policy), because the
    parser evaluates Python expressions.
    """
    from . import text_policy

    text_policy.check_tvmscript(text)
    try:
        mod = tvm.script.from_source(text, check_well_formed=False)
    except SyntaxError as e:
        raise JobError(errors.SYNTAX_API, f"syntax error: {e.msg}", "parse", e.lineno, e.offset)
    except tvm.error.DiagnosticError as e:
        # "In ir.Op(span=None, ..., name="relax.add", ...)," -> "In relax.add,"
        msg = re.sub(r'ir\.Op\(.*?name="([^"]+)".*?support_level=\d+\)', r"\1", str(e))
        line, col = errors.diagnostic_location(msg)
        raise JobError(errors.SYNTAX_API, msg.strip(), "parse", line, col)
    except Exception as e:  # eval of annotations: NameError, TypeError, TVM errors
        raise JobError(errors.SYNTAX_API, f"{type(e).__name__}: {e}", "parse")
    if not isinstance(mod, tvm.IRModule):
        raise JobError(
            errors.SYNTAX_API,
            "the text must define one IRModule (an @I.ir_module class), "
            f"got {type(mod).__name__}",
            "parse",
        )
    if "main" not in [gv.name_hint for gv in mod.get_global_vars()]:
        raise JobError(errors.SYNTAX_API, "the module has no `main` function", "parse")
    check_legality(mod)
    return mod


def check_legality(mod):
    try:
        relax.analysis.well_formed(mod)
    except Exception as e:
        raise JobError(errors.SYNTAX_API, f"not well formed: {_first_line(e)}", "legality")
    try:
        # s_tir's verifier knows schedulable blocks (T.sblock); tirx's does not.
        ok = tvm.s_tir.analysis.verify_well_formed(mod, False)
    except Exception as e:
        raise JobError(errors.classify_build_error(str(e)), f"TIR not well formed: {_first_line(e)}", "legality")
    if ok is False:
        raise JobError(errors.SYNTAX_API, "TIR not well formed", "legality")


def _first_line(e):
    text = str(e).strip()
    if "Error message:" in text:  # ScheduleError: the IR dump first, then the reason
        return "ScheduleError: " + " ".join(text.split("Error message:", 1)[1].split())[:1000]
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("note:")]
    return " ".join(lines[:3])[:2000] if lines else type(e).__name__


def signature(mod):
    """[(name, shape, dtype)] of main's parameters."""
    out = []
    for p in mod["main"].params:
        out.append({"name": p.name, "shape": var_shape(p), "dtype": var_dtype(p)})
    return out


def var_shape(var):
    """Static shape of a Relax Var as ints, or None when unknown or symbolic."""
    shape = getattr(var.ty, "shape", None)
    if shape is None or not hasattr(shape, "values"):
        return None
    try:
        return [int(d) for d in shape.values]
    except Exception:
        return None


def var_dtype(var):
    dtype = getattr(var.ty, "dtype", None)
    return None if dtype is None else str(dtype)


def check_signature(mod, args_spec):
    """A candidate must take exactly the task's arguments, in order."""
    sig = signature(mod)
    if len(sig) != len(args_spec):
        raise JobError(
            errors.SYNTAX_API,
            f"main takes {len(sig)} parameters, the task gives {len(args_spec)}",
            "signature",
        )
    for i, (got, want) in enumerate(zip(sig, args_spec)):
        if got["shape"] != list(want["shape"]) or got["dtype"] != want["dtype"]:
            raise JobError(
                errors.SYNTAX_API,
                f"parameter {i} ({got['name']}) is {got['dtype']}{got['shape']}, "
                f"the task gives {want['dtype']}{list(want['shape'])}",
                "signature",
            )


_NARROWER = {"float32": ("float16", "bfloat16", "float8"), "float16": ("float8",), "bfloat16": ("float8",)}


def check_precision(mod, task_dtype):
    """A candidate may not compute in a float type narrower than the task's."""
    narrower = _NARROWER.get(task_dtype or "", ())
    if not narrower:
        return
    text = mod.script()
    for dt in narrower:
        if f'"{dt}' in text:
            raise JobError(errors.NUMERIC, f"precision downgrade: the candidate uses {dt} on a {task_dtype} task", "precision")


def make_target(target_json):
    try:
        return tvm.target.Target(target_json)
    except Exception as e:
        raise JobError(errors.SYNTAX_API, f"bad target {target_json}: {e}", "target")


def build(args):
    """Job `build`: {source, target, artifact, args_spec?} -> compile figures."""
    t0 = time.perf_counter()
    mod = parse_module(args["source"])
    if args.get("args_spec") is not None:
        check_signature(mod, args["args_spec"])
    check_precision(mod, args.get("task_dtype"))
    parse_s = time.perf_counter() - t0
    target = make_target(args["target"])
    t1 = time.perf_counter()
    from . import layers

    try:
        from . import rotation

        sets = rotation.sets_for(args["args_spec"]) if args.get("args_spec") is not None else None
        if args.get("tuned_db"):
            from . import tune

            ex = tune.compile_tuned(rotation.add(mod, sets) if sets else mod, target, args["tuned_db"])
        else:
            # Lowered first (deterministic: what L1 shows), so the static IR
            # policy sees every kernel before anything is compiled.
            l1 = mod if args.get("stage", "l0") == "l1" else layers.lower(mod, target)
            from . import ir_policy

            ir_policy.check(l1)
            if sets:
                l1 = rotation.add(l1, sets)
            with target:
                ex = tvm.compile(l1, target, relax_pipeline=layers.build_pipeline(target, "l1"))
        overrides = args.get("l2_overrides") or {}
        if overrides:
            ex = layers.apply_l2_overrides(ex, ex.mod.imports[0].inspect_source("ll"), overrides)
        ex.export_library(args["artifact"])
    except JobError:
        raise
    except Exception as e:
        msg = _first_line(e)
        raise JobError(errors.classify_build_error(msg), f"build failed: {msg}", "build")
    compile_s = time.perf_counter() - t1
    t2 = time.perf_counter()
    try:
        from . import memory

        mem = memory.estimate(mod, target, args.get("stage", "l0"))
    except Exception as e:  # an estimate must never fail a build
        mem = {"error": f"{type(e).__name__}: {e}"}
    mem_s = time.perf_counter() - t2
    kernels = sorted(
        gv.name_hint for gv, f in mod.functions.items() if isinstance(f, tvm.tirx.PrimFunc)
    )
    return {
        "artifact": args["artifact"],
        "parse_s": parse_s,
        "compile_s": compile_s,
        "tvm_s": parse_s + compile_s + mem_s,
        "kernels": kernels,
        "memory": mem,
    }
