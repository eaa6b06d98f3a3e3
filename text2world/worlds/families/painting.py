"""Painting: robots move over a grid of cells and paint the cell they stand on with the colour
they carry, switching colours at supply cells; knobs: unpainted as a flag or a negative
precondition, supplies everywhere or at marked cells, action costs."""

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
    dict(robot="painter", cell="tile", colour="paint", move="step", paint="coat",
         switch="refill", robots="pat,rio", colours="red,blue,yellow,green",
         robot_gloss="A painting robot", cell_gloss="A floor tile", colour_gloss="A paint colour"),
    dict(robot="gardener", cell="bed", colour="flower", move="walk", paint="plant",
         switch="restock", robots="flo,gus", colours="tulip,rose,daisy,iris",
         robot_gloss="A gardener", cell_gloss="A flower bed", colour_gloss="A kind of flower"),
    dict(robot="mower", cell="lawn", colour="stripe", move="drive", paint="mow",
         switch="reset", robots="m1,m2", colours="diagonal,straight,checked,wavy",
         robot_gloss="A lawn mower", cell_gloss="A patch of lawn",
         colour_gloss="A mowing pattern"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"negative": rng.random() < 0.5, "supplies": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "width": rng.choice([2, 3])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    R, L, C = lex["robot"], lex["cell"], lex["colour"]
    b = Builder(name, f"{L.title()} {C}s", f"{R.title()}s move over a grid of {L}s and give "
                f"each {L} a {C}. The goal is a given {C} on given {L}s.")
    b.type(R, lex["robot_gloss"])
    b.type(L, lex["cell_gloss"])
    b.type(C, lex["colour_gloss"])
    b.pred(f"{R}-on", f"r:{R} l:{L}", f"{R} {{r}} is on {L} {{l}}",
           f"{R} {{r}} is not on {L} {{l}}")
    b.pred("next-to", f"a:{L} b:{L}", f"{L} {{a}} is next to {L} {{b}}",
           f"{L} {{a}} is not next to {L} {{b}}")
    b.pred("done-with", f"l:{L} c:{C}", f"{L} {{l}} has {C} {{c}}",
           f"{L} {{l}} does not have {C} {{c}}")
    b.pred("loaded", f"r:{R} c:{C}", f"{R} {{r}} carries {C} {{c}}",
           f"{R} {{r}} does not carry {C} {{c}}")
    flag = b.flag(k["negative"], "l", f"l:{L}", ("untouched", f"{L} {{l}} is untouched"),
                  ("treated", f"{L} {{l}} has been done"))
    fresh, mark = flag.free(), flag.take()
    supply: list[str] = []
    if k["supplies"]:
        b.pred("supply", f"l:{L}", f"{L} {{l}} has a supply of every {C}",
               f"{L} {{l}} has no supply")
        b.rule(f"{article(R)} changes its {C} on a {L} with a supply")
        supply = ["supply l"]
    b.rule(f"{article(L)} is done once")
    cost = 1 if k["costs"] else None
    b.action(lex["move"], f"r:{R} a:{L} b:{L}", f"{R} {{r}} goes from {L} {{a}} to {L} {{b}}",
             [f"{R}-on r a", "next-to a b"], [f"{R}-on r b", f"!{R}-on r a"], cost=cost)
    b.action(lex["paint"], f"r:{R} l:{L} c:{C}", f"{R} {{r}} gives {L} {{l}} {C} {{c}}",
             [f"{R}-on r l", "loaded r c", *fresh], ["done-with l c", *mark],
             cost=2 if k["costs"] else None)
    b.action(lex["switch"], f"r:{R} l:{L} a:{C} b:{C}", f"{R} {{r}} swaps {C} {{a}} for {C} "
             f"{{b}} on {L} {{l}}", [f"{R}-on r l", "loaded r a", *supply],
             ["loaded r b", "!loaded r a"], cost=cost)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    width, height = (2, 1) if level == 0 else (k["width"], 1 + level)
    cells = [f"{lex['cell']}-{x}-{y}" for y in range(height) for x in range(width)]
    d.taken.update(cells)
    d.objects += [(c, lex["cell"]) for c in cells]
    robots = d.objs(lex["robot"], lex["robots"], 1 if level < 2 else 2)
    colours = d.objs(lex["colour"], lex["colours"], 2)
    for y in range(height):
        for x in range(width):
            here = cells[y * width + x]
            for nx, ny in ((x + 1, y), (x, y + 1)):
                if nx < width and ny < height:
                    there = cells[ny * width + nx]
                    d.fact("next-to", here, there)
                    d.fact("next-to", there, here)
            if not k["negative"]:
                d.fact("untouched", here)
    if k["supplies"]:
        d.fact("supply", cells[0] if level == 0 else rng.choice(cells))
    for robot in robots:
        d.fact(f"{lex['robot']}-on", robot, cells[0] if level == 0 else rng.choice(cells))
        d.fact("loaded", robot, colours[0])
    if level == 0:
        d.want("done-with", cells[1], colours[1])
    else:
        wanted = {cell: rng.choice(colours) for cell in rng.sample(cells, max(2, len(cells) // 2))}
        wanted[cells[-1]] = colours[1]
        for cell in cells:
            if cell in wanted:
                d.want("done-with", cell, wanted[cell])
    return d.done(name, size)


FAMILY = Family("painting", "puzzle", "robots paint grid cells with carried colours "
                "(untouched as a flag or negation, supply cells, costs)", LEXICONS, knobs,
                build, problem)
