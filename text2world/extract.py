"""Extraction of a PDDL domain from a model's answer."""

from __future__ import annotations

import re

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_PDDL_FENCE = re.compile(r"```[ \t]*pddl[ \t]*\r?\n(.*?)```", re.DOTALL | re.IGNORECASE)
_ANY_FENCE = re.compile(r"```[^\n`]*\r?\n(.*?)```", re.DOTALL)
_DEFINE = re.compile(r"\(\s*define\b", re.IGNORECASE)


class NoDomainFound(ValueError):
    """The answer contains no PDDL domain."""


def strip_reasoning(response: str) -> str:
    """Drop ``<think>...</think>`` blocks of reasoning models (an unclosed one runs to the end)."""
    return _THINK.sub("", response)


def looks_like_response(text: str) -> bool:
    """True for a chat answer (fences or reasoning), False for a bare domain file."""
    return "```" in text or "<think>" in text.lower()


def extract_domain(response: str) -> str:
    """Return the domain in an LLM answer.

    Order, after removing reasoning blocks: fenced ```pddl blocks (the longest wins, as in the
    released Text2World code), then any other fenced block, then bare ``(define ...)`` text up to
    its balancing parenthesis (or the end, when unbalanced, so the validator can say so).
    """
    if not isinstance(response, str) or not response.strip():
        raise NoDomainFound("the answer is empty")
    text = strip_reasoning(response)
    for pattern in (_PDDL_FENCE, _ANY_FENCE):
        blocks = [b.strip() for b in pattern.findall(text) if b.strip()]
        if blocks:
            return max(blocks, key=len)
    match = _DEFINE.search(text)
    if match is None:
        where = "after removing <think> blocks " if text != response else ""
        raise NoDomainFound(
            f"no PDDL domain found in the answer {where}(no ```pddl block, no fenced block, "
            "no '(define' text)")
    depth, index = 0, match.start()
    while index < len(text):
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return text[match.start(): index + 1]
        elif char == ";":  # a comment may hold parentheses: skip to its end of line
            newline = text.find("\n", index)
            index = len(text) if newline < 0 else newline
        index += 1
    return text[match.start():].strip()
