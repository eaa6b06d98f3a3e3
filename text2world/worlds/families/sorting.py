"""Sorting: a robot carries items from an intake to the bins that accept their kind; knobs: a
scan that must tell an item's kind before binning, an empty gripper as a flag or a negative
precondition, action costs."""

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
    dict(robot="sorter", item="parcel", bin="chute", kind="zone", place="bay", move="roll",
         grab="grip", scan="scan", drop="drop", items="red-box,tube,envelope,crate,sack,"
         "drum,pouch,carton", kinds="north-zone,south-zone,east-zone,west-zone",
         places="intake,bay-a,bay-b,bay-c,bay-d", robot_gloss="A sorting robot",
         item_gloss="A parcel to be sorted", bin_gloss="A chute that takes parcels of a zone",
         kind_gloss="A delivery zone", place_gloss="A bay of the sorting hall"),
    dict(robot="picker", item="bottle", bin="crate", kind="colour", place="aisle",
         move="walk", grab="pick", scan="inspect", drop="deposit", items="jar,flask,vial,"
         "carafe,jug,decanter,phial,ewer", kinds="green,brown,clear,blue",
         places="conveyor,aisle-1,aisle-2,aisle-3,aisle-4", robot_gloss="A recycling picker",
         item_gloss="A used bottle", bin_gloss="A crate for glass of one colour",
         kind_gloss="A colour of glass", place_gloss="An aisle of the recycling plant"),
    dict(robot="clerk", item="letter", bin="pigeonhole", kind="district", place="desk",
         move="step", grab="take", scan="read", drop="file", items="memo,invoice,notice,"
         "card,bill,cheque,form,leaflet", kinds="harbour,hills,centre,meadow",
         places="inbox,desk-1,desk-2,desk-3,desk-4", robot_gloss="A post office clerk",
         item_gloss="A letter to be sorted", bin_gloss="A pigeonhole for one district",
         kind_gloss="A postal district", place_gloss="A desk of the post office"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"scan": rng.random() < 0.6, "negative": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "kinds": rng.choice([2, 3])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    R, It, B, K, P = lex["robot"], lex["item"], lex["bin"], lex["kind"], lex["place"]
    b = Builder(name, f"{It.title()} sorting", f"{article(R)} carries {It}s from where they "
                f"lie to {B}s, each {B} taking {It}s of one {K}. The goal is to sort the "
                f"{It}s.")
    for kind, gloss in ((R, lex["robot_gloss"]), (It, lex["item_gloss"]), (B, lex["bin_gloss"]),
                        (K, lex["kind_gloss"]), (P, lex["place_gloss"])):
        b.type(kind, gloss)
    b.pred(f"{R}-at", f"r:{R} p:{P}", f"{R} {{r}} is at {P} {{p}}", f"{R} {{r}} is not at {{p}}")
    b.pred(f"{It}-at", f"i:{It} p:{P}", f"{It} {{i}} lies at {P} {{p}}",
           f"{It} {{i}} does not lie at {P} {{p}}")
    b.pred(f"{B}-at", f"b:{B} p:{P}", f"{B} {{b}} stands at {P} {{p}}",
           f"{B} {{b}} does not stand at {P} {{p}}")
    b.pred("path", f"p:{P} q:{P}", f"a path leads from {P} {{p}} to {P} {{q}}",
           "no path leads from {p} to {q}")
    b.pred("kind-of", f"i:{It} k:{K}", f"{It} {{i}} is of {K} {{k}}",
           f"{It} {{i}} is not of {K} {{k}}")
    b.pred("accepts", f"b:{B} k:{K}", f"{B} {{b}} takes {It}s of {K} {{k}}",
           f"{B} {{b}} does not take {It}s of {K} {{k}}")
    b.pred("gripping", f"r:{R} i:{It}", f"{R} {{r}} holds {It} {{i}}",
           f"{R} {{r}} does not hold {It} {{i}}")
    b.pred("sorted", f"i:{It}", f"{It} {{i}} is sorted", f"{It} {{i}} is not sorted")
    flag = b.flag(k["negative"], "r", f"r:{R}", ("empty-handed", f"{R} {{r}} holds nothing"),
                  ("occupied", f"{R} {{r}} holds something"))
    free, take, give = flag.free(), flag.take(), flag.give()
    scanned = []
    if k["scan"]:
        b.pred("checked", f"i:{It}", f"the {K} of {It} {{i}} is known",
               f"the {K} of {It} {{i}} is unknown")
        b.rule(f"The {K} of {article(It).lower()} is known once it has been checked, and only "
               f"checked {It}s go into {B}s")
        scanned = ["checked i"]
    cost = 1 if k["costs"] else None
    b.action(lex["move"], f"r:{R} p:{P} q:{P}", f"{R} {{r}} goes from {P} {{p}} to {{q}}",
             [f"{R}-at r p", "path p q"], [f"{R}-at r q", f"!{R}-at r p"], cost=cost)
    b.action(lex["grab"], f"r:{R} i:{It} p:{P}", f"{R} {{r}} picks up {It} {{i}} at {{p}}",
             [f"{R}-at r p", f"{It}-at i p", *free], ["gripping r i", f"!{It}-at i p", *take],
             cost=cost)
    if k["scan"]:
        b.action(lex["scan"], f"r:{R} i:{It}", f"{R} {{r}} checks the {K} of {It} {{i}}",
                 ["gripping r i"], ["checked i"], cost=cost)
    b.action(lex["drop"], f"r:{R} i:{It} b:{B} p:{P} k:{K}", f"{R} {{r}} puts {It} {{i}} into "
             f"{B} {{b}} at {{p}}", [f"{R}-at r p", f"{B}-at b p", "gripping r i",
                                      "kind-of i k", "accepts b k", *scanned],
             ["sorted i", "!gripping r i", *give], cost=cost)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    places = lex["places"].split(",")[:2 + level]
    for place in places:
        d.taken.add(place)
        d.objects.append((place, lex["place"]))
    robot = d.objs(lex["robot"], lex["robot"], 1)[0]
    kinds = d.objs(lex["kind"], lex["kinds"], 1 if level == 0 else k["kinds"])
    bins = d.objs(lex["bin"], lex["bin"], len(kinds))
    items = d.objs(lex["item"], lex["items"], 1 + 2 * level)
    connect(d, "path", places, extra=level)
    d.fact(f"{lex['robot']}-at", robot, places[0])
    if not k["negative"]:
        d.fact("empty-handed", robot)
    for bin_, kind in zip(bins, kinds):
        d.fact("accepts", bin_, kind)
        d.fact(f"{lex['bin']}-at", bin_, places[-1] if level == 0 else rng.choice(places[1:]))
    for item in items:
        d.fact(f"{lex['item']}-at", item, places[0] if level == 0 else rng.choice(places))
        d.fact("kind-of", item, rng.choice(kinds))
        d.want("sorted", item)
    return d.done(name, size)


FAMILY = Family("sorting", "logistics", "a robot carries items to the bins of their kind "
                "(scanning first, empty gripper as a flag or negation, costs)", LEXICONS, knobs,
                build, problem)
