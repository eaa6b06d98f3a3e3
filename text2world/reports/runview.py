"""What the results viewer (``t2w view``) shows of a run, computed from the run store.

The run page: each kind's own (``tasks/<kind>/page.py``, its ``KindSpec.page``).
The item page: the logged record with the gold domain, the lines its validation errors point
at, and, per round, the per-action diff of gold vs generated (``metrics.action_diff``). Nothing
here calls a model or writes a file.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence, TypeVar

from text2world.engine.kinds import kind_names, kind_spec, spec_of
from text2world.engine.run_store import ItemRecord, Run, RunError, run_kind
from text2world.scoring.metrics import action_diff
from text2world.tasks.generation.page import error_lines as error_lines
from text2world.tasks.generation.page import gold_domain
from text2world.tasks.generation.records import generation_items
from text2world.tasks.page import ViewError  # defined with the pages; the viewer catches it here

ItemRecordT = TypeVar("ItemRecordT", bound=ItemRecord)


def overview(run: Run, items: Sequence[ItemRecord]) -> dict:
    """Everything the run page shows: the page of the run's kind (its ``KindSpec.page``)."""
    try:
        spec = run_kind(run.config)
    except RunError:
        raise ViewError(f"run {run.run_id!r} is of an unknown kind {run.kind!r}: the viewer "
                        f"shows {kinds_shown()} runs") from None
    return spec.page(run, items)


def kinds_shown() -> str:
    """The kinds the viewer shows, as its messages name them."""
    titles = [kind_spec(kind).title or kind for kind in kind_names()]
    return ", ".join(titles[:-1]) + " and " + titles[-1] if len(titles) > 1 else "".join(titles)


def find_item(items: Sequence[ItemRecordT], item_id: str) -> ItemRecordT:
    for item in items:
        if str(item.get("item")) == item_id:
            return item
    raise ViewError(f"the run has no finished item {item_id!r} ({len(items)} items logged)")


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
    return {**item, **neighbours, **spec_of(kind).item_page(run, item)}


def round_diff(run: Run, items: Sequence[ItemRecord], item_id: str, round_index: int | None) -> dict:
    """The per-action diff of the gold vs the domain of one round (default: the last)."""
    if not spec_of(run.kind).round_diffs:
        diffed = " and ".join(kind for kind in kind_names() if kind_spec(kind).round_diffs)
        raise ViewError(f"run {run.run_id!r} is a {run.kind} run: only {diffed} "
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
