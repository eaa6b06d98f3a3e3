"""What every scoring mode shares: the ``Score`` record, its error, and the set F1 and
whitespace-free similarity both modes use."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Hashable, Iterable, Literal

import Levenshtein

from text2world.errors import Text2WorldError
from text2world.pddl.bounds import MAX_DOMAIN_CHARS
from text2world.pddl.validation import Issue
from text2world.scoring.alignment import Alignment

__all__ = [
    "Mode", "MODES", "ScoringError", "Score", "set_f1", "remove_whitespace",
    "ratio_without_whitespace",
]

Mode = Literal["paper", "canonical"]
MODES: tuple[str, ...] = ("paper", "canonical")  # the scoring modes: their one home
# The scores of one round, in every mode (a ``Score``'s fields, as run logs hold them); the
# F1s are ``METRICS[2:]``. Canonical mode adds F1 over types: ``mode_metrics``.
METRICS = ("executable", "similarity", "f1_predicates", "f1_parameters", "f1_preconditions",
           "f1_effects")


def mode_metrics(mode: str) -> tuple[str, ...]:
    """The metrics a mode reports per round: canonical mode adds F1 over types."""
    return METRICS + (("f1_types",) if mode == "canonical" else ())


class ScoringError(Text2WorldError, ValueError):
    """The pair cannot be scored (for instance a gold domain that has no actions)."""


@dataclass(frozen=True)
class Score:
    """The scores of one prediction against one gold domain.

    ``gold_executable`` is False when the gold itself does not parse (every F1 is then 0 and
    says nothing about the prediction); ``gold_errors`` says why, and also holds the released
    quirk that zeroes the action F1s of a parsable gold in paper mode. ``per_action`` maps each action
    name to ``{"status": "matched" | "missing" | "extra", "predicted", "parameters",
    "preconditions", "effects"}`` (``predicted``: the predicted action it was matched with, by
    name in paper mode, through the alignment in canonical mode; then that action's F1s; in
    paper mode the released per-action values, extra actions are listed but do not count).
    """

    mode: str
    executable: bool
    similarity: float
    f1_predicates: float
    f1_parameters: float
    f1_preconditions: float
    f1_effects: float
    errors: tuple[Issue, ...] = ()
    f1_types: float | None = None  # canonical mode only
    per_action: dict = field(default_factory=dict, compare=False)
    gold_executable: bool = True
    gold_errors: tuple[Issue, ...] = ()
    alignment: Alignment | None = field(default=None, compare=False)  # canonical mode only

    def to_dict(self, details: bool = False) -> dict[str, Any]:
        """The documented score keys; with ``details``, also ``gold_executable``,
        ``gold_errors`` and ``per_action`` (what ``t2w score --json`` and the API return)."""
        result = {
            "mode": self.mode,
            "executable": self.executable,
            "similarity": self.similarity,
            "f1_predicates": self.f1_predicates,
            "f1_parameters": self.f1_parameters,
            "f1_preconditions": self.f1_preconditions,
            "f1_effects": self.f1_effects,
            "errors": [e.to_dict() for e in self.errors],
        }
        if self.mode == "canonical":
            result["f1_types"] = self.f1_types
        if details:
            result["gold_executable"] = self.gold_executable
            result["gold_errors"] = [e.to_dict() for e in self.gold_errors]
            result["per_action"] = {name: dict(values) for name, values in self.per_action.items()}
            if self.alignment is not None:
                result["alignment"] = self.alignment.to_dict()
        return result


def set_f1(predicted: Iterable[Hashable], reference: Iterable[Hashable]) -> float:
    """F1 of two collections compared as sets; two empty collections score 1, as released."""
    predicted, reference = set(predicted), set(reference)
    if not predicted and not reference:
        return 1.0
    true_positives = len(predicted & reference)
    if true_positives == 0:
        return 0.0
    precision = true_positives / len(predicted)
    recall = true_positives / len(reference)
    return 2 * precision * recall / (precision + recall)


def remove_whitespace(text: str) -> str:
    """The released ``re.sub(r"\\s+", "", text)``; str.split uses the same Unicode whitespace
    test as ``\\s`` and is many times faster on large inputs."""
    return "".join(text.split())


def ratio_without_whitespace(a: str, b: str) -> float:
    # Levenshtein is quadratic: a text past the size limit (already an input error) gets 0.
    if len(a) > MAX_DOMAIN_CHARS or len(b) > MAX_DOMAIN_CHARS:
        return 0.0
    return Levenshtein.ratio(remove_whitespace(a), remove_whitespace(b))
