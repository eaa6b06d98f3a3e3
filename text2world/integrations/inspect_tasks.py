"""Inspect tasks of text2world, registered through the ``inspect_ai`` entry point
(``pyproject.toml``), so ``inspect eval text2world/generation`` and
``inspect eval text2world/next_state`` (``verify``, ``propose``, ``plan``, ``problem``) find them, and the
``t2w`` model provider (``t2w/oracle``, ``t2w/noisy-oracle``).

Install with ``pip install 'text2world[inspect]'``.
"""

from text2world.integrations.inspect_generation import generation
from text2world.integrations.inspect_problem import problem
from text2world.integrations.inspect_reference import reference_provider
from text2world.integrations.inspect_wm import next_state, plan, propose, verify

__all__ = ["generation", "next_state", "plan", "problem", "propose", "reference_provider",
           "verify"]

NAMESPACE = "text2world"


def _namespace_tasks() -> None:
    """Inspect names an extension's tasks after the installed distribution it finds for their
    module; a source checkout ahead of it on the path (its own ``text2world.egg-info``) hides
    it and the tasks would be ``generation``, not ``text2world/generation``. Register them
    under the package's namespace whatever Inspect found."""
    from inspect_ai._util.registry import RegistryInfo, registry_add, registry_info

    for function in (generation, next_state, verify, propose, plan, problem):
        info = registry_info(function)
        if not info.name.startswith(f"{NAMESPACE}/"):
            registry_add(function, RegistryInfo(type=info.type, name=f"{NAMESPACE}/{info.name}",
                                                metadata=info.metadata))


_namespace_tasks()
