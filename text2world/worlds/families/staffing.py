"""Staffing with skills: staff members clock in, attend clients needing a skill they have, and
finish; knobs: clocking in, busy as a negative precondition, action costs."""

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
    dict(staff="nurse", client="patient", skill="treatment", begin="attend", end="discharge",
         clock="report", staffs="amy,ben,cara,dev", clients="mr-ash,ms-bell,mr-cole,ms-dale,"
         "mr-eve,ms-fox,mr-gray", skills="dressing,injection,infusion,scan",
         staff_gloss="A nurse of the ward", client_gloss="A patient of the ward",
         skill_gloss="A kind of treatment", room="ward", walk="walk",
         rooms="east-wing,west-wing,annex,ground-floor", room_gloss="A ward of the hospital"),
    dict(staff="mechanic", client="car", skill="repair", begin="service", end="release",
         clock="check-in", staffs="hal,ivy,jon,kai", clients="sedan,coupe,pickup,hatch,"
         "wagon,roadster,minivan", skills="brakes,tyres,engine,wiring",
         staff_gloss="A mechanic of the garage", client_gloss="A car in for repair",
         skill_gloss="A kind of repair", room="bay", walk="cross",
         rooms="bay-1,bay-2,bay-3,bay-4", room_gloss="A bay of the garage"),
    dict(staff="tutor", client="student", skill="subject", begin="coach", end="dismiss",
         clock="sign-in", staffs="lea,milo,nia,ole", clients="tom,uma,vic,wes,xena,yul,zoe",
         skills="maths,french,chemistry,art", staff_gloss="A tutor of the school",
         client_gloss="A student who needs help", skill_gloss="A school subject", room="classroom",
         walk="go", rooms="room-a,room-b,room-c,room-d", room_gloss="A classroom"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"clock_in": rng.random() < 0.6, "negative": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "skills": rng.choice([2, 3])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    S, C, K = lex["staff"], lex["client"], lex["skill"]
    b = Builder(name, f"{S.title()}s and {C}s", f"{S.title()}s look after {C}s, each {C} "
                f"in want of some {K}s and each {S} trained in some. The goal is to give "
                f"every {C} what they are waiting for.")
    b.type(S, lex["staff_gloss"])
    b.type(C, lex["client_gloss"])
    b.type(K, lex["skill_gloss"])
    Rm = lex["room"]
    b.type(Rm, lex["room_gloss"])
    b.pred(f"{S}-in", f"s:{S} r:{Rm}", f"{S} {{s}} is in {Rm} {{r}}",
           f"{S} {{s}} is not in {Rm} {{r}}")
    b.pred(f"{C}-in", f"c:{C} r:{Rm}", f"{C} {{c}} is in {Rm} {{r}}",
           f"{C} {{c}} is not in {Rm} {{r}}")
    b.pred("door", f"a:{Rm} b:{Rm}", f"a door leads from {Rm} {{a}} to {Rm} {{b}}",
           f"no door leads from {Rm} {{a}} to {Rm} {{b}}")
    b.pred("trained", f"s:{S} k:{K}", f"{S} {{s}} is trained in {K} {{k}}",
           f"{S} {{s}} is not trained in {K} {{k}}")
    b.pred("wants", f"c:{C} k:{K}", f"{C} {{c}} waits for {K} {{k}}",
           f"{C} {{c}} does not wait for {K} {{k}}")
    b.pred("given", f"c:{C} k:{K}", f"{C} {{c}} has had {K} {{k}}",
           f"{C} {{c}} has not had {K} {{k}}")
    b.pred("attending", f"s:{S} c:{C} k:{K}", f"{S} {{s}} is giving {K} {{k}} to {C} {{c}}",
           f"{S} {{s}} is not giving {K} {{k}} to {C} {{c}}")
    flag = b.flag(k["negative"], "s", f"s:{S}", ("available", f"{S} {{s}} is free"),
                  ("engaged", f"{S} {{s}} is busy"))
    free, take, give = flag.free(), flag.take(), flag.give()
    duty = []
    cost = 1 if k["costs"] else None
    if k["clock_in"]:
        b.pred("on-duty", f"s:{S}", f"{S} {{s}} is on duty", f"{S} {{s}} is not on duty")
        b.pred("off-duty", f"s:{S}", f"{S} {{s}} is off duty", f"{S} {{s}} is not off duty")
        b.rule(f"{S.title()}s start off duty and work once they are on duty")
        duty = ["on-duty s"]
        b.action(lex["clock"], f"s:{S}", f"{S} {{s}} comes on duty", ["off-duty s"],
                 ["on-duty s", "!off-duty s"], cost=cost)
    b.rule(f"{article(S)} gives one {K} at a time")
    b.action(lex["walk"], f"s:{S} a:{Rm} b:{Rm}", f"{S} {{s}} goes from {Rm} {{a}} to {{b}}",
             [f"{S}-in s a", "door a b"], [f"{S}-in s b", f"!{S}-in s a"], cost=cost)
    b.action(lex["begin"], f"s:{S} c:{C} k:{K} r:{Rm}",
             f"{S} {{s}} begins {K} {{k}} with {C} {{c}}",
             [f"{S}-in s r", f"{C}-in c r", *duty, *free, "trained s k", "wants c k"],
             ["attending s c k", "!wants c k", *take], cost=cost)
    b.action(lex["end"], f"s:{S} c:{C} k:{K}", f"{S} {{s}} ends {K} {{k}} with {C} {{c}}",
             ["attending s c k"], ["given c k", "!attending s c k", *give], cost=cost)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    rooms = d.objs(lex["room"], lex["rooms"], 2 + level)
    connect(d, "door", rooms, extra=level)
    staff = d.objs(lex["staff"], lex["staffs"], 1 + level)
    clients = d.objs(lex["client"], lex["clients"], 1 + 2 * level)
    skills = d.objs(lex["skill"], lex["skills"], 1 if level == 0 else k["skills"])
    for person in staff:
        d.fact(f"{lex['staff']}-in", person, rooms[0])
        if k["clock_in"]:
            d.fact("off-duty", person)
        if not k["negative"]:
            d.fact("available", person)
    for skill in skills:
        d.fact("trained", rng.choice(staff), skill)
    for person in staff:
        if rng.random() < 0.5:
            d.fact("trained", person, rng.choice(skills))
    for client in clients:
        d.fact(f"{lex['client']}-in", client, rooms[-1] if level == 0 else rng.choice(rooms))
        for skill in rng.sample(skills, rng.randint(1, len(skills))):
            d.fact("wants", client, skill)
            d.want("given", client, skill)
    return d.done(name, size)


FAMILY = Family("staffing", "scheduling", "staff with skills serve clients' needs (clocking "
                "in, busy as negation, costs)", LEXICONS, knobs, build, problem)
