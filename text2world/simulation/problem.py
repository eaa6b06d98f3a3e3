"""Problems, ground actions and plans: the inputs of the simulator.

A problem is parsed with tarski (``raise_on_error=True``) against its domain into the small
immutable ``PlanningProblem``. Ground atoms are tuples ``(predicate, arg1, ...)`` of lower-case
strings; a state is a ``frozenset`` of them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, NamedTuple

from text2world.errors import Text2WorldError
from text2world.pddl.model import Domain, Formula, TypedName, check_domain_text

__all__ = [
    "GroundAtom", "State", "DEFAULT_MAX_WORK", "MAX_QUANTIFIED_BINDINGS", "LIMIT",
    "COST_FUNCTION", "SimulationError", "UnsupportedFeature", "ProblemError",
    "WorkLimitExceeded", "GroundingTooLarge", "GroundAction", "parse_plan", "atom_to_pddl",
    "parse_atom", "PlanningProblem", "parse_problem", "TypedName",
]

GroundAtom = tuple  # (predicate, arg1, ...), all strings
State = frozenset   # of GroundAtom

DEFAULT_MAX_WORK = 2_000_000
# Object combinations one quantifier may range over, nested quantifiers multiplied (a forall of
# 14 variables over 3 objects is 4.8 million): past it the problem is refused before any
# grounding (``GroundingTooLarge``), by the simulator and so before Fast Downward's translator.
# The golds' largest is 324 (tic-tac-toe's third problem).
MAX_QUANTIFIED_BINDINGS = 200_000
LIMIT = "limit"  # starts a reason where a bound on the work (not a clock) refused an input
MAX_PROBLEM_CHARS = 512_000
COST_FUNCTION = "total-cost"


class SimulationError(Text2WorldError, ValueError):
    """A domain or problem this simulator cannot run; ``reason`` says what and where."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class UnsupportedFeature(SimulationError):
    """The domain uses PDDL the simulator does not implement (numeric fluents, object fluents)."""


class ProblemError(SimulationError):
    """The problem does not parse or does not fit the domain."""


class WorkLimitExceeded(SimulationError):
    """Grounding needed more search nodes than the simulator's ``max_work``."""


class GroundingTooLarge(SimulationError):
    """A quantifier of the domain ranges over more object combinations on this problem than
    ``MAX_QUANTIFIED_BINDINGS``; the reason starts with ``limit:``."""


# --------------------------------------------------------------------------------------------
# Ground actions, problems, plans


class GroundAction(NamedTuple):
    """An action name with the objects bound to its parameters, in order.

    A named tuple (fast to build, hash and sort: by name, then arguments).
    """

    name: str
    args: tuple[str, ...] = ()

    def to_pddl(self) -> str:
        return "(" + " ".join((self.name, *self.args)) + ")"

    def __str__(self) -> str:
        return self.to_pddl()

    @staticmethod
    def parse(text: str) -> "GroundAction":
        """``(stack a b)``, ``stack a b`` or a plan-file line ``0: (stack a b) [1]``."""
        match = _PLAN_STEP.search(text)
        if match is None:
            raise ValueError(f"not a ground action: {text!r}")
        inner = match.group(1) if match.group(1) is not None else match.group(2)
        words = inner.lower().split()
        if not words:
            raise ValueError(f"not a ground action: {text!r}")
        return GroundAction(words[0], tuple(words[1:]))


_PLAN_STEP = re.compile(r"\(([^()]*)\)|^\s*(?:\d+(?:\.\d+)?\s*:\s*)?([^()\[\];]+?)\s*(?:\[.*)?$")


def parse_plan(plan: str | Iterable[str | GroundAction]) -> list[GroundAction]:
    """A plan as text (one step per line; ``;`` comments and ``[cost]`` suffixes ignored) or as
    a sequence of step strings / ``GroundAction``."""
    if isinstance(plan, str):
        items: Iterable = [line.split(";", 1)[0] for line in plan.splitlines()]
        items = [line for line in items if line.strip()]
    else:
        items = plan
    return [item if isinstance(item, GroundAction) else GroundAction.parse(item)
            for item in items]


def atom_to_pddl(atom: GroundAtom) -> str:
    return "(" + " ".join(atom) + ")"


# A ground atom as a model or a client writes it (world-model answers, the simulate tool's
# states), read leniently: the inverse of atom_to_pddl.
_ATOM = re.compile(r"\(\s*([A-Za-z][\w-]*)((?:\s+[\w-]+)*)\s*\)")
_CALL = re.compile(r"^\s*([A-Za-z][\w-]*)\s*\(\s*([\w\s,-]*)\)\s*$")


def parse_atom(value: object) -> tuple[str, ...] | None:
    """``(on a b)``, ``on(a, b)`` or ``on a b`` as a ground atom, lower-cased; None if not."""
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return tuple(v.strip().lower() for v in value)
    if not isinstance(value, str):
        return None
    text = value.strip()
    match = _ATOM.fullmatch(text)
    if match:
        return (match.group(1).lower(), *match.group(2).lower().split())
    match = _CALL.match(text)
    if match:
        args = [a for a in re.split(r"[\s,]+", match.group(2).lower()) if a]
        return (match.group(1).lower(), *args)
    words = text.lower().split()
    if words and all(re.fullmatch(r"[\w-]+", w) for w in words):
        return tuple(words)
    return None


@dataclass(frozen=True)
class PlanningProblem:
    """A problem instance: its objects (domain constants included), initial atoms, goal,
    the initial values of numeric functions (action costs) and the metric, if any."""

    name: str
    domain_name: str
    objects: tuple[TypedName, ...]
    init: frozenset
    goal: Formula
    function_values: tuple[tuple[GroundAtom, float], ...] = ()
    metric: str | None = None

    def object_names(self) -> tuple[str, ...]:
        return tuple(o.name for o in self.objects)

    def to_pddl(self, domain_name: str | None = None, *, typed: bool = True,
                exclude: Iterable[str] = ()) -> str:
        """The problem as PDDL; ``exclude`` leaves out objects the domain declares as
        constants, ``typed=False`` prints objects without types."""
        skip = set(exclude)
        objects = " ".join(o.to_pddl() if typed else o.name for o in self.objects
                           if o.name not in skip)
        facts = [atom_to_pddl(a) for a in sorted(self.init)]
        facts += [f"(= {atom_to_pddl(key)} {value:g})" for key, value in self.function_values]
        metric = f"\n  (:metric {self.metric})" if self.metric else ""
        return (f"(define (problem {self.name}) (:domain {domain_name or self.domain_name})\n"
                f"  (:objects {objects})\n  (:init {' '.join(facts)})\n"
                f"  (:goal {self.goal.to_pddl()}){metric})\n")


def _reader_of_printed(domain_text: str, err: Exception) -> Any:
    """A tarski reader of the domain as ``parse_domain`` reads it, for a text whose folded form
    tarski refuses although ``parse_domain`` accepts it (a type ``Object`` beside the built-in
    ``object``): its printed form folds cleanly. Else ``ProblemError`` with tarski's message."""
    from tarski.io import PDDLReader

    from text2world.pddl.model import folding_can_change_parse, parse_domain

    if folding_can_change_parse(domain_text):
        try:
            printed = parse_domain(domain_text).to_pddl()
            reader = PDDLReader(raise_on_error=True)
            reader.parse_domain_string(printed.lower())
            return reader
        except Exception:  # noqa: BLE001 - the first error is the one to report
            pass
    raise ProblemError(f"the domain does not parse: {type(err).__name__}: {err}") from None


def parse_problem(domain: Domain | str, problem_text: str) -> PlanningProblem:
    """Parse a problem against its domain with tarski (``raise_on_error=True``).

    ``domain`` is the domain's PDDL text or a ``Domain`` (printed back for tarski). Names are
    case-folded, as ``parse_domain`` does. Raises ``ProblemError`` with tarski's message.
    """
    from text2world.pddl.model import formula_from_tarski  # one converter from tarski formulas, in pddl.py
    from text2world.pddl.normalise import normalise_for_tarski

    if not isinstance(problem_text, str) or not problem_text.strip():
        raise ProblemError("the problem text is empty")
    if len(problem_text) > MAX_PROBLEM_CHARS:
        raise ProblemError(f"the problem text has {len(problem_text):,} characters; "
                           f"the limit is {MAX_PROBLEM_CHARS:,}")
    domain_text = domain.to_pddl() if isinstance(domain, Domain) else domain
    try:
        check_domain_text(problem_text)  # NUL bytes, nesting depth: same guards as domains
    except ValueError as err:
        raise ProblemError(f"problem: {err}") from None
    from text2world.pddl.tarski_cache import domain_reader, read_instance
    try:
        # valid PDDL tarski refuses (an action without :precondition, a subtype declared
        # before its parent) is rewritten first, as validation and scoring do; the texts'
        # trees are parsed once per process (pddl.tarski_cache)
        reader = domain_reader(normalise_for_tarski(domain_text).lower())
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        reader = _reader_of_printed(domain_text, err)
    try:
        tproblem = read_instance(reader, problem_text.lower())
    except RecursionError:
        raise ProblemError("the problem is nested too deeply to parse") from None
    except Exception as err:  # noqa: BLE001
        raise ProblemError(f"the problem does not parse: {type(err).__name__}: {err}") from None
    objects = tuple(TypedName(str(c.symbol), str(c.sort.name))
                    for c in tproblem.language.constants()
                    if c.sort.name not in ("Real", "Integer", "Natural", "number"))
    init: set = set()
    values: list = []
    for item in tproblem.init.as_atoms():
        if isinstance(item, tuple):  # (function term, value)
            term, value = item
            key = (str(term.symbol.symbol), *(str(t.symbol) for t in term.subterms))
            try:
                values.append((key, float(str(value).split()[0])))
            except ValueError:
                raise UnsupportedFeature(
                    f"the problem assigns a non-numeric value ({value}) to "
                    f"{atom_to_pddl(key)}: object-valued functions are not supported") from None
        else:
            init.add((str(item.predicate.symbol), *(str(t.symbol) for t in item.subterms)))
    metric = None
    if tproblem.plan_metric is not None:
        from text2world.pddl.model import term_from_tarski  # tarski term -> "(total-cost)"
        metric = f"{tproblem.plan_metric.opt_type} {term_from_tarski(tproblem.plan_metric.opt_expression)}"
    return PlanningProblem(str(tproblem.name), str(tproblem.domain_name), objects,
                           frozenset(init), formula_from_tarski(tproblem.goal), tuple(sorted(values)),
                           metric)
