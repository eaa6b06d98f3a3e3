"""Scoring jobs: plain functions on plain data, run in scoring processes (``api.scorer``).

Kept apart from ``api.app`` so that scoring processes import only the library, not the web
framework.
"""

from __future__ import annotations

from text2world.errors import ApiError
from text2world.pddl.extract import NoDomainFound, extract_domain
from text2world.pddl.model import DomainInputError
from text2world.pddl.validation import validate
from text2world.scoring.metrics import ScoringError, score, with_truncation

# --------------------------------------------------------------------------------------------
# Scoring jobs: plain functions on plain data, so they can run in a child process


def _domain_of(task: dict) -> tuple[str, bool]:
    if task.get("response") is not None:
        try:
            return extract_domain(task["response"], task.get("mode", "canonical")), True
        except NoDomainFound as err:
            raise ApiError(422, "no_domain_found", f"response: {err}") from None
    return task["pddl"], False


def validate_job(task: dict) -> dict:
    text, extracted = _domain_of(task)
    result = validate(text, fold_case=not task.get("exact_case", False))
    return {**result.to_dict(), "extracted": extracted}


def score_job(task: dict) -> dict:
    text, extracted = _domain_of(task)
    try:
        result = score(task["gold"], text, mode=task["mode"])
    except ScoringError as err:
        raise ApiError(422, "unscorable", f"the pair cannot be scored: {err}") from None
    except DomainInputError as err:
        raise ApiError(422, "invalid_domain", f"gold domain: {err.message}") from None
    if extracted:  # definitions a stray ')' cut off from the answer are an error
        result = with_truncation(result, task["response"], text)
    checked = validate(text)
    semantic = None
    if task.get("semantic"):
        from text2world.scoring.semantic import semantic_score
        semantic = semantic_score(task["gold"], text, task.get("problems") or ()).to_dict()
    scored = result.to_dict(details=True)
    validation = {**checked.to_dict(), "extracted": extracted}
    if validation["errors"] != scored["errors"]:
        # One list of errors per answer: definitions a stray ')' cut off are an error of every
        # score (a warning of /v1/validate), so the validation block lists them as errors too.
        listed = {(e["kind"], e["message"]) for e in scored["errors"]}
        validation.update(ok=not scored["errors"], errors=scored["errors"],
                          warnings=[w for w in validation["warnings"]
                                    if (w["kind"], w["message"]) not in listed])
    return {**scored, "validation": validation, "semantic": semantic}


def batch_item_job(task: dict) -> dict:
    """One line of ``POST /v1/score/batch``: ``scoring.batch.score_task`` (every score, the reward
    of ``task["metric"]``, the verdict and the reason)."""
    from text2world.scoring.batch import score_task

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
