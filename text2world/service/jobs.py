"""Scoring jobs: plain functions on plain data, run in scoring processes (``service.scorer``).

Kept apart from ``api.app`` so that scoring processes import only the library, not the web
framework; below the tasks, so that the agent protocol's tools run them too.
"""

from __future__ import annotations

from text2world.errors import ApiError
from text2world.pddl.extract import NoDomainFound, extract_domain
from text2world.pddl.model import DomainInputError
from text2world.pddl.validation import validate
from text2world.scoring.metrics import ScoringError, score
from text2world.scoring.score_domain import score_domain
from text2world.service.error_codes import api_error

__all__ = ["batch_item_job", "gold_cache_info", "gold_problem_text", "score_job",
           "score_problem_job", "validate_job", "warm_gold_cache", "warm_up_process"]


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


def gold_problem_text(gold_problem: str, problems: list | tuple, gold_id: str | None,
                      surface_lister: str) -> tuple[str, str | None]:
    """The gold problem of ``POST /v1/score/problem`` and the MCP tool ``score_problem``:
    problem PDDL as is, or the problem of that name among a store gold's ``problems`` (name,
    pddl); with the name, or None for PDDL. An unknown name: 404 ``unknown_problem``."""
    if "(define" in gold_problem.lower():
        return gold_problem, None
    if gold_id is None:
        raise ApiError(422, "invalid_request", "'gold_problem' is a problem name only with "
                       "'gold_id' (a store domain); with 'gold_pddl' give the problem's PDDL")
    found = dict(problems).get(gold_problem.strip())
    if found is None:
        names = ", ".join(name for name, _ in problems) or "none"
        raise ApiError(404, "unknown_problem", f"domain {gold_id!r} has no problem "
                       f"{gold_problem!r:.80} (its problems: {names}; {surface_lister})")
    return found, gold_problem.strip()


def score_problem_job(task: dict) -> dict:
    """``POST /v1/score/problem`` and the MCP tool ``score_problem``: a problem answer
    (``response``) against the gold problem (``problem``) of ``domain``
    (``scoring.problem_answer``); a domain or gold problem that does not parse is a 422."""
    from text2world.scoring.problem_answer import ProblemComparisonError, score_problem_answer

    try:
        return score_problem_answer(task["domain"], task["problem"], task["response"]).to_dict()
    except ProblemComparisonError as err:
        raise api_error(err) from None


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
