"""What the results viewer (``t2w view``) shows of a run, computed from the run store.

The run page: each kind's own (``tasks/<kind>/page.py``, found by ``tasks.registry.run_page``).
The item page: the logged record with the gold domain, the lines its validation errors point
at, and, per round, the per-action diff of gold vs generated (``metrics.action_diff``). Nothing
here calls a model or writes a file.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Sequence, TypeVar

from text2world.engine.run_store import ItemRecord, Run, RunError, RunKind, run_kind
from text2world.scoring.metrics import action_diff
from text2world.store.datasets import BUILTIN, DatasetError, load_dataset
from text2world.tasks.generation.records import generation_item, generation_items
from text2world.tasks.page import ViewError  # defined with the pages; the viewer catches it here
from text2world.tasks.registry import run_page

# "line 73:37" inside a parser message: a second place an error points at.
ItemRecordT = TypeVar("ItemRecordT", bound=ItemRecord)
_PARSER_LINE = re.compile(r"\bline (\d+):\d+")


def overview(run: Run, items: Sequence[ItemRecord]) -> dict:
    """Everything the run page shows: the page of the run's kind (``RunKind``: generation, wm,
    contamination, judge), ``tasks.registry.run_page``."""
    try:
        run_kind(run.config)
    except RunError:
        raise ViewError(f"run {run.run_id!r} is of an unknown kind {run.kind!r}: the viewer "
                        "shows generation (t2w eval), world-model (t2w wm), contamination and "
                        "judge runs") from None
    return run_page(run, items)


def find_item(items: Sequence[ItemRecordT], item_id: str) -> ItemRecordT:
    for item in items:
        if str(item.get("item")) == item_id:
            return item
    raise ViewError(f"the run has no finished item {item_id!r} ({len(items)} items logged)")


def gold_domain(run: Run, item_id: str) -> tuple[str | None, str | None]:
    """(gold domain text, a note when it is missing or its dataset changed since the run)."""
    name = run.config.get("dataset") or BUILTIN
    source = run.config.get("dataset_source") or ""
    try:
        dataset = load_dataset(name)
    except DatasetError as err:
        if not (source and Path(source).exists()):
            return None, f"the run's dataset {name!r} cannot be read: {err}"
        try:
            dataset = load_dataset(source)
        except DatasetError as err2:
            return None, f"the run's dataset {name!r} cannot be read: {err2}"
    try:
        record = dataset.get(item_id)
    except KeyError:
        return None, f"dataset {dataset.name!r} no longer has the item {item_id!r}"
    note = None
    if run.config.get("dataset_hash") and dataset.content_hash != run.config["dataset_hash"]:
        note = (f"dataset {dataset.name!r} changed since the run: this gold domain may not be "
                "the one the run was scored against")
    return record.domain, note


def error_lines(validation: dict | None) -> list[int]:
    """1-based lines of the domain that the validation's errors point at."""
    lines: set[int] = set()
    for issue in (validation or {}).get("errors", []):
        if isinstance(issue.get("line"), int):
            lines.add(issue["line"])
        lines.update(int(n) for n in _PARSER_LINE.findall(str(issue.get("message", ""))))
    return sorted(lines)


def item_detail(run: Run, items: Sequence[ItemRecord], item_id: str) -> dict:
    """One item as logged, with its neighbours in the run's item order; a generation item
    with the gold domain and the lines its validation errors point at."""
    item = find_item(items, item_id)
    order = sorted(str(i.get("item")) for i in items)
    position = order.index(item_id)
    kind = run.kind
    neighbours = {"run_id": run.run_id, "kind": kind, "position": position,
                  "count": len(order), "previous": order[position - 1] if position > 0 else None,
                  "next": order[position + 1] if position + 1 < len(order) else None}
    if kind != "generation":
        return {**item, **neighbours, "task": run.config.get("task") or item.get("task")}
    gold, gold_note = gold_domain(run, item_id)
    rounds = [{**rnd, "error_lines": error_lines(rnd.get("validation"))}
              for rnd in generation_item(item).get("rounds", [])]
    return {**item, **neighbours, "rounds": rounds, "gold": gold, "gold_note": gold_note}


def round_diff(run: Run, items: Sequence[ItemRecord], item_id: str, round_index: int | None) -> dict:
    """The per-action diff of the gold vs the domain of one round (default: the last)."""
    if run.kind != RunKind.GENERATION:
        raise ViewError(f"run {run.run_id!r} is a {run.kind} run: only generation "
                        "runs have a per-action diff")
    item = find_item(generation_items(items), item_id)
    rounds = item.get("rounds") or []
    if not rounds:
        raise ViewError(f"item {item_id!r} has no rounds logged")
    if round_index is None:
        round_index = len(rounds) - 1
    if not 0 <= round_index < len(rounds):
        raise ViewError(f"item {item_id!r} has rounds 0 to {len(rounds) - 1}, not {round_index}")
    gold, gold_note = gold_domain(run, item_id)
    if gold is None:
        return {"round": round_index, "ok": False, "reason": gold_note, "actions": [],
                "predicates": []}
    diff = _action_diff(gold, rounds[round_index].get("domain") or "")
    return {"round": round_index, "gold_note": gold_note, **diff}


@lru_cache(maxsize=256)
def _action_diff(gold: str, predicted: str) -> dict:
    # Moving back and forth between items asks for the same diffs again (callers copy it).
    return action_diff(gold, predicted)
