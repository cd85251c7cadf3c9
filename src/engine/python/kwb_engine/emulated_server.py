"""A TVM RPC server for `kwb device serve --emulate`: run by another
architecture's Python under qemu-user, with TVM's runtime for that
architecture. It serves like any board, and says it is emulated (the global
function `kwb.emulation`), so kwb checks correctness on it and refuses to
time on it.

TVM's own `rpc.Server` starts its loop in a fresh interpreter (`sys.executable`),
which qemu-user cannot exec without binfmt_misc; the loop is started in this
process instead, and each session still runs in a forked child.

    python -m kwb_engine.emulated_server HOST PORT PORT_END TRACKER_HOST:PORT KEY EMULATOR
"""

import sys

import tvm
from tvm.rpc import server


def main(argv):
    host, port, port_end, tracker, key, emulator = argv
    tracker_host, _, tracker_port = tracker.rpartition(":")

    def announce():
        tvm.register_global_func("kwb.emulation", lambda: emulator, override=True)

    server._popen_start_rpc_server(host, int(port), int(port_end), False, (tracker_host, int(tracker_port)), key,
                                   None, host, True, False, announce)
    server.PopenRPCServerState.current.thread.join()


if __name__ == "__main__":
    main(sys.argv[1:])
