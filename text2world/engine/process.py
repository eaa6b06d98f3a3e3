"""The processes of a run: descriptors of open runs closed in forked children, and
SIGTERM/SIGHUP handled as Ctrl-C.

These are why a killed run never leaves a locked run folder or a stray worker behind: the run
lock's descriptor is close-on-exec and closed in every forked child (``register_fd``), and a
worker dies with its parent (``text2world.children``, the package's one die-with-parent).
"""

from __future__ import annotations

import os
import sys
from typing import Any

from text2world.children import die_with_parent
from text2world.errors import Text2WorldError

# The name this module gave the package's one die-with-parent (``text2world.children``).
follow_parent = die_with_parent

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


class Stopped(Text2WorldError):
    """A run stopped by a signal (SIGTERM, SIGHUP): finished items are kept. ``code`` is the
    exit status a shell reports for that signal (128 + its number)."""

    def __init__(self, signum: int) -> None:
        import signal

        self.signum = signum
        self.name = signal.Signals(signum).name
        self.code = 128 + signum
        super().__init__(f"stopped by {self.name}")


# Seconds a run stopped by SIGTERM or SIGHUP has to end on its own (its finished items are
# logged as they finish) before the process exits at once: whatever is being scored (an
# answer's scoring may hold the event loop's thread), the run stops within this.
STOP_GRACE = 3.0


def _exit_after_grace(signum: int) -> None:
    import signal

    try:
        sys.stderr.write(f"\nstopped by {signal.Signals(signum).name}: the work in progress was "
                         f"abandoned after {STOP_GRACE:g} s (finished items are kept)\n")
        sys.stderr.flush()
    finally:
        os._exit(128 + signum)


def run_stoppable(main) -> Any:
    """``asyncio.run(main())`` where SIGTERM and SIGHUP stop the run as Ctrl-C does.

    The signal cancels the main task, so its ``finally`` blocks run (items whose calls are done
    are still logged), then ``Stopped`` is raised; a run that has not ended ``STOP_GRACE``
    seconds later (a scoring step holding the event loop) exits at once with the signal's
    status. The handlers are Python's, which run between any two bytecodes of the main thread,
    not the event loop's, which wait for the loop. Ctrl-C raises KeyboardInterrupt as
    ``asyncio.run`` does. Off the main thread signals cannot be caught; it is a plain run."""
    import asyncio
    import signal
    import threading

    received: list[int] = []
    timers: list[threading.Timer] = []

    async def guarded():
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None  # guarded() always runs as a task of the loop
        installed: list[tuple[signal.Signals, Any]] = []

        def stop(signum: int, _frame: Any = None) -> None:
            if received:
                return
            received.append(signum)
            timer = threading.Timer(STOP_GRACE, _exit_after_grace, (signum,))
            timer.daemon = True
            timers.append(timer)
            timer.start()
            loop.call_soon_threadsafe(task.cancel)

        if threading.current_thread() is threading.main_thread():
            for wanted in (signal.SIGTERM, signal.SIGHUP):
                try:
                    installed.append((wanted, signal.signal(wanted, stop)))
                except (OSError, RuntimeError, ValueError):
                    pass
        try:
            return await main()
        finally:
            for wanted, previous in installed:
                signal.signal(wanted, previous)

    try:
        return asyncio.run(guarded())
    except asyncio.CancelledError:
        if received:
            raise Stopped(received[0]) from None
        raise
    finally:
        for timer in timers:  # the run has ended: what follows (its summary) is not cut short
            timer.cancel()


def register_fd(fd: int) -> None:
    """A run descriptor (lock or log) of this process: forked children close their copy."""
    _RUN_FDS.add(fd)


def forget_fd(fd: int) -> None:
    _RUN_FDS.discard(fd)
