"""Extraction of a PDDL domain (or problem) from a model's answer (one function each for the
library, CLI, API).

Answers seen from real models: fenced blocks tagged ``pddl``/``lisp``/``PDDL``, a fence followed by
a ``pddl`` line, code starting on the fence line itself (```` ```(define ...````), an unclosed last
fence (a truncated answer), a domain and its problem in one block or in two, ``<think>`` blocks.

Two selection rules, by scoring mode:

* ``canonical`` (the default): the domain. The block holding ``(define (domain`` wins (the
  longest such block); from a block that also holds a problem, only the domain is kept.
* ``paper``: the released rule (``extract_pddl`` of the Text2World code): among ``pddl``-tagged
  blocks, else untagged ones, the longest, whatever it holds, so two blocks of which the problem
  is longer yield the problem, and a domain followed by its problem in one block is kept whole
  (tarski then ignores the text after the domain's closing parenthesis).

Everything here is linear in the answer's length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from text2world.errors import Text2WorldError
from text2world.pddl.bounds import MAX_DOMAIN_CHARS

__all__ = [
    "MAX_ANSWER_CHARS", "NoDomainFound", "strip_reasoning", "Block", "balanced_expression",
    "extract_domain", "domain_from_answer", "dropped_definitions",
]

# An answer may be longer than a domain (reasoning, explanations); past this it is not scanned.
MAX_ANSWER_CHARS = 8 * MAX_DOMAIN_CHARS

_THINK = re.compile(r"<think>.*?(?:</think>|\Z)", re.DOTALL | re.IGNORECASE)
_DEFINE = re.compile(r"\(\s*define\b", re.IGNORECASE)
_DOMAIN_DEFINE = re.compile(r"\(\s*define\s*\(\s*domain\b", re.IGNORECASE)
_PROBLEM_DEFINE = re.compile(r"\(\s*define\s*\(\s*problem\b", re.IGNORECASE)
_LANGUAGE_TAG = re.compile(r"[A-Za-z][\w+.-]*")
_PDDL_TAGS = frozenset({"pddl"})
_TAG_LINE = frozenset({"pddl", "lisp", "scheme", "pddl domain", "pddl:"})
_FENCE = "```"
# Whitespace and ``;`` comment lines before a domain file's first parenthesis (linear: the two
# alternatives start with different characters).
_LEADING_COMMENTS = re.compile(r"(?:\s|;[^\n]*)*")


class NoDomainFound(Text2WorldError, ValueError):
    """The answer contains no PDDL domain."""


class NoProblemFound(Text2WorldError, ValueError):
    """The answer contains no PDDL problem (``(define (problem ...``)."""


def strip_reasoning(response: str) -> str:
    """Drop ``<think>...</think>`` blocks of reasoning models (an unclosed one runs to the end)."""
    return _THINK.sub("", response)


def looks_like_response(text: str) -> bool:
    """True for a chat answer (fences, reasoning, or prose before a bare ``(define``), False
    for a domain file (which starts with ``(`` after whitespace and ``;`` comments)."""
    if "```" in text or "<think>" in text.lower():
        return True
    leading = _LEADING_COMMENTS.match(text)  # always matches (possibly empty)
    start = leading.end() if leading else 0
    return start < len(text) and text[start] != "(" and _DEFINE.search(text, start) is not None


@dataclass(frozen=True)
class Block:
    """One fenced code block: its code and whether it is tagged as PDDL."""

    code: str
    pddl: bool


def fenced_blocks(text: str) -> list[Block]:
    """The fenced blocks of an answer, in order, in one pass.

    A fence's info string is a language tag (``pddl``, ``lisp``, any case) or code: text that
    starts with ``(`` is code on the fence line. An untagged fence whose first line is just
    ``pddl`` or ``lisp`` is tagged by that line. An unclosed last fence runs to the end.
    """
    blocks: list[Block] = []
    position = text.find(_FENCE)
    while position >= 0:
        start = position + len(_FENCE)
        while start < len(text) and text[start] == "`":  # ```` or longer fences
            start += 1
        line_end = text.find("\n", start)
        if line_end < 0:
            line_end = len(text)
        info = text[start:line_end].strip()
        close = text.find(_FENCE, start)
        if 0 <= close < line_end:  # ```(define ...)``` on one line
            code, tag = text[start:close], ""
        else:
            if info.startswith("(") or not _LANGUAGE_TAG.fullmatch(info or "x"):
                code_start, tag = start, ""  # code on the fence line itself
            else:
                code_start, tag = line_end + 1, info.lower()
            close = text.find(_FENCE, code_start)
            code = text[code_start: close if close >= 0 else len(text)]
        if not tag:  # a fence followed by a 'pddl' (or 'lisp') line: that line is a tag
            stripped = code.lstrip(" \t\r\n")
            first_end = stripped.find("\n")
            first = (stripped if first_end < 0 else stripped[:first_end]).strip().lower()
            if first in _TAG_LINE:
                tag = first.rstrip(":").split()[0]
                code = "" if first_end < 0 else stripped[first_end + 1:]
        code = code.strip()
        if code:
            blocks.append(Block(code, tag in _PDDL_TAGS))
        if close < 0:
            break
        position = text.find(_FENCE, close + len(_FENCE))
    return blocks


_BALANCE_MARKS = re.compile(r"[();`]")  # what balanced_expression looks at


def balanced_expression(text: str, start: int) -> str:
    """``text`` from ``start`` (an opening parenthesis) to its balancing one, skipping ``;``
    comments; to the end (stripped) when it never balances, so the validator can say so. A
    fence (never PDDL: an empty or stray one) ends the text there; a single backtick, as in a
    comment's `name`, does not. (It jumps from mark to mark: ``_BALANCE_MARKS``.)"""
    depth = 0
    search = _BALANCE_MARKS.search
    mark = search(text, start)
    while mark is not None:
        index = mark.start()
        char = text[index]
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return text[start: index + 1]
        elif char == ";":  # a comment may hold parentheses: skip to its end of line
            newline = text.find("\n", index)
            end = len(text) if newline < 0 else newline
            fence = text.find(_FENCE, index, end)
            if fence >= 0:
                return text[start:fence].strip()
            mark = search(text, end + 1)
            continue
        elif text.startswith(_FENCE, index):
            return text[start:index].strip()
        mark = search(text, index + 1)
    return text[start:].strip()


def _domain_in(code: str) -> str | None:
    """The ``(define (domain ...)`` form in a text (a problem beside it is dropped)."""
    match = _DOMAIN_DEFINE.search(code)
    if match is None:
        return None
    return balanced_expression(code, match.start())


def _before_fence(text: str, match: re.Match | None) -> str:
    """``text`` up to the first fence after ``match`` (all of it without a match or fence)."""
    if match is None:
        return text
    fence = text.find(_FENCE, match.start())
    return text if fence < 0 else text[:fence]


def extract_domain(response: str, mode: str = "canonical") -> str:
    """Return the domain in an LLM answer (see the module docstring for the rules by mode).

    After removing reasoning blocks: fenced blocks (selected by ``mode``), then bare
    ``(define ...)`` text up to its balancing parenthesis (or the end, when unbalanced, so the
    validator can say so). Raises ``NoDomainFound`` when there is no PDDL at all.
    """
    if not isinstance(response, str) or not response.strip():
        raise NoDomainFound("the answer is empty")
    if len(response) > MAX_ANSWER_CHARS:
        raise NoDomainFound(f"the answer has {len(response):,} characters; the limit is "
                            f"{MAX_ANSWER_CHARS:,} (MAX_ANSWER_CHARS)")
    if mode not in ("paper", "canonical"):
        raise ValueError(f"unknown extraction mode {mode!r}; choose paper or canonical")
    text = strip_reasoning(response)
    blocks = fenced_blocks(text)
    if blocks:
        if mode == "paper":
            # QUIRK (released extract_pddl): pddl-tagged blocks, else the others; the longest.
            chosen = [b.code for b in blocks if b.pddl] or [b.code for b in blocks]
            return max(chosen, key=len)
        domains = [d for d in (_domain_in(b.code) for b in blocks) if d is not None]
        if domains:
            return max(domains, key=len)
        chosen = [b.code for b in blocks if b.pddl] or [b.code for b in blocks]
        return max(chosen, key=len)
    # No complete block: bare text, where a stray fence (an empty or unclosed one) ends the code.
    if mode == "canonical":
        domain = _domain_in(_before_fence(text, _DOMAIN_DEFINE.search(text)))
        if domain is not None:
            return domain
    text = _before_fence(text, _DEFINE.search(text))
    match = _DEFINE.search(text)
    if match is None:
        where = "after removing <think> blocks " if text != response else ""
        raise NoDomainFound(
            f"no PDDL domain found in the answer {where}(no fenced block, no '(define' text)")
    return balanced_expression(text, match.start())


def extract_problem(response: str) -> str:
    """The ``(define (problem ...))`` form of an answer (prose, fences and ``<think>`` blocks
    around it): the longest such form of the fenced blocks, else of the bare text, up to its
    balancing parenthesis (or the end, when unbalanced, so the parser can say so); a domain
    beside it is dropped. Raises ``NoProblemFound`` when there is none."""
    if not isinstance(response, str) or not response.strip():
        raise NoProblemFound("the answer is empty")
    if len(response) > MAX_ANSWER_CHARS:
        raise NoProblemFound(f"the answer has {len(response):,} characters; the limit is "
                             f"{MAX_ANSWER_CHARS:,} (MAX_ANSWER_CHARS)")
    text = strip_reasoning(response)
    problems = []
    for code in [block.code for block in fenced_blocks(text)] or [text]:
        match = _PROBLEM_DEFINE.search(code)
        if match is not None:
            problems.append(balanced_expression(_before_fence(code, match), match.start()))
    if not problems:
        where = " after removing <think> blocks" if text != response else ""
        raise NoProblemFound(f"no PDDL problem found in the answer{where} (no "
                             "'(define (problem' text)")
    return max(problems, key=len)


def domain_from_answer(text: str, mode: str = "canonical") -> str:
    """A domain file as is, or the domain extracted from a chat answer (fences, reasoning, or
    prose around a bare domain): what the CLI uses on a file that may be either."""
    if isinstance(text, str) and looks_like_response(text):
        return extract_domain(text, mode)
    return text


_ACTION_NAME = re.compile(r"\(\s*:action\s+([^\s()]+)", re.IGNORECASE)
_PREDICATES = re.compile(r"\(\s*:predicates\b", re.IGNORECASE)


def dropped_definitions(source: str, domain: str) -> tuple[str, int] | None:
    """What a stray parenthesis cut off: when the text after the domain's closing
    parenthesis (up to the next fence or ``(define``) holds ``(:action`` or ``(:predicates``,
    a sentence naming the dropped actions and the offset in ``source`` of that parenthesis's
    end; None otherwise. ``source`` is the file or answer
    the ``domain`` was taken from (the same text for a domain file)."""
    if not isinstance(source, str) or not isinstance(domain, str) or not domain:
        return None
    start = source.find(domain)
    if start < 0:
        match = _DOMAIN_DEFINE.search(source)
        if match is None:
            return None
        domain = balanced_expression(source, match.start())
        start = match.start()
    define = _DOMAIN_DEFINE.search(domain)
    end = start + (len(balanced_expression(domain, define.start())) + define.start() if define else
                   len(domain))
    rest = source[end:]
    for stop in (rest.find(_FENCE), _DEFINE.search(rest)):
        position = stop if isinstance(stop, int) else (stop.start() if stop else -1)
        if position >= 0:
            rest = rest[:position]
    actions = _ACTION_NAME.findall(rest)
    predicates = _PREDICATES.search(rest) is not None
    if not actions and not predicates:
        return None
    parts = []
    if actions:
        parts.append(f"{len(actions)} action{'s' if len(actions) != 1 else ''} dropped ("
                     + ", ".join(actions[:10]) + (", ..." if len(actions) > 10 else "") + ")")
    if predicates:
        parts.append("a (:predicates section dropped")
    return ("the domain's closing parenthesis comes before the end of its definitions (a "
            "stray ')'?): text after it is ignored: " + "; ".join(parts)), end
