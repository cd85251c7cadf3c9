"""What the hardware agent reads on a carried device: the baseline's own
per-kernel times measured there, with each kernel's launch shape and
resource use, so `kwb carry report` can place every kernel against the
device's measured peaks and its occupancy and route the bottleneck.

Two halves. On the host, at pack time, `kernel_facts` reads each kernel's
launch shape from the scheduled TIR (blocks, threads per block) with its
FLOPs and bytes. On the device, `measure` times every kernel call in place
through the VM's instrument hook, and reads registers per thread and shared
memory per block from the cubin nvcc built there (`cuobjdump -res-usage`).

On a GPU a kernel's time is read from CUDA events recorded on the stream
TVM launches on (the default stream) just before and after the call, so it
is the GPU's own time with no host synchronisation in it; the runs are
queued back to back, so a kernel waits for the host only where the GPU ran
dry. Without PyTorch's CUDA (the events' provider) the device is
synchronised around each call and the host's clock read instead, which
adds the launch and the synchronisation, a few microseconds per call.
"""

import re
import statistics
import subprocess
import time


def _launch_shape(text):
    """(blocks, threads per block) of a scheduled GPU kernel's TVMScript,
    from its static thread bindings: the largest extent per axis name."""
    extents = {}
    for m in re.finditer(r'T\.thread_binding\((?:0, )?(?:T\.int(?:32|64)\()?(\d+)\)?, thread="((?:blockIdx|threadIdx)\.[xyz])"', text):
        extents[m.group(2)] = max(extents.get(m.group(2), 1), int(m.group(1)))
    blocks = threads = 1
    for tag, n in extents.items():
        if tag.startswith("blockIdx"):
            blocks *= n
        else:
            threads *= n
    return blocks, threads


def kernel_facts(args):
    """{source, stage, target} -> {kernels: [{name, blocks, threads, flops, bytes}]}
    for the module as the default pipeline schedules it (dlight on a GPU)."""
    import tvm

    from . import pipeline, profile

    target = pipeline.make_target(args["target"])
    mod = pipeline.parse_module(args["source"])
    # An L0 module is lowered and scheduled as its build will be; an L1 one is as given.
    if args.get("stage", "l0") == "l0":
        with target:
            mod = pipeline.build_pipeline(target, "l0")(mod)
    rows = []
    for name, func in pipeline.kernels_of(mod).items():
        blocks, threads = _launch_shape(func.script())
        rows.append({"name": name, "blocks": blocks, "threads": threads,
                     "flops": profile._flops_of(func), "bytes": profile._bytes_of(func)})
    return {"kernels": rows, "tvm_s": 0.0}


def resource_usage(cubin):
    """{kernel symbol: {registers, shared_bytes}} of a cubin, from cuobjdump;
    empty where the tool is missing or says nothing."""
    try:
        out = subprocess.run(["cuobjdump", "-res-usage", cubin], capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    usage, current = {}, None
    for line in out.splitlines():
        m = re.search(r"Function ([^\s:]+):", line)
        if m:
            current = m.group(1)
            continue
        if current and "REG:" in line:
            reg = re.search(r"REG:(\d+)", line)
            shared = re.search(r"SHARED:(\d+)", line)
            usage[current] = {"registers": int(reg.group(1)) if reg else None,
                              "shared_bytes": int(shared.group(1)) if shared else 0}
            current = None
    return usage


def gpu_properties():
    """What occupancy is computed from: the GPU's SM count and per-SM limits
    (from PyTorch's view of the device; Hopper's values where it has none)."""
    try:
        import torch

        p = torch.cuda.get_device_properties(0)
        get = lambda k, d: int(getattr(p, k, d) or d)  # noqa: E731
        return {"name": p.name, "sms": get("multi_processor_count", 132),
                "threads_per_sm": get("max_threads_per_multi_processor", 2048),
                "registers_per_sm": get("regs_per_multiprocessor", 65536),
                "shared_per_sm": get("shared_memory_per_multiprocessor", 233472),
                "blocks_per_sm": 32, "warp": get("warp_size", 32)}
    except Exception as e:  # no PyTorch: the profile still has its times
        return {"error": f"{type(e).__name__}: {str(e)[:200]}"}


def time_calls(vm, dev_args, sync=lambda: None, max_runs=50, seconds=0.3):
    """Wall times of every call main makes, per callee name, over at least
    three runs (more, up to `max_runs`, within `seconds`), through the VM's
    instrument hook (kwb's local profile uses it too); `sync` waits for the device around each call.
    Returns ({name: [seconds]}, runs)."""
    calls, pending = {}, {}

    def instrument(func, name, before_run, ret, *_):
        sync()
        if before_run:
            pending[name] = time.perf_counter()
        else:
            start = pending.pop(name, None)
            if start is not None:
                calls.setdefault(name, []).append(time.perf_counter() - start)
        return 0

    return calls, _runs(vm, dev_args, instrument, max_runs, seconds)


def _runs(vm, dev_args, instrument, max_runs, seconds):
    vm.set_instrument(instrument)
    runs = 0
    t = time.perf_counter()
    try:
        while runs < 3 or (runs < max_runs and time.perf_counter() - t < seconds):
            vm["main"](*dev_args)
            runs += 1
    finally:
        vm.set_instrument(None)
    return runs


def cuda_event_maker():
    """A maker of timing CUDA events, or None where PyTorch has no CUDA.
    PyTorch records them on its current stream, the legacy default stream,
    which is the one TVM's runtime launches on unless told otherwise, so
    an event pair brackets the kernel between them."""
    try:
        import torch

        if not torch.cuda.is_available():
            return None
        return lambda: torch.cuda.Event(enable_timing=True)
    except Exception:
        return None


def time_calls_with_events(vm, dev_args, make_event, sync, max_runs=50, seconds=0.3):
    """Like `time_calls`, but each call's time is the GPU's, from a pair of
    CUDA events recorded around it; the host never waits inside a run."""
    spans, pending = [], {}

    def instrument(func, name, before_run, ret, *_):
        ev = make_event()
        ev.record()
        if before_run:
            pending[name] = ev
        else:
            start = pending.pop(name, None)
            if start is not None:
                spans.append((name, start, ev))
        return 0

    runs = _runs(vm, dev_args, instrument, max_runs, seconds)
    sync()
    calls = {}
    for name, start, end in spans:
        calls.setdefault(name, []).append(start.elapsed_time(end) / 1e3)
    return calls, runs


def measure(dev, artifact, args_spec, facts, usage=None):
    """Per-kernel times of one module on `dev`, measured in place, joined
    with the host's launch facts and the cubin's resource use."""
    from . import check, gen

    vm = dev.load_vm(artifact)
    host = gen.cached_args(0, args_spec)
    _, _, dev_args = check.run_main(vm, host, dev)
    sync = getattr(dev.dev, "sync", lambda: None)
    sync()
    t = time.perf_counter()
    runs = _runs(vm, dev_args, None, max_runs=50, seconds=0.3)
    sync()
    whole_ms = (time.perf_counter() - t) / runs * 1e3

    make_event = cuda_event_maker() if dev.describe().get("kind") == "cuda" else None
    if make_event is not None:
        calls, n = time_calls_with_events(vm, dev_args, make_event, sync, max_runs=30, seconds=0.5)
        timer = "CUDA events around each call"
    else:
        calls, n = time_calls(vm, dev_args, sync, max_runs=30, seconds=0.5)
        timer = "device synchronised around each call"
    by_name = {k["name"]: k for k in facts}
    rows = []
    for name, secs in calls.items():
        if name not in by_name:
            continue
        per_run = len(secs) / n
        row = dict(by_name[name], ms=statistics.median(secs) * 1e3 * per_run, calls_per_run=per_run)
        # TVM names a kernel's device function after its PrimFunc (`NAME_kernel`,
        # `NAME_kernel_1`, ... where one PrimFunc launches several).
        own = {k: v for k, v in (usage or {}).items() if k == name + "_kernel" or k.startswith(name + "_kernel_")}
        if own:
            row["registers"] = max(v["registers"] or 0 for v in own.values())
            row["shared_bytes"] = max(v["shared_bytes"] for v in own.values())
            row["device_functions"] = len(own)
        rows.append(row)
    rows.sort(key=lambda r: -r["ms"])
    return {"kernels": rows, "whole_ms": whole_ms, "runs": n, "timer": timer}
