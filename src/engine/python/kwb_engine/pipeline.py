"""The compile pipeline every job goes through: TVMScript text parsed and
legality-checked, checked against the task's signature and precision, the
target made, and L0 lowered to L1 (the first half of TVM's build pipeline)
or an L1 module built as it is.

The job modules (build, layers, tune, memory, profile, moves, importer) use
this one; it uses none of them.
"""

import contextlib
import re

import tvm
from tvm import relax

from . import errors
from .errors import JobError, first_line  # noqa: F401  (re-exported)


# The printer writes Relax scalar constants that are not finite as strings,
# `R.const("inf", "float32")`, which its own parser refuses ("value has to be
# scalar or Tensor"); TIR's `T.float32("inf")` reads back as it is.
_SPECIAL_RELAX_CONST = re.compile(r'R\.const\("(-?inf|nan)", ')


def script(obj):
    """TVMScript of a module or function, in a form that parses back."""
    return _SPECIAL_RELAX_CONST.sub(r'R.const(float("\1"), ', obj.script())


@contextlib.contextmanager
def _stack_without_source():
    """While parsing text, TVMScript's decorators take `inspect.stack()`,
    which reads a source line for every frame of the parser's deep
    recursion, and looks up each frame's module: 30% of the time of
    parsing a module of 35 kernels (pointnet_cls, 1.20 against 0.85 s).
    The stack is read only when a decorator is applied to a Python function
    or class (to tell a method of an `@I.ir_module` class); parsing text
    evaluates a decorator only to find its parser and never applies it, so
    the stack it takes there is empty."""
    import inspect
    import types

    from tvm.relax.script.parser import entry as relax_entry
    from tvm.script.parser.ir import entry as ir_entry
    from tvm.tirx.script.parser import entry as tir_entry

    shim = types.SimpleNamespace(**{k: getattr(inspect, k) for k in dir(inspect) if not k.startswith("__")})
    shim.stack = lambda context=1: []
    modules = (relax_entry, ir_entry, tir_entry)
    for m in modules:
        m.inspect = shim
    try:
        yield
    finally:
        for m in modules:
            m.inspect = inspect


def from_source(text):
    """TVMScript text -> IRModule or PrimFunc, as `tvm.script.from_source`
    with its well-formedness check off, without the source lines that its
    decorators would read for nothing. Every parse of job text goes here."""
    with _stack_without_source():
        return tvm.script.from_source(text, check_well_formed=False)


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
        mod = from_source(text)
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
        raise JobError(errors.SYNTAX_API, f"not well formed: {first_line(e)}", "legality")
    try:
        # s_tir's verifier knows schedulable blocks (T.sblock); tirx's does not.
        ok = tvm.s_tir.analysis.verify_well_formed(mod, False)
    except Exception as e:
        raise JobError(errors.classify_build_error(str(e)), f"TIR not well formed: {first_line(e)}", "legality")
    if ok is False:
        raise JobError(errors.SYNTAX_API, "TIR not well formed", "legality")


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


# What a CUDA target needs to be scheduled (MetaSchedule's rules, dlight's,
# the legality check) when the device's entry names only its arch: the
# limits of every NVIDIA GPU since Volta (1024 threads and 48 KiB of static
# shared memory per block, warps of 32, 64K registers per block).
CUDA_DEFAULTS = {"max_num_threads": 1024, "max_threads_per_block": 1024, "thread_warp_size": 32,
                 "max_shared_memory_per_block": 49152, "registers_per_block": 65536}


def make_target(target_json):
    if isinstance(target_json, dict) and target_json.get("kind") == "cuda":
        target_json = {**CUDA_DEFAULTS, **target_json}
    try:
        return tvm.target.Target(target_json)
    except Exception as e:
        raise JobError(errors.SYNTAX_API, f"bad target {target_json}: {e}", "target")


def _backend(target):
    """TVM's Relax pass lists for the target's kind."""
    kind = target.kind.name
    if kind == "llvm":
        from tvm.relax.backend.cpu_generic import pipeline as p
    elif kind == "cuda":
        from tvm.relax.backend.cuda import pipeline as p
    else:
        from tvm.relax.backend.gpu_generic import pipeline as p
    return p


def _lowering_passes(target):
    p = _backend(target)
    return p.library_dispatch_passes(target) + p.legalize_passes(target)


def build_pipeline(target, stage):
    """The build pipeline for a module at `stage`: an L0 module is lowered
    first; an L1 module is taken as it is (no further fusion), so its kernels
    are exactly the ones a person sees and edits."""
    if stage == "l0":
        return relax.get_default_pipeline(target)
    p = _backend(target)

    @tvm.transform.module_pass(opt_level=0)
    def _pipeline(mod, _ctx):
        with target:
            return tvm.transform.Sequential(p.dataflow_lower_passes(target) + p.finalize_passes(target))(mod)

    return _pipeline


def round_trips(text):
    """Whether a module's text holds all of it: an array constant a pass
    folded in prints as `metadata[...]`, which the text omits."""
    return "metadata[" not in text


def _unfolded(passes):
    """`passes` without FoldConstant, and with an arange of constant bounds
    legalized as a kernel (TVM's legalization writes it as an array constant)."""
    from tvm import topi

    def arange(bb, call):
        return bb.call_te(topi.arange, *call.args, call.attrs.dtype)

    return [relax.transform.LegalizeOps({"relax.arange": arange}) if p.info.name == "LegalizeOps" else p
            for p in passes if p.info.name != "FoldConstant"]


def lower(mod, target):
    """L0 -> L1. A graph that computes a table from constants (a decoder's
    rotary angles and causal mask) is lowered without folding it: folded,
    the table is an array constant, which prints as `metadata[...]` and the
    L1 text would not hold its own module. The table's kernels then run in
    the graph, a few microseconds, and the text round-trips."""
    try:
        with target:
            lowered = tvm.transform.Sequential(_lowering_passes(target))(mod)
            if not round_trips(script(lowered)):
                lowered = tvm.transform.Sequential(_unfolded(_lowering_passes(target)))(mod)
            return lowered
    except Exception as e:
        msg = first_line(e)
        raise JobError(errors.classify_build_error(msg), f"lowering to L1 failed: {msg}", "lower")


def kernels_of(mod):
    return {gv.name_hint: f for gv, f in mod.functions.items() if isinstance(f, tvm.tirx.PrimFunc)}


def export(ex, path, target):
    """export_library, linked for the target's architecture (a cross
    toolchain's gcc where it is not this machine's)."""
    from .cross import cross_gcc

    gcc = cross_gcc(target)
    if gcc is None:
        ex.export_library(path)
    else:
        from tvm.support import cc

        ex.export_library(path, fcompile=cc.cross_compiler(gcc))
