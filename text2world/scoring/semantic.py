"""Semantic scoring: does the predicted domain behave like the gold one on the gold's problems?

For each problem of the gold, the prediction (renamed into the gold's vocabulary by the
alignment) is simulated beside the gold:

- ``plan_validity``: the prediction's own plan is valid in the gold;
- ``gold_plan_acceptance``: the gold's plan is valid in the prediction;
- ``applicability_f1``: on states sampled along the gold plan and by seeded random walks in the
  gold (every reachable state when a problem has at most ``exhaustive_states``), F1 of the
  prediction's applicable ground actions against the gold's (pooled);
- ``transition_accuracy``: for the ground actions applicable in both, the share whose
  successors agree (on the gold's predicates).

Each disagreement is traced to a lifted precondition literal or effect of an action and
reported as a diagnosis with its count. The prediction runs on the gold's problems: objects keep
their names, an object's type becomes its nearest ancestor the prediction declares, atoms of
predicates the prediction lacks are dropped (and counted). Predicates only the prediction has
evolve in lockstep along each sampled trajectory.

The gold side (parsed problems, gold plans, sampled trajectories, applicable sets, successor
changes) is computed once per gold and cached, so scoring many predictions against one gold is
cheap; a prediction that, aligned, is the gold itself (a copy, a faithful renaming) is simulated
by those cached answers instead of a simulator of its own. Sample sizes and seeds are fixed by
``SemanticSettings`` and reported with every score. A prediction that cannot be simulated gets
``ok=False`` and a reason, never a zero.

Plans (the gold's and the prediction's own) come from ``planner_front``: greedy best-first
search in-process on the compiled simulator, Fast Downward when that search reaches its bounds
(the gold's, or a fifth of them for a prediction that is not the gold: ``PREDICTION_LIMITS``);
each problem's score names the planner that produced each plan.

Deterministic: every number rests on seeded sampling and work bounds (search nodes, the
simulator's ``max_work``), never on a clock. The clocks (``time_limit``, ``planner_timeout``,
the in-process search's CPU seconds) are safety nets; when one fires, the score's ``timeouts``
says which, since that score may not repeat.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Iterable, Sequence

from text2world.errors import Text2WorldError
from text2world.files import InputFileError, read_input_text
from text2world.pddl.model import Domain, parse_domain
from text2world.scoring.diagnosis import Diagnosis, lift
from text2world.scoring.semantic_alignment import (
    align_prediction,
    aligned_prediction,
    project_problem,
    without_unused_constants,
)
from text2world.scoring.semantic_gold import (
    GoldCache,
    error_reason,
    planner_inputs,
    prepare_gold,
    unparsed_reason,
)
from text2world.scoring.semantic_pair import PairScorer
from text2world.scoring.semantic_results import (
    METRICS,
    VERDICTS,
    GoldNotSimulated,
    ProblemScore,
    SemanticScore,
    SemanticSettings,
    SemanticTimeout,
)
from text2world.scoring.verdict import decide, qualify, uncertain_pairs, unmatched_parts
from text2world.simulation import SimulationError
from text2world.simulation.collector import collector_paused

if TYPE_CHECKING:
    from text2world.scoring.alignment import Alignment


def semantic_score(gold: str | Domain, predicted: str | Domain,
                   problems: Sequence[tuple[str, str]] | None = None, *,
                   gold_cache: GoldCache | None = None,
                   settings: SemanticSettings = SemanticSettings()) -> SemanticScore:
    """Score ``predicted`` against ``gold`` by behaviour on ``problems`` (``(name, text)``).

    Pass ``gold_cache`` (from ``prepare_gold``) to reuse the gold side; otherwise it is built
    (and cached) from ``gold`` and ``problems``. Never raises for a bad prediction: the score
    has ``ok=False`` and a reason.
    """
    with collector_paused():  # a pair allocates ~1M short-lived objects: see collector.py
        return _semantic_score(gold, predicted, problems, gold_cache, settings)


def settings_report(settings: SemanticSettings) -> dict:
    """The settings a score reports (``SemanticScore.settings``, before its counts)."""
    report = {"walks": settings.walks, "walk_length": settings.walk_length,
              "seed": settings.seed, "max_transitions": settings.max_transitions,
              "planner_timeout": settings.planner_timeout, "time_limit": settings.time_limit,
              "exhaustive_states": settings.exhaustive_states}
    if settings.prediction_planner_timeout is not None:
        report["prediction_planner_timeout"] = settings.prediction_planner_timeout
    return report


@dataclass(frozen=True)
class AlignedPrediction:
    """The prediction parsed and translated into the gold's vocabulary (``align_onto``)."""

    domain: Domain          # as parsed
    translated: Domain      # renamed onto the gold, unused constants left out
    alignment: Alignment
    mapping: dict
    note: str               # the constants left out, if any


def align_onto(cache: GoldCache, predicted: str | Domain, report: dict,
               started: float) -> AlignedPrediction | SemanticScore:
    """The prediction aligned onto the prepared gold, or the score that says why it cannot be
    (it does not parse, no alignment, no action maps onto the gold's)."""
    try:
        domain = predicted if isinstance(predicted, Domain) else parse_domain(predicted)
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        return SemanticScore(False, unparsed_reason("the prediction", predicted, err),
                             settings=report, seconds=time.perf_counter() - started)
    try:
        translated, alignment = aligned_prediction(cache.domain, domain)
        translated, unused = without_unused_constants(translated)
        mapping, note = alignment.to_dict(), ""
        if unused:
            note = "constants no action of the prediction uses are ignored: " + ", ".join(unused)
    except Exception as err:  # noqa: BLE001
        return SemanticScore(False, "no alignment of the prediction onto the gold: "
                             f"{error_reason(err)}",
                             settings=report, seconds=time.perf_counter() - started)
    gold_actions = {a.name for a in cache.domain.actions}
    if not gold_actions & {a.name for a in translated.actions}:
        return SemanticScore(False, "no alignment: none of the prediction's actions maps onto "
                             "an action of the gold", settings=report, alignment=mapping,
                             seconds=time.perf_counter() - started)
    return AlignedPrediction(domain, translated, alignment, mapping, note)


def gold_failed(err: Exception, report: dict, started: float) -> SemanticScore:
    """The score of a pair whose gold side cannot be prepared."""
    return SemanticScore(False, f"the gold cannot be simulated: {error_reason(err)}",
                         settings=report, seconds=time.perf_counter() - started)


def simulation_failed(reason: str, report: dict, mapping: dict | None, seconds: float,
                      planner_seconds: float, timeouts: Sequence[str]) -> SemanticScore:
    """The score of a pair whose prediction failed in a problem (``reason``: the error's)."""
    return SemanticScore(False, f"the prediction cannot be simulated: {reason}",
                         settings=report, alignment=mapping, seconds=seconds,
                         planner_seconds=planner_seconds, timeouts=tuple(timeouts))


def _semantic_score(gold: str | Domain, predicted: str | Domain,
                    problems: Sequence[tuple[str, str]] | None, gold_cache: GoldCache | None,
                    settings: SemanticSettings) -> SemanticScore:
    started = time.perf_counter()
    report = settings_report(settings)
    prediction_timeout = settings.prediction_planner_timeout
    try:
        cache = gold_cache or prepare_gold(gold, problems or (), settings)
    except Exception as err:  # noqa: BLE001 - the gold side: report, do not crash
        return gold_failed(err, report, started)
    aligned = align_onto(cache, predicted, report, started)
    if isinstance(aligned, SemanticScore):
        return aligned
    scorer = PairScorer(cache, aligned.translated, started, aligned.alignment, prediction_timeout)
    try:
        results = [scorer.problem(gold_problem) for gold_problem in cache.problems]
    except SimulationError as err:
        if isinstance(err, SemanticTimeout):
            scorer.timeouts.append(err.reason.removeprefix("timeout: "))
        return simulation_failed(err.reason, report, aligned.mapping,
                                 time.perf_counter() - started, scorer.planner_seconds,
                                 scorer.timeouts)
    score = aggregate(results, scorer.diagnoser.diagnoses(), scorer.planner_seconds,
                      scorer.timeouts, report, aligned.mapping,
                      tuple(n for n in (aligned.note, *cache.notes, *scorer.notes) if n),
                      time.perf_counter() - started)
    return with_verdict(score, aligned.alignment, cache.domain, aligned.domain)


def with_verdict(score: SemanticScore, alignment: Alignment, gold: Domain,
                 predicted: Domain) -> SemanticScore:
    """The verdict, the unmatched parts, and diagnoses qualified by the mapping's certainty."""
    return verdict_given(score, unmatched_parts(alignment, gold, predicted),
                         uncertain_pairs(alignment))


def verdict_given(score: SemanticScore, unmatched: tuple[str, ...],
                  uncertain: dict) -> SemanticScore:
    """``with_verdict`` from the alignment's unmatched parts and uncertain pairs."""
    diagnoses = qualify(score.diagnoses, uncertain)
    notes = score.notes
    if unmatched:
        notes += ("incomplete: parts of the gold have no counterpart in the prediction, so "
                  "the metrics cover only what could be matched",)
    return replace(score, diagnoses=diagnoses, notes=notes,
                   verdict=decide(score.metrics(), diagnoses, unmatched),
                   unmatched=unmatched, uncertain=tuple(sorted(uncertain.values())))


def aggregate(results: Sequence[ProblemScore], diagnoses: tuple[Diagnosis, ...],
              planner_seconds: float, timeouts: Sequence[str], report: dict,
              mapping: dict | None, notes: tuple[str, ...], seconds: float) -> SemanticScore:
    """The pair's score from its problems' (before the verdict)."""
    def mean(values: Iterable[bool | None]) -> float | None:
        known = [1.0 if v else 0.0 for v in values if v is not None]
        return sum(known) / len(known) if known else None

    tp = sum(r.true_positive for r in results)
    fp = sum(r.false_positive for r in results)
    fn = sum(r.false_negative for r in results)
    f1 = 1.0 if tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn)
    compared = sum(r.transitions for r in results)
    agreeing = sum(r.transitions_agreeing for r in results)
    report = dict(report, states=sum(r.states for r in results), transitions=compared,
                  problems=len(results))
    extra: tuple[str, ...] = ()
    if compared == 0:
        extra = ("transition_accuracy: no sampled action is applicable in both",)
    return SemanticScore(
        True, "", mean(r.plan_valid for r in results),
        mean(r.gold_plan_accepted for r in results), f1,
        agreeing / compared if compared else None, tuple(results),
        diagnoses, report, notes + extra, mapping, seconds,
        planner_seconds, timeouts=tuple(timeouts))


# --------------------------------------------------------------------------------------------
# Helpers for the command line, the evaluation loop and the API


class SemanticInputError(Text2WorldError, ValueError):
    """A gold or problem set the semantic scorer cannot be given (clear message)."""


def problems_from_dir(path: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """``(name, text)`` for every ``*.pddl`` file of a folder, sorted by name."""
    from pathlib import Path
    folder = Path(path)
    if not folder.is_dir():
        raise SemanticInputError(f"--problems {folder}: not a folder")
    files = sorted(folder.glob("*.pddl"))
    if not files:
        raise SemanticInputError(f"--problems {folder}: no *.pddl problem files")
    problems = []
    for file in files:
        try:
            problems.append((file.stem, read_input_text(file, "problem file")))
        except InputFileError as err:
            raise SemanticInputError(str(err)) from None
    return problems


def semantic_summary(score: SemanticScore, max_diagnoses: int = 10) -> dict:
    """The compact form kept per round in run logs and returned by default over the API."""
    return {"ok": score.ok, "verdict": score.verdict, "reason": score.reason,
            **score.metrics(), "unmatched": list(score.unmatched),
            "uncertain": list(score.uncertain),
            "diagnoses": [d.to_dict() for d in score.diagnoses[:max_diagnoses]],
            # Per problem: is the prediction's plan valid in the gold (else the failing step),
            # and does the prediction accept the gold's plan: what the viewer's item page shows.
            "problems": [{"name": p.name, "plan_valid": p.plan_valid,
                          "plan_reason": p.plan_reason[:500],
                          "gold_plan_accepted": p.gold_plan_accepted,
                          "gold_plan_reason": p.gold_plan_reason[:500]}
                         for p in score.problems],
            "settings": score.settings, "seconds": round(score.seconds, 3)}


def semantic_round(gold: str, text: str, problems: Sequence[tuple[str, str]]) -> dict:
    """``semantic_summary`` of one round's domain (picklable, for the evaluation's pool).
    Never raises: an unexpected failure is a round that could not be simulated."""
    return semantic_round_repeats(gold, text, problems)[0]


def semantic_round_repeats(gold: str, text: str,
                           problems: Sequence[tuple[str, str]]) -> tuple[dict, bool]:
    """``semantic_round``, and whether the same inputs give it again: not when a clock shaped
    the score (its ``timeouts``) or scoring failed unexpectedly (the evaluation keeps only
    results that repeat on disk: ``caching.ResultCache``)."""
    try:
        # tuple(p): problems that came through JSON as lists; each is still a (problem, plan) pair
        score = semantic_score(gold, text, [tuple(p) for p in problems])  # type: ignore[misc]
        return semantic_summary(score), not score.timeouts
    except Exception as err:  # noqa: BLE001 - one round must not stop a run
        return failed_round(err), False


def failed_round(err: BaseException) -> dict:
    """The summary of a round whose semantic scoring raised ``err`` (not simulated)."""
    return {"ok": False, "verdict": "not_simulated",
            "reason": f"semantic scoring failed: {type(err).__name__}: {err}",
            **dict.fromkeys(METRICS), "unmatched": [], "uncertain": [], "diagnoses": [],
            "settings": {}, "seconds": 0.0}


__all__ = ["GoldCache", "GoldNotSimulated", "METRICS", "VERDICTS", "ProblemScore",
           "SemanticInputError", "SemanticScore",
           "SemanticSettings", "SemanticTimeout", "align_prediction", "failed_round", "lift", "prepare_gold",
           "planner_inputs", "problems_from_dir", "project_problem", "semantic_round",
           "semantic_round_repeats", "semantic_score", "semantic_summary"]
