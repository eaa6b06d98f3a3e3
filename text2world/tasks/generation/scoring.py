"""One round of the generation loop, scored: extraction, validation and scores in each mode
(what ``t2w eval`` runs in its worker processes for every round). Re-scoring a finished run:
``rescore``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from text2world.pddl.extract import NoDomainFound, extract_domain, strip_reasoning
from text2world.scoring.score_base import METRICS, MODES
from text2world.tasks.generation.summary import NO_PDDL

if TYPE_CHECKING:
    from text2world.scoring.score_base import Mode as ScoreMode

# --------------------------------------------------------------------------------------------
# Validation and scoring of one round (runs in worker processes)


def validate_round(text: str, extraction_error: str | None) -> dict:
    """The validation of a round's domain (what decides whether to correct it)."""
    from text2world.pddl.validation import validate

    if extraction_error is not None:
        return {"ok": False, "warnings": [], "errors": [{
            "category": "Other", "message": extraction_error, "line": None, "column": None,
            "kind": NO_PDDL}]}
    return validate(text).to_dict()


def score_round(gold: str, text: str, modes: tuple[str, ...] = MODES,
                problems: tuple = (), response: str | None = None) -> dict:
    """Scores of a round's domain against the gold in each mode, and why any is missing;
    with ``problems`` (``(name, pddl)``) also its semantic scores (``semantic``).

    ``text`` is the domain extracted from the answer (canonical rule: the domain block); with
    the raw ``response``, paper mode scores what the released code extracts from it instead
    (the longest pddl block, which may be a problem or hold one: see ``extract``).

    ``score`` reports any text that is not a domain (empty, binary, huge) as not executable;
    it raises only for a gold it cannot score."""
    return score_round_repeats(gold, text, modes, problems, response)[0]


def score_round_repeats(gold: str, text: str, modes: tuple[str, ...] = MODES,
                        problems: tuple = (), response: str | None = None) -> tuple[dict, bool]:
    """``score_round``, and whether the same inputs give it again (what ``t2w eval`` keeps on
    disk): the paper and canonical scores always do; the semantic one unless a clock shaped it
    (``semantic.semantic_round_repeats``)."""
    from text2world.scoring.metrics import ScoringError, score, with_truncation

    scores: dict[str, dict | None] = {}
    score_errors: dict[str, str] = {}
    for mode in modes:
        scored = text
        if mode == "paper" and response is not None:
            scored = extract_round_domain(response, "paper")[0]
        try:
            result = score(gold, scored, mode=cast("ScoreMode", mode))
            if response is not None:  # definitions a stray ')' cut off are an error
                result = with_truncation(result, response, scored)
            scores[mode] = result.to_dict()
        except ScoringError as err:  # the gold cannot be scored: no result, as released
            scores[mode] = None
            score_errors[mode] = str(err)
    analysis: dict[str, Any] = {"scores": scores, "score_errors": score_errors}
    repeats = True
    if problems:
        from text2world.scoring.semantic import semantic_round_repeats
        analysis["semantic"], repeats = semantic_round_repeats(gold, text, problems)
    return analysis, repeats


def validate_round_repeats(text: str, extraction_error: str | None) -> tuple[dict, bool]:
    """``validate_round``, and that the same inputs give it again (always: no clock shapes a
    validation), as ``score_round_repeats`` answers."""
    return validate_round(text, extraction_error), True


def analyze_round(gold: str, text: str, extraction_error: str | None,
                  modes: tuple[str, ...] = MODES, problems: tuple = (),
                  response: str | None = None) -> dict:
    """Validate a round's domain and score it against the gold in each mode."""
    return {"validation": validate_round(text, extraction_error),
            **score_round(gold, text, modes, problems, response)}


def compact_score(data: dict | None) -> dict | None:
    if data is None:
        return None
    keep = METRICS + (("f1_types",) if data.get("mode") == "canonical" else ())
    return {key: data.get(key) for key in keep}


def error_text(validation: dict) -> str:
    lines = []
    for issue in validation.get("errors", []):
        where = f"line {issue['line']}, column {issue['column']}: " if issue.get("line") else ""
        lines.append(f"{issue['category']}: {where}{issue['message']}")
    return "\n".join(lines) or "the domain does not parse"


def extract_round_domain(response: str, mode: str = "canonical") -> tuple[str, str | None]:
    """(domain text, extraction error). With no PDDL in the answer the answer itself (minus
    reasoning) stands for the domain, as in the released code, and is scored as such."""
    try:
        return extract_domain(response, mode), None
    except NoDomainFound as err:
        return strip_reasoning(response or "").strip(), str(err)
