"""Pouring between vessels: vessels hold numbered amounts, some fill from a tap, some drain,
pipes let one vessel pour a unit into another; knobs: vessels' capacities, action costs.
Goals are amounts reached by a random walk of the world's own actions, so every problem is
solvable by construction (and checked)."""

from __future__ import annotations

import random

from text2world.worlds.families.base import (
    SIZES,
    Builder,
    Family,
    Knobs,
    Lexicon,
    ProblemDraft,
    article,
)
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(vessel="tank", amount="volume", fill="pump-in", pour="transfer", drain="flush",
         vessels="alpha,bravo,charlie,delta,echo", vessel_gloss="A water tank",
         amount_gloss="An amount of water in a tank", source="intake", sink="outlet"),
    dict(vessel="jug", amount="measure", fill="fill", pour="pour", drain="empty",
         vessels="jug-a,jug-b,jug-c,jug-d,jug-e", vessel_gloss="A kitchen jug",
         amount_gloss="A number of cups in a jug", source="tap", sink="sink"),
    dict(vessel="vat", amount="quantity", fill="charge", pour="siphon", drain="vent",
         vessels="vat-1,vat-2,vat-3,vat-4,vat-5", vessel_gloss="A dye vat",
         amount_gloss="A quantity of dye in a vat", source="feed-line", sink="drain"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"capacity": rng.choice([2, 3]), "costs": rng.random() < 0.4,
            "vessels": rng.choice([3, 4])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    V, A = lex["vessel"], lex["amount"]
    b = Builder(name, f"{V.title()} levels", f"Liquid is moved between {V}s, taken in at a "
                f"{lex['source']} and let out at a {lex['sink']}. The goal is to leave given "
                f"{A}s in given {V}s.")
    b.type(V, lex["vessel_gloss"])
    b.type(A, lex["amount_gloss"])
    b.pred("holds", f"v:{V} n:{A}", f"{V} {{v}} holds {A} {{n}}",
           f"{V} {{v}} does not hold {A} {{n}}")
    b.pred("more", f"n:{A} m:{A}", f"{A} {{m}} is one unit more than {A} {{n}}",
           f"{A} {{m}} is not one unit more than {A} {{n}}")
    b.pred("fed", f"v:{V}", f"{V} {{v}} has a {lex['source']}", f"{V} {{v}} has no "
           f"{lex['source']}")
    b.pred("drained", f"v:{V}", f"{V} {{v}} has a {lex['sink']}", f"{V} {{v}} has no "
           f"{lex['sink']}")
    b.pred("pipe", f"a:{V} b:{V}", f"a pipe runs from {V} {{a}} to {V} {{b}}",
           f"no pipe runs from {V} {{a}} to {V} {{b}}")
    b.rule(f"Every action moves one unit, and {article(V).lower()} never holds more than its "
           f"largest {A}")
    cost = 1 if k["costs"] else None
    b.action(lex["fill"], f"v:{V} n:{A} m:{A}", f"{V} {{v}} takes in liquid from its "
             f"{lex['source']}", ["fed v", "holds v n", "more n m"], ["holds v m", "!holds v n"],
             cost=cost)
    b.action(lex["pour"], f"a:{V} b:{V} an:{A} am:{A} bn:{A} bm:{A}", f"liquid goes from "
             f"{V} {{a}} into {V} {{b}}", ["pipe a b", "holds a am", "more an am", "holds b bn",
                                           "more bn bm"],
             ["holds a an", "!holds a am", "holds b bm", "!holds b bn"], cost=cost)
    b.action(lex["drain"], f"v:{V} n:{A} m:{A}", f"{V} {{v}} lets liquid out at its "
             f"{lex['sink']}", ["drained v", "holds v m", "more n m"], ["holds v n", "!holds v m"],
             cost=cost)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    top = k["capacity"]
    amounts = d.numbered(lex["amount"], lex["amount"][:1], top + 1)
    d.chain("more", amounts)
    if level == 0:
        # three vessels: a fed one, a drained one piped into a third: each action is needed
        fed, drained, third = d.objs(lex["vessel"], lex["vessels"], 3)
        d.fact("fed", fed)
        d.fact("drained", drained)
        d.fact("pipe", drained, third)
        start = {fed: 0, drained: 2, third: 0}
        goal = {fed: 1, drained: 0, third: 1}
        pipes = [(drained, third)]
    else:
        vessels = d.objs(lex["vessel"], lex["vessels"], k["vessels"] + level - 1)
        pipes = [(a, b) for a in vessels for b in vessels if a != b and rng.random() < 0.4]
        for a, b in pipes:
            d.fact("pipe", a, b)
        fed_set = set(rng.sample(vessels, 1 + level // 2))
        drained_set = set(rng.sample(vessels, 1 + level // 2))
        for v in sorted(fed_set):
            d.fact("fed", v)
        for v in sorted(drained_set):
            d.fact("drained", v)
        start = {v: rng.randint(0, top) for v in vessels}
        state = dict(start)
        for _ in range(6 + 4 * level):  # a random walk of the world's own actions
            moves: list[tuple[str, str, str]] = [("fill", v, "") for v in sorted(fed_set)
                                                 if state[v] < top]
            moves += [("drain", v, "") for v in sorted(drained_set) if state[v] > 0]
            moves += [("pour", a, b) for a, b in pipes if state[a] > 0 and state[b] < top]
            if not moves:
                break
            kind, first, second = rng.choice(moves)
            if kind == "fill":
                state[first] += 1
            elif kind == "drain":
                state[first] -= 1
            else:
                state[first] -= 1
                state[second] += 1
        if state == start:
            v = sorted(fed_set)[0]
            state[v] = top if start[v] < top else state[v]
            if state == start:
                state[sorted(drained_set)[0]] = 0
        goal = {v: n for v, n in state.items() if n != start[v] or rng.random() < 0.3}
    for vessel, amount in start.items():
        d.fact("holds", vessel, amounts[amount])
    for vessel, amount in goal.items():
        d.want("holds", vessel, amounts[amount])
    return d.done(name, size)


FAMILY = Family("pouring", "resource-management", "liquid moved unit by unit between vessels "
                "with taps, drains and pipes (capacities, costs)", LEXICONS, knobs, build, problem)
