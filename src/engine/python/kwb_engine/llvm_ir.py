"""Cutting one kernel's functions out of a module's LLVM IR and putting edited
ones back. All kernels of a Relax executable live in one LLVM module; kernel
`k` is the exported packed wrapper `@__tvm_ffi_k` plus its body
`@k_compute_` (and `@k_compute_*` helpers such as parallel lambdas). Shared
pieces (error helpers, strings, attributes, metadata) stay outside, so an L2
edit may change only those functions, and everything else must stay as is.
"""

import re

_DEF_RE = re.compile(r"^define [^\n]*?@\"?([\w.$-]+)\"?\(", re.MULTILINE)


def function_spans(ll):
    """{function name: (start, end)} character spans of every definition."""
    spans = {}
    for m in _DEF_RE.finditer(ll):
        end = ll.find("\n}\n", m.start())
        end = len(ll) if end < 0 else end + 3
        spans[m.group(1)] = (m.start(), end)
    return spans


def kernel_names(ll):
    return sorted(n[len("__tvm_ffi_"):] for n in function_spans(ll) if n.startswith("__tvm_ffi_"))


_REF_RE = re.compile(r"@\"?(__tvm_parallel_lambda[\w.$-]*)\"?")


def kernel_functions(spans, kernel, ll):
    """The kernel's wrapper and body, and the parallel-loop lambdas
    (`__tvm_parallel_lambda*`) its body refers to, in file order."""
    names = {n for n in spans if n == "__tvm_ffi_" + kernel or n.startswith(kernel + "_compute_")}
    todo = list(names)
    while todo:
        body = ll[slice(*spans[todo.pop()])]
        for ref in _REF_RE.findall(body):
            if ref in spans and ref not in names:
                names.add(ref)
                todo.append(ref)
    return sorted(names, key=lambda n: spans[n][0])


def extract(ll, kernel):
    spans = function_spans(ll)
    return "".join(ll[slice(*spans[n])] for n in kernel_functions(spans, kernel, ll))


def splice(ll, kernel, text):
    """The module with `kernel`'s functions replaced by `text`, and the line
    (1-based) at which `text` starts, to map parser errors back to it."""
    spans = function_spans(ll)
    names = kernel_functions(spans, kernel, ll)
    if not names:
        raise KeyError(kernel)
    first = spans[names[0]][0]
    # Keep what lies between the kernel's functions (normally nothing).
    out, pos = [], 0
    for i, n in enumerate(names):
        s, e = spans[n]
        out.append(ll[pos:s])
        if i == 0:
            out.append(text if text.endswith("\n") else text + "\n")
        pos = e
    out.append(ll[pos:])
    return "".join(out), ll.count("\n", 0, first) + 1


def defined_in(text):
    return sorted(function_spans(text))
