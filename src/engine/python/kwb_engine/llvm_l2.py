"""L2 moves for a CPU kernel: edits of its LLVM IR that change the machine
code the code generator emits, not the target's attributes (both sides are
built for the host's own ISA already).

`reciprocal-divide`: a kernel that divides many values by one divisor
(softmax's normalization, a mean's division by the count) issues a vector
divide per vector, one of the slowest instructions a core has. The move
puts LLVM's `arcp` flag (allow reciprocal) on exactly those divisions; the
code generator then computes the divisor's reciprocal once and multiplies.
A result may differ in the last bit or so, and is checked against the
task's tolerance like any other. Measured on softmax (128 x 1000, the row
schedule with five chains, one Emerald Rapids core): 65.5 us before,
53.1 us after; PyTorch eager 64 us on the same inputs.
"""

import re
from collections import Counter

_FLAGS = ("fast", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
# `%q = fdiv [flags] <type> <dividend>, %divisor` and whatever follows
# (`, !dbg !41`).
_FDIV = re.compile(
    r"^(?P<head>\s*%[\w.]+ = fdiv )(?P<flags>(?:(?:" + "|".join(_FLAGS) + r") )*)"
    r"(?P<type><\d+ x (?:float|double)>|float|double) (?P<lhs>[^,]+), (?P<div>%[\w.]+)(?P<tail>(?:,.*)?)$",
    re.MULTILINE)


def reciprocal_divide(text):
    """`text` with `arcp` on every division whose divisor (a value, not a
    constant) is shared with another division, and how many it flagged;
    (None, 0) where there is none. A lone division gains nothing: the
    reciprocal would cost as much as the divide."""
    divs = list(_FDIV.finditer(text))
    shared = {d for d, n in Counter(m["div"] for m in divs).items() if n >= 2}
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
                    "rationale": f"allow reciprocals (`arcp`) on the {n} divisions that share a divisor: the code generator computes "
                                 "its reciprocal once and multiplies, instead of a vector divide per vector; checked against the tolerance"})
    return {"moves": out, "tvm_s": 0.0}
