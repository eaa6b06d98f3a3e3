"""Inspect tasks of text2world, registered through the ``inspect_ai`` entry point
(``pyproject.toml``), so ``inspect eval text2world/generation`` and
``inspect eval text2world/next_state`` (``verify``, ``propose``, ``plan``) find them.

Install with ``pip install 'text2world[inspect]'``.
"""

from text2world.integrations.inspect_generation import generation
from text2world.integrations.inspect_reference import reference_provider
from text2world.integrations.inspect_wm import next_state, plan, propose, verify

__all__ = ["generation", "next_state", "plan", "propose", "reference_provider", "verify"]
