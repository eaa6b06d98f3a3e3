"""Surveying: rovers drive between waypoints on limited energy, recharge at docks and survey
sites; knobs: energy levels (else free driving), an instrument that must be readied before
each survey (a conditional effect spends it on surveys of hazardous sites), action costs."""

from __future__ import annotations

import random

from text2world.worlds.families.base import (
    SIZES,
    Builder,
    Family,
    Knobs,
    Lexicon,
    ProblemDraft,
    connect,
)
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(rover="rover", site="crater", survey="image", ready="focus", drive="drive",
         dock="lander", rovers="spirit,sojourner,zhurong,lunokhod",
         sites="rim,ridge,basin,dune,mesa,gully,vent,plain", instrument="camera",
         rover_gloss="A planetary rover", site_gloss="A waypoint on the planet's surface"),
    dict(rover="ranger", site="outpost", survey="inspect", ready="prepare", drive="hike",
         dock="hut", rovers="ansel,muir,ada,rachel", sites="falls,summit,grove,bog,cliff,"
         "meadow,creek,cave", instrument="kit", rover_gloss="A park ranger",
         site_gloss="A spot in the national park"),
    dict(rover="diver", site="reef", survey="sample", ready="calibrate", drive="swim",
         dock="boat", rovers="cousteau,earle,hass,bass", sites="shoal,wreck,trench,lagoon,"
         "atoll,kelp,cove,shelf", instrument="probe", rover_gloss="A research diver",
         site_gloss="A dive site"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"energy": rng.random() < 0.6, "conditional": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "sites": rng.choice([4, 5, 6])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    R, S, It = lex["rover"], lex["site"], lex["instrument"]
    b = Builder(name, f"{S.title()} survey", f"{R.title()}s travel between {S}s with a "
                f"{It} to survey them, resting at {lex['dock']}s. The goal is to have findings "
                f"about given {S}s handed in at a {lex['dock']} and bring {R}s to given {S}s.")
    b.type(R, lex["rover_gloss"])
    b.type(S, lex["site_gloss"])
    b.pred(f"{R}-at", f"r:{R} s:{S}", f"{R} {{r}} is at {S} {{s}}", f"{R} {{r}} is not at "
           f"{S} {{s}}")
    b.pred("route", f"a:{S} b:{S}", f"a route leads from {S} {{a}} to {S} {{b}}",
           f"no route leads from {S} {{a}} to {S} {{b}}")
    b.pred("surveyed", f"s:{S}", f"{S} {{s}} has been surveyed", f"{S} {{s}} has not been "
           f"surveyed")
    b.pred("findings", f"r:{R} s:{S}", f"{R} {{r}} carries findings about {S} {{s}}",
           f"{R} {{r}} carries no findings about {S} {{s}}")
    b.pred("ready", f"r:{R}", f"the {It} of {R} {{r}} is ready", f"the {It} of {R} {{r}} is not "
           f"ready")
    b.pred(lex["dock"], f"s:{S}", f"{S} {{s}} has a {lex['dock']}", f"{S} {{s}} has no "
           f"{lex['dock']}")
    drive_params, drive_pre, drive_eff = f"r:{R} a:{S} b:{S}", [f"{R}-at r a", "route a b"], \
        [f"{R}-at r b", f"!{R}-at r a"]
    ready_pre = [f"{R}-at r s", f"{lex['dock']} s"]
    if k["energy"]:
        b.type("energy", "A level of stored energy")
        b.pred("charge", f"r:{R} e:energy", f"{R} {{r}} has energy {{e}}",
               f"{R} {{r}} does not have energy {{e}}")
        b.pred("energy-step", "lo:energy hi:energy", "energy {hi} is one step above {lo}",
               "energy {hi} is not one step above {lo}")
        b.rule(f"Each leg of a route uses one step of energy, regained one step at a time at a "
               f"{lex['dock']}")
        drive_params += " hi:energy lo:energy"
        drive_pre += ["charge r hi", "energy-step lo hi"]
        drive_eff += ["charge r lo", "!charge r hi"]
    when: list[tuple[list[str], list[str]]] = []
    survey_eff = []
    if k["conditional"]:
        b.pred("hazardous", f"s:{S}", f"{S} {{s}} is hazardous", f"{S} {{s}} is not hazardous")
        b.rule(f"Surveying a hazardous {S} uses up the readiness of the {It}")
        when = [(["hazardous s"], ["!ready r"])]
    else:
        b.rule(f"Each survey uses up the readiness of the {It}")
        survey_eff = ["!ready r"]
    cost = 1 if k["costs"] else None
    b.action(lex["drive"], drive_params, f"{R} {{r}} travels from {S} {{a}} to {S} {{b}}",
             drive_pre, drive_eff, cost=2 if k["costs"] else None)
    b.action(lex["ready"], f"r:{R} s:{S}", f"{R} {{r}} readies its {It} at the "
             f"{lex['dock']} of {{s}}", ready_pre, ["ready r"], cost=cost)
    b.action(lex["survey"], f"r:{R} s:{S}", f"{R} {{r}} surveys {S} {{s}}",
             [f"{R}-at r s", "ready r"], ["findings r s", *survey_eff], when=when, cost=cost)
    b.action(f"report-{S}", f"r:{R} s:{S} d:{S}", f"{R} {{r}} hands in its findings about "
             f"{{s}} at the {lex['dock']} of {{d}}", [f"{R}-at r d", f"{lex['dock']} d",
                                                     "findings r s"],
             ["surveyed s", "!findings r s"], cost=cost)
    if k["energy"]:
        b.action(f"recharge-{R}", f"r:{R} s:{S} lo:energy hi:energy", f"{R} {{r}} recharges "
                 f"at the {lex['dock']} of {{s}}", [f"{R}-at r s", f"{lex['dock']} s",
                                                     "charge r lo", "energy-step lo hi"],
                 ["charge r hi", "!charge r lo"], cost=cost)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    sites = d.objs(lex["site"], lex["sites"], 3 if level == 0 else k["sites"] + level - 1)
    rovers = d.objs(lex["rover"], lex["rovers"], 1 if level < 2 else 2)
    connect(d, "route", sites, extra=0 if level == 0 else level + 1)
    if k["energy"]:
        levels = d.numbered("energy", "e", 3 if level == 0 else 4)
        d.chain("energy-step", levels)
    docks = [sites[1]] if level == 0 else sites[::2]
    for site in docks:
        d.fact(lex["dock"], site)
    for rover in rovers:
        d.fact(f"{lex['rover']}-at", rover, sites[0] if level == 0 else rng.choice(docks))
        if k["energy"]:
            d.fact("charge", rover, levels[1] if level == 0 else levels[-1])
    targets = [sites[2]] if level == 0 else rng.sample(sites, 2 + level)
    for site in targets:
        if k["conditional"] and (level == 0 or rng.random() < 0.5):
            d.fact("hazardous", site)
        d.want("surveyed", site)
    if level == 0:
        d.want(f"{lex['rover']}-at", rovers[0], sites[1])
    return d.done(name, size)


FAMILY = Family("survey", "path-planning", "rovers survey sites on limited energy "
                "(energy levels and recharging, instrument readiness spent by a conditional "
                "effect, costs)", LEXICONS, knobs, build, problem)
