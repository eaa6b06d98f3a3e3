"""Valid PDDL that tarski refuses, rewritten before parsing with every line number kept.

- An action without ``:precondition`` (PDDL allows it: no condition): tarski's grammar wants
  one, so ``:precondition (and)`` is inserted just before its ``:effect``, on the same line.
- Types declared before their parent (``(:types ball - thing thing - object)``): tarski wants
  each parent declared first, so the groups of the ``(:types ...)`` section are put in an order
  where they are, on the section's first line, followed by as many line breaks as it had.

Only columns on the rewritten lines move; an error tarski reports elsewhere points where it
did. Linear in the text (one scan per rule).
"""

from __future__ import annotations

import re

from text2world.pddl.extract import balanced_expression

__all__ = ["normalise_for_tarski"]

_ACTION = re.compile(r"\(\s*:action\b", re.IGNORECASE)
_KEYWORD = re.compile(r":(precondition|effect)\b", re.IGNORECASE)
_TYPES = re.compile(r"\(\s*:types\b", re.IGNORECASE)


def _close(text: str, start: int) -> int:
    """Index just past the parenthesis balancing the one at ``start`` (comments skipped; about
    the end of the text when none does)."""
    return start + len(balanced_expression(text, start))


def _add_missing_preconditions(text: str) -> str:
    pieces, last = [], 0
    for match in _ACTION.finditer(text):
        if match.start() < last:
            continue
        end = _close(text, match.start())
        body = text[match.start():end]
        depth, found = 0, dict[str, int]()
        for index, char in enumerate(body):  # keywords at the action's own level only
            if char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
            elif char == ":" and depth == 1:
                keyword = _KEYWORD.match(body, index)
                if keyword:
                    found.setdefault(keyword.group(1).lower(), index)
        if "effect" in found and "precondition" not in found:
            at = match.start() + found["effect"]
            pieces += [text[last:at], ":precondition (and) "]
            last = at
    pieces.append(text[last:])
    return "".join(pieces)


def _order_types(text: str) -> str:
    match = _TYPES.search(text)
    if match is None:
        return text
    end = _close(text, match.start())
    inner_start = match.end()
    inner = text[inner_start:end - 1]
    if ";" in inner or "(" in inner:  # comments or (either ...): left to tarski as written
        return text
    tokens = inner.split()
    groups: list[tuple[list[str], str | None]] = []
    names: list[str] = []
    index = 0
    while index < len(tokens):
        if tokens[index] == "-" and index + 1 < len(tokens):
            groups.append((names, tokens[index + 1]))
            names, index = [], index + 2
        else:
            names.append(tokens[index])
            index += 1
    if names:
        groups.append((names, None))
    where = {n.lower(): i for i, (group, _) in enumerate(groups) for n in group
             if n.lower() != "object"}  # declared by PDDL itself: never needs placing
    if all(parent is None or where.get(parent.lower(), -1) <= i
           for i, (_, parent) in enumerate(groups)):
        return text  # already in order
    ordered, placed, visiting = [], set(), set()

    def place(i: int) -> None:
        if i in placed or i in visiting:
            return  # a cycle is left for tarski to report
        visiting.add(i)
        parent = groups[i][1]
        if parent is not None and parent.lower() in where:
            place(where[parent.lower()])
        visiting.discard(i)
        placed.add(i)
        ordered.append(groups[i])

    for i in range(len(groups)):
        place(i)
    # a group without a parent is written ``- object`` unless last (it would take the next
    # group's parent otherwise)
    written = " ".join(" ".join(group) + (f" - {parent or 'object'}"
                                          if parent or k < len(ordered) - 1 else "")
                       for k, (group, parent) in enumerate(ordered))
    return (text[:inner_start] + " " + written + "\n" * inner.count("\n") + text[end - 1:])


def normalise_for_tarski(text: str) -> str:
    """The text with the rewrites above applied (the same text when none applies)."""
    if not isinstance(text, str):
        return text
    return _order_types(_add_missing_preconditions(text))
