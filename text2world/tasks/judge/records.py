"""The records of a judge run (``t2w judge``): what its solver logs per item (``JudgeItem``)
and what its summary holds (``JudgeSummary``), on the engine's record types
(``engine.run_store``). JSON-shaped: read back as written, every key possibly missing
(``total=False``).

``judge_items`` and ``judge_summary`` say that records read through the engine (typed as any
run's) are a judge run's, where the kind is known; never checked key by key."""

from __future__ import annotations

from typing import Any, Sequence, cast

from text2world.engine.run_store import ItemRecord, ModelCall, RunConfig, RunSummary


class JudgeConfig(RunConfig, total=False):
    """``config.json`` of a judge run: the engine's keys (``engine.run_records.RunConfig``) and
    the task's own."""

    source_run: str
    source_path: str
    source_model: str | None
    source_description: str | None
    prompt_source: str
    excluded_items: dict[str, str]  # item -> why it was not judged


def judge_config(config: RunConfig) -> JudgeConfig:
    """The config of a judge run, typed as its own (read through the engine as any run's)."""
    return cast(JudgeConfig, config)

class JudgeItem(ItemRecord, total=False):
    """One judged item's log record (``task.JudgeTask.solve``): its one call, the rating."""

    name: str | None
    round: int  # the judged round of the source run's item (its last)
    verdict: str  # our semantic verdict of it
    ours: str  # that verdict as a label: "same" or "different"
    counterexample: str
    messages: list[dict[str, Any]]
    response: str
    reasoning: str | None
    rating: int | None  # the judge's 1..5 (None: unparsed)
    judge: str | None  # the rating as a label (None: unparsed)
    attempts: int
    cached: bool
    finish_reason: str | None
    rounds: list[ModelCall]  # the one call: cached, cost


class JudgeSummary(RunSummary, total=False):
    """A judge run's summary (``task.JudgeTask.summarize``, and the engine's counts)."""

    source_run: str | None
    source_model: str | None
    kappa: dict[str, Any]  # Cohen's kappa with its 95% interval
    confusion: dict[str, dict[str, int]]  # ours -> judge -> count
    accuracy: float | None
    judged: int
    items: int
    unparsed: int
    ours_same: float | None
    disagreements: list[dict[str, Any]]
    unparsed_items: list[str]
    excluded_items: dict[str, str]
    reference: dict[str, dict[str, Any]]  # each reference judge's kappa and accuracy
    paper_kappa: dict[str, Any]


def judge_items(items: Sequence[ItemRecord]) -> Sequence[JudgeItem]:
    """The records of a judge run, typed as its own."""
    return cast("Sequence[JudgeItem]", items)


def judge_summary(summary: RunSummary) -> JudgeSummary:
    """The summary of a judge run, typed as its own."""
    return cast(JudgeSummary, summary)
