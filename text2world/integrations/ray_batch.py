"""Batch scoring on a Ray cluster (``t2w score-batch --ray [ADDRESS]``; the ``ray`` extra).

Each chunk of lines (``batch_scoring.chunks``: grouped by gold) is one Ray task running
``batch_scoring.score_chunk``; Ray reuses its worker processes, so the per-process gold caches
keep each gold prepared once per worker. Without an address a local Ray is started with
``workers`` CPUs (and stopped at the end); with one, the cluster at that address is joined (its
workers need text2world installed). Results are the chunks' lines, whatever worker ran them.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from text2world.batch_scoring import score_chunk
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


def run_on_ray(address: str | None = None, workers: int | None = None):
    """A chunk runner (``batch_scoring.ChunkRunner``) that runs each chunk as a Ray task."""

    def runner(parts: list[list[dict[str, str]]], metric: str, limit: float) -> Iterator[list[dict]]:
        with ray_session(address, workers) as ray:
            task = ray.remote(num_cpus=1, max_retries=2)(score_chunk)
            waiting = [task.remote(part, metric, limit) for part in parts]
            while waiting:
                ready, waiting = ray.wait(waiting, num_returns=1)
                yield ray.get(ready[0])

    return runner


__all__ = ["RayUnavailable", "ray_session", "run_on_ray"]
