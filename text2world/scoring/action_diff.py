"""The per-action diff: what canonical mode matched, for a person to read."""

from __future__ import annotations

import re
from typing import Hashable, Sequence

from text2world.pddl.model import (
    Domain,
    Predicate,
)
from text2world.scoring.alignment import UNMAPPED_PREFIX
from text2world.scoring.canonical_mode import (
    ACTION_COMPONENTS,
    Printable,
    action_items,
    canonical_gold_view,
    canonical_view,
    score_canonical_views,
)

__all__ = ["action_diff"]


def _diff_rows(gold_items: Sequence[tuple[Hashable, Printable]],
               predicted_items: Sequence[tuple[Hashable, Printable]]) -> list[dict]:
    """Gold items in their order (matched or missing), then the predicted ones the gold lacks
    (extra); each side printed with its own names."""
    predicted: dict[Hashable, Printable] = {}
    for key, item in predicted_items:
        predicted.setdefault(key, item)
    rows, seen = [], set()
    for key, item in gold_items:
        if key in seen:
            continue
        seen.add(key)
        other = predicted.get(key)
        rows.append({"status": "matched" if other is not None else "missing",
                     "gold": item.to_pddl(),
                     "predicted": None if other is None else other.to_pddl()})
    for key, item in predicted.items():
        if key not in seen:
            rows.append({"status": "extra", "gold": None, "predicted": item.to_pddl()})
    return rows


_UNMAPPED_SHOWN = re.compile(r"(?<=[\s(])" + re.escape(UNMAPPED_PREFIX))


def action_diff(gold: str, predicted: str) -> dict:
    """Gold vs predicted domain, action by action, as canonical mode compares them.

    Actions are matched by name (case folded); inside an action, parameters by position and
    type, preconditions and effects after renaming variables to their parameter position, so
    ``(on ?x ?y)`` in the gold matches ``(on ?a ?b)`` in the prediction. Each row says whether
    the item is matched, missing (gold only) or extra (prediction only) and prints each side
    with its own names. The F1s are canonical mode's ``per_action`` scores.

    Returns ``{"ok": False, "reason": ...}`` when either domain does not parse.
    """
    gold_view = canonical_gold_view(gold)
    if gold_view.domain is None:
        return {"ok": False, "reason": f"the gold domain does not parse ({gold_view.error})",
                "actions": [], "predicates": []}
    predicted_view = canonical_view(predicted, prepared=False)
    if predicted_view.domain is None:
        return {"ok": False,
                "reason": f"the generated domain does not parse ({predicted_view.error})",
                "actions": [], "predicates": []}
    score = score_canonical_views(gold_view, predicted_view)
    alignment = score.alignment
    assert alignment is not None  # canonical scores of two parsed domains carry their alignment
    # Matched through the alignment, as canonical mode scores: the prediction's side is its
    # translation into the gold's vocabulary (variables keep the prediction's own names).
    translated = alignment.translate(predicted_view.domain)
    gold_actions = {a.name.lower(): a for a in gold_view.domain.actions}
    predicted_actions = {a.name.lower(): a for a in translated.actions}
    per_action = {(alignment.rename("actions", scores["predicted"]).lower()
                   if scores["status"] == "extra" else name): scores
                  for name, scores in score.per_action.items()}
    actions = []
    for name in list(gold_actions) + [n for n in predicted_actions if n not in gold_actions]:
        gold_action, predicted_action = gold_actions.get(name), predicted_actions.get(name)
        gold_items = action_items(gold_action) if gold_action else {}
        predicted_items = action_items(predicted_action) if predicted_action else {}
        scores = per_action[name]
        entry = {"name": gold_action.name if gold_action else scores["predicted"],
                 "status": scores["status"],
                 "predicted_name": scores.get("predicted"),
                 "f1": {component: scores[component] for component in ACTION_COMPONENTS}}
        for component in ACTION_COMPONENTS:
            entry[component] = _diff_rows(gold_items.get(component, []),
                                          predicted_items.get(component, []))
        actions.append(entry)

    def predicate_items(domain: Domain) -> list[tuple[tuple[str, tuple[str, ...]], Predicate]]:
        return [((p.name.lower(), tuple(x.type.lower() for x in p.parameters)), p)
                for p in domain.predicates]

    predicates = _diff_rows(predicate_items(gold_view.domain), predicate_items(translated))
    # A person reads the prediction's own names where nothing was mapped, not the prefix that
    # keeps them apart from the gold's.
    for row in [r for a in actions for c in ACTION_COMPONENTS for r in a[c]] + predicates:
        if row["predicted"] is not None:
            row["predicted"] = _UNMAPPED_SHOWN.sub("", row["predicted"])
    return {"ok": True, "reason": None, "actions": actions, "predicates": predicates,
            "alignment": alignment.to_dict()}
