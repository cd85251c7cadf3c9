"""L1 moves for a layout copy: a kernel whose output is its input with the
axes permuted (the transposes a layout move puts around a convolution, or
a model's own permute), optionally behind elementwise blocks or a
concatenation that inline into it.

TVM's default build walks such a copy in the output's order, so every load
strides across the input; vectorizing the output's row turns the loads
into gathers. Tiling both axes that trade places keeps a small square of
the input in L1 while it is written out. Measured on conv2d_5x5 after its
NHWC move (Emerald Rapids, one core): the output's NHWC to NCHW copy
(32 x 32 x 32) 24.9 us with TVM's default, 8.9 us tiled 16 x 16 with a
vectorized row, 6.7 us with the tile first read into a local buffer a
vector at a time; the input's copy (16 x 32 x 32) 6.2, 4.9 and 3.5 us.

A weight's copy from OIHW to HWIO walks the window (3 wide, say) last in
the input, which no tile divides. Its tile takes the two channel axes
instead and walks the window inside it, so the tile's input (16 x 16 x
the window) stays in L1 while each window position's rows are written.
Measured on resnet18_slim's 128 x 128 x 3 x 3 weight (Zen 4, one core,
alone): 0.091 ms with TVM's default, 0.089 ms with the copy's row
vectorized, 0.027 ms tiled with the window inside.

A concatenation on channels in NHWC, copied back to NCHW (fire_module
after its NHWC move: two 24 x 24 x 64 inputs), inlines into its copy, which
then reads each input at an offset on the concatenated axis. Tiled 16 x 8
with each output row vectorized (Zen 4, one core, alone): 11.1 us,
against 69.5 us with TVM's default and 70.0 with the copy's row
vectorized."""

import tvm
from tvm import s_tir

from . import text_policy
from .microkernel import SPATIAL


def _divisor(n, prefs):
    return next((v for v in prefs if n % v == 0 and n >= v), None)


def _iterator(index):
    """The variable an index is, or is offset from by a constant: the
    second input of a concatenation inlined into its copy reads `c - 64`.
    None for anything else (a reshape's div and mod)."""
    if isinstance(index, (tvm.tirx.Add, tvm.tirx.Sub)) and isinstance(index.b, tvm.tirx.IntImm):
        index = index.a
    return index if isinstance(index, tvm.tirx.Var) else None


def _axis_vars(region, ivars):
    """Which iterator indexes each axis of the region, alone or offset by a
    constant; None for an axis indexed by any other expression."""
    out = []
    for r in region:
        m = _iterator(r.min) if int(r.extent) == 1 else None
        out.append(next((i for i, v in enumerate(ivars) if v.same_as(m)), None) if m is not None else None)
    return out


def _last_var(region, ivars):
    """Which iterator indexes the region's last axis, alone (see `_axis_vars`)."""
    return _axis_vars([region[-1]], ivars)[0]


def _shape(mod, kernel, blocks):
    """(chain, a, b, read index, input axes) for a copy that permutes its
    last axis: `a` the loop of the output's last axis, `b` the loop that
    walks the input's last axis, the input's axes as loops; None for
    anything else."""
    if not blocks or any(t != SPATIAL for b in blocks for t, _ in b["iters"]):
        return None
    last = blocks[-1]
    if len(last["loops"]) != len(last["iters"]) or [e for _, e in last["iters"]] != last["loops"]:
        return None
    chain = [f'sch.compute_inline(sch.get_sblock("{b["name"]}"))' for b in blocks[:-1]]
    try:
        sch = s_tir.Schedule(mod)
        sch.work_on(kernel)
        text_policy.run_trace(sch, chain)
        block = sch.get(sch.get_sblock(last["name"]))
    except Exception:
        return None
    ivars = [iv.var for iv in block.iter_vars]
    a = _last_var(block.writes[0].region, ivars)
    reads = [(i, r) for i, r in enumerate(block.reads) if len(r.region) >= 2]
    walked = {_last_var(r.region, ivars) for _, r in reads}
    if a is None or len(walked) != 1 or None in walked:
        return None
    b = walked.pop()
    if b == a:
        return None  # the rows stay rows: a plain vectorized copy
    index = max(reads, key=lambda x: len(x[1].region))[0]
    return chain, a, b, index, _axis_vars(block.reads[index].region, ivars)


def _window(loops, a, axes):
    """(b, window) where the input's last axes are a window no tile divides:
    `b` the loop of the innermost input axis a tile divides, `window` the
    loops of the axes inside it, outermost first; None otherwise."""
    window = []
    for v in reversed(axes):
        if v is None or v == a:
            return None
        if _divisor(loops[v], [16, 8, 4]) is not None:
            return (v, window[::-1]) if window else None
        window.append(v)
    return None


def moves(mod, kernel, blocks):
    """[(name, rationale, trace)] for a layout copy, best measured first."""
    got = _shape(mod, kernel, blocks)
    if got is None:
        return []
    chain, a, b, index, axes = got
    last = blocks[-1]
    ta = _divisor(last["loops"][a], [16, 8, 4])
    tb = _divisor(last["loops"][b], [16, 8, 4])
    if ta is not None and tb is None:
        return _window_moves(chain, last, a, ta, axes)
    if ta is None or tb is None:
        return []
    rest = [f"L[{i}]" for i in range(len(last["loops"])) if i not in (a, b)]
    tiled = chain + [f'b = sch.get_sblock("{last["name"]}")', "L = sch.get_loops(b)",
                     f"ao, ai = sch.split(L[{a}], [None, {ta}])", f"bo, bi = sch.split(L[{b}], [None, {tb}])",
                     f"sch.reorder({', '.join(rest + ['bo', 'ao', 'bi', 'ai'])})"]
    local = tiled + [f'r = sch.cache_read(b, {index}, "local")', "sch.compute_at(r, ao)", "rl = sch.get_loops(r)",
                     "sch.vectorize(rl[-1])", "sch.unroll(rl[-2])", "sch.unroll(bi)", "sch.unroll(ai)"]
    row = tiled + ["sch.unroll(bi)", "sch.vectorize(ai)"]
    inlined = f"inline every block into `{last['name']}`, then " if chain else ""
    what = f"a {tb} x {ta} tile of the copy's two swapped axes at a time, so the input's rows and the output's rows are both read and written whole"
    return [
        (f"tile-transpose{tb}x{ta}-local", f"{inlined}copy {what}: the tile read into registers a vector at a time, then written out", local),
        (f"tile-transpose{tb}x{ta}", f"{inlined}copy {what}: each output row vectorized", row),
    ]


def _window_moves(chain, last, a, ta, axes):
    """The tile of a copy whose input ends in a window no tile divides."""
    got = _window(last["loops"], a, axes)
    if got is None:
        return []
    b, window = got
    tb = _divisor(last["loops"][b], [16, 8, 4])
    rest = [f"L[{i}]" for i in range(len(last["loops"])) if i not in (a, b) and i not in window]
    order = rest + ["bo", "ao"] + [f"L[{i}]" for i in window] + ["bi", "ai"]
    trace = chain + [f'b = sch.get_sblock("{last["name"]}")', "L = sch.get_loops(b)",
                     f"ao, ai = sch.split(L[{a}], [None, {ta}])", f"bo, bi = sch.split(L[{b}], [None, {tb}])",
                     f"sch.reorder({', '.join(order)})", "sch.unroll(bi)", "sch.vectorize(ai)"]
    inlined = f"inline every block into `{last['name']}`, then " if chain else ""
    extent = " x ".join(str(last["loops"][i]) for i in window)
    why = (f"{inlined}copy a {tb} x {ta} tile of two swapped axes at a time with the input's last axes ({extent}, which no tile divides) "
           "walked inside the tile, so the tile's input stays in cache while each of their positions is written, each output row vectorized")
    return [(f"tile-transpose{tb}x{ta}-window", why, trace)]
