"""Scheduling: tasks start in their time slot on a qualified free worker, a clock moves
forward slot by slot; knobs: precedence between tasks (a second start action that waits for
the predecessor), workers busy as a negative precondition, action costs."""

from __future__ import annotations

import random

from text2world.worlds.families.base import SIZES, Builder, Family, Knobs, Lexicon, ProblemDraft
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(task="lecture", worker="teacher", slot="period", start="open", finish="close",
         tick="ring", tasks="algebra,poetry,biology,history,music,drawing,physics,latin",
         workers="adams,baker,clark,dunn", task_gloss="A lecture to be held",
         worker_gloss="A teacher who holds lectures", slot_gloss="A period of the school day"),
    dict(task="surgery", worker="surgeon", slot="shift", start="begin", finish="conclude",
         tick="handover", tasks="knee,hip,heart,spine,eye,hand,lung,jaw",
         workers="ito,lopez,meyer,novak", task_gloss="A planned surgery",
         worker_gloss="A surgeon on the roster", slot_gloss="A shift of the hospital"),
    dict(task="delivery", worker="courier", slot="hour", start="dispatch", finish="hand-over",
         tick="advance", tasks="flowers,pizza,mail,laptop,groceries,medicine,tickets,shoes",
         workers="quinn,reed,sato,tran", task_gloss="A delivery run",
         worker_gloss="A courier on duty", slot_gloss="An hour of the working day"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"precedence": rng.random() < 0.6, "negative": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "workers": rng.choice([2, 3])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    T, W, S = lex["task"], lex["worker"], lex["slot"]
    b = Builder(name, f"{T.title()} timetable", f"{T.title()}s are carried out by {W}s over a "
                f"day split into {S}s. The goal is to carry out every {T} in its {S}.")
    b.type(T, lex["task_gloss"])
    b.type(W, lex["worker_gloss"])
    b.type(S, lex["slot_gloss"])
    b.pred("current", f"s:{S}", f"the day is in {S} {{s}}", f"the day is not in {S} {{s}}")
    b.pred("later", f"s:{S} t:{S}", f"{S} {{t}} comes right after {S} {{s}}",
           f"{S} {{t}} does not come right after {S} {{s}}")
    b.pred("window", f"t:{T} s:{S}", f"{T} {{t}} is planned for {S} {{s}}",
           f"{T} {{t}} is not planned for {S} {{s}}")
    b.pred("qualified", f"w:{W} t:{T}", f"{W} {{w}} can do {T} {{t}}",
           f"{W} {{w}} cannot do {T} {{t}}")
    b.pred("assigned", f"t:{T} w:{W}", f"{T} {{t}} is under way with {W} {{w}}",
           f"{T} {{t}} is not under way with {W} {{w}}")
    b.pred("pending", f"t:{T}", f"{T} {{t}} has not started", f"{T} {{t}} has started")
    b.pred("completed", f"t:{T}", f"{T} {{t}} is completed", f"{T} {{t}} is not completed")
    flag = b.flag(k["negative"], "w", f"w:{W}", ("free", f"{W} {{w}} is free"),
                  ("busy", f"{W} {{w}} is busy"))
    free_pre, take, release = flag.free(), flag.take(), flag.give()
    b.rule(f"A {W} does one {T} at a time, and a {T} starts in the {S} it is planned for")
    cost = 1 if k["costs"] else None
    start_pre = ["current s", "window t s", "qualified w t", "pending t", *free_pre]
    start_eff = ["assigned t w", "!pending t", *take]
    if k["precedence"]:
        b.pred("opening", f"t:{T}", f"{T} {{t}} waits for no other {T}",
               f"{T} {{t}} waits for another {T}")
        b.pred("after", f"t:{T} u:{T}", f"{T} {{t}} waits for {T} {{u}}",
               f"{T} {{t}} does not wait for {T} {{u}}")
        b.rule(f"A {T} that waits for another starts once that one is completed")
        b.action(lex["start"], f"t:{T} w:{W} s:{S}", f"{W} {{w}} starts {T} {{t}} in "
                 f"{S} {{s}}", [*start_pre, "opening t"], start_eff, cost=cost)
        b.action(f"{lex['start']}-next", f"t:{T} u:{T} w:{W} s:{S}", f"{W} {{w}} starts "
                 f"{T} {{t}} after {T} {{u}} in {S} {{s}}",
                 [*start_pre, "after t u", "completed u"], start_eff, cost=cost)
    else:
        b.action(lex["start"], f"t:{T} w:{W} s:{S}", f"{W} {{w}} starts {T} {{t}} in "
                 f"{S} {{s}}", start_pre, start_eff, cost=cost)
    b.action(lex["finish"], f"t:{T} w:{W}", f"{W} {{w}} completes {T} {{t}}",
             ["assigned t w"], ["completed t", "!assigned t w", *release], cost=cost)
    b.action(lex["tick"], f"s:{S} n:{S}", f"the day moves on from {S} {{s}} to {S} {{n}}",
             ["current s", "later s n"], ["current n", "!current s"],
             cost=2 if k["costs"] else None)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    tasks = d.objs(lex["task"], lex["tasks"], 2 + 2 * level)
    workers = d.objs(lex["worker"], lex["workers"], 1 if level == 0 else k["workers"])
    slots = d.numbered(lex["slot"], lex["slot"][:1], 2 + level)
    d.chain("later", slots)
    d.fact("current", slots[0])
    windows = [0, 1] if level == 0 else sorted(rng.randrange(len(slots)) for _ in tasks)
    for index, task in enumerate(tasks):
        d.fact("window", task, slots[windows[index]])
        d.fact("pending", task)
        for worker in rng.sample(workers, rng.randint(1, len(workers))):
            d.fact("qualified", worker, task)
        if k["precedence"]:
            if index == 0 or (level > 0 and rng.random() < 0.4):
                d.fact("opening", task)
            else:
                d.fact("after", task, tasks[rng.randrange(index)] if level else tasks[0])
        d.want("completed", task)
    if not k["negative"]:
        for worker in workers:
            d.fact("free", worker)
    return d.done(name, size)


FAMILY = Family("scheduling", "scheduling", "tasks in time slots on qualified workers with a "
                "clock (precedence, busy as negation, costs)", LEXICONS, knobs, build, problem)
