"""Task items built from the store: states along optimal plans, actions, plans and mutants.

For a problem with an optimal plan of N steps and a share ``rho``, the first
``floor((1 - rho) * N)`` steps run in the true simulator and the model handles the rest; when
two rhos give the same prefix on a short plan, only the first of them makes an item.
Next-state items also leave the plan: a labelled share of them (``origin: "off-plan"``, the
rest ``"on-plan"``) starts from the state a seeded random walk of the same number of steps
reaches in the true simulator, and asks for the walk's next random action, so a model cannot
score by knowing only the states on the way to the goal.
Everything is drawn from ``random.Random`` seeded with (seed, task, problem, rho), so the
same seed gives the same items. Items are plain JSON objects (``t2w wm build --out``).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Iterable

from text2world.errors import Text2WorldError
from text2world.simulation import GroundAction, SimulationError, Walk, atom_to_pddl
from text2world.store.datasets import Record
from text2world.tasks.wm.world import World, WorldError, world_for

TASKS = ("next-state", "verify", "verify-rollout", "propose", "plan")
RHOS = (0.25, 0.5, 0.75, 1.0)
MUTATIONS = ("drop", "swap", "argument", "truncate")
OFF_PLAN_SHARE = 0.25  # next-state items whose state comes from a random walk
# next-state items whose action is applicable but changes nothing (a static transition in
# Wang et al. 2024's sense), where the state has such an action: plans never take one
STATIC_SHARE = 0.15


class ItemError(Text2WorldError, ValueError):
    """Bad item-building options."""


@dataclass
class BuildResult:
    items: list[dict]
    skipped: list[str] = field(default_factory=list)  # problems no task can use, and why


def atoms(state: Iterable) -> list[str]:
    return [atom_to_pddl(a) for a in sorted(state)]


def prefix_length(rho: float, plan_length: int) -> int:
    """Steps run in the true simulator before the model takes over."""
    return int((1.0 - rho) * plan_length + 1e-9)


def execute(world: World, state: frozenset, steps: list[str]) -> dict:
    """Run ``steps`` from ``state``: whether every step applies and the goal then holds, and
    the first failing step (1-based) with the reason."""
    sim = world.simulator
    for number, text in enumerate(steps, 1):
        try:
            action = GroundAction.parse(text)
            missing = sim.unsatisfied(state, action)
        except (ValueError, SimulationError) as err:
            reason = getattr(err, "reason", str(err))
            return {"valid": False, "first_failing_step": number, "reason": reason,
                    "final_state": state}
        if missing:
            return {"valid": False, "first_failing_step": number,
                    "reason": f"{action}: precondition not satisfied: {', '.join(missing)}",
                    "final_state": state}
        state = sim.successor(state, action, check=False)
    reached = sim.goal_reached(state)
    return {"valid": reached, "first_failing_step": None,
            "reason": "" if reached else "every step applies but the goal is not reached",
            "final_state": state}


def _base(task: str, world: World, rho: float, k: int, seed: int,
          walk: Walk | None = None) -> dict:
    """The fields every item has; the state after ``k`` plan steps, or after the first ``k``
    steps of ``walk``."""
    problem = world.simulator.problem
    state, prefix = (world.states[k], world.plan[:k]) if walk is None else \
        (walk.states[k], walk.actions[:k])
    return {"id": f"{task}/{world.key}/r{rho:g}", "task": task, "domain": world.record.id,
            "problem": world.problem_name, "rho": rho, "prefix": k,
            "plan_length": len(world.plan), "seed": seed,
            "objects": [[o.name, o.type] for o in problem.objects],
            "goal": problem.goal.to_pddl(), "state": atoms(state),
            "prefix_plan": [str(a) for a in prefix]}


def _illegal_action(world: World, state: frozenset, rng: random.Random) -> GroundAction | None:
    """An action the state does not allow: another step of the plan, or the next step with
    one argument replaced by another object of its parameter's type."""
    sim = world.simulator
    candidates = sorted({a for a in world.plan if not sim.is_applicable(state, a)})
    for action in world.plan:
        schema = world.domain.action(action.name)
        for position, parameter in enumerate(schema.parameters if schema else ()):
            for obj in sim.objects_of_type(parameter.type):
                args = list(action.args)
                args[position] = obj
                other = GroundAction(action.name, tuple(args))
                if not sim.is_applicable(state, other):
                    candidates.append(other)
                    break
    candidates = sorted(set(candidates))
    return candidates[rng.randrange(len(candidates))] if candidates else None


def _static_action(world: World, state: frozenset, rng: random.Random) -> GroundAction | None:
    """An applicable action whose successor is the state itself, if the state has one."""
    sim = world.simulator
    options = [a for a in sim.applicable(state) if sim.successor(state, a, check=False) == state]
    return options[rng.randrange(len(options))] if options else None


def next_state_items(world: World, rho: float, seed: int, illegal_share: float,
                     off_plan_share: float = OFF_PLAN_SHARE,
                     static_share: float = STATIC_SHARE) -> list[dict]:
    """One item at step ``k`` of the plan: on it, or (a share ``off_plan_share``) after ``k``
    steps of a seeded random walk, the action then being the walk's next step; either way
    replaced by an inapplicable action for a share ``illegal_share``."""
    rng = random.Random(f"{seed}:next-state:{world.key}:{rho}")
    k = prefix_length(rho, len(world.plan))
    if k >= len(world.plan):
        return []
    # its own stream, so the on-plan items (and their illegal draws) do not depend on the share
    walk_rng = random.Random(f"{seed}:next-state-walk:{world.key}:{rho}")
    walk = None
    if walk_rng.random() < off_plan_share:
        walk = world.simulator.random_walk(k + 1, walk_rng.randrange(2 ** 32))
        if len(walk.actions) <= k:  # a dead end before step k + 1: stay on the plan
            walk = None
    state = world.states[k] if walk is None else walk.states[k]
    action = world.plan[k] if walk is None else walk.actions[k]
    item = _base("next-state", world, rho, k, seed, walk)
    if walk is not None:
        item.update(id=item["id"] + "/off-plan", origin="off-plan", walk_seed=walk.seed)
    else:
        item["origin"] = "on-plan"
    if rng.random() < illegal_share:
        illegal = _illegal_action(world, state, rng)
        if illegal is not None:
            item.update(id=item["id"] + "/illegal", action=str(illegal), applicable=False,
                        unsatisfied=list(world.simulator.unsatisfied(state, illegal)),
                        next_state=None, added=[], removed=[])
            return [item]
    after = world.states[k + 1] if walk is None else walk.states[k + 1]
    static_rng = random.Random(f"{seed}:next-state-static:{world.key}:{rho}")
    if static_rng.random() < static_share:
        unchanged = _static_action(world, state, static_rng)
        if unchanged is not None:
            action, after = unchanged, state
            item["id"] += "/static"
    item.update(action=str(action), applicable=True, next_state=atoms(after),
                added=atoms(after - state), removed=atoms(state - after))
    return [item]


def mutate(world: World, steps: list[str], kind: str, rng: random.Random) -> list[str] | None:
    """One mutant of ``steps`` of the given kind (None when the plan is too short for it)."""
    steps = list(steps)
    if kind == "drop" and steps:
        del steps[rng.randrange(len(steps))]
    elif kind == "swap":
        pairs = [(i, j) for i in range(len(steps)) for j in range(i + 1, len(steps))
                 if steps[i] != steps[j]]
        if not pairs:
            return None
        i, j = pairs[rng.randrange(len(pairs))]
        steps[i], steps[j] = steps[j], steps[i]
    elif kind == "argument":
        options = []
        for index, text in enumerate(steps):
            action = GroundAction.parse(text)
            schema = world.domain.action(action.name)
            for position, parameter in enumerate(schema.parameters if schema else ()):
                for obj in world.simulator.objects_of_type(parameter.type):
                    if obj != action.args[position]:
                        args = list(action.args)
                        args[position] = obj
                        options.append((index, str(GroundAction(action.name, tuple(args)))))
        if not options:
            return None
        index, text = options[rng.randrange(len(options))]
        steps[index] = text
    elif kind == "truncate" and steps:
        del steps[len(steps) - 1 - rng.randrange(max(1, len(steps) // 2)):]
    else:
        return None
    return steps


def verify_items(world: World, rho: float, seed: int, task: str = "verify") -> list[dict]:
    """The rest of the optimal plan (positive) and one mutant the simulator rejects; the
    same plans for ``verify-rollout`` (only the ids' task differs)."""
    rng = random.Random(f"{seed}:verify:{world.key}:{rho}")
    k = prefix_length(rho, len(world.plan))
    state = world.states[k]
    rest = [str(a) for a in world.plan[k:]]
    items = []
    positive = _base(task, world, rho, k, seed)
    positive.update(id=positive["id"] + "/pos", plan=rest, mutation="none", valid=True,
                    first_failing_step=None, reason="")
    items.append(positive)
    kinds = list(MUTATIONS)
    rng.shuffle(kinds)
    for kind in kinds:
        for _ in range(5):
            steps = mutate(world, rest, kind, rng)
            if steps is None:
                break
            outcome = execute(world, state, steps)
            if not outcome["valid"]:
                negative = _base(task, world, rho, k, seed)
                negative.update(id=negative["id"] + "/neg", plan=steps, mutation=kind,
                                valid=False, first_failing_step=outcome["first_failing_step"],
                                reason=outcome["reason"])
                items.append(negative)
                return items
    return items


def propose_items(world: World, rho: float, seed: int) -> list[dict]:
    k = prefix_length(rho, len(world.plan))
    if k >= len(world.plan):
        return []
    item = _base("propose", world, rho, k, seed)
    item.update(plan_action=str(world.plan[k]), remaining_plan=[str(a) for a in world.plan[k:]],
                optimal_remaining=world.remaining_cost(k), unit_costs=world.unit_costs)
    return [item]


def plan_items(world: World, rho: float, seed: int, step_factor: float = 2.0) -> list[dict]:
    k = prefix_length(rho, len(world.plan))
    if k >= len(world.plan):
        return []
    remaining = len(world.plan) - k
    item = _base("plan", world, rho, k, seed)
    item.update(remaining_plan=[str(a) for a in world.plan[k:]],
                optimal_remaining=world.remaining_cost(k), plan_optimal=world.optimal,
                step_limit=max(remaining + 3, int(step_factor * remaining)))
    return [item]


def build_items(task: str, records: list[Record], *, seed: int = 0,
                rhos: Iterable[float] = RHOS, illegal_share: float = 0.25,
                off_plan_share: float = OFF_PLAN_SHARE, static_share: float = STATIC_SHARE,
                problems_per_domain: int | None = None,
                planner_timeout: float = 20.0) -> BuildResult:
    """Every item of ``task`` over ``records``, in a stable order."""
    if task not in TASKS:
        raise ItemError(f"unknown task {task!r}; choose one of {', '.join(TASKS)}")
    rhos = tuple(rhos)
    bad = [r for r in rhos if not 0.0 < r <= 1.0]
    if bad or not rhos:
        raise ItemError(f"rho must be in (0, 1], got {', '.join(map(str, bad)) or 'none'}")
    if not 0.0 <= illegal_share <= 1.0:
        raise ItemError(f"the illegal-action share must be in [0, 1], not {illegal_share}")
    if not 0.0 <= off_plan_share <= 1.0:
        raise ItemError(f"the off-plan share must be in [0, 1], not {off_plan_share}")
    if not 0.0 <= static_share <= 1.0:
        raise ItemError(f"the static share must be in [0, 1], not {static_share}")
    result = BuildResult([])
    for record in records:
        problems = record.problems[:problems_per_domain] if problems_per_domain else \
            record.problems
        if not problems:
            result.skipped.append(f"{record.id}: no problems")
        for problem in problems:
            try:
                world = world_for(record, problem.name, planner_timeout)
            except WorldError as err:
                result.skipped.append(str(err))
                continue
            if not world.plan:
                result.skipped.append(f"{world.key}: the goal holds initially")
                continue
            prefixes: set[int] = set()
            for rho in rhos:
                # on a short plan two rhos can give the same prefix: one item, not a repeat
                k = prefix_length(rho, len(world.plan))
                if k in prefixes:
                    continue
                prefixes.add(k)
                if task == "next-state":
                    result.items += next_state_items(world, rho, seed, illegal_share,
                                                     off_plan_share, static_share)
                elif task in ("verify", "verify-rollout"):
                    result.items += verify_items(world, rho, seed, task)
                elif task == "propose":
                    if not world.optimal:
                        if rho == rhos[0]:
                            result.skipped.append(f"{world.key}: no optimal plan within "
                                                  f"{planner_timeout:g}s (propose needs one)")
                        continue
                    result.items += propose_items(world, rho, seed)
                else:
                    result.items += plan_items(world, rho, seed)
    return result


def train_examples(records: list[Record], count: int, seed: int,
                   exclude: Iterable[str] = ()) -> list[tuple[dict, Record]]:
    """``count`` solved next-state items of ``records`` (the train split; none of the
    ``exclude`` domains), drawn with the seed, legal and illegal actions alike."""
    skip = set(exclude)
    usable = [r for r in records if r.id not in skip and r.problems]
    pool = [(item, record) for record in usable
            for item in build_items("next-state", [record], seed=seed).items]
    rng = random.Random(f"{seed}:examples")
    rng.shuffle(pool)
    return pool[:count]
