"""How report figures are shown to a person: metric labels, round labels, CSV and Markdown
tables, and the headless matplotlib set-up shared by every report (generation, world-model, probe)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

LABELS = {"executable": "Exec", "similarity": "Sim", "f1_predicates": "F1 pred",
          "f1_parameters": "F1 param", "f1_preconditions": "F1 precond", "f1_effects": "F1 eff",
          "f1_types": "F1 types"}
NO_PDDL = "NoDomainFound"



def round_label(round_index: int | str) -> str:
    """The one label of a correction round everywhere a person reads it: EC_0, EC_1, ... EC_k."""
    return f"EC_{round_index}"



def csv_text(rows: list[list]) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, lineterminator="\n").writerows(rows)
    return buffer.getvalue()


def md_table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_figure(plt, figure, path: Path) -> None:
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)


def round_ticks(axis, last_round: int) -> None:
    axis.set_xticks(range(last_round + 1))
    axis.set_xticklabels([round_label(r) for r in range(last_round + 1)], fontsize=8)
