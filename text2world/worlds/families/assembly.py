"""Assembly with orderings: parts are mounted onto products in a fixed order (a first part, then
each part after the one it follows), then the product is closed; knobs: parts fetched from
stock first, a negative precondition against mounting twice, action costs, products' lengths."""

from __future__ import annotations

import random

from text2world.worlds.families.base import SIZES, Builder, Family, Knobs, Lexicon, ProblemDraft
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(part="module", product="satellite", fetch="unpack", first="dock", mount="attach",
         close="seal", parts="panel,antenna,battery,sensor,thruster,radio,camera,mirror,"
         "gyro,tank", products="orbiter,probe,lander", part_gloss="A module of a satellite",
         product_gloss="A satellite being built"),
    dict(part="layer", product="cake", fetch="bake", first="lay", mount="add", close="frost",
         parts="sponge,cream,jam,custard,biscuit,mousse,ganache,fruit,praline,meringue",
         products="gateau,torte,trifle", part_gloss="A layer of a cake",
         product_gloss="A layered cake"),
    dict(part="segment", product="bridge", fetch="deliver", first="anchor", mount="join",
         close="open", parts="pier,deck,arch,span,truss,cable,rail,beam,girder,slab",
         products="viaduct,footbridge,causeway", part_gloss="A prefabricated bridge segment",
         product_gloss="A bridge under construction"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"fetch": rng.random() < 0.6, "negative": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "length": rng.choice([3, 4])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    P, X = lex["part"], lex["product"]
    b = Builder(name, f"{X.title()} assembly", f"{P.title()}s are put together into {X}s, "
                f"each {X} from its own {P}s in a set order. The goal is to complete the "
                f"{X}s.")
    b.type(P, lex["part_gloss"])
    b.type(X, lex["product_gloss"])
    b.pred("belongs", f"p:{P} x:{X}", f"{P} {{p}} belongs to {X} {{x}}",
           f"{P} {{p}} does not belong to {X} {{x}}")
    b.pred("base-of", f"p:{P} x:{X}", f"{P} {{p}} is the first {P} of {X} {{x}}",
           f"{P} {{p}} is not the first {P} of {X} {{x}}")
    b.pred("top-of", f"p:{P} x:{X}", f"{P} {{p}} is the last {P} of {X} {{x}}",
           f"{P} {{p}} is not the last {P} of {X} {{x}}")
    b.pred("follows", f"p:{P} q:{P}", f"{P} {{p}} goes on right after {P} {{q}}",
           f"{P} {{p}} does not go on right after {P} {{q}}")
    b.pred("mounted", f"p:{P}", f"{P} {{p}} is mounted", f"{P} {{p}} is not mounted")
    b.pred("complete", f"x:{X}", f"{X} {{x}} is complete", f"{X} {{x}} is not complete")
    ready = "at-hand" if k["fetch"] else "spare"
    b.pred(ready, f"p:{P}", f"{P} {{p}} is ready at hand", f"{P} {{p}} is not ready at hand")
    if k["fetch"]:
        b.pred("in-stock", f"p:{P}", f"{P} {{p}} is in stock", f"{P} {{p}} is not in stock")
    guard = ["!mounted p"] if k["negative"] else []
    b.rule(f"A {P} goes on once the {P} it follows is mounted, and a {X} is completed once "
           f"its last {P} is mounted")
    cost = 1 if k["costs"] else None
    if k["fetch"]:
        b.action(lex["fetch"], f"p:{P}", f"{P} {{p}} is brought from stock",
                 ["in-stock p"], [f"{ready} p", "!in-stock p"], cost=cost)
    b.action(lex["first"], f"p:{P} x:{X}", f"{P} {{p}} is set as the base of {X} {{x}}",
             ["base-of p x", f"{ready} p", *guard], ["mounted p", f"!{ready} p"], cost=cost)
    b.action(lex["mount"], f"p:{P} q:{P} x:{X}", f"{P} {{p}} is mounted on {P} {{q}} of "
             f"{X} {{x}}", ["belongs p x", "follows p q", "mounted q", f"{ready} p", *guard],
             ["mounted p", f"!{ready} p"], cost=cost)
    b.action(lex["close"], f"x:{X} p:{P}", f"{X} {{x}} is finished off above {P} {{p}}",
             ["top-of p x", "mounted p"], ["complete x"], cost=2 if k["costs"] else None)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    products = d.objs(lex["product"], lex["products"], 1 if level == 0 else rng.randint(1, 2))
    for product in products:
        length = 2 if level == 0 else rng.randint(2, k["length"] + level)
        parts = d.objs(lex["part"], lex["parts"], length)
        d.fact("base-of", parts[0], product)
        d.fact("top-of", parts[-1], product)
        for lower, upper in zip(parts, parts[1:]):
            d.fact("follows", upper, lower)
        for part in parts:
            d.fact("belongs", part, product)
            ready = not k["fetch"] or (level > 0 and rng.random() < 0.3)
            d.fact(("at-hand" if k["fetch"] else "spare") if ready else "in-stock", part)
        d.want("complete", product)
    return d.done(name, size)


FAMILY = Family("assembly", "manipulation", "parts mounted in a set order into products "
                "(fetching from stock, negation against remounting, costs)", LEXICONS, knobs,
                build, problem)
