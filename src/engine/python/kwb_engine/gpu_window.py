"""GPU schedules for reductions dlight leaves to its fallback.

A pooling (avg_pool2d: each output sums a 3x3 window, then divides) is a
reduction to dlight, and its general-reduction rule gives every output a
block of 256 threads to sum its 9 values: 12.8 million blocks, almost
every thread idle. On an H200 that took 12 ms for a 128x128x56x56 input
that PyTorch pools in 0.18 ms.

Where every reduction in a kernel is short (at most MAX_WINDOW values per
output), the right shape is one thread per output: the output's spatial
loops fused and split over blocks of T threads, each producer computed in
the thread that consumes it (its window summed serially, in registers),
consecutive threads writing consecutive outputs. Offered for a few block
sizes; the device's measurement chooses.

The other end: a long row reduced to one value (a max over 16384 values
per row) that dlight's reduction rule does not take (it takes sum, not
max) falls back to one thread per row, 8.5 ms for 4096 rows on the H200.
There each row gets a block: the row split over its threads, each thread
reducing a strided slice, the partial values combined across the block
(TVM's cross-thread reduction), the epilogue on one thread.
"""

import math

import tvm
from tvm import s_tir

# The longest reduction per output this family serializes in one thread.
MAX_WINDOW = 64
# Outputs below this are too few to fill a GPU with one thread each.
MIN_OUTPUTS = 1 << 15
THREADS = (256, 128, 512)
# A row at least this long is reduced by a block of threads.
MIN_ROW = 1024
ROW_THREADS = (256, 512)
SPATIAL, REDUCE = 0, 2


def _blocks(func, kernel):
    """The kernel's blocks below its root, in program order."""
    sch = s_tir.Schedule(tvm.IRModule({kernel: func}))
    sch.work_on(kernel)
    return [sch.get(b) for b in sch.get_child_blocks(sch.get_sblock("root"))]


def _shape(func, kernel):
    """(output block's name, its spatial extents, [(producer's name,
    whether it reduces)], the longest reduction), or None when this family
    does not fit the kernel."""
    blocks = _blocks(func, kernel)
    if len(blocks) < 2:
        return None
    out = blocks[-1]
    window = 1
    for b in blocks:
        kinds = {int(iv.iter_type) for iv in b.iter_vars}
        if not kinds <= {SPATIAL, REDUCE}:
            return None
        window = max(window, math.prod(int(iv.dom.extent) for iv in b.iter_vars if int(iv.iter_type) == REDUCE))
    if window == 1 or window > MAX_WINDOW:
        return None
    if any(int(iv.iter_type) == REDUCE for iv in out.iter_vars):
        return None
    spatial = [int(iv.dom.extent) for iv in out.iter_vars]
    if math.prod(spatial) < MIN_OUTPUTS:
        return None
    producers = [(b.name_hint, any(int(iv.iter_type) == REDUCE for iv in b.iter_vars)) for b in blocks[:-1]]
    return out.name_hint, spatial, producers, window


def moves(func, kernel, target, count=3):
    """Up to `count` one-thread-per-output traces for `kernel`:
    [{name, rationale, trace}]; [] where its reductions are not all short."""
    del target  # the block sizes fit every CUDA GPU
    found = _shape(func, kernel)
    if found is None:
        return []
    out_name, spatial, producers, window = found
    loops = [f"o{i}" for i in range(len(spatial))]
    out = []
    for threads in THREADS[:count]:
        if math.prod(spatial) < threads:
            continue
        lines = [f'out = sch.get_sblock("{out_name}")',
                 f"{', '.join(loops)}, = sch.get_loops(out)" if len(loops) == 1 else f"{', '.join(loops)} = sch.get_loops(out)",
                 f"f = sch.fuse({', '.join(loops)})",
                 f"bx, tx = sch.split(f, [None, {threads}])",
                 'sch.bind(bx, "blockIdx.x")',
                 'sch.bind(tx, "threadIdx.x")']
        # Elementwise producers (a padding) are inlined into their reader;
        # then each reduction, last first, is computed in the thread that
        # reads it, its result in a register (local scope).
        for i, (p, reduces) in enumerate(producers):
            if not reduces:
                lines += [f'i{i} = sch.get_sblock("{p}")', f"sch.compute_inline(i{i})"]
        for i, (p, reduces) in reversed(list(enumerate(producers))):
            if reduces:
                lines += [f'p{i} = sch.get_sblock("{p}")', f"sch.compute_at(p{i}, tx)", f'sch.set_scope(p{i}, 0, "local")']
        why = (f"one thread per output of `{out_name}` ({math.prod(spatial)} outputs, blocks of {threads}): "
               f"each thread sums its window of at most {window} values in registers, where dlight gives every output a block")
        out.append({"name": f"window-{threads}", "rationale": why, "trace": lines})
    return out


def _row_shape(func, kernel):
    """(the block's name, its spatial extents, its reduction extents) for a
    kernel that is one long reduction alone, spatial axes first; None
    otherwise."""
    blocks = _blocks(func, kernel)
    if len(blocks) != 1:
        return None
    kinds = [int(iv.iter_type) for iv in blocks[0].iter_vars]
    extents = [int(iv.dom.extent) for iv in blocks[0].iter_vars]
    if not set(kinds) <= {SPATIAL, REDUCE} or kinds != sorted(kinds) or SPATIAL not in kinds:
        return None
    rows = [e for e, k in zip(extents, kinds) if k == REDUCE]
    if math.prod(rows) < MIN_ROW:
        return None
    return blocks[0].name_hint, [e for e, k in zip(extents, kinds) if k == SPATIAL], rows


def row_moves(func, kernel, target, count=2):
    """Up to `count` block-per-row traces for `kernel`: [{name, rationale,
    trace}]; [] unless it is one long reduction alone."""
    del target
    found = _row_shape(func, kernel)
    if found is None:
        return []
    name, spatial, rows = found
    s_loops = [f"s{i}" for i in range(len(spatial))]
    r_loops = [f"r{i}" for i in range(len(rows))]
    out = []
    for threads in ROW_THREADS[:count]:
        lines = [f'red = sch.get_sblock("{name}")',
                 f"{', '.join(s_loops + r_loops)} = sch.get_loops(red)",
                 f"row = sch.fuse({', '.join(s_loops)})",
                 f"k = sch.fuse({', '.join(r_loops)})",
                 f"ko, ki = sch.split(k, [None, {threads}])",
                 'sch.bind(row, "blockIdx.x")',
                 'sch.bind(ki, "threadIdx.x")']
        why = (f"one block of {threads} threads per row of `{name}` ({math.prod(spatial)} rows of {math.prod(rows)}): "
               f"each thread reduces a strided slice, the block combines them (where dlight's rule leaves a reduction "
               f"such as max to one thread per row)")
        out.append({"name": f"rows-{threads}", "rationale": why, "trace": lines})
    return out
