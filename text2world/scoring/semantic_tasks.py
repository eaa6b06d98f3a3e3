"""Semantic scoring cut into tasks of one gold problem each, scheduled longest first.

A pair's problems are independent (each has its own simulator, plans and seeded sample; the
diagnoses are counts, summed), so a pool can score them as separate tasks: with whole pairs
as tasks, a pool's workers idle at the end of a batch while a few pairs run Fast Downward
for seconds on each of their problems; with problems as tasks the tail is one problem.

``problem_tasks`` cuts pairs into ``ProblemTask`` s (plain data: any process runs them),
``score_problem`` scores one (the gold side of that problem alone:
``semantic_gold.prepare_gold_problem``), and ``merge_parts`` puts a pair's parts back
together into the ``SemanticScore`` that ``semantic_score`` gives, to the byte (test:
tests/scoring/test_semantic_tasks.py) but for the wall-clock fields (``seconds``,
``planner_seconds``). One difference: the pair's ``time_limit``, a safety net, bounds each
problem's task instead of the pair.

``lpt_order`` sorts tasks longest expected first (``expected_costs``: the CPU the gold's own
preparation of each problem took, measured by ``prepare_gold``; one not measured yet first),
the classic LPT rule whose makespan is within 4/3 of the best, and the one rule of every pool
(``t2w eval``'s, ``score-batch``'s local pool and Ray's); ``lpt_makespan`` replays task
times through that rule for any number of workers (the prediction bench/scaling_bench.py
prints).
"""

from __future__ import annotations

import heapq
import time
from collections import Counter, OrderedDict
from dataclasses import dataclass, field
from typing import Sequence

from text2world.scoring.diagnosis import diagnoses_of
from text2world.scoring.semantic import (
    AlignedPrediction,
    aggregate,
    align_onto,
    failed_round,
    gold_failed,
    semantic_summary,
    settings_report,
    simulation_failed,
    verdict_given,
)
from text2world.scoring.semantic_gold import GoldCache, prepare_gold, prepare_gold_problem
from text2world.scoring.semantic_pair import PairScorer
from text2world.scoring.semantic_results import (
    GOLD_SIDE,
    ProblemScore,
    SemanticScore,
    SemanticSettings,
    SemanticTimeout,
)
from text2world.scoring.verdict import uncertain_pairs, unmatched_parts
from text2world.simulation import SimulationError
from text2world.simulation.collector import collector_paused


@dataclass(frozen=True)
class ProblemTask:
    """Problem ``index`` of pair ``pair``: gold and prediction texts, the gold's problems."""

    pair: int
    index: int
    gold: str
    predicted: str
    problems: tuple[tuple[str, str], ...]
    settings: SemanticSettings = SemanticSettings()


@dataclass
class ProblemPart:
    """What one task found, to be merged with the pair's other parts (plain data)."""

    pair: int
    index: int
    gold_error: SemanticScore | None = None  # the gold side of this problem failed
    early: SemanticScore | None = None       # the prediction does not parse or align
    score: ProblemScore | None = None
    error: str = ""                           # the prediction failed in this problem
    gold_timeouts: list[str] = field(default_factory=list)
    timeouts: list[str] = field(default_factory=list)  # the prediction's side, in order
    gold_notes: tuple[str, ...] = ()
    notes: list[str] = field(default_factory=list)
    counts: Counter = field(default_factory=Counter)  # the diagnoser's
    planner_seconds: float = 0.0
    seconds: float = 0.0
    mapping: dict | None = None
    note: str = ""
    unmatched: tuple[str, ...] = ()
    uncertain: dict = field(default_factory=dict)
    report: dict = field(default_factory=dict)
    # the CPU its gold problem's preparation took (``GoldProblem.cost``): what the next task
    # on this problem is expected to cost, for a scheduler that keeps it (never in a score)
    gold_cost: float = 0.0
    clock: float = 0.0  # what the pair's clock (``SemanticSettings.time_limit``) counted here
    # answers Fast Downward's CPU limit shaped, when the caller records them
    # (``planning.front.recording_clocked``): a rescoring of the whole pair in another process
    # gets them without planning again (never in a score)
    clocked: list = field(default_factory=list)


def problem_tasks(pairs: Sequence[tuple[str, str, Sequence[tuple[str, str]]]],
                  settings: SemanticSettings = SemanticSettings()) -> list[ProblemTask]:
    """One task per problem of each ``(gold, prediction, problems)`` pair, in pair order; a
    pair without problems gets one task (index 0), which reports the gold's error."""
    tasks = []
    for number, (gold, predicted, problems) in enumerate(pairs):
        problems = tuple((str(name), str(text)) for name, text in problems)
        for index in range(max(1, len(problems))):
            tasks.append(ProblemTask(number, index, gold, predicted, problems, settings))
    return tasks


def score_problem(task: ProblemTask) -> ProblemPart:
    """Score one problem of a pair (never raises for bad input: the part says what failed)."""
    with collector_paused():
        return _score_problem(task)


def _score_problem(task: ProblemTask) -> ProblemPart:
    started = time.perf_counter()
    report = settings_report(task.settings)
    part = ProblemPart(task.pair, task.index, report=report)
    try:
        if not task.problems:
            prepare_gold(task.gold, (), task.settings)  # raises the gold's error
        cache = prepare_gold_problem(task.gold, task.problems, task.index, task.settings)
    except Exception as err:  # noqa: BLE001 - the gold side: report, do not crash
        part.gold_error = gold_failed(err, report, started)
        return part
    (gold,) = cache.problems
    part.gold_notes, part.gold_cost = cache.notes, gold.cost
    if gold.timeout:
        part.gold_timeouts.append(f"{GOLD_SIDE} of problem {gold.name}: {gold.timeout}")
    aligned = _aligned(task, cache, report, started)
    if not isinstance(aligned, AlignedPrediction):
        part.early = aligned
        return part
    part.mapping, part.note = aligned.mapping, aligned.note
    part.unmatched = unmatched_parts(aligned.alignment, cache.domain, aligned.domain)
    part.uncertain = uncertain_pairs(aligned.alignment)
    scorer = PairScorer(cache, aligned.translated, started, aligned.alignment,
                        task.settings.prediction_planner_timeout)
    del scorer.timeouts[:]  # the gold side's: kept apart (merged first, as a pair orders them)
    try:
        part.score = scorer.problem(gold)
    except SimulationError as err:
        part.error = err.reason
        if isinstance(err, SemanticTimeout):
            scorer.timeouts.append(err.reason.removeprefix("timeout: "))
    part.timeouts, part.notes = scorer.timeouts, scorer.notes
    part.counts = scorer.diagnoser.counts
    part.planner_seconds = scorer.planner_seconds
    part.clock = scorer.elapsed()
    part.seconds = time.perf_counter() - started
    return part


# The alignment of a prediction onto its gold, by (gold, prediction, settings): each task of a pair
# needs it and it costs about as much as scoring a small problem, so a worker that gets
# several problems of one pair aligns once. Deterministic, so a remembered one is the same.
_ALIGNED: OrderedDict[tuple, AlignedPrediction | SemanticScore] = OrderedDict()
_ALIGNED_SIZE = 256


def _aligned(task: ProblemTask, cache: GoldCache, report: dict,
             started: float) -> AlignedPrediction | SemanticScore:
    key = (task.gold, task.predicted, task.settings)
    found = _ALIGNED.get(key)
    if found is None:
        found = _ALIGNED[key] = align_onto(cache, task.predicted, report, started)
        while len(_ALIGNED) > _ALIGNED_SIZE:
            _ALIGNED.popitem(last=False)
    else:
        _ALIGNED.move_to_end(key)
    return found


def merge_parts(parts: Sequence[ProblemPart]) -> SemanticScore:
    """One pair's score from all its parts (any order): what ``semantic_score`` returns."""
    parts = sorted(parts, key=lambda part: part.index)
    seconds = sum(part.seconds for part in parts)
    for part in parts:  # the whole gold is prepared before the prediction is looked at
        if part.gold_error is not None:
            return part.gold_error
    first = parts[0]
    if first.early is not None:
        return first.early
    timeouts = [note for part in parts for note in part.gold_timeouts]
    results: list[ProblemScore] = []
    planner_seconds = 0.0
    for part in parts:  # a pair stops at its first failing problem
        timeouts += part.timeouts
        planner_seconds += part.planner_seconds
        if part.error:
            return simulation_failed(part.error, first.report, first.mapping, seconds,
                                     planner_seconds, timeouts)
        assert part.score is not None
        results.append(part.score)
    counts: Counter = Counter()
    for part in parts:
        counts.update(part.counts)
    notes = (first.note, *(n for part in parts for n in part.gold_notes),
             *(n for part in parts for n in part.notes))
    score = aggregate(results, diagnoses_of(counts), planner_seconds, timeouts, first.report,
                      first.mapping, tuple(n for n in notes if n), seconds)
    return verdict_given(score, first.unmatched, first.uncertain)


def merge_all(parts: Sequence[ProblemPart]) -> list[SemanticScore]:
    """Every pair's score, in pair order, from the parts of a batch (any order)."""
    by_pair: dict[int, list[ProblemPart]] = {}
    for part in parts:
        by_pair.setdefault(part.pair, []).append(part)
    return [merge_parts(by_pair[pair]) for pair in sorted(by_pair)]


def round_of_parts(parts: Sequence[ProblemPart | BaseException]) -> tuple[dict, bool]:
    """What ``semantic.semantic_round_repeats`` answers for a pair (its summary, whether it
    repeats), from all its parts, or from the errors that tasks raised instead of a part
    (the first, in problem order, is the round's failure, as the unsplit pair reports it)."""
    for found in parts:
        if isinstance(found, BaseException):
            return failed_round(found), False
    try:
        score = merge_parts([part for part in parts if isinstance(part, ProblemPart)])
        return semantic_summary(score), not score.timeouts
    except Exception as err:  # noqa: BLE001 - one round must not stop a run
        return failed_round(err), False


def expected_costs(tasks: Sequence[ProblemTask]) -> list[float]:
    """Each task's expected CPU: what preparing its gold problem cost (``prepare_gold``
    measures it; the gold is prepared here when this process does not hold it yet, which
    the scoring would do anyway). A gold that cannot be prepared costs 0."""
    costs = []
    for task in tasks:
        try:
            cache = prepare_gold(task.gold, task.problems, task.settings)
            costs.append(cache.problems[task.index].cost)
        except Exception:  # noqa: BLE001 - scoring reports the gold's error
            costs.append(0.0)
    return costs


def task_sizes(tasks: Sequence[ProblemTask]) -> list[int]:
    """Each task's problem size (its text's length): ``lpt_order``'s second factor."""
    return [len(task.problems[task.index][1]) if task.problems else 0 for task in tasks]


def lpt_order(costs: Sequence[float | None], sizes: Sequence[int] | None = None) -> list[int]:
    """Task indices longest expected first: the one scheduling rule of every pool that runs
    ``ProblemTask`` s. A cost not known yet (None: its gold problem not measured, its
    preparation still to pay) comes first, the larger ``sizes`` (the problem's text) first
    among those; the others by their cost times their problem's size, then input order.

    Why the size: the gold's preparation finds its plan at once, but a broken answer's
    planner searches a space that grows with the problem, which the gold's cost does not
    show (the ten longest tasks of bench/scaling_bench.py's 1,000 answers, 6 to 14 CPU-s, had
    gold costs of 8 to 16 ms, the median's). Ranked by cost x size, the replayed 16-worker
    efficiency of that batch is 0.86 (0.69 with ``--seed 1``); by the cost alone 0.73 (0.65):
    docs/benchmarks-speed.md."""
    def key(index: int) -> tuple:
        cost, size = costs[index], (sizes[index] if sizes else 1)
        return (cost is not None, -(cost or 0.0) * size, -size, index)

    return sorted(range(len(costs)), key=key)


def lpt_makespan(durations: Sequence[float], workers: int,
                 order: Sequence[int] | None = None) -> float:
    """The makespan of ``durations`` on ``workers`` when each task, in ``order`` (default:
    longest first), goes to the first worker free: what a pool fed in that order reaches."""
    if not durations:
        return 0.0
    free = [0.0] * max(1, workers)
    for index in (lpt_order(durations) if order is None else order):
        heapq.heappush(free, heapq.heappop(free) + durations[index])
    return max(free)


__all__ = ["ProblemPart", "ProblemTask", "expected_costs", "lpt_makespan", "lpt_order", "task_sizes",
           "merge_all", "merge_parts", "problem_tasks", "round_of_parts", "score_problem"]
