"""A printed module's text cut into its functions, so that a job that
works on one kernel parses that kernel alone.

Parsing is most of what an L1 step costs on a model graph: one parse of
pointnet_cls's 35 kernels takes about 0.85 s, and an L1 step parsed the whole
module twice in `derive` and once in each moves job, though only one
kernel is read or changed. The cutting is by the printer's layout (each
function at one indent inside the class, decorators first); text in any
other form returns None and the caller parses the whole module.
"""

import tvm

from . import text_policy
from .pipeline import check_legality, from_source, parse_module

_INDENT = "    "


def functions(text):
    """{name: the function's text, dedented} in printed order, or None where
    the text is not a printed module (a class-level statement, a line at
    another indent, metadata, a function that names another with `cls.`
    outside `main`)."""
    lines = text.split("\n")
    try:
        start = next(i for i, line in enumerate(lines) if line.startswith("class ")) + 1
    except StopIteration:
        return None
    out, name, body = {}, None, []
    for line in lines[start:]:
        if not line.strip():
            body.append("")
            continue
        if not line.startswith(_INDENT):
            return None
        inner = line[len(_INDENT):]
        if inner.startswith("@"):
            if name is not None:
                out[name] = "\n".join(body).rstrip() + "\n"
                name, body = None, []
            body.append(inner)
        elif inner.startswith("def "):
            if name is not None or not body:
                return None
            name = inner[4:].split("(", 1)[0].strip()
            body.append(inner)
        elif name is not None and inner.startswith((" ", "#")):
            body.append(inner)
        else:
            return None
    if name is None:
        return None
    out[name] = "\n".join(body).rstrip() + "\n"
    if "metadata[" in text or any("cls." in t for n, t in out.items() if n != "main"):
        return None
    return out


def _parse_function(text):
    """The PrimFunc that one function's text parses to, or None where it is
    not one or does not parse (the caller then parses the whole module, and
    that parse reports the error)."""
    try:
        text_policy.check_tvmscript(text, "the kernel")
        func = from_source(text)
    except Exception:
        return None
    return func if isinstance(func, tvm.tirx.PrimFunc) else None


def parse_kernel(module_text, kernel):
    """IRModule({kernel: PrimFunc}) of one kernel of a printed module, parsed
    from that kernel's text alone; the whole module where the text cannot be
    cut (then every kernel is there, as parse_module gives it)."""
    funcs = functions(module_text)
    if funcs is None or kernel not in funcs:
        return parse_module(module_text)
    func = _parse_function(funcs[kernel])
    if func is None:
        return parse_module(module_text)
    mod = tvm.IRModule({kernel: func})
    check_legality(mod)
    return mod


def splice(parent_text, parent_mod, new_text, kernel):
    """The module `new_text` parses to, made from `parent_mod` (the module
    parsed from `parent_text`, unchanged since; it is cloned, not changed
    here) with only `kernel` parsed again, or None where that cannot
    be shown: every other function's text in `new_text` must be exactly its
    text in `parent_text`, so parsing it again would give what `parent_mod`
    holds."""
    old, new = functions(parent_text), functions(new_text)
    if old is None or new is None or kernel not in new or set(old) != set(new):
        return None
    if any(old[n] != new[n] for n in new if n != kernel):
        return None
    func = _parse_function(new[kernel])
    if func is None:
        return None
    mod = parent_mod.clone()
    mod[kernel] = func
    check_legality(mod)
    return mod
