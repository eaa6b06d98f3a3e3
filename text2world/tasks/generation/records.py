"""The records of a generation run (``t2w eval``): what its solver logs per sample
(``GenerationItem``, its rounds ``GenerationRound``) and what its summary holds
(``GenerationSummary``), on the engine's record types (``engine.run_store``). JSON-shaped: read
back from ``log.jsonl`` and ``summary.json`` as written, so every key may be missing
(``total=False``) in a record an older version wrote.

``generation_items`` (``generation_item``) and ``generation_summary`` say that records read through the engine (typed
as any run's) are a generation run's: where the kind is known (the task's own methods, the
generation reports), never checked key by key."""

from __future__ import annotations

from typing import Any, Mapping, Sequence, cast

from text2world.engine.run_store import ItemRecord, ModelCall, RunConfig, RunSummary


class GenerationConfig(RunConfig, total=False):
    """``config.json`` of a generation run: the engine's keys (``engine.run_records.RunConfig``) and
    the task's own."""

    correction_prompt: str
    correction_prompt_hash: str
    few_shot_examples: list[str]
    exemplars_evaluated: list[str]  # few-shot exemplars that are also evaluated items
    semantic: bool
    skipped_items: list[str]
    protocol: str
    feedback: str
    oracle_feedback: bool
    agent: bool
    tool_budget: int


def generation_config(config: RunConfig) -> GenerationConfig:
    """The config of a generation run, typed as its own (read through the engine as any run's)."""
    return cast(GenerationConfig, config)

class GenerationRound(ModelCall, total=False):
    """One round: the generation (round 0) or a correction, with its domain, validation and
    scores (``task.GenerationTask._round``, scores added by ``_record``)."""

    kind: str  # "generate", "correct", or "agent" (a tool-using episode as one round)
    domain: str  # extracted from the answer (the answer itself when it holds no domain)
    extracted: bool
    valid: bool
    validation: dict[str, Any]  # ok, warnings, errors (category, message, line, column, kind)
    category: str | None  # the first error's category (the paper's)
    error_text: str  # what the next correction prompt quotes
    # per mode, None where the gold cannot be scored; the whole None only until the round is
    # scored (``_record`` sets it before the item is logged)
    scores: dict[str, dict[str, Any] | None] | None
    score_errors: dict[str, str] | None
    semantic: dict[str, Any] | None  # ``scoring.semantic.semantic_round``
    feedback: dict[str, Any]  # the protocol's report (``feedback.py``) the next round acts on
    feedback_end: dict[str, Any]  # why the protocol stopped correcting
    transcript: list[dict[str, Any]]  # an agent's messages after the prompt


class GenerationItem(ItemRecord, total=False):
    """One item's log record (``task.GenerationTask._record``)."""

    name: str
    protocol: str
    tool_calls: int  # an agent's function calls, over its rounds
    split: str
    family: str  # a generated world's structural family (absent for the store's domains)
    valid: bool
    valid_round: int | None  # the round from which it stays valid
    rounds_used: int
    # per scoring mode (and "semantic"): the compact scores at EC_0 .. EC_k (the last round at or
    # before k), each a dict of metric -> value, or None where the gold cannot be scored
    ec: dict[str, list[Any]]
    rounds: list[GenerationRound]


class GenerationSummary(RunSummary, total=False):
    """A generation run's summary (``summary.summarize``, and the engine's counts)."""

    description: str | None
    prompt: str | None
    ec: int
    valid_at_round: list[int]  # items valid from round r on, per round
    protocol: str
    oracle_feedback: bool
    tool_calls: int
    feedback_rounds: int
    metrics: dict[str, list[dict[str, Any]]]  # mode -> per round: "round", "items", means
    intervals: dict[str, Any]  # mode -> "ec0"/"eck" -> metric -> [low, high]


def generation_items(items: Sequence[ItemRecord]) -> Sequence[GenerationItem]:
    """The records of a generation run, typed as its own."""
    return cast("Sequence[GenerationItem]", items)


def generation_item(item: ItemRecord) -> GenerationItem:
    """One record of a generation run, typed as its own."""
    return cast(GenerationItem, item)


def generation_summary(summary: RunSummary) -> GenerationSummary:
    """The summary of a generation run, typed as its own."""
    return cast(GenerationSummary, summary)


def config_ec(config: Mapping[str, Any]) -> int:
    """The correction rounds of a generation run (``--ec``: its last round is EC_k)."""
    return int(config.get("ec", 0))
