"""Names: normal forms (case, separators, word order, plural and verb endings) and a fuzzy
similarity for names no normal form matches."""

from __future__ import annotations

import re

import Levenshtein
import numpy as np

__all__ = ["name_tokens", "name_keys", "fuzzy"]

_STOP_WORDS = frozenset({"is", "has", "a", "an", "the"})
_CAMEL = re.compile(r"([a-z0-9])([A-Z])")
_SEPARATORS = re.compile(r"[-_\s]+")


def _stem(token: str) -> str:
    """A light stemmer for plural and verb endings: picks/picking/picked -> pick,
    boxes -> box, moves/moving/moved/move -> mov."""
    for suffix in ("ing", "ed"):
        if token.endswith(suffix) and len(token) - len(suffix) >= 3:
            token = token[: -len(suffix)]
            if len(token) >= 4 and token[-1] == token[-2] and token[-1] not in "aeiouls":
                token = token[:-1]  # stopped -> stop
            break
    else:
        if token.endswith("es") and len(token) >= 5 and token[-3] in "xsz" or token.endswith(
                ("ches", "shes")):
            token = token[:-2]
        elif token.endswith("s") and not token.endswith(("ss", "us", "is")) and len(token) >= 4:
            token = token[:-1]
    if token.endswith("e") and len(token) >= 4:
        token = token[:-1]
    return token


def name_tokens(name: str) -> tuple[str, ...]:
    """Words of a name: split on ``-``, ``_`` and camelCase, lower-cased, stemmed, without
    ``is``/``has``/articles (unless nothing else is left)."""
    words = [w for w in _SEPARATORS.split(_CAMEL.sub(r"\1-\2", name).lower()) if w]
    kept = [w for w in words if w not in _STOP_WORDS] or words
    return tuple(_stem(w) for w in kept)


def name_keys(name: str) -> frozenset[str]:
    """Normal forms: the words joined in order (pick-up = pickup) and sorted (word order)."""
    tokens = name_tokens(name)
    return frozenset({"j:" + "".join(tokens), "s:" + "-".join(sorted(tokens))})


def fuzzy(left: list[str], right: list[str]) -> np.ndarray:
    """Name similarity in [0, 1] beyond the normal forms, per pair: the better of the
    Levenshtein ratio of the joined words and the share of words in common, 0 at 0.5 or
    below."""
    left_tokens = [name_tokens(n) for n in left]
    right_tokens = [name_tokens(n) for n in right]
    left_joined = ["".join(t) for t in left_tokens]
    right_joined = ["".join(t) for t in right_tokens]
    left_sets = [set(t) for t in left_tokens]
    right_sets = [set(t) for t in right_tokens]
    result = np.zeros((len(left), len(right)))
    ratio = Levenshtein.ratio
    for i, (a, ta) in enumerate(zip(left_joined, left_sets)):
        row = result[i]
        for j, (b, tb) in enumerate(zip(right_joined, right_sets)):
            common = len(ta & tb)
            row[j] = max(ratio(a, b), common / (len(ta) + len(tb) - common) if common else 0.0)
    return np.maximum(0.0, (result - 0.5) / 0.5)
