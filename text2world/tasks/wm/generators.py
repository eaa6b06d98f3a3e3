"""Worlds big enough to be hard: a seeded problem generator for every store domain.

The store's problems are small (a median state allows about 2 ground actions), so a random
applicable action is often a good one. The generator scales any store domain the same way,
without domain-specific code:

1. **grow objects**: ``copies`` disjoint copies of the domain's largest problem (every object
   of copy i renamed ``name-i``; the domain's constants and atoms over them only, such as
   ``(hand-empty)``, shared), so every type has ``copies`` times its objects;
2. **a reachable initial state**: a seeded random walk of ``warmup`` steps from the grown
   initial state, in the simulator;
3. **a reachable goal**: a further seeded walk of ``goal_walk`` steps; the goal is a seeded
   sample of up to ``goal_facts`` atoms that walk made true (so a plan exists: the walk).

The walk, cut where the goal first holds and without its loops, is the problem's witness plan:
the reference plan where the planner finds none in its bound (a grown problem can be too big
for Fast Downward to ground in time), so every generated problem has a world.

``copies`` grows from 1 until the median number of applicable ground actions along the
warm-up walk reaches ``target_actions`` (or ``max_copies``). The problems are written to
``data/generated/<domain>/h<NN>.pddl`` (``python -m text2world.tasks.wm.generators``), their
reference plans shipped with the store's (``data/plans/generated/``); other seeds are generated
on demand and their plans cached on disk like every planner answer.
"""

from __future__ import annotations

import argparse
import random
import re
import statistics
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from text2world.errors import Text2WorldError
from text2world.pddl.model import parse_domain
from text2world.simulation import GroundAction, SimulationError, Simulator, atom_to_pddl, parse_problem
from text2world.store.datasets import Problem, Record, atomic_write_text, data_dir

SIZES = ("hard", "easy")  # hard: generated problems; easy: the store's own
GENERATED_FOLDER = "generated"
PROBLEMS_PER_DOMAIN = 2
WITNESS_PLANS = "witness_plans"  # Record.meta: {problem name: the generator's walk as PDDL steps}


class GeneratorError(Text2WorldError, ValueError):
    """A domain the generator cannot scale (no problem, no walk, no reachable change)."""


@dataclass(frozen=True)
class GeneratorSettings:
    target_actions: int = 24
    max_copies: int = 6
    warmup: int = 12
    goal_walk: int = 12
    goal_facts: int = 4


def rename_tokens(text: str, mapping: dict[str, str]) -> str:
    """``text`` with every whole PDDL name in ``mapping`` (case-insensitive) replaced."""
    if not mapping:
        return text
    names = sorted(mapping, key=len, reverse=True)
    # not after ":" (PDDL keywords such as :types) or "?" (variables are renamed apart)
    pattern = re.compile(r"(?<![\w:?-])(" + "|".join(re.escape(n) for n in names)
                         + r")(?![\w-])", re.IGNORECASE)
    lowered = {k.lower(): v for k, v in mapping.items()}
    return pattern.sub(lambda m: lowered[m.group(1).lower()], text)


@dataclass(frozen=True)
class _Grown:
    """A problem's parts: typed object declarations, atoms, numeric values, goal, metric."""

    domain_name: str
    objects: tuple[str, ...]
    init: frozenset
    values: tuple[tuple[tuple, float], ...]
    goal: str
    metric: str | None

    def text(self, name: str, init: frozenset | None = None, goal: str | None = None) -> str:
        facts = [atom_to_pddl(a) for a in sorted(self.init if init is None else init)]
        facts += [f"(= {atom_to_pddl(k)} {v:g})" for k, v in self.values]
        metric = f"\n  (:metric {self.metric})" if self.metric else ""
        return (f"(define (problem {name}) (:domain {self.domain_name})\n"
                f"  (:objects {' '.join(self.objects)})\n  (:init {' '.join(facts)})\n"
                f"  (:goal {goal or self.goal}){metric})\n")


def _grow(record: Record, base: Problem, copies: int) -> _Grown:
    """``copies`` disjoint copies of ``base`` (goals joined)."""
    domain = parse_domain(record.domain)
    problem = parse_problem(record.domain, base.pddl)
    constants = {c.name for c in domain.constants}
    objects: list[str] = []
    init: set = set()
    values: dict = {}
    goals = []
    for index in range(1, copies + 1):
        mapping = {o.name: (o.name if copies == 1 else f"{o.name}-{index}")
                   for o in problem.objects if o.name not in constants}
        objects += [f"{mapping[o.name]} - {o.type}" if domain.typed else mapping[o.name]
                    for o in problem.objects if o.name not in constants]
        init |= {(atom[0], *(mapping.get(a, a) for a in atom[1:])) for atom in problem.init}
        for key, value in problem.function_values:
            values.setdefault((key[0], *(mapping.get(a, a) for a in key[1:])), value)
        goals.append(rename_tokens(problem.goal.to_pddl(), mapping))
    return _Grown(domain.name, tuple(objects), frozenset(init), tuple(values.items()),
                  "(and " + " ".join(goals) + ")", problem.metric)


def generate_problem(record: Record, seed: int, name: str,
                     settings: GeneratorSettings = GeneratorSettings()) -> Problem:
    """One generated problem of ``record`` (deterministic for the seed)."""
    return generate_with_witness(record, seed, name, settings)[0]


def _witness(walk_actions: tuple[GroundAction, ...], states: tuple[frozenset, ...],
             goal: set) -> tuple[str, ...]:
    """The walk up to the first state where every goal atom holds, its loops cut out."""
    kept_states = [states[0]]
    kept_actions: list[GroundAction] = []
    for action, state in zip(walk_actions, states[1:]):
        if state in kept_states:  # back to an earlier state: the loop since then is no use
            index = kept_states.index(state)
            del kept_states[index + 1:], kept_actions[index:]
        else:
            kept_states.append(state)
            kept_actions.append(action)
        if goal <= state:
            break
    return tuple(a.to_pddl() for a in kept_actions)


def generate_with_witness(record: Record, seed: int, name: str,
                          settings: GeneratorSettings = GeneratorSettings()
                          ) -> tuple[Problem, tuple[str, ...]]:
    """One generated problem of ``record`` and its witness plan (PDDL steps; not optimal)."""
    if not record.problems:
        raise GeneratorError(f"{record.id}: no problem to grow")
    domain = parse_domain(record.domain)
    base = max(record.problems, key=lambda p: (len(p.pddl), p.name))
    rng = random.Random(f"generate:{record.id}:{seed}")
    try:
        for copies in range(1, settings.max_copies + 1):
            grown = _grow(record, base, copies)
            simulator = Simulator(domain, parse_problem(record.domain, grown.text(name)))
            warm = simulator.random_walk(settings.warmup, rng.randrange(2 ** 32))
            counts = [len(simulator.applicable(s)) for s in warm.states]
            if statistics.median(counts) >= settings.target_actions:
                break
        start = warm.states[-1]
        for _ in range(8):  # a walk that changes nothing lasting: another seed
            walk = simulator.random_walk(settings.goal_walk, rng.randrange(2 ** 32),
                                         start=start)
            made_true = sorted(walk.states[-1] - start)
            if made_true:
                break
        else:
            raise GeneratorError(f"{record.id}: random walks change no fact")
    except (SimulationError, ValueError) as err:
        if isinstance(err, GeneratorError):
            raise
        raise GeneratorError(f"{record.id}: cannot grow {base.name}: {err}") from None
    goal = rng.sample(made_true, min(settings.goal_facts, len(made_true)))
    goal_text = "(and " + " ".join(atom_to_pddl(a) for a in sorted(goal)) + ")"
    return (Problem(name, grown.text(name, start, goal_text)),
            _witness(walk.actions, walk.states, set(goal)))


def generated_dir(root: Path | None = None) -> Path:
    return (root or data_dir()) / GENERATED_FOLDER


def shipped_generated(record: Record, root: Path | None = None) -> tuple[Problem, ...]:
    folder = generated_dir(root) / record.id
    return tuple(Problem(p.stem, p.read_text(encoding="utf-8"))
                 for p in sorted(folder.glob("*.pddl")))


def sized_records(records: list[Record], size: str, seed: int = 0,
                  witnesses: bool = False) -> list[Record]:
    """The records with the problems of ``size``: ``easy`` the store's own; ``hard`` the
    generated ones (shipped for seed 0, generated for other seeds; a domain the generator
    cannot scale keeps its own problems, its ``meta`` saying so).

    Generated problems carry their witness plans in ``meta[WITNESS_PLANS]``; shipped ones
    only with ``witnesses`` (their shipped plans already hold the witness where needed)."""
    if size not in SIZES:
        raise GeneratorError(f"unknown size {size!r}; choose one of {', '.join(SIZES)}")
    if size == "easy":
        return records
    sized = []
    for record in records:
        shipped = shipped_generated(record) if seed == 0 else ()
        if shipped and not witnesses:
            sized.append(replace(record, problems=shipped))
            continue
        try:
            made = [generate_with_witness(record, seed * 1000 + n, f"h{n + 1:02d}")
                    for n in range(PROBLEMS_PER_DOMAIN)]
        except GeneratorError as err:
            sized.append(replace(record, meta={**record.meta, "generator_error": str(err)}))
            continue
        # a shipped problem keeps its text; the witness only where the generator gives it again
        problems = shipped or tuple(p for p, _ in made)
        walks = {p.name: w for p, w in made if p in problems}
        sized.append(replace(record, problems=problems,
                             meta={**record.meta, WITNESS_PLANS: walks}))
    return sized


def write_generated(records: list[Record], root: Path | None = None) -> list[str]:
    """Write seed 0's problems of every record under ``data/generated/``."""
    lines = []
    for record in records:
        try:
            problems = [generate_problem(record, n, f"h{n + 1:02d}")
                        for n in range(PROBLEMS_PER_DOMAIN)]
        except GeneratorError as err:
            lines.append(f"{record.id}: skipped ({err})")
            continue
        for problem in problems:
            atomic_write_text(generated_dir(root) / record.id / f"{problem.name}.pddl",
                              problem.pddl)
        lines.append(f"{record.id}: {', '.join(p.name for p in problems)}")
    return lines


def main(argv: list[str] | None = None) -> None:
    from text2world.store.datasets import load_dataset

    parser = argparse.ArgumentParser(description="Write the generated (hard) problems")
    parser.add_argument("--domains", default=None, help="comma-separated ids (all)")
    args = parser.parse_args(argv)
    records = load_dataset().select("all", args.domains.split(",") if args.domains else None)
    for line in write_generated(records):
        print(line, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
