"""Optimal plans for the world-model tasks: A* in-process where it proves optimality, Fast
Downward otherwise.

``text2world.planning.fast_downward.solve_problem`` answers whether a problem is solvable; the world-model
tasks need the plan itself and its optimal cost, from the initial state and from arbitrary
states (a proposal's successor, written as a new problem). This module runs the Fast Downward
shipped by ``up-fast-downward`` (``text2world.planning.fast_downward.run_fast_downward_direct``: the
driver's translator and search without the driver; A*
with LM-cut, falling back to blind A* for conditional effects and axioms LM-cut does not
support), in a fresh temporary folder per call, with a time bound, and caches every answer on disk
by the content of the domain and problem (``text2world.planning.fast_downward.PlanCache``, keyed with this
planner configuration).

Before Fast Downward runs, A* with h_max searches in-process on the compiled simulator
(``text2world.simulation.search.optimal_search``, bounded by ``SEARCH_LIMITS``): a plan it finds
is optimal (A* with an admissible heuristic, in the same cost model: the problem's action costs
with a ``:metric``, one per step otherwise) and an exhausted search proves the problem
unsolvable. Only when it reaches a bound, or the problem uses PDDL the simulator does not
implement, does Fast Downward run, exactly as described above. ``OptimalPlan.planner`` names
what answered.
"""

from __future__ import annotations

import resource
from dataclasses import asdict, dataclass

from text2world.pddl.model import Domain, parse_domain
from text2world.planning.fast_downward import PlanCache, fast_downward_folder, read_plan_file, run_fast_downward_direct
from text2world.simulation import PlanningProblem, SimulationError, Simulator, atom_to_pddl, parse_problem
from text2world.simulation.search import SOLVED, UNSOLVABLE, SearchLimits, optimal_search

SEARCHES = ("astar(lmcut())", "astar(blind())")
UNSUPPORTED_EXIT = 34  # Fast Downward: the search does not support the task's features
UNSOLVABLE_EXITS = (10, 11, 12)
# out of time or memory (translator or search), or a part killed at its CPU limit (SIGXCPU,
# which the driver passes on as 256 - 24)
TIMEOUT_EXITS = (21, 22, 23, 24, 232, -24)
FD_PLANNER = "fd-astar-1"
# The store's small problems are settled within a few thousand expansions; the larger ones
# Fast Downward's LM-cut solves in about a second, less than a longer search here would cost
# (bench/planner_bench.py --optimal measures both), so the search hands over early.
SEARCH_LIMITS = SearchLimits(max_expanded=5_000, max_evaluated=50_000, max_seconds=1.0)
PLANNER_VERSION = f"astar(hmax)[{SEARCH_LIMITS.describe()}] then {FD_PLANNER}"  # the cache key


@dataclass(frozen=True)
class OptimalPlan:
    """``status``: solved, unsolvable, timeout or error; ``plan`` as PDDL step strings."""

    status: str
    plan: tuple[str, ...] | None = None
    cost: float | None = None
    message: str = ""
    cached: bool = False
    timeout: float | None = None  # the bound a "timeout" answer ran under
    planner: str = ""  # what answered: the in-process search or Fast Downward

    @property
    def solved(self) -> bool:
        return self.status == "solved"


def _cached_answer(cache: PlanCache, key: str) -> OptimalPlan | None:
    data = cache.get(key)
    if data is None:
        return None
    try:
        plan = data.get("plan")
        return OptimalPlan(str(data["status"]), tuple(plan) if plan is not None else None,
                           data.get("cost"), str(data.get("message", "")), True,
                           data.get("timeout"), str(data.get("planner", "")))
    except (KeyError, TypeError):
        return None


def _store_answer(cache: PlanCache, key: str, result: OptimalPlan) -> None:
    if result.status in ("solved", "unsolvable", "timeout"):  # not crashes
        data = asdict(result)
        data.pop("cached")
        cache.put(key, data)


def children_cpu_seconds() -> float:
    """CPU time of this process's finished child processes (the planner runs), for benchmarks."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def in_process_optimal(domain: Domain, problem: PlanningProblem,
                       start: frozenset | None = None,
                       limits: SearchLimits = SEARCH_LIMITS) -> OptimalPlan | None:
    """A* on a fresh simulator of (domain, problem) from ``start`` (default: its initial
    state): solved (optimal) or unsolvable (proved), else None (a bound reached, or PDDL the
    simulator does not implement). Its plan is replayed in the simulator before it is given."""
    try:
        simulator = Simulator(domain, problem)
    except SimulationError:
        return None
    found = optimal_search(simulator, start=start, limits=limits)
    planner = f"in-process {found.algorithm}"
    if found.status == UNSOLVABLE:
        return OptimalPlan("unsolvable", message=f"{planner}: {found.message}", planner=planner)
    if found.status != SOLVED:
        return None
    state = simulator.initial_state if start is None else start
    try:
        for action in found.plan or ():
            state = simulator.successor(state, action)
    except SimulationError:  # never expected: the search ran on this simulator
        return None
    if not simulator.goal_reached(state):
        return None
    return OptimalPlan("solved", found.steps(), found.cost, planner=planner)


def optimal_plan(domain_text: str, problem_text: str, *, timeout: float = 30.0,
                 cache: PlanCache | None = None, use_cache: bool = True,
                 optimal: bool = True, models: tuple[Domain, PlanningProblem] | None = None,
                 start: frozenset | None = None) -> OptimalPlan:
    """An optimal plan of the problem (cost-optimal with ``:action-costs``), cached by content;
    with ``optimal=False`` a plan from LAMA's first solution (no optimality claim).

    The optimal plan comes from the in-process A* when it settles the problem within its
    bounds, from Fast Downward otherwise. ``models`` (the parsed domain and problem) and
    ``start`` (a state to plan from, which ``problem_text`` must have as its initial state)
    spare the in-process search a parse of the texts.

    Thread safe: each call builds its own simulator and runs Fast Downward in its own
    temporary folder. A timeout is cached with its bound, so only a call with a longer bound
    tries again.
    """
    cache = cache or PlanCache()
    key = PlanCache.key(PLANNER_VERSION, domain_text,
                        problem_text + ("" if optimal else "\0satisficing"))
    if use_cache:
        hit = _cached_answer(cache, key)
        if hit is not None and (hit.status != "timeout" or (hit.timeout or 0) >= timeout):
            return hit
    result = _in_process(domain_text, problem_text, models, start) if optimal else None
    if result is None:
        result = _fast_downward(domain_text, problem_text, timeout, optimal)
    if use_cache:
        _store_answer(cache, key, result)
    return result


def _in_process(domain_text: str, problem_text: str,
                models: tuple[Domain, PlanningProblem] | None,
                start: frozenset | None) -> OptimalPlan | None:
    if models is None:
        try:
            models = (parse_domain(domain_text), parse_problem(domain_text, problem_text))
        except Exception:  # noqa: BLE001 - tarski raises many classes; Fast Downward gives
            return None    # the verdict on texts the simulator cannot read
        start = None
    return in_process_optimal(*models, start)


def _fast_downward(domain_text: str, problem_text: str, timeout: float,
                   optimal: bool) -> OptimalPlan:
    """The answer of Fast Downward (A* with LM-cut, blind A* where LM-cut lacks support;
    LAMA's first plan with ``optimal=False``)."""
    planner = f"fast-downward {'astar' if optimal else 'lama-first'}"
    with fast_downward_folder(domain_text, problem_text, prefix="t2w-wm-fd-") as workdir:
        result = OptimalPlan("error", message="no search ran")
        # (alias, search options): the driver's pipeline without the driver; its CPU limit
        # stops the search first, the wall-clock bound (5 s more) kills what does not stop
        runs: list[tuple[str, tuple[str, ...]]] = (
            [("", ("--search", s)) for s in SEARCHES] if optimal else [("lama-first", ())])
        for alias, search in runs:
            code, output = run_fast_downward_direct(workdir, timeout + 5, alias=alias,
                                                    search=search,
                                                    cpu_limit=max(1, int(timeout)))
            if code is None or code in TIMEOUT_EXITS:
                result = OptimalPlan("timeout", message=f"no plan within {timeout:g}s",
                                     timeout=timeout, planner=planner)
                break
            if code == UNSUPPORTED_EXIT:
                continue
            if code in UNSOLVABLE_EXITS:
                result = OptimalPlan("unsolvable", message=f"Fast Downward exit {code}",
                                     planner=planner)
                break
            plan_file = workdir / "plan"
            if code != 0 or not plan_file.is_file():
                tail = output.strip().splitlines()[-3:]
                result = OptimalPlan("error", message=f"Fast Downward exit {code}: "
                                     + " | ".join(tail), planner=planner)
                break
            steps, cost = read_plan_file(plan_file)
            result = OptimalPlan("solved", steps, cost, planner=planner)
            break
    return result


def state_problem_text(domain: Domain, problem: PlanningProblem, state: frozenset,
                       name: str = "wm-state") -> str:
    """``problem`` with ``state`` as its initial state, as PDDL (the goal, objects, numeric
    values and metric kept), so the planner can solve from any state."""
    constants = {c.name for c in domain.constants}
    objects = " ".join(f"{o.name} - {o.type}" if domain.typed else o.name
                       for o in problem.objects if o.name not in constants)
    init = [atom_to_pddl(atom) for atom in sorted(state)]
    init += [f"(= {atom_to_pddl(key)} {value:g})" for key, value in problem.function_values]
    functions = {f.name for f in domain.functions}
    if problem.metric and "total-cost" in functions and \
            not any(key == ("total-cost",) for key, _ in problem.function_values):
        init.append("(= (total-cost) 0)")
    metric = ("\n  (:metric minimize (total-cost))"
              if problem.metric and "total-cost" in functions else "")
    return (f"(define (problem {name})\n  (:domain {domain.name})\n  (:objects {objects})\n"
            f"  (:init {' '.join(init)})\n  (:goal {problem.goal.to_pddl()}){metric})\n")
