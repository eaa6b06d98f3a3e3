"""Shared helpers of the world-model tests: small runs on the train domains."""

from __future__ import annotations

from text2world.tasks.wm import WmOptions

DOMAINS = ["blocksworld", "gripper"]


def wm_options(**changes) -> WmOptions:
    """The oracle on blocksworld and gripper, the store's own (easy) problems, two each."""
    base = dict(model="reference/oracle", domains=DOMAINS, problems_per_domain=2,
                max_concurrency=4, size="easy")
    base.update(changes)
    return WmOptions(**base)


def overall(result) -> dict:
    """A run's overall aggregate (all items)."""
    return result.summary["metrics"]["all"]["all"]
