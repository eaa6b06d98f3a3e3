"""Resources produced and consumed: a crew gathers materials at the sites that yield them into
counted stocks and crafts goods at a workshop from one or two materials; knobs: goods of two
materials (else one), delivery of goods to a market, action costs."""

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
    connect,
)
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(crew="settler", site="field", material="resource", good="tool", gather="harvest",
         craft="forge", ship="trade", market="bazaar", workshop="forge-site",
         crews="anna,bert,cleo", sites="quarry,forest,marsh,hill,valley,coast",
         materials="wood,stone,iron,clay,reed,flint", goods="axe,hammer,spade,saw,chisel,pick",
         crew_gloss="A settler of the colony", site_gloss="A field of the colony's land",
         material_gloss="A raw resource", good_gloss="A tool to be made"),
    dict(crew="brewer", site="farm", material="crop", good="brew", gather="pick",
         craft="brew", ship="sell", market="tavern", workshop="brewhouse",
         crews="dora,egon,fay", sites="orchard,hopyard,barley-field,apiary,vineyard,grove",
         materials="hops,barley,honey,grapes,apples,wheat", goods="ale,mead,cider,stout,"
         "lager,wine", crew_gloss="A brewer", site_gloss="A farm that grows crops",
         material_gloss="A harvested crop", good_gloss="A drink to be brewed"),
    dict(crew="miner", site="seam", material="ore", good="alloy", gather="dig",
         craft="smelt", ship="export", market="port", workshop="smelter",
         crews="gil,hana,ivo", sites="north-seam,deep-seam,old-seam,red-seam,pit,shaft",
         materials="copper,tin,zinc,nickel,lead,silver", goods="bronze,brass,pewter,solder,"
         "billon,electrum", crew_gloss="A miner", site_gloss="A seam of the mine",
         material_gloss="A kind of ore", good_gloss="An alloy to be smelted"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"two_inputs": rng.random() < 0.6, "deliver": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "levels": rng.choice([3, 4])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    W, S, M, G = lex["crew"], lex["site"], lex["material"], lex["good"]
    target = f"{G}s delivered to a {lex['market']}" if k["deliver"] else f"given {G}s made"
    b = Builder(name, f"{G.title()} making", f"{article(W)} gathers {M}s from the {S}s that "
                f"yield them and turns them into {G}s at a {lex['workshop']}. The goal is to "
                f"have {target}.")
    b.type(W, lex["crew_gloss"])
    b.type(S, lex["site_gloss"])
    b.type(M, lex["material_gloss"])
    b.type(G, lex["good_gloss"])
    b.type("amount", "An amount in a stock")
    b.pred(f"{W}-at", f"w:{W} s:{S}", f"{W} {{w}} is at {S} {{s}}", f"{W} {{w}} is not at "
           f"{S} {{s}}")
    b.pred("trail", f"a:{S} b:{S}", f"a trail leads from {S} {{a}} to {S} {{b}}",
           f"no trail leads from {S} {{a}} to {S} {{b}}")
    b.pred("yields", f"s:{S} m:{M}", f"{S} {{s}} yields {M} {{m}}", f"{S} {{s}} does not "
           f"yield {M} {{m}}")
    b.pred("stock", f"m:{M} n:amount", f"the stock of {M} {{m}} is {{n}}",
           f"the stock of {M} {{m}} is not {{n}}")
    b.pred("plus-one", "n:amount m:amount", "amount {m} is one unit more than amount {n}",
           "amount {m} is not one unit more than amount {n}")
    b.pred(lex["workshop"], f"s:{S}", f"{S} {{s}} has a {lex['workshop']}",
           f"{S} {{s}} has no {lex['workshop']}")
    b.pred("made", f"g:{G}", f"{G} {{g}} has been made", f"{G} {{g}} has not been made")
    b.pred("made-from", f"g:{G} m:{M}", f"{G} {{g}} is made from {M} {{m}}",
           f"{G} {{g}} is not made from {M} {{m}}")
    b.rule(f"Gathering adds one unit to the stock of {article(M).lower()}, and crafting takes "
           f"one unit of each {M} the {G} is made from")
    cost = 1 if k["costs"] else None
    b.action(f"go-{W}", f"w:{W} a:{S} b:{S}", f"{W} {{w}} walks from {S} {{a}} to {{b}}",
             [f"{W}-at w a", "trail a b"], [f"{W}-at w b", f"!{W}-at w a"], cost=cost)
    b.action(lex["gather"], f"w:{W} s:{S} m:{M} n:amount p:amount", f"{W} {{w}} gathers "
             f"{M} {{m}} at {{s}}", [f"{W}-at w s", "yields s m", "stock m n", "plus-one n p"],
             ["stock m p", "!stock m n"], cost=cost)
    craft_pre = [f"{W}-at w s", f"{lex['workshop']} s", "made-from g a", "stock a an",
                 "plus-one al an"]
    craft_eff = ["made g", "stock a al", "!stock a an"]
    params = f"w:{W} s:{S} g:{G} a:{M} an:amount al:amount"
    if k["two_inputs"]:
        b.pred("also-from", f"g:{G} m:{M}", f"{G} {{g}} is also made from {M} {{m}}",
               f"{G} {{g}} is not also made from {M} {{m}}")
        params += f" b:{M} bn:amount bl:amount"
        craft_pre += ["also-from g b", "stock b bn", "plus-one bl bn"]
        craft_eff += ["stock b bl", "!stock b bn"]
    b.action(lex["craft"], params, f"{W} {{w}} makes {G} {{g}} at {{s}}", craft_pre, craft_eff,
             cost=2 if k["costs"] else None)
    if k["deliver"]:
        b.pred(lex["market"], f"s:{S}", f"{S} {{s}} has a {lex['market']}",
               f"{S} {{s}} has no {lex['market']}")
        b.pred("delivered", f"g:{G}", f"{G} {{g}} has been delivered",
               f"{G} {{g}} has not been delivered")
        b.action(lex["ship"], f"w:{W} g:{G} s:{S}", f"{W} {{w}} hands {G} {{g}} over at the "
                 f"{lex['market']} of {{s}}", [f"{W}-at w s", f"{lex['market']} s", "made g"],
                 ["delivered g", "!made g"], cost=cost)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    sites = d.objs(lex["site"], lex["sites"], 2 + level)
    crews = d.objs(lex["crew"], lex["crews"], 1 if level < 2 else 2)
    materials = d.objs(lex["material"], lex["materials"], 2 + level // 2)
    goods = d.objs(lex["good"], lex["goods"], 1 + level)
    amounts = d.numbered("amount", "n", k["levels"])
    d.chain("plus-one", amounts)
    connect(d, "trail", sites, extra=level)
    d.fact(lex["workshop"], sites[0])
    if k["deliver"]:
        d.fact(lex["market"], sites[-1])
    for index, material in enumerate(materials):
        d.fact("yields", sites[1 + index % (len(sites) - 1)], material)
        d.fact("stock", material, amounts[0])
    for crew in crews:
        d.fact(f"{lex['crew']}-at", crew, sites[0])
    for good in goods:
        first, second = (materials[0], materials[1]) if level == 0 else \
            tuple(rng.sample(materials, 2))
        d.fact("made-from", good, first if k["two_inputs"] else second)
        if k["two_inputs"]:
            d.fact("also-from", good, second)
        d.want("delivered" if k["deliver"] else "made", good)
    return d.done(name, size)


FAMILY = Family("crafting", "resource-management", "materials gathered into counted stocks "
                "and consumed to make goods (one or two inputs, delivery, costs)", LEXICONS,
                knobs, build, problem)
