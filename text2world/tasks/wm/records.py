"""The records of a world-model run (``t2w wm``): what its solver logs per sample (``WmItem``,
its calls ``WmCall``) and what its summary holds (``WmSummary``), on the engine's record types
(``engine.run_store``). JSON-shaped: read back as written, every key possibly missing
(``total=False``). The items a run is built from (``items.py``) are other objects.

``wm_items`` and ``wm_summary`` say that records read through the engine (typed as any run's)
are a world-model run's, where the kind is known; never checked key by key."""

from __future__ import annotations

from typing import Any, Sequence, cast

from text2world.engine.run_store import ItemRecord, ModelCall, RunConfig, RunSummary


class WmConfig(RunConfig, total=False):
    """``config.json`` of a world-model run: the engine's keys (``engine.run_records.RunConfig``) and
    the task's own."""

    task: str
    size: str
    rules: str
    render: str
    form: str
    rhos: list[float]
    k: int | None
    slack: float
    per_k: bool
    illegal_share: float
    problems_per_domain: int | None
    off_plan_share: float
    static_share: float
    examples: int
    items_hash: str
    skipped_problems: list[str]


def wm_config(config: RunConfig) -> WmConfig:
    """The config of a world-model run, typed as its own (read through the engine as any run's)."""
    return cast(WmConfig, config)

class WmCall(ModelCall, total=False):
    """One call: its first has ``messages``, later ones the prompt from the current state on."""

    prompt_tail: str


class WmItem(ItemRecord, total=False):
    """One item's log record (``task.WmTask.solve``)."""

    task: str  # next-state, verify, verify-rollout, propose, plan
    domain: str
    family: str  # the domain's structural family, for a generated world (else absent)
    problem: str
    rho: float
    prefix: int  # plan steps run in the true simulator first
    plan_length: int
    origin: str  # next-state: "on-plan" or "off-plan"
    answer: Any  # the parsed answer (None: a format error)
    format_error: str | None
    metrics: dict[str, Any]  # the task's scores of the answer (``metrics.py``)
    baselines: dict[str, dict[str, Any]]  # trivial strategy -> its metrics on the item
    truth: dict[str, Any]  # the item's true answer (``task.TRUTH_KEYS``)
    calls: list[WmCall]


class WmSummary(RunSummary, total=False):
    """A world-model run's summary (``task.WmTask.summarize``, and the engine's counts)."""

    task: str | None
    protocol: str
    size: str | None
    mystery: bool
    rules: str | None
    form: str | None
    render: str | None
    metrics: dict[str, Any]  # group -> key -> aggregate (``metrics.summarize_items``)
    intervals: dict[str, dict[str, Any]]  # metric -> 95% interval of the overall mean


def wm_items(items: Sequence[ItemRecord]) -> Sequence[WmItem]:
    """The records of a world-model run, typed as its own."""
    return cast("Sequence[WmItem]", items)


def wm_summary(summary: RunSummary) -> WmSummary:
    """The summary of a world-model run, typed as its own."""
    return cast(WmSummary, summary)
