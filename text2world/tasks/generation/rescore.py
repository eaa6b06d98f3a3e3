"""Re-scoring a finished generation run (``t2w score-run``): every round scored again with
the run's own gold domains, no model call; and the items of a run with those scores."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from text2world.engine.run_reader import open_run
from text2world.engine.run_store import RunError, RunSummary, ScoresRecord, utc_now
from text2world.scoring.score_base import MODES
from text2world.store.datasets import BUILTIN, DatasetError, load_dataset
from text2world.tasks.generation.records import GenerationItem, config_ec, generation_items
from text2world.tasks.generation.scoring import analyze_round, compact_score


def rescore_run(path: Path, modes: tuple[str, ...] = MODES,
                dataset: str | None = None) -> RunSummary:
    """Score every round of a finished run again (no model call) and write ``scores.jsonl``.

    The gold domains come from the run's dataset; its content hash must match the run's.
    """
    run = open_run(path)
    if run.kind != "generation":
        raise RunError(f"{path} is a {run.kind} run: t2w score-run re-scores t2w eval runs")
    name = dataset or run.config.get("dataset", BUILTIN)
    source = run.config.get("dataset_source") or ""
    try:
        data = load_dataset(name)
    except DatasetError:
        if source and Path(source).exists():
            data = load_dataset(source)
        else:
            raise
    if data.content_hash != run.config.get("dataset_hash"):
        raise RunError(f"dataset {data.name!r} changed since the run (hash "
                       f"{data.content_hash} != {run.config.get('dataset_hash')}); the gold "
                       "domains would not be the ones the run was scored against")
    ec = config_ec(run.config)
    semantic = "semantic" in modes
    modes = tuple(m for m in modes if m != "semantic")
    lines: list[ScoresRecord] = []
    rescored_items: list[GenerationItem] = []
    for item in generation_items(run.items()):
        try:
            record = data.get(str(item["item"]))
        except KeyError:
            continue
        gold = record.domain
        problems = tuple((p.name, p.pddl) for p in record.problems) if semantic else ()
        round_scores = []
        semantic_rounds = []
        for rnd in item.get("rounds", []):
            extraction_error = None if rnd.get("extracted", True) else "no PDDL"
            analysis = analyze_round(gold, rnd.get("domain") or "", extraction_error, modes,
                                     problems, rnd.get("response"))
            round_scores.append(analysis["scores"])
            semantic_rounds.append({"semantic": analysis.get("semantic")})
        ec_scores: dict[str, Any] = {mode: [compact_score(round_scores[min(i, len(round_scores) - 1)][mode])
                            for i in range(ec + 1)] for mode in modes} if round_scores else {}
        if problems:
            from text2world.scoring.semantic_record import ec_semantic
            ec_scores["semantic"] = ec_semantic(semantic_rounds, ec)
        lines.append({"item": item["item"], "ec": ec_scores, "rounds": round_scores,
                      **({"semantic": [r["semantic"] for r in semantic_rounds]}
                         if problems else {})})
        rescored_items.append({**item, "ec": {**item.get("ec", {}), **ec_scores}})
    run.write_scores(lines)
    # The summary every run gets (the engine's counts, epochs and their spread), on the new scores.
    from text2world.tasks.registry import summarize_run

    summary = summarize_run(run, rescored_items)
    summary["rescored"] = {"modes": list(modes) + (["semantic"] if semantic else []),
                           "at": utc_now()}
    run.write_summary(summary)
    return summary
