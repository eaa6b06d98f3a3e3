"""Simulation and search with Python's cyclic garbage collector paused.

Scoring a pair allocates a million short-lived tuples and frozensets (states, atoms, search
nodes). Reference counting frees them; the cyclic collector adds nothing for them but runs
every 700 allocations, and every tenth of its young collections leads to a full one over the
whole heap, which in a process holding many golds, plans and parse trees is most of a pair's
CPU time (``bench/semantic_bench.py``: p90 0.22 s per pair with it, 0.13 s without). The
collector is therefore paused while such work runs and resumed after it, so cycles (rare here:
exception tracebacks) are collected at the end instead of during the work. Nested and
concurrent pauses (threads of the API server) share one count: the collector resumes when the
last one ends, and only if it was enabled when the first one began.
"""

from __future__ import annotations

import gc
import os
import threading
from contextlib import contextmanager
from typing import Iterator

_LOCK = threading.Lock()
_DEPTH = 0
_RESUME = False  # whether the collector was enabled when the outermost pause began


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the ``with`` body with the cyclic garbage collector paused (re-entrant)."""
    global _DEPTH, _RESUME
    with _LOCK:
        if _DEPTH == 0:
            _RESUME = gc.isenabled()
            gc.disable()
        _DEPTH += 1
    try:
        yield
    finally:
        with _LOCK:
            _DEPTH -= 1
            if _DEPTH == 0 and _RESUME:
                gc.enable()


def _reset_in_child() -> None:  # a forked child has only the forking thread: no pause runs
    global _DEPTH, _LOCK
    _LOCK = threading.Lock()
    if _DEPTH and _RESUME:
        gc.enable()
    _DEPTH = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_in_child)

__all__ = ["collector_paused"]
