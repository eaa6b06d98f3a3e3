"""The gold side of semantic scoring, computed once per gold: its problems parsed and planned
(``planner_front``), trajectories sampled, applicable actions and successor changes remembered.

``prepare_gold`` caches it per process (bounded in bytes), so scoring many predictions against
one gold is cheap. ``planner_inputs`` prints the texts both sides are planned from.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import Callable, Sequence

from text2world.pddl.model import Domain, parse_domain
from text2world.planning.front import planned, timeout_of
from text2world.scoring.caching import PREPARED_GOLDS_MAX_BYTES, deep_size, default_max_bytes
from text2world.scoring.semantic_results import GoldNotSimulated, SemanticSettings
from text2world.simulation import GroundAction, PlanningProblem, SimulationError, Simulator, parse_plan, parse_problem
from text2world.simulation.collector import collector_paused


@dataclass
class Trajectory:
    """Gold states to compare on, each reached from an earlier one: a path (the gold plan, a
    random walk) or the breadth-first tree of a small reachable space. ``parents[i]`` is the
    index of the state ``states[i]`` is reached from by ``actions[i]`` (None for the first)."""

    states: tuple[frozenset, ...]
    actions: tuple[GroundAction | None, ...]
    parents: tuple[int | None, ...]

    @classmethod
    def path(cls, states: Sequence[frozenset],
             actions: Sequence[GroundAction]) -> "Trajectory":
        """``actions[i]`` leads from ``states[i]`` to ``states[i + 1]``."""
        return cls(tuple(states), (None, *actions), (None, *range(len(states) - 1)))


@dataclass
class GoldProblem:
    name: str
    problem: PlanningProblem
    simulator: Simulator
    plan: tuple[GroundAction, ...] | None
    plan_note: str
    trajectories: tuple[Trajectory, ...]
    planner: str = ""                                # what found the plan
    timeout: str = ""                                # a clock that shaped the plan (timeout_of)
    applicable: dict = field(default_factory=dict)  # state -> tuple of ground actions
    changes: dict = field(default_factory=dict)     # (state, action) -> (added, deleted)
    # CPU seconds its preparation took (this thread's and the planner processes'; a plan
    # from a cache costs none): what a pair's task on this problem is expected to cost
    # relative to the others (``semantic_tasks.expected_costs``); never part of a score
    cost: float = 0.0

    def applicable_in(self, state: frozenset) -> tuple[GroundAction, ...]:
        found = self.applicable.get(state)
        if found is None:
            found = self.applicable[state] = self.simulator.applicable(state)
        return found

    def change(self, state: frozenset, action: GroundAction) -> tuple[frozenset, frozenset]:
        key = (state, action)
        found = self.changes.get(key)
        if found is None:
            after = self.simulator.successor(state, action, check=False)
            found = self.changes[key] = (after - state, state - after)
        return found


@dataclass
class GoldCache:
    """Everything about one gold that does not depend on the prediction."""

    domain: Domain
    problems: tuple[GoldProblem, ...]
    settings: SemanticSettings
    notes: tuple[str, ...]
    planner_seconds: float


# Prepared golds, least recently used first, bounded in bytes (``T2W_GOLD_CACHE_BYTES``, else
# ``PREPARED_GOLDS_MAX_BYTES``, 128 MiB: the store's golds take about 76 MB, median 0.7 MB).
# A count bound of 32 made a batch over more golds than that (a GRPO step's prompts, the
# store) prepare every gold again on each pass.
_GOLD_CACHE: OrderedDict[str, tuple[GoldCache, int]] = OrderedDict()  # (gold, bytes when cached)
# ``t2w eval`` prepares golds in a background thread (``scoring_pool.GoldPrefetch``) while
# scoring may ask for the same gold: one builds it, the other waits for it.
_CACHE_LOCK = threading.Lock()
_GOLD_BUILDING: dict[str, threading.Lock] = {}


def _reset_locks() -> None:  # a forked child never inherits a lock held by another thread
    global _CACHE_LOCK
    _CACHE_LOCK = threading.Lock()
    _GOLD_BUILDING.clear()


os.register_at_fork(after_in_child=_reset_locks)


def prepare_gold(gold: str | Domain, problems: Sequence[tuple[str, str]],
                 settings: SemanticSettings = SemanticSettings()) -> GoldCache:
    """Parse the gold's problems, plan them (``planner_front``) and sample trajectories.

    ``problems`` are ``(name, PDDL text)`` pairs. Cached per (gold, problems, settings);
    thread-safe: a gold another thread is building is waited for, not built twice.
    Raises ``GoldNotSimulated`` (a ``SimulationError``) with the reason when the gold itself
    cannot be simulated; ``semantic_score`` reports that as the verdict ``not_simulated``.
    """
    gold_text = gold if isinstance(gold, str) else gold.to_pddl()
    settings = replace(settings, prediction_planner_timeout=None)  # not the gold side's
    return _cached(_gold_key(gold_text, problems, settings),
                   lambda: _build_gold(gold, gold_text, problems, settings))


def prepare_gold_problem(gold: str | Domain, problems: Sequence[tuple[str, str]], index: int,
                         settings: SemanticSettings = SemanticSettings()) -> GoldCache:
    """``prepare_gold`` of one problem, ``problems[index]``: a ``GoldCache`` holding that
    problem only, prepared exactly as ``prepare_gold`` prepares it (its seeds depend on
    ``index``). Taken from the whole gold when this process has it; else built alone and
    cached. What scores one problem of a pair in a task of its own (``semantic_tasks``)."""
    gold_text = gold if isinstance(gold, str) else gold.to_pddl()
    settings = replace(settings, prediction_planner_timeout=None)
    whole = _gold_key(gold_text, problems, settings)
    with _CACHE_LOCK:
        found = _GOLD_CACHE.get(whole)
    if found is not None:
        cache = found[0]
        problem = cache.problems[index]
        return GoldCache(cache.domain, (problem,), cache.settings,
                         (problem.plan_note,) if problem.plan_note else (), 0.0)
    key = _gold_key(gold_text, problems, settings, index)
    return _cached(key, lambda: _build_gold(gold, gold_text, problems, settings, only=index))


def _gold_key(gold_text: str, problems: Sequence[tuple[str, str]], settings: SemanticSettings,
              index: int | None = None) -> str:
    parts = (gold_text, tuple(problems), settings) if index is None else \
        (gold_text, tuple(problems), settings, index)
    return hashlib.sha256(repr(parts).encode()).hexdigest()


def _cached(key: str, build: Callable[[], GoldCache]) -> GoldCache:
    with _CACHE_LOCK:
        if key in _GOLD_CACHE:
            _GOLD_CACHE.move_to_end(key)
            return _GOLD_CACHE[key][0]
        building = _GOLD_BUILDING.setdefault(key, threading.Lock())
    with building:
        with _CACHE_LOCK:
            if key in _GOLD_CACHE:  # built by the thread this one waited for
                _GOLD_CACHE.move_to_end(key)
                return _GOLD_CACHE[key][0]
        try:
            with collector_paused():
                cache = build()
        finally:
            with _CACHE_LOCK:
                _GOLD_BUILDING.pop(key, None)
        size, bound = deep_size(cache), default_max_bytes(PREPARED_GOLDS_MAX_BYTES)
        with _CACHE_LOCK:
            if size <= bound:
                _GOLD_CACHE[key] = (cache, size)
            total = sum(cached for _, cached in _GOLD_CACHE.values())
            while total > bound:
                total -= _GOLD_CACHE.popitem(last=False)[1][1]
    return cache


def _build_gold(gold: str | Domain, gold_text: str, problems: Sequence[tuple[str, str]],
                settings: SemanticSettings, only: int | None = None) -> GoldCache:
    """The gold side of every problem, or of ``problems[only]`` alone."""
    try:
        domain = gold if isinstance(gold, Domain) else parse_domain(gold)
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        raise GoldNotSimulated(unparsed_reason("the gold", gold, err)) from None
    if not problems:
        raise GoldNotSimulated("the gold has no problems to simulate on (pass problems)")
    prepared, notes, planner = [], [], 0.0
    interned: dict[frozenset, frozenset] = {}  # one object per distinct state of the gold
    for index, (name, text) in enumerate(problems):
        if only is not None and index != only:
            continue
        try:
            gold_problem, seconds = _gold_problem(domain, gold_text, index, name, text, settings,
                                                  interned)
        except GoldNotSimulated:
            raise
        except SimulationError as err:  # unsupported PDDL, a problem that does not fit
            raise GoldNotSimulated(f"problem {name}: {err.reason}") from None
        planner += seconds
        if gold_problem.plan_note:
            notes.append(gold_problem.plan_note)
        prepared.append(gold_problem)
    return GoldCache(domain, tuple(prepared), settings, tuple(notes), planner)


def _gold_problem(domain: Domain, gold_text: str, index: int, name: str, text: str,
                  settings: SemanticSettings,
                  interned: dict[frozenset, frozenset] | None = None) -> tuple[GoldProblem, float]:
    """One problem of the gold: parsed, planned, sampled; and the planner's seconds. A state
    met before (walks revisit states and cross the plan's) is kept as the object ``interned``
    holds for it: a third of the store golds' sampled states are repeats, and these sets are
    most of a prepared gold's bytes (``_GOLD_CACHE`` is bounded in bytes)."""
    seen: dict[frozenset, frozenset] = {} if interned is None else interned
    cpu_started = time.thread_time()
    problem = parse_problem(gold_text, text)
    simulator = Simulator(domain, problem, max_work=settings.max_work)
    start = time.perf_counter()
    # planned from the same printed texts a prediction equal to the gold produces, so
    # that such a prediction finds its plan in the planner cache
    result, planner_cpu = planned(*planner_inputs(domain, problem), settings.planner_timeout,
                                  simulator=simulator)
    seconds = time.perf_counter() - start
    plan, plan_note = None, ""
    trajectories = []
    if result.solved:
        plan = tuple(parse_plan(result.plan))
        check = simulator.validate_plan(plan)
        if not check.valid:  # never expected: the planner and the simulator disagree
            raise GoldNotSimulated(f"problem {name}: the gold's own plan fails in the "
                                   f"simulator: {check.reason}")
        states = [simulator.initial_state]
        for action in plan:
            states.append(simulator.successor(states[-1], action, check=False))
        trajectories.append(Trajectory.path(states, plan))
    else:
        plan_note = f"problem {name}: no gold plan ({result.status}: {result.message})"
    found: dict = {}  # state -> its applicable actions, as sampling computed them
    space = _reachable_tree(simulator, settings.exhaustive_states, found)
    if space is not None:  # every reachable state: no sampling needed, none missed
        trajectories.append(space)
    for walk in range(settings.walks if space is None else 0):
        seed = settings.seed * 1_000_003 + index * 1000 + walk
        w = simulator.random_walk(settings.walk_length, seed, applicable=found)
        trajectories.append(Trajectory.path(w.states, w.actions))
    trajectories = [replace(t, states=tuple(seen.setdefault(state, state) for state in t.states))
                    for t in trajectories]
    # every pair asks for the applicable actions of each sampled state (``applicable_in``):
    # those sampling computed are kept, the others are computed by the first pair
    applicable = {state: found[state] for trajectory in trajectories
                  for state in trajectory.states if state in found}
    return GoldProblem(name, problem, simulator, plan, plan_note, tuple(trajectories),
                       planner=result.planner, timeout=timeout_of(result),
                       applicable=applicable,
                       cost=time.thread_time() - cpu_started + planner_cpu), seconds


def _reachable_tree(simulator: Simulator, limit: int,
                    applicable: dict | None = None) -> Trajectory | None:
    """The breadth-first tree of every state reachable from the initial one, or None when
    there are more than ``limit`` (0: never). ``applicable``: a dict that receives each
    expanded state's applicable actions."""
    if limit <= 0:
        return None
    states = [simulator.initial_state]
    actions: list[GroundAction | None] = [None]
    parents: list[int | None] = [None]
    index = {simulator.initial_state: 0}
    for position, state in enumerate(states):  # grows while it is read
        options = simulator.applicable(state)
        if applicable is not None:
            applicable[state] = options
        for action in options:
            after = simulator.successor(state, action, check=False)
            if after not in index:
                if len(states) >= limit:
                    return None
                index[after] = len(states)
                states.append(after)
                actions.append(action)
                parents.append(position)
    return Trajectory(tuple(states), tuple(actions), tuple(parents))



_PLANNED = "planned"  # the domain name in the planners' inputs


def planner_inputs(domain: Domain, problem: PlanningProblem,
                   domain_text: str | None = None) -> tuple[str, str]:
    """Domain and problem texts for the planners (and the planner cache's key), printed from
    the models with a fixed domain name and canonical variable names: neither changes the
    planning problem, and a prediction equal to the gold up to them plans once (a faithful
    answer with its own variable names finds the gold's plans in the cache). ``domain_text``:
    ``planner_domain(domain)``, printed already."""
    typed = bool(domain.types) or ":typing" in domain.requirements
    return (domain_text if domain_text is not None else planner_domain(domain),
            problem.to_pddl(_PLANNED, typed=typed, exclude=[c.name for c in domain.constants]))


def planner_domain(domain: Domain) -> str:
    """The domain text of ``planner_inputs``."""
    return replace(domain, name=_PLANNED).to_pddl(canonical_variables=True)


def unparsed_reason(what: str, text: str | Domain, err: Exception) -> str:
    """Why a domain text does not parse, in the validator's words (no domain at all, a stray
    parenthesis, an undeclared name, with the line)."""
    from text2world.pddl.validation import classify_error

    try:
        issue = classify_error(text if isinstance(text, str) else "", err)
    except Exception:  # noqa: BLE001 - the raw error still says something
        return f"{what} does not parse: {error_reason(err)}"
    if issue.kind == "NoDomainFound":
        return f"{what} has no PDDL domain: {issue.message.removeprefix('no PDDL domain: ')}"
    where = f" (line {issue.line})" if issue.line is not None else ""
    return f"{what} does not parse{where}: {issue.message}"


def error_reason(err: Exception) -> str:
    reason = getattr(err, "reason", None) or getattr(err, "message", None) or str(err)
    return f"{type(err).__name__}: {reason}" if not isinstance(err, SimulationError) else reason


__all__ = ["GoldCache", "GoldProblem", "Trajectory", "error_reason", "planner_domain",
           "planner_inputs", "prepare_gold", "prepare_gold_problem", "unparsed_reason"]
