"""Where a measuring job runs its built modules: this machine's CPU, or a
board behind a TVM RPC tracker.

A job's `device` argument names it: absent or `{"kind": "local"}` for the
local CPU, `{"kind": "rpc", "tracker": "HOST:PORT", "key": K}` for a server
the tracker hands out under K. Over RPC the artifacts are uploaded and
loaded on the server, inputs are copied there, the remote `time_evaluator`
times on the board's own clock, and outputs come back for the checks: the
same checking and timing code runs for both.

A device that goes away mid-job (the server killed, the board rebooted, the
connection dropped) raises `DeviceLost`; `run_with_retry` runs the job again
on a fresh session, which the tracker gives to a free server (the other one,
if the lost one is gone). A second loss is reported as a `device` failure,
not charged to the candidate as a wrong result.
"""

import gc
import os
import socket

import tvm

from . import errors
from .errors import JobError, first_line

# Words in TVM's errors that mean the connection or the remote process went
# away, not that the candidate computed something wrong.
_LOST_MARKS = ("RPCCode", "kShutdown", "RPCSessionTimeout", "Socket", "socket", "onnection reset", "onnection refused",
               "onnection closed", "Broken pipe", "RPCError")


class DeviceLost(Exception):
    pass


def _vm(lib, dev):
    """A Relax VM over a loaded module: the runtime's own class, so a device
    with only TVM's runtime (a GPU box, a board) runs the same code."""
    from tvm.runtime.vm import VirtualMachine

    return VirtualMachine(lib, dev)


class Local:
    kind = "local"

    def __init__(self):
        self.dev = tvm.cpu()

    def describe(self):
        return {"kind": "local"}

    def load_vm(self, artifact):
        try:
            lib = tvm.runtime.load_module(artifact)
            return _vm(lib, self.dev)
        except Exception as e:
            raise JobError(errors.BUILD, f"cannot load the built module: {e}", "load")

    def flatten(self, out):
        """The tensors of a VM result (a tensor, or nested tuples of them)."""
        if isinstance(out, (list, tuple)) or type(out).__name__ in ("Array", "ADT"):
            return [t for o in out for t in self.flatten(o)]
        return [out]

    def item(self, out, i):
        return out[i]

    def refuse_timing_if_emulated(self, what="timing"):
        pass

    def close(self):
        pass


class Cuda(Local):
    """A CUDA GPU of the machine this code runs on. Modules are built
    elsewhere (the GPU box may have only TVM's runtime); the CUDA source
    they carry is compiled when loaded (see carried.py)."""

    kind = "cuda"

    def __init__(self, index=0):
        self.index = int(index)
        self.dev = tvm.cuda(self.index)
        if not self.dev.exist:
            raise JobError(errors.DEVICE, f"no CUDA GPU {self.index} here (TVM's runtime sees none)", "device")

    def describe(self):
        return {"kind": "cuda", "index": self.index, "name": self.dev.device_name}


class Rpc:
    kind = "rpc"

    def __init__(self, spec, session_timeout_s=0):
        from tvm import rpc

        tracker = str(spec.get("tracker", ""))
        host, _, port = tracker.rpartition(":")
        self.key = str(spec.get("key", ""))
        self.tracker = tracker
        try:
            # TVM's connect_tracker retries a refused connection for a
            # minute: ask once, with a short timeout, whether anything listens.
            socket.create_connection((host, int(port)), timeout=5).close()
            client = rpc.connect_tracker(host, int(port))
            # The tracker queues a request until a server under the key is
            # free; a key with no server at all would wait for ever.
            if self.key not in (client.summary().get("queue_info") or {}):
                raise RuntimeError("no server is registered under that key")
            self.session = client.request(self.key, priority=1, session_timeout=int(session_timeout_s),
                                          max_retry=3)
        except Exception as e:
            raise JobError(errors.DEVICE, f"cannot get a server under key `{self.key}` from the RPC tracker at {tracker}: "
                           f"{first_line(e)}; is `kwb device serve` (or tvm.exec.rpc_server) running there?", "device")
        self.dev = self.session.cpu()
        self.uploaded = {}
        self.emulated = _emulation(self.session)

    def describe(self):
        d = {"kind": "rpc", "tracker": self.tracker, "key": self.key}
        if self.emulated:
            d["emulated"] = self.emulated
        return d

    def refuse_timing_if_emulated(self, what="timing"):
        if self.emulated:
            raise JobError(errors.DEVICE, f"{what} refused: the server under key `{self.key}` is emulated ({self.emulated}), so its "
                           "times would be this machine's CPU translating another's code, not the board's; correctness was "
                           "checked there, time on the board itself", "time")

    def load_vm(self, artifact):
        name = self.uploaded.get(artifact)
        try:
            if name is None:
                name = f"kwb-{len(self.uploaded)}-{os.path.basename(artifact)}"
                self.session.upload(artifact, target=name)
                self.uploaded[artifact] = name
            lib = self.session.load_module(name)
            return _vm(lib, self.dev)
        except Exception as e:
            if lost(e):
                raise DeviceLost(f"while loading the module: {first_line(e)}")
            raise JobError(errors.BUILD, f"the device cannot load the built module: {first_line(e)}", "load")

    def flatten(self, out):
        # A tuple returned by a remote function stays on the device, as a
        # handle: its items are fetched through the runtime's own functions.
        if type(out).__name__ == "RPCObjectRef":
            size = self.session.get_function("ffi.ArraySize")
            item = self.session.get_function("ffi.ArrayGetItem")
            return [t for i in range(int(size(out))) for t in self.flatten(item(out, i))]
        return Local.flatten(self, out)

    def item(self, out, i):
        if type(out).__name__ == "RPCObjectRef":
            return self.session.get_function("ffi.ArrayGetItem")(out, i)
        return out[i]

    def close(self):
        # The server is busy until the connection closes, and only then goes
        # back to the tracker: drop the session now, not at some later
        # collection (a job's traceback keeps its frames alive). The server
        # also ends it after the job's time limit (session_timeout) if a
        # reference outlives this.
        self.session = None
        self.uploaded = {}
        gc.collect()


def _emulation(session):
    """What a server started by `kwb device serve --emulate` says it runs
    under (see emulated_server.py); None for any other server."""
    try:
        return str(session.get_function("kwb.emulation")())
    except Exception:
        return None


def lost(exc):
    """Whether an exception from a remote call means the device went away."""
    if isinstance(exc, DeviceLost):
        return True
    text = f"{type(exc).__name__}: {exc}"
    return any(m in text for m in _LOST_MARKS)


def open_device(spec, session_timeout_s=0):
    if not spec or spec.get("kind", "local") == "local":
        return Local()
    if spec.get("kind") == "rpc":
        return Rpc(spec, session_timeout_s)
    if spec.get("kind") == "cuda":
        return Cuda(spec.get("index", 0))
    raise JobError(errors.TASK, f"kwb cannot measure on a `{spec.get('kind')}` device here", "device")


def run_with_retry(args, job, attempts=2):
    """`job(device)` on the job's device; over RPC, again on a fresh session
    when the device is lost. The result says how many sessions it took."""
    spec = args.get("device")
    last = None
    for attempt in range(attempts):
        device = open_device(spec, (spec or {}).get("session_timeout_s", 0))
        try:
            result = job(device)
            if device.kind != "local":
                result["device"] = dict(device.describe(), sessions=attempt + 1, lost=[last] if last else [])
            return result
        except JobError:
            raise
        except Exception as e:
            if device.kind != "rpc" or not lost(e):
                raise
            last = first_line(e)
        finally:
            device.close()
    # Lost on two servers: if the device still answers, what it ran killed
    # its server's process both times, and that is the candidate's doing.
    try:
        open_device(spec, 30).close()
    except JobError:
        raise JobError(errors.DEVICE, f"the device went away during the job and could not be reached again (last: {last}); "
                       "check the board and its server", "device")
    raise JobError(errors.CRASH, f"the candidate crashed the device's server process on two servers (last: {last})", "run")
