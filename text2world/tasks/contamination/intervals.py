"""The 95% interval of a contamination probe's mean rate over the probed domains."""

from __future__ import annotations

from text2world.stats import bootstrap_mean


def probe_interval(items: list[dict]) -> dict:
    """The mean contamination rate over the probed domains."""
    return bootstrap_mean([float(i["rate"]) for i in items
                           if isinstance(i.get("rate"), (int, float))]).as_dict()
