"""Failure classes and the exception that carries one back to the supervisor.

The class names match kwb's FailureClass enum (src/eval/failure.rs).
"""

import re

MEMORY = "memory"
SYNTAX_API = "syntax_api"
NUMERIC = "numeric_mismatch"
PARALLEL = "parallel"
BUILD = "build"
TIMEOUT = "timeout"
CRASH = "crash"
TASK = "task"  # the task itself is broken (missing outputs, bad spec): not the candidate's fault
INTERNAL = "internal"
DEVICE = "device"  # the device could not be reached or went away: not the candidate's fault


class JobError(Exception):
    def __init__(self, cls, message, stage=None, line=None, column=None):
        super().__init__(message)
        self.cls = cls
        self.message = message
        self.stage = stage
        self.line = line
        self.column = column

    def to_json(self):
        out = {"class": self.cls, "message": self.message}
        if self.stage:
            out["stage"] = self.stage
        if self.line is not None:
            out["line"] = self.line
            out["column"] = self.column
        return out


_MEMORY_PATTERNS = [
    r"out of memory",
    r"failed to allocate",
    r"cannot allocate",
    r"bad_alloc",
    r"MemoryError",
    r"unable to allocate",
    r"storage scope",
    r"scope .* is not",
    r"out of bound",
    r"OutOfBounds",
]
_PARALLEL_PATTERNS = [
    r"thread",
    r"race",
    r"threadIdx",
    r"blockIdx",
    r"parallel",
]


def classify_build_error(text):
    """Class of an error raised while lowering or compiling a parsed module."""
    for pat in _MEMORY_PATTERNS:
        if re.search(pat, text, re.IGNORECASE):
            return MEMORY
    for pat in _PARALLEL_PATTERNS:
        if re.search(pat, text):
            return PARALLEL
    return BUILD


def classify_runtime_error(text):
    """Class of an error raised while a built candidate runs."""
    for pat in _MEMORY_PATTERNS:
        if re.search(pat, text, re.IGNORECASE):
            return MEMORY
    return CRASH


_DIAG_LOC = re.compile(r"-->\s*\S*?:(\d+):(\d+)")


def diagnostic_location(text):
    """(line, column) from a TVM DiagnosticError's ' --> <str>:L:C' marker."""
    m = _DIAG_LOC.search(text)
    if not m:
        return None, None
    return int(m.group(1)), int(m.group(2))


def first_line(e):
    """The part of a TVM error worth showing: its first lines, or a schedule error's reason."""
    text = str(e).strip()
    if "Error message:" in text:  # ScheduleError: the IR dump first, then the reason
        return "ScheduleError: " + " ".join(text.split("Error message:", 1)[1].split())[:1000]
    lines = [l for l in text.splitlines() if l.strip() and not l.startswith("note:")]
    return " ".join(lines[:3])[:2000] if lines else type(e).__name__
