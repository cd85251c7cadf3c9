"""Deriving a candidate's layers, and applying an edit at one of them.

L0 -> L1 is the target backend's library dispatch and legalization passes
(LegalizeOps, FuseOps, FuseTIR, ...), exactly the first half of what the
build pipeline does, so building L1 gives the same code as building L0
(both live in pipeline.py).
L1 -> L2 is code generation; L2 per kernel is cut from the module's LLVM IR.
No step searches: the same input always gives the same layers.
"""

import time

import tvm
from tvm import relax

from . import errors, ir_policy, l0_rewrites, l2_policy, llvm_ir, module_text, text_policy
from .errors import JobError
from .pipeline import build_pipeline, check_signature, first_line, from_source, kernels_of, lower, make_target, parse_module, script


def l1_views(mod):
    return {name: script(f) for name, f in sorted(kernels_of(mod).items())}


def codegen_ir(mod, target):
    """The whole module's LLVM IR (CPU) or CUDA C (GPU), and the executable."""
    try:
        with target:
            ex = tvm.compile(mod, target, relax_pipeline=build_pipeline(target, "l1"))
    except Exception as e:
        msg = first_line(e)
        raise JobError(errors.classify_build_error(msg), f"code generation failed: {msg}", "codegen")
    libs = ex.mod.imports
    if not libs:
        return ex, ""
    kind = "cuda" if target.kind.name == "cuda" else "ll"
    src = libs[0].imports[0].inspect_source(kind) if kind == "cuda" else libs[0].inspect_source("ll")
    return ex, src


def l2_views(ll, kernels):
    found = set(llvm_ir.kernel_names(ll))
    return {k: llvm_ir.extract(ll, k) for k in kernels if k in found}


def apply_l2_overrides(ex, ll, overrides):
    """Swaps the executable's kernel library for one built from `ll` with the
    overridden kernels spliced in. Errors name the line in the kernel's text."""
    if not overrides:
        return ex
    import os
    import tempfile

    text = ll
    for kernel, new in sorted(overrides.items()):
        try:
            before = llvm_ir.defined_in(llvm_ir.extract(text, kernel))
        except KeyError:
            raise JobError(errors.SYNTAX_API, f"no kernel `{kernel}` in the generated code", "l2")
        if not before:
            raise JobError(errors.SYNTAX_API, f"no kernel `{kernel}` in the generated code", "l2")
        after = llvm_ir.defined_in(new)
        if after != before:
            raise JobError(errors.SYNTAX_API, f"an L2 edit of `{kernel}` must define exactly {before}, it defines {after}", "l2")
        l2_policy.check(kernel, new, llvm_ir.extract(ll, kernel), ll)
        text, start = llvm_ir.splice(text, kernel, new)
        starts = {kernel: start}
    fd, path = tempfile.mkstemp(suffix=".ll")
    with os.fdopen(fd, "w") as f:
        f.write(text)
    try:
        lib = tvm.runtime.load_module(path)
    except Exception as e:
        msg = str(e)
        line, col = _ll_location(msg)
        kernel, rel = _map_line(line, overrides, starts, text)
        raise JobError(errors.SYNTAX_API, f"LLVM IR of `{kernel}` does not parse: {first_line(e)}", "l2", rel, col)
    finally:
        os.remove(path)
    ex.mod.clear_imports()
    ex.mod.import_module(lib)
    return relax.VMExecutable(ex.mod)


def _ll_location(msg):
    import re

    m = re.search(r"\.ll:(\d+):(\d+)", msg)
    return (int(m.group(1)), int(m.group(2))) if m else (None, None)


def _map_line(line, overrides, starts, text):
    kernel = next(iter(sorted(overrides)))
    if line is None:
        return kernel, None
    for k, start in starts.items():
        n = overrides[k].count("\n") + 1
        if start <= line < start + n:
            return k, line - start + 1
    return kernel, None


def derive(args):
    """Job `derive`: every layer of a candidate after an edit.

    args: target, and one of
      {"l0": text}                                   an L0 edit (or the root)
      {"l1_module": text, "kernel": k, "text": t}    an L1 edit of one kernel
      {"l1_module": text, "kernel": k, "trace": [..]} an L1 schedule trace
      {"l1_module": text, "traces": [[k, [..]], ..]}   one trace per kernel, in turn
      {"l1_module": text}                            re-derive below L1
    plus "l2_overrides": {kernel: LLVM IR} to carry or apply.
    """
    t0 = time.perf_counter()
    target = make_target(args["target"])
    trace_out = None
    parent = kernel = None
    if args.get("l0") is not None:
        mod = parse_module(args["l0"])
        if args.get("args_spec") is not None:
            check_signature(mod, args["args_spec"])
        l1 = lower(mod, target)
    else:
        l1 = parent = parse_module(args["l1_module"])
        kernel = args.get("kernel")
        if kernel is not None and kernel not in kernels_of(l1):
            raise JobError(errors.SYNTAX_API, f"no kernel `{kernel}`; kernels: {', '.join(sorted(kernels_of(l1)))}", "l1")
        if args.get("text") is not None:
            l1 = _replace_kernel(l1, kernel, args["text"])
        elif args.get("trace") is not None:
            l1, trace_out = _apply_trace(l1, kernel, args["trace"])
        elif args.get("traces") is not None:
            l1 = _apply_traces(l1, args["traces"])
    if target.kind.name != "llvm":
        from . import gpu

        gpu.check_legal(l1, target)
    l1_text = script(l1)
    # The views come from the text, as every build does: a module scheduled
    # in memory can print to text that compiles to other code (other loop
    # variables, other metadata numbers), and an L2 edit of a view must
    # splice into the module that the build makes. The text is what is
    # checked (parse_module checks it): in memory, TVM's loop_partition of
    # a fused loop leaves an outer block variable defined in both parts,
    # which its verifier refuses; the text gives each block its own. Where
    # the edit left every other function's text as it was, only the edited
    # kernel is parsed again (module_text.splice): the same module, 1 s
    # sooner on a graph of 35 kernels.
    spliced = module_text.splice(args["l1_module"], parent, l1_text, kernel) if parent is not None and kernel else None
    l1 = spliced if spliced is not None else parse_module(l1_text)
    ir_policy.check(l1)
    kernels = sorted(kernels_of(l1))
    ex, ll = codegen_ir(l1, target)
    overrides = args.get("l2_overrides") or {}
    overrides = {k: v for k, v in overrides.items() if k in kernels}
    if overrides:
        apply_l2_overrides(ex, ll, overrides)
    return {
        "l1_module": l1_text,
        "l1": l1_views(l1),
        "l2": l2_views(ll, kernels),
        "l2_overrides": overrides,
        "trace": trace_out,
        "tvm_s": time.perf_counter() - t0,
    }


def _replace_kernel(mod, kernel, text):
    """Parses one PrimFunc's text (errors point into that text) and puts it
    in place of `kernel`, which must keep its parameters."""
    text_policy.check_tvmscript(text, "the kernel")
    try:
        func = from_source(text)
    except SyntaxError as e:
        raise JobError(errors.SYNTAX_API, f"syntax error: {e.msg}", "parse", e.lineno, e.offset)
    except tvm.error.DiagnosticError as e:
        line, col = errors.diagnostic_location(str(e))
        raise JobError(errors.SYNTAX_API, str(e).strip(), "parse", line, col)
    except Exception as e:
        raise JobError(errors.SYNTAX_API, f"{type(e).__name__}: {e}", "parse")
    if isinstance(func, tvm.IRModule):
        funcs = kernels_of(func)
        if len(funcs) != 1:
            raise JobError(errors.SYNTAX_API, "an L1 edit must hold exactly one PrimFunc", "parse")
        func = next(iter(funcs.values()))
    if not isinstance(func, tvm.tirx.PrimFunc):
        raise JobError(errors.SYNTAX_API, f"an L1 edit must be a @T.prim_func, got {type(func).__name__}", "parse")
    old = mod[kernel]
    sig = lambda f: [(str(p.dtype), str(getattr(p, "shape", ""))) for p in f.params]  # noqa: E731
    if sig(func) != sig(old):
        raise JobError(errors.SYNTAX_API, f"the edited `{kernel}` must keep its parameters {sig(old)}, got {sig(func)}", "signature")
    func = func.with_attrs(dict(old.attrs)) if old.attrs is not None else func
    mod = mod.copy() if hasattr(mod, "copy") else tvm.IRModule(dict(mod.functions))
    mod[kernel] = func
    return mod


def _apply_trace(mod, kernel, steps):
    """Runs schedule primitives (Python lines using `sch`) on one kernel."""
    from tvm import s_tir

    try:
        sch = s_tir.Schedule(mod)
        sch.work_on(kernel)
    except Exception as e:
        raise JobError(errors.SYNTAX_API, f"cannot schedule `{kernel}`: {first_line(e)}", "trace")
    text_policy.check_trace(steps)
    try:
        text_policy.run_trace(sch, steps)
    except JobError:
        raise
    except SyntaxError as e:
        raise JobError(errors.SYNTAX_API, f"trace: syntax error: {e.msg}", "trace", e.lineno, e.offset)
    except Exception as e:
        import traceback

        line = next((f.lineno for f in reversed(traceback.extract_tb(e.__traceback__)) if f.filename == "<trace>"), None)
        raise JobError(errors.SYNTAX_API, f"trace line {line}: {type(e).__name__}: {first_line(e)}", "trace", line, None)
    return sch.mod, str(sch.trace)


def _apply_traces(mod, traces):
    """One schedule trace per kernel, in turn: a sweep over a graph's
    kernels is one candidate. Any trace that fails refuses the whole edit,
    naming its kernel; nothing is applied in part."""
    if not isinstance(traces, list) or not traces:
        raise JobError(errors.SYNTAX_API, "`traces` is a list of [kernel, [lines]] pairs", "trace")
    seen = set()
    for pair in traces:
        if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], list)):
            raise JobError(errors.SYNTAX_API, "`traces` is a list of [kernel, [lines]] pairs", "trace")
        kernel, steps = pair
        if kernel in seen:
            raise JobError(errors.SYNTAX_API, f"`{kernel}` has two traces in one edit", "trace")
        seen.add(kernel)
        if kernel not in kernels_of(mod):
            raise JobError(errors.SYNTAX_API, f"no kernel `{kernel}`; kernels: {', '.join(sorted(kernels_of(mod)))}", "l1")
        try:
            mod, _ = _apply_trace(mod, kernel, steps)
        except JobError as e:
            e.message = f"`{kernel}`: {e.message}"
            raise
    return mod


def _gathered_bytes(mod):
    """{param name: bytes a gather reads of it} for each parameter of `main`
    whose only use is as the table of `take`: an embedding reads the rows
    its indices pick, not the whole table, and counting the table would
    put its roofline above what the kernel has to move."""
    import numpy as np

    func = mod["main"]
    params = {p.name: p for p in func.params}
    uses, reads = {}, {}

    def visit(e):
        if isinstance(e, relax.Call):
            for i, a in enumerate(e.args):
                if isinstance(a, relax.Var) and a.name in params:
                    uses[a.name] = uses.get(a.name, 0) + 1
                    if i == 0 and getattr(e.op, "name", "") == "relax.take":
                        table, idx = getattr(a, "ty", None), getattr(e.args[1], "ty", None)
                        try:
                            shape, axis = [int(d) for d in table.shape], int(e.attrs.axis) if e.attrs.axis is not None else None
                            picked = int(np.prod([int(d) for d in idx.shape]))
                        except (TypeError, ValueError, AttributeError):
                            continue
                        row = int(np.prod(shape)) // shape[axis] if axis is not None else 1
                        reads[a.name] = reads.get(a.name, 0) + picked * row * np.dtype(str(table.dtype)).itemsize

    relax.analysis.post_order_visit(func.body, visit)
    return {name: b for name, b in reads.items() if uses.get(name) == 1}


def size(args):
    """Job `size`: FLOPs (each distinct value once, over the lowered kernels), compulsory
    bytes moved (arguments in, outputs out) and parameter count."""
    import numpy as np

    target = make_target(args["target"])
    mod = parse_module(args["source"])
    l1 = lower(mod, target)
    # A transposed convolution's work is counted as its sub-pixel form does
    # it: TVM's lowering convolves the zero-dilated input, and counting those
    # zero products would put a candidate that skips them above its roofline.
    work = lower(l0_rewrites.subpixel_deconv(mod), target) if "conv2d_transpose" in args["source"] else l1
    from . import flop_count

    flops = 0.0
    for f in kernels_of(work).values():
        try:
            flops += flop_count.kernel_flops(f)
        except Exception:
            pass
    spec = args["args_spec"]
    nbytes = lambda shape, dtype: int(np.prod(shape)) * np.dtype(dtype).itemsize  # noqa: E731
    gathered = _gathered_bytes(mod)
    moved = sum(min(gathered.get(a["name"], nbytes(a["shape"], a["dtype"])), nbytes(a["shape"], a["dtype"])) for a in spec)
    moved += sum(nbytes(o["shape"], o["dtype"]) for o in args.get("outputs", []))
    params = sum(int(np.prod(a["shape"])) for a in spec if a.get("role") == "param")
    return {"flops": flops, "bytes_moved": moved, "params": params, "kernels": len(kernels_of(l1)), "tvm_s": 0.0}
