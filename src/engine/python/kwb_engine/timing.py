"""Paired, alternating timing of a candidate against a baseline.

Both modules are loaded into one process and measured in one session on the
same inputs (each gets its own copy). After a warm-up, each pair times the
baseline and the candidate back to back in a random order; the speedup is the
median of the per-pair ratios baseline/candidate, which cancels slow drifts
of the machine that a difference of two medians would not. A round counts
only if the ratios' spread (interquartile range over the median) is within
the stated bound; otherwise it is measured again, up to `max_rounds`.
"""

import math
import random
import time

import numpy as np
import tvm

from . import gen
from .check import load_vm


def _spread(ratios):
    q25, q50, q75 = np.percentile(ratios, [25, 50, 75])
    return float((q75 - q25) / q50) if q50 > 0 else float("inf")


def paired(args):
    """Job `time`: {baseline_artifact, candidate_artifact, args_spec, ...}."""
    dev = tvm.cpu()
    pairs = int(args.get("pairs", 15))
    min_ms = float(args.get("min_ms", 20.0))
    warmup = int(args.get("warmup", 2))
    max_spread = float(args.get("max_spread", 0.05))
    max_rounds = int(args.get("max_rounds", 3))
    order_rng = random.Random(args.get("order_seed", 0))

    vms = {"baseline": load_vm(args["baseline_artifact"]), "candidate": load_vm(args["candidate_artifact"])}
    host = gen.cached_args(int(args.get("seed", 0)), args["args_spec"])
    dev_args = {k: [tvm.runtime.tensor(a.copy(), dev) for a in host] for k in vms}

    measured_s = 0.0
    # Warm-up, then a first estimate of one run's time to size `number` so
    # that each measurement lasts at least min_ms.
    number = {}
    for k, vm in vms.items():
        t = time.perf_counter()
        for _ in range(max(warmup, 1)):
            vm["main"](*dev_args[k])
        probe = vm.time_evaluator("main", dev, number=1, repeat=3)(*dev_args[k])
        measured_s += time.perf_counter() - t
        number[k] = max(1, math.ceil(min_ms / 1e3 / max(min(probe.results), 1e-7)))
    evaluators = {k: vms[k].time_evaluator("main", dev, number=number[k], repeat=1) for k in vms}

    rounds = []
    for _ in range(max_rounds):
        samples = []
        for _ in range(pairs):
            order = ["baseline", "candidate"]
            order_rng.shuffle(order)
            ms = {}
            for k in order:
                t = time.perf_counter()
                ms[k] = evaluators[k](*dev_args[k]).mean * 1e3
                measured_s += time.perf_counter() - t
            samples.append({
                "baseline_ms": ms["baseline"],
                "candidate_ms": ms["candidate"],
                "ratio": ms["baseline"] / ms["candidate"] if ms["candidate"] > 0 else float("inf"),
                "first": order[0],
            })
        ratios = [s["ratio"] for s in samples]
        spread = _spread(ratios)
        rounds.append({"samples": samples, "spread": spread})
        if spread <= max_spread:
            break
    last = rounds[-1]
    samples = last["samples"]
    return {
        "baseline_ms": float(np.median([s["baseline_ms"] for s in samples])),
        "candidate_ms": float(np.median([s["candidate_ms"] for s in samples])),
        "speedup_median": float(np.median([s["ratio"] for s in samples])),
        "spread": last["spread"],
        "max_spread": max_spread,
        "timing_valid": last["spread"] <= max_spread,
        "rounds": len(rounds),
        "number": number,
        "samples": samples,
        "tvm_s": measured_s,
    }
