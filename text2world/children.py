"""Child processes that die with their parent: the one die-with-parent of the package.

Every process text2world starts to do work for another (the eval's scoring workers,
``engine.pool``; the API's and MCP's scoring processes, ``service.scorer``; the launcher of Fast
Downward, ``planning.fast_downward``) calls ``die_with_parent`` first thing, so that no child
outlives the process it works for, whatever kills that process (kill -9 of its PID alone, the
OOM killer): on Linux the kernel sends a signal when the parent dies (PR_SET_PDEATHSIG), and a
daemon thread that watches the parent's PID covers other systems, and a parent *thread* that
ends (the kernel's signal follows the thread that forked the child, not the process).

Standard library only, and no import of text2world: the Fast Downward launcher runs with
``python -S -I`` and carries this module's source (``source()``) in its own.
"""

import os
import signal
import sys
import threading
import time
from typing import Callable

__all__ = ["die_with_parent", "start_child", "source"]

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int, signum: int = signal.SIGKILL,
                    on_orphan: Callable[[], object] | None = None, poll: float = 0.5) -> None:
    """Make this process end when the process ``parent`` (a PID) does.

    On Linux the kernel sends ``signum`` at once; a daemon thread checks the parent's PID
    every ``poll`` seconds and then calls ``on_orphan()`` (by default ``os._exit(1)``), as it
    does at once if the parent is already gone. A ``signum`` other than SIGKILL needs a
    handler that ends the process (the Fast Downward launcher kills its process group)."""

    def orphaned() -> None:
        if on_orphan is not None:
            on_orphan()
        os._exit(1)

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, int(signum), 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before the kernel could be told
        orphaned()

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                orphaned()

    threading.Thread(target=watch, name="t2w-follow-parent", daemon=True).start()


GROUP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


def start_child(parent: int) -> None:
    """The start-up of a scoring child (the eval's pool workers, the API's scoring processes):
    Ctrl-C, SIGTERM and SIGHUP sent to the process group are the parent's to handle (it
    decides when its children stop and kills them itself: a job is never stopped half way by
    the terminal), and the child dies with ``parent``."""
    for signum in GROUP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
    die_with_parent(parent)


def source() -> str:
    """This module's text, for a process that cannot import text2world (``python -S -I``)."""
    from pathlib import Path

    return Path(__file__).read_text(encoding="utf-8")
