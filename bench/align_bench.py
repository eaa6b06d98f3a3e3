"""Alignment of vocabularies: how often it undoes a renaming, and what it costs.

Three sweeps, each printing its figures (CPU seconds; these machines are noisy):

* every store domain and every released gold, every type, predicate and action renamed to a
  meaningless name and the actions shuffled: share whose canonical scores are all 1.0 (the
  alignment found the renaming, or a symmetry of the domain that is just as right), CPU per pair;
* the same with spelling variants a model uses (pick-up/pickup, PICK_UP, plural, camelCase,
  word order): share where the mapping is exactly the inverse of the renaming;
* generated domains with 50 to 400 predicates and half as many actions, renamed opaquely: CPU
  seconds for ``align`` (the work is polynomial in the number of names; target well under 1 s
  at hundreds of predicates);
* semantic verdicts per faithful rewrite class (``text2world.scoring.rewrites.REWRITES``: opaque names,
  reversed parameters, swapped binary arguments with and without renaming, types as
  predicates and back, unused predicates, unused constants): the share scored ``equivalent`` with every metric
  1.0 over the store (its problems) and the released golds (``rewrites.reachable_problems``:
  they come without problems), target 100%, and the CPU of ``align`` per pair; then per
  behaviour-changing mutant class (dropped precondition literal, add, delete, swapped
  add/delete, dropped action) the share scored ``different`` or ``incomplete`` among the
  mutants that change behaviour on the problems (``mutants.behaviour_differs``). A gold
  whose own side cannot be simulated is no miss: it is listed apart with the ``not_simulated``
  verdict ``semantic_score`` gives it and the reason (187 does not parse as released; 238 uses
  object-valued functions).

    python bench/align_bench.py [--sizes 50 100 200 400] [--released-step N] [--no-semantic]
    python bench/align_bench.py --gold 34 238 blocksworld   # the semantic sweep on a few golds
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))  # the tests' helpers (repo_paths) and, below, test_alignment
sys.path.insert(0, str(ROOT / "tests" / "scoring"))

from test_alignment import opaque_renaming, renamed, variant_renaming  # noqa: E402

from text2world import score  # noqa: E402
from text2world.pddl.model import parse_domain, strip_comments  # noqa: E402
from text2world.scoring.alignment import align  # noqa: E402

OFFICIAL = ROOT.parent / "shared" / "text2world-official" / "test.json"
F1S = ("f1_types", "f1_predicates", "f1_parameters", "f1_preconditions", "f1_effects")


def generated(predicates: int, seed: int) -> str:
    """A typed domain with ``predicates`` predicates and half as many actions, each testing,
    adding and deleting a few of them."""
    rng = random.Random(seed)
    types = [f"t{i}" for i in range(max(2, predicates // 20))]
    signatures = [[rng.choice(types) for _ in range(rng.randint(0, 3))] for _ in range(predicates)]
    lines = ["(define (domain generated)", "  (:requirements :strips :typing)",
             "  (:types " + " ".join(types) + ")", "  (:predicates"]
    for i, signature in enumerate(signatures):
        lines.append(f"    (p{i} " + " ".join(f"?x{j} - {t}" for j, t in enumerate(signature)) + ")")
    lines.append("  )")
    for a in range(predicates // 2):
        parameters = [rng.choice(types) for _ in range(rng.randint(1, 4))]

        def literal() -> str:
            for _ in range(50):
                index = rng.randrange(predicates)
                wanted = signatures[index]
                args = []
                for t in wanted:
                    fits = [f"?v{k}" for k, pt in enumerate(parameters) if pt == t]
                    if not fits:
                        break
                    args.append(rng.choice(fits))
                else:
                    return f"(p{index} {' '.join(args)})".replace(" )", ")")
            return f"(p{rng.choice([i for i, s in enumerate(signatures) if not s] or [0])})"

        pre = [literal() for _ in range(rng.randint(1, 4))]
        add = [literal() for _ in range(rng.randint(1, 3))]
        delete = [literal() for _ in range(rng.randint(0, 2))]
        lines.append(f"  (:action a{a}\n    :parameters ("
                     + " ".join(f"?v{k} - {t}" for k, t in enumerate(parameters)) + ")\n"
                     f"    :precondition (and {' '.join(pre)})\n"
                     f"    :effect (and {' '.join(add)} "
                     + " ".join(f"(not {d})" for d in delete if d not in add) + "))")
    lines.append(")")
    return "\n".join(lines)


def sweep(texts: list[tuple[str, str]], variants: bool) -> tuple[int, int, list[float]]:
    good, total, seconds = 0, 0, []
    for index, (_, text) in enumerate(texts):
        text = strip_comments(text)
        renaming = variant_renaming(text, index) if variants else opaque_renaming(text, index)
        predicted = renamed(text, renaming, index)
        if predicted is None:
            continue
        start = time.process_time()
        result = score(text, predicted, mode="canonical")
        seconds.append(time.process_time() - start)
        total += 1
        perfect = all(getattr(result, k) == 1.0 for k in F1S) and result.similarity == 1.0
        if variants:
            inverse = {new.lower(): old for old, new in renaming.items()}
            perfect = perfect and all(inverse.get(p, p) == g for kind in ("types", "predicates",
                                                                          "actions")
                                      for p, g in result.alignment.mapping(kind).items())
        good += perfect
    return good, total, seconds


def semantic_sweep(name: str, golds: list[tuple[str, str, list]]) -> None:
    """Verdicts per rewrite class and per mutant class over ``(id, gold text, problems)``."""
    from collections import Counter

    from text2world.scoring.mutants import behaviour_differs, mutants
    from text2world.scoring.rewrites import REWRITES, drop_action
    from text2world.scoring.semantic import GoldNotSimulated, prepare_gold, semantic_score

    equivalent, applied, align_cpu = Counter(), Counter(), []
    caught, changing = Counter(), Counter()
    failures, not_simulated = [], []
    for gold_id, gold, problems in golds:
        try:
            cache = prepare_gold(gold, problems)
        except GoldNotSimulated:  # not a miss: the verdict the library gives, with its reason
            verdict = semantic_score(gold, gold, problems)
            not_simulated.append(f"{gold_id}: {verdict.verdict}: {verdict.reason}")
            continue
        parsed = [p.problem for p in cache.problems]
        for kind, rewrite in REWRITES.items():
            extra = {"problems": parsed} if kind == "predicates-as-types" else {}
            domain = rewrite(cache.domain, 0, **extra)
            if domain is None:
                continue
            start = time.process_time()
            align(cache.domain, domain)
            align_cpu.append(time.process_time() - start)
            result = semantic_score(gold, domain.to_pddl(), gold_cache=cache)
            applied[kind] += 1
            if result.verdict == "equivalent" and all(
                    v in (1.0, None) for v in result.metrics().values()):
                equivalent[kind] += 1
            else:
                failures.append(f"{gold_id} {kind}: {result.verdict} {result.reason}")
        found = mutants(cache.domain)
        sample = random.Random(0).sample(found, min(6, len(found)))
        dropped = drop_action(cache.domain, 0)
        for kind, domain in [(m.kind, m.domain) for m in sample if m.kind != "swap-parameters"] \
                + ([("drop-action", dropped)] if dropped is not None else []):
            if behaviour_differs(cache.domain, domain, parsed) is None:
                continue
            changing[kind] += 1
            verdict = semantic_score(gold, domain.to_pddl(), gold_cache=cache).verdict
            caught[kind] += verdict in ("different", "incomplete")
            if verdict not in ("different", "incomplete"):
                failures.append(f"{gold_id} mutant {kind}: {verdict}")
    for kind in REWRITES:
        if applied[kind]:
            print(f"{name:9} rewrite {kind:22} equivalent {equivalent[kind]}/{applied[kind]} = "
                  f"{equivalent[kind] / applied[kind]:.1%}")
    if align_cpu:
        print(f"{name:9} align CPU per pair: median {statistics.median(align_cpu) * 1000:.0f} ms, "
              f"max {max(align_cpu) * 1000:.0f} ms")
    for kind in sorted(changing):
        print(f"{name:9} mutant  {kind:22} different or incomplete {caught[kind]}/"
              f"{changing[kind]} = {caught[kind] / changing[kind]:.1%}")
    print(f"{name:9} golds not simulated (not counted above): {len(not_simulated)} of "
          f"{len(golds)}")
    for line in not_simulated:
        print(f"  {line}")
    for failure in failures[:20]:
        print(f"  miss: {failure}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="*", default=[50, 100, 200, 400])
    parser.add_argument("--released-step", type=int, default=1,
                        help="semantic sweep over every N-th released gold")
    parser.add_argument("--gold", nargs="+", default=None,
                        help="only the semantic sweep, over these store or released ids")
    parser.add_argument("--no-semantic", action="store_true")
    args = parser.parse_args()
    sets = [("store", [(p.stem, p.read_text()) for p in sorted((ROOT / "data" / "domains")
                                                               .glob("*.pddl"))])]
    if OFFICIAL.is_file():
        records = json.loads(OFFICIAL.read_text(encoding="utf-8"))
        sets.append(("released", [(str(r["id"]), r["pddl_domain"]) for r in records
                                  if str(r["id"]) != "187"]))
    for name, texts in sets if args.gold is None else ():
        for variants in (False, True):
            good, total, seconds = sweep(texts, variants)
            label = "variant names" if variants else "opaque names "
            print(f"{name:9} {label}  {good}/{total} = {good / total:.1%} "
                  f"{'exact inverse' if variants else 'all scores 1.0'}; canonical score per "
                  f"pair: median {statistics.median(seconds) * 1000:.0f} ms, "
                  f"max {max(seconds) * 1000:.0f} ms CPU")
    align(parse_domain(generated(10, 1)), parse_domain(generated(10, 2)))  # scipy's import
    if not args.no_semantic:
        from text2world.scoring.rewrites import reachable_problems
        from text2world.store.datasets import load_dataset, store_problems

        def wanted(gold_id: str) -> bool:
            return args.gold is None or gold_id in args.gold

        semantic_sweep("store", [(r.id, *store_problems(r.id)) for r in load_dataset()
                                 if r.problems and wanted(r.id)])
        if OFFICIAL.is_file():
            released = []
            for r in json.loads(OFFICIAL.read_text(encoding="utf-8"))[::args.released_step]:
                if not wanted(str(r["id"])):
                    continue
                gold = r["pddl_domain"]
                try:
                    problems = reachable_problems(parse_domain(gold))
                except Exception:  # noqa: BLE001 - 187 does not parse: the sweep says so
                    problems = []
                released.append((str(r["id"]), gold, problems))
            semantic_sweep("released", released)
    for size in args.sizes if args.gold is None else ():
        text = generated(size, seed=size)
        renaming = opaque_renaming(text, seed=size)
        predicted_text = renamed(text, renaming, size)
        gold, predicted = parse_domain(text), parse_domain(predicted_text)
        start = time.process_time()
        alignment = align(gold, predicted)
        seconds = time.process_time() - start
        inverse = {new: old for old, new in renaming.items()}
        right = sum(inverse.get(p, p) == g for p, g in alignment.predicates.items())
        result = score(text, predicted_text, mode="canonical")
        f1s = " ".join(f"{getattr(result, k):.3f}" for k in F1S)
        print(f"generated {size:4} predicates, {size // 2:4} actions: align {seconds:.3f} s CPU; "
              f"{right}/{size} predicates mapped to their own name (the rest: symmetric "
              f"twins); canonical F1s {f1s}")
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")


if __name__ == "__main__":
    main()
