"""PyTorch eager on this machine: the yardstick a user holds kwb's kernels
against. Runs the task's own model.py (with the sizes its import recorded)
the way KernelBench does, `Model(*get_init_inputs())(*get_inputs())`, on the
same cores and thread count TVM's runtime uses, and reports the median time
per call.

Timed like a candidate: every call in a round sees another input set than
the call before it (K sets drawn from the file's own get_inputs), a round's
time is divided by K, and the figure is the median over rounds."""

import time

from . import errors, machine
from .errors import JobError

INPUT_SETS = 4


def _threads(args):
    """TVM's own thread count, so both sides get the same cores."""
    return int(args.get("threads") or machine.tvm_threads())


def eager(args):
    t0 = time.perf_counter()
    try:
        import torch
    except ImportError:
        raise JobError(errors.TASK, "PyTorch is not in the engine environment; run `kwb engine setup --with-torch` (about 6 GB) to time PyTorch eager beside kwb", "eager")
    from .importer import _load_model_file

    threads = _threads(args)
    torch.set_num_threads(threads)
    module = _load_model_file(args["model"], args.get("overrides"))
    min_rounds = int(args.get("min_rounds", 10))
    max_rounds = int(args.get("max_rounds", 200))
    budget_s = float(args.get("budget_s", 2.0))
    with torch.inference_mode():
        torch.manual_seed(0)
        try:
            model = module.Model(*module.get_init_inputs()).eval()
            sets = []
            for i in range(INPUT_SETS):
                torch.manual_seed(1 + i)
                sets.append(module.get_inputs())
            for s in sets:  # warm-up: first-call allocations, kernel selection
                model(*s)
        except Exception as e:
            raise JobError(errors.TASK, f"{args['model']} does not run in PyTorch: {type(e).__name__}: {str(e)[:400]}", "eager")
        per_call = []
        start = time.perf_counter()
        while len(per_call) < max_rounds and (len(per_call) < min_rounds or time.perf_counter() - start < budget_s):
            t = time.perf_counter()
            for s in sets:
                model(*s)
            per_call.append((time.perf_counter() - t) / len(sets))
    per_call.sort()
    n = len(per_call)
    median = per_call[n // 2] if n % 2 else (per_call[n // 2 - 1] + per_call[n // 2]) / 2
    iqr = per_call[(3 * n) // 4] - per_call[n // 4]
    return {
        "ms": median * 1e3,
        "spread": iqr / median if median > 0 else None,
        "rounds": n,
        "input_sets": len(sets),
        "threads": threads,
        "torch": torch.__version__,
        "tvm_s": time.perf_counter() - t0,
    }
