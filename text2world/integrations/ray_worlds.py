"""World generation on a Ray cluster (``t2w worlds generate --ray [--ray-address A]``; the
``ray`` extra): each chunk of draws is one Ray task running ``worlds.generate.build_worlds``.
The duplicates are decided afterwards in index order as with the local pool, so the output is
the same bytes."""

from __future__ import annotations

from text2world.integrations.ray_batch import ray_session
from text2world.worlds.generate import Runner, Settings, World, build_worlds

CHUNK = 16  # draws per Ray task: a few CPU-seconds, so scheduling stays a small share


def run_on_ray(address: str | None = None, workers: int | None = None) -> Runner:
    """A ``Runner`` whose chunks of draws are Ray tasks (a local Ray with ``workers`` CPUs
    unless ``address`` names a running cluster, whose workers need text2world installed)."""

    def run(settings: Settings, jobs: list[tuple[int, int]]) -> list[World]:
        with ray_session(address, workers) as ray:
            task = ray.remote(num_cpus=1, max_retries=2)(build_worlds)
            chunks = [jobs[i:i + CHUNK] for i in range(0, len(jobs), CHUNK)]
            return [world for part in ray.get([task.remote(settings, c) for c in chunks])
                    for world in part]

    return run


__all__ = ["run_on_ray"]
