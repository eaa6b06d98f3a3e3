"""Descriptions of one problem of a domain, in two styles, and the lint of the abstract one.

* ``explicit``: every object, initial fact and goal in prose, each fact by its predicate's
  gloss (the store keeps its glosses in its descriptions' predicate lines:
  ``worlds.prose.glosses_from_description``; the one renderer is ``worlds.prose``).
* ``abstract``: what a person would say. The initial state and the goal are summarised per
  predicate: quantified over a type when every object of it shares the predicate ("every
  block ?b: nothing is piled on block ?b"), else counted ("for 2 of the 5 packages ..."),
  naming an object only where a fact is about one object and it is one of a few
  (``MAX_NAMED``). Never a fact per sentence: ``lint_abstract`` checks that.
"""

from __future__ import annotations

import re
import textwrap
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from text2world.errors import Text2WorldError
from text2world.pddl.model import And, Atom, Domain, Formula, Not, Or, Quantified, Truth, parse_domain
from text2world.simulation import PlanningProblem, SimulationError, parse_problem
from text2world.store.datasets import Record
from text2world.worlds.plan import Literal, PredicateSpec
from text2world.worlds.prose import (
    gloss_spec,
    glosses_from_description,
    join_clauses,
    render_fact,
    render_ground,
    sentence,
)

STYLES = ("explicit", "abstract")
MAX_NAMED = 3  # object names an abstract description may give (lint_abstract)
WIDTH = 78  # descriptions are wrapped to this width (read in terminals too)


def _wrapped(lines: Sequence[str]) -> str:
    """Each line wrapped to ``WIDTH``; a bullet's continuation indented under its text."""
    return "\n".join(textwrap.fill(line, WIDTH, subsequent_indent="  " if
                                   line.startswith("- ") else "", break_on_hyphens=False,
                                   break_long_words=False) if line else ""
                     for line in lines) + "\n"


class DescriptionError(Text2WorldError, ValueError):
    """A problem that cannot be described (it does not parse against its domain)."""


@dataclass(frozen=True)
class Described:
    """A problem with what its descriptions are rendered from."""

    domain: Domain
    problem: PlanningProblem
    glosses: dict[str, PredicateSpec]

    @property
    def objects(self) -> list[tuple[str, str]]:
        """The problem's own objects (the domain's constants left out), (name, type)."""
        constants = {c.name for c in self.domain.constants}
        return [(o.name, o.type) for o in self.problem.objects if o.name not in constants]


def described(record: Record, problem_pddl: str) -> Described:
    """Parse ``problem_pddl`` against the record's domain, with the record's glosses (a
    predicate without a gloss line gets one from its name)."""
    try:
        domain = parse_domain(record.domain)
        problem = parse_problem(record.domain, problem_pddl)
    except SimulationError as err:
        raise DescriptionError(f"{record.id}: {err.reason}") from None
    except Exception as err:  # noqa: BLE001 - the domain parser raises many classes
        raise DescriptionError(f"{record.id}: the domain does not parse: {err}") from None
    glosses = glosses_from_description(record.concrete or record.abstract or "")
    for predicate in domain.predicates:
        if predicate.name not in glosses:
            params = [(f"x{i}", p.type) for i, p in enumerate(predicate.parameters)]
            words = predicate.name.replace("-", " ").replace("_", " ")
            text = f"{words} holds" + (" of " + " and ".join(f"?{v}" for v, _ in params)
                                       if params else "")
            glosses[predicate.name] = gloss_spec(predicate.name, params, text)
    return Described(domain, problem, glosses)


def _spec(glosses: Mapping[str, PredicateSpec], name: str, arity: int) -> PredicateSpec:
    spec = glosses.get(name)
    if spec is None or len(spec.params) != arity:  # "=", or a gloss of another arity
        params = [(f"x{i}", "object") for i in range(arity)]
        text = f"{name} holds of " + " and ".join(f"?{v}" for v, _ in params)
        spec = gloss_spec(name, params, text)
    return spec


def _formula_text(glosses: Mapping[str, PredicateSpec], formula: Formula) -> str:
    """A goal formula in words, each atom by its gloss."""
    if isinstance(formula, Atom):
        args = [a.lstrip("?") if a.startswith("?") else a for a in formula.args]
        spec = _spec(glosses, formula.predicate, len(args))
        return render_fact(spec, [f"?{a}" if o.startswith("?") else a
                                  for a, o in zip(args, formula.args)])
    if isinstance(formula, Truth):
        return "nothing in particular"
    if isinstance(formula, Not):
        if isinstance(formula.formula, Atom):
            atom = formula.formula
            spec = _spec(glosses, atom.predicate, len(atom.args))
            return render_fact(spec, list(atom.args), positive=False)
        return f"it is not the case that {_formula_text(glosses, formula.formula)}"
    if isinstance(formula, And):
        return join_clauses([_formula_text(glosses, p) for p in formula.parts])
    if isinstance(formula, Or):
        return "either " + " or ".join(_formula_text(glosses, p) for p in formula.parts)
    if isinstance(formula, Quantified):
        variables = join_clauses([f"{v.name} of type {v.type}" for v in formula.variables])
        word = "for every" if formula.quantifier == "forall" else "for some"
        return f"{word} {variables}, {_formula_text(glosses, formula.body)}"
    return formula.to_pddl()


def _objects_sentence(objects: Sequence[tuple[str, str]]) -> str:
    by_type: dict[str, list[str]] = defaultdict(list)
    for name, kind in objects:
        by_type[kind].append(name)
    if not by_type:
        return "There are no objects besides the domain's own."
    parts = [f"the {kind} object{'s' if len(names) > 1 else ''} {join_clauses(names)}"
             for kind, names in sorted(by_type.items())]
    return sentence("The objects are " + "; ".join(parts))


def _init_literals(problem: PlanningProblem) -> list[Literal]:
    return [Literal(atom[0], tuple(atom[1:])) for atom in sorted(problem.init)]


def explicit_description(record: Record, problem_pddl: str) -> str:
    """Every object, initial fact and goal of the problem in prose."""
    info = described(record, problem_pddl)
    lines = [_objects_sentence(info.objects), ""]
    facts = _init_literals(info.problem)
    by_predicate: dict[str, list[Literal]] = defaultdict(list)
    for fact in facts:
        by_predicate[fact.predicate].append(fact)
    lines.append("Initially:" if facts else "Initially, no fact holds.")
    glosses = {name: _spec(info.glosses, name, len(group[0].args))
               for name, group in by_predicate.items()}
    lines += [f"- {render_ground(glosses, group)}" for _, group in sorted(by_predicate.items())]
    for key, value in info.problem.function_values:
        lines.append(f"- The value of ({' '.join(key)}) is {value:g}.")
    lines += ["", "The goal: " + sentence(_formula_text(info.glosses, info.problem.goal))]
    if info.problem.metric:
        lines.append(f"Plans are judged by the metric: {info.problem.metric}.")
    return _wrapped(lines)


def _type_members(info: Described) -> dict[str, set[str]]:
    """Type -> the problem's objects of that type (declared type only)."""
    members: dict[str, set[str]] = defaultdict(set)
    for obj in info.problem.objects:
        members[obj.type].add(obj.name)
    return members


def _facts(count: int) -> str:
    return f"{count} fact{'s' if count != 1 else ''}"


@dataclass
class _Names:
    """The object names an abstract description gave, and its clauses that name one: each
    at most ``MAX_NAMED`` (what ``lint_abstract`` allows)."""

    names: list[str]
    clauses: int = 0

    def allow(self, wanted: Iterable[str]) -> bool:
        new = set(wanted) - set(self.names)
        return self.clauses < MAX_NAMED and len(self.names) + len(new) <= MAX_NAMED

    def take(self, wanted: Iterable[str]) -> None:
        self.names += sorted(set(wanted) - set(self.names))


def _summary(info: Described, facts: Iterable[Literal], named: _Names) -> list[str]:
    """One clause per predicate: quantified, counted, or (one argument and few objects)
    naming its objects; an argument every fact of the predicate shares is named while names
    are left (``_Names``)."""
    members = _type_members(info)
    grouped: dict[tuple[str, bool], list[Literal]] = defaultdict(list)
    for fact in facts:
        grouped[(fact.predicate, fact.positive)].append(fact)
    clauses = []
    for (name, positive), group in sorted(grouped.items()):
        spec = _spec(info.glosses, name, len(group[0].args))
        if not spec.params:
            clauses.append(render_fact(spec, (), positive))
            continue
        arguments = [f"?{v}" for v in spec.variables]
        shared = {position: group[0].args[position] for position in range(1, len(arguments))
                  if len({fact.args[position] for fact in group}) == 1}
        if shared and named.allow(shared.values()):  # arguments all its facts share
            named.take(shared.values())
            named.clauses += 1
            for position, value in shared.items():
                arguments[position] = f"`{value}`"
        pattern = render_fact(spec, arguments, positive)
        first_var, first_type = spec.params[0]
        subjects = {fact.args[0] for fact in group}
        pool = members.get(first_type) or subjects
        kind = first_type if first_type != "object" else "object"
        if subjects >= pool and len(group) == len(pool):
            clauses.append(f"for every {kind} ?{first_var}: {pattern}")
        elif len(spec.params) == 1 and named.allow(subjects):
            named.take(subjects)
            named.clauses += 1
            who = join_clauses([f"`{s}`" for s in sorted(subjects)])
            clauses.append(f"{pattern}, for ?{first_var} = {who} only")
        elif subjects >= pool:
            clauses.append(f"for every {kind} ?{first_var}, {_facts(len(group))} in all: "
                           f"{pattern}")
        else:
            clauses.append(f"for {len(subjects)} of the {len(pool)} {kind} objects "
                           f"?{first_var} ({_facts(len(group))}): {pattern}")
    return clauses


def _goal_literals(formula: Formula) -> list[Literal] | None:
    """A goal that is a conjunction of ground literals, as literals (None otherwise)."""
    parts = formula.parts if isinstance(formula, And) else (formula,)
    literals = []
    for part in parts:
        positive = not isinstance(part, Not)
        atom = part.formula if isinstance(part, Not) else part
        if not isinstance(atom, Atom) or any(a.startswith("?") for a in atom.args):
            return None
        literals.append(Literal(atom.predicate, atom.args, positive))
    return literals


def abstract_description(record: Record, problem_pddl: str) -> str:
    """What a person would say of the problem: counts, quantified summaries, never a fact
    per sentence (``lint_abstract``)."""
    info = described(record, problem_pddl)
    counts: dict[str, int] = defaultdict(int)
    for _, kind in info.objects:
        counts[kind] += 1
    named = _Names([])
    lines = [sentence("Objects: " + join_clauses(
        [f"{n} of type {kind}" for kind, n in sorted(counts.items())]))
        if counts else "There are no objects besides the domain's own."]
    init = _summary(info, _init_literals(info.problem), named)
    if init:
        lines.append("In the initial state: " + "; ".join(init) + ".")
    goal = _goal_literals(info.problem.goal)
    if goal is None:  # a quantified or disjunctive goal is already a summary
        lines.append("The goal: " + sentence(_formula_text(info.glosses, info.problem.goal)))
    else:
        lines.append("The goal: " + ("; ".join(_summary(info, goal, named)) or
                                      "nothing in particular") + ".")
    if info.problem.function_values:
        lines.append(f"Numeric values are set for {len(info.problem.function_values)} "
                     "function terms (costs, capacities) as the domain expects.")
    return _wrapped(lines)


def vocabulary(info: Described) -> set[str]:
    """The words of the domain's glosses (``lint_abstract``)."""
    return {w.lower() for spec in info.glosses.values()
            for w in re.findall(r"[\w-]+", re.sub(r"\{\w+\}", " ", spec.gloss))}


def lint_problem_description(record: Record, problem_pddl: str, text: str) -> list[str]:
    """``lint_abstract`` of ``text`` with the problem's objects and the domain's words."""
    info = described(record, problem_pddl)
    return lint_abstract(text, [name for name, _ in info.objects], vocabulary=vocabulary(info))


def describe(record: Record, problem_pddl: str, style: str) -> str:
    if style not in STYLES:
        raise DescriptionError(f"unknown description style {style!r}; choose "
                               + " or ".join(STYLES))
    return (explicit_description if style == "explicit" else abstract_description)(
        record, problem_pddl)


# --------------------------------------------------------------------------------------------
# The lint of abstract descriptions

_SENTENCES = re.compile(r"(?<=[.;:])\s+|\n\s*\n")  # a wrapped line is no new sentence


# names that are everyday words: an article is not an object named "a"
_EVERYDAY = frozenset({"a", "an", "i", "the", "to", "in", "on", "at", "of", "and", "or", "is",
                       "it", "be", "by", "no", "not", "all", "one", "two", "any", "each"})


def mentioned_objects(text: str, object_names: Iterable[str]) -> set[str]:
    """The object names ``text`` mentions: in backticks, or as a word of its own (a
    ``?variable`` is not one; nor an everyday word such as the article ``a``)."""
    found = {n.lower() for n in re.findall(r"`([^`\s]+)`", text)}
    for name in object_names:
        if name.lower() not in _EVERYDAY and re.search(
                r"(?<![\w?-])" + re.escape(name) + r"(?![\w-])", text, re.IGNORECASE):
            found.add(name.lower())
    return found


def lint_abstract(text: str, object_names: Iterable[str], max_named: int = MAX_NAMED,
                  vocabulary: Iterable[str] = ()) -> list[str]:
    """What makes ``text`` not an abstract description: more than ``max_named`` object names,
    or more than ``max_named`` sentences that name objects (a fact per sentence). A name that
    is a word of the domain's ``vocabulary`` (its glosses: an object ``cold`` where a gloss
    says "cold") counts only in backticks. Empty: it passes."""
    words = {w.lower() for w in vocabulary}
    names = [n for n in object_names if n.lower() not in words]
    problems = []
    mentioned = mentioned_objects(text, names)
    if len(mentioned) > max_named:
        problems.append(f"names {len(mentioned)} objects (at most {max_named}): "
                        + ", ".join(sorted(mentioned)[:8]))
    naming = [part.strip() for part in _SENTENCES.split(text)
              if mentioned_objects(part, names)]
    if len(naming) > max_named:
        problems.append(f"{len(naming)} sentences name objects (at most {max_named}), as a "
                        f"list of facts does: {naming[0][:60]!r} ...")
    return problems
