"""GPU schedules for an elementwise map (gelu, sigmoid, silu: every output
from the input at the same place), by design.

dlight gives a map one scalar element per thread, 1024 threads per block:
on an H100, gelu over 4096x4096 took 0.070 ms, 63% of the memory roofline,
and the best sampled launch shape 0.054 ms, where PyTorch's vectorized
kernel took 0.049. PyTorch's shape is what these offer: each thread loads
and stores 4 consecutive floats at once (one 16-byte access), and handles
one or a few such groups a block-width apart, so a warp's accesses stay
contiguous. Measured on that H100 (`results/h200-carry/graph/round-c-h100/`):
gelu 0.0477 ms, sigmoid and silu 0.0479, each 1.46x to 1.48x dlight's build
and 1.02x to 1.04x PyTorch eager's speed.
"""

import math

import tvm
from tvm import s_tir

# A map over fewer outputs is launch-bound; the shape does not matter.
MIN_OUTPUTS = 1 << 16
LANES = 4
# (threads per block, groups of LANES per thread), in the order offered:
# on an H100 (gelu, sigmoid, silu) one group per thread was fastest, four
# 2% to 4% slower.
SHAPES = ((256, 1), (256, 2), (128, 4))
SPATIAL = 0


def _buffer(region):
    """The buffer a block's read or write region is of."""
    return getattr(region, "buffer", None) or getattr(region, "source", None)


def _map_shape(func, kernel):
    """(the output block's name, its element count, its last axis's extent,
    its loop count, the producers to inline, the reads to load as vectors)
    for a kernel of spatial blocks alone whose output is large enough and
    whose element type is 32-bit; None otherwise."""
    sch = s_tir.Schedule(tvm.IRModule({kernel: func}))
    sch.work_on(kernel)
    blocks = [sch.get(b) for b in sch.get_child_blocks(sch.get_sblock("root"))]
    if not blocks or any(int(iv.iter_type) != SPATIAL for b in blocks for iv in b.iter_vars):
        return None
    out = blocks[-1]
    if len(out.writes) != 1:
        return None
    if str(getattr(_buffer(out.writes[0]), "dtype", "")) not in ("float32", "int32"):
        return None
    total = math.prod(int(iv.dom.extent) for iv in out.iter_vars)
    if total < MIN_OUTPUTS:
        return None
    loops = len(sch.get_loops(sch.get_sblock(out.name_hint)))
    # Inputs read whole, element for element like the output (not a
    # broadcast row or a scalar), by index in the block's reads once the
    # producers are inlined.
    for b in blocks[:-1]:
        sch.compute_inline(sch.get_sblock(b.name_hint))
    reads = sch.get(sch.get_sblock(out.name_hint)).reads
    same = [i for i, r in enumerate(reads) if math.prod(int(x) for x in _buffer(r).shape) == total]
    return out.name_hint, total, int(out.iter_vars[-1].dom.extent), loops, [b.name_hint for b in blocks[:-1]], same


def moves(func, kernel, target):
    """Vectorized launch shapes for `kernel`: [{name, rationale, trace}]; []
    unless it is a large elementwise map."""
    del target  # the shapes fit every CUDA GPU
    found = _map_shape(func, kernel)
    if found is None:
        return []
    name, total, last, loops, producers, same_size_reads = found
    names = [f"o{i}" for i in range(loops)]
    # The groups of LANES come from the last axis alone, so each stays one
    # aligned 16-byte access; the threads and blocks walk every group of
    # the output in order (a row of 56 is 14 groups, and the next row's
    # follow), so a map whose last axis is not a multiple of the block
    # (relu over 56-wide rows) is vectorized as well.
    groups_total = total // LANES
    out = []
    for threads, groups in SHAPES:
        if last % LANES or groups_total % (threads * groups):
            continue
        lines = []
        for i, p in enumerate(producers):
            lines += [f'i{i} = sch.get_sblock("{p}")', f"sch.compute_inline(i{i})"]
        # The values are computed in registers and stored from there: a
        # vectorized loop that calls erff or expf is scalarized by TVM, so
        # the 16-byte accesses are separate copies around the computation.
        lines += [f'out = sch.get_sblock("{name}")',
                  'store = sch.cache_write(out, 0, "local")',
                  f"{', '.join(names)}, = sch.get_loops(store)" if loops == 1 else f"{', '.join(names)} = sch.get_loops(store)",
                  f"lq, v = sch.split({names[-1]}, [None, {LANES}])",
                  f"flat = sch.fuse({', '.join(names[:-1] + ['lq'])})",
                  f"bx, g, tx = sch.split(flat, [None, {groups}, {threads}])",
                  "sch.reorder(bx, tx, g, v)",
                  'sch.bind(bx, "blockIdx.x")',
                  'sch.bind(tx, "threadIdx.x")',
                  "sch.vectorize(v)",
                  "sch.compute_at(out, g)",
                  "sch.unroll(sch.get_loops(out)[-1])"]
        for i in same_size_reads:
            lines += [f'load{i} = sch.cache_read(out, {i}, "local")',
                      f"sch.compute_at(load{i}, g)",
                      f"sch.vectorize(sch.get_loops(load{i})[-1])"]
        lines.append("sch.unroll(g)")
        why = (f"{threads} threads per block, each loading and storing {groups} group(s) of {LANES} consecutive "
               f"values of `{name}` with one 16-byte access each, the groups a block-width apart (coalesced), "
               f"where dlight gives every thread one scalar")
        out.append({"name": f"map-{threads}x{groups}x{LANES}", "rationale": why, "trace": lines})
    return out
