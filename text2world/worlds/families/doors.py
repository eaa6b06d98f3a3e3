"""Keys and doors: an agent walks through a chain of rooms whose doors open with matching keys;
knobs: locks as a pair of flags or a negative precondition, one free hand (keys dropped to take
another), action costs, chain length."""

from __future__ import annotations

import random

from text2world.worlds.families.base import SIZES, Builder, Family, Knobs, Lexicon, ProblemDraft, article
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(agent="explorer", room="chamber", door="gate", key="rune", walk="stride",
         take="collect", unlock="unseal", drop="discard", agents="ada,bo,cyr",
         rooms="hall,crypt,vault,gallery,shrine,cellar,tower,annex",
         doors="arch,portal,grate,hatch,lintel,postern,wicket",
         keys="sun,moon,star,comet,ember,frost,tide,storm",
         agent_gloss="Someone exploring the ruins", room_gloss="A chamber of the ruins",
         door_gloss="A sealed gate between two chambers", key_gloss="A rune stone that unseals gates"),
    dict(agent="guard", room="ward", door="hatch", key="badge", walk="patrol",
         take="pick", unlock="release", drop="hand-in", agents="ines,omar,pia",
         rooms="lobby,atrium,office,archive,studio,pantry,lounge,annex",
         doors="east-hatch,west-hatch,blue-hatch,red-hatch,side-hatch,back-hatch,roof-hatch",
         keys="amber,jade,onyx,pearl,ruby,topaz,opal,coral",
         agent_gloss="A night guard on rounds", room_gloss="A ward of the building",
         door_gloss="A hatch between two wards", key_gloss="An access badge"),
    dict(agent="player", room="level", door="barrier", key="token", walk="advance",
         take="grab", unlock="dissolve", drop="toss", agents="hero,rogue,mage",
         rooms="forest,swamp,desert,castle,mines,glacier,volcano,lagoon",
         doors="thorns,wall,mist,boulder,bridge,chasm,fence",
         keys="leaf,bone,shell,gem,feather,scale,horn,petal",
         agent_gloss="The character a gamer steers", room_gloss="A level of the game",
         door_gloss="A barrier between two levels", key_gloss="A token that dissolves a barrier"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"negative": rng.random() < 0.5, "one_hand": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "rooms": rng.choice([4, 5, 6])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    A, R, D, K = lex["agent"], lex["room"], lex["door"], lex["key"]
    b = Builder(name, f"{A.title()}s and {K}s", f"{article(A)} moves between {R}s joined by {D}s, "
                f"some of them locked; {K}s lying in the {R}s open them. The goal is to reach "
                f"a given {R}.")
    for kind, gloss in ((A, lex["agent_gloss"]), (R, lex["room_gloss"]), (D, lex["door_gloss"]),
                        (K, lex["key_gloss"])):
        b.type(kind, gloss)
    at = f"{A}-in"
    b.pred(at, f"a:{A} r:{R}", f"{A} {{a}} is in {R} {{r}}", f"{A} {{a}} is not in {R} {{r}}")
    b.pred("joins", f"d:{D} x:{R} y:{R}", f"{D} {{d}} leads from {R} {{x}} to {R} {{y}}",
           f"{D} {{d}} does not lead from {{x}} to {{y}}")
    b.pred(f"{K}-in", f"k:{K} r:{R}", f"{K} {{k}} lies in {R} {{r}}",
           f"{K} {{k}} does not lie in {R} {{r}}")
    b.pred("carries", f"a:{A} k:{K}", f"{A} {{a}} carries {K} {{k}}",
           f"{A} {{a}} does not carry {K} {{k}}")
    b.pred("opens", f"k:{K} d:{D}", f"{K} {{k}} fits {D} {{d}}", f"{K} {{k}} does not fit {{d}}")
    b.pred("open", f"d:{D}", f"{D} {{d}} is open", f"{D} {{d}} is not open")
    if k["negative"]:
        unlock_pre, unlock_eff = ["!open d"], ["open d"]
    else:
        b.pred("shut", f"d:{D}", f"{D} {{d}} is locked", f"{D} {{d}} is not locked")
        unlock_pre, unlock_eff = ["shut d"], ["open d", "!shut d"]
    take_pre, take_eff = [], []
    if k["one_hand"]:
        b.pred("hand-free", f"a:{A}", f"{A} {{a}} has a free hand",
               f"{A} {{a}} has no free hand")
        b.rule(f"{article(A)} carries one {K} at a time")
        take_pre, take_eff = ["hand-free a"], ["!hand-free a"]
    b.rule(f"A {D} opens for good once the {K} that fits it is used on it")
    cost = 1 if k["costs"] else None
    b.action(lex["walk"], f"a:{A} d:{D} x:{R} y:{R}",
             f"{A} {{a}} goes through {D} {{d}} from {{x}} to {{y}}",
             [f"{at} a x", "joins d x y", "open d"], [f"{at} a y", f"!{at} a x"], cost=cost)
    b.action(lex["take"], f"a:{A} k:{K} r:{R}", f"{A} {{a}} picks up {K} {{k}} in {{r}}",
             [f"{at} a r", f"{K}-in k r", *take_pre],
             ["carries a k", f"!{K}-in k r", *take_eff], cost=cost)
    b.action(lex["unlock"], f"a:{A} k:{K} d:{D} x:{R} y:{R}",
             f"{A} {{a}} uses {K} {{k}} on {D} {{d}} from {{x}}",
             [f"{at} a x", "joins d x y", "carries a k", "opens k d", *unlock_pre], unlock_eff,
             cost=2 if k["costs"] else None)
    if k["one_hand"]:
        b.action(lex["drop"], f"a:{A} k:{K} r:{R}", f"{A} {{a}} puts {K} {{k}} down in {{r}}",
                 [f"{at} a r", "carries a k"], [f"{K}-in k r", "hand-free a", "!carries a k"],
                 cost=cost)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    rooms = d.objs(lex["room"], lex["rooms"], 3 if level == 0 else k["rooms"] + level - 1)
    agent = d.objs(lex["agent"], lex["agents"], 1)[0]
    doors = d.objs(lex["door"], lex["doors"], len(rooms) - 1)
    keys = d.objs(lex["key"], lex["keys"], len(doors))
    d.fact(f"{lex['agent']}-in", agent, rooms[0])
    if k["one_hand"]:
        d.fact("hand-free", agent)
    for index, door in enumerate(doors):
        d.fact("joins", door, rooms[index], rooms[index + 1])
        d.fact("joins", door, rooms[index + 1], rooms[index])
        locked = level == 0 or index == 0 or rng.random() < 0.7
        if locked:
            d.fact("opens", keys[index], door)
            if not k["negative"]:
                d.fact("shut", door)
        else:
            d.fact("open", door)
            d.fact("opens", keys[index], door)
        where = rooms[0] if level == 0 else rooms[rng.randrange(index + 1)]
        d.fact(f"{lex['key']}-in", keys[index], where)
    d.want(f"{lex['agent']}-in", agent, rooms[-1])
    return d.done(name, size)


FAMILY = Family("keys-doors", "puzzle", "an agent opens locked doors with matching keys "
                "(locks as flags or negation, one free hand, costs)", LEXICONS, knobs, build,
                problem)
