"""Stacking: a hand moves items between towers and a surface; knobs: "free top" as a flag or
a negative precondition over a covering flag, a surface with numbered spots, action costs."""

from __future__ import annotations

import random
from dataclasses import replace

from text2world.worlds.families.base import (
    SIZES,
    Builder,
    Family,
    Knobs,
    Lexicon,
    ProblemDraft,
)
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(item="crate", surface="pallet", hand="forklift", pick="lift", put="set-down",
         stack="pile", unstack="unpile", items="oak,pine,birch,ash,elm,fir,yew,maple",
         item_gloss="A wooden crate", spot_gloss="A place on the warehouse floor"),
    dict(item="plate", surface="counter", hand="waiter", pick="take", put="place",
         stack="heap", unstack="unheap", items="blue,white,green,gold,rose,grey,black,cream",
         item_gloss="A dinner plate", spot_gloss="A free place on the counter"),
    dict(item="book", surface="desk", hand="librarian", pick="grab", put="lay",
         stack="pile-on", unstack="lift-off", items="atlas,novel,almanac,diary,lexicon,"
         "primer,manual,codex", item_gloss="A heavy book", spot_gloss="A free place on the desk"),
    dict(item="disc", surface="floor", hand="robot-arm", pick="raise", put="lower",
         stack="mount", unstack="dismount", items="alpha,beta,gamma,delta,omega,sigma,kappa,"
         "theta", item_gloss="A flat metal disc", spot_gloss="A marked place on the floor"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"negative": rng.random() < 0.5, "spots": rng.random() < 0.4,
            "costs": rng.random() < 0.4}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    It, S = lex["item"], lex["surface"]
    b = Builder(name, f"{It.title()} piles", f"A {lex['hand']} rearranges {It}s, which stand "
                f"on the {S} or on one another in piles. The goal is a given arrangement of "
                f"the piles.")
    b.type(It, lex["item_gloss"])
    b.pred("on", f"x:{It} y:{It}", f"{It} {{x}} stands on {It} {{y}}",
           f"{It} {{x}} does not stand on {It} {{y}}")
    spot, spot_pre = "", []
    if k["spots"]:
        b.type("spot", lex["spot_gloss"])
        b.pred(f"on-{S}", f"x:{It} s:spot", f"{It} {{x}} stands on the {S} at spot {{s}}",
               f"{It} {{x}} does not stand on the {S} at spot {{s}}")
        b.pred("spot-free", "s:spot", "spot {s} is free", "spot {s} is taken")
        b.rule(f"Each spot of the {S} holds one {It}")
        spot, spot_pre = " s:spot", ["spot-free s"]
        down, up = [f"on-{S} x s", "!spot-free s"], [f"!on-{S} x s", "spot-free s"]
        on_surface = [f"on-{S} x s"]
    else:
        b.pred(f"on-{S}", f"x:{It}", f"{It} {{x}} stands on the {S}",
               f"{It} {{x}} does not stand on the {S}")
        down, up, on_surface = [f"on-{S} x"], [f"!on-{S} x"], [f"on-{S} x"]
    flag = b.flag(k["negative"], "x", f"x:{It}", ("top-free", f"nothing stands on {It} {{x}}"),
                  ("covered", f"something stands on {It} {{x}}"))
    flags = {v: replace(flag, var=v) for v in ("x", "y")}

    def top(v: str) -> str:
        return flags[v].free()[0]

    def cover(v: str) -> str:
        return flags[v].take()[0]

    def uncover(v: str) -> str:
        return flags[v].give()[0]

    b.pred("holding", f"x:{It}", f"the {lex['hand']} holds {It} {{x}}",
           f"the {lex['hand']} does not hold {It} {{x}}")
    b.pred("hand-empty", "", f"the {lex['hand']} holds nothing",
           f"the {lex['hand']} holds something")
    b.rule(f"The {lex['hand']} holds one {It} at a time and moves a {It} with nothing on it")
    cost = 1 if k["costs"] else None
    b.action(lex["pick"], f"x:{It}{spot}", f"the {lex['hand']} takes {It} {{x}} from the {S}",
             [*on_surface, top("x"), "hand-empty"], ["holding x", *up, "!hand-empty"],
             cost=cost)
    b.action(lex["put"], f"x:{It}{spot}", f"the {lex['hand']} puts {It} {{x}} on the {S}",
             ["holding x", *spot_pre], [*down, "hand-empty", "!holding x"], cost=cost)
    b.action(lex["stack"], f"x:{It} y:{It}", f"the {lex['hand']} puts {It} {{x}} on {It} {{y}}",
             ["holding x", top("y")], ["on x y", "hand-empty", "!holding x", cover("y")],
             cost=cost)
    b.action(lex["unstack"], f"x:{It} y:{It}", f"the {lex['hand']} takes {It} {{x}} off {It} {{y}}",
             ["on x y", top("x"), "hand-empty"], ["holding x", uncover("y"), "!on x y",
                                                   "!hand-empty"], cost=cost)
    return b.plan(costs=k["costs"])


def _towers(rng: random.Random, items: list[str]) -> list[list[str]]:
    order = list(items)
    rng.shuffle(order)
    towers: list[list[str]] = []
    for item in order:
        if towers and rng.random() < 0.6:
            towers[rng.randrange(len(towers))].append(item)
        else:
            towers.append([item])
    return towers


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    items = d.objs(lex["item"], lex["items"], 2 + 2 * level)
    spots = d.numbered("spot", "spot", len(items)) if k["spots"] else []
    if level == 0:
        start, goal = [[items[1], items[0]]], [[items[0], items[1]]]
    else:
        start, goal = _towers(rng, items), _towers(rng, items)
        while goal == start:
            goal = _towers(rng, items)
    d.fact("hand-empty")
    free = list(spots)
    for tower in start:
        if k["spots"]:
            d.fact(f"on-{lex['surface']}", tower[0], free.pop(0))
        else:
            d.fact(f"on-{lex['surface']}", tower[0])
        for low, high in zip(tower, tower[1:]):
            d.fact("on", high, low)
            if k["negative"]:
                d.fact("covered", low)
        if not k["negative"]:
            d.fact("top-free", tower[-1])
    for spot in free:
        d.fact("spot-free", spot)
    for tower in goal:
        for low, high in zip(tower, tower[1:]):
            d.want("on", high, low)
    return d.done(name, size)


FAMILY = Family("stacking", "manipulation", "a hand rebuilds piles of items (free tops as "
                "flags or negation, numbered spots, costs)", LEXICONS, knobs, build, problem)
