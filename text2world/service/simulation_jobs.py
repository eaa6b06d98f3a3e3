"""The tools' planning and simulation jobs (the MCP server's, the agent protocol's): plain
functions on plain data.

Like ``service.jobs`` (whose ``validate_job`` and ``score_job`` the tools use as they are),
they run in the scoring processes of ``service.executor.ScoringExecutor``, so a job past
the time limit is stopped by killing its process, and raise ``ApiError`` with a code and a
message that names what is wrong and where.
"""

from __future__ import annotations

from typing import Any

from text2world.errors import ApiError
from text2world.pddl.validation import validate
from text2world.service.error_codes import api_error
from text2world.simulation import (
    GroundAction,
    ProblemError,
    SimulationError,
    Simulator,
    UnsupportedFeature,
    atom_to_pddl,
    parse_plan,
    parse_problem,
)
from text2world.simulation.problem import GroundingTooLarge, parse_atom

MAX_LISTED_ERRORS = 5  # errors quoted in a message; all of them are in the error's details


def _issue_text(issue: dict) -> str:
    where = f"line {issue['line']}" if issue.get("line") else "no line"
    if issue.get("line") and issue.get("column"):
        where += f", column {issue['column']}"
    return f"{where}: {issue.get('category', 'Other')}: {issue.get('message', '')}"


def checked_simulator(domain: str, problem: str) -> Simulator:
    """A simulator for ``domain`` on ``problem``, or ``ApiError`` saying why there is none: the
    domain's validation errors (each with its line), the problem's parse error, or PDDL the
    simulator does not implement."""
    checked = validate(domain)
    if not checked.ok:
        errors = [issue.to_dict() for issue in checked.errors]
        listed = "; ".join(_issue_text(e) for e in errors[:MAX_LISTED_ERRORS])
        hidden = len(errors) - MAX_LISTED_ERRORS
        more = f" (and {hidden} more)" if hidden > 0 else ""
        raise ApiError(422, "invalid_domain", f"the domain does not parse: {listed}{more}",
                       errors=errors)
    from text2world.pddl.model import parse_domain

    try:
        parsed = parse_domain(domain)
        return Simulator(parsed, parse_problem(domain, problem))
    except (UnsupportedFeature, ProblemError) as err:
        raise api_error(err) from None
    except GroundingTooLarge as err:  # refused before grounding: "limit: ..."
        raise ApiError(422, "grounding_too_large", err.reason) from None
    except SimulationError as err:  # what else fails in a problem: said as it is
        raise ApiError(422, "invalid_problem", err.reason) from None


def _state_atoms(state: frozenset) -> list[str]:
    return sorted(atom_to_pddl(atom) for atom in state)


def plan_job(task: dict) -> dict:
    """``plan``: the domain and problem checked, the planner front (its in-process search, then
    Fast Downward within ``task["timeout"]`` CPU seconds), the plan found replayed under VAL
    semantics (``validated``). Run in a scoring process (``ScoringExecutor``), never in a
    server's own: the search is the answer's work."""
    from text2world.planning.front import plan_problem

    domain, problem, limit = task["domain"], task["problem"], float(task["timeout"])
    simulator = checked_simulator(domain, problem)
    result = plan_problem(domain, problem, limit, simulator=simulator)
    answer: dict[str, Any] = {"solved": result.solved, "status": result.status,
                              "plan": list(result.plan), "plan_length": result.plan_length,
                              "message": result.message, "planner": result.planner,
                              "timeout_seconds": limit}
    if result.solved:
        check = simulator.validate_plan(list(result.plan))
        answer["validated"] = {"valid": check.valid, "reason": check.reason}
    return answer


def validate_plan_job(task: dict) -> dict:
    """Execute a plan from the problem's initial state: VAL's verdict with the first failing
    step (1-based), its unsatisfied preconditions, and the goals left unmet."""
    simulator = checked_simulator(task["domain"], task["problem"])
    plan = task["plan"]
    try:
        steps = parse_plan(plan)
    except ValueError as err:
        raise ApiError(422, "invalid_plan", f"plan: {err}") from None
    try:
        result = simulator.validate_plan(steps)
        unmet = simulator.unmet_goals(result.final_state) if result.failed_step is None else ()
    except SimulationError as err:
        raise ApiError(422, "simulation_error", err.reason) from None
    failed = result.failed_step
    return {
        "valid": result.valid,
        "steps": len(steps),
        "steps_applied": result.steps_applied,
        "goal_reached": result.goal_reached,
        "failed_step": None if failed is None else failed + 1,
        "failed_action": None if result.failed_action is None else str(result.failed_action),
        "unsatisfied_preconditions": list(result.unsatisfied),
        "unmet_goals": list(unmet),
        "reason": result.reason or "plan valid: every step applies and the goal holds",
        "cost": result.cost,
        "final_state": _state_atoms(result.final_state),
    }


def _parse_state(values: list[str], simulator: Simulator) -> frozenset:
    atoms = set()
    for index, value in enumerate(values):
        atom = parse_atom(value)
        if atom is None:
            raise ApiError(422, "invalid_state",
                           f"state[{index}]: {str(value)[:80]!r} is not a ground atom such as "
                           "(on a b)")
        arity = simulator.predicate_arity.get(atom[0])
        if arity is None:
            raise ApiError(422, "invalid_state",
                           f"state[{index}]: the domain has no predicate {atom[0]!r}")
        if arity != len(atom) - 1:
            raise ApiError(422, "invalid_state", f"state[{index}]: {atom[0]} takes {arity} "
                           f"argument(s), not {len(atom) - 1}")
        atoms.add(atom)
    return frozenset(atoms)


def simulate_job(task: dict) -> dict:
    """One action in a state (the problem's initial state unless ``state`` is given): is it
    applicable, which preconditions fail, and the next state with what it added and deleted."""
    simulator = checked_simulator(task["domain"], task["problem"])
    state = (simulator.initial_state if task.get("state") is None
             else _parse_state(task["state"], simulator))
    try:
        action = GroundAction.parse(task["action"])
    except ValueError as err:
        raise ApiError(422, "invalid_action", f"action: {err}") from None
    try:
        unsatisfied = simulator.unsatisfied(state, action)
        answer: dict[str, Any] = {"action": str(action), "applicable": not unsatisfied,
                                  "unsatisfied_preconditions": list(unsatisfied)}
        if unsatisfied:
            return {**answer, "next_state": None, "added": [], "deleted": [], "cost": None,
                    "goal_reached": simulator.goal_reached(state)}
        successor, cost = simulator.transition(state, action, check=False)
        return {**answer, "next_state": _state_atoms(successor),
                "added": _state_atoms(successor - state),
                "deleted": _state_atoms(state - successor),
                "cost": cost, "goal_reached": simulator.goal_reached(successor)}
    except SimulationError as err:  # unknown action or object, wrong arity or type
        raise ApiError(422, "invalid_action", err.reason) from None
