"""Reports over world-model runs (``t2w report RUN ...`` dispatches here for them): accuracy vs
rho curves, hit@K curves, static vs dynamic bars, per-step accuracy along plans and per-domain
tables, as markdown, CSV, JSON and PNG. Computed from the runs' logs; nothing calls a model.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from text2world.engine.run_reader import open_run
from text2world.engine.run_store import Run, RunConfig, RunError, run_epochs, runs_dir
from text2world.engine.summary import epoch_spread
from text2world.errors import Text2WorldError
from text2world.files import atomic_write_text, check_output_folder
from text2world.reports.rendering import csv_text, md_table, pyplot
from text2world.stats import format_interval
from text2world.tasks.registry import task_for_kind
from text2world.tasks.wm.intervals import wm_grouped_intervals, wm_intervals
from text2world.tasks.wm.kind import WmKind
from text2world.tasks.wm.metrics import (
    COLUMNS,
    HEADLINE,
    PROPOSE_KS,
    aggregate,
    protocol_label,
    shown,
    summarize_items,
)
from text2world.tasks.wm.records import WmItem, wm_config, wm_items


class WmReportError(Text2WorldError, ValueError):
    """Runs that cannot be reported together (missing, not world-model runs, nothing done)."""


@dataclass
class WmReport:
    data: dict
    markdown: str
    out_dir: Path
    files: list[Path]


def is_wm_run(path: Path) -> bool:
    try:
        return open_run(path).kind == WmKind.name
    except RunError:
        return False


def _cell(row: dict, intervals: dict, column: str) -> str:
    """A mean with its 95% interval where one applies (ratios and counts stay plain)."""
    if column in intervals and column != "cost_ratio":
        return format_interval(intervals[column])
    return shown(column, row.get(column))


def _label(config: RunConfig) -> str:
    extra = f", {protocol_label(config)}"
    extra += f", {wm_config(config)['size']}" if wm_config(config).get("size") else ""
    extra += ", mystery" if config.get("mystery") else ""
    return f"{config.get('model')} ({config.get('rules')}{extra})"


def build_wm_report(paths: list[Path], out_dir: Path | None = None) -> WmReport:
    if not paths:
        raise WmReportError("no run given: t2w report RUN [RUN ...]")
    runs: list[tuple[Run, list[WmItem]]] = []
    for path in paths:
        try:
            run = open_run(path)
        except RunError as err:
            raise WmReportError(str(err)) from None
        if run.kind != WmKind.name:
            raise WmReportError(f"{path} is not a world-model run; report t2w eval runs and "
                                "t2w wm runs separately")
        items = [i for i in wm_items(run.items()) if i.get("metrics") is not None]
        if not items:
            raise WmReportError(f"{path}: no finished item to report")
        runs.append((run, items))
    if out_dir is None:
        if len(runs) == 1:
            out_dir = runs[0][0].path / "report" / "wm"
        else:
            digest = hashlib.sha256("|".join(sorted(str(r.path.resolve())
                                                    for r, _ in runs)).encode()).hexdigest()
            out_dir = runs_dir() / f"report-{digest[:10]}" / "wm"
    check_output_folder(out_dir, "report folder")
    files: list[Path] = []

    def write(name: str, text: str) -> None:
        atomic_write_text(out_dir / name, text)
        files.append(out_dir / name)

    data: dict = {"runs": [], "by_rho": {}, "per_domain": {}, "per_step": {}}
    sections = ["# World-model report", ""]
    for run, items in runs:
        config = run.config
        task = wm_config(config)["task"]
        name = run.path.name
        summary = summarize_items(task, items)
        data["runs"].append({"run": name, "task": task, "label": _label(config),
                             "model": config.get("model"), "rules": config.get("rules"),
                             "protocol": protocol_label(config), "size": config.get("size"),
                             "mystery": bool(config.get("mystery")),
                             "reference_model": config.get("reference_model", False),
                             "items": len(items), "all": summary["all"]["all"]})
        data["by_rho"][name] = summary["rho"]
        spread = epoch_spread(task_for_kind(run.kind), config, items) \
            if run_epochs(config) > 1 else {}
        if spread:  # --epochs: the headline values of each epoch and their spread
            data.setdefault("epochs", {})[name] = dict(spread)
        data["per_domain"][name] = summary["domain"]
        steps: dict[str, list[WmItem]] = {}
        for item in items:
            steps.setdefault(str(item["prefix"]), []).append(item)
        data["per_step"][name] = {k: aggregate(task, v) for k, v in
                                  sorted(steps.items(), key=lambda kv: int(kv[0]))}
        columns = COLUMNS[task]
        overall = summary["all"]["all"]
        header = ["rho", "items", "format errors"] + columns
        all_ci = wm_intervals(task, items)
        rho_ci = wm_grouped_intervals(task, items, lambda r: f"{r['rho']:g}")
        data.setdefault("intervals", {})[name] = {"all": all_ci, "rho": rho_ci}
        rows = [["all", overall["items"], overall["format_errors"],
                 *(_cell(overall, all_ci, c) for c in columns)]]
        rows += [[rho, row["items"], row["format_errors"],
                  *(_cell(row, rho_ci.get(rho, {}), c) for c in columns)]
                 for rho, row in summary["rho"].items()]
        rows.append(["macro (mean of domains)", len(summary["domain"]), "",
                     *(shown(c, summary["macro"].get(c)) for c in columns)])
        rows += [[f"baseline: {baseline}", row["items"], row["format_errors"],
                  *(shown(c, row.get(c)) for c in columns)]
                 for baseline, row in (overall.get("baselines") or {}).items()]
        data.setdefault("macro", {})[name] = summary["macro"]
        sections += [f"## {task}: {_label(config)}  ({name})", "",
                     "Percentages, mean [95% interval] (bootstrap, domains resampled"
                     + ("; cost/opt is a ratio" if "cost_ratio" in columns else "")
                     + "); \"-\": not measured (hit@K above the K asked). Baselines: "
                     "trivial strategies scored on the same items; a model's number means "
                     "something only above them." + (
                         " REFERENCE MODEL: checks the pipeline, not an LLM result."
                         if config.get("reference_model") else ""), "",
                     md_table(header, rows), ""]
        if task in ("verify", "verify-rollout"):
            data.setdefault("by_mutation", {})[name] = summary["mutation"]
            sections += [f"### Verify by how the plan was made: {name}", "", md_table(
                ["plan", "items", "accuracy", "step accuracy"],
                [[kind, row["items"], shown("accuracy", row.get("accuracy")),
                  shown("step_accuracy", row.get("step_accuracy"))]
                 for kind, row in summary["mutation"].items()]), ""]
        if task == "next-state":
            data.setdefault("by_origin", {})[name] = summary["origin"]
            sections += [f"### Next-state on and off the plan: {name}", "",
                         "off-plan: states a seeded random walk reached in the true simulator.",
                         "", md_table(["states", "items", "format errors"] + columns,
                                 [[origin, row["items"], row["format_errors"],
                                   *(shown(c, row.get(c)) for c in columns)]
                                  for origin, row in summary["origin"].items()]), ""]
            data.setdefault("by_transition", {})[name] = summary["transition"]
            sections += [f"### Next-state by transition (Wang et al. 2024): {name}", "",
                         "static: the action changes nothing; dynamic: it changes something "
                         "(legal actions only).", "",
                         md_table(["transition", "items", "exact accuracy", "copy-state"],
                                   [[kind, row["items"], shown("accuracy", row.get("accuracy")),
                                     shown("accuracy", (row.get("baselines") or {})
                                           .get("copy-state", {}).get("accuracy"))]
                                    for kind, row in summary["transition"].items()]), ""]
        domain_header = ["domain", "items"] + columns
        domain_rows = [[d, row["items"], *(shown(c, row.get(c)) for c in columns)]
                       for d, row in summary["domain"].items()]
        write(f"{name}.per_domain.csv", csv_text([domain_header] + domain_rows))
        sections += [f"### Per domain: {name}", "", md_table(domain_header, domain_rows), ""]
    if len(runs) > 1:
        sections += _side_by_side(runs, data)
    data["figures"] = _figures(runs, data, out_dir, files)
    markdown = "\n".join(sections + [f"![{f}]({f})" for f in data["figures"]]) + "\n"
    write("report.md", markdown)
    write("report.json", json.dumps(data, indent=2))
    return WmReport(data, markdown, out_dir, files)


def _side_by_side(runs, data: dict) -> list[str]:
    """One row per run, per task: original vs mystery worlds, easy vs hard, model vs model."""
    lines = ["## Side by side", "",
             "Each run's overall scores (mystery: names obfuscated; compare a run with its "
             "mystery twin to see how much the model relies on names it memorised).", ""]
    for task in dict.fromkeys(run.config["task"] for run, _ in runs):
        columns = COLUMNS[task]
        rows = []
        for run, _ in runs:
            if run.config["task"] != task:
                continue
            row = next(r["all"] for r in data["runs"] if r["run"] == run.path.name)
            rows.append([_label(run.config), "yes" if run.config.get("mystery") else "no",
                         row["items"], shown("format_error_rate", row.get("format_error_rate")),
                         *(shown(c, row.get(c)) for c in columns)])
        lines += [f"### {task}", "", md_table(["run", "mystery", "items", "format errors %"]
                                               + columns, rows), ""]
    return lines


def _figures(runs, data: dict, out_dir: Path, files: list[Path]) -> list[str]:
    plt = pyplot()
    names = []

    def save(figure, name: str) -> None:
        figure.tight_layout()
        figure.savefig(out_dir / name, dpi=110)
        plt.close(figure)
        files.append(out_dir / name)
        names.append(name)

    def headline_lines(table: str, number, marker: str, xlabel: str, title: str,
                       name: str) -> None:
        """Each run's headline score over the keys of ``data[table]`` (as numbers)."""
        figure, axis = plt.subplots(figsize=(7, 4))
        for run, _ in runs:
            task = run.config["task"]
            rows = data[table][run.path.name]
            keys = sorted(rows, key=number)
            axis.plot([number(key) for key in keys],
                      [rows[key].get(HEADLINE[task]) for key in keys], marker=marker,
                      label=f"{task} {HEADLINE[task]}: {_label(run.config)}")
        axis.set_xlabel(xlabel)
        axis.set_ylabel("score")
        axis.set_ylim(-0.02, 1.02)
        axis.set_title(title)
        axis.legend(fontsize=7)
        save(figure, name)

    headline_lines("by_rho", float, "o", "rho (share of the plan the model handles)",
                   "Accuracy vs rho", "accuracy_vs_rho.png")

    proposing = [(run, items) for run, items in runs if run.config["task"] == "propose"]
    if proposing:
        figure, axis = plt.subplots(figsize=(7, 4))
        for run, _ in proposing:
            for rho, row in sorted(data["by_rho"][run.path.name].items(),
                                   key=lambda kv: float(kv[0])):
                axis.plot(PROPOSE_KS, [row.get(f"hit@{k}") for k in PROPOSE_KS], marker="o",
                          label=f"{run.config['model']} rho {rho}")
        axis.set_xlabel("K")
        axis.set_xticks(PROPOSE_KS)
        axis.set_ylabel("hit@K")
        axis.set_ylim(-0.02, 1.02)
        axis.set_title("Action proposal: hit@K")
        axis.legend(fontsize=7)
        save(figure, "hit_at_k.png")

    predicting = [run for run, _ in runs if run.config["task"] == "next-state"]
    if predicting:
        figure, axis = plt.subplots(figsize=(7, 4))
        width = 0.8 / len(predicting)
        parts = ["state", "dynamic", "static"]
        for index, run in enumerate(predicting):
            row = next(r["all"] for r in data["runs"] if r["run"] == run.path.name)
            axis.bar([p + index * width for p in range(3)],
                     [row.get(f"{part}_f1") or 0.0 for part in parts], width,
                     label=_label(run.config))
        axis.set_xticks([p + width * (len(predicting) - 1) / 2 for p in range(3)])
        axis.set_xticklabels(["all facts", "changed (dynamic)", "unchanged (static)"])
        axis.set_ylabel("fact F1")
        axis.set_ylim(0, 1.05)
        axis.set_title("Next-state prediction: static vs dynamic facts")
        axis.legend(fontsize=7)
        save(figure, "static_vs_dynamic.png")

    headline_lines("per_step", int, ".",
                   "step along the plan (true steps before the model takes over)",
                   "Per-step accuracy along plans", "per_step.png")
    return names
