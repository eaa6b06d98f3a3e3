"""Scoring speed: the 101 released gold domains against perturbed twins.

Prints the total time, the per-domain median and the ratio to bare tarski parsing of the same
predicted texts, all measured in this run (these machines are noisy: compare ratios, not
seconds). Target: ratio <= 1.3 with the gold side parsed once and cached.

    python bench/score_bench.py [--mode paper|canonical] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

from tarski.io import PDDLReader

from text2world import score
from text2world.pddl import perturb
from text2world.pddl.model import strip_comments_released
from text2world.scoring.metrics import canonical_gold_view, paper_gold_view

OFFICIAL = Path(__file__).resolve().parent.parent.parent / "shared" / "text2world-official" / "test.json"
PERTURBATIONS = {
    "renamed": perturb.rename_variables,
    "dropped": perturb.drop_action,
    "broken": perturb.break_parenthesis,
}


def bare_parse(text: str) -> None:
    try:
        PDDLReader(raise_on_error=True).parse_domain_string(text)
    except Exception:  # noqa: BLE001 - a broken twin is expected to fail
        pass


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mode", default="paper", choices=["paper", "canonical"])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--data", type=Path, default=OFFICIAL)
    args = parser.parse_args()
    records = json.loads(args.data.read_text(encoding="utf-8"))
    pairs = []
    for index, record in enumerate(records):
        gold = record["pddl_domain"]
        clean = strip_comments_released(gold)
        for name, perturbation in PERTURBATIONS.items():
            pairs.append((str(record["id"]), name, gold, perturbation(clean, index)))

    # Parse every gold once (the cache a scoring service keeps), then time the scoring.
    warm = paper_gold_view if args.mode == "paper" else canonical_gold_view
    for _, _, gold, _ in pairs:
        warm(gold)

    best_score, best_parse, per_domain = float("inf"), float("inf"), {}
    for _ in range(args.repeat):
        # Interleave the two measurements so both see the same machine load.
        start = time.perf_counter()
        for _, _, _, predicted in pairs:
            bare_parse(predicted)
        best_parse = min(best_parse, time.perf_counter() - start)
        timings: dict[str, float] = {}
        start = time.perf_counter()
        for record_id, _, gold, predicted in pairs:
            t0 = time.perf_counter()
            score(gold, predicted, mode=args.mode)
            timings[record_id] = timings.get(record_id, 0.0) + time.perf_counter() - t0
        elapsed = time.perf_counter() - start
        if elapsed < best_score:
            best_score, per_domain = elapsed, timings
    print(f"mode                  {args.mode}")
    print(f"pairs scored          {len(pairs)} ({len(records)} gold x {len(PERTURBATIONS)} twins)")
    print(f"total scoring time    {best_score:.3f} s (best of {args.repeat})")
    print(f"per-domain median     {statistics.median(per_domain.values()) * 1000:.1f} ms "
          f"({len(PERTURBATIONS)} twins)")
    print(f"bare tarski parsing   {best_parse:.3f} s")
    print(f"ratio score / parse   {best_score / best_parse:.2f}  (target <= 1.3)")


if __name__ == "__main__":
    main()
