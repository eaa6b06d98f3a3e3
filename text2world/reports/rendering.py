"""How report figures are shown to a person: metric labels, round labels, terminal tables that
fit the width, CSV and Markdown tables, and the headless matplotlib set-up shared by every report
(generation, world-model, probe)."""

from __future__ import annotations

import copy
import csv
import dataclasses
import io
from pathlib import Path
from typing import TYPE_CHECKING

from text2world.engine.summary import count_of as count_of  # re-exported: one wording of counts

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

LABELS = {"executable": "Exec", "similarity": "Sim", "f1_predicates": "F1 pred",
          "f1_parameters": "F1 param", "f1_preconditions": "F1 precond", "f1_effects": "F1 eff",
          "f1_types": "F1 types"}


def round_label(round_index: int | str) -> str:
    """The one label of a correction round everywhere a person reads it: EC_0, EC_1, ... EC_k."""
    return f"EC_{round_index}"


def print_table(console: Console, table: Table, keep: int = 1) -> None:
    """Print a table whole at the console's width (80 in a pipe or CI log): see ``fit_table``."""
    for part in fit_table(table, console, console.width, keep):
        console.print(part)


def fit_table(table: Table, console: Console, width: int, keep: int = 1) -> list[Table]:
    """The one rule for every table a command prints: no label or number is ever cut.

    Left to itself rich shrinks columns below their longest word and ends cells with "…" (or
    squeezes a label column to nothing). Here a table that fits is printed as it is; one that
    fits only with its cells wrapped at spaces gets column widths that never go below a
    column's longest word (its whole text where the column is ``no_wrap``); one that cannot
    fit even so is split into parts of whole columns, each repeating the first ``keep``
    (label) columns, titled "part i of n"."""
    columns = table.columns
    if not columns:
        return [table]
    unbounded = console.options.update_width(10_000)
    measured = [table._measure_column(console, unbounded, column) for column in columns]
    # A no_wrap column's narrowest is its widest; a wrapping one's is its longest word.
    least = [m.maximum if column.no_wrap else m.minimum for m, column in zip(measured, columns)]
    most = [m.maximum for m in measured]
    room = width - table._extra_width
    if sum(most) <= room:
        return [table]
    if sum(least) <= room:
        return [_narrowed(table, least, most, room)]
    keep = min(keep, len(columns) - 1)

    def fits(indices: list[int], cap: int) -> bool:
        borders = table._extra_width - (len(columns) - len(indices) if table.box else 0)
        return sum(least[i] for i in indices) + borders <= cap

    labels = list(range(keep))

    def packed(cap: int) -> list[list[int]]:
        groups: list[list[int]] = []
        for index in range(keep, len(columns)):
            if groups and fits(labels + groups[-1] + [index], cap):
                groups[-1].append(index)
            else:
                groups.append([index])
        return groups

    # As few parts as the width allows, then as even as they can be (no lone last column).
    groups = packed(width)
    groups = next(g for cap in range(1, width + 1) if len(g := packed(cap)) <= len(groups))
    parts = []
    for number, group in enumerate(groups, 1):
        part = copy.copy(table)
        part.columns = [dataclasses.replace(columns[i], _index=position)
                        for position, i in enumerate(labels + group)]
        if len(groups) > 1:
            part.title = f"{table.title or 'table'} (part {number} of {len(groups)})"
            part.caption = table.caption if number == len(groups) else None
        part.min_width = None
        parts.extend(fit_table(part, console, width, keep) if len(part.columns) < len(columns) else [part])
    return parts


def _narrowed(table: Table, least: list[int], most: list[int], room: int) -> Table:
    """The table with fixed column widths that fit ``room``: the widest column narrowed first,
    none below its least width (rich's own narrowing ignores that least)."""
    widths = list(most)
    excess = sum(widths) - room
    while excess > 0:
        index = max((i for i in range(len(widths)) if widths[i] > least[i]),
                    key=lambda i: widths[i])
        widths[index] -= 1
        excess -= 1
    part = copy.copy(table)
    part.columns = [dataclasses.replace(column, width=max(1, width - table._get_padding_width(i)),
                                        min_width=None, max_width=None)
                    if width < most[i] else column
                    for i, (column, width) in enumerate(zip(table.columns, widths))]
    part.min_width = None
    return part


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
