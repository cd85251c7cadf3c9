"""Paired, alternating timing of a candidate against a baseline.

Each module runs in a process of its own (sides.py), stopped while the
other is measured; both read the same shared input pages. Each timed call
is `kwb_rotate` (see rotation.py): `main` on K input sets in turn, so no
call sees the inputs of the call before it; the time of one `main` is the
call's time over K. The inputs are compared with their originals after
every turn of the candidate, and after timing the outputs of a timed call
with the baseline's on the same inputs. After a warm-up, each pair times the
baseline and the candidate back to back in a random order (each side: the
fastest of `repeat` measurements of `number` runs); the speedup is the
median of the per-pair ratios baseline/candidate, which cancels slow drifts
of the machine that a difference of two medians would not. Before the
first pair and after every GENERATION_PAIRS pairs, both sides are forked
anew and put together on the next CPU in turn (sides.Modules.renew): a
process's placement can hold one side 20% off for its whole life, and over
several generations that shows as spread instead of a bias. A round counts
only if the ratios' spread (interquartile range over the median) is within
the stated bound; otherwise it is measured again, up to `max_rounds`.
"""

import math
import random
import time

import numpy as np

from . import device, errors, gen, rotation, sides
from .check import compare
from .errors import JobError


# The fewest pairs a result rests on, whatever the time budget.
MIN_PAIRS = 5
# A candidate that took more than twice the baseline's time in every one of
# at least MIN_PAIRS pairs is settled as slower: more pairs would only
# narrow the figure of a loser. Unscheduled candidates can be 30 times
# slower than a tuned baseline (conv2d_strided in NHWC: 16 ms against 0.5),
# and measuring one to a 1% interval took 15 s of a one-minute search.
SETTLED_SLOWER = 0.5
# Pairs timed by one generation of side processes (see the module's doc).
GENERATION_PAIRS = 5
# A side reports its own times, and one taken over by its candidate could
# report less than it ran. So each timed turn is held against what the
# job's process sees itself: the turn's wall time and the CPU time the
# side's process used in it (the kernel's count), the smaller of the two
# (load on the machine stretches the first, a parallel kernel the second).
# TVM's evaluator runs one untimed call before its `number * repeat` timed
# ones; with it added, an honest claim is most of what was seen.
ACCOUNTED_FLOOR = 0.5
# Shorter turns are not judged: a pipe's round trip is a good part of them.
ACCOUNT_MIN_S = 0.002
# A candidate's turn under the floor is timed again, up to this many times
# in all, before its side is judged.
ACCOUNT_TRIES = 3


def _spread(ratios):
    q25, q50, q75 = np.percentile(ratios, [25, 50, 75])
    return float((q75 - q25) / q50) if q50 > 0 else float("inf")


def _median_ci(ratios):
    """Half-width of the ~95% confidence interval of the median, relative to
    it (the box-plot notch: 1.57 * IQR / sqrt(n))."""
    q25, q50, q75 = np.percentile(ratios, [25, 50, 75])
    if q50 <= 0:
        return float("inf")
    return float(1.57 * (q75 - q25) / math.sqrt(len(ratios)) / q50)


def paired(args):
    """Job `time`: {baseline_artifact, candidate_artifact, args_spec, device?,
    ...}; on an RPC device, measured again on another server if the first
    goes away (a pair never mixes two servers)."""
    return device.run_with_retry(args, lambda d: _paired_on(d, args))


def _paired_on(dev_handle, args):
    dev_handle.refuse_timing_if_emulated()
    spec = args["args_spec"]
    n_sets = rotation.sets_for(spec)
    # A confirmation job asks for other sets than the search-time ones.
    first = rotation.TIMING_SEED_BASE + int(args.get("input_offset", 0)) * rotation.MAX_SETS
    host = [a for j in range(n_sets) for a in gen.cached_args(first + j, spec)]
    fn = rotation.FUNC
    # Both sides read the very same input buffers (see sides.py); after every
    # turn of the candidate they are compared with their originals, so a
    # candidate that writes to them is caught before the baseline runs on them.
    with sides.Modules(dev_handle, host) as mods:
        for side in ("baseline", "candidate"):
            mods.add(side, args[f"{side}_artifact"])
            if not mods.call(side, {"op": "has", "func": fn})[0].get("has"):
                raise JobError(errors.INTERNAL, f"the {side} artifact has no `{fn}`: it was built by an older kwb; remove the baseline cache", "time")
        result = _measure(mods, fn, n_sets, spec, args)
        result["spot_check"] = _spot_check(mods, spec, n_sets, args) if not result["inputs_mutated"] else \
            {"ok": False, "checked": 0, "message": "not compared: the candidate wrote to its inputs"}
        result["isolation"] = mods.isolation()
    result["timing_valid"] = result["timing_valid"] and result["spot_check"]["ok"]
    return result


def _measure(mods, fn, n_sets, spec, args):
    pairs = int(args.get("pairs", 15))
    min_ms = float(args.get("min_ms", 10.0))
    repeat = int(args.get("repeat", 3))
    warmup = int(args.get("warmup", 2))
    max_ci = float(args.get("max_ci", 0.01))
    max_rounds = int(args.get("max_rounds", 4))
    # Measuring stops once this much time went into it and a few pairs are
    # in: a task whose reference runs for seconds still gets a result (its
    # interval says how sure it is) before the job's time limit kills it.
    budget_s = float(args.get("budget_s", 150.0))
    order_rng = random.Random(args.get("order_seed", 0))
    mutated = []
    # Claimed over seen, per side, of every judged turn; and the turn that
    # gave the candidate away, if one did.
    accounted = {"baseline": [], "candidate": []}
    forged = []
    fault = args.get("fault_forge_times")

    def turn(side, req):
        out = mods.call(side, dict(req, func=fn))[0]
        if side == "candidate" and not mutated:
            mutated.extend(sorted({i % len(spec) for i in mods.changed()}))
        return out

    def timed(side, number):
        """The results of one timed turn, its claim checked (see
        ACCOUNTED_FLOOR)."""
        req = {"op": "time", "number": number, "repeat": repeat}
        if fault is not None:
            req["fault_forge_times"] = fault
        calls = number * repeat
        for _ in range(ACCOUNT_TRIES):
            c0, t0 = mods.cpu_s(side), time.perf_counter()
            results = turn(side, req)["results"]
            wall, c1 = time.perf_counter() - t0, mods.cpu_s(side)
            # A module run in this process (a GPU's, a board's) has no side
            # to lie for it, and a device's clock is not this CPU's.
            if c0 is None or c1 is None:
                return results
            seen = min(wall, c1 - c0)
            claimed = sum(results) * number * (calls + 1) / calls
            if seen < ACCOUNT_MIN_S:
                return results
            accounted[side].append(claimed / seen)
            if claimed >= ACCOUNTED_FLOOR * seen or side != "candidate" or mutated:
                return results
        forged.append({"claimed_ms": claimed * 1e3, "seen_ms": seen * 1e3, "turns": ACCOUNT_TRIES})
        return results

    measured_s = 0.0
    cpus = mods.cpus()
    generations = 0
    # Generations take the CPUs in turn, from a random one.
    first_cpu = order_rng.randrange(len(cpus)) if cpus else 0
    if cpus:
        mods.pin(cpus[first_cpu])
    # Warm-up, then a first estimate of one run's time to size `number` so
    # that each measurement lasts at least min_ms.
    number = {}
    for k in ("baseline", "candidate"):
        t = time.perf_counter()
        turn(k, {"op": "warm", "n": max(warmup, 1)})
        probe = turn(k, {"op": "time", "number": 1, "repeat": 3})["results"]
        measured_s += time.perf_counter() - t
        number[k] = max(1, math.ceil(min_ms / 1e3 / max(min(probe), 1e-7)))

    samples = []
    spread = ci = float("inf")
    rounds = 0
    out_of_time = False
    settled_slower = False
    while rounds < max_rounds and not out_of_time and not settled_slower and not mutated and not forged:
        rounds += 1
        for _ in range(pairs):
            if measured_s > budget_s and len(samples) >= MIN_PAIRS:
                out_of_time = True
                break
            # The sides that warmed up and sized `number` time nothing: on
            # this machine the first pair of sides of a job read slow more
            # often than any later one (by up to 20%, one side or both).
            if cpus and len(samples) % GENERATION_PAIRS == 0:
                t = time.perf_counter()
                mods.renew(cpus[(first_cpu + generations) % len(cpus)])
                for k in ("baseline", "candidate"):
                    turn(k, {"op": "warm", "n": max(warmup, 1)})
                measured_s += time.perf_counter() - t
                generations += 1
            order = ["baseline", "candidate"]
            order_rng.shuffle(order)
            ms = {}
            for k in order:
                t = time.perf_counter()
                # The fastest of a few back-to-back repeats: interference from
                # the rest of the machine only ever adds time.
                ms[k] = min(timed(k, number[k])) * 1e3 / n_sets
                measured_s += time.perf_counter() - t
            samples.append({
                "baseline_ms": ms["baseline"],
                "candidate_ms": ms["candidate"],
                "ratio": ms["baseline"] / ms["candidate"] if ms["candidate"] > 0 else float("inf"),
                "first": order[0],
                "generation": generations,
            })
            if mutated or forged:
                break
            if len(samples) >= MIN_PAIRS and all(x["ratio"] < SETTLED_SLOWER for x in samples):
                settled_slower = True
                break
        if samples:
            ratios = [x["ratio"] for x in samples]
            spread = _spread(ratios)
            ci = _median_ci(ratios)
            if ci <= max_ci:
                break
    med = lambda key: float(np.median([s[key] for s in samples])) if samples else float("nan")
    return {
        "inputs_mutated": mutated,
        "forged_times": forged[0] if forged else None,
        # Claimed over seen of the judged turns, per side: the least and the median.
        "accounted": {k: {"least": round(min(v), 3), "median": round(float(np.median(v)), 3), "turns": len(v)} if v else None
                      for k, v in accounted.items()},
        "input_sets": n_sets,
        "baseline_ms": med("baseline_ms"),
        "candidate_ms": med("candidate_ms"),
        "speedup_median": med("ratio"),
        "spread": spread,
        "ci": ci,
        "max_ci": max_ci,
        "timing_valid": (ci <= max_ci or settled_slower) and not mutated and not forged,
        "rounds": rounds,
        "generations": generations,
        "out_of_time": out_of_time,
        "settled_slower": settled_slower,
        "number": number,
        "repeat": repeat,
        "samples": samples,
        "tvm_s": measured_s,
    }


def _spot_check(mods, spec, sets, args):
    """One more timed-style call on each side; the candidate's output for
    every input set must match the baseline's on the same inputs."""
    if "atol" not in args:
        return {"ok": True, "checked": 0, "message": "no tolerance given"}
    outs = {s: mods.call(s, {"op": "run", "func": rotation.FUNC})[1] for s in ("baseline", "candidate")}
    base_all, cand_all = outs["baseline"], outs["candidate"]
    if len(cand_all) != len(base_all) or len(base_all) % sets:
        return {"ok": False, "checked": 0, "message": f"{len(cand_all)} outputs over {sets} input sets, the baseline gives {len(base_all)}"}
    per = len(base_all) // sets
    checked = 0
    for j in range(sets):
        base = base_all[j * per:(j + 1) * per]
        cand = cand_all[j * per:(j + 1) * per]
        for i, (c, b) in enumerate(zip(cand, base)):
            ok, _, _, msg = compare(c, b, float(args["atol"]), float(args["rtol"]))
            checked += 1
            if not ok:
                return {"ok": False, "checked": checked, "message": f"outputs of timed runs differ from the baseline's: input set {j}, output {i}: {msg}"}
    return {"ok": True, "checked": checked, "message": ""}
