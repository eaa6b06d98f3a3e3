"""Scoring a generated domain against a gold domain.

Two modes:

* ``paper`` reproduces the released Text2World evaluator (``utils/evaluator.py``, ``utils/pddl.py``
  and the comment stripping of ``scripts/generate.py``) number for number, quirks included. Each
  quirk is marked ``QUIRK`` where it is reproduced.
* ``canonical`` scores what the paper means to score: it is invariant to the prediction's
  vocabulary (names are aligned with the gold's first, ``text2world.scoring.alignment``), to variable
  renaming, to conjunct order, duplicates and ``and`` nesting; scores every gold action on its own; lets
  extra predicted actions lower precision; compares predicates and parameters with their types.
"""

from __future__ import annotations

from dataclasses import replace

from text2world.pddl.bounds import line_column
from text2world.pddl.extract import NoDomainFound, dropped_definitions, extract_domain
from text2world.pddl.model import DomainInputError
from text2world.pddl.validation import Issue
from text2world.scoring.action_diff import action_diff
from text2world.scoring.canonical_mode import canonical_gold_view, canonical_view, score_canonical_views
from text2world.scoring.paper_mode import paper_gold_view, score_paper
from text2world.scoring.score_base import MODES, Mode, Score, ScoringError, remove_whitespace

__all__ = ["MODES", "Mode", "Score", "ScoringError", "action_diff", "remove_whitespace", "score",
           "score_answer", "truncation_issue", "with_truncation", "canonical_gold_view", "paper_gold_view"]


def score(gold: str, predicted: str, mode: Mode = "paper") -> Score:
    """Score a predicted domain text against a gold domain text."""
    for role, text in (("gold", gold), ("predicted", predicted)):
        if not isinstance(text, str):
            raise DomainInputError(f"the {role} domain must be text, not {type(text).__name__}")
    if mode == "paper":
        return with_truncation(score_paper(gold, predicted), predicted, predicted)
    if mode == "canonical":
        gold_view = canonical_gold_view(gold)  # looked up once: the caches count their hits
        result = score_canonical_views(gold_view, canonical_view(predicted, prepared=False))
        if gold_view.error is not None:
            result = replace(result, gold_executable=False, gold_errors=(gold_view.error,))
        return with_truncation(result, predicted, predicted)
    raise ValueError(f"unknown scoring mode {mode!r}; choose one of {', '.join(MODES)}")


def truncation_issue(source: str, domain: str) -> Issue | None:
    """An ``Issue`` (kind ``DroppedDefinitions``) when definitions after the domain's closing
    parenthesis in ``source`` were dropped (``extract.dropped_definitions``)."""
    found = dropped_definitions(source, domain)
    if found is None:
        return None
    message, end = found
    line, column = line_column(source, max(0, end - 1))
    return Issue("IncorrectParentheses", message, line, column, "DroppedDefinitions")


def with_truncation(result: Score, source: str, domain: str) -> Score:
    """The score with a ``truncation_issue`` among its errors, once (``source``: the answer or
    file the scored ``domain`` was extracted from)."""
    issue = truncation_issue(source, domain)
    if issue is None or any(e.kind == issue.kind for e in result.errors):
        return result
    return replace(result, errors=result.errors + (issue,))


def score_answer(gold: str, answer: str, mode: Mode = "paper") -> Score:
    """Score a raw model answer (prose, fences, ``<think>`` blocks) against a gold domain: the
    domain is extracted as the CLI and the API do (``extract_domain`` with this mode). An answer
    holding no PDDL scores as not executable, with a ``NoDomainFound`` error and similarity 0."""
    if not isinstance(answer, str):
        raise DomainInputError(f"the answer must be text, not {type(answer).__name__}")
    if mode not in MODES:
        raise ValueError(f"unknown scoring mode {mode!r}; choose one of {', '.join(MODES)}")
    try:
        predicted = extract_domain(answer, mode)
    except NoDomainFound as err:
        reference = score(gold, gold, mode)  # the gold's own status, from the cache
        return Score(mode, False, 0.0, 0.0, 0.0, 0.0, 0.0,
                     (Issue("UndefinedDomainName", str(err), kind="NoDomainFound"),),
                     f1_types=0.0 if mode == "canonical" else None,
                     gold_executable=reference.gold_executable,
                     gold_errors=reference.gold_errors)
    return with_truncation(score(gold, predicted, mode), answer, predicted)
