"""Seeded, text-level perturbations of PDDL domains.

Used by the benchmark, the tests and the noisy reference model: each function returns a new
domain text and keeps everything else byte for byte, so that scores change only by what the
perturbation did.
"""

from __future__ import annotations

import random
import re

__all__ = [
    "rename_variables", "action_spans", "drop_action", "break_parenthesis",
    "undefine_predicate",
]

_VARIABLE = re.compile(r"\?[A-Za-z][\w-]*")
_ACTION_START = re.compile(r"\(\s*:action\s", re.IGNORECASE)


def rename_variables(text: str, seed: int = 0) -> str:
    """Rename every variable consistently (``?x`` -> ``?v3``, the same new name everywhere).

    Names are unique per domain, so renaming never merges two variables of one action.
    """
    rng = random.Random(seed)
    names = sorted({m.group(0).lower() for m in _VARIABLE.finditer(text)})
    fresh = [f"?v{i}" for i in range(len(names))]
    rng.shuffle(fresh)
    # Names that already look like ?vN could collide with fresh ones: prefix all of them.
    mapping = {old: f"?r{new[2:]}x" for old, new in zip(names, fresh)}
    return _VARIABLE.sub(lambda m: mapping[m.group(0).lower()], text)


def action_spans(text: str) -> list[tuple[int, int]]:
    """Start and end offsets of every ``(:action ...)`` block (comments are skipped)."""
    spans = []
    for match in _ACTION_START.finditer(text):
        depth, index = 0, match.start()
        while index < len(text):
            char = text[index]
            if char == ";":
                newline = text.find("\n", index)
                index = len(text) if newline < 0 else newline
            elif char == "(":
                depth += 1
            elif char == ")":
                depth -= 1
                if depth == 0:
                    spans.append((match.start(), index + 1))
                    break
            index += 1
    return spans


def drop_action(text: str, seed: int = 0) -> str:
    """Remove one action block, chosen by the seed."""
    spans = action_spans(text)
    if not spans:
        return text
    start, end = random.Random(seed).choice(spans)
    return text[:start] + text[end:]


def break_parenthesis(text: str, seed: int = 0) -> str:
    """Delete one closing parenthesis inside an action, so the domain no longer parses."""
    spans = action_spans(text)
    if not spans:
        index = text.rfind(")")
        return text[:index] + text[index + 1:] if index >= 0 else text
    start, end = random.Random(seed).choice(spans)
    index = end - 1  # the action's own closing parenthesis
    return text[:index] + text[index + 1:]


def undefine_predicate(text: str, seed: int = 0) -> str:
    """Rename one use of a predicate inside an action to a name that is not declared."""
    spans = action_spans(text)
    rng = random.Random(seed)
    for start, end in rng.sample(spans, len(spans)):
        uses = list(re.finditer(r"\(\s*([a-zA-Z][\w-]*)\s+\?", text[start:end]))
        uses = [u for u in uses if u.group(1).lower() not in ("not", "and", "or", "forall",
                                                               "exists", "when")]
        if uses:
            use = rng.choice(uses)
            at = start + use.start(1)
            return text[:at] + "undeclared-" + text[at:]
    return text
