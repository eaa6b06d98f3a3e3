"""``t2w report --by family`` and ``t2w compare --by family``: the generalization report's
terminal tables (the figures come from ``reports.families``)."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from text2world.cli.common import METRIC_HEADERS, console, fail, print_json, warn
from text2world.reports.rendering import print_table


def _label(metric: str) -> str:
    """"f1_mean@EC_k" as "F1 mean EC_k", as the report heads its columns."""
    name, _, at = metric.partition("@")
    label = {"equivalent": "Equiv"}.get(name, METRIC_HEADERS.get(name, name))
    return f"{label} {at}".strip()


def _cell(interval: dict | None) -> str:
    """A mean over its 95% interval, on two lines: a table of intervals fits 80 columns."""
    if not interval or interval.get("mean") is None:
        return "-"
    if interval.get("low") is None:
        return f"{100 * interval['mean']:.1f}"
    return (f"{100 * interval['mean']:.1f}\n"
            f"[{100 * interval['low']:.1f}, {100 * interval['high']:.1f}]")


def _signed(interval: dict | None) -> str:
    if not interval or interval.get("mean") is None:
        return "-"
    return (f"{100 * interval['mean']:+.1f}\n"
            f"[{100 * interval['low']:+.1f}, {100 * interval['high']:+.1f}]")


def _held_out(value: str | None) -> list[str]:
    return [name.strip() for name in (value or "").split(",") if name.strip()]


def print_family_reports(runs: list[Path], mode: str, held_out: str | None, as_json: bool,
                         markdown: bool) -> None:
    """Each run's scores per family with 95% intervals; with ``--held-out``, held-out against
    in-family."""
    from text2world.reports.families import family_markdown, family_report
    from text2world.reports.generation import ReportError

    reports = []
    for run in runs:
        try:
            reports.append(family_report(run, mode, _held_out(held_out)))
        except ReportError as err:
            fail(str(err))
    if as_json:
        print_json(reports if len(reports) > 1 else reports[0])
        return
    for data in reports:
        for note in data["notes"]:
            warn(note)
        if markdown:
            typer.echo(family_markdown(data))
            continue
        what = data["kind"] + (f" {data['task']}" if data.get("task") else "")  # wm: its task
        table = Table(title=f"{data['model']} ({what}) by family: mean, [95% interval], %",
                      caption=f"items resampled{' by domain' if data['clustered_by_domain'] else ''}"
                              f", seed {data['seed']}")
        table.add_column("family", overflow="fold")  # the figures stay whole
        table.add_column("items", justify="right")
        for metric in data["metrics"]:
            table.add_column(_label(metric), justify="right", no_wrap=True)
        for row in data["families"]:
            table.add_row(row["family"] + ("\n(held out)" if row["held_out"] else ""),
                          str(row["items"]), *(_cell(row["metrics"][m]) for m in data["metrics"]))
        print_table(console, table)
        if data["summary"]:
            table = Table(title=f"held out ({', '.join(data['held_out'])}) vs in-family")
            for column in ("metric", "in-family", "held-out", "held-out - in"):
                table.add_column(column, justify="left" if column == "metric" else "right",
                                 no_wrap=column != "metric")
            for row in data["summary"]:
                table.add_row(_label(row["metric"]), _cell(row["in_family"]),
                              _cell(row["held_out"]), _signed(row["gap"]))
            print_table(console, table)


def print_family_comparison(run_a: Path, run_b: Path, mode: str, held_out: str | None,
                            as_json: bool, markdown: bool) -> None:
    """Run B beside run A per family: each side's mean [95%] and the paired B - A."""
    from text2world.reports.families import compare_by_family, compare_family_markdown
    from text2world.reports.generation import ReportError

    try:
        data = compare_by_family(run_a, run_b, mode, _held_out(held_out))
    except ReportError as err:
        fail(str(err))
    if as_json:
        print_json(data)
        return
    for note in data["notes"]:
        warn(note)
    if markdown:
        typer.echo(compare_family_markdown(data))
        return
    for metric in data["metrics"]:
        table = Table(title=f"{_label(metric)} by family: {data['b']['model']} (B) vs "
                            f"{data['a']['model']} (A), %, [95% interval]",
                      caption=f"B - A paired on the items both finished, seed {data['seed']}")
        for column in ("family", "items", "A", "B", "B - A"):
            table.add_column(column, justify="left" if column == "family" else "right",
                             no_wrap=column in ("A", "B", "B - A"))
        for row in data["families"]:
            cells = row["metrics"][metric]
            table.add_row(row["family"], str(row["items"]), _cell(cells["a"]), _cell(cells["b"]),
                          _signed(cells["difference"]))
        print_table(console, table)
