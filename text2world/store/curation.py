"""The curation pipeline of the Text2World paper (section 3.2), applied to raw PDDL domain files.

Steps, in order; a file dropped by one step is not seen by the later ones:

1. ``validation``: tarski must parse the domain (``text2world.pddl.validation.validate``).
2. ``dedup``: TF-IDF cosine similarity (scikit-learn) between the surviving domains; of any
   pair above the threshold (0.9) the later file (by name) is dropped and its twin reported.
3. ``complexity``: more than 40 predicates or more than 20 actions is dropped.
4. ``tokens``: more than 5000 GPT-2 tokens (counted offline) is dropped.

``curate_dir`` writes the survivors and ``curation-report.json`` into a temporary folder beside
the output and renames it into place at the end, so a failure leaves nothing half-written.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from text2world.errors import Text2WorldError
from text2world.files import InputFileError, check_folder, read_input_bytes
from text2world.pddl.validation import Validation, validate
from text2world.store.tokens import count_gpt2_tokens

__all__ = [
    "STEPS", "MAX_PREDICATES", "MAX_ACTIONS", "MAX_TOKENS", "REPORT_NAME", "CurationError",
    "cached_validate", "CurationReport", "similarity_matrix", "cross_similarity",
    "similar_pairs", "curate_texts", "curate_dir", "replace_dir",
]

STEPS = ("validation", "dedup", "complexity", "tokens")
SIMILARITY_THRESHOLD = 0.9
MAX_PREDICATES = 40
MAX_ACTIONS = 20
MAX_TOKENS = 5000
REPORT_NAME = "curation-report.json"



class CurationError(Text2WorldError, ValueError):
    """The pipeline cannot run on this input (missing folder, no domains, bad output place)."""


@lru_cache(maxsize=1024)
def cached_validate(text: str) -> Validation:
    """``validate`` memoised on the text: the store is validated by several checks per session."""
    return validate(text)


@dataclass(frozen=True)
class Dropped:
    file: str
    step: str
    reason: str
    twin: str | None = None
    similarity: float | None = None


@dataclass
class CurationReport:
    source: str
    files: int
    kept: list[str] = field(default_factory=list)
    dropped: list[Dropped] = field(default_factory=list)
    thresholds: dict = field(default_factory=dict)

    def counts(self) -> dict[str, int]:
        """How many files each step dropped (every step listed, zero included)."""
        counted = {step: 0 for step in STEPS}
        for item in self.dropped:
            counted[item.step] += 1
        return counted

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "files": self.files, "kept": list(self.kept),
                "dropped": [asdict(d) for d in self.dropped], "dropped_per_step": self.counts(),
                "thresholds": dict(self.thresholds)}


# --------------------------------------------------------------------------------------------
# Similarity


def _vectorizer() -> Any:
    """scikit-learn's default TF-IDF, as in the paper. Its word pattern ignores one-letter
    names and splits at hyphens, so renaming variables (``?b`` -> ``?x``) does not hide a copy."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    return TfidfVectorizer()


def _prepare(text: str) -> str:
    from text2world.pddl.model import strip_comments
    return strip_comments(text)


def similarity_matrix(texts: Sequence[str]) -> Any:
    """Pairwise TF-IDF cosine similarities (a dense numpy array, 1.0 on the diagonal)."""
    from sklearn.metrics.pairwise import cosine_similarity
    if not texts:
        import numpy
        return numpy.zeros((0, 0))
    matrix = _vectorizer().fit_transform([_prepare(t) for t in texts])
    return cosine_similarity(matrix)


def cross_similarity(texts: Sequence[str], others: Sequence[str]) -> Any:
    """TF-IDF cosine of every text against every other-corpus text (IDF fitted on both)."""
    from sklearn.metrics.pairwise import cosine_similarity
    matrix = _vectorizer().fit_transform([_prepare(t) for t in [*texts, *others]])
    return cosine_similarity(matrix[:len(texts)], matrix[len(texts):])


def similar_pairs(named_texts: Mapping[str, str],
                  threshold: float = SIMILARITY_THRESHOLD) -> list[tuple[str, str, float]]:
    """Every pair of names whose texts are more similar than ``threshold``, most similar first."""
    names = sorted(named_texts)
    sims = similarity_matrix([named_texts[n] for n in names])
    pairs = [(names[i], names[j], float(sims[i, j]))
             for i in range(len(names)) for j in range(i + 1, len(names))
             if sims[i, j] > threshold]
    return sorted(pairs, key=lambda pair: -pair[2])


# --------------------------------------------------------------------------------------------
# The pipeline


def curate_texts(named_texts: Mapping[str, str], *, source: str = "",
                 threshold: float = SIMILARITY_THRESHOLD, max_predicates: int = MAX_PREDICATES,
                 max_actions: int = MAX_ACTIONS, max_tokens: int = MAX_TOKENS,
                 unreadable: Mapping[str, str] | None = None) -> CurationReport:
    """Run the four steps over ``{file name: PDDL text}``; processing order is by file name.

    ``unreadable`` maps files that could not even be read as text to the reason; they are
    dropped by the validation step.
    """
    names = sorted(set(named_texts) | set(unreadable or {}))
    report = CurationReport(source=source, files=len(names), thresholds={
        "similarity": threshold, "predicates": max_predicates, "actions": max_actions,
        "tokens": max_tokens})

    # 1. validation
    valid: dict[str, Validation] = {}
    for name in names:
        if unreadable and name in unreadable:
            report.dropped.append(Dropped(name, "validation", unreadable[name]))
            continue
        result = cached_validate(named_texts[name])
        if result.ok:
            valid[name] = result
        else:
            first = result.errors[0] if result.errors else None
            reason = f"tarski cannot parse it: {first}" if first else "tarski cannot parse it"
            report.dropped.append(Dropped(name, "validation", reason))

    # 2. dedup: greedy in name order, so the earlier file of a pair is the one kept
    survivors = list(valid)
    sims = similarity_matrix([named_texts[n] for n in survivors])
    kept_indices: list[int] = []
    after_dedup: list[str] = []
    for index, name in enumerate(survivors):
        twin_index = max(kept_indices, key=lambda k: sims[index, k], default=None)
        if twin_index is not None and sims[index, twin_index] > threshold:
            similarity = round(float(sims[index, twin_index]), 4)
            twin = survivors[twin_index]
            report.dropped.append(Dropped(
                name, "dedup", f"TF-IDF cosine {similarity:.4f} > {threshold} with {twin}",
                twin=twin, similarity=similarity))
            continue
        kept_indices.append(index)
        after_dedup.append(name)

    # 3. complexity, 4. token length
    after_complexity = []
    for name in after_dedup:
        domain = valid[name].domain
        assert domain is not None  # a valid Validation always carries its Domain
        predicates, actions = len(domain.predicates), len(domain.actions)
        problems = []
        if predicates > max_predicates:
            problems.append(f"{predicates} predicates > {max_predicates}")
        if actions > max_actions:
            problems.append(f"{actions} actions > {max_actions}")
        if problems:
            report.dropped.append(Dropped(name, "complexity", "; ".join(problems)))
        else:
            after_complexity.append(name)
    for name in after_complexity:
        tokens = count_gpt2_tokens(named_texts[name])
        if tokens > max_tokens:
            report.dropped.append(Dropped(name, "tokens", f"{tokens} GPT-2 tokens > {max_tokens}"))
        else:
            report.kept.append(name)
    return report


def read_source_dir(source: Path) -> tuple[dict[str, str], dict[str, str]]:
    """The ``*.pddl`` files of a folder: readable texts, and unreadable files with the reason."""
    try:
        check_folder(source, "source")
    except InputFileError as err:
        raise CurationError(f"{err} (give a folder of .pddl files)") from None
    texts: dict[str, str] = {}
    unreadable: dict[str, str] = {}
    for path in sorted(source.glob("*.pddl")):
        if not path.is_file():
            continue
        try:
            texts[path.name] = read_input_bytes(path, "domain").decode("utf-8")
        except UnicodeDecodeError as err:
            unreadable[path.name] = f"not UTF-8 text (byte offset {err.start})"
        except InputFileError as err:
            unreadable[path.name] = str(err).split(": ", 1)[-1]
    if not texts and not unreadable:
        raise CurationError(f"{source}: no .pddl files inside")
    return texts, unreadable


def curate_dir(source: str | os.PathLike, out: str | os.PathLike, *, force: bool = False,
               **limits: Any) -> CurationReport:
    """Curate every ``*.pddl`` of ``source`` into ``out`` (survivors + ``curation-report.json``).

    ``out`` must not exist or be an empty folder, unless ``force`` replaces it. Everything is
    written into a temporary sibling folder first and renamed into place at the end.
    """
    source_path, out_path = Path(source), Path(out)
    texts, unreadable = read_source_dir(source_path)
    resolved_out, resolved_source = out_path.resolve(), source_path.resolve()
    if resolved_out == resolved_source or resolved_source in resolved_out.parents:
        raise CurationError(f"{out_path}: the output folder must be outside the source folder")
    if out_path.exists():
        if not out_path.is_dir():
            raise CurationError(f"{out_path}: exists and is not a folder")
        if any(out_path.iterdir()) and not force:
            raise CurationError(f"{out_path}: folder is not empty (use --force to replace it)")
    report = curate_texts(texts, source=str(source_path), unreadable=unreadable, **limits)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out_path.parent, prefix=f".{out_path.name}.tmp-"))
    try:
        for name in report.kept:
            (staging / name).write_text(texts[name], encoding="utf-8")
        (staging / REPORT_NAME).write_text(
            json.dumps(report.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        replace_dir(staging, out_path)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return report


def replace_dir(staging: Path, target: Path) -> None:
    """Move ``staging`` to ``target``; an existing target is set aside first, removed after."""
    if not target.exists():
        os.replace(staging, target)
        return
    aside = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.old-"))
    aside.rmdir()
    os.replace(target, aside)
    try:
        os.replace(staging, target)
    except BaseException:
        os.replace(aside, target)
        raise
    shutil.rmtree(aside, ignore_errors=True)
