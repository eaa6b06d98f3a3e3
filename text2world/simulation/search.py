"""Planning in-process on the compiled simulator: greedy best-first and optimal A* search.

The searches expand states with the simulator's generated enumerators (``Simulator.applicable``,
sorted) and successor functions, so a plan found here is a plan of exactly the semantics every
plan is validated against. They are bounded (expanded states, evaluated states, seconds, and
the simulator's own ``max_work`` per call) and deterministic: successors are generated in the
simulator's sorted order and ties broken first-in first-out, so the node bounds, not the clock,
decide the outcome of every problem that does not reach the time bound.

- ``greedy_search``: greedy best-first search with eager evaluation of h_FF (or h_add) over the
  grounded delete relaxation (``relaxed.RelaxedTask``), preferring successors by helpful
  actions (those in the relaxed plan) on ties. Satisficing: no claim on plan length.
- ``optimal_search``: A* with h_max (admissible and consistent) or blind (``heuristic="blind"``:
  uniform-cost, breadth-first for unit costs). Its plans are optimal: unit costs, or the
  problem's action costs when it has a ``:metric`` (what Fast Downward optimises in each case).

States the relaxation proves dead ends are pruned (sound: the relaxation over-approximates), so
exhausting the open list proves the problem unsolvable from the start state.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Callable, Iterator

from text2world.simulation.problem import GroundAction, SimulationError, WorkLimitExceeded
from text2world.simulation.relaxed import INFINITY, RelaxedTask
from text2world.simulation.simulator import Simulator


class SearchStatus(StrEnum):
    """How a search ended (``SearchResult.status``). A ``StrEnum``: each member is its string,
    so comparisons and the plan caches' JSON are unchanged."""

    SOLVED = "solved"
    UNSOLVABLE = "unsolvable"  # proved
    BOUND = "bound"  # a work bound stopped it
    UNSUPPORTED = "unsupported"


SOLVED, UNSOLVABLE, BOUND, UNSUPPORTED = (SearchStatus.SOLVED, SearchStatus.UNSOLVABLE,
                                          SearchStatus.BOUND, SearchStatus.UNSUPPORTED)


@dataclass(frozen=True)
class SearchLimits:
    """Bounds of one search. The work bounds decide the outcome: expanded and evaluated
    states, and ``max_relaxed_work``, the heuristic's work (evaluations times the ground
    actions of the relaxed problem; 0: no bound), which keeps a search on a huge relaxation
    short without a clock. ``max_seconds`` counts the CPU time of the searching thread; it is
    only a safety net, set well above what the work bounds allow, because it is not
    deterministic: a search it stops reports the bound ``seconds`` and a message starting
    with "timeout:" (``TIMEOUT``), so that what depends on it can say so."""

    max_expanded: int = 20_000
    max_evaluated: int = 50_000
    max_seconds: float = 5.0
    max_relaxed_work: int = 0

    def describe(self) -> str:
        work = f",relaxed-work<={self.max_relaxed_work}" if self.max_relaxed_work else ""
        return (f"expanded<={self.max_expanded},evaluated<={self.max_evaluated}{work},"
                f"seconds<={self.max_seconds:g}")


TIMEOUT = "timeout"  # the word that starts a message of a time-based safety net that fired


@dataclass(frozen=True)
class SearchResult:
    """``status``: solved, unsolvable (proved: every reachable state not pruned as a dead end
    was expanded), bound (``bound`` says which: expanded, evaluated, seconds, work, relaxation)
    or unsupported (``message`` says which feature)."""

    status: str
    algorithm: str
    plan: tuple[GroundAction, ...] | None = None
    cost: float | None = None
    optimal: bool = False
    expanded: int = 0
    evaluated: int = 0
    seconds: float = 0.0
    bound: str = ""
    message: str = ""
    # the grounded relaxation the search evaluated with (greedy search), for what comes after
    # it (the planner front's h^2 proof); not part of the result's value
    relaxed: RelaxedTask | None = field(default=None, compare=False, repr=False)

    @property
    def solved(self) -> bool:
        return self.status == SOLVED

    def steps(self) -> tuple[str, ...]:
        """The plan as PDDL step strings (lower case)."""
        return tuple(a.to_pddl() for a in self.plan or ())


class _Bounded(Exception):
    def __init__(self, which: str, message: str) -> None:
        super().__init__(message)
        self.which = which


class _Search:
    """Shared bookkeeping: the node table (state -> parent, action, g), the counters, the
    bounds and the plan read back from it."""

    def __init__(self, simulator: Simulator, start: frozenset | None, limits: SearchLimits,
                 algorithm: str, unit_costs: bool) -> None:
        self.sim = simulator
        self.start = simulator.initial_state if start is None else start
        self.limits = limits
        self.algorithm = algorithm
        self.unit_costs = unit_costs
        self.expanded = 0
        self.evaluated = 0
        self.began = time.thread_time()
        self.deadline = self.began + limits.max_seconds
        self.parent: dict = {self.start: (None, None, 0.0)}
        self.max_evaluated = limits.max_evaluated
        self.relaxed: RelaxedTask | None = None

    def relaxation_size(self, actions: int) -> None:
        """Bound the evaluations by the heuristic's work, ``actions`` per evaluation."""
        if self.limits.max_relaxed_work:
            self.max_evaluated = min(self.limits.max_evaluated,
                                     self.limits.max_relaxed_work // max(1, actions))

    def count_expansion(self) -> None:
        self.expanded += 1
        if self.expanded > self.limits.max_expanded:
            raise _Bounded("expanded", f"more than {self.limits.max_expanded:,} states expanded")
        if not self.expanded % 64 and time.thread_time() > self.deadline:
            raise _Bounded("seconds", f"{TIMEOUT}: more than {self.limits.max_seconds:g} CPU-s "
                           "(the safety net)")

    def count_evaluation(self) -> None:
        self.evaluated += 1
        if self.evaluated > self.max_evaluated:
            if self.max_evaluated < self.limits.max_evaluated:
                raise _Bounded("relaxed-work", f"more than {self.limits.max_relaxed_work:,} relaxed "
                               f"actions visited ({self.max_evaluated:,} states evaluated)")
            raise _Bounded("evaluated",
                           f"more than {self.limits.max_evaluated:,} states evaluated")

    def successors(self, state: frozenset) -> Iterator[tuple[GroundAction, frozenset, float]]:
        """``(action, successor, step cost)`` in the simulator's sorted order."""
        for action in self.sim.applicable(state):
            after, cost = self.sim.transition(state, action, check=False)
            yield action, after, (1.0 if self.unit_costs else cost)

    def plan_to(self, state: frozenset) -> tuple[tuple[GroundAction, ...], float]:
        steps = []
        cost = self.parent[state][2]
        while True:
            previous, action, _ = self.parent[state]
            if previous is None:
                break
            steps.append(action)
            state = previous
        return tuple(reversed(steps)), cost

    def result(self, status: str, **fields: Any) -> SearchResult:
        return SearchResult(status, self.algorithm, expanded=self.expanded,
                            evaluated=self.evaluated,
                            seconds=time.thread_time() - self.began, relaxed=self.relaxed,
                            **fields)

    def run(self, body: Callable[[], SearchResult]) -> SearchResult:
        try:
            return body()
        except _Bounded as bound:
            return self.result(BOUND, bound=bound.which, message=str(bound))
        except WorkLimitExceeded as err:
            which = "relaxation" if type(err).__name__ == "RelaxationTooLarge" else "work"
            return self.result(BOUND, bound=which, message=err.reason)
        except SimulationError as err:  # e.g. a cost term without a value in the problem
            return self.result(UNSUPPORTED, message=err.reason)


def _costs_are_units(simulator: Simulator) -> bool:
    return not simulator.problem.metric


def greedy_search(simulator: Simulator, *, start: frozenset | None = None,
                  heuristic: str = "ff", limits: SearchLimits = SearchLimits()) -> SearchResult:
    """Lazy greedy best-first search with h_FF (``heuristic="ff"``) or h_add (``"add"``).

    As LAMA's first iteration does: a successor is queued with its parent's value and evaluated
    when taken out; two queues, all successors and the preferred ones (the relaxed plan's
    actions applicable in the parent), taken in turn, the preferred one boosted by 1000 turns
    each time a better heuristic value is reached. Ties: first in, first out.
    """
    if heuristic not in ("ff", "add"):
        raise ValueError(f"greedy_search: unknown heuristic {heuristic!r} (ff or add)")
    search = _Search(simulator, start, limits, f"lazy-gbfs({heuristic}, preferred)",
                     unit_costs=True)

    def body() -> SearchResult:
        relaxed = RelaxedTask(simulator, search.start, unit_costs=True,
                              deadline=search.deadline)
        search.relaxed = relaxed
        search.relaxation_size(len(relaxed.pre))
        search.count_evaluation()
        best, preferred = relaxed.evaluate(search.start, heuristic)
        if best == INFINITY:
            return search.result(UNSOLVABLE, message="the relaxed problem cannot reach the goal")
        if simulator.goal_reached(search.start):
            return search.result(SOLVED, plan=(), cost=0.0)
        queues: tuple[list, list] = ([], [])  # all successors, preferred successors
        priority = [0, 0]  # the queue with the lower number is taken next
        counter = 0
        parent = search.parent

        def expand(state: frozenset, value: float, preferred: frozenset) -> None:
            nonlocal counter
            search.count_expansion()
            for action in simulator.applicable(state):
                counter += 1
                entry = (value, counter, state, action)
                heapq.heappush(queues[0], entry)
                if action in preferred:
                    heapq.heappush(queues[1], entry)

        expand(search.start, best, preferred)
        while queues[0] or queues[1]:
            which = 1 if queues[1] and (not queues[0] or priority[1] < priority[0]) else 0
            priority[which] += 1
            _, _, state, action = heapq.heappop(queues[which])
            after = simulator.transition(state, action, check=False)[0]
            if after in parent:
                continue
            parent[after] = (state, action, parent[state][2] + 1.0)
            if simulator.goal_reached(after):
                plan, _ = search.plan_to(after)
                return search.result(SOLVED, plan=plan, cost=_plan_cost(simulator, plan))
            search.count_evaluation()
            value, preferred = relaxed.evaluate(after, heuristic)
            if value == INFINITY:
                continue
            if value < best:
                best = value
                priority[1] -= 1000
            expand(after, value, preferred)
        return search.result(UNSOLVABLE, message="every reachable state was expanded")

    return search.run(body)


def _plan_cost(simulator: Simulator, plan: tuple[GroundAction, ...]) -> float:
    """The plan's cost in the problem's cost model (unit without a metric)."""
    if _costs_are_units(simulator):
        return float(len(plan))
    return simulator.validate_plan(plan).cost


def optimal_search(simulator: Simulator, *, start: frozenset | None = None,
                   heuristic: str = "hmax",
                   limits: SearchLimits = SearchLimits()) -> SearchResult:
    """A* with h_max (``"hmax"``) or blind (``"blind"``); a plan found is optimal."""
    if heuristic not in ("hmax", "blind"):
        raise ValueError(f"optimal_search: unknown heuristic {heuristic!r} (hmax or blind)")
    unit = _costs_are_units(simulator)
    search = _Search(simulator, start, limits, f"astar({heuristic})", unit_costs=unit)

    def body() -> SearchResult:
        relaxed = RelaxedTask(simulator, search.start, unit_costs=unit,
                              deadline=search.deadline) \
            if heuristic == "hmax" else None
        if relaxed is not None:
            search.relaxation_size(len(relaxed.pre))
        known_h: dict = {}

        def estimate(state: frozenset) -> float:
            if relaxed is None:
                return 0.0
            value = known_h.get(state)
            if value is None:
                value = known_h[state] = relaxed.evaluate(state, "max")[0]
            return value

        h = estimate(search.start)
        search.count_evaluation()
        if h == INFINITY:
            return search.result(UNSOLVABLE, message="the relaxed problem cannot reach the goal")
        counter = 0
        heap = [(h, h, counter, search.start)]
        parent = search.parent
        closed: set = set()
        while heap:
            f, h, _, state = heapq.heappop(heap)
            if state in closed:
                continue
            g = parent[state][2]
            if f > g + h:  # a stale entry: a cheaper path was found since
                continue
            if simulator.goal_reached(state):
                plan, cost = search.plan_to(state)
                return search.result(SOLVED, plan=plan, cost=cost, optimal=True)
            closed.add(state)
            search.count_expansion()
            for action, after, step in search.successors(state):
                new_g = g + step
                known = parent.get(after)
                if known is not None and known[2] <= new_g:
                    continue
                if after in closed:  # h_max is consistent: a closed state keeps its g
                    continue
                search.count_evaluation()
                value = estimate(after)
                if value == INFINITY:
                    continue
                parent[after] = (state, action, new_g)
                counter += 1
                heapq.heappush(heap, (new_g + value, value, counter, after))
        return search.result(UNSOLVABLE, message="every reachable state was expanded",
                             optimal=True)

    return search.run(body)


__all__ = ["BOUND", "SOLVED", "TIMEOUT", "UNSOLVABLE", "UNSUPPORTED", "SearchLimits", "SearchResult", "SearchStatus",
           "greedy_search", "optimal_search"]
