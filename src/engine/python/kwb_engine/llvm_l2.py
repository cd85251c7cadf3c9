"""L2 moves for a CPU kernel: edits of its LLVM IR that change the machine
code the code generator emits, not the target's attributes (both sides are
built for the host's own ISA already).

`reciprocal-divide`: a vector divide is one of the slowest instructions a
core has, and TVM's code divides where a multiply would do: by a constant
(hardswish's / 6, a pooling's / 9, a mean's / 196), or many values by one
divisor (softmax's normalization by the row's sum). LLVM keeps such a
division exact unless the instruction allows a reciprocal. The move puts
LLVM's `arcp` flag on exactly those divisions; the code generator then
multiplies by the constant's reciprocal, or computes the shared divisor's
reciprocal once and multiplies. A result may differ in the last bit or so,
and is checked against the task's tolerance like any other. Measured on
one Emerald Rapids core: softmax (128 x 1000, the row schedule with five
chains) 65.5 us before, 53.1 us after, PyTorch eager 64 us on the same
inputs; hardswish (its chain inlined into one 16-lane loop) 11.2 us
before, 5.9 us after with its input in cache (1.06x on rotated inputs,
where the loop waits on memory).
"""

import re
from collections import Counter

_FLAGS = ("fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
# `%q = fdiv [flags] <type> <dividend>, %divisor` and whatever follows
# (`, !dbg !41`).
_FDIV = re.compile(
    r"^(?P<head>\s*%[\w.]+ = fdiv )(?P<flags>(?:(?:" + "|".join(_FLAGS) + r") )*)"
    r"(?P<type><\d+ x (?:float|double)>|float|double) (?P<lhs>[^,]+), "
    r"(?P<div>%[\w.]+|splat \((?:float|double) [^)]+\)|[-+]?(?:0x[0-9A-Fa-f]+|\d[\d.]*(?:e[-+]?\d+)?))(?P<tail>(?:,.*)?)$",
    re.MULTILINE)


def reciprocal_divide(text):
    """`text` with `arcp` on every division by a constant, and on every
    division whose divisor (a value) is shared with another division; and
    how many it flagged. (None, 0) where there is none. A lone division by a
    value gains nothing: its reciprocal would cost as much as the divide."""
    divs = list(_FDIV.finditer(text))
    shared = {d for d, n in Counter(m["div"] for m in divs).items() if n >= 2 or not d.startswith("%")}
    flagged = 0

    def flag(m):
        nonlocal flagged
        if m["div"] not in shared or "arcp" in m["flags"].split() or "fast" in m["flags"].split():
            return m.group(0)
        flagged += 1
        return f"{m['head']}{m['flags']}arcp {m['type']} {m['lhs']}, {m['div']}{m['tail']}"

    new = _FDIV.sub(flag, text)
    return (new, flagged) if flagged else (None, 0)


def moves(args):
    """Job `l2_moves`: {text (one kernel's LLVM IR)} -> {moves: [{name, rationale, text}]}."""
    out = []
    text, n = reciprocal_divide(args.get("text") or "")
    if text:
        out.append({"name": "reciprocal-divide", "text": text,
                    "rationale": f"allow reciprocals (`arcp`) on the {n} divisions by a constant or by a shared divisor: the code generator "
                                 "multiplies by the reciprocal, computed once, instead of a vector divide per vector; checked against the tolerance"})
    return {"moves": out, "tvm_s": 0.0}
