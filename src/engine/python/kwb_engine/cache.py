"""A byte-bounded LRU for what a worker derives again and again for one task:
the generated inputs of each seed and the reference outputs with their
tolerance bounds. Agents evaluate many candidates of one task in a row, so
this keeps per-evaluation overhead off the tensor sizes. Callers always get
arrays they must not write to; candidates only ever see fresh copies.
"""

from collections import OrderedDict

_BUDGET_BYTES = 1 << 30
# A value over this share of the budget is made each time instead: holding
# it would push out everything else and, for a task near the size bound,
# keep a second copy of its largest tensors alive through a whole job.
_LARGEST_KEPT = _BUDGET_BYTES // 4
_entries = OrderedDict()
_bytes = 0


def _size(value):
    if isinstance(value, (list, tuple)):
        return sum(_size(v) for v in value)
    return getattr(value, "nbytes", 64)


def _freeze(value):
    if isinstance(value, (list, tuple)):
        for v in value:
            _freeze(v)
    elif hasattr(value, "setflags"):
        value.setflags(write=False)


def get_or_make(key, make):
    global _bytes
    if key in _entries:
        _entries.move_to_end(key)
        return _entries[key]
    value = make()
    _freeze(value)
    size = _size(value)
    if size < _LARGEST_KEPT:
        _entries[key] = value
        _bytes += size
        while _bytes > _BUDGET_BYTES and _entries:
            _, old = _entries.popitem(last=False)
            _bytes -= _size(old)
    return value
