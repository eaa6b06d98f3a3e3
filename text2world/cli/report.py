"""``t2w report``: the report files (markdown, CSV, plots, JSON), tables sized to the terminal."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from text2world.cli.common import METRIC_HEADERS, Mode, console, fail, mode_option, print_json, warn

def _pct(value) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _run_title(row: dict) -> str:
    return row["run"] + (" (reference)" if row["reference_model"] else "")


def report_tables(data: dict) -> list[Table]:
    """The report's tables for the terminal, one small table per run and section; the wide
    markdown tables (and the per-domain table) stay in the files."""
    from text2world.reports.generation import NO_PDDL, round_label
    from text2world.pddl.validation import CATEGORIES

    mode, metrics = data["mode"], data["metrics"]
    tables = []
    for row in data["runs"]:
        table = Table(title=f"Table 1 and Figure 6: {_run_title(row)}, {mode} mode, % "
                            f"(EC_0: no correction, EC_{row['ec']}: after up to {row['ec']})")
        table.add_column("round", no_wrap=True)
        table.add_column("items", justify="right")
        for metric in metrics:
            table.add_column(METRIC_HEADERS[metric], justify="right")
        for rnd in data["per_round"][row["run"]]:
            table.add_row(round_label(rnd["round"]), str(rnd["items"]),
                          *(_pct(rnd[m]) for m in metrics))
        tables.append(table)
    for pair in data["abstract_vs_concrete"]:
        table = Table(title=f"{pair['model']}: abstract vs concrete descriptions, "
                            f"{round_label(pair['ec'])}, {mode} mode, %")
        table.add_column("description")
        table.add_column("items", justify="right")
        for metric in metrics:
            table.add_column(METRIC_HEADERS[metric], justify="right")
        for kind in ("abstract", "concrete"):
            table.add_row(kind, str(pair[kind]["items"]),
                          *(_pct(pair[kind]["eck"][m]) for m in metrics))
        tables.append(table)
    for row in data["runs"]:
        rounds = data["error_categories"][row["run"]]
        used = [n for n in (*CATEGORIES, NO_PDDL) if any(r["categories"].get(n) for r in rounds)]
        table = Table(title=f"{row['run']}: invalid domains per round, by error category")
        table.add_column("category")
        for rnd in rounds:
            table.add_column(round_label(rnd["round"]), justify="right")
        table.add_row("invalid (all)", *(str(r["invalid"]) for r in rounds), end_section=True)
        for name in used:
            table.add_row(name, *(str(r["categories"].get(name, 0)) for r in rounds))
        tables.append(table)
    for row in data["runs"]:
        table = Table(title=f"{row['run']}: one-way ANOVA, rounds EC_0 .. EC_{row['ec']} "
                            "as groups")
        for column in ("metric", "F", "p", "note"):
            table.add_column(column, justify="right" if column in ("F", "p") else "left")
        for metric in metrics:
            entry = data["anova"][row["run"]][metric]
            table.add_row(METRIC_HEADERS[metric],
                          "-" if entry["F"] is None else f"{entry['F']:.3f}",
                          "-" if entry["p"] is None else f"{entry['p']:.4g}", entry["note"])
        tables.append(table)
    tables += semantic_tables(data.get("semantic"))
    return tables


def semantic_tables(semantic: dict | None) -> list[Table]:
    """The semantic section (behaviour on the gold's problems), where the runs have it."""
    if not semantic:
        return []
    from text2world.reports.generation import round_label
    from text2world.scoring.semantic import METRICS
    from text2world.reports.semantic import LABELS

    from text2world.reports.semantic import CONDITIONAL

    tables = []
    for run, rows in semantic["per_round"].items():
        # Rounds as columns, each metric over all items with its mean over the simulated items
        # on the row below: readable at 80 columns, a count never among the percentages.
        count = max((row["items"] for row in rows), default=0)
        title = f"Semantic scores: {run}, % of all {count} items"
        table = Table(title=title, min_width=min(len(title), console.width),
                      caption="behaviour on the gold's problems; an item that could not be "
                              "simulated counts 0; 'simulated only': the mean over the others")
        table.add_column("metric", no_wrap=True)
        for row in rows:
            table.add_column(round_label(row["round"]), justify="right")
        table.add_row("simulable", *(_pct(row["simulable"]) for row in rows), end_section=True)
        for metric in METRICS:
            table.add_row(LABELS[metric], *(_pct(row.get(metric)) for row in rows))
            table.add_row("  simulated only", *(_pct(row.get(metric + CONDITIONAL))
                                                for row in rows), style="dim")
        tables.append(table)
    for run, rows in (semantic.get("diagnoses") or {}).items():
        table = Table(title=f"{run}: most frequent semantic diagnoses (last round of each item)")
        for column in ("items", "action", "diagnosis"):
            table.add_column(column, justify="right" if column == "items" else "left")
        for row in rows:
            table.add_row(str(row["items"]), row["action"], row["diagnosis"])
        tables.append(table)
    return tables


def report_command(
    runs: list[Path] = typer.Argument(..., help="Run directories."),
    out: Path = typer.Option(None, "--out", "-o",
                             help="Folder for the report files (default: RUN/report/MODE for "
                                  "one run, runs/report-<hash>/MODE for several)."),
    mode: Mode = mode_option("paper"),
    all_items: bool = typer.Option(False, "--all-items",
                                   help="Report each run on all its items, even when the runs "
                                        "compared cover different items (default: compare "
                                        "them on their common items)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report JSON."),
    by: str | None = typer.Option(None, "--by", help="Only scores per stratum of the store "
                                  "manifest: size (band) or feature."),
    markdown: bool = typer.Option(False, "--markdown",
                                  help="Print the markdown report (as in report.md, without "
                                       "the per-domain table) instead of terminal tables."),
) -> None:
    """Table 1, per-round curves, abstract vs concrete, error categories, per-domain, ANOVA
    (world-model runs: accuracy vs rho, hit@K, static vs dynamic, per step, per domain)."""
    from text2world.reports.generation import ReportError, build_report

    kinds = {path: _kind(path) for path in runs}
    if len(set(kinds.values())) > 1:
        fail("runs of different tasks cannot be reported together: " + ", ".join(
            f"{path} is a {kind} run" for path, kind in kinds.items()))
    kind = next(iter(kinds.values()), "generation")
    if kind == "wm":
        from text2world.cli.wm import report_wm
        return report_wm(runs, out, as_json, markdown)
    if kind == "contamination":
        from text2world.cli.contamination import report_probe
        return report_probe(runs, as_json)

    if by is not None:
        _stratified_report(runs, by, str(mode), as_json, markdown)
        return
    try:
        report = build_report(runs, out_dir=out, mode=str(mode), all_items=all_items)
    except ReportError as err:
        fail(str(err))
    for warning in report.warnings:  # first: it changes how every table below reads
        warn(warning)
    if as_json:
        print_json(report.data)
        return
    if markdown:
        typer.echo(report.markdown)
    else:
        for table in report_tables(report.data):
            console.print(table)
        for note in report.data["notes"]:
            console.print(f"note: {note}", highlight=False)
    console.print(f"{report.data['mode']} report written to {report.out_dir}/", highlight=False,
                  soft_wrap=True)  # a path stays on one line, to copy
    console.print("files: " + ", ".join(sorted(p.name for p in report.files))
                  + " (report.md holds every table, the per-domain one included)",
                  highlight=False)


def _kind(path: Path) -> str:
    """The task of a run folder (a folder that is not a run is reported as the report says)."""
    from text2world.engine.run_reader import open_run
    from text2world.engine.run_store import RunError

    try:
        return open_run(path).kind
    except RunError:
        return "generation"


def stratified_table(rows: list[dict], by: str, mode: str) -> Table:
    """``--by``: one row per run and stratum, counts apart from the percentages."""
    table = Table(title=f"Scores per {by} stratum of the store manifest, {mode} mode, %")
    for column in ("run", by, "domains", "Exec EC_0", "Exec EC_k", "Sim EC_k", "mean F1 EC_k"):
        table.add_column(column, justify="left" if column in ("run", by) else "right",
                         overflow="fold")
    previous = None
    for row in rows:
        table.add_row(row["run"] if row["run"] != previous else "", str(row[by]),
                      str(row["domains"]), _pct(row["exec_ec0"]), _pct(row["exec_eck"]),
                      _pct(row["similarity_eck"]), _pct(row["f1_mean_eck"]))
        previous = row["run"]
    return table


def _stratified_report(runs: list[Path], by: str, mode: str, as_json: bool,
                       markdown: bool = False) -> None:
    from text2world.reports.generation import ReportError, stratified_markdown, stratified_scores
    try:
        rows = stratified_scores(runs, by, mode)
    except ReportError as err:
        fail(str(err))
    if as_json:
        print_json(rows)
    elif markdown:
        typer.echo(stratified_markdown(rows, by))
    else:
        console.print(stratified_table(rows, by, mode))
