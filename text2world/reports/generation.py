"""Reports over finished runs: the paper's Table 1, per-round curves (Figure 6), abstract vs
concrete (Figure 7), syntax-error categories per round (Figure 5 left), a per-domain table and
a one-way ANOVA over correction attempts (section 5.1).

Everything is computed from the runs' logs; nothing calls a model. Rounds are labelled as in the
paper: EC_0 (no correction) .. EC_k (after up to k corrections). Runs compared side by side are
compared on the items they all finished; the report says when that drops items.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from text2world.engine.run_reader import open_run
from text2world.engine.run_store import (
    ERRORS_FILE,
    Run,
    RunConfig,
    RunError,
    run_epochs,
    run_label,
    runs_dir,
)
from text2world.engine.summary import items_phrase
from text2world.errors import Text2WorldError
from text2world.files import OutputFileError, atomic_write_text, check_output_folder, read_input_text
from text2world.pddl.validation import CATEGORIES
from text2world.reports.generation_figures import (
    plot_abstract_concrete,
    plot_distributions,
    plot_errors,
    plot_heatmap,
    plot_rounds,
)
from text2world.reports.rendering import LABELS, count_of, csv_text, md_table, round_label
from text2world.scoring.score_base import MODES, mode_metrics
from text2world.stats import format_interval
from text2world.tasks.generation.feedback import config_protocol
from text2world.tasks.generation.records import GenerationItem, config_ec, generation_items
from text2world.tasks.generation.summary import NO_PDDL, error_categories, item_cell, summarize

__all__ = ["NO_PDDL", "Report", "ReportError", "build_report", "round_label"]


class ReportError(Text2WorldError, ValueError):
    """Runs that cannot be reported (missing, unreadable, nothing finished)."""


@dataclass
class Report:
    data: dict
    markdown: str
    out_dir: Path
    files: list[Path]
    warnings: list[str]  # also in data["warnings"] and the markdown


@dataclass
class LoadedRun:
    run: Run
    items: Sequence[GenerationItem]
    label: str

    @property
    def config(self) -> RunConfig:
        return self.run.config

    @property
    def ec(self) -> int:
        return config_ec(self.config)


def retry_advice(config: RunConfig) -> str:
    """How to get a run's missing items: an imported Inspect run is retried in Inspect (its
    log re-imported), any other by resuming it."""
    imported = config.get("imported_from") or {}
    if imported.get("inspect_log"):
        return (f"retry them in Inspect (inspect eval-retry {imported['inspect_log']}) and import "
                "the new log with t2w import-inspect; each sample's error is in the run's "
                f"{ERRORS_FILE}")
    return "resume the run to retry them: t2w eval --resume RUN"


def protocol_label(row: dict) -> str:
    """A report row's protocol as titles show it: oracle feedback and tool calls said."""
    return (row["protocol"] + (", oracle feedback" if row.get("oracle_feedback") else "")
            + (f", {row['tool_calls']} tool calls" if row.get("tool_calls") else ""))


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def load_runs(paths: list[Path]) -> list[LoadedRun]:
    if not paths:
        raise ReportError("no run given: t2w report RUN [RUN ...]")
    loaded = []
    for path in paths:
        try:
            run = open_run(path)
            items = generation_items(run.scored_items())
        except RunError as err:
            raise ReportError(str(err)) from None
        if not items:
            why = (f"every sample of its Inspect log failed: {retry_advice(run.config)}"
                   if run.config.get("imported_from") else "run t2w eval first, or resume it")
            raise ReportError(f"{path}: no finished item yet ({why})")
        loaded.append(LoadedRun(run, items, ""))
    # Labels: the model, plus whatever else differs between the runs compared.
    keys = ("description", "prompt", "dataset", "ec", "temperature", "protocol")

    def value(run: Run, key: str) -> str:
        return config_protocol(run.config) if key == "protocol" else str(run.config.get(key))

    varying = [k for k in keys if len({value(r.run, k) for r in loaded}) > 1]
    for r in loaded:
        extra = ", ".join(value(r.run, k) if k != "ec" else f"k={r.config.get(k)}"
                          for k in varying)
        r.label = f"{r.config.get('model')}" + (f" ({extra})" if extra else "")
    seen: Counter = Counter(r.label for r in loaded)
    for r in loaded:
        if seen[r.label] > 1:
            r.label = f"{r.label} [{run_label(r.config, r.run.run_id)}]"
    return loaded


def _common_items(loaded_runs: list[LoadedRun], all_items: bool) -> tuple[dict, list[str]]:
    """Restrict compared runs to the items they all finished (unless ``all_items``).

    Means over different item sets are not comparable (101 abstract items against 20
    concrete ones): the warning says how many items each run loses, or that they were kept.
    """
    sets = {r.label: {str(item["item"]) for item in r.items} for r in loaded_runs}
    common = set.intersection(*sets.values())
    info = {"runs": {label: len(ids) for label, ids in sets.items()}, "common": len(common),
            "restricted": False}
    if len(loaded_runs) < 2 or all(ids == common for ids in sets.values()):
        return info, []
    counts = ", ".join(f"{label}: {len(ids)}" for label, ids in sets.items())
    if not common:
        return info, [f"the runs share no item ({counts} items); each is reported on its own "
                      "items, so their scores are not comparable"]
    if all_items:
        return info, [f"the runs cover different items ({counts} items; {len(common)} in "
                      "all); each is reported on all its items (--all-items), so their scores "
                      "are not comparable"]
    for r in loaded_runs:
        r.items = [item for item in r.items if str(item["item"]) in common]
    info["restricted"] = True
    left_out = len(set.union(*sets.values()) - common)
    return info, [f"the runs cover different items ({counts} items); every table compares them "
                  f"on the {len(common)} items they all finished, leaving out {left_out} "
                  "(--all-items reports each run on all its items)"]


def _round_means(loaded: LoadedRun, mode: str) -> list[dict]:
    return summarize(loaded.config, loaded.items, loaded.run.open_errors())["metrics"][mode]


def _values(loaded: LoadedRun, mode: str, round_index: int, metric: str) -> list[float]:
    values = []
    for item in loaded.items:
        scores = (item.get("ec") or {}).get(mode) or []
        if len(scores) > round_index and scores[round_index] is not None:
            value = scores[round_index].get(metric)
            if value is not None:
                values.append(float(value))
    return values


def _repeated_measures(loaded: LoadedRun, mode: str) -> dict:
    """Each metric across EC_0 .. EC_k as repeated measures of the same items (items are
    subjects): a one-way ANOVA over rounds as independent groups would count the spread
    between domains as noise, while the rounds of one item are strongly correlated."""
    from text2world.stats import repeated_measures
    from text2world.tasks.generation.intervals import generation_values

    # each item once: its epochs are averaged (``generation_values``), never extra subjects
    ids = sorted({str(item["item"]) for item in loaded.items})
    result = {}
    for metric in mode_metrics(mode):
        per_round = [generation_values(loaded.items, mode, r, metric)
                     for r in range(loaded.ec + 1)]
        result[metric] = repeated_measures([[values.get(i) for i in ids]
                                            for values in per_round])
    return result


def _epoch_spreads(loaded_runs: list[LoadedRun]) -> dict[str, dict]:
    """Label -> the headline values per epoch and their spread, for each run of several
    epochs (as its summary has them, on the scores the report reads)."""
    from text2world.engine.summary import epoch_spread
    from text2world.tasks.registry import task_for_kind

    spreads = {}
    for loaded in loaded_runs:
        if run_epochs(loaded.config) < 2:
            continue
        # the kind's task: its headline is a function of the records (an imported run too)
        found = epoch_spread(task_for_kind(loaded.run.kind), loaded.config, loaded.items)
        if found:
            spreads[loaded.label] = dict(found)
    return spreads


def _epoch_markdown(spreads: dict[str, dict]) -> str:
    lines = []
    for label, found in spreads.items():
        per_epoch, spread = found["per_epoch"], found["spread"]
        header = ["Value"] + [f"Epoch {row['epoch']}" for row in per_epoch] + \
            ["Mean", "Std", "Min", "Max"]
        rows = [[key] + [_pct(row.get(key)) for row in per_epoch]
                + [_pct(values[name]) for name in ("mean", "std", "min", "max")]
                for key, values in spread.items()]
        lines += [f"## Per epoch: {label} (%, {len(per_epoch)} epochs)", "",
                  md_table(header, rows), ""]
    return "\n".join(lines)


def error_category_rows(loaded: LoadedRun) -> list[dict]:
    """Per round: how many items were invalid, by error category (the task's count)."""
    return error_categories(loaded.items, loaded.ec)


def per_domain_rows(loaded_runs: list[LoadedRun], mode: str) -> list[dict]:
    rows: dict[str, dict] = {}
    for loaded in loaded_runs:
        for item in loaded.items:
            row = rows.setdefault(str(item["item"]), {"item": str(item["item"])})
            row[loaded.label] = item_cell(item, mode)
    return [rows[k] for k in sorted(rows)]


def _abstract_vs_concrete(loaded_runs: list[LoadedRun], mode: str) -> list[dict]:
    """Pairs of runs that differ only in the description kind."""
    def key(r: LoadedRun):
        c = r.config
        return (c.get("model"), c.get("dataset"), c.get("prompt"), c.get("ec"))

    groups: dict[tuple, dict[Any, LoadedRun]] = {}  # by description (None when unset)
    for loaded in loaded_runs:
        groups.setdefault(key(loaded), {})[loaded.config.get("description")] = loaded
    pairs = []
    for group_key, runs in groups.items():
        if "abstract" in runs and "concrete" in runs:
            entry = {"model": group_key[0], "ec": group_key[3]}
            for kind in ("abstract", "concrete"):
                rounds = _round_means(runs[kind], mode)
                entry[kind] = {"items": len(runs[kind].items),
                               "ec0": {m: rounds[0][m] for m in mode_metrics(mode)},
                               "eck": {m: rounds[-1][m] for m in mode_metrics(mode)}}
            pairs.append(entry)
    return pairs


# --------------------------------------------------------------------------------------------
# Plots


def _check_out_dir(out_dir: Path, mode: str) -> None:
    """Refuse to replace a report of the other mode (a user would lose it without noticing)."""
    previous = out_dir / "report.json"
    if not previous.is_file():
        return
    try:
        old_mode = json.loads(read_input_text(previous, "report")).get("mode")
    except (OSError, ValueError, AttributeError):
        old_mode = None
    if old_mode in MODES and old_mode != mode:
        raise ReportError(f"{out_dir} holds the {old_mode} report; write the {mode} report "
                          "elsewhere (--out) or remove that folder first")


def build_report(paths: list[Path], out_dir: Path | None = None, mode: str = "paper",
                 plots: bool = True, all_items: bool = False) -> Report:
    """Compute and write the report of ``paths`` in one scoring mode.

    ``out_dir`` defaults to RUN/report/<mode> for one run, <runs>/report-<hash>/<mode> for
    several: one folder per mode, so that a canonical report never replaces the paper one
    (an explicit ``out_dir`` holding the other mode's report is refused). Runs covering
    different items are compared on their common items unless ``all_items``;
    ``Report.warnings`` says so.
    """
    if mode not in MODES:
        raise ReportError(f"unknown mode {mode!r}; choose one of: {', '.join(MODES)}")
    loaded_runs = load_runs([Path(p) for p in paths])
    item_sets, report_warnings = _common_items(loaded_runs, all_items)
    if out_dir is None:
        if len(loaded_runs) == 1:
            out_dir = loaded_runs[0].run.path / "report" / mode
        else:
            digest = hashlib.sha256("\n".join(sorted(r.run.run_id for r in loaded_runs))
                                    .encode()).hexdigest()[:10]
            out_dir = runs_dir() / f"report-{digest}" / mode
    out_dir = Path(out_dir)
    try:
        check_output_folder(out_dir, "report folder")  # not a file, a device or a FIFO
    except OutputFileError as err:
        raise ReportError(str(err)) from None
    _check_out_dir(out_dir, mode)

    metrics = mode_metrics(mode)
    curves = {r.label: _round_means(r, mode) for r in loaded_runs}
    table_rows = []
    for loaded in loaded_runs:
        rows = curves[loaded.label]
        table_rows.append({
            "run": loaded.label, "run_id": loaded.run.run_id, "model": loaded.config.get("model"),
            "reference_model": bool(loaded.config.get("reference_model")),
            "run_label": run_label(loaded.config, loaded.run.run_id),
            "items": len({str(item["item"]) for item in loaded.items}),
            "epochs": run_epochs(loaded.config), "ec": loaded.ec,
            "protocol": config_protocol(loaded.config),
            "oracle_feedback": bool(loaded.config.get("oracle_feedback")),
            "tool_calls": sum(int(item.get("tool_calls") or 0) for item in loaded.items),
            "infrastructure_errors": len(loaded.run.open_errors()),
            "retry": retry_advice(loaded.config),
            **{f"{m}_ec0": rows[0][m] for m in metrics},
            **{f"{m}_eck": rows[-1][m] for m in metrics},
        })
    categories = {r.label: error_category_rows(r) for r in loaded_runs}
    anova = {r.label: _repeated_measures(r, mode) for r in loaded_runs}
    from text2world.stats import method_note
    from text2world.tasks.generation.intervals import generation_intervals
    intervals = {r.label: generation_intervals(r.items, mode, metrics, r.ec + 1)
                 for r in loaded_runs}
    per_domain = per_domain_rows(loaded_runs, mode)
    pairs = _abstract_vs_concrete(loaded_runs, mode)

    files: list[Path] = []

    def write(name: str, text: str) -> None:
        atomic_write_text(out_dir / name, text)
        files.append(out_dir / name)

    # Table 1
    header = ["Model", "Run", "Items"] + [f"{LABELS[m]} EC_0" for m in metrics] + \
        [f"{LABELS[m]} EC_k" for m in metrics]
    md_rows = [[row["run"] + (" (reference)" if row["reference_model"] else "")
                + ("" if row["protocol"] == "syntax" else f" [{protocol_label(row)}]"),
                row["run_label"], items_phrase(row["items"], row["epochs"])]
               + [format_interval(intervals[row["run"]][0][m]) for m in metrics]
               + [format_interval(intervals[row["run"]][-1][m]) for m in metrics]
               for row in table_rows]
    ks = sorted({r.ec for r in loaded_runs})
    k_text = f"k = {ks[0]}" if len(ks) == 1 else "k = each run's --ec"
    table1_md = (f"## Table 1 ({mode} mode, %, EC_0 = no correction, EC_k = after up to "
                 f"{k_text} corrections; mean [95% interval])\n\n"
                 + md_table(header, md_rows) + f"\n\n{method_note()}.\n")
    write("table1.md", table1_md)
    write("table1.csv", csv_text([["run", "run_id", "label", "items", "epochs", "ec"]
                              + [f"{m}_ec0" for m in metrics] + [f"{m}_eck" for m in metrics]]
                             + [[row["run"], row["run_id"], row["run_label"], row["items"],
                                 row["epochs"], row["ec"]]
                                + [row[f"{m}_ec0"] for m in metrics]
                                + [row[f"{m}_eck"] for m in metrics] for row in table_rows]))

    # Per round (Figure 6)
    round_lines = ["## Metrics per correction round (Figure 6)", ""]
    round_csv = [["run", "round", "items"] + list(metrics)
                 + [f"{m}_{end}" for m in metrics for end in ("low", "high")]]
    for loaded in loaded_runs:
        round_lines.append(f"**{loaded.label}**\n")
        counted = "Items" if run_epochs(loaded.config) == 1 else "Samples"  # item x epoch
        round_lines.append(md_table(["Round", counted] + [LABELS[m] for m in metrics],
                                     [[round_label(row["round"]), row["items"]]
                                      + [format_interval(ci[m]) for m in metrics]
                                      for row, ci in zip(curves[loaded.label],
                                                         intervals[loaded.label])]))
        round_lines.append("")
        round_csv += [[loaded.label, row["round"], row["items"]] + [row[m] for m in metrics]
                      + [ci[m][end] for m in metrics for end in ("low", "high")]
                      for row, ci in zip(curves[loaded.label], intervals[loaded.label])]
    write("per_round.csv", csv_text(round_csv))

    # Error categories (Figure 5 left)
    names = list(CATEGORIES) + [NO_PDDL]
    error_lines = ["## Syntax error categories per round (Figure 5, left)", ""]
    error_csv = [["run", "round", "invalid"] + names]
    for loaded in loaded_runs:
        rows = categories[loaded.label]
        used = [n for n in names if any(row["categories"].get(n) for row in rows)]
        error_lines.append(f"**{loaded.label}**\n")
        if used:
            error_lines.append(md_table(["Round", "Invalid"] + used,
                                         [[round_label(row["round"]), row["invalid"]]
                                          + [row["categories"].get(n, 0) for n in used]
                                          for row in rows]))
        else:
            error_lines.append("no syntax errors")
        error_lines.append("")
        error_csv += [[loaded.label, row["round"], row["invalid"]]
                      + [row["categories"].get(n, 0) for n in names] for row in rows]
    write("errors_per_round.csv", csv_text(error_csv))

    # Rounds as repeated measures (replaces the one-way ANOVA: same items in every round)
    anova_lines = [("## Change over correction rounds (repeated measures: the same items in "
                    "every round)"), "",
                   ("F: one-way repeated-measures ANOVA over EC_0 .. EC_k, items as subjects "
                    "(assumes sphericity). EC_0 -> EC_k: paired mean difference with its 95% "
                    "interval and a sign-flip permutation p-value (no such assumption)."), ""]
    anova_csv: list[list[Any]] = [["run", "metric", "items", "F", "df_rounds", "df_error", "p", "diff_first_last",
                  "diff_low", "diff_high", "p_first_last", "note"]]
    anova_rows = []
    for loaded in loaded_runs:
        for metric in metrics:
            entry = anova[loaded.label][metric]
            paired = entry.get("first_to_last") or {}
            diff = paired.get("difference")
            df = entry.get("df") or [None, None]
            anova_rows.append([loaded.label, LABELS[metric], entry.get("items", 0),
                               "-" if entry["F"] is None else f"{entry['F']:.3f}",
                               "-" if entry["p"] is None else f"{entry['p']:.4g}",
                               format_interval(diff),
                               "-" if paired.get("p_value") is None
                               else f"{paired['p_value']:.4g}", entry.get("note", "")])
            anova_csv.append([loaded.label, metric, entry.get("items", 0), entry["F"], *df,
                              entry["p"], (diff or {}).get("mean"), (diff or {}).get("low"),
                              (diff or {}).get("high"), paired.get("p_value"),
                              entry.get("note", "")])
    anova_lines.append(md_table(["Run", "Metric", "Items", "F", "p", "EC_0 -> EC_k (points)",
                                  "p (paired)", "note"], anova_rows))
    write("rounds_repeated_measures.csv", csv_text(anova_csv))

    # Abstract vs concrete (Figure 7)
    ac_lines: list[str] = []
    if pairs:
        ac_lines = ["## Abstract vs concrete descriptions (Figure 7, EC_k)", ""]
        ac_rows = []
        ac_csv = [["model", "description", "round", "items"] + list(metrics)]
        for pair in pairs:
            for kind in ("abstract", "concrete"):
                ac_rows.append([pair["model"], kind, pair[kind]["items"]]
                               + [_pct(pair[kind]["eck"][m]) for m in metrics])
                for rnd, index in (("ec0", 0), ("eck", pair["ec"])):
                    ac_csv.append([pair["model"], kind, index, pair[kind]["items"]]
                                  + [pair[kind][rnd][m] for m in metrics])
        ac_lines.append(md_table(["Model", "Description", "Items"]
                                  + [LABELS[m] for m in metrics], ac_rows))
        write("abstract_vs_concrete.csv", csv_text(ac_csv))

    # Per domain
    labels = [r.label for r in loaded_runs]
    domain_header = ["Domain"] + [f"{label}: {col}" for label in labels
                                  for col in ("Exec EC_0", "Exec EC_k", "valid at round",
                                              "F1 mean EC_k")]
    domain_rows = []
    domain_csv = [["item"] + [f"{label}:{col}" for label in labels
                              for col in ("exec_ec0", "exec_eck", "valid_round", "rounds",
                                          "similarity_eck", "f1_mean_eck", "category_ec0")]]
    for row in per_domain:
        md = [row["item"]]
        flat = [row["item"]]
        for label in labels:
            cell = row.get(label)
            if cell is None:
                md += ["-"] * 4
                flat += [None] * 7
                continue
            md += ["yes" if cell["exec_ec0"] else "no", "yes" if cell["exec_eck"] else "no",
                   "-" if cell["valid_round"] is None else round_label(cell["valid_round"]),
                   _pct(cell["f1_mean_eck"])]
            flat += [cell["exec_ec0"], cell["exec_eck"], cell["valid_round"], cell["rounds"],
                     cell["similarity_eck"], cell["f1_mean_eck"], cell["category_ec0"]]
        domain_rows.append(md)
        domain_csv.append(flat)
    write("per_domain.csv", csv_text(domain_csv))
    domain_md = "## Per domain\n\n" + md_table(domain_header, domain_rows) + "\n"

    if plots:
        for suffix in ("png", "svg"):
            plot_rounds(loaded_runs, intervals, out_dir / f"per_round.{suffix}", mode)
            files.append(out_dir / f"per_round.{suffix}")
        for name, plot in (("per_domain_heatmap", plot_heatmap),
                           ("score_distribution", plot_distributions)):
            for suffix in ("png", "svg"):
                plot(loaded_runs, per_domain, out_dir / f"{name}.{suffix}", mode)
                files.append(out_dir / f"{name}.{suffix}")
        plot_errors(loaded_runs, categories, out_dir / "errors_per_round.png")
        files.append(out_dir / "errors_per_round.png")
        if pairs:
            plot_abstract_concrete(pairs, out_dir / "abstract_vs_concrete.png", mode)
            files.append(out_dir / "abstract_vs_concrete.png")

    notes = []
    if any(row["reference_model"] for row in table_rows):
        notes.append("Runs marked (reference) come from built-in reference models built from "
                     "the gold domains: they check the pipeline and are not LLM results.")
    notes += [f"{row['run']}: {count_of(row['infrastructure_errors'], 'item')} failed with infrastructure "
              f"errors and are not scored ({row['retry']})."
              for row in table_rows if row["infrastructure_errors"]]
    notes_md = "".join(f"\n> {note}\n" for note in notes)
    warnings_md = "".join(f"\n> **Warning:** {warning}\n" for warning in report_warnings)
    from text2world.reports.semantic import semantic_section
    semantic_md, semantic_data, semantic_files = semantic_section(
        [(r.label, r.items, r.ec) for r in loaded_runs], out_dir, plots)
    files += semantic_files
    from text2world.reports.scaling import scaling_section
    scaling_md, scaling_data = scaling_section(
        [(r.label, r.items, r.config) for r in loaded_runs], mode)
    epoch_data = _epoch_spreads(loaded_runs)
    summary_md = "\n".join([table1_md + warnings_md + notes_md, *round_lines,
                            *error_lines, *anova_lines, "", *ac_lines, semantic_md, scaling_md,
                            _epoch_markdown(epoch_data)])
    write("report.md", summary_md + "\n" + domain_md)
    data = {"mode": mode, "metrics": list(metrics), "runs": table_rows, "items": item_sets,
            "warnings": report_warnings, "notes": notes, "per_round": curves,
            "error_categories": categories, "rounds_test": anova, "intervals": intervals,
            "interval_method": method_note(), "abstract_vs_concrete": pairs,
            "per_domain": per_domain, "semantic": semantic_data, "scaling": scaling_data,
            "epochs": epoch_data,
            "protocols": {r.label: config_protocol(r.config) for r in loaded_runs},
            "files": [p.name for p in files] + ["report.json"]}
    write("report.json", json.dumps(data, indent=2, ensure_ascii=False))
    return Report(data, summary_md, out_dir, files, report_warnings)
