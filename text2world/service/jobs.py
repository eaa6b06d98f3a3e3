"""Scoring jobs: plain functions on plain data, run in scoring processes (``service.scorer``).

Kept apart from ``api.app`` so that scoring processes import only the library, not the web
framework; below the tasks, so that the agent protocol's tools run them too.
"""

from __future__ import annotations

from text2world.pddl.extract import NoDomainFound, extract_domain
from text2world.pddl.model import DomainInputError
from text2world.pddl.validation import validate
from text2world.scoring.metrics import ScoringError, score
from text2world.scoring.score_domain import score_domain
from text2world.service.error_codes import api_error

__all__ = ["batch_item_job", "gold_cache_info", "score_job", "validate_job",
           "warm_gold_cache", "warm_up_process"]


# --------------------------------------------------------------------------------------------
# Scoring jobs: plain functions on plain data, so they can run in a child process


def _domain_of(task: dict) -> tuple[str, bool]:
    if task.get("response") is not None:
        try:
            return extract_domain(task["response"], task.get("mode", "canonical")), True
        except NoDomainFound as err:
            raise api_error(err) from None
    return task["pddl"], False


def validate_job(task: dict) -> dict:
    text, extracted = _domain_of(task)
    result = validate(text, fold_case=not task.get("exact_case", False))
    return {**result.to_dict(), "extracted": extracted}


def score_job(task: dict) -> dict:
    """``POST /v1/score`` and the MCP tool ``score_domain``: ``scoring.score_domain`` with the
    validation and, when asked, the semantic score (without ``gold``, which the caller adds)."""
    answer = task.get("response")
    try:
        result = score_domain(task["gold"], task["pddl"] if answer is None else answer,
                              mode=task["mode"], answer="domain" if answer is None else "answer",
                              semantic=bool(task.get("semantic")),
                              problems=task.get("problems") or ())
    except (NoDomainFound, ScoringError, DomainInputError) as err:
        raise api_error(err) from None
    return result.to_dict()


def batch_item_job(task: dict) -> dict:
    """One line of ``POST /v1/score/batch``: ``batch_scoring.score_task`` (every score, the reward
    of ``task["metric"]``, the verdict and the reason)."""
    from text2world.batch_scoring import score_task

    return score_task(task["line"], task["metric"], task["limit"])


_TINY_DOMAIN = ("(define (domain ready) (:requirements :strips) (:predicates (p))\n"
                "  (:action flip :parameters () :precondition (p) :effect (not (p))))")


def warm_up_process() -> None:
    # Import the parser and run every code path once, so a job's time limit never pays for it.
    validate(_TINY_DOMAIN)
    for mode in ("paper", "canonical"):
        score(_TINY_DOMAIN, _TINY_DOMAIN, mode=mode)


def warm_gold_cache(golds: tuple[str, ...]) -> None:
    """Parse gold domains into every gold cache of the library (``text2world.scoring.caching``)."""
    from text2world.scoring.caching import ALL_TEXT_CACHES

    for gold in golds:
        for cache in ALL_TEXT_CACHES:
            try:
                cache(gold)
            except Exception:  # noqa: BLE001 - a gold that cannot be scored is reported per request
                pass


def gold_cache_info(_: object = None) -> dict:
    """Counters of this process's gold-parse caches (text2world.scoring.metrics), for diagnostics."""
    from text2world.scoring import metrics

    return {mode: metrics_cache.cache_info()._asdict() for mode, metrics_cache in
            (("paper", metrics.paper_gold_view), ("canonical", metrics.canonical_gold_view))}
