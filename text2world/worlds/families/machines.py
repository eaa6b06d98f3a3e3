"""Machines with modes: jobs run on machines set to the mode each job needs; knobs: jobs
pending as a flag or a negative precondition on done, calibration that certifies a job run
(a conditional effect) and is lost on a mode change, action costs."""

from __future__ import annotations

import random

from text2world.worlds.families.base import SIZES, Builder, Family, Knobs, Lexicon, ProblemDraft
from text2world.worlds.plan import ProblemSpec, WorldPlan

__all__ = ["LEXICONS", "knobs", "build", "problem", "FAMILY"]

LEXICONS: tuple[Lexicon, ...] = (
    dict(machine="press", mode="die", job="order", switch="refit", run="stamp",
         calibrate="align", certified="approved", machines="p1,p2,p3,p4", modes="round,square,"
         "oval,hex,star,slot", jobs="lids,brackets,hinges,plates,clips,washers,rings",
         machine_gloss="A stamping press", mode_gloss="A die a press can be fitted with",
         job_gloss="An order of stamped parts"),
    dict(machine="oven", mode="program", job="batch", switch="reprogram", run="bake",
         calibrate="tune", certified="graded", machines="left,right,upper,lower",
         modes="bread,cake,pizza,roast,dry,proof", jobs="rolls,buns,tarts,loaves,muffins,"
         "pies,scones", machine_gloss="A kitchen oven", mode_gloss="A baking program",
         job_gloss="A batch of dough"),
    dict(machine="loom", mode="pattern", job="bolt", switch="rethread", run="weave",
         calibrate="tension", certified="inspected", machines="north,south,east,west",
         modes="twill,satin,plain,herring,diamond,check", jobs="linen,wool,silk,cotton,"
         "hemp,jute,flax", machine_gloss="A weaving loom", mode_gloss="A weave pattern",
         job_gloss="A bolt of cloth to weave"),
)


def knobs(rng: random.Random) -> Knobs:
    return {"negative": rng.random() < 0.5, "conditional": rng.random() < 0.5,
            "costs": rng.random() < 0.4, "machines": rng.choice([2, 3])}


def build(k: Knobs, lex: Lexicon, name: str) -> WorldPlan:
    M, Mo, J = lex["machine"], lex["mode"], lex["job"]
    general = (f"A workshop runs {J}s on {M}s. Each {M} is set to one {Mo} at a time and each "
               f"{J} calls for a {Mo}. The goal is to finish the {J}s.")
    b = Builder(name, f"{M.title()} {Mo}s", general)
    b.type(M, lex["machine_gloss"])
    b.type(Mo, lex["mode_gloss"])
    b.type(J, lex["job_gloss"])
    b.pred("set-to", f"m:{M} o:{Mo}", f"{M} {{m}} is set to {Mo} {{o}}",
           f"{M} {{m}} is not set to {Mo} {{o}}")
    b.pred("offers", f"m:{M} o:{Mo}", f"{M} {{m}} can be set to {Mo} {{o}}",
           f"{M} {{m}} cannot be set to {Mo} {{o}}")
    b.pred("calls-for", f"j:{J} o:{Mo}", f"{J} {{j}} calls for {Mo} {{o}}",
           f"{J} {{j}} does not call for {Mo} {{o}}")
    b.pred("finished", f"j:{J}", f"{J} {{j}} is finished", f"{J} {{j}} is not finished")
    b.pred("idle", f"m:{M}", f"{M} {{m}} is idle", f"{M} {{m}} is busy")
    b.pred("loaded-with", f"m:{M} j:{J}", f"{M} {{m}} holds {J} {{j}}",
           f"{M} {{m}} does not hold {J} {{j}}")
    b.rule(f"A {M} holds one {J} at a time, from its run until it is taken out")
    if k["negative"]:
        run_pre, run_eff = ["!finished j"], []
    else:
        b.pred("waiting", f"j:{J}", f"{J} {{j}} is waiting", f"{J} {{j}} is not waiting")
        run_pre, run_eff = ["waiting j"], ["!waiting j"]
    switch_eff = []
    when: list[tuple[list[str], list[str]]] = []
    if k["conditional"]:
        b.pred("calibrated", f"m:{M}", f"{M} {{m}} is calibrated", f"{M} {{m}} is not calibrated")
        b.pred(lex["certified"], f"j:{J}", f"{J} {{j}} is {lex['certified']}",
               f"{J} {{j}} is not {lex['certified']}")
        b.rule(f"A {J} run on a calibrated {M} is {lex['certified']} as well, and changing the "
               f"{Mo} of a {M} loses its calibration")
        switch_eff = ["!calibrated m"]
        when = [(["calibrated m"], [f"{lex['certified']} j"])]
    b.action(lex["switch"], f"m:{M} a:{Mo} b:{Mo}", f"{M} {{m}} is changed from {Mo} {{a}} to "
             f"{Mo} {{b}}", ["set-to m a", "offers m b"], ["set-to m b", "!set-to m a",
                                                           *switch_eff],
             cost=3 if k["costs"] else None)
    b.action(lex["run"], f"j:{J} m:{M} o:{Mo}", f"{J} {{j}} is run on {M} {{m}} in {Mo} {{o}}",
             ["set-to m o", "calls-for j o", "idle m", *run_pre],
             ["loaded-with m j", "!idle m", *run_eff], when=when,
             cost=1 if k["costs"] else None)
    b.action(f"unload-{M}", f"j:{J} m:{M}", f"{J} {{j}} is taken out of {M} {{m}}",
             ["loaded-with m j"], ["finished j", "idle m", "!loaded-with m j"],
             cost=1 if k["costs"] else None)
    if k["conditional"]:
        b.action(lex["calibrate"], f"m:{M} o:{Mo}", f"{M} {{m}} is calibrated for {Mo} {{o}}",
                 ["set-to m o"], ["calibrated m"], cost=1 if k["costs"] else None)
    return b.plan(costs=k["costs"])


def problem(rng: random.Random, k: Knobs, lex: Lexicon, name: str, size: str) -> ProblemSpec:
    d = ProblemDraft(rng)
    level = SIZES[size]
    machines = d.objs(lex["machine"], lex["machines"], 1 if level == 0 else k["machines"])
    modes = d.objs(lex["mode"], lex["modes"], 2 + level)
    jobs = d.objs(lex["job"], lex["jobs"], 1 + 2 * level)
    for machine in machines:
        offered = modes if level == 0 else rng.sample(modes, rng.randint(2, len(modes)))
        for mode in offered:
            d.fact("offers", machine, mode)
        d.fact("set-to", machine, offered[0])
        d.fact("idle", machine)
    offered_any = sorted({f.args[1] for f in d.init if f.predicate == "offers"})
    for job in jobs:
        mode = modes[1] if level == 0 else rng.choice(offered_any)
        d.fact("calls-for", job, mode)
        if not k["negative"]:
            d.fact("waiting", job)
        if k["conditional"] and (level == 0 or rng.random() < 0.5):
            d.want(lex["certified"], job)
        else:
            d.want("finished", job)
    return d.done(name, size)


FAMILY = Family("machines", "scheduling", "jobs run on machines set to the right mode (pending "
                "as a flag or negation, calibration certifying by a conditional effect, costs)",
                LEXICONS, knobs, build, problem)
