"""Faithful rewrites and task-changing mutants of the store's problems, for the tests and the
bench of the problem-equivalence check (``text2world.scoring.problem_equivalence``).

A rewrite renames every object (the domain's constants keep their names), shuffles objects,
initial facts and goal conjuncts, and may state the goal with the facts every reachable goal
state implies, or as an equivalent formula (De Morgan). A mutant changes the task by one fact:
an initial fact dropped, one argument of a goal fact moved to another object of its type, or an
object added with a copy of another's initial facts. ``reachable_goal_states`` enumerates the
gold's reachable states independently of the check, to prove what a mutant changes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from itertools import permutations, product
from math import factorial
from pathlib import Path

from repo_paths import REPO

from text2world.pddl.model import And, Atom, Not, Or, map_formula, parse_domain
from text2world.scoring.problem_equivalence import reachable_states
from text2world.simulation import PlanningProblem, Simulator, parse_problem

MAX_PERMUTATIONS = 5_000


@dataclass
class StoreProblem:
    name: str
    domain_text: str
    text: str
    problem: PlanningProblem
    simulator: Simulator
    constants: frozenset


def store_problems(root: Path = REPO / "data") -> list[StoreProblem]:
    found = []
    for folder in sorted((root / "problems").iterdir()):
        domain_text = (root / "domains" / f"{folder.name}.pddl").read_text(encoding="utf-8")
        domain = parse_domain(domain_text)
        for path in sorted(folder.glob("*.pddl")):
            text = path.read_text(encoding="utf-8")
            problem = parse_problem(domain_text, text)
            found.append(StoreProblem(f"{folder.name}/{path.stem}", domain_text, text, problem,
                                      Simulator(domain, problem),
                                      frozenset(c.name for c in domain.constants)))
    return found


def _atom_text(atom: tuple) -> str:
    return "(" + " ".join(atom) + ")"


def render(item: StoreProblem, objects, init, goal, rng: random.Random) -> str:
    """The problem as PDDL with objects, initial facts and top-level goal conjuncts shuffled."""
    objects = [o for o in objects if o.name not in item.constants]
    rng.shuffle(objects)
    facts = [_atom_text(a) for a in init]
    facts += [f"(= {_atom_text(k)} {v:g})" for k, v in item.problem.function_values]
    rng.shuffle(facts)
    if isinstance(goal, And):
        parts = list(goal.parts)
        rng.shuffle(parts)
        goal = And(tuple(parts))
    metric = f"\n  (:metric {item.problem.metric})" if item.problem.metric else ""
    return (f"(define (problem rewritten) (:domain {item.problem.domain_name})\n"
            f"  (:objects {' '.join(o.to_pddl() for o in objects)})\n"
            f"  (:init {' '.join(facts)})\n  (:goal {goal.to_pddl()}){metric})\n")


def renaming(item: StoreProblem, rng: random.Random) -> dict:
    names = [o.name for o in item.problem.objects if o.name not in item.constants]
    fresh = [f"thing{index}" for index in range(len(names))]
    rng.shuffle(fresh)
    return dict(zip(names, fresh))


def renamed(item: StoreProblem, mapping: dict, goal=None):
    def rename_atom(node):
        if isinstance(node, Atom):
            return Atom(node.predicate, tuple(mapping.get(a, a) for a in node.args))
        return node
    objects = [type(o)(mapping.get(o.name, o.name), o.type) for o in item.problem.objects]
    init = [(a[0], *(mapping.get(x, x) for x in a[1:])) for a in item.problem.init]
    return objects, init, map_formula(goal if goal is not None else item.problem.goal,
                                      rename_atom)


def de_morgan(goal):
    """An equivalent goal formula: a conjunction as the negated disjunction of negations."""
    if isinstance(goal, And):
        return Not(Or(tuple(Not(part) for part in goal.parts)))
    return Not(Not(goal))


def rewrites(item: StoreProblem, states: list | None, seed: int) -> dict:
    """name -> PDDL text of each faithful rewrite of ``item``."""
    rng = random.Random(seed)
    found = {}
    mapping = renaming(item, rng)
    found["renamed, reordered"] = render(item, *renamed(item, mapping), rng)
    found["De Morgan goal"] = render(item, *renamed(item, mapping, de_morgan(item.problem.goal)),
                                     rng)
    if states is not None:
        accepted = [s for s in states if item.simulator.goal_reached(s)]
        if accepted:
            implied = frozenset.intersection(*accepted)
            goal = item.problem.goal
            parts = goal.parts if isinstance(goal, And) else (goal,)
            extra = tuple(Atom(a[0], tuple(a[1:])) for a in sorted(implied - item.problem.init)
                          if Atom(a[0], tuple(a[1:])) not in parts)
            if extra:
                found["goal with implied facts"] = render(
                    item, *renamed(item, mapping, And(tuple(parts) + extra)), rng)
    return found


def mutants(item: StoreProblem, seed: int) -> dict:
    """name -> (PDDL text, the mutated problem's init and goal) of each single-fact mutant."""
    rng = random.Random(seed)
    problem = item.problem
    found = {}
    init = sorted(problem.init)
    if init:
        dropped = rng.choice(init)
        kept = [a for a in init if a != dropped]
        found[f"dropped {_atom_text(dropped)}"] = (
            render(item, list(problem.objects), kept, problem.goal, rng), frozenset(kept),
            problem.goal)
    by_type: dict = {}
    for obj in problem.objects:
        by_type.setdefault(obj.type, []).append(obj.name)
    goal_atoms = [part for part in (problem.goal.parts if isinstance(problem.goal, And)
                                    else (problem.goal,)) if isinstance(part, Atom) and part.args]
    rng.shuffle(goal_atoms)
    types = {o.name: o.type for o in problem.objects}
    for atom in goal_atoms:
        position = rng.randrange(len(atom.args))
        options = [o for o in by_type.get(types.get(atom.args[position], ""), [])
                   if o != atom.args[position]]
        if not options:
            continue
        args = list(atom.args)
        args[position] = rng.choice(options)
        new = Atom(atom.predicate, tuple(args))
        goal = map_formula(problem.goal, lambda node: new if node == atom else node)
        if goal == problem.goal:
            continue
        found[f"goal {atom.to_pddl()} -> {new.to_pddl()}"] = (
            render(item, list(problem.objects), init, goal, rng), problem.init, goal)
        break
    movable = [o for o in problem.objects if o.name not in item.constants]
    if movable:
        model = rng.choice(movable)
        twin = type(model)(f"{model.name}-twin", model.type)
        copies = [(a[0], *(twin.name if x == model.name else x for x in a[1:]))
                  for a in init if model.name in a[1:]]
        grown = sorted(set(init) | set(copies))
        found[f"added {twin.name}"] = (
            render(item, [*problem.objects, twin], grown, problem.goal, rng), None, None)
    return found


def goal_sets_differ(item: StoreProblem, states: list, goal) -> bool | None:
    """Whether ``goal`` accepts other reachable states than the gold's under every renaming that
    keeps the initial state (True: proved; None: too many renamings to try)."""
    mutant = Simulator(item.simulator.domain,
                       PlanningProblem(problem_name(item), item.problem.domain_name,
                                       item.problem.objects, item.problem.init, goal,
                                       item.problem.function_values, item.problem.metric))
    gold = frozenset(s for s in states if item.simulator.goal_reached(s))
    other = frozenset(s for s in states if mutant.goal_reached(s))
    if len(gold) != len(other):
        return True  # a renaming keeps the number of states a goal accepts
    if gold == other:
        return False
    groups: dict = {}
    for obj in item.problem.objects:
        if obj.name not in item.constants:
            groups.setdefault(obj.type, []).append(obj.name)
    count = 1
    for names in groups.values():
        count *= factorial(len(names))
    if count > MAX_PERMUTATIONS:
        return None
    init = item.problem.init
    for choice in product(*(permutations(names) for names in groups.values())):
        mapping = {}
        for names, image in zip(groups.values(), choice):
            mapping.update(zip(names, image))
        def move(state):
            return frozenset((a[0], *(mapping.get(x, x) for x in a[1:])) for a in state)
        if move(init) == init and frozenset(move(s) for s in other) == gold:
            return False
    return True


def problem_name(item: StoreProblem) -> str:
    return item.problem.name


__all__ = ["StoreProblem", "goal_sets_differ", "mutants", "reachable_states", "render",
           "rewrites", "store_problems"]
