"""Scores by structural family: ``t2w report RUN --by family [--held-out A,B]`` and ``t2w
compare RUN_A RUN_B --by family``, the generalization report.

A generated world's family (transport, keys-doors, ...) is its manifest entry's ``family``,
recorded in each item of a run (``Record.family``); a run made before items carried it takes
it from its dataset; a domain without one (the store's) counts under ``NO_FAMILY``. Per family:
each metric's mean with its 95% bootstrap interval (``stats``: items resampled; world-model
items clustered by domain). With held-out families (those a model was not trained on): the
mean of the in-family items, of the held-out items, and the gap held-out - in-family with an
interval of the difference of two independent groups (``stats.independent_difference``), the
question of arXiv 2601.14456 (RL on PDDL: 82.9 % valid plans in-domain, 0 % on unseen
domains). Nothing calls a model.
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from text2world.engine.kinds import kind_spec
from text2world.engine.run_store import Run
from text2world.reports.compare import CompareError, RunColumns, run_columns
from text2world.reports.generation import ReportError
from text2world.reports.rendering import md_table
from text2world.stats import SEED, bootstrap_mean, format_interval, independent_difference, paired_difference
from text2world.store.datasets import BUILTIN, FAMILY, NO_FAMILY, DatasetError, dataset_of_run


def family_metrics(columns: RunColumns, mode: str) -> dict[str, dict[str, float]]:
    """The columns the family report shows: its kind's (``KindSpec.family_columns``: a
    generation run's executability, mean F1 and share equivalent at its last round; a
    world-model or probe run's headline)."""
    return kind_spec(columns.kind).family_columns(columns.columns, columns.headline,
                                                  columns.run.config, columns.items, mode)


def item_families(columns: RunColumns) -> tuple[dict[str, str], list[str]]:
    """Item -> family (recorded in the item, else its domain's in the run's dataset, else
    ``NO_FAMILY``), and notes on families that could not be found."""
    recorded = {str(item["item"]): str(item.get(FAMILY)) for item in columns.items
                if isinstance(item.get(FAMILY), str)}
    notes: list[str] = []
    by_domain: dict[str, str] = {}
    if len(recorded) < len(columns.domains):
        by_domain, note = _dataset_families(columns.run)
        notes += [note] if note else []
    return {item: recorded.get(item) or by_domain.get(domain) or NO_FAMILY
            for item, domain in columns.domains.items()}, notes


def _dataset_families(run: Run) -> tuple[dict[str, str], str]:
    """Domain -> family in the run's dataset (none for the built-in store), and a note when
    the dataset cannot be read."""
    name = str(run.config.get("dataset") or BUILTIN)
    if name == BUILTIN:
        return {}, ""
    try:
        dataset = dataset_of_run(name, run.config.get("dataset_source"))
    except DatasetError as err:
        return {}, (f"{run.run_id}: its items carry no family and its dataset cannot be read "
                    f"({err}): they count under {NO_FAMILY!r}")
    return {record.id: record.family for record in dataset.records if record.family}, ""


def _held_out_names(held_out: Sequence[str], known: set[str]) -> list[str]:
    names = list(dict.fromkeys(h.strip() for h in held_out if h.strip()))
    unknown = [h for h in names if h not in known]
    if unknown:
        raise ReportError(f"no item of family {', '.join(map(repr, unknown))} in the run; its "
                          f"families: {', '.join(sorted(known))}")
    if names and set(names) == known:
        raise ReportError("every family of the run is held out: nothing is left in-family "
                          "to compare with")
    return names


def family_report(path: Path, mode: str = "paper", held_out: Sequence[str] = (),
                  seed: int = SEED) -> dict:
    """Per family, each metric's mean [95% interval]; with ``held_out``, the in-family and
    held-out means and their gap. ``ReportError`` for a run that cannot be reported or an
    unknown family."""
    try:
        columns = run_columns(path, mode)
    except CompareError as err:
        raise ReportError(str(err)) from None
    metrics = family_metrics(columns, mode)
    families, notes = item_families(columns)
    names = _held_out_names(held_out, set(families.values()))
    rows = []
    for family in sorted(set(families.values())):
        members = [item for item, f in families.items() if f == family]
        row: dict = {"family": family, "items": len(members),
                     "domains": len({columns.domains[i] for i in members}),
                     "held_out": family in names, "metrics": {}}
        for metric, values in metrics.items():
            kept = [i for i in members if i in values]
            row["metrics"][metric] = bootstrap_mean(
                [values[i] for i in kept], _clusters(columns, kept), seed=seed).as_dict()
        rows.append(row)
    summary = []
    if names:
        for metric, values in metrics.items():
            inside = [i for i, f in families.items() if f not in names and i in values]
            outside = [i for i, f in families.items() if f in names and i in values]
            summary.append({
                "metric": metric,
                "in_family": bootstrap_mean([values[i] for i in inside],
                                            _clusters(columns, inside), seed=seed).as_dict(),
                "held_out": bootstrap_mean([values[i] for i in outside],
                                           _clusters(columns, outside), seed=seed).as_dict(),
                "gap": independent_difference(
                    [values[i] for i in inside], [values[i] for i in outside],
                    _clusters(columns, inside), _clusters(columns, outside),
                    seed=seed).as_dict()})
    return {"run_id": columns.run.run_id, "model": columns.run.config.get("model"),
            "kind": columns.kind, "task": columns.run.config.get("task"), "mode": mode,
            "dataset": columns.run.config.get("dataset"), "seed": seed,
            "clustered_by_domain": kind_spec(columns.kind).clustered_by_domain, "metrics": list(metrics),
            "families": rows, "held_out": names, "summary": summary, "notes": notes}


def _clusters(columns: RunColumns, items: list[str]) -> list[str] | None:
    """World-model items of one domain are resampled together; a generation item is a domain."""
    return [columns.domains[i] for i in items] if kind_spec(columns.kind).clustered_by_domain \
        else None


def compare_by_family(path_a: Path, path_b: Path, mode: str = "paper",
                      held_out: Sequence[str] = (), seed: int = SEED) -> dict:
    """Run B against run A per family (and held-out against in-family): on the items both
    finished, each side's mean [95% interval] and the paired difference B - A."""
    try:
        a, b = run_columns(path_a, mode), run_columns(path_b, mode)
    except CompareError as err:
        raise ReportError(str(err)) from None
    if (a.kind, a.run.config.get("task")) != (b.kind, b.run.config.get("task")):
        raise ReportError(f"cannot compare a {a.run.config.get('task') or a.kind} run with a "
                          f"{b.run.config.get('task') or b.kind} run")
    metrics_a, metrics_b = family_metrics(a, mode), family_metrics(b, mode)
    families_a, notes = item_families(a)
    families_b, notes_b = item_families(b)
    common = sorted(set(families_a) & set(families_b))
    if not common:
        raise ReportError(f"the runs share no item ({len(families_a)} and {len(families_b)} "
                          "items)")
    families = {item: families_a[item] if families_a[item] != NO_FAMILY else families_b[item]
                for item in common}
    names = _held_out_names(held_out, set(families.values()))
    groups = [(family, [i for i in common if families[i] == family])
              for family in sorted(set(families.values()))]
    if names:
        groups += [("in-family", [i for i in common if families[i] not in names]),
                   ("held-out", [i for i in common if families[i] in names])]
    rows = []
    for group, members in groups:
        row: dict = {"family": group, "items": len(members),
                     "held_out": group in names or group == "held-out", "metrics": {}}
        for metric in [m for m in metrics_a if m in metrics_b]:
            pairs = [i for i in members if i in metrics_a[metric] and i in metrics_b[metric]]
            clusters = _clusters(a, pairs)
            values_a = [metrics_a[metric][i] for i in pairs]
            values_b = [metrics_b[metric][i] for i in pairs]
            paired = paired_difference(values_a, values_b, clusters, seed=seed)
            row["metrics"][metric] = {
                "a": bootstrap_mean(values_a, clusters, seed=seed).as_dict(),
                "b": bootstrap_mean(values_b, clusters, seed=seed).as_dict(),
                "difference": paired.difference.as_dict(), "p_value": paired.p_value}
        rows.append(row)
    side = {"a": a, "b": b}
    return {**{key: {"run_id": s.run.run_id, "model": s.run.config.get("model"),
                     "items": len(s.domains)} for key, s in side.items()},
            "kind": a.kind, "task": a.run.config.get("task"), "mode": mode, "seed": seed,
            "common_items": len(common), "metrics": [m for m in metrics_a if m in metrics_b],
            "families": rows, "held_out": names, "notes": notes + notes_b}


def family_markdown(data: dict) -> str:
    """``family_report`` as markdown: the per-family table, then the held-out summary."""
    header = ["family", "items", *data["metrics"]]
    text = (f"# {data['model']} by family ({data['run_id']}, {data['kind']}"
            + (f" {data['task']}" if data.get("task") else "") + ")\n\n"
            + md_table(header, [[row["family"] + (" (held out)" if row["held_out"] else ""),
                                 row["items"], *(format_interval(row["metrics"][m])
                                                 for m in data["metrics"])]
                                for row in data["families"]]))
    if data["summary"]:
        text += "\n\n" + md_table(
            ["metric", "in-family", "held-out", "held-out - in-family"],
            [[row["metric"], format_interval(row["in_family"]), format_interval(row["held_out"]),
              format_interval(row["gap"])] for row in data["summary"]])
    return text + "\n\nmean [95% interval], %, seed " + str(data["seed"]) + "\n"


def compare_family_markdown(data: dict) -> str:
    """``compare_by_family`` as markdown: one table per metric, a row per family."""
    parts = [f"# {data['b']['model']} (B) vs {data['a']['model']} (A) by family"]
    for metric in data["metrics"]:
        parts.append(f"## {metric}\n\n" + md_table(
            ["family", "items", "A", "B", "B - A"],
            [[row["family"], row["items"], format_interval(row["metrics"][metric]["a"]),
              format_interval(row["metrics"][metric]["b"]),
              format_interval(row["metrics"][metric]["difference"])]
             for row in data["families"]]))
    return "\n\n".join(parts) + "\n\nmean [95% interval], %; B - A paired, seed " \
        + str(data["seed"]) + "\n"
