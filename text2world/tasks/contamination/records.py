"""The records of a contamination probe (``t2w contamination``): what its solver logs per
domain (``ProbeItem``) and what its summary holds (``ProbeSummary``), on the engine's record
types (``engine.run_store``). JSON-shaped: read back as written, every key possibly missing
(``total=False``).

``probe_items`` and ``probe_summary`` say that records read through the engine (typed as any
run's) are a probe's, where the kind is known; never checked key by key."""

from __future__ import annotations

from typing import Any, Sequence, cast

from text2world.engine.run_store import ItemRecord, ModelCall, RunConfig, RunSummary


class ProbeConfig(RunConfig, total=False):
    """``config.json`` of a contamination run: the engine's keys (``engine.run_records.RunConfig``) and
    the task's own."""

    prefix_tokens: int
    prompt_tokens: int  # what runs before format version 2 called ``prefix_tokens``
    n: int
    max_mismatches: int


def probe_config(config: RunConfig) -> ProbeConfig:
    """The config of a contamination run, typed as its own (read through the engine as any run's)."""
    return cast(ProbeConfig, config)

class ProbeItem(ItemRecord, total=False):
    """One domain's log record (``task.ProbeTask.solve``): its one call, and the rate."""

    name: str
    split: str
    family: str  # a generated world's structural family (absent for the store's domains)
    prompt_chars: int  # the characters of the domain given as the prefix
    messages: list[dict[str, Any]]
    response: str
    reasoning: str | None
    continuation: str  # the answer, as compared with the rest of the domain
    rate: float
    contaminated: int  # gold tokens inside a matched n-gram (``overlap.Contamination``)
    counted: int  # gold tokens counted
    n: int
    max_mismatches: int
    attempts: int
    cached: bool
    finish_reason: str | None
    rounds: list[ModelCall]  # the one call: cached, cost


class ProbeSummary(RunSummary, total=False):
    """A probe's summary (``task.ProbeTask.summarize``/``finish``, and the engine's counts)."""

    split: str | None
    n: int
    max_mismatches: int
    prefix_tokens: int
    complete: bool
    mean_rate: float | None
    mean_rate_interval: dict[str, Any]
    median_rate: float | None
    domains_above_half: int
    above_half_interval: dict[str, Any]
    per_domain: list[dict[str, Any]]  # item, name, rate, contaminated, counted, n, ...
    most_contaminated: list[dict[str, Any]]  # with the matching spans, after ``finish``
    histogram: str | None  # the plot's file in the run folder


def probe_items(items: Sequence[ItemRecord]) -> Sequence[ProbeItem]:
    """The records of a contamination probe, typed as its own."""
    return cast("Sequence[ProbeItem]", items)


def probe_summary(summary: RunSummary) -> ProbeSummary:
    """The summary of a contamination probe, typed as its own."""
    return cast(ProbeSummary, summary)
