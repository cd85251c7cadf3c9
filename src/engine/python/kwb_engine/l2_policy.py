"""What an L2 edit (a kernel's LLVM IR) may contain.

An edit replaces a kernel's functions and must not reach beyond them: no
inline or module-level assembly, no new global variables, aliases or
constructors, no integer-to-pointer casts (a computed address is how a
call to an arbitrary libc function would be hidden), and every symbol it
names is one the generated kernel already used, a function of the module,
an allow-listed math function, or an allow-listed LLVM intrinsic.
"""

import re

from . import errors, llvm_ir
from .errors import JobError
from .ir_policy import LLVM_INTRINSIC_PREFIXES, MATH_EXTERNS

_SYMBOL_RE = re.compile(r'@("(?:[^"\\]|\\.)*"|[\w.$-]+)')
_GLOBAL_DEF_RE = re.compile(r'^\s*@("(?:[^"\\]|\\.)*"|[\w.$-]+)\s*=', re.MULTILINE)
_DECLARE_RE = re.compile(r'^\s*declare\b[^\n]*?@("(?:[^"\\]|\\.)*"|[\w.$-]+)\s*\(', re.MULTILINE)
_FORBIDDEN = [
    (re.compile(r"\basm\s+sideeffect\b|\basm\s+\"|\bcall[^\n]*\basm\b"), "inline assembly"),
    (re.compile(r"^\s*module\s+asm\b", re.MULTILINE), "module-level assembly"),
    (re.compile(r"\bllvm\.global_(c|d)tors\b"), "a global constructor or destructor"),
    (re.compile(r"\binttoptr\b"), "an integer-to-pointer cast"),
    (re.compile(r"\b(ifunc|alias)\b[^\n]*@"), "an alias or ifunc"),
]


# The TVM runtime's own entry points, which any kernel may use (parallel
# launch, workspace allocation); packed calls need a new global and are refused.
_RUNTIME_PREFIXES = ("__TVMBackendParallelLaunch", "__TVMBackendAllocWorkspace", "__TVMBackendFreeWorkspace",
                     "__TVMBackendParallelBarrier", "__tvm_parallel_lambda")


def _line_of(text, pos):
    return text.count("\n", 0, pos) + 1


def _refuse(kernel, text, pos, message):
    line = _line_of(text, pos) if pos is not None else None
    raise JobError(errors.SYNTAX_API, f"policy `l2`: the LLVM IR of `{kernel}` {message}", "l2", line, None)


def _symbols(text):
    return {m.group(1).strip('"') for m in _SYMBOL_RE.finditer(text)}


def check(kernel, new, original, module_text):
    """Refuses an L2 edit of `kernel` (`new`) that reaches beyond what the
    generated kernel (`original`, within `module_text`) could."""
    for rx, what in _FORBIDDEN:
        m = rx.search(new)
        if m:
            _refuse(kernel, new, m.start(), f"contains {what}")
    m = _GLOBAL_DEF_RE.search(new)
    if m:
        _refuse(kernel, new, m.start(), f"defines the global `@{m.group(1)}`; an edit may only replace the kernel's functions")
    allowed = _symbols(original) | set(llvm_ir.function_spans(module_text)) | MATH_EXTERNS
    for m in list(_DECLARE_RE.finditer(new)) + list(_SYMBOL_RE.finditer(new)):
        name = m.group(1).strip('"')
        if name in allowed or name.startswith(LLVM_INTRINSIC_PREFIXES) or name.startswith(_RUNTIME_PREFIXES):
            continue
        _refuse(kernel, new, m.start(), f"names `@{name}`, which the generated kernel does not use; allowed: its own symbols, the module's functions, math functions and math/prefetch intrinsics")
