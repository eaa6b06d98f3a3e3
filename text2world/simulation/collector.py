"""Simulation and search with Python's cyclic garbage collector paused.

Scoring a pair allocates a million short-lived tuples and frozensets (states, atoms, search
nodes). Reference counting frees them; the cyclic collector adds nothing for them but runs
every 700 allocations, and every tenth of its young collections leads to a full one over the
whole heap, which in a process holding many golds, plans and parse trees is most of a pair's
CPU time (``bench/semantic_bench.py``: p90 0.22 s per pair with it, 0.13 s without). The
collector is therefore paused while such work runs and resumed after it, so cycles (rare here:
exception tracebacks) are collected at the end instead of during the work. Nested and
concurrent pauses (threads of the API server) are counted per thread: the collector resumes
when the last one ends, and only if it was enabled when the first one began; a forked child
keeps the count of the thread that forked.
"""

from __future__ import annotations

import gc
import os
import threading
from contextlib import contextmanager
from typing import Iterator

_LOCK = threading.Lock()
_DEPTHS: dict[int, int] = {}  # thread -> its pauses running; paused while any is running
_RESUME = False  # whether the collector was enabled when the first running pause began


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the ``with`` body with the cyclic garbage collector paused (re-entrant)."""
    global _RESUME
    me = threading.get_ident()
    with _LOCK:
        if not _DEPTHS:
            _RESUME = gc.isenabled()
            gc.disable()
        _DEPTHS[me] = _DEPTHS.get(me, 0) + 1
    try:
        yield
    finally:
        with _LOCK:
            _DEPTHS[me] -= 1
            if not _DEPTHS[me]:
                del _DEPTHS[me]
            if not _DEPTHS and _RESUME:
                gc.enable()


def _reset_in_child() -> None:
    """A forked child has only the thread that forked: the pauses of the others never end
    there, so only that thread's count is kept (it keeps its identity in the child)."""
    global _LOCK, _DEPTHS
    _LOCK = threading.Lock()
    me = threading.get_ident()
    _DEPTHS = {me: _DEPTHS[me]} if me in _DEPTHS else {}
    if not _DEPTHS and _RESUME:
        gc.enable()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_reset_in_child)

__all__ = ["collector_paused"]
