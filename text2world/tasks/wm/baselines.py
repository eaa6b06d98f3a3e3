"""Trivial strategies scored on the same items as the model, so every number has a floor.

next-state: ``copy-state`` (the action is applicable and changes nothing) and
``not-applicable`` (every action is refused). verify: ``always-valid`` and ``always-invalid``
(failing at step 1). propose: ``random-applicable`` (one applicable action drawn with a seed
from the item's id) and ``every-applicable`` (the applicable actions in sorted order, cut at
K). plan: ``random-walk`` (seeded applicable actions from the true state until the goal holds
or the step limit). Each baseline's per-item metrics are logged with the item (``baselines``)
and aggregated beside the model's (``aggregate(...)["baselines"]``).
"""

from __future__ import annotations

import random
from typing import Awaitable, Callable

from text2world.simulation.problem import parse_atom
from text2world.tasks.wm.metrics import score_next_state, score_verify
from text2world.tasks.wm.world import World

ProposalCheck = Callable[[dict, World, list[str]], Awaitable[dict]]


def _state(values: list[str]) -> set:
    return {a for a in (parse_atom(v) for v in values) if a is not None}


def next_state_baselines(item: dict, form: str) -> dict:
    copy: dict = {"applicable": True, "state": _state(item["state"]), "added": set(),
                  "removed": set()}
    refuse: dict = {"applicable": False, "state": None, "added": set(), "removed": set()}
    return {"copy-state": score_next_state(item, copy, form),
            "not-applicable": score_next_state(item, refuse, form)}


def verify_baselines(item: dict) -> dict:
    return {"always-valid": score_verify(item, {"reaches_goal": True,
                                                "first_failing_step": None}),
            "always-invalid": score_verify(item, {"reaches_goal": False,
                                                  "first_failing_step": 1})}


def applicable_actions(world: World, state: frozenset) -> list[str]:
    """The state's applicable ground actions as sorted PDDL strings."""
    return sorted(str(a) for a in world.simulator.applicable(state))


async def propose_baselines(item: dict, world: World, k: int, check: ProposalCheck) -> dict:
    """Both proposal baselines, checked like a model's proposals (``check``)."""
    state = world.states[item["prefix"]]
    actions = applicable_actions(world, state)
    rng = random.Random(f"random-applicable:{item['id']}")
    drawn = [actions[rng.randrange(len(actions))]] if actions else []
    results = {}
    for name, proposals in (("random-applicable", drawn), ("every-applicable", actions[:k])):
        metrics = await check(item, world, proposals)
        results[name] = {**metrics, "k": k, "applicable_actions": len(actions)}
    return results


def random_walk_baseline(item: dict, world: World) -> dict:
    """Seeded applicable actions from the item's true state until the goal or the limit."""
    sim = world.simulator
    rng = random.Random(f"random-walk:{item['id']}")
    state = world.states[item["prefix"]]
    cost, steps = 0.0, 0
    while steps < item["step_limit"] and not sim.goal_reached(state):
        actions = sorted(sim.applicable(state))
        if not actions:
            break
        state, step_cost = world.step_cost(state, actions[rng.randrange(len(actions))])
        cost += step_cost
        steps += 1
    success = sim.goal_reached(state)
    optimal = item["optimal_remaining"]
    return {"success": success, "declared_done": False, "steps": steps, "failed_step": None,
            "stop": "goal" if success else "step limit", "cost": cost,
            "cost_ratio": (cost / optimal) if success and optimal else None,
            "state_accuracy": None}
