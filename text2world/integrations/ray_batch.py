"""Batch scoring on a Ray cluster (``t2w score-batch --ray [ADDRESS]``; the ``ray`` extra).

Ray's workers are the pool processes of ``batch_scoring.pool_scoring``, as the local pool's
are: each set up once by ``batch_scoring.pool_process_init`` (answers scored in it, its memory
bounded), each chunk of lines (``batch_scoring.chunks``: grouped by gold) a Ray task scored up
to the semantic comparison, then each answer's comparison cut per gold problem, one task per
problem, the batch's longest expected first, merged per line; a task whose worker died (past
its CPU or memory bound) is lost, not retried, and its line scored whole, then here. Ray
reuses its worker processes, so the per-process gold caches keep each gold prepared once per
worker. Without an address a local Ray is started with ``workers`` CPUs (and stopped at the
end); with one, the cluster at that address is joined (its workers need text2world
installed). Results are the local pool's lines, whatever worker ran them.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Callable, Iterator

from text2world.batch_scoring import (
    Call,
    CallRunner,
    Outcome,
    ProcessLost,
    pool_process_init,
    pool_scoring,
)
from text2world.errors import Text2WorldError


class RayUnavailable(Text2WorldError, RuntimeError):
    """Ray is not installed, or the cluster cannot be reached; the message says what to do."""


def _ray():
    try:
        import ray
    except ImportError:
        raise RayUnavailable("--ray needs Ray: pip install 'text2world[ray]'") from None
    return ray


@contextmanager
def ray_session(address: str | None = None, workers: int | None = None) -> Iterator[Any]:
    """Ray, joined at ``address`` or started locally with ``workers`` CPUs (stopped at the end
    when started here); ``RayUnavailable`` when it cannot be."""
    ray = _ray()
    started = not ray.is_initialized()
    if started:
        try:
            if address:
                ray.init(address=address, log_to_driver=False)
            else:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
        except Exception as err:  # noqa: BLE001 - ConnectionError, RuntimeError, ...
            raise RayUnavailable(f"cannot start or join Ray at {address or 'a local cluster'}: "
                                 f"{type(err).__name__}: {err}") from None
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


_SET_UP = [False]  # this Ray worker has been made a pool process


def in_ray_worker(memory_mb: int, function: Callable, *args: Any) -> Any:
    """``function(*args)`` in a Ray worker made a pool process first (once per process:
    ``batch_scoring.pool_process_init``, as the local pool's initializer)."""
    if not _SET_UP[0]:
        pool_process_init(memory_mb)
        _SET_UP[0] = True
    return function(*args)


def ray_calls(ray: Any) -> CallRunner:
    """A ``batch_scoring.CallRunner`` on Ray: each call a task of one CPU, never retried (a
    task that killed its worker would again); a task whose worker or node died is lost."""
    from text2world.bounded import memory_limit_mb

    task = ray.remote(num_cpus=1, max_retries=0)(in_ray_worker)
    memory_mb = memory_limit_mb()

    def run(calls: list[Call]) -> Iterator[Outcome]:
        keys = {task.remote(memory_mb, function, *args): key for function, args, key in calls}
        waiting = list(keys)
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            if waiting:  # and every other that has ended (one wait per task: quadratic)
                more, waiting = ray.wait(waiting, num_returns=len(waiting), timeout=0)
                ready += more
            for ref in ready:
                try:
                    yield keys[ref], ray.get(ref), None
                except ray.exceptions.RayTaskError as err:  # the function raised
                    yield keys[ref], None, err
                except ray.exceptions.RayError as err:  # its worker, node or result lost
                    yield keys[ref], None, ProcessLost(f"a Ray worker died: "
                                                       f"{type(err).__name__}")

    return run


def run_on_ray(address: str | None = None, workers: int | None = None):
    """A chunk runner (``batch_scoring.ChunkRunner``) scoring on Ray's workers as the local
    pool scores on its processes (``batch_scoring.pool_scoring``)."""

    def runner(parts: list[list[dict[str, str]]], metric: str, limit: float) -> Iterator[list[dict]]:
        with ray_session(address, workers) as ray:
            yield from pool_scoring(parts, metric, limit, ray_calls(ray))

    return runner


__all__ = ["RayUnavailable", "in_ray_worker", "ray_calls", "ray_session", "run_on_ray"]
