"""One round of the generation loop, scored: extraction, validation and scores in each mode
(what ``t2w eval`` runs in its worker processes for every round), and the re-scoring of a
finished run's rounds (``t2w score-run``) with the run's own gold domains."""

from __future__ import annotations

import json
from pathlib import Path

from .extract import NoDomainFound, extract_domain, strip_reasoning
from .runs import METRICS, SCORE_MODES, Run, RunError, summarize, utc_now
from .store import BUILTIN, DatasetError, load_dataset


# --------------------------------------------------------------------------------------------
# Validation and scoring of one round (runs in worker processes)


def validate_round(text: str, extraction_error: str | None) -> dict:
    """The validation of a round's domain (what decides whether to correct it)."""
    from .validation import validate

    if extraction_error is not None:
        return {"ok": False, "warnings": [], "errors": [{
            "category": "Other", "message": extraction_error, "line": None, "column": None,
            "kind": "NoDomainFound"}]}
    return validate(text).to_dict()


def score_round(gold: str, text: str, modes: tuple[str, ...] = SCORE_MODES,
                problems: tuple = (), response: str | None = None) -> dict:
    """Scores of a round's domain against the gold in each mode, and why any is missing;
    with ``problems`` (``(name, pddl)``) also its semantic scores (``semantic``).

    ``text`` is the domain extracted from the answer (canonical rule: the domain block); with
    the raw ``response``, paper mode scores what the released code extracts from it instead
    (the longest pddl block, which may be a problem or hold one: see ``extract``).

    ``score`` reports any text that is not a domain (empty, binary, huge) as not executable;
    it raises only for a gold it cannot score."""
    from .metrics import ScoringError, score, with_truncation

    scores: dict[str, dict | None] = {}
    score_errors: dict[str, str] = {}
    for mode in modes:
        scored = text
        if mode == "paper" and response is not None:
            scored = extract_round_domain(response, "paper")[0]
        try:
            result = score(gold, scored, mode=mode)
            if response is not None:  # definitions a stray ')' cut off are an error
                result = with_truncation(result, response, scored)
            scores[mode] = result.to_dict()
        except ScoringError as err:  # the gold cannot be scored: no result, as released
            scores[mode] = None
            score_errors[mode] = str(err)
    result = {"scores": scores, "score_errors": score_errors}
    if problems:
        from .semantic import semantic_round
        result["semantic"] = semantic_round(gold, text, problems)
    return result


def analyze_round(gold: str, text: str, extraction_error: str | None,
                  modes: tuple[str, ...] = SCORE_MODES, problems: tuple = (),
                  response: str | None = None) -> dict:
    """Validate a round's domain and score it against the gold in each mode."""
    return {"validation": validate_round(text, extraction_error),
            **score_round(gold, text, modes, problems, response)}


def compact_score(data: dict | None) -> dict | None:
    if data is None:
        return None
    keep = METRICS + (("f1_types",) if data.get("mode") == "canonical" else ())
    return {key: data.get(key) for key in keep}


def error_text(validation: dict) -> str:
    lines = []
    for issue in validation.get("errors", []):
        where = f"line {issue['line']}, column {issue['column']}: " if issue.get("line") else ""
        lines.append(f"{issue['category']}: {where}{issue['message']}")
    return "\n".join(lines) or "the domain does not parse"


def extract_round_domain(response: str, mode: str = "canonical") -> tuple[str, str | None]:
    """(domain text, extraction error). With no PDDL in the answer the answer itself (minus
    reasoning) stands for the domain, as in the released code, and is scored as such."""
    try:
        return extract_domain(response, mode), None
    except NoDomainFound as err:
        return strip_reasoning(response or "").strip(), str(err)



# --------------------------------------------------------------------------------------------
# Re-scoring a finished run


def rescore_run(path: Path, modes: tuple[str, ...] = SCORE_MODES,
                dataset: str | None = None) -> dict:
    """Score every round of a finished run again (no model call) and write ``scores.jsonl``.

    The gold domains come from the run's dataset; its content hash must match the run's.
    """
    run = Run.open(path)
    name = dataset or run.config.get("dataset", BUILTIN)
    source = run.config.get("dataset_source") or ""
    try:
        data = load_dataset(name)
    except DatasetError:
        if source and Path(source).exists():
            data = load_dataset(source)
        else:
            raise
    if data.content_hash != run.config.get("dataset_hash"):
        raise RunError(f"dataset {data.name!r} changed since the run (hash "
                       f"{data.content_hash} != {run.config.get('dataset_hash')}); the gold "
                       "domains would not be the ones the run was scored against")
    ec = int(run.config.get("ec", 0))
    semantic = "semantic" in modes
    modes = tuple(m for m in modes if m != "semantic")
    lines = []
    rescored_items = []
    for item in run.items():
        try:
            record = data.get(str(item["item"]))
        except KeyError:
            continue
        gold = record.domain
        problems = tuple((p.name, p.pddl) for p in record.problems) if semantic else ()
        round_scores = []
        semantic_rounds = []
        for rnd in item.get("rounds", []):
            extraction_error = None if rnd.get("extracted", True) else "no PDDL"
            analysis = analyze_round(gold, rnd.get("domain") or "", extraction_error, modes,
                                     problems, rnd.get("response"))
            round_scores.append(analysis["scores"])
            semantic_rounds.append({"semantic": analysis.get("semantic")})
        ec_scores = {mode: [compact_score(round_scores[min(i, len(round_scores) - 1)][mode])
                            for i in range(ec + 1)] for mode in modes} if round_scores else {}
        if problems:
            from .semantic_report import ec_semantic
            ec_scores["semantic"] = ec_semantic(semantic_rounds, ec)
        lines.append(json.dumps({"item": item["item"], "ec": ec_scores,
                                 "rounds": round_scores,
                                 **({"semantic": [r["semantic"] for r in semantic_rounds]}
                                    if problems else {})}, ensure_ascii=False))
        rescored_items.append({**item, "ec": {**item.get("ec", {}), **ec_scores}})
    from .store import atomic_write_text

    atomic_write_text(run.path / "scores.jsonl", "\n".join(lines) + ("\n" if lines else ""))
    summary = summarize(run.config, rescored_items, run.open_errors(), run.paid_calls())
    summary["rescored"] = {"modes": list(modes) + (["semantic"] if semantic else []),
                           "at": utc_now()}
    run.write_summary(summary)
    return summary


def load_run_items(run: Run) -> list[dict]:
    """The finished items, with scores from ``scores.jsonl`` when the run was re-scored."""
    items = run.items()
    rescored_path = run.path / "scores.jsonl"
    if rescored_path.is_file():
        from .runs import read_jsonl

        rescored = {str(r["item"]): r for r in read_jsonl(rescored_path)}
        items = [{**item, "ec": {**item.get("ec", {}),
                                 **rescored.get(str(item["item"]), {}).get("ec", {})}}
                 for item in items]
    return items
