"""The processes of a run: descriptors of open runs closed in forked children, pool workers
that die with their parent whatever kills it, and SIGTERM/SIGHUP handled as Ctrl-C.

These are why a killed run never leaves a locked run folder or a stray worker behind: the run
lock's descriptor is close-on-exec and closed in every forked child (``register_fd``), and a
worker calls ``follow_parent`` first thing.
"""

from __future__ import annotations

import os
import time
from typing import Any

from text2world.errors import Text2WorldError

# Descriptors of open runs (lock and logs) in this process; a forked child closes its copies
# (closing a copy does not release the parent's flock: that needs every copy closed or LOCK_UN).
_RUN_FDS: set[int] = set()


def _close_run_fds_in_child() -> None:
    for fd in list(_RUN_FDS):
        try:
            os.close(fd)
        except OSError:
            pass
    _RUN_FDS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_run_fds_in_child)


def follow_parent(parent: int, poll: float = 0.5) -> None:
    """Make this child process (a pool worker) die with its parent ``parent``, whatever kills
    the parent (kill -9 of its PID alone, the OOM killer): on Linux the kernel sends SIGKILL
    (PR_SET_PDEATHSIG), and a daemon thread that watches the parent's PID covers other
    systems. Call it first thing in the child."""
    import sys
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before this process could watch it
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="t2w-follow-parent", daemon=True).start()


class Stopped(Text2WorldError):
    """A run stopped by a signal (SIGTERM, SIGHUP): finished items are kept. ``code`` is the
    exit status a shell reports for that signal (128 + its number)."""

    def __init__(self, signum: int) -> None:
        import signal

        self.signum = signum
        self.name = signal.Signals(signum).name
        self.code = 128 + signum
        super().__init__(f"stopped by {self.name}")


def run_stoppable(main) -> Any:
    """``asyncio.run(main())`` where SIGTERM and SIGHUP stop the run as Ctrl-C does.

    The signal cancels the main task, so its ``finally`` blocks run (items whose calls are done
    are still logged), then ``Stopped`` is raised. Ctrl-C raises KeyboardInterrupt as
    ``asyncio.run`` does. Off the main thread signals cannot be caught; it is a plain run."""
    import asyncio
    import signal
    import threading

    received: list[int] = []

    async def guarded():
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        installed = []
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGTERM, signal.SIGHUP):
                def stop(signum: int = signum) -> None:
                    if not received:
                        received.append(signum)
                        task.cancel()
                try:
                    loop.add_signal_handler(signum, stop)
                    installed.append(signum)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass
        try:
            return await main()
        finally:
            for signum in installed:
                loop.remove_signal_handler(signum)

    try:
        return asyncio.run(guarded())
    except asyncio.CancelledError:
        if received:
            raise Stopped(received[0]) from None
        raise



def register_fd(fd: int) -> None:
    """A run descriptor (lock or log) of this process: forked children close their copy."""
    _RUN_FDS.add(fd)


def forget_fd(fd: int) -> None:
    _RUN_FDS.discard(fd)
