"""The records of a problem run (``t2w eval --task problem``): what its solver logs per item
(``ProblemItem``, its rounds ``ProblemRound``) and what its summary holds
(``ProblemSummary``), on the engine's record types. JSON-shaped: read back as written, every
key possibly missing (``total=False``)."""

from __future__ import annotations

from typing import Any, Sequence, cast

from text2world.engine.run_store import ItemRecord, ModelCall, RunConfig, RunSummary


class ProblemConfig(RunConfig, total=False):
    """``config.json`` of a problem run: the engine's keys (``engine.run_records.RunConfig``) and
    the task's own."""

    size: str  # easy (the store's problems), hard (generated ones) or both


def problem_config(config: RunConfig) -> ProblemConfig:
    """The config of a problem run, typed as its own (read through the engine as any run's)."""
    return cast(ProblemConfig, config)

class ProblemRound(ModelCall, total=False):
    """One round: the call, the problem found in its answer, its verdict and the feedback."""

    problem: str  # the problem extracted from the answer ("" when none)
    verdict: dict[str, Any]  # ProblemVerdict.to_dict(), with "extracted"
    findings: list[str]  # the validator's findings (empty: the loop ended)
    feedback: str  # what the next round was told


class ProblemItem(ItemRecord, total=False):
    """One problem item's log record (``task.ProblemTask.solve``)."""

    domain: str  # the store domain (record id)
    problem: str  # the gold problem's name
    size: str  # easy (the store's problems) or hard (generated ones)
    style: str  # explicit or abstract
    description: str
    ec: dict[str, list[float]]  # metric -> value at EC_0 .. EC_k (an open answer: 0)
    rule: str | None  # what decided equivalence in the last round
    counterexample: dict[str, Any] | None  # the last round's
    equivalent_open: bool  # the last round parses and a bound left equivalence open
    floors: dict[str, dict[str, Any]]  # trivial strategy -> its verdict on this item
    valid_round: int | None  # the first round whose problem parses and is not unsolvable
    rounds_used: int
    rounds: list[ProblemRound]


class ProblemSummary(RunSummary, total=False):
    """A problem run's summary (``task.ProblemTask.summarize``, and the engine's counts)."""

    style: str
    size: str
    ec: int
    per_round: list[dict[str, Any]]  # round -> metric -> Interval dict
    floors: dict[str, dict[str, Any]]  # strategy -> metric -> Interval dict
    rules: dict[str, int]  # the last round's rule -> items
    undecided: int  # items whose last verdict a bound left open
    solvable_not_equivalent: int  # items (and epochs) whose last problem is
    failures: list[dict[str, Any]]  # the first of them: item, rule, counterexample


def problem_items(items: Sequence[ItemRecord]) -> Sequence[ProblemItem]:
    """The records of a problem run, typed as its own."""
    return cast("Sequence[ProblemItem]", items)


def problem_summary(summary: RunSummary) -> ProblemSummary:
    """The summary of a problem run, typed as its own."""
    return cast(ProblemSummary, summary)
