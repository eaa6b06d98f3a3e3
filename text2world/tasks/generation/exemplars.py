"""Few-shot exemplars that are also evaluated items: their gold is in the prompt.

A few-shot prompt shows two train domains with their gold PDDL. An item that is one of them
is answered with its own answer in view, so its scores measure copying, not generation: a run
refuses such items unless asked for explicitly (``t2w eval --allow-exemplar-items``), and
records which items were exemplars when it is.
"""

from __future__ import annotations

from collections.abc import Iterable

ALLOW_FLAG = "--allow-exemplar-items"


def evaluated_exemplars(item_ids: Iterable[str], exemplar_ids: Iterable[str]) -> list[str]:
    """The exemplars that are also evaluated items, in the exemplars' order."""
    items = set(item_ids)
    return [exemplar for exemplar in exemplar_ids if exemplar in items]


def exemplar_overlap_message(overlap: list[str]) -> str:
    """Why a run with ``overlap`` is refused, and the two ways on."""
    several = len(overlap) > 1
    return (f"the few-shot exemplar{'s' if several else ''} {', '.join(overlap)} "
            f"{'are' if several else 'is'} also selected for evaluation: "
            f"{'their' if several else 'its'} gold domain would be in the prompt. Leave "
            f"{'them' if several else 'it'} out of --domains (the test split holds no "
            f"exemplar), or pass {ALLOW_FLAG} to score {'them' if several else 'it'} anyway "
            "(the run records which items were exemplars)")
