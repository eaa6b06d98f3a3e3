"""The report of a judge run (``t2w judge``, ``t2w report JUDGE_RUN``, the viewer): agreement of
the LLM judge with our semantic verdicts, beside what the reference judges get on the same
items (floors and ceiling) and the paper's figure."""

from __future__ import annotations

from rich.markup import escape
from rich.table import Table

from text2world.reports.rendering import count_of
from text2world.stats import format_interval
from text2world.tasks.judge.records import JudgeSummary

SHOWN_DISAGREEMENTS = 20


def _kappa(interval: dict | None) -> str:
    if not interval or interval.get("mean") is None:
        return "undefined (one answer throughout)"
    return format_interval(interval, scale=1.0, digits=2)


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def judge_tables(summary: JudgeSummary) -> list[Table | str]:
    """Rich tables and lines of a judge run's summary, in the order they are printed."""
    out: list[Table | str] = []
    agreement = Table(title=f"Judge {escape(str(summary.get('model')))} vs our semantic verdicts "
                            f"on {escape(str(summary.get('source_run')))}: Cohen's kappa "
                            "[95% interval], accuracy %")
    for column in ("judge", "kappa", "accuracy", "judged"):
        agreement.add_column(column, justify="left" if column == "judge" else "right")
    agreement.add_row(escape(str(summary.get("model"))), _kappa(summary.get("kappa")),
                      _pct(summary.get("accuracy")), str(summary.get("judged", 0)))
    for name, floor in (summary.get("reference") or {}).items():
        agreement.add_row(f"{name} (same items)", _kappa(floor.get("kappa")),
                          _pct(floor.get("accuracy")), "")
    out.append(agreement)
    confusion = Table(title="Confusion matrix (rows: our verdict, columns: the judge's)")
    confusion.add_column("ours \\ judge")
    confusion.add_column("same", justify="right")
    confusion.add_column("different", justify="right")
    matrix = summary.get("confusion") or {}
    for ours in ("same", "different"):
        counts = matrix.get(ours) or {}
        confusion.add_row(ours, str(counts.get("same", 0)), str(counts.get("different", 0)))
    out.append(confusion)
    spread = (summary.get("spread") or {}).get("kappa")
    if spread:
        out.append(f"over {spread['epochs']} epochs: kappa {spread['mean']:.2f} (sd "
                   f"{spread['std']:.2f}, {spread['min']:.2f} to {spread['max']:.2f})")
    paper = summary.get("paper_kappa") or {}
    out.append(f"the paper ({paper.get('source')}): kappa {paper.get('value')} between "
               f"{paper.get('between')}; our side here is the semantic verdict "
               "(equivalent = same; different or incomplete = different)")
    if summary.get("unparsed_items"):
        unparsed = len(summary["unparsed_items"])
        out.append(f"{count_of(unparsed, 'answer')} {'has' if unparsed == 1 else 'had'} no rating 1-5 and "
                   f"{'is' if unparsed == 1 else 'are'} not "
                   f"counted: {', '.join(summary['unparsed_items'][:10])}")
    if summary.get("excluded_items"):
        excluded = len(summary["excluded_items"])
        out.append(f"{count_of(excluded, 'item')} of the run {'has' if excluded == 1 else 'have'} no "
                   f"semantic verdict and {'was' if excluded == 1 else 'were'} not judged")
    rows = summary.get("disagreements") or []
    if rows:
        table = Table(title=f"Disagreements ({len(rows)}; first {SHOWN_DISAGREEMENTS}): "
                            "our counterexample")
        for column in ("item", "ours", "judge", "counterexample"):
            table.add_column(column, overflow="fold")
        for row in rows[:SHOWN_DISAGREEMENTS]:
            table.add_row(escape(str(row["item"])), str(row["verdict"]),
                          f"{row['judge']} ({row['rating']})",
                          escape(row.get("counterexample") or "(equivalent on every sampled "
                                                              "state: no counterexample)"))
        out.append(table)
    return out
