"""What every kind's run page (``t2w view``) shares: ``ViewError`` and the counts the page
shows. Each task's package owns its page (``tasks/<kind>/page.py``: ``overview(run, items)``),
found by ``tasks.registry.run_page``; ``reports.runview`` serves them with the item pages."""

from __future__ import annotations

from typing import Sequence

from text2world.engine.run_store import ItemRecord, Run
from text2world.engine.summary import run_counts
from text2world.errors import Text2WorldError


class ViewError(Text2WorldError, LookupError):
    """An item or round the run does not have; the message says what exists."""


def page_counts(run: Run, items: Sequence[ItemRecord]) -> dict:
    """The counts the run page shows (the engine's, ``run_counts``)."""
    counts = run_counts(run, items)
    return {key: counts[key] for key in ("label", "finished_items", "finished_samples",
                                         "planned_items", "epochs", "infrastructure_errors",
                                         "calls", "prompt_tokens", "completion_tokens", "cost")}
