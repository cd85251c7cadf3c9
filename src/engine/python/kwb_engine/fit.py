"""Sizing a KernelBench file for this machine before anything is built.

KernelBench's constants are sized for large GPUs (a 4096^3 matrix multiply,
inputs of gigabytes). The import measures the model's cost on PyTorch's
meta device (cost.py) and, where it is over the budget (the untuned
reference's expected run time) or the size bound (bytes of inputs and
parameters):
  - without --fit, refuses at once, naming the values that would fit;
  - with --fit, imports with those values, recorded in task.toml.

The same goes for the operator count (--max-ops), which TVM's compile time
follows: while that is over, the constant whose halving removes the most
operators goes first (a recurrence's sequence length, not its width).

Otherwise the search halves the file's size-like integer constants, the largest
first; where halving them alone breaks the model on the meta device, every
constant holding the same value goes with them (equal constants usually
must agree: a layer's width and the input's), then all size constants at
once (sizes in a fixed ratio); where nothing works they are kept.
Batch-like constants go first, down to BATCH_FLOOR, so per-sample shapes
stay as the file has them where possible.
"""

from . import cost
from .errors import JobError, TASK

BATCH_FLOOR = 4
# Constants at or below this are structure (kernel sizes, strides, groups),
# not size, and are never changed.
SIZE_FLOOR = 16
MAX_STEPS = 64
# The default bound on a graph's operators (views aside): about three
# minutes of TVM compiling on a 2-core Zen 4 at ~45 ms an operator, well
# inside the import's 600 s job limit with PyTorch's runs and the check.
MAX_OPS = 4000


def _constants(module):
    """The module's integer constants, and tuples and lists of them (shapes, widths)."""
    out = {}
    for k, v in vars(module).items():
        if k.startswith("_") or isinstance(v, bool):
            continue
        if isinstance(v, int) or (isinstance(v, (tuple, list)) and v and all(isinstance(e, int) and not isinstance(e, bool) for e in v)):
            out[k] = v
    return out


def _slots(values):
    """{slot: int}: a name for an int, (name, i) for a tuple's element."""
    flat = {}
    for k, v in values.items():
        if isinstance(v, (tuple, list)):
            flat.update({(k, i): e for i, e in enumerate(v)})
        else:
            flat[k] = v
    return flat


def _unslot(flat, like):
    values = {}
    for k, v in like.items():
        values[k] = type(v)(flat[(k, i)] for i in range(len(v))) if isinstance(v, (tuple, list)) else flat[k]
    return values


def _batch_like(slot):
    n = (slot[0] if isinstance(slot, tuple) else slot).lower()
    return "batch" in n or n in ("n", "bs")


def _apply(module, values):
    for k, v in values.items():
        setattr(module, k, v)


class Bounds:
    """What a task may cost on this machine."""

    def __init__(self, peaks, budget_s, max_bytes, max_ops):
        self.peaks, self.budget_s, self.max_bytes, self.max_ops = peaks, budget_s, max_bytes, max_ops

    def over(self, c, secs):
        """The bounds these costs break, in words (empty when they fit)."""
        out = []
        if c["arg_bytes"] > self.max_bytes:
            out.append(f"inputs and parameters take {c['arg_bytes'] / 2**20:.1f} MiB, over the bound of {self.max_bytes / 2**20:.1f} MiB (--max-bytes)")
        if secs > self.budget_s:
            out.append(f"its untuned reference is expected to run {secs * 1e3:.0f} ms "
                       f"({c['flops'] / 1e9:.2f} GFLOP, {c['bytes_moved'] / 2**20:.0f} MiB moved), over the budget of {self.budget_s * 1e3:.0f} ms (--budget-ms)")
        if c["ops"] > self.max_ops:
            out.append(f"its graph has {c['ops']} operators, over the bound of {self.max_ops} (--max-ops; TVM's compile time grows with them)")
        return out

    def ops_over(self, c):
        return c["ops"] > self.max_ops


def _judge(module, values, torch, bounds):
    """(fits, cost, seconds) for these values, or None if the model breaks."""
    _apply(module, values)
    try:
        c = cost.measure(module, torch)
    except Exception:
        return None
    secs = cost.seconds(c, bounds.peaks) if bounds.peaks else 0.0
    return not bounds.over(c, secs), c, secs


def _fewest_ops(module, flat, original, keys, torch, bounds, ops_now, prefer=None):
    """The key among `keys` whose halving alone leaves the fewest operators,
    or None where none removes any. `prefer` (the key halved last) is taken
    at once where halving it still removes operators: each judgement runs
    the whole unrolled graph on the meta device."""
    seen = {}

    def ops_after(k):
        if k not in seen:
            trial = dict(flat)
            trial[k] = max(1, trial[k] // 2)
            judged = _judge(module, _unslot(trial, original), torch, bounds)
            seen[k] = judged[1]["ops"] if judged is not None else None
        return seen[k]

    if prefer in keys:
        ops = ops_after(prefer)
        if ops is not None and ops < ops_now:
            return prefer
    best, best_ops = None, ops_now
    for k in keys:
        ops = ops_after(k)
        if ops is not None and ops < best_ops:
            best, best_ops = k, ops
    return best


def search(module, torch, bounds, first=None):
    """Values of the module's constants that fit, or None; leaves the
    module's constants as they were. `first` is the judgement of the file's
    own values where the caller has it (each one runs the whole graph)."""
    original = _constants(module)
    flat = _slots(original)
    frozen = set()
    unroll = None
    try:
        for _ in range(MAX_STEPS):
            values = _unslot(flat, original)
            judged = first if first is not None else _judge(module, values, torch, bounds)
            first = None
            if judged is None:
                return None
            if judged[0]:
                return {k: v for k, v in values.items() if v != original[k]}
            batch = [k for k, v in flat.items() if _batch_like(k) and v > BATCH_FLOOR and k not in frozen]
            sizes = [k for k, v in flat.items() if k not in frozen and (v > SIZE_FLOOR or (_batch_like(k) and v > 1))]
            pool = batch or sizes
            if bounds.ops_over(judged[1]):
                # The graph is too big: halve what unrolls it first (a
                # sequence length), which also cuts its time, before sizes
                # that merely equal it (a width as long as the sequence).
                unroll = _fewest_ops(module, flat, original, sizes, torch, bounds, judged[1]["ops"], unroll)
                if unroll is None:
                    return None
                flat = {**flat, unroll: max(1, flat[unroll] // 2)}
                continue
            if not pool:
                return None
            top = max(flat[k] for k in pool)
            # The least change first: the constants chosen alone, then every
            # changeable constant of that value (a width the input must
            # match), then all of them at once (sizes in a ratio, such as an
            # output width that must equal a channel count).
            chosen = [k for k in pool if flat[k] == top]
            same = [k for k in sizes if flat[k] == top]
            steps = [g for i, g in enumerate((chosen, same, sizes)) if g and g not in (chosen, same, sizes)[:i]]
            for group in steps:
                trial = dict(flat)
                for k in group:
                    trial[k] = max(1, trial[k] // 2)
                if _judge(module, _unslot(trial, original), torch, bounds) is not None:
                    flat = trial
                    break
            else:
                frozen.update(chosen)
        return None
    finally:
        _apply(module, original)


def size_up(module, torch, bounds, fit):
    """Checks the file's own values and returns the constants to change
    ({} when they fit). Refuses (a `size` failure) when they do not fit and
    `fit` is off, or when nothing fits. A model the meta device cannot run
    (one that makes CPU tensors in forward) is judged on its real run."""
    judged = _judge(module, _constants(module), torch, bounds)
    if judged is None or judged[0]:
        return {}
    _, c, secs = judged
    over = bounds.over(c, secs)
    found = search(module, torch, bounds, judged)
    if found is None:
        consts = ", ".join(f"{k}={v}" for k, v in _constants(module).items())
        raise JobError(TASK, f"{'; '.join(over)}; no smaller values of its constants ({consts}) fit: shrink it with --set NAME=VALUE", "size")
    if fit:
        return found
    sets = " ".join(f"--set {k}={','.join(map(str, v)) if isinstance(v, (tuple, list)) else v}" for k, v in sorted(found.items()))
    raise JobError(TASK, f"{'; '.join(over)}: import with --fit, or with {sets}", "size")


# Growing for a device stops doubling batch-like constants here and turns to
# the sizes, as KernelBench's own GPU files do (batches of 16 to 128).
BATCH_CAP = 64


def ideal_seconds(c, device):
    """A forward pass's time at the device's peaks: the roofline's lower bound."""
    return max(c["flops"] / device["peak_flops"], c["bytes_moved"] / device["bandwidth_bytes_s"])


def grow(module, torch, bounds, device):
    """Values of the module's constants for a faster device, or {} where the
    file's own already do: sizes doubled until one forward pass would take
    at least device["min_s"] at the device's peaks (so the kernels, not the
    launches, are what is timed there), within `bounds` (bytes and operators:
    the reference outputs are recorded on this machine). Batch-like
    constants go first, up to BATCH_CAP, then every size constant at once
    (their ratios kept), then, where that is over the bounds, the equal ones
    alone. Leaves the module's constants as they were."""
    original = _constants(module)
    flat = _slots(original)
    judged = _judge(module, original, torch, bounds)
    try:
        if judged is None:
            raise JobError(TASK, "the model does not run on PyTorch's meta device with its own values, so it cannot be sized for a device: give sizes with --set", "size")
        if not judged[0]:
            # A file sized for a larger device still (KernelBench's are for
            # large GPUs): halved until it fits the bounds, as the import does.
            found = search(module, torch, bounds, judged)
            if found is None:
                raise JobError(TASK, f"{'; '.join(bounds.over(judged[1], 0.0))} with the file's own values, and no smaller ones fit: give them with --set", "size")
            return found
        for _ in range(MAX_STEPS):
            if ideal_seconds(judged[1], device) >= device["min_s"]:
                break
            batch = [k for k, v in flat.items() if _batch_like(k) and v < BATCH_CAP]
            # A batch-like name at the cap already (or a matrix's `N`) is a size.
            sizes = [k for k, v in flat.items() if k not in batch and v > SIZE_FLOOR]
            # All sizes at once keeps their ratios; near the bounds, one
            # group of equal constants at a time (the largest first) still fits.
            alone = [[k for k in sizes if flat[k] == v] for v in sorted({flat[k] for k in sizes}, reverse=True)]
            for group in (g for g in [batch, sizes, *alone] if g):
                trial = dict(flat)
                for k in group:
                    trial[k] = trial[k] * 2
                j = _judge(module, _unslot(trial, original), torch, bounds)
                if j is not None and j[0]:
                    flat, judged = trial, j
                    break
            else:
                # Nothing doubles within the bounds: the largest that fits.
                break
        values = _unslot(flat, original)
        return {k: v for k, v in values.items() if v != original[k]}
    finally:
        _apply(module, original)
