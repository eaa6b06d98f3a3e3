"""The reference models' answers to the problem task (``reference/oracle``,
``reference/noisy-oracle``), registered with ``model.reference`` when this module is imported.

The task passes each call's truth in its reference context (``{"task": "problem", "domain",
"problem", "item", "round", "seed", "feedback"}``). The oracle answers the gold problem. The
noisy oracle draws per (seed, item) how many correction rounds the item needs (0 to 3) and
whether its final answer keeps a real problem error (a missing initial fact, a goal over the
wrong object, an extra object, a dropped goal); until then it answers that final problem
broken the way the validator reports (an unknown predicate, an undeclared object, an
unbalanced parenthesis). A final error the validator reports (the problem proven unsolvable)
is fixed in the next round, as generation's noisy oracle fixes what its feedback shows.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Callable

from text2world.model.reference import register_reference_answerer
from text2world.pddl.model import And, Atom, Formula, Not, Or, Quantified, TypedName, parse_domain
from text2world.simulation import PlanningProblem, SimulationError, parse_problem

SEMANTIC_ERRORS = ("missing-initial-fact", "goal-wrong-object", "extra-object", "dropped-goal")
FINAL_ERROR_SHARE = 0.35


def _printed(problem: PlanningProblem, domain_text: str) -> str:
    domain = parse_domain(domain_text)
    return problem.to_pddl(domain.name, exclude=[c.name for c in domain.constants])


def _map_atoms(formula: Formula, change: Callable[[Atom], Atom]) -> Formula:
    if isinstance(formula, Atom):
        return change(formula)
    if isinstance(formula, Not):
        return Not(_map_atoms(formula.formula, change))
    if isinstance(formula, (And, Or)):
        return type(formula)(tuple(_map_atoms(p, change) for p in formula.parts))
    if isinstance(formula, Quantified):
        return Quantified(formula.quantifier, formula.variables, _map_atoms(formula.body, change))
    return formula


def _goal_atoms(formula: Formula) -> list[Atom]:
    if isinstance(formula, Atom):
        return [formula]
    if isinstance(formula, Not):
        return _goal_atoms(formula.formula)
    if isinstance(formula, (And, Or)):
        return [atom for part in formula.parts for atom in _goal_atoms(part)]
    if isinstance(formula, Quantified):
        return _goal_atoms(formula.body)
    return []


def semantic_error(domain_text: str, gold: str, kind: str, rng: random.Random) -> str | None:
    """``gold`` with one real problem error of ``kind`` (None where the problem has nothing to
    break that way)."""
    try:
        problem = parse_problem(domain_text, gold)
    except SimulationError:
        return None
    constants = {c.name for c in parse_domain(domain_text).constants}
    own = [o for o in problem.objects if o.name not in constants]
    if kind == "missing-initial-fact" and problem.init:
        dropped = rng.choice(sorted(problem.init))
        return _printed(replace(problem, init=problem.init - {dropped}), domain_text)
    if kind == "extra-object" and own:
        model = rng.choice(own)
        return _printed(replace(problem, objects=problem.objects + (
            TypedName(f"{model.name}-extra", model.type),)), domain_text)
    if kind == "dropped-goal" and isinstance(problem.goal, And) and len(problem.goal.parts) > 1:
        parts = list(problem.goal.parts)
        parts.pop(rng.randrange(len(parts)))
        return _printed(replace(problem, goal=And(tuple(parts))), domain_text)
    if kind == "goal-wrong-object":
        types = {o.name: o.type for o in problem.objects}
        candidates = [(atom, i, other.name) for atom in _goal_atoms(problem.goal)
                      for i, arg in enumerate(atom.args) if arg in types
                      for other in own if other.type == types[arg] and other.name != arg]
        if candidates:
            target, index, other_name = rng.choice(candidates)
            args = list(target.args)
            args[index] = other_name
            wrong = Atom(target.predicate, tuple(args))
            goal = _map_atoms(problem.goal, lambda atom: wrong if atom == target else atom)
            return _printed(replace(problem, goal=goal), domain_text)
    return None


def syntax_error(text: str, rng: random.Random) -> str:
    """``text`` broken as the validator reports: an unknown predicate, an undeclared object
    or an unbalanced parenthesis."""
    init = text.find("(:init")
    start = text.find("(", init + 1) if init >= 0 else -1
    end = text.find(")", start) if start >= 0 else -1
    kind = rng.choice(("predicate", "object", "parenthesis"))
    if kind == "parenthesis" or start < 0 or end < 0:
        return text.rstrip()[:-1]
    words = text[start + 1:end].split()
    if kind == "predicate" or len(words) < 2:
        return text[:start + 1] + words[0] + "-state" + text[start + 1 + len(words[0]):]
    return text[:start + 1] + " ".join([words[0], "unknown-thing", *words[2:]]) + text[end:]


def reference_problem_answer(model: str, context: dict) -> str:
    """The answer of ``model`` (oracle or noisy-oracle) to one round of one problem item."""
    gold = str(context["problem"])
    if model == "oracle":
        return f"The problem, as described:\n\n```pddl\n{gold.strip()}\n```\n"
    domain = str(context["domain"])
    seed, item, round_index = int(context.get("seed", 0)), str(context["item"]), \
        int(context.get("round", 0))
    rng = random.Random(f"problem:{seed}:{item}")
    needed = rng.choices([0, 1, 2, 3], weights=[40, 30, 20, 10])[0]
    final = gold
    if rng.random() < FINAL_ERROR_SHARE:
        kinds = list(SEMANTIC_ERRORS)
        rng.shuffle(kinds)
        for kind in kinds:
            broken = semantic_error(domain, gold, kind, random.Random(f"{seed}:{item}:{kind}"))
            if broken is not None:
                final = broken
                break
    feedback = context.get("feedback") or {}
    if feedback.get("unsolvable"):  # told that its problem has no plan: it restores the gold
        final = gold
    if round_index >= needed:
        return f"Here is the problem.\n\n```pddl\n{final.strip()}\n```\n"
    body = syntax_error(final, random.Random(f"{seed}:{item}:{round_index}"))
    return f"Let me write the problem step by step.\n\n```pddl\n{body.strip()}\n```\n"


register_reference_answerer("problem", reference_problem_answer)
