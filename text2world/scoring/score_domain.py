"""Score a domain against a gold: the one function ``t2w score``, ``POST /v1/score`` and the
MCP tool ``score_domain`` use.

``score_domain`` takes the gold's text (and its problems, for semantic scoring) and the
prediction, a domain or an answer holding one, and returns a ``DomainScore``: the scores of
``metrics.score`` (definitions a stray ``)`` cut off from an answer among its errors), the
validation of the prediction and, when asked, its semantic score. A gold named by a store id
is looked up by ``store.datasets.gold_from_store`` (the store sits above scoring).

Errors are the library's: ``NoDomainFound`` (an answer holding no domain), ``ScoringError``
(a pair that cannot be scored), ``DomainInputError`` (a gold that is not a domain); the REST
API and MCP turn them into error codes in one place (``service.error_codes``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from text2world.pddl.extract import domain_from_answer, extract_domain
from text2world.pddl.validation import Validation, validate
from text2world.scoring.metrics import Score, score, with_truncation

if TYPE_CHECKING:
    from text2world.scoring.semantic import SemanticScore, SemanticSettings

__all__ = ["Answer", "DomainScore", "score_domain"]

Answer = Literal["domain", "answer", "either"]
"""What the prediction is: a domain as is, a model answer (the domain is extracted), or a
file that may be either (extracted when it looks like an answer: what the CLI reads)."""


@dataclass(frozen=True)
class DomainScore:
    """One prediction scored against a gold (see the module)."""

    score: Score
    """Executability, similarity and F1s, with dropped definitions among the errors."""
    domain: str
    """The domain text scored (extracted from the answer when ``extracted``)."""
    extracted: bool
    validation: Validation | None = None
    """The prediction's validation (None when not asked for)."""
    semantic: SemanticScore | None = None

    def validation_dict(self) -> dict[str, Any] | None:
        """The validation block of ``POST /v1/score``: one list of errors per answer, so
        definitions a stray ')' cut off (a warning of ``/v1/validate``, an error of every
        score) are listed as errors here too."""
        if self.validation is None:
            return None
        scored = [e.to_dict() for e in self.score.errors]
        block = {**self.validation.to_dict(), "extracted": self.extracted}
        if block["errors"] != scored:
            listed = {(e["kind"], e["message"]) for e in scored}
            block.update(ok=not scored, errors=scored,
                         warnings=[w for w in block["warnings"]
                                   if (w["kind"], w["message"]) not in listed])
        return block

    def to_dict(self) -> dict[str, Any]:
        """The answer of ``POST /v1/score`` and of the MCP tool (without ``gold``)."""
        return {**self.score.to_dict(details=True), "validation": self.validation_dict(),
                "semantic": None if self.semantic is None else self.semantic.to_dict()}


def score_domain(gold: str, predicted: str, *, mode: str = "paper", answer: Answer = "domain",
                 validation: bool = True, semantic: bool = False,
                 problems: Sequence[tuple[str, str]] = (),
                 semantic_settings: SemanticSettings | None = None) -> DomainScore:
    """Score ``predicted`` against ``gold`` in ``mode`` (see the module and ``Answer``), with
    the prediction's validation (``validation``) and its semantic score on ``problems``
    (``semantic``)."""
    if answer == "domain":
        domain, extracted = predicted, False
    elif answer == "answer":
        domain, extracted = extract_domain(predicted, mode), True
    else:
        domain = domain_from_answer(predicted, mode)
        extracted = domain is not predicted
    result = score(gold, domain, mode=mode)  # type: ignore[arg-type]
    if answer != "domain":  # definitions a stray ')' cut off are an error
        result = with_truncation(result, predicted, domain)
    checked = validate(domain) if validation else None
    semantic_result = None
    if semantic:
        from text2world.scoring.semantic import semantic_score

        semantic_result = (semantic_score(gold, domain, problems) if semantic_settings is None
                           else semantic_score(gold, domain, problems, settings=semantic_settings))
    return DomainScore(result, domain, extracted, checked, semantic_result)
