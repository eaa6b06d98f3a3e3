"""``t2w report``: the report files (markdown, CSV, plots, JSON), tables sized to the terminal."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import Callable

import typer
from rich.markup import escape
from rich.table import Table

from text2world.cli.common import METRIC_HEADERS, Mode, console, fail, mode_option, print_json, say, warn
from text2world.cli.runs import run_paths, runs_dir_option
from text2world.engine.kinds import default_kind, kind_names, kind_spec
from text2world.reports.rendering import count_of, print_table


def _pct(value) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def _run_title(row: dict) -> str:
    from text2world.engine.summary import items_phrase
    from text2world.reports.generation import protocol_label

    return (row["run"] + (" (reference)" if row["reference_model"] else "")
            + (f", run {row['run_label']}" if row.get("run_label") else "")
            + (f", {items_phrase(row['items'], row['epochs'])}" if row.get("epochs", 1) > 1
               else "")
            + f", protocol {protocol_label(row)}")


def report_tables(data: dict) -> list[Table]:
    """The report's tables for the terminal, one small table per run and section; the wide
    markdown tables (and the per-domain table) stay in the files."""
    from text2world.pddl.validation import CATEGORIES
    from text2world.reports.generation import NO_PDDL, round_label
    from text2world.stats import format_interval

    mode, metrics = data["mode"], data["metrics"]
    tables = []
    for row in data["runs"]:
        corrected = f", EC_{row['ec']}: after up to {row['ec']}" if row["ec"] else ""
        table = Table(title=f"Table 1 and Figure 6: {_run_title(row)}, {mode} mode, % "
                            f"(EC_0: no correction{corrected}; mean [95% interval])")
        table.add_column("round", no_wrap=True)
        # with epochs each item is counted once per epoch: its samples
        table.add_column("items" if row.get("epochs", 1) == 1 else "samples", justify="right")
        for metric in metrics:
            table.add_column(METRIC_HEADERS[metric], justify="right")
        for rnd, ci in zip(data["per_round"][row["run"]], data["intervals"][row["run"]]):
            table.add_row(round_label(rnd["round"]), str(rnd["items"]),
                          *(format_interval(ci[m]) for m in metrics))
        tables.append(table)
    tables += scaling_tables(data.get("scaling") or {})
    from text2world.cli.runs import spread_table

    for label, spread in (data.get("epochs") or {}).items():
        epoch_table = spread_table(label, spread)
        if epoch_table is not None:
            tables.append(epoch_table)
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
        table = Table(title=f"{row['run']}: change over rounds EC_0 .. EC_{row['ec']} "
                            "(repeated measures: the same items each round)")
        for column in ("metric", "items", "F", "p", "EC_0 -> EC_k", "p (paired)", "note"):
            table.add_column(column, justify="left" if column in ("metric", "note")
                             else "right")
        for metric in metrics:
            entry = data["rounds_test"][row["run"]][metric]
            paired = entry.get("first_to_last") or {}
            table.add_row(METRIC_HEADERS[metric], str(entry.get("items", 0)),
                          "-" if entry["F"] is None else f"{entry['F']:.3f}",
                          "-" if entry["p"] is None else f"{entry['p']:.4g}",
                          format_interval(paired.get("difference")),
                          "-" if paired.get("p_value") is None else f"{paired['p_value']:.4g}",
                          entry.get("note", ""))
        tables.append(table)
    tables += semantic_tables(data.get("semantic"))
    return tables


def scaling_tables(scaling: dict) -> list[Table]:
    """Test-time scaling (``--epochs``): pass@k and best-of-N against N, and the correction
    budget beside them."""
    from text2world.engine.summary import items_phrase

    tables = []
    for label, curves in scaling.items():
        counted = items_phrase(curves["items"], curves["epochs"])
        table = Table(title=f"Test-time scaling: {label} ({counted}, "
                            f"protocol {curves['protocol']}, %; "
                            "best-of-N chosen without the gold)")
        table.add_column("curve")
        for n in range(1, curves["epochs"] + 1):
            table.add_column(str(n), justify="right")
        for kind in ("pass_at_k", "best_of_n"):
            for name, values in curves[kind].items():
                table.add_row(f"{'pass@k' if kind == 'pass_at_k' else 'best-of-N'} {name}",
                              *(_pct(v) for v in values))
        budget = curves["correction_budget"]["executable"]
        table.caption = ("columns: k (pass@k) or N (best-of-N); beside them, the correction "
                         "budget (first sample, executable): "
                         + ", ".join(f"EC_{r} {_pct(v)}" for r, v in enumerate(budget)))
        tables.append(table)
    return tables


def semantic_tables(semantic: dict | None) -> list[Table]:
    """The semantic section (behaviour on the gold's problems), where the runs have it."""
    if not semantic:
        return []
    from text2world.reports.generation import round_label
    from text2world.reports.semantic import CONDITIONAL, LABELS
    from text2world.scoring.semantic import METRICS, VERDICTS
    from text2world.stats import format_interval

    tables = []
    for run, rows in semantic["per_round"].items():
        cis = (semantic.get("intervals") or {}).get(run) or [{} for _ in rows]
        # Rounds as columns, each metric over all items [95% interval] with its mean over the
        # simulated items on the row below: a count never among the percentages.
        count = (semantic.get("counts") or {}).get(run) or \
            count_of(max((row["items"] for row in rows), default=0), "item")
        title = f"Semantic scores: {run}, % of all {count}"
        table = Table(title=title, min_width=min(len(title), console.width),
                      caption="behaviour on the gold's problems; an item that could not be "
                              "simulated counts 0 [95% interval]; 'simulated only': the mean "
                              "over the others; verdicts are counts of items")
        table.add_column("metric", no_wrap=True)
        for row in rows:
            table.add_column(round_label(row["round"]), justify="right")
        for verdict in VERDICTS:
            table.add_row(verdict, *(str((row.get("verdicts") or {}).get(verdict, "-"))
                                     for row in rows))
        table.add_row("simulable", *(_pct(row["simulable"]) for row in rows), end_section=True)
        for metric in METRICS:
            table.add_row(LABELS[metric], *(format_interval(ci[metric]) if metric in ci
                                            else _pct(row.get(metric))
                                            for row, ci in zip(rows, cis)))
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
    runs: list[Path] = typer.Argument(..., help="Run directories (or run ids of --runs-dir)."),
    out: Path = typer.Option(None, "--out", "-o",
                             help="Folder for the report files (default: RUN/report/MODE for "
                                  "one run, runs/report-<hash>/MODE for several)."),
    mode: Mode = mode_option("paper"),  # type: ignore[valid-type]  # typer choices: an enum made at runtime
    all_items: bool = typer.Option(False, "--all-items",
                                   help="Report each run on all its items, even when the runs "
                                        "compared cover different items (default: compare "
                                        "them on their common items)."),
    as_json: bool = typer.Option(False, "--json", help="Print the report JSON."),
    by: str | None = typer.Option(None, "--by", help="Only scores per stratum of the store "
                                  "manifest: size (band) or feature; or per family (generated "
                                  "worlds; any kind of run)."),
    held_out: str | None = typer.Option(None, "--held-out", metavar="FAMILIES",
                                        help="--by family: comma-separated families left "
                                             "out of training, reported against the others "
                                             "(in-family)."),
    markdown: bool = typer.Option(False, "--markdown",
                                  help="Print the markdown report (as in report.md, without "
                                       "the per-domain table) instead of terminal tables."),
    runs_dir: Path = runs_dir_option(),
    against: str | None = typer.Option(None, "--against", metavar="TABLE",
                                       help="The run's paper-mode figures beside a "
                                            "published table's row of the same model: paper "
                                            "(the Text2World table of the run's description "
                                            "and prompt: Table 1, 6 or 2), a table name "
                                            "(GET /v1/published), a table in "
                                            "$T2W_HOME/published/, or a JSON file. A run the "
                                            "table has no row for gets the normal report."),
) -> None:
    """Table 1, per-round curves, abstract vs concrete, error categories, per-domain, ANOVA
    (world-model runs: accuracy vs rho, hit@K, static vs dynamic, per step, per domain)."""

    runs = run_paths(runs, runs_dir)
    if held_out is not None and by != "family":
        fail("--held-out needs --by family")
    if by == "family":
        from text2world.cli.families import print_family_reports
        return print_family_reports(runs, str(mode), held_out, as_json, markdown)
    kinds = {path: _kind(path) for path in runs}
    if len(set(kinds.values())) > 1:
        fail("runs of different tasks cannot be reported together: " + ", ".join(
            f"{path} is a {kind} run" for path, kind in kinds.items()))
    kind = next(iter(kinds.values()), default_kind())
    report = _reporter(kind)
    report(runs, ReportOptions(out=out, mode=str(mode), all_items=all_items, as_json=as_json,
                               by=by, markdown=markdown, against=against))


@dataclass(frozen=True)
class ReportOptions:
    """``t2w report``'s options, as each kind's report reads them (``KindSpec.report``)."""

    out: Path | None
    mode: str
    all_items: bool
    as_json: bool
    by: str | None
    markdown: bool
    against: str | None


def _reporter(kind: str) -> Callable[[list[Path], ReportOptions], None]:
    """The report of ``kind``'s runs (``KindSpec.report``: "module:function"); a folder of no
    known kind is reported as the default kind's, whose report says why it cannot be."""
    spec = kind_spec(kind if kind in kind_names() else default_kind())
    if not spec.report:
        return summary_report
    module, _, name = spec.report.partition(":")
    return getattr(import_module(module), name)


def summary_report(runs: list[Path], options: ReportOptions) -> None:
    """The report of a kind with none of its own: each run's summary (JSON with ``--json``)."""
    from text2world.engine.run_reader import open_run
    from text2world.tasks.registry import summarize_run

    for path in runs:
        summary = summarize_run(open_run(path))
        if options.as_json:
            print_json(summary)
            continue
        table = Table(title=f"{summary.get('run_id')} ({summary.get('kind')})")
        table.add_column("value")
        table.add_column("", justify="right")
        for key, value in summary.items():
            if isinstance(value, (int, float, str)) and not isinstance(value, bool):
                table.add_row(key, str(value))
        print_table(console, table)


def wm_report(runs: list[Path], options: ReportOptions) -> None:
    """World-model runs: their report (``cli.wm.report_wm``)."""
    from text2world.cli.wm import report_wm

    report_wm(runs, options.out, options.as_json, options.markdown)


def judge_report(runs: list[Path], options: ReportOptions) -> None:
    """Judge runs: each one's agreement with our verdicts."""
    from text2world.cli.judge import print_judge
    from text2world.engine.run_reader import open_run
    from text2world.tasks.judge.records import judge_summary
    from text2world.tasks.registry import summarize_run

    for path in runs:
        summary = summarize_run(open_run(path))
        print_json(summary) if options.as_json else print_judge(judge_summary(summary))


def probe_report(runs: list[Path], options: ReportOptions) -> None:
    """Contamination probes: each probe's report in its own folder."""
    for path in runs:
        _probe_report(path, options.out if len(runs) == 1 else None, options.as_json,
                      options.markdown)


def generation_report(runs: list[Path], options: ReportOptions) -> None:
    """Generation runs: Table 1 and the rest (``--by``, ``--against``, ``--all-items``)."""
    from text2world.reports.generation import ReportError, build_report

    out, mode, all_items, as_json = options.out, options.mode, options.all_items, options.as_json
    by, markdown, against = options.by, options.markdown, options.against
    if by is not None:
        _stratified_report(runs, by, str(mode), as_json, markdown)
        return
    unmatched_lines: list[str] = []
    if against is not None:
        # A run the table has no row for gets the normal report and one line saying so.
        runs, unmatched_lines = _against_report(runs, against, as_json)
        if not runs:
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
            print_table(console, table)
        for note in report.data["notes"]:
            say(f"note: {note}")
    say(f"{report.data['mode']} report written to {report.out_dir}/")
    say("files: " + ", ".join(sorted(p.name for p in report.files))
        + " (report.md holds every table, the per-domain one included)")
    for line in unmatched_lines:
        say(line)


def _kind(path: Path) -> str:
    """The task of a run folder (a folder that is not a run is reported as the report says)."""
    from text2world.engine.run_reader import open_run
    from text2world.engine.run_store import RunError

    try:
        return open_run(path).kind
    except RunError:
        return default_kind()


def stratified_table(rows: list[dict], by: str, mode: str) -> Table:
    """``--by``: one row per run and stratum, counts apart from the percentages, each mean
    with its 95% interval."""
    from text2world.stats import format_interval

    table = Table(title=f"Scores per {by} stratum of the store manifest, {mode} mode, % "
                        "(mean [95% interval])")
    for column in ("run", by, "domains", "Exec EC_0", "Exec EC_k", "Sim EC_k", "mean F1 EC_k"):
        table.add_column(column, justify="left" if column in ("run", by) else "right",
                         overflow="fold")
    previous = None
    for row in rows:
        table.add_row(row["run"] if row["run"] != previous else "", str(row[by]),
                      str(row["domains"]),
                      *(format_interval(row["intervals"][key]) if key in row.get("intervals", {})
                        else _pct(row[key])
                        for key in ("exec_ec0", "exec_eck", "similarity_eck", "f1_mean_eck")))
        previous = row["run"]
    return table


def _stratified_report(runs: list[Path], by: str, mode: str, as_json: bool,
                       markdown: bool = False) -> None:
    from text2world.reports.generation import ReportError
    from text2world.reports.strata import stratified_markdown, stratified_scores
    try:
        rows = stratified_scores(runs, by, mode)
    except ReportError as err:
        fail(str(err))
    if as_json:
        print_json(rows)
    elif markdown:
        typer.echo(stratified_markdown(rows, by))
    else:
        print_table(console, stratified_table(rows, by, mode), keep=2)


def compare_command(
    run_a: Path = typer.Argument(..., metavar="RUN_A", help="The run compared against."),
    run_b: Path = typer.Argument(..., metavar="RUN_B", help="The run compared (B - A)."),
    mode: str = typer.Option("paper", "--mode", help="Generation runs: paper, canonical or "
                             "semantic scores."),
    as_json: bool = typer.Option(False, "--json", help="Print the comparison as JSON."),
    markdown: bool = typer.Option(False, "--markdown", help="Print it as markdown."),
    by: str | None = typer.Option(None, "--by", help="family: the two runs side by side per "
                                  "family of generated worlds."),
    held_out: str | None = typer.Option(None, "--held-out", metavar="FAMILIES",
                                        help="--by family: also the held-out families "
                                             "(comma-separated) against the others."),
) -> None:
    """Two runs item by item: paired differences per metric with 95% intervals and
    permutation p-values, wins / ties / losses per domain, the domains that differ most."""
    if by is not None or held_out is not None:
        if by != "family":
            fail(f"--by {by}: t2w compare groups by family only" if by is not None
                 else "--held-out needs --by family")
        from text2world.cli.families import print_family_comparison
        return print_family_comparison(run_a, run_b, mode, held_out, as_json, markdown)
    from text2world.reports.compare import CompareError, compare_markdown, compare_runs, side_title

    try:
        data = compare_runs(run_a, run_b, mode)
    except CompareError as err:
        fail(str(err))
    if as_json:
        print_json(data)
        return
    if markdown:
        typer.echo(compare_markdown(data))
        return
    for note in data["notes"]:
        warn(note)
    # escaped: "[syntax]" would otherwise be read as rich markup and vanish from the title
    table = Table(title=escape(f"{side_title(data['b'])} (B) vs {side_title(data['a'])} (A): ")
                  + f"{data['common_items']} common items, B - A in points "
                    f"[95% paired interval], seed {data['seed']}",
                  caption="W/T/L: items where B wins / ties / loses; metrics named as in "
                          "t2w report (--json and --markdown: full names)")
    for column in ("metric", "A", "B", "B - A", "p", "W/T/L"):
        table.add_column(column, justify="left" if column == "metric" else "right",
                         no_wrap=column in ("metric", "B - A"))
    for row in data["metrics"]:
        table.add_row(_metric_label(row["metric"]), _pct(row["mean_a"]), _pct(row["mean_b"]),
                      _signed(row["difference"]),
                      "-" if row["p_value"] is None else f"{row['p_value']:.3g}",
                      f"{row['wins']}/{row['ties']}/{row['losses']}")
    print_table(console, table)
    tally = data["domains"]
    console.print(f"per domain ({data['headline']}): B better in {tally['wins']}, equal in "
                  f"{tally['ties']}, worse in {tally['losses']}", highlight=False)
    if data["differ_most"]:
        table = Table(title="domains that differ most")
        for column in ("domain", "items", "A", "B", "B - A"):
            table.add_column(column, justify="left" if column == "domain" else "right")
        for row in data["differ_most"]:
            table.add_row(row["domain"], str(row["items"]), _pct(row["a"]), _pct(row["b"]),
                          f"{100 * row['difference']:+.1f}")
        print_table(console, table)


def _metric_label(column: str) -> str:
    """A compared column's short name: "executable@EC_0" as "Exec@EC_0", as the report heads it."""
    metric, at, rest = column.partition("@")
    return METRIC_HEADERS.get(metric, metric) + at + rest


def _signed(interval: dict) -> str:
    if interval.get("mean") is None:
        return "-"
    return (f"{100 * interval['mean']:+.1f} [{100 * interval['low']:+.1f}, "
            f"{100 * interval['high']:+.1f}]")


def _against_report(runs: list[Path], table: str, as_json: bool) -> tuple[list[Path], list[str]]:
    """Each run's figures beside its row of the published table; returns the runs the table
    has no row for, with a line for each (printed under their normal report)."""
    from text2world.reports.published import PublishedError, against
    from text2world.stats import format_interval

    results = []
    for run in runs:
        try:
            results.append(against(run, table))
        except PublishedError as err:
            fail(str(err))
    if as_json:
        print_json(results if len(results) > 1 else results[0])
        return [], []
    unmatched: list[Path] = []
    lines: list[str] = []
    for run, data in zip(runs, results):
        source = data["table"].get("source") or {}
        for note in data["notes"]:
            warn(f"conditions differ: {note}")
        if data["matched"] is None:
            unmatched.append(run)
            lines.append(f"{data['run_id']}: no comparison with {table} ({data['chosen']}): "
                         f"{data['reason']}")
            continue
        say(f"published table: {data['chosen']}")
        title = (f"{data['model']} beside {data['matched']} in {source.get('table', '')} of "
                 f"arXiv {source.get('arxiv', '')} {source.get('version', '')} "
                 f"({data['mode']} mode, %)")
        output = Table(title=title)
        for column in ("setting", "metric", "published", "ours [95%]", ""):
            output.add_column(column, justify="right" if column in ("published", "ours [95%]")
                              else "left", no_wrap=column == "ours [95%]")
        for row in data["rows"]:
            flag = {"outside": "[red]outside our interval[/]", "within": "within",
                    "no figure": "no figure"}.get(row["status"], row.get("note", ""))
            output.add_row(row["setting"], row["metric"], f"{100 * row['published']:.1f}",
                           format_interval(row.get("ours")), flag)
        print_table(console, output, keep=2)
        console.print(f"{data['outside']} of {len(data['rows'])} published figures lie outside "
                      "our 95% interval", highlight=False)
    return unmatched, lines


def _probe_report(run: Path, out: Path | None, as_json: bool, markdown: bool) -> None:
    from text2world.reports.generation import ReportError
    from text2world.reports.probe import build_probe_report
    from text2world.stats import format_interval

    try:
        data, text, out_dir = build_probe_report(run, out)
    except ReportError as err:
        fail(str(err))
    if as_json:
        print_json(data)
        return
    if markdown:
        typer.echo(text)
    else:
        from text2world.cli.contamination import rates_table
        from text2world.engine.run_reader import open_run
        from text2world.tasks.contamination.records import probe_summary
        from text2world.tasks.registry import summarize_run

        rates_table(probe_summary(summarize_run(open_run(run))), 20)
        measures = data["measures"]
        table = Table(title=f"Contamination probe {data['run_id']}: n-gram rate, %")
        table.add_column("measure")
        table.add_column("value", justify="right")
        table.add_row("mean rate [95% interval]", format_interval(measures["mean_rate"]))
        table.add_row("median rate", _pct(measures["median_rate"]))
        table.add_row("domains above 50%",
                      f"{measures['domains_above_half']} of {measures['domains']}")
        print_table(console, table)
    say(f"contamination report written to {out_dir}/")
