"""The semantic section of ``t2w report`` (tables, figures, diagnoses).

The records and the rule that averages them live in ``scoring.semantic_record``: the headline
of each metric is its mean over ALL items of the round, an item whose
domain could not be simulated counting 0: a fixed denominator, so a score cannot drop because a
correction made one more item simulable. The mean over the simulated items alone (``*_simulated``)
is reported beside it, labelled, with the share that could be simulated.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

from text2world.reports.rendering import count_of
from text2world.scoring.semantic import METRICS, VERDICTS
from text2world.scoring.semantic_record import (  # noqa: F401 (re-exported: their old home)
    CONDITIONAL,
    compact_semantic,
    ec_semantic,
    semantic_rounds,
    verdict_of,
)

if TYPE_CHECKING:
    from text2world.tasks.generation.records import GenerationItem

LABELS = {"plan_validity": "Plan valid", "gold_plan_acceptance": "Gold plan acc.",
          "applicability_f1": "Applic. F1", "transition_accuracy": "Trans. acc."}


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


def semantic_section(runs: list[tuple[str, Sequence[GenerationItem], int]], out_dir: Path,
                     plots: bool = True) -> tuple[str, dict | None, list[Path]]:
    """Markdown, JSON data and figure files of the semantic part of ``t2w report``.

    ``runs`` are ``(label, finished items, ec)``. Empty when no run has semantic scores.
    """
    from text2world.stats import format_interval
    from text2world.tasks.generation.intervals import generation_intervals

    curves = {label: rows for label, items, ec in runs if (rows := semantic_rounds(items, ec))}
    if not curves:
        return "", None, []
    intervals = {label: generation_intervals(items, "semantic", METRICS, ec + 1)
                 for label, items, ec in runs if label in curves}
    lines = ["## Semantic scores (behaviour on the gold's problems)", "",
             "Verdicts of each item's last round (EC_k), counted:", "",
             "| Run | Items | " + " | ".join(VERDICTS) + " |",
             "|" + " --- |" * (2 + len(VERDICTS))]
    for label, rows in curves.items():
        counts = rows[-1]["verdicts"]
        lines.append(f"| {label} | {rows[-1]['items']} | "
                     + " | ".join(str(counts[v]) for v in VERDICTS) + " |")
    header = "| Run | Simulable EC_k | " + " | ".join(
        f"{LABELS[m]} EC_0 | {LABELS[m]} EC_k | {LABELS[m]} EC_k (simulated)" for m in METRICS) + " |"
    lines += ["", "Each metric is a mean over all items [95% interval], an item whose domain "
              "could not be simulated counting 0; '(simulated)' is the mean over the simulated "
              "items only, and 'Simulable' their share; 'incomplete' rounds count with the "
              "parts that could be matched.", "", header, "|" + " --- |" * (2 + 3 * len(METRICS))]
    for label, rows in curves.items():
        cells = [f"{label} ({count_of(rows[-1]['items'], 'item')})", _pct(rows[-1]["simulable"])]
        for metric in METRICS:
            cells += [format_interval(intervals[label][0][metric]),
                      format_interval(intervals[label][-1][metric]),
                      _pct(rows[-1][metric + CONDITIONAL])]
        lines.append("| " + " | ".join(cells) + " |")
    diagnoses = _top_diagnoses(runs)
    if diagnoses:
        lines += ["", "### Most frequent diagnoses (last round of each item)", "",
                  "| Run | Items | Action | Diagnosis |", "| --- | --- | --- | --- |"]
        for label, rows in diagnoses.items():
            for (action, text), count in rows:
                lines.append(f"| {label} | {count} | `{action}` | {text} |")
    files: list[Path] = []
    if plots:
        path = out_dir / "semantic_per_round.png"
        _plot(curves, path)
        files.append(path)
    data = {"per_round": curves, "intervals": intervals,
            "diagnoses": {label: [{"action": a, "diagnosis": t, "items": n}
                                  for (a, t), n in rows] for label, rows in diagnoses.items()}}
    return "\n".join(lines) + "\n", data, files


def _top_diagnoses(runs, limit: int = 10) -> dict:
    """Per run: the diagnoses (without their counts) found in most items' last rounds."""
    found = {}
    for label, items, _ in runs:
        counter: Counter = Counter()
        for item in items:
            rounds = item.get("rounds") or []
            last = rounds[-1].get("semantic") if rounds else None
            for diagnosis in (last or {}).get("diagnoses") or []:
                if isinstance(diagnosis, dict):
                    counter[(diagnosis.get("action", ""), _diagnosis_text(diagnosis))] += 1
        if counter:
            found[label] = counter.most_common(limit)
    return found


def _diagnosis_text(diagnosis: dict) -> str:
    """The diagnosis in words, without the counts of sampled states that differ per item."""
    from text2world.scoring.diagnosis import describe

    return describe(str(diagnosis.get("kind", "")), str(diagnosis.get("literal") or ""))


def _plot(curves: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(METRICS), figsize=(4 * len(METRICS), 3.2))
    for axis, metric in zip(axes, METRICS):
        for label, rows in curves.items():
            xs = [r["round"] for r in rows if r[metric] is not None]
            ys = [100 * r[metric] for r in rows if r[metric] is not None]
            axis.plot(xs, ys, marker="o", label=label)
        rounds = max((len(rows) for rows in curves.values()), default=1)
        axis.set_xticks(range(rounds), [f"EC_{k}" for k in range(rounds)])
        axis.set_xlim(-0.3, rounds - 0.7)
        axis.set_title(LABELS[metric])
        axis.set_xlabel("after k correction rounds")
        axis.set_ylim(0, 105)
    axes[0].set_ylabel("% of all items")
    axes[0].legend(fontsize=7)
    figure.suptitle("Semantic scores per correction round (an item that cannot be simulated "
                    "counts 0)", fontsize=10)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
