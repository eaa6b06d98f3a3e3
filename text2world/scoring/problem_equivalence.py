"""Equivalence of PDDL problems by meaning: does a predicted problem pose the gold's task?

``compare_problems(domain, gold, predicted)`` returns a ``ProblemVerdict``:

- ``parseable``: the prediction parses against the gold domain (tarski, through
  ``simulation.parse_problem``) and declares that domain;
- ``solvable``: the project's planner (``planning.front``: in-process search, an h^2 proof,
  Fast Downward, all bounded) finds a plan (None: no answer within the bounds);
- ``equivalent``: the same initial state up to a renaming of objects (an isomorphism of typed
  objects and facts, static facts included: ``problem_graph``), and goals that accept the same
  reachable states under that renaming. ``rule`` says what decided:

  * ``"initial-state"``: the initial states differ (no renaming maps one onto the other);
  * ``"fully-specified"`` at once when the goals are the same ground literals under a renaming
    of the initial states (their completions are then the same);
  * ``"enumeration"``: the gold's reachable states were enumerated (at most ``work_bound`` of
    them) and each goal tested on every one: exact;
  * ``"fully-specified"``: Planetarium's rule, for larger spaces: each goal, a conjunction of
    ground literals, is completed with the literals every reachable goal state implies, then the
    two are compared under the renaming. A literal is implied when the planner proves the goal
    with its negation unreachable; only the literals the other goal states need asking.

  ``equivalent`` is None when a bound stopped the check (``message`` says which).

A difference comes with a ``Counterexample``: the object or initial fact without a partner, or a
reachable state one goal accepts and the other does not. Beside the verdict, what a looser
metric would say: the Levenshtein similarity of the texts and the fact-level F1 of the initial
facts and of the goal literals after the best object matching.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Iterator
from typing import Literal as TypingLiteral

from text2world.errors import Text2WorldError
from text2world.pddl.model import Domain, iter_literals, parse_domain
from text2world.planning.front import FRONT_LIMITS, PREDICTION_LIMITS, cached_plan
from text2world.scoring.problem_goals import (
    PROVEN_UNSOLVABLE,
    GoalLiterals,
    ground_literals,
    literal_text,
    reach,
    static_predicates,
    without_static,
)
from text2world.scoring.problem_graph import (
    FactGraph,
    IsomorphismBound,
    Renaming,
    best_matching,
    first_isomorphism,
    isomorphisms,
    rename_fact,
)
from text2world.scoring.score_base import ratio_without_whitespace, set_f1
from text2world.simulation import PlanningProblem, SimulationError, Simulator, parse_problem

Rule = TypingLiteral["auto", "enumeration", "fully-specified"]
DEFAULT_WORK_BOUND = 10_000  # reachable states enumerated before the fully-specified rule
MAX_RENAMINGS = 64  # renamings tried on the goals before the answer is left open
MAX_IMPLICATION_CHECKS = 24  # planner questions of the fully-specified rule per comparison
PLAN_TIMEOUT = 5.0  # Fast Downward's CPU seconds per planner question
MAX_STATE_FACTS = 40  # facts of a counterexample state shown
_DECLARED_DOMAIN = re.compile(r"\(\s*:domain\s+([^\s()]+)\s*\)", re.IGNORECASE)


class ProblemComparisonError(Text2WorldError, ValueError):
    """The pair cannot be compared: the domain or the gold problem does not parse or cannot be
    simulated (``reason`` says which and why)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Counterexample:
    """What tells two problems apart. ``kind``: ``"domain"``, ``"object"``, ``"fact"`` (an
    initial fact) or ``"goal-state"`` (a reachable state one goal accepts and the other does
    not: ``facts``, its fluent facts in the gold's names); ``text`` says it in words."""

    kind: str
    text: str
    facts: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "facts": list(self.facts)}


@dataclass(frozen=True)
class ProblemVerdict:
    """The verdict on one predicted problem; see the module's docstring. ``mapping``: the
    renaming (predicted object -> gold object) the verdict and the F1s rest on; ``states``: the
    reachable states enumerated (None when not)."""

    parseable: bool
    solvable: bool | None
    equivalent: bool | None
    rule: str | None
    counterexample: Counterexample | None
    similarity: float
    init_f1: float
    goal_f1: float
    mapping: dict = field(default_factory=dict)
    states: int | None = None
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"parseable": self.parseable, "solvable": self.solvable,
                "equivalent": self.equivalent, "rule": self.rule,
                "counterexample": self.counterexample.to_dict() if self.counterexample else None,
                "similarity": self.similarity, "init_f1": self.init_f1,
                "goal_f1": self.goal_f1, "mapping": dict(self.mapping), "states": self.states,
                "message": self.message}


@dataclass
class _Side:
    """One problem, parsed and simulated, with its graph."""

    problem: PlanningProblem
    simulator: Simulator
    graph: FactGraph  # objects and initial facts
    goal: GoalLiterals | None  # the goal as ground literals (static ones left out)


def _init_facts(problem: PlanningProblem) -> set:
    facts = {("init", *atom) for atom in problem.init}
    # numeric values (action costs) are facts too: the value goes into the label
    facts |= {("init", f"{key[0]}={value:g}", *key[1:]) for key, value in problem.function_values}
    return facts


def _side(domain: Domain, problem: PlanningProblem, static: frozenset) -> _Side:
    simulator = Simulator(domain, problem)
    constants = frozenset(c.name for c in domain.constants)
    graph = FactGraph({o.name: o.type for o in problem.objects}, constants,
                      frozenset(_init_facts(problem)))
    goal = ground_literals(problem.goal, simulator)
    if goal is not None:
        goal = without_static(goal, problem.init, static)
    return _Side(problem, simulator, graph, goal)


def _goal_facts(goal: GoalLiterals | None) -> frozenset:
    if goal is None:
        return frozenset()
    return frozenset(("goal" if positive else "goal-not", *atom)
                     for positive, atom in goal.literals)


def _raw_goal_facts(problem: PlanningProblem) -> frozenset:
    """The goal's literals as written (for the F1: quantified variables stay variables)."""
    return frozenset(("goal" if positive else "goal-not", atom.predicate, *atom.args)
                     for atom, positive in iter_literals(problem.goal))


def _rename_state(state: frozenset, mapping: dict) -> frozenset:
    return frozenset((atom[0], *(mapping.get(a, a) for a in atom[1:])) for atom in state)


def _state_facts(state: frozenset, static: frozenset) -> tuple[str, ...]:
    shown = sorted(atom for atom in state if atom[0] not in static)
    return tuple("(" + " ".join(atom) + ")" for atom in shown[:MAX_STATE_FACTS])


# --------------------------------------------------------------------------------------------
# Initial states


def _init_difference(pred: FactGraph, gold: FactGraph) -> Counterexample:
    """The object or initial fact that tells two initial states apart (after the best
    matching)."""
    gold_types, pred_types = Counter(gold.objects.values()), Counter(pred.objects.values())
    for kind in sorted(set(gold_types) | set(pred_types)):
        if gold_types[kind] != pred_types[kind]:
            mapping = best_matching(pred, gold)
            extra = sorted(o for o, t in pred.objects.items() if t == kind and o not in mapping)
            missing = sorted(o for o, t in gold.objects.items()
                             if t == kind and o not in set(mapping.values()))
            which = (f"the prediction's {extra[0]} has no partner" if extra
                     else f"the gold's {missing[0]} has no partner" if missing else "")
            return Counterexample("object", f"the gold has {gold_types[kind]} object(s) of type "
                                  f"{kind}, the prediction {pred_types[kind]}: {which}")
    mapping = best_matching(pred, gold)
    mapped = {rename_fact(f, mapping) for f in pred.facts}
    missing_facts = sorted(gold.facts - mapped)
    if missing_facts:
        fact = missing_facts[0]
        return Counterexample("fact", f"the gold's initial fact ({' '.join(fact[1:])}) has no "
                              "counterpart in the prediction under the best renaming",
                              ("(" + " ".join(fact[1:]) + ")",))
    inverse = {v: k for k, v in mapping.items()}
    extra_facts = sorted(mapped - gold.facts)
    fact = rename_fact(extra_facts[0], inverse) if extra_facts else sorted(pred.facts)[0]
    return Counterexample("fact", f"the prediction's initial fact ({' '.join(fact[1:])}) has no "
                          "counterpart in the gold under the best renaming",
                          ("(" + " ".join(fact[1:]) + ")",))


# --------------------------------------------------------------------------------------------
# Goals by enumeration


@dataclass(frozen=True)
class _Decision:
    equivalent: bool | None
    rule: str
    mapping: dict
    counterexample: Counterexample | None = None
    states: int | None = None
    message: str = ""
    solvable: bool | None = None  # the prediction's, when the enumeration saw its goal states


def reachable_states(simulator: Simulator, bound: int) -> list | None:
    """Every state reachable from the initial one, or None past ``bound`` states."""
    start = simulator.initial_state
    seen = {start}
    order = [start]
    frontier = [start]
    while frontier:
        state = frontier.pop()
        for action in simulator.applicable(state):
            successor = simulator.successor(state, action, check=False)
            if successor not in seen:
                if len(seen) >= bound:
                    return None
                seen.add(successor)
                order.append(successor)
                frontier.append(successor)
    return order


def _accepted(side: _Side, states: list, to_side: dict) -> frozenset:
    """The states (gold names) whose renaming into ``side``'s names meets its goal."""
    test = side.simulator.goal_reached
    if not to_side:
        return frozenset(s for s in states if test(s))
    return frozenset(s for s in states if test(_rename_state(s, to_side)))


def _state_counterexample(gold_accepts: frozenset, pred_accepts: frozenset,
                          static: frozenset) -> Counterexample:
    only_gold = sorted(gold_accepts - pred_accepts, key=sorted)
    if only_gold:
        return Counterexample("goal-state", "a reachable state the gold's goal accepts and the "
                              "prediction's does not", _state_facts(only_gold[0], static))
    only_pred = sorted(pred_accepts - gold_accepts, key=sorted)
    return Counterexample("goal-state", "a reachable state the prediction's goal accepts and "
                          "the gold's does not", _state_facts(only_pred[0], static))


def _by_enumeration(gold: _Side, pred: _Side, renaming: dict, states: list,
                    static: frozenset) -> _Decision:
    gold_accepts = _accepted(gold, states, {})
    inverse = {g: p for p, g in renaming.items()}
    pred_accepts = _accepted(pred, states, inverse)
    count = len(states)
    solvable = bool(pred_accepts)  # the enumeration saw every reachable state
    if pred_accepts == gold_accepts:
        return _Decision(True, "enumeration", renaming, states=count, solvable=solvable)
    first = _state_counterexample(gold_accepts, pred_accepts, static)
    if not gold_accepts or not pred_accepts:  # no renaming can make one set empty, or full
        return _Decision(False, "enumeration", renaming, first, count, solvable=solvable)
    # A renaming making the goals equal maps the facts common to one's goal states onto the
    # other's: only the isomorphisms of the initial states that do are candidates.
    common_gold = frozenset.intersection(*gold_accepts)
    common_pred = _rename_state(frozenset.intersection(*pred_accepts), inverse)
    source = pred.graph.with_facts(("goal", *atom) for atom in common_pred)
    target = gold.graph.with_facts(("goal", *atom) for atom in common_gold)
    try:
        for tried, candidate in enumerate(isomorphisms(source, target, exact=("init", "goal"))):
            if tried >= MAX_RENAMINGS:
                return _Decision(None, "enumeration", renaming, first, count,
                                 f"more than {MAX_RENAMINGS} renamings to try", solvable)
            if candidate == renaming:
                continue
            flipped = {g: p for p, g in candidate.items()}
            if _accepted(pred, states, flipped) == gold_accepts:
                return _Decision(True, "enumeration", candidate, states=count,
                                 solvable=solvable)
    except IsomorphismBound as err:
        return _Decision(None, "enumeration", renaming, first, count, str(err), solvable)
    return _Decision(False, "enumeration", renaming, first, count, solvable=solvable)


# --------------------------------------------------------------------------------------------
# Goals by Planetarium's rule


class _Implications:
    """Whether a goal (literals in the gold's names) implies a literal in every reachable state,
    asked of the planner, memoised, within ``MAX_IMPLICATION_CHECKS`` questions."""

    def __init__(self, domain_text: str, domain: Domain, gold: _Side, timeout: float) -> None:
        self.domain_text, self.domain, self.gold, self.timeout = domain_text, domain, gold, timeout
        self.asked: dict = {}
        self.open = ""

    def implied(self, goal: frozenset, literal: tuple) -> tuple[bool | None, frozenset | None]:
        """(True, None) when implied; (False, a reachable state meeting ``goal`` without
        ``literal``); (None, None) when the planner gave no answer or the questions ran out."""
        key = (goal, literal)
        if key not in self.asked:
            if len(self.asked) >= MAX_IMPLICATION_CHECKS:
                self.open = f"more than {MAX_IMPLICATION_CHECKS} planner questions"
                return None, None
            question = goal | {(not literal[0], literal[1])}
            if any((not p, a) in question for p, a in question):
                self.asked[key] = (True, None)  # the negation contradicts the goal itself
            else:
                found = reach(self.domain_text, self.domain, self.gold.problem,
                              frozenset(question), self.gold.simulator, timeout=self.timeout)
                if found.reachable is None:
                    self.open = f"the planner gave no answer: {found.message}"
                self.asked[key] = (None if found.reachable is None else not found.reachable,
                                   found.state)
        return self.asked[key]


def _renamed_literals(goal: GoalLiterals, mapping: dict) -> frozenset:
    return frozenset((p, (a[0], *(mapping.get(x, x) for x in a[1:]))) for p, a in goal.literals)


def _candidate_renamings(gold: _Side, pred: _Side, renaming: Renaming) -> Iterator[Renaming]:
    """Renamings of the initial states to compare the goals under: those mapping one goal's
    literals into the other's first (a goal with implied literals added or left out), then the
    others."""
    pred_goal = pred.graph.with_facts(_goal_facts(pred.goal))
    gold_goal = gold.graph.with_facts(_goal_facts(gold.goal))
    yield from isomorphisms(pred_goal, gold_goal, exact=("init",))
    for candidate in isomorphisms(gold_goal, pred_goal, exact=("init",)):
        yield {p: g for g, p in candidate.items()}
    yield renaming
    yield from isomorphisms(pred.graph, gold.graph)


def _fully_specified(domain_text: str, domain: Domain, gold: _Side, pred: _Side,
                     renaming: dict, static: frozenset, timeout: float) -> _Decision:
    if gold.goal is None or pred.goal is None:
        which = "gold's" if gold.goal is None else "prediction's"
        return _Decision(None, "fully-specified", renaming, message=f"the {which} goal is not a "
                         "conjunction of literals: the fully-specified rule does not apply")
    asker = _Implications(domain_text, domain, gold, timeout)
    gold_goal = gold.goal.literals
    if gold.goal.unsatisfiable or pred.goal.unsatisfiable:
        if gold.goal.unsatisfiable and pred.goal.unsatisfiable:
            return _Decision(True, "fully-specified", renaming)
        # one accepts no state: the other must be unreachable too
        other = pred.goal if gold.goal.unsatisfiable else gold.goal
        literals = _renamed_literals(other, renaming) if other is pred.goal else other.literals
        found = reach(domain_text, domain, gold.problem, literals, gold.simulator,
                      timeout=timeout)
        if found.reachable is None:
            return _Decision(None, "fully-specified", renaming, message=found.message)
        if not found.reachable:
            return _Decision(True, "fully-specified", renaming)
        return _Decision(False, "fully-specified", renaming, Counterexample(
            "goal-state", "a reachable state one goal accepts; the other accepts none",
            _state_facts(found.state or frozenset(), static)))
    seen: list = []
    first: Counterexample | None = None
    undecided = ""
    try:
        for candidate in _candidate_renamings(gold, pred, renaming):
            if candidate in seen:
                continue
            if len(seen) >= MAX_RENAMINGS:
                undecided = undecided or f"more than {MAX_RENAMINGS} renamings to try"
                break
            seen.append(candidate)
            pred_goal = _renamed_literals(pred.goal, candidate)
            verdict, example = _compare_goals(asker, gold_goal, pred_goal, static)
            if verdict:
                return _Decision(True, "fully-specified", candidate)
            if verdict is None:
                undecided = undecided or asker.open or "the planner gave no answer"
            elif first is None:
                first = example
    except IsomorphismBound as err:
        undecided = undecided or str(err)
    if undecided:
        return _Decision(None, "fully-specified", renaming, first, message=undecided)
    return _Decision(False, "fully-specified", renaming, first)


def _compare_goals(asker: _Implications, gold_goal: frozenset, pred_goal: frozenset,
                   static: frozenset) -> tuple[bool | None, Counterexample | None]:
    """Whether each goal implies the other's literals it does not state."""
    pending: list = [(gold_goal, lit, "gold") for lit in sorted(pred_goal - gold_goal)]
    pending += [(pred_goal, lit, "prediction") for lit in sorted(gold_goal - pred_goal)]
    open_ = False
    for goal, literal, whose in pending:
        implied, state = asker.implied(goal, literal)
        if implied is False:
            other = "prediction" if whose == "gold" else "gold"
            return False, Counterexample(
                "goal-state", f"a reachable state the {whose}'s goal accepts and the {other}'s "
                f"does not: it lacks {literal_text(literal)}",
                _state_facts(state or frozenset(), static))
        if implied is None:
            open_ = True
    return (None if open_ else True), None


# --------------------------------------------------------------------------------------------
# The entry point


def _parse_side(domain: Domain, text: str, static: frozenset) -> _Side:
    return _side(domain, parse_problem(domain, text), static)


def _f1s(gold: _Side, pred: _Side, mapping: dict) -> tuple[float, float]:
    init = set_f1({rename_fact(f, mapping) for f in pred.graph.facts}, gold.graph.facts)
    gold_goal, pred_goal = _raw_goal_facts(gold.problem), _raw_goal_facts(pred.problem)
    goal = set_f1({rename_fact(f, mapping) for f in pred_goal}, gold_goal)
    return round(init, 4), round(goal, 4)


def _solvable(domain_text: str, text: str, timeout: float, *, gold: bool = False
              ) -> bool | None:
    # a gold is planned under the gold's bounds, whose answers ship with the store
    result = cached_plan(domain_text, text, timeout,
                         limits=FRONT_LIMITS if gold else PREDICTION_LIMITS)
    if result.solved:
        return True
    return False if result.status == PROVEN_UNSOLVABLE else None


def compare_problems(domain_pddl: str, gold_problem_pddl: str, predicted_problem_pddl: str, *,
                     work_bound: int = DEFAULT_WORK_BOUND, rule: Rule = "auto",
                     plan_timeout: float = PLAN_TIMEOUT) -> ProblemVerdict:
    """The verdict on ``predicted_problem_pddl`` against ``gold_problem_pddl``, both problems of
    ``domain_pddl``. ``work_bound``: the reachable states enumerated before Planetarium's rule
    takes over (``rule="auto"``); ``rule`` forces one goal rule (``"enumeration"``: None past
    the bound). ``plan_timeout``: Fast Downward's CPU seconds per planner question. Raises
    ``ProblemComparisonError`` when the domain or the gold problem cannot be read."""
    for name, value in (("domain", domain_pddl), ("gold problem", gold_problem_pddl),
                        ("predicted problem", predicted_problem_pddl)):
        if not isinstance(value, str):
            raise ProblemComparisonError(f"the {name} must be PDDL text, not "
                                         f"{type(value).__name__}")
    if rule not in ("auto", "enumeration", "fully-specified"):
        raise ProblemComparisonError(f"unknown rule {rule!r}: auto, enumeration or "
                                     "fully-specified")
    if not isinstance(work_bound, int) or work_bound < 1:
        raise ProblemComparisonError(f"work_bound must be a positive integer, not {work_bound!r}")
    try:
        domain = parse_domain(domain_pddl)
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        raise ProblemComparisonError(f"the domain does not parse: {err}") from None
    static = static_predicates(domain)
    try:
        gold = _parse_side(domain, gold_problem_pddl, static)
    except SimulationError as err:
        raise ProblemComparisonError(f"the gold problem: {err.reason}") from None
    similarity = round(ratio_without_whitespace(gold_problem_pddl, predicted_problem_pddl), 4)
    try:
        pred = _parse_side(domain, predicted_problem_pddl, static)
    except SimulationError as err:
        return ProblemVerdict(False, False, False, None, None, similarity, 0.0, 0.0,
                              message=f"the prediction does not parse: {err.reason}")
    declared = _DECLARED_DOMAIN.search(predicted_problem_pddl)
    if declared and declared.group(1).lower() != domain.name.lower():
        init_f1, goal_f1 = _f1s(gold, pred, best_matching(pred.graph, gold.graph))
        return ProblemVerdict(True, False, False, "initial-state", Counterexample(
            "domain", f"the prediction is a problem of domain {declared.group(1).lower()}, "
            f"not {domain.name}"), similarity, init_f1, goal_f1,
            message="a problem of another domain")
    decision = _decide(domain_pddl, domain, gold, pred, static, work_bound, rule, plan_timeout)
    mapping = decision.mapping or best_matching(
        pred.graph.with_facts(_raw_goal_facts(pred.problem)),
        gold.graph.with_facts(_raw_goal_facts(gold.problem)))
    init_f1, goal_f1 = _f1s(gold, pred, mapping)
    solvable = decision.solvable
    if solvable is None and decision.equivalent:  # the gold's task: its answer ships
        solvable = _solvable(domain_pddl, gold_problem_pddl, plan_timeout, gold=True)
    if solvable is None:
        solvable = _solvable(domain_pddl, predicted_problem_pddl, plan_timeout)
    return ProblemVerdict(True, solvable, decision.equivalent, decision.rule,
                          decision.counterexample, similarity, init_f1, goal_f1,
                          dict(sorted(mapping.items())), decision.states, decision.message)


def _initial_state_difference(gold: _Side, pred: _Side, static: frozenset
                              ) -> Counterexample | None:
    """The initial state, when one goal accepts it and the other does not: a reachable state
    that tells the goals apart under every renaming of the (isomorphic) initial states, found
    without enumerating or planning (an empty goal, a goal already met)."""
    try:
        gold_met = gold.simulator.goal_reached(gold.simulator.initial_state)
        pred_met = pred.simulator.goal_reached(pred.simulator.initial_state)
    except SimulationError:  # the goal past the simulator's work bound: decided elsewhere
        return None
    if gold_met == pred_met:
        return None
    which = ("the gold's goal accepts and the prediction's does not" if gold_met else
             "the prediction's goal accepts and the gold's does not")
    return Counterexample("goal-state", f"the initial state, which {which}",
                          _state_facts(gold.simulator.initial_state, static))


def _decide(domain_text: str, domain: Domain, gold: _Side, pred: _Side, static: frozenset,
            work_bound: int, rule: Rule, timeout: float) -> _Decision:
    try:
        renaming = first_isomorphism(pred.graph, gold.graph)
    except IsomorphismBound as err:
        return _Decision(None, "initial-state", {}, message=str(err))
    if renaming is None:
        return _Decision(False, "initial-state", {}, _init_difference(pred.graph, gold.graph))
    if rule != "enumeration" and gold.goal is not None and pred.goal is not None \
            and gold.goal.unsatisfiable == pred.goal.unsatisfiable:
        # the same goal literals under a renaming of the initial state: the same completed
        # goals, whatever the reachable states (Planetarium's rule, without a planner question)
        try:
            same = first_isomorphism(pred.graph.with_facts(_goal_facts(pred.goal)),
                                     gold.graph.with_facts(_goal_facts(gold.goal)),
                                     exact=("init", "goal", "goal-not"))
        except IsomorphismBound:
            same = None
        if same is not None:
            return _Decision(True, "fully-specified", same)
    if rule in ("auto", "enumeration"):
        start = _initial_state_difference(gold, pred, static)
        if start is not None:  # exact whatever the bound: a renaming keeps the initial state
            return _Decision(False, "enumeration", renaming, start, states=1)
        try:
            states = reachable_states(gold.simulator, work_bound)
            if states is not None:
                return _by_enumeration(gold, pred, renaming, states, static)
        except SimulationError:  # one state's actions or goal past the simulator's max_work
            states = None
        if rule == "enumeration":
            return _Decision(None, "enumeration", renaming,
                             message=f"more than {work_bound:,} reachable states")
    return _fully_specified(domain_text, domain, gold, pred, renaming, static, timeout)


__all__ = ["Counterexample", "DEFAULT_WORK_BOUND", "MAX_IMPLICATION_CHECKS", "MAX_RENAMINGS",
           "PLAN_TIMEOUT", "ProblemComparisonError", "ProblemVerdict", "Rule", "compare_problems",
           "reachable_states"]
