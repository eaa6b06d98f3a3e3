"""Stratified scores of generation runs (`t2w report --by size|feature`), with intervals."""

from __future__ import annotations

from pathlib import Path

from text2world.reports.generation import ReportError, load_runs
from text2world.reports.rendering import md_table
from text2world.scoring.score_base import METRICS
from text2world.stats import bootstrap_mean, format_interval, mean_or_none
from text2world.tasks.generation.records import GenerationItem

STRATA = ("size", "feature")


def _strata_of(meta: dict, by: str) -> list[str]:
    """The strata a record belongs to: its size band, or each of its features ("plain" if none)."""
    if by == "size":
        return [meta.get("size_band") or "unknown"]
    return list(meta.get("features") or []) or ["plain"]


def stratified_scores(paths: list[Path], by: str, mode: str = "paper") -> list[dict]:
    """Per run and stratum (the store manifest's ``size_band`` or ``features``): domains,
    executability at EC0 and at the last round, mean similarity and mean action/predicate F1 at
    the last round. A domain with several features counts in each of them."""
    from text2world.store.datasets import DatasetError, dataset_of_run

    if by not in STRATA:
        raise ReportError(f"unknown stratification {by!r}; choose one of: {', '.join(STRATA)}")
    rows = []
    for loaded in load_runs(paths):
        name = loaded.config.get("dataset") or "text2world"
        try:
            dataset = dataset_of_run(name, loaded.config.get("dataset_source"))
        except DatasetError as err:
            raise ReportError(f"{loaded.run.path}: cannot load its dataset: {err}") from None
        meta = {r.id: r.meta for r in dataset.records}
        if not any("size_band" in m for m in meta.values()):
            raise ReportError(f"dataset {name!r} has no size_band/features (only the built-in "
                              "store's manifest carries them)")
        groups: dict[str, list[GenerationItem]] = {}
        for item in loaded.items:
            for stratum in _strata_of(meta.get(str(item["item"]), {}), by):
                groups.setdefault(stratum, []).append(item)
        for stratum in sorted(groups):
            items = groups[stratum]
            first, last = [], []
            for item in items:
                scores = (item.get("ec") or {}).get(mode) or []
                first.append(scores[0] if scores else None)
                last.append(scores[-1] if scores else None)
            f1s = [mean_or_none([s[m] for m in METRICS[2:] if s.get(m) is not None])
                   for s in last if s]
            exec_ec0 = bootstrap_mean([float(bool(s and s["executable"])) for s in first])
            exec_eck = bootstrap_mean([float(bool(s and s["executable"])) for s in last])
            similarity = bootstrap_mean([s["similarity"] for s in last if s])
            f1_mean = bootstrap_mean([f for f in f1s if f is not None])
            rows.append({
                "run": loaded.label, by: stratum, "domains": len(items),
                "exec_ec0": exec_ec0.mean, "exec_eck": exec_eck.mean,
                "similarity_eck": similarity.mean, "f1_mean_eck": f1_mean.mean,
                "intervals": {"exec_ec0": exec_ec0.as_dict(), "exec_eck": exec_eck.as_dict(),
                              "similarity_eck": similarity.as_dict(),
                              "f1_mean_eck": f1_mean.as_dict()},
            })
    return rows


def stratified_markdown(rows: list[dict], by: str) -> str:
    header = ["run", by, "domains", "exec EC0 %", "exec ECk %", "similarity ECk %",
              "mean F1 ECk %"]
    keys = ("exec_ec0", "exec_eck", "similarity_eck", "f1_mean_eck")
    return md_table(header, [[r["run"], r[by], r["domains"],
                               *(format_interval(r["intervals"][k]) for k in keys)]
                              for r in rows]) + "\n\nmean [95% interval] per stratum\n"
