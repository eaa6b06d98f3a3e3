"""What every family shares: ``Family`` (a structure with knobs and lexicons), ``Builder`` (a
semantic plan written compactly) and the helpers its problems are drawn with."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from text2world.worlds.plan import (
    ActionSpec,
    Literal,
    PredicateSpec,
    ProblemSpec,
    TypeSpec,
    When,
    WorldPlan,
    literal,
)

__all__ = [
    "Lexicon", "Knobs", "Family", "Builder", "facts", "ProblemDraft", "connect", "SIZES",
    "article",
]

Lexicon = Mapping[str, str]
Knobs = dict


@dataclass(frozen=True)
class Family:
    """A structure of worlds. ``knobs`` draws its structural settings, ``build`` writes the
    semantic plan of one setting in one lexicon, ``problem`` draws a problem of a size
    (``small``: p01 needs every action; ``medium``; ``hard``: more objects)."""

    name: str
    category: str  # the store's category
    summary: str
    lexicons: tuple[Lexicon, ...]
    knobs: Callable[[random.Random], Knobs]
    build: Callable[[Knobs, Lexicon, str], WorldPlan]
    problem: Callable[[random.Random, Knobs, Lexicon, str, str], ProblemSpec]


_PLURALS = ((re.compile(r"\b(\w*[^aeiou\W])ys\b"), r"\1ies"),  # surgerys -> surgeries
             (re.compile(r"\b(\w*(?:ss|x|ch|sh))s\b"), r"\1es"))  # presss -> presses


def plurals(text: str) -> str:
    """Lexicon words pluralised by an ``s`` (``f"{word}s"``) spelled right."""
    for pattern, replacement in _PLURALS:
        text = pattern.sub(replacement, text)
    return text


def _params(text: str) -> tuple[tuple[str, str], ...]:
    """``"v:truck a:place"`` -> ``(("v", "truck"), ("a", "place"))``."""
    return tuple((part.split(":")[0], part.split(":")[1]) for part in text.split())


@dataclass(frozen=True)
class Flag:
    """The literals of a free-or-used flag (``Builder.flag``) over one variable."""

    predicate: str
    negative: bool  # the predicate says "used", tested negated
    var: str

    def free(self) -> list[str]:
        """The precondition: free."""
        return [f"{'!' if self.negative else ''}{self.predicate} {self.var}"]

    def take(self) -> list[str]:
        """The effect that puts it in use."""
        return [f"{'' if self.negative else '!'}{self.predicate} {self.var}"]

    def give(self) -> list[str]:
        """The effect that frees it."""
        return self.free()

    def initial(self) -> bool:
        """Whether a free thing has the fact in an initial state."""
        return not self.negative


class Builder:
    """A semantic plan, written one type, predicate and action at a time."""

    def __init__(self, name: str, title: str, general: str) -> None:
        self.name, self.title, self.general = name, title, general
        self.rules: list[str] = []
        self.types: list[TypeSpec] = []
        self.predicates: list[PredicateSpec] = []
        self.actions: list[ActionSpec] = []

    def type(self, name: str, gloss: str) -> None:
        self.types.append(TypeSpec(name, gloss))

    def pred(self, name: str, params: str, gloss: str, negated: str) -> None:
        self.predicates.append(PredicateSpec(name, _params(params), plurals(gloss),
                                             plurals(negated)))

    def action(self, name: str, params: str, purpose: str, pre: Sequence[str],
               effects: Sequence[str], when: Sequence[tuple[Sequence[str], Sequence[str]]] = (),
               cost: int | None = None) -> None:
        self.actions.append(ActionSpec(
            name, _params(params), plurals(purpose), tuple(literal(p) for p in pre),
            tuple(literal(e) for e in effects),
            tuple(When(tuple(literal(c) for c in cond), tuple(literal(e) for e in eff))
                  for cond, eff in when), cost))

    def flag(self, negative: bool, var: str, params: str, free: tuple[str, str],
             used: tuple[str, str]) -> Flag:
        """A thing free or in use (a worker free or busy, a hand empty or full), declared as
        the knob ``negative`` says: the ``used`` predicate tested negated, or the ``free``
        predicate kept positive. ``free``/``used``: (predicate name, gloss over ``var``)."""
        name, gloss = used if negative else free
        other = free[1] if negative else used[1]
        self.pred(name, params, gloss, other)
        return Flag(name, negative, var)

    def rule(self, text: str) -> None:
        self.rules.append(text)

    def plan(self, costs: bool = False) -> WorldPlan:
        general, rules = plurals(self.general), tuple(plurals(r) for r in self.rules)
        plan = WorldPlan(self.name, plurals(self.title), general, rules,
                         tuple(self.types), tuple(self.predicates), tuple(self.actions), costs)
        plan.check()
        return plan


# Words PDDL or tarski's grammar keeps for itself: never an object's name.
RESERVED = frozenset({"max", "min", "and", "or", "not", "at", "over", "start", "end", "all",
                      "either", "when", "forall", "exists", "imply", "object", "number",
                      "increase", "decrease", "assign", "total-cost", "define", "domain"})


def pick_names(rng: random.Random, pool: str, count: int, taken: set[str]) -> list[str]:
    """``count`` object names drawn from the comma-separated ``pool``, never one in ``taken``
    nor a reserved word (numbered past the pool's end)."""
    words = [w for w in pool.split(",") if w not in taken and w not in RESERVED]
    rng.shuffle(words)
    names = words[:count]
    stem = pool.split(",")[0]
    number = 1
    while len(names) < count:
        candidate = f"{stem}{number}"
        if candidate not in taken and candidate not in names and candidate not in RESERVED:
            names.append(candidate)
        number += 1
    taken.update(names)
    return names


def facts(*texts: str) -> tuple[Literal, ...]:
    return tuple(literal(t) for t in texts)


class ProblemDraft:
    """A problem's objects and facts as they are drawn."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.taken: set[str] = set()
        self.objects: list[tuple[str, str]] = []
        self.init: list[Literal] = []
        self.goal: list[Literal] = []

    def objs(self, kind: str, pool: str, count: int) -> list[str]:
        self.taken.add(kind)  # an object named as its type is a duplicate definition to tarski
        names = pick_names(self.rng, pool, count, self.taken)
        self.objects += [(n, kind) for n in names]
        return names

    def numbered(self, kind: str, stem: str, count: int) -> list[str]:
        """Ordered objects (levels, slots): ``stem0``, ``stem1``, ..."""
        names = [f"{stem}{i}" for i in range(count)]
        self.taken.update(names)
        self.objects += [(n, kind) for n in names]
        return names

    def fact(self, predicate: str, *args: str) -> None:
        self.init.append(Literal(predicate, tuple(args)))

    def chain(self, predicate: str, ordered: Sequence[str]) -> None:
        for low, high in zip(ordered, ordered[1:]):
            self.fact(predicate, low, high)

    def want(self, predicate: str, *args: str) -> None:
        self.goal.append(Literal(predicate, tuple(args)))

    def done(self, name: str, size: str) -> ProblemSpec:
        init = tuple(dict.fromkeys(self.init))
        return ProblemSpec(name, tuple(self.objects), init, tuple(dict.fromkeys(self.goal)), size)


def connect(draft: ProblemDraft, predicate: str, places: Sequence[str], extra: int) -> None:
    """A path through ``places`` in both directions, plus ``extra`` random links (both ways)."""
    pairs = set(zip(places, places[1:]))
    rng = draft.rng
    for _ in range(extra):
        a, b = rng.sample(list(places), 2)
        pairs.add((a, b))
    for a, b in sorted(pairs):
        if a != b:
            draft.fact(predicate, a, b)
            draft.fact(predicate, b, a)


def lexicon_words(lexicon: Lexicon, keys: Sequence[str]) -> dict[str, str]:
    return {k: lexicon[k] for k in keys}


SIZES = {"small": 0, "medium": 1, "hard": 2}


def article(word: str) -> str:
    """``a`` or ``an`` before ``word``, capitalised like the start of a sentence."""
    return ("An " if word[:1].lower() in "aeiou" else "A ") + word
