"""One problem of the store as the world the tasks run in: the simulator, an optimal plan,
the states along it, optimal remaining costs, and planner calls from any state.

Costs: with a ``:metric`` the problem's action costs, otherwise one per step (what Fast
Downward optimises in each case).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from text2world.errors import Text2WorldError
from text2world.pddl.model import Domain, parse_domain
from text2world.simulation import GroundAction, SimulationError, Simulator, parse_problem
from text2world.store.datasets import Record
from text2world.store.plans import shipped_plan
from text2world.tasks.wm.generators import WITNESS_PLANS, rename_tokens
from text2world.tasks.wm.planner import OptimalPlan, optimal_plan, state_problem_text
from text2world.tasks.wm.shipped_keys import shipped_key, state_hash


class WorldError(Text2WorldError, ValueError):
    """A problem the tasks cannot use (no parse, no plan, plan rejected by the simulator)."""


@dataclass
class World:
    record: Record
    problem_name: str
    problem_text: str
    domain: Domain
    simulator: Simulator
    plan: tuple[GroundAction, ...]
    states: tuple[frozenset, ...]  # states[i] before plan[i]; states[-1] satisfies the goal
    step_costs: tuple[float, ...]
    planner_timeout: float = 20.0
    optimal: bool = True  # False: the optimal search ran out of time; LAMA's plan is used
    _remaining: dict = field(default_factory=dict, repr=False)
    _key: dict | None = field(default=None, repr=False)  # the shipped answer key, once read

    @property
    def key(self) -> str:
        return f"{self.record.id}/{self.problem_name}"

    @property
    def unit_costs(self) -> bool:
        return not self.simulator.problem.metric

    def step_cost(self, state: frozenset, action: GroundAction) -> tuple[frozenset, float]:
        """(successor, cost of the step) in this world's cost model."""
        successor, cost = self.simulator.transition(state, action)
        return successor, (1.0 if self.unit_costs else cost)

    def remaining_cost(self, index: int) -> float:
        """Optimal cost from ``states[index]`` (a suffix of an optimal plan is optimal)."""
        return float(sum(self.step_costs[index:]))

    def known_cost(self, state: frozenset) -> tuple[bool, float | None]:
        """(known, optimal cost from ``state``) without calling the planner: states along the
        plan, goal states and earlier planner answers."""
        for index, known in enumerate(self.states if self.optimal else ()):
            if known == state:
                return True, self.remaining_cost(index)
        if self.simulator.goal_reached(state):
            return True, 0.0
        if state in self._remaining:
            return True, self._remaining[state]
        return False, None

    def keyed_cost(self, state: frozenset, action: GroundAction,
                   successor: frozenset) -> tuple[bool, float | None]:
        """(known, optimal cost from ``successor``, the state ``action`` leads to from
        ``state``) from the shipped answer key (``shipped_keys.py``), without the planner."""
        if self._key is None:
            self._key = shipped_key(self.record, self.problem_name, self.problem_text,
                                    planner_timeout=self.planner_timeout)
        answers = self._key.get(state_hash(state)) if self._key else None
        if not isinstance(answers, dict) or str(action) not in answers:
            return False, None
        cost = answers[str(action)]
        self._remaining[successor] = cost
        return True, cost

    def cost_problem(self, state: frozenset) -> str:
        """``state`` as a new problem for the planner."""
        return state_problem_text(self.domain, self.simulator.problem, state)

    def record_cost(self, state: frozenset, result: OptimalPlan) -> float | None:
        """The optimal cost the planner's answer gives (None: unreachable or no answer);
        the plan is replayed in the simulator, so a wrong plan cannot pass."""
        cost = self._plan_cost(state, result)
        if result.status in ("solved", "unsolvable"):
            self._remaining[state] = cost
        return cost

    def optimal_cost_from(self, state: frozenset, *, use_cache: bool = True) -> float | None:
        """Optimal cost to the goal from ``state`` (None: unreachable or no answer in time)."""
        known, cost = self.known_cost(state)
        if known:
            return cost
        result = optimal_plan(self.record.domain, self.cost_problem(state),
                              timeout=self.planner_timeout, use_cache=use_cache,
                              models=(self.domain, self.simulator.problem), start=state)
        return self.record_cost(state, result)

    def _plan_cost(self, state: frozenset, result: OptimalPlan) -> float | None:
        if not result.solved:
            return None
        total = 0.0
        try:
            for step in result.plan or ():
                state, cost = self.step_cost(state, GroundAction.parse(step))
                total += cost
        except (SimulationError, ValueError):
            return None
        return total if self.simulator.goal_reached(state) else None


def build_world(record: Record, problem_name: str, problem_text: str, *,
                planner_timeout: float = 20.0, use_cache: bool = True) -> World:
    """Parse, plan optimally from the initial state, and replay the plan in the simulator."""
    try:
        domain = parse_domain(record.domain)
        simulator = Simulator(domain, parse_problem(record.domain, problem_text))
    except (SimulationError, ValueError) as err:
        raise WorldError(f"{record.id}/{problem_name}: cannot simulate: {err}") from None
    result = _reference_plan(record, problem_name, problem_text, planner_timeout, use_cache)
    optimal = result.optimal_proved
    if not result.solved:
        raise WorldError(f"{record.id}/{problem_name}: no plan found "
                         f"({result.status}: {result.message})")
    state = simulator.initial_state
    states, plan, costs = [state], [], []
    unit = not simulator.problem.metric
    for step in result.plan or ():
        action = GroundAction.parse(step)
        try:
            state, cost = simulator.transition(state, action)
        except SimulationError as err:
            raise WorldError(f"{record.id}/{problem_name}: the planner's step {step} does not "
                             f"apply in the simulator: {err.reason}") from None
        plan.append(action)
        costs.append(1.0 if unit else cost)
        states.append(state)
    if not simulator.goal_reached(state):
        raise WorldError(f"{record.id}/{problem_name}: the planner's plan does not reach the "
                         "goal in the simulator")
    return World(record, problem_name, problem_text, domain, simulator, tuple(plan),
                 tuple(states), tuple(costs), planner_timeout, optimal)


@dataclass(frozen=True)
class _Reference:
    status: str
    plan: tuple[str, ...] | None
    optimal_proved: bool
    message: str = ""
    planner: str = ""  # what answered: the shipped plans, the in-process search, Fast Downward

    @property
    def solved(self) -> bool:
        return self.status == "solved"


def _reference_plan(record: Record, problem_name: str, problem_text: str,
                    planner_timeout: float, use_cache: bool) -> _Reference:
    """The store's shipped plan when it is current (optimal, or satisficing after an optimal
    search at least as long as asked for), else Fast Downward: optimal search first, LAMA's
    first plan when that runs out of time."""
    original = record.meta.get("mystery_of")
    if original is not None:  # a mystery copy: the original's plan, renamed
        source = next((p for p in original.problems if p.name == problem_name), None)
        if source is not None:
            found = _reference_plan(original, problem_name, source.pddl, planner_timeout,
                                    use_cache)
            names = record.meta["mystery_names"]
            steps = None if found.plan is None else \
                tuple(rename_tokens(step, names) for step in found.plan)
            return _Reference(found.status, steps, found.optimal_proved, found.message,
                              found.planner)
    shipped = shipped_plan(record, problem_name, problem_text)
    if shipped is not None and (shipped.optimal or shipped.bound_s >= planner_timeout):
        return _Reference(shipped.status, shipped.plan or None, shipped.optimal,
                          "" if shipped.status == "solved" else
                          f"no plan within {shipped.bound_s:g}s", "shipped plans")
    result = optimal_plan(record.domain, problem_text, timeout=planner_timeout,
                          use_cache=use_cache)
    optimal = result.solved
    if result.status == "timeout":  # too big for optimal search: a satisficing plan
        result = optimal_plan(record.domain, problem_text, timeout=planner_timeout,
                              use_cache=use_cache, optimal=False)
    witness = record.meta.get(WITNESS_PLANS, {}).get(problem_name)
    if not result.solved and witness:  # a generated problem too big to plan: its walk
        return _Reference("solved", tuple(witness), False, "", "generator walk")
    return _Reference(result.status, result.plan, optimal, result.message, result.planner)


@lru_cache(maxsize=512)
def _cached_world(record: Record, problem_name: str, problem_text: str,
                  planner_timeout: float) -> World | WorldError:
    try:
        return build_world(record, problem_name, problem_text, planner_timeout=planner_timeout)
    except WorldError as err:  # remembered too: a problem that failed fails again
        return err


def world_for(record: Record, problem_name: str, planner_timeout: float = 20.0) -> World:
    """The world of one problem of ``record``, built once per process."""
    for problem in record.problems:
        if problem.name == problem_name:
            world = _cached_world(record, problem.name, problem.pddl, planner_timeout)
            if isinstance(world, WorldError):
                raise world
            return world
    raise WorldError(f"{record.id} has no problem {problem_name!r}")
