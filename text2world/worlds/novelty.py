"""Novelty of a generated world against the store and the released Text2World set.

Two measures, both reported in the world's record:

* ``ngram_overlap``: the largest share of the world's abstract description's word 4-grams
  found in one reference description (containment), with that reference's id;
* ``structure_matches``: the references whose domain has the same structure up to names
  (``canonical.domain_structure``).

The references are read once per process (``reference_index``); the released set is optional
(``released=None``: not compared, said in the record).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from text2world.files import data_dir
from text2world.pddl.model import parse_domain
from text2world.worlds.canonical import domain_structure

__all__ = ["N", "Reference", "default_released", "reference_index", "novelty"]

N = 4
_WORD = re.compile(r"[a-z0-9?]+(?:-[a-z0-9]+)*")


def ngrams(text: str, n: int = N) -> frozenset[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return frozenset(tuple(words[i:i + n]) for i in range(len(words) - n + 1))


@dataclass(frozen=True)
class Reference:
    id: str  # "store:<id>" or "released:<index>"
    grams: frozenset[tuple[str, ...]]
    structure: str | None


def default_released() -> Path | None:
    """The released set beside the clone (``../shared/text2world-official``), if present."""
    path = data_dir().resolve().parent.parent / "shared" / "text2world-official"
    return path if path.is_dir() else None


def _structure(text: str) -> str | None:
    try:
        return domain_structure(parse_domain(text))
    except Exception:  # noqa: BLE001 - a reference that does not parse has no structure
        return None


@lru_cache(maxsize=4)
def reference_index(store: Path, released: Path | None) -> tuple[Reference, ...]:
    references = []
    for path in sorted((store / "domains").glob("*.pddl")):
        abstract = store / "descriptions" / path.stem / "abstract.md"
        text = abstract.read_text(encoding="utf-8") if abstract.is_file() else ""
        references.append(Reference(f"store:{path.stem}", ngrams(text),
                                    _structure(path.read_text(encoding="utf-8"))))
    if released is not None:
        for split in ("test", "train"):
            source = released / f"{split}.json"
            if not source.is_file():
                continue
            raw = json.loads(source.read_text(encoding="utf-8"))
            rows = list(raw.values()) if isinstance(raw, dict) else raw
            for index, row in enumerate(rows):
                if not isinstance(row, dict) or not isinstance(row.get("pddl_domain"), str):
                    continue
                text = row.get("corrected_description") or row.get("description") or ""
                references.append(Reference(f"released-{split}:{row.get('id', index)}",
                                            ngrams(str(text)), _structure(row["pddl_domain"])))
    return tuple(references)


def novelty(abstract: str, structure: str, references: tuple[Reference, ...],
            released: Path | None) -> dict:
    """The record's novelty block for one world."""
    grams = ngrams(abstract)
    best, nearest = 0.0, None
    for reference in references:
        if grams and reference.grams:
            share = len(grams & reference.grams) / len(grams)
            if share > best:
                best, nearest = share, reference.id
    return {"ngram_n": N, "ngram_overlap": round(best, 4), "ngram_nearest": nearest,
            "structure_matches": [r.id for r in references if r.structure == structure],
            "compared_with": ["store"] + (["released"] if released is not None else [])}
