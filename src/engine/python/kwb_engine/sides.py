"""Each module of a measurement in a process of its own.

A candidate is native code. Loaded into the process that checks and times
it, it could write into the baseline's memory (an index past the end of a
buffer is not refused before it runs), change the comparison, or leave a
thread that slows whatever runs next, the baseline's turn or a later job.
So on this machine's CPU the job's process loads no module. It forks one
child per module (a *side*), which loads it and runs it on request; the
job's process orders the runs, compares outputs and keeps the figures.

- Inputs live in memory shared by the job's process and the sides (one
  anonymous shared mapping made before the forks), so both sides read the
  very same pages, as they did in one process (where a buffer lies changes
  a kernel's speed through cache-set conflicts). The job's process compares
  them with its own private originals after every turn of a side.
- Only the side being asked runs: the other is stopped (SIGSTOP, confirmed
  by waitpid), threads and all.
- A side closes every file descriptor but its two pipes and stderr (the
  worker's reply stream to kwb is out of its reach), and confines itself
  further before it loads its module (`confine.side`): a nested Landlock
  domain (no signal or trace of the job's process or the other side, no
  file writes) and a filter that allows threads but no new process, so
  whatever it starts is stopped and killed with it.
- Replies are a JSON header and raw array bytes of a dtype from a fixed
  list: the job's process never unpickles or evaluates what a side sends.
- A side lives for one job: nothing of a candidate outlives it.

What this does not stop: native code that takes over its own side's
process can send forged replies about itself (its own times). The static
policies (no calls out of a kernel, no pointers made from integers) stand
before that, and the job's process holds every timed claim against the
wall and CPU time it saw the side take (timing.py, ACCOUNTED_FLOOR): a
forger can shave its times by at most half, and more is refused.

Elsewhere (a GPU, a board over RPC) the modules run in the job's process
as before, behind the same interface (`InProcess`).
"""

import ctypes
import json
import math
import mmap
import os
import signal
import struct
import time

import numpy as np

from . import errors
from .errors import JobError

# dtypes a side may send an array in (numpy's names).
_DTYPES = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32", "float64"}
_MAX_HEADER = 1 << 20
_MAX_ARRAY_BYTES = 1 << 33
# Classes a side's error may claim; anything else is reported as a crash.
_SIDE_CLASSES = {errors.MEMORY, errors.CRASH, errors.TIMEOUT, errors.BUILD, errors.PARALLEL}
_PAGE = mmap.PAGESIZE


def process_cpu_s(pid):
    """CPU seconds process `pid` has used (POSIX's per-process CPU clock),
    or None where it cannot be read."""
    global _LIBC
    try:
        if _LIBC is None:
            _LIBC = ctypes.CDLL(None, use_errno=True)
        clock = ctypes.c_int()
        if _LIBC.clock_getcpuclockid(pid, ctypes.byref(clock)) != 0:
            return None
        return time.clock_gettime(clock.value)
    except (OSError, AttributeError):
        return None


_LIBC = None


def _write_all(fd, data):
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _read_exact(fd, n):
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        k = os.readv(fd, [view[got:]])
        if k == 0:
            raise EOFError
        got += k
    return buf


def _c_order(a):
    # Not np.ascontiguousarray: it turns a 0-d array (a scalar output) into
    # a 1-d one.
    a = np.asarray(a)
    return a if a.flags.c_contiguous else a.copy(order="C")


def send(fd, header, arrays=()):
    arrays = [_c_order(a) for a in arrays]
    header = dict(header, arrays=[{"dtype": a.dtype.name, "shape": list(a.shape)} for a in arrays])
    body = json.dumps(header).encode()
    _write_all(fd, struct.pack("<I", len(body)) + body)
    for a in arrays:
        if a.nbytes:
            _write_all(fd, memoryview(a).cast("B"))


def recv(fd):
    """(header, arrays) from `fd`; an ill-formed message raises ValueError,
    a closed pipe EOFError."""
    (size,) = struct.unpack("<I", _read_exact(fd, 4))
    if size > _MAX_HEADER:
        raise ValueError(f"a header of {size} bytes")
    header = json.loads(bytes(_read_exact(fd, size)))
    if not isinstance(header, dict) or not isinstance(header.get("arrays", []), list):
        raise ValueError("a header that is not an object")
    arrays = []
    total = 0
    for d in header.get("arrays", []):
        dtype, shape = d.get("dtype"), d.get("shape")
        if dtype not in _DTYPES or not isinstance(shape, list) or not all(isinstance(s, int) and 0 <= s < 1 << 40 for s in shape):
            raise ValueError(f"an array described as {str(d)[:200]}")
        n = math.prod(shape) * np.dtype(dtype).itemsize
        total += n
        if total > _MAX_ARRAY_BYTES:
            raise ValueError("more array bytes than any output could hold")
        arrays.append(np.frombuffer(_read_exact(fd, n), dtype=dtype).reshape(shape) if n else np.zeros(shape, dtype))
    return header, arrays


def _same_bytes(a, b):
    a, b = _c_order(a), _c_order(b)
    return a.shape == b.shape and a.dtype == b.dtype and np.array_equal(a.reshape(-1).view(np.uint8), b.reshape(-1).view(np.uint8))


class Region:
    """The inputs, in one shared anonymous mapping, each at a page boundary."""

    def __init__(self, arrays):
        offsets, end = [], 0
        for a in arrays:
            offsets.append(end)
            end += -(-max(a.nbytes, 1) // _PAGE) * _PAGE
        self.map = mmap.mmap(-1, max(end, _PAGE))
        self.views = [np.frombuffer(self.map, dtype=a.dtype, count=a.size, offset=o).reshape(a.shape) for a, o in zip(arrays, offsets)]
        self.fill(arrays)

    def fill(self, arrays):
        for v, a in zip(self.views, arrays):
            v[...] = a

    def current(self):
        return self.views

    def tensors(self):
        import tvm

        # No copy: the module reads the shared pages themselves.
        return [tvm.runtime.from_dlpack(v) for v in self.views]


class Runner:
    """A loaded module and the requests it answers (in a side, or in the
    job's process): warm, time, run."""

    def __init__(self, on, name, artifact, tensors):
        self.on, self.name, self.args = on, name, tensors
        self.vm = on.load_vm(artifact)
        self.evaluators = {}

    def handle(self, req):
        op, fn = req.get("op"), req.get("func", "main")
        if op == "has":
            try:
                self.vm[fn]
                return {"has": True}, []
            except Exception:
                return {"has": False}, []
        try:
            if op == "warm":
                for _ in range(int(req.get("n", 1))):
                    self.vm[fn](*self.args)
                return {}, []
            if op == "time":
                key = (fn, int(req["number"]), int(req["repeat"]))
                if key not in self.evaluators:
                    self.evaluators[key] = self.vm.time_evaluator(fn, self.on.dev, number=key[1], repeat=key[2])
                results = [float(r) for r in self.evaluators[key](*self.args).results]
                # Fault injection for the job's own check (timing.py): a side
                # taken over by its candidate would report less than it ran.
                scale = req.get("fault_forge_times")
                if scale is not None and self.name == "candidate":
                    results = [r * float(scale) for r in results]
                return {"results": results}, []
            if op == "run":
                t = time.perf_counter()
                outs = [o.numpy() for o in self.on.flatten(self.vm[fn](*self.args))]
                return {"secs": time.perf_counter() - t}, outs
        except Exception as e:
            from . import device

            if self.on.kind == "rpc" and device.lost(e):  # the device went away: not the module's doing
                raise
            msg = str(e).strip().splitlines()
            msg = " ".join(msg[:3])[:2000] if msg else type(e).__name__
            who = "candidate" if self.name == "candidate" else f"the {self.name}"
            raise JobError(errors.classify_runtime_error(msg), f"{who} failed at run time: {msg}", "run")
        raise JobError(errors.INTERNAL, f"a side was asked for {op!r}", "run")


class InProcess:
    """A module run in the job's process (a GPU, a board over RPC)."""

    def __init__(self, on, name, artifact, tensors):
        self.runner = Runner(on, name, artifact, tensors)
        self.confinement = None

    def call(self, req):
        return self.runner.handle(req)

    def cpu_s(self):
        return None

    def close(self):
        pass


class Side:
    """A module in a child process of its own, stopped between requests."""

    def __init__(self, on, name, artifact, region):
        self.name = name
        self.status = None
        req_r, req_w = os.pipe()
        rep_r, rep_w = os.pipe()
        pid = os.fork()
        if pid == 0:
            code = 0
            try:
                os.close(req_w)
                os.close(rep_r)
                _serve(on, name, artifact, region, req_r, rep_w)
            except BaseException:
                code = 1
            finally:
                os._exit(code)
        os.close(req_r)
        os.close(rep_w)
        self.pid, self.req, self.rep = pid, req_w, rep_r
        try:
            header = self._reply()
        except BaseException:
            self.close()
            raise
        self.confinement = header.get("confinement")

    def call(self, req):
        if self.status is not None:  # gone already: its pid may be another's now
            self._died()
        os.kill(self.pid, signal.SIGCONT)
        try:
            send(self.req, req)
        except OSError:
            self._died()
        return self._reply(with_arrays=True)

    def cpu_s(self):
        """CPU time its process has used, all threads: the kernel's count,
        which nothing in the side can change. None once it is gone."""
        return None if self.status is not None else process_cpu_s(self.pid)

    def _reply(self, with_arrays=False):
        try:
            header, arrays = recv(self.rep)
        except EOFError:
            self._died()
        except (ValueError, RecursionError) as e:  # UnicodeDecodeError and JSONDecodeError are ValueErrors
            self.close()
            raise JobError(errors.CRASH, f"the {self.name}'s process sent an ill-formed reply ({e})", "run")
        self._stop()
        err = header.get("error")
        if err is not None:
            cls = err.get("class") if isinstance(err, dict) else None
            msg = str(err.get("message") if isinstance(err, dict) else err)[:4000]
            if self.name != "candidate" and cls in (errors.INTERNAL, errors.TASK):
                raise JobError(cls, msg, "run")
            raise JobError(cls if cls in _SIDE_CLASSES else errors.CRASH, msg, "run")
        return (header, arrays) if with_arrays else header

    def _stop(self):
        """Stopped, and known to be, before anything else runs."""
        try:
            os.kill(self.pid, signal.SIGSTOP)
            _, status = os.waitpid(self.pid, os.WUNTRACED)
        except (ProcessLookupError, ChildProcessError):
            return
        if not os.WIFSTOPPED(status):
            self.status = status

    def _died(self):
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                _, self.status = os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
        s = self.status
        if s is not None and os.WIFSIGNALED(s) and os.WTERMSIG(s) != signal.SIGKILL:
            sig = os.WTERMSIG(s)
            how = f"killed by {signal.Signals(sig).name}"
            cls = errors.TIMEOUT if sig == signal.SIGXCPU else errors.CRASH
        else:
            how = f"exited with {os.WEXITSTATUS(s)}" if s is not None and os.WIFEXITED(s) else "ended"
            cls = errors.CRASH
        self.close()
        who = "candidate" if self.name == "candidate" else self.name
        raise JobError(cls, f"the {who}'s process died while it ran ({how})", "run")

    def close(self):
        for fd in (self.req, self.rep):
            try:
                os.close(fd)
            except OSError:
                pass
        self.req = self.rep = -1
        if self.status is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            self.status = 0


def _enter_side(*keep):
    """What a forked child does before anything else to become a side:
    default signals, every descriptor closed but stdout, stderr and `keep`
    (stdin from /dev/null), death with its parent, and the side's own
    confinement. Returns what the confinement applied."""
    import ctypes

    from . import confine

    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    try:
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
    except (AttributeError, OSError):
        pass
    for fd in [int(f) for f in os.listdir("/proc/self/fd")]:
        if fd not in {0, 1, 2, *keep}:
            try:
                os.close(fd)
            except OSError:
                pass
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    # Dies with the job's process, whatever kills it.
    ctypes.CDLL(None).prctl(1, signal.SIGKILL, 0, 0, 0)
    return confine.side()


def _serve(on, name, artifact, region, req_r, rep_w):
    """A side's life: confine, load, answer until asked to exit."""
    report = _enter_side(req_r, rep_w)
    try:
        runner = Runner(on, name, artifact, region.tensors())
    except JobError as e:
        send(rep_w, {"error": e.to_json()})
        return
    send(rep_w, {"ok": True, "confinement": report})
    while True:
        req, _ = recv(req_r)
        if req.get("op") == "exit":
            return
        try:
            header, arrays = runner.handle(req)
        except JobError as e:
            header, arrays = {"error": e.to_json()}, []
        send(rep_w, header, arrays)


class Modules:
    """The modules of one job and their shared inputs."""

    def __init__(self, on, inputs):
        self.on = on
        # Kept as given (the generator's cached arrays, never written): the
        # private originals the shared copies are compared with.
        self.originals = list(inputs)
        self.separate = on.kind == "local"
        if self.separate:
            self.region = Region(self.originals)
        else:
            import tvm

            self.shared = [tvm.runtime.tensor(a.copy(), on.dev) for a in self.originals]
        self.sides = {}
        self.artifacts = {}
        # The CPU of each generation of sides (see renew).
        self.placements = []

    def add(self, name, artifact):
        self.artifacts[name] = artifact
        if self.separate:
            self.sides[name] = Side(self.on, name, artifact, self.region)
        else:
            self.sides[name] = InProcess(self.on, name, artifact, self.shared)

    def call(self, name, req):
        """(header, arrays) of one request to module `name`."""
        return self.sides[name].call(req)

    def cpu_s(self, name):
        """CPU seconds module `name`'s process has used, or None where it
        runs in this process."""
        return self.sides[name].cpu_s()

    def cpus(self):
        """The CPUs a side may be put on (none where modules run in this
        process)."""
        return sorted(os.sched_getaffinity(0)) if self.separate else []

    def renew(self, cpu):
        """Every side again in a new process, each one's main thread on
        `cpu`. Two processes running the same module on one machine can
        differ by 20% for the whole of their lives: the one that stays on
        the other core, or whose private pages (outputs, scratch) fell
        where they conflict, is slower. Pinned to one CPU together, and
        forked anew several times in a measurement, the two sides share
        the CPU, and what their pages cost shows as spread between
        generations instead of a steady bias. A module's own threads are
        left free: a parallel kernel still spreads over the other cores."""
        if not self.separate:
            return
        for name in list(self.sides):
            self.sides.pop(name).close()
            self.sides[name] = Side(self.on, name, self.artifacts[name], self.region)
        self.pin(cpu)
        self.placements.append(cpu)

    def pin(self, cpu):
        """Each side's main thread on `cpu` (see renew)."""
        for s in self.sides.values():
            if isinstance(s, Side):
                os.sched_setaffinity(s.pid, {cpu})

    def fill(self, arrays):
        """New inputs for every module (the same shapes and dtypes)."""
        self.originals = list(arrays)
        if self.separate:
            self.region.fill(self.originals)
        else:
            for t, a in zip(self.shared, self.originals):
                t.copyfrom(a)

    def changed(self):
        """Indices of the inputs that differ from what was put there."""
        now = self.region.current() if self.separate else [t.numpy() for t in self.shared]
        return [i for i, (a, b) in enumerate(zip(self.originals, now)) if not _same_bytes(a, b)]

    def isolation(self):
        return {"separate_processes": self.separate, "generations_on_cpus": self.placements,
                "confinement": {n: s.confinement for n, s in self.sides.items() if s.confinement is not None}}

    def close(self):
        for s in self.sides.values():
            s.close()
        self.sides = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def probe():
    """What a side may and may not do, tried for real from a process
    confined as a side is (doctor's `probe` job): signal its parent, start a
    process, write a file, start a thread; and whether that thread stops
    while the side is stopped, and runs again when it is continued."""
    import threading

    shared = mmap.mmap(-1, _PAGE)
    counter = np.frombuffer(shared, dtype=np.int64, count=1)
    rep_r, rep_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(rep_r)
            out = {"confinement": _enter_side(rep_w)}
            out["signal_parent"] = _tried(lambda: os.kill(os.getppid(), 0))
            out["fork"] = _tried(_fork_and_reap)
            out["write_file"] = _tried(lambda: open("side-probe.txt", "w").close())

            def count():
                while True:
                    counter[0] += 1

            out["thread"] = _tried(lambda: threading.Thread(target=count, daemon=True).start())
            send(rep_w, out)
            time.sleep(60)
        finally:
            os._exit(0)
    os.close(rep_w)
    try:
        out, _ = recv(rep_r)

        def moves(within):
            start, until = int(counter[0]), time.monotonic() + within
            while time.monotonic() < until:
                if int(counter[0]) != start:
                    return True
                time.sleep(0.01)
            return False

        out["thread_ran"] = moves(5.0)
        os.kill(pid, signal.SIGSTOP)
        os.waitpid(pid, os.WUNTRACED)
        out["stopped_thread_ran"] = moves(0.3)
        os.kill(pid, signal.SIGCONT)
        out["continued_thread_ran"] = moves(5.0)
    finally:
        os.close(rep_r)
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    return out


def _tried(action):
    try:
        action()
        return "allowed"
    except OSError as e:
        return f"denied: {e.strerror or e}"


def _fork_and_reap():
    child = os.fork()
    if child == 0:
        os._exit(0)
    os.waitpid(child, 0)
