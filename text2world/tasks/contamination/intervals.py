"""The 95% interval of a contamination probe's mean rate over the probed domains."""

from __future__ import annotations

from typing import Sequence

from text2world.stats import bootstrap_mean
from text2world.tasks.contamination.records import ProbeItem


def probe_interval(items: Sequence[ProbeItem]) -> dict:
    """The mean contamination rate over the probed domains."""
    return bootstrap_mean([float(i["rate"]) for i in items
                           if isinstance(i.get("rate"), (int, float))]).as_dict()
