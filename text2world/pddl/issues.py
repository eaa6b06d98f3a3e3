"""A validation issue (``Issue``: an error or a warning, with its position) and the
parenthesis balance check, shared by ``validation`` (tarski's verdict and its taxonomy) and
``reading`` (every error in one pass once tarski has failed); ``validation`` re-exports both."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from text2world.pddl.model import line_column, strip_comments


@dataclass(frozen=True)
class Issue:
    """One validation error or warning. ``line``/``column`` are 1-based, None when unknown."""

    category: str
    message: str
    line: int | None = None
    column: int | None = None
    kind: str | None = None  # the underlying exception or check, e.g. "UndefinedPredicate"

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def __str__(self) -> str:
        where = f"line {self.line}, column {self.column}: " if self.line else ""
        # "Other" says nothing, and no domain at all is not an undefined domain name: the kind
        # (e.g. UndefinedPredicate, NoDomainFound) names those; the category stays in the JSON.
        label = self.kind if self.kind and (self.category == "Other"
                                            or self.kind == "NoDomainFound") else self.category
        return f"{label}: {where}{self.message}"


def balance_error(text: str) -> Issue | None:
    """Unbalanced parentheses (comments ignored), with the position that shows it."""
    depth = 0
    opened: list[int] = []
    cleaned = strip_comments(text)
    for index, char in enumerate(cleaned):
        if char == "(":
            opened.append(index)
            depth += 1
        elif char == ")":
            depth -= 1
            if depth < 0:
                line, column = line_column(cleaned, index)
                return Issue("IncorrectParentheses", "a ')' closes more parentheses than were "
                             "opened", line, column, "Unbalanced")
            opened.pop()
    if depth > 0:
        line, column = line_column(cleaned, opened[0])
        return Issue("IncorrectParentheses", f"{depth} parenthes{'is' if depth == 1 else 'es'} "
                     f"opened and never closed (the outermost still open at the end opened at "
                     f"line {line}, column {column}; the parser's position below is where one "
                     "is missing)", line, column, "Unbalanced")
    return None


__all__ = ["Issue", "balance_error"]
