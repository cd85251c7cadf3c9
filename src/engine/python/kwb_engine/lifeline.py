"""A worker, and everything it started, dies with the kwb that started it.

kwb asks the kernel to send the worker SIGTERM when kwb dies (its
parent-death signal, set between fork and exec). A busy worker reads
nothing from kwb, so without this a killed `kwb baseline tune` leaves its
worker tuning, with MetaSchedule's builder processes, under the next run's
measurements. The worker leads its own process group (kwb starts it in a
session of its own), so the whole group is killed: the worker, the builders
and any per-job child. The same happens from a watcher thread that sees the
worker re-parented, for when the main thread is inside TVM and a Python
signal handler cannot run yet.
"""

import os
import signal
import threading
import time


def _kill_group(*_):
    os.killpg(os.getpgrp(), signal.SIGKILL)


def hold():
    """Called once at start, after confinement (it starts a thread). A
    worker that is not its group's leader (run by hand from a shell) is
    left alone: killing its group would kill the shell's jobs."""
    if os.getpgrp() != os.getpid():
        return
    parent = os.getppid()
    signal.signal(signal.SIGTERM, _kill_group)

    def watch():
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                _kill_group()

    threading.Thread(target=watch, name="kwb-lifeline", daemon=True).start()
