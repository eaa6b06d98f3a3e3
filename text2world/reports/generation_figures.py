"""The generation report's figures (PNG/SVG): EC_k curves with error bars, the per-domain heat
map, score distributions, abstract vs concrete, syntax-error categories per round."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from text2world.pddl.validation import CATEGORIES
from text2world.reports.rendering import LABELS, pyplot, round_label, round_ticks, save_figure
from text2world.scoring.score_base import mode_metrics
from text2world.tasks.generation.summary import NO_PDDL


class FigureRun(Protocol):
    """What a figure reads of a run (``reports.generation.LoadedRun``): its label and its
    number of correction rounds (declared here: ``generation`` imports the figures)."""

    @property
    def label(self) -> str: ...

    @property
    def ec(self) -> int: ...


def plot_rounds(loaded_runs: Sequence[FigureRun], intervals: dict, path: Path, mode: str) -> None:
    """EC_k curves of every metric, each point with its 95% interval as an error bar."""
    plt = pyplot()
    metrics = mode_metrics(mode)
    columns = (len(metrics) + 1) // 2
    figure, axes = plt.subplots(2, columns, figsize=(4 * columns, 6.5), squeeze=False)
    for axis in list(axes.flat)[len(metrics):]:
        axis.set_visible(False)
    for axis, metric in zip(axes.flat, metrics):
        for loaded in loaded_runs:
            cells = [(row["round"], row[metric]) for row in intervals[loaded.label]
                     if row[metric]["mean"] is not None]
            xs = [r for r, _ in cells]
            ys = [100 * c["mean"] for _, c in cells]
            errors = [[100 * (c["mean"] - c["low"]) for _, c in cells],
                      [100 * (c["high"] - c["mean"]) for _, c in cells]]
            axis.errorbar(xs, ys, yerr=errors, marker="o", capsize=3, label=loaded.label)
        axis.set_title(LABELS[metric])
        axis.set_xlabel("correction round")
        axis.set_ylabel("%")
        axis.grid(alpha=0.3)
        round_ticks(axis, max(r.ec for r in loaded_runs))
    axes.flat[0].legend(fontsize=8)
    figure.suptitle(f"Metrics vs number of error-correction rounds ({mode} mode; "
                    "bars: 95% intervals)")
    save_figure(plt, figure, path)


def plot_heatmap(loaded_runs: Sequence[FigureRun], per_domain: list[dict], path: Path,
                  mode: str) -> None:
    """Domains x runs, coloured by the mean action/predicate F1 after the last round."""
    plt = pyplot()
    labels = [r.label for r in loaded_runs]
    rows = [row["item"] for row in per_domain]
    grid = [[(row.get(label) or {}).get("f1_mean_eck") for label in labels]
            for row in per_domain]
    import numpy as np

    values = np.array([[np.nan if v is None else 100 * v for v in line] for line in grid])
    height = max(3.0, 0.16 * len(rows) + 1.5)
    figure, axis = plt.subplots(figsize=(2.2 + 1.6 * len(labels), height))
    image = axis.imshow(values, aspect="auto", cmap="viridis", vmin=0, vmax=100,
                        interpolation="nearest")
    axis.set_xticks(range(len(labels)))
    axis.set_xticklabels(labels, rotation=20, ha="right", fontsize=7)
    axis.set_yticks(range(len(rows)))
    axis.set_yticklabels(rows, fontsize=max(4, min(8, int(400 / max(len(rows), 1)))))
    figure.colorbar(image, ax=axis, label="mean F1 at EC_k (%)")
    axis.set_title(f"Per domain x run: mean F1 after the last round ({mode} mode)", fontsize=9)
    save_figure(plt, figure, path)


def plot_distributions(loaded_runs: Sequence[FigureRun], per_domain: list[dict], path: Path,
                        mode: str) -> None:
    """Distribution over items of the mean F1 after the last round, one histogram per run."""
    plt = pyplot()
    figure, axis = plt.subplots(figsize=(7, 4))
    bins = [i * 10 for i in range(11)]
    for loaded in loaded_runs:
        values = [100 * cell["f1_mean_eck"] for row in per_domain
                  if (cell := row.get(loaded.label)) and cell["f1_mean_eck"] is not None]
        axis.hist(values, bins=bins, alpha=0.5, label=f"{loaded.label} ({len(values)} items)")
    axis.set_xlabel("mean F1 at EC_k (%)")
    axis.set_ylabel("items")
    axis.set_title(f"Score distribution over items ({mode} mode)")
    axis.legend(fontsize=7)
    save_figure(plt, figure, path)


def plot_abstract_concrete(pairs: list[dict], path: Path, mode: str) -> None:
    plt = pyplot()
    metrics = mode_metrics(mode)
    figure, axes = plt.subplots(1, len(pairs), figsize=(6 * len(pairs), 4), squeeze=False)
    for axis, pair in zip(axes.flat, pairs):
        positions = range(len(metrics))
        for offset, kind in ((-0.2, "abstract"), (0.2, "concrete")):
            values = [100 * (pair[kind]["eck"][m] or 0.0) for m in metrics]
            axis.bar([p + offset for p in positions], values, width=0.4, label=kind)
        axis.set_xticks(list(positions))
        axis.set_xticklabels([LABELS[m] for m in metrics], rotation=30, fontsize=8)
        axis.set_title(f"{pair['model']} ({round_label(pair['ec'])}, {mode} mode)")
        axis.set_ylabel("%")
        axis.legend()
    save_figure(plt, figure, path)


def plot_errors(loaded_runs: Sequence[FigureRun], categories: dict, path: Path) -> None:
    plt = pyplot()
    figure, axes = plt.subplots(1, len(loaded_runs), figsize=(5.5 * len(loaded_runs), 4),
                                squeeze=False)
    names = list(CATEGORIES) + [NO_PDDL]
    for axis, loaded in zip(axes.flat, loaded_runs):
        rows = categories[loaded.label]
        bottoms = [0] * len(rows)
        for name in names:
            values = [row["categories"].get(name, 0) for row in rows]
            if any(values):
                axis.bar([row["round"] for row in rows], values, bottom=bottoms, label=name)
                bottoms = [b + v for b, v in zip(bottoms, values)]
        axis.set_title(loaded.label, fontsize=9)
        axis.set_xlabel("correction round")
        axis.set_ylabel("invalid items")
        round_ticks(axis, loaded.ec)
        if any(bottoms):
            axis.legend(fontsize=7)
    figure.suptitle("Syntax error categories per round")
    save_figure(plt, figure, path)
