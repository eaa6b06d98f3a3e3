"""Transport with capacities: vehicles move cargo between linked places; knobs: a capacity
counted in slots (else one item, held as a flag or a negative precondition), fuel levels with
refuelling stations, action costs, fleet size."""

from __future__ import annotations

import random

from text2world.worlds.families.base import SIZES, Builder, Family, Knobs, Lexicon, ProblemDraft, connect
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(vehicle="truck", place="depot", cargo="crate", link="road", move="drive",
         moves="drives", load="load", unload="unload", inside="in", station="fuel-pump",
         station_word="fuel pump", vehicles="van,lorry,hauler,rig",
         places="north,south,east,west,harbor,airport,mill,farm,market",
         cargos="bricks,lumber,cement,glass,steel,tiles,pipes",
         vehicle_gloss="A road vehicle that hauls crates", place_gloss="A depot on the road map",
         cargo_gloss="A crate of goods to be hauled"),
    dict(vehicle="barge", place="dock", cargo="container", link="canal", move="sail",
         moves="sails", load="hoist", unload="lower", inside="aboard", station="bunker",
         station_word="bunker", vehicles="heron,otter,pike,tern",
         places="quay,lock,weir,basin,mouth,bend,ferryhouse,wharf",
         cargos="coal,grain,salt,timber,ore,sand,wool",
         vehicle_gloss="A flat boat that moves containers along canals",
         place_gloss="A dock on the canal network", cargo_gloss="A shipping container"),
    dict(vehicle="drone", place="pad", cargo="parcel", link="corridor", move="fly",
         moves="flies", load="grab", unload="release", inside="held by", station="charger",
         station_word="charger", vehicles="hawk,kite,swift,wren",
         places="roof,clinic,school,lab,tower,park,plaza,garage",
         cargos="medicine,letters,books,seeds,tools,samples,keys",
         vehicle_gloss="A small flying courier", place_gloss="A landing pad",
         cargo_gloss="A small parcel to be flown"),
    dict(vehicle="cart", place="stall", cargo="sack", link="lane", move="push",
         moves="is pushed", load="heave", unload="unload", inside="on", station="oat-bin",
         station_word="oat bin", vehicles="handcart,barrow,trolley,wagon",
         places="bakery,well,gate,chapel,inn,smithy,granary,square",
         cargos="flour,apples,onions,beans,rye,barley,turnips",
         vehicle_gloss="A hand-drawn cart that carries sacks", place_gloss="A stall of the market",
         cargo_gloss="A sack of produce"),
)


def knobs(rng: random.Random) -> Knobs:
    capacity = rng.random() < 0.5
    return {"capacity": capacity, "fuel": rng.random() < 0.5, "costs": rng.random() < 0.4,
            "negative": (not capacity) and rng.random() < 0.5,
            "vehicles": rng.choice([1, 2]), "places": rng.choice([5, 6, 7])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    V, P, C = lex["vehicle"], lex["place"], lex["cargo"]
    general = (f"A fleet of {V}s carries {C}s between {P}s linked by {lex['link']}s. "
               f"The goal is to bring each {C} to the {P} it is wanted at.")
    b = Builder(name, f"{V.title()} {C}s", general)
    b.type(V, lex["vehicle_gloss"])
    b.type(P, lex["place_gloss"])
    b.type(C, lex["cargo_gloss"])
    at, cat, inside = f"{V}-at", f"{C}-at", f"{C}-in"
    b.pred(at, f"v:{V} p:{P}", f"{V} {{v}} is at {P} {{p}}", f"{V} {{v}} is not at {P} {{p}}")
    b.pred(cat, f"c:{C} p:{P}", f"{C} {{c}} lies at {P} {{p}}",
           f"{C} {{c}} does not lie at {P} {{p}}")
    b.pred(inside, f"c:{C} v:{V}", f"{C} {{c}} is {lex['inside']} {V} {{v}}",
           f"{C} {{c}} is not {lex['inside']} {V} {{v}}")
    b.pred(lex["link"], f"a:{P} b:{P}", f"a {lex['link']} leads from {P} {{a}} to {P} {{b}}",
           f"no {lex['link']} leads from {P} {{a}} to {P} {{b}}")
    move_params, move_pre, move_eff = f"v:{V} a:{P} b:{P}", [f"{at} v a", f"{lex['link']} a b"], \
        [f"{at} v b", f"!{at} v a"]
    hold_load: tuple[list[str], list[str], list[str]]
    if k["capacity"]:
        b.type("slot", "A number of free places in a hold")
        b.pred("room", f"v:{V} n:slot", f"{V} {{v}} has {{n}} free places",
               f"{V} {{v}} does not have {{n}} free places")
        b.pred("slot-step", "lo:slot hi:slot", "slot {hi} is one place more than slot {lo}",
               "slot {hi} is not one place more than slot {lo}")
        b.rule(f"Loading a {C} takes one free place of the {V}'s hold and unloading gives it back")
        load_extra, load_pre = " lo:slot hi:slot", ["room v hi", "slot-step lo hi"]
        load_eff, unload_pre = ["room v lo", "!room v hi"], ["room v lo", "slot-step lo hi"]
        unload_eff = ["room v hi", "!room v lo"]
    else:
        flag = b.flag(k["negative"], "v", f"v:{V}", ("hold-free", f"{V} {{v}} carries nothing"),
                      ("loaded", f"{V} {{v}} carries something"))
        b.rule(f"A {V} holds one {C} at a time")
        load_extra, load_pre, load_eff = "", flag.free(), flag.take()
        unload_pre, unload_eff = [], flag.give()
    hold_load = (load_pre, load_eff, unload_pre)
    if k["fuel"]:
        b.type("fuel-level", "A level of fuel in a tank")
        b.pred("fuel", f"v:{V} f:fuel-level", f"the tank of {V} {{v}} is at {{f}}",
               f"the tank of {V} {{v}} is not at {{f}}")
        b.pred("fuel-step", "lo:fuel-level hi:fuel-level", "fuel level {hi} is one level above {lo}",
               "fuel level {hi} is not one level above {lo}")
        b.pred(lex["station"], f"p:{P}", f"{P} {{p}} has a {lex['station_word']}",
               f"{P} {{p}} has no {lex['station_word']}")
        b.rule(f"Each trip along a {lex['link']} burns one level of fuel, and a {V} refills one "
               f"level at a time at a {lex['station_word']}")
        move_params += " hi:fuel-level lo:fuel-level"
        move_pre += ["fuel v hi", "fuel-step lo hi"]
        move_eff += ["fuel v lo", "!fuel v hi"]
    cost = 1 if k["costs"] else None
    b.action(lex["move"], move_params, "{v} " + lex["moves"] + " from {a} to {b}", move_pre,
             move_eff, cost=2 if k["costs"] else None)
    b.action(lex["load"], f"c:{C} v:{V} p:{P}{load_extra}",
             f"{{c}} is put {lex['inside']} {{v}} at {{p}}",
             [f"{at} v p", f"{cat} c p", *hold_load[0]],
             [f"{inside} c v", f"!{cat} c p", *hold_load[1]], cost=cost)
    b.action(lex["unload"], f"c:{C} v:{V} p:{P}{load_extra}",
             "{c} is taken out of {v} at {p}",
             [f"{at} v p", f"{inside} c v", *hold_load[2]],
             [f"{cat} c p", f"!{inside} c v", *unload_eff], cost=cost)
    if k["fuel"]:
        b.action(f"refill-{V}", f"v:{V} p:{P} lo:fuel-level hi:fuel-level",
                 "{v} tanks up at the " + lex["station_word"] + " of {p}",
                 [f"{at} v p", f"{lex['station']} p", "fuel v lo", "fuel-step lo hi"],
                 ["fuel v hi", "!fuel v lo"], cost=cost)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    V, P = lex["vehicle"], lex["place"]
    level = SIZES[size]
    n_places = 3 if level == 0 else k["places"] - (2 - level)
    places = d.objs(P, lex["places"], n_places)
    vehicles = d.objs(V, lex["vehicles"], 1 if level == 0 else k["vehicles"])
    cargo = d.objs(lex["cargo"], lex["cargos"], 1 + level + (level == 2))
    connect(d, lex["link"], places, extra=0 if level == 0 else level + 1)
    capacity = 1 if level == 0 else 2
    if k["capacity"]:
        slots = d.numbered("slot", "s", capacity + 1)
        d.chain("slot-step", slots)
    if k["fuel"]:
        levels = d.numbered("fuel-level", "f", 3 if level == 0 else 4)
        d.chain("fuel-step", levels)
    for vehicle in vehicles:
        start = places[0] if level == 0 else rng.choice(places)
        d.fact(f"{V}-at", vehicle, start)
        if k["capacity"]:
            d.fact("room", vehicle, slots[capacity])
        elif not k["negative"]:
            d.fact("hold-free", vehicle)
        if k["fuel"]:
            d.fact("fuel", vehicle, levels[1] if level == 0 else levels[-1])
    if k["fuel"]:
        # small: one station midway, so two trips need a refill; else every other place
        stations = [places[1]] if level == 0 else places[::2]
        for place in stations:
            d.fact(lex["station"], place)
    for item in cargo:
        if level == 0:
            origin, target = places[0], places[-1]
        else:
            origin, target = rng.sample(places, 2)
        d.fact(f"{lex['cargo']}-at", item, origin)
        d.want(f"{lex['cargo']}-at", item, target)
    return d.done(name, size)


FAMILY = Family("transport", "logistics", "vehicles carry cargo between linked places "
                "(capacity slots, fuel levels and refuelling, costs)", LEXICONS, knobs, build,
                problem)
