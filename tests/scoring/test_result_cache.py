"""Scoring results kept on disk (``scoring.caching.ResultCache``): keyed by the inputs and the
code, only what repeats, and a second ``t2w eval`` over the same answers takes them instead of
validating and scoring again, with the same log."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
from pathlib import Path

import pytest

from text2world.scoring import caching
from text2world.scoring.caching import ResultCache, code_fingerprint

ITEMS = ["blocksworld", "gripper"]


def test_results_are_kept_per_kind_inputs_and_code(tmp_path, monkeypatch):
    cache = ResultCache(tmp_path / "scores")
    key = cache.key("score", ["gold", "answer"])
    assert cache.get(key) is None
    cache.put(key, {"ok": True, "scores": [1.0, None], "reason": "é"})
    assert cache.get(key) == {"ok": True, "scores": [1.0, None], "reason": "é"}
    assert len({key, cache.key("validate", ["gold", "answer"]),
                cache.key("score", ["gold", "answer "])}) == 3
    monkeypatch.setattr(caching, "code_fingerprint", lambda: "another version of the code")
    assert cache.key("score", ["gold", "answer"]) != key


def test_only_what_json_gives_back_equal_is_kept_and_bad_entries_are_misses(tmp_path):
    cache = ResultCache(tmp_path / "scores")
    cache.put("a" * 64, {"pair": (1, 2)})  # a tuple comes back a list: not kept
    cache.put("b" * 64, {1: "x"})  # a key that is not a string: not kept
    assert cache.get("a" * 64) is None and cache.get("b" * 64) is None
    assert not list((tmp_path / "scores").rglob("*.json"))
    path = cache.path("c" * 64)
    path.parent.mkdir(parents=True)
    for text in ("{not json", "[1, 2]", '{"result": [1]}'):
        path.write_text(text)
        assert cache.get("c" * 64) is None
    blocked = tmp_path / "file"
    blocked.write_text("")
    ResultCache(blocked / "scores").put("d" * 64, {"ok": True})  # cannot be written: no error


def test_the_fingerprint_covers_the_parser_and_planner_versions(monkeypatch):
    import importlib.metadata

    assert code_fingerprint() == code_fingerprint.__wrapped__()
    assert len(code_fingerprint()) == 64
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version",
                        lambda name: "0.0" if name == "tarski" else real(name))
    assert code_fingerprint.__wrapped__() != code_fingerprint()


def test_a_score_a_clock_shaped_or_a_failure_is_not_said_to_repeat(monkeypatch):
    from text2world.scoring import semantic
    from text2world.store.datasets import load_dataset
    from text2world.tasks.generation.scoring import score_round_repeats, validate_round_repeats

    record = load_dataset().get("blocksworld")
    problems = tuple((p.name, p.pddl) for p in record.problems)
    scored, repeats = score_round_repeats(record.domain, record.domain, ("canonical",), problems)
    assert repeats and scored["semantic"]["verdict"] == "equivalent"
    assert validate_round_repeats(record.domain, None) == ({"ok": True, "errors": [],
                                                            "warnings": []}, True)
    timed_out = semantic.SemanticScore(False, "the prediction cannot be simulated: timeout: x",
                                       timeouts=("scoring took more than 60s",))
    monkeypatch.setattr(semantic, "semantic_score", lambda *args, **kwargs: timed_out)
    scored, repeats = score_round_repeats(record.domain, record.domain, ("canonical",), problems)
    assert not repeats and scored["semantic"]["reason"].endswith("timeout: x")

    def failing(*args, **kwargs):
        raise MemoryError

    monkeypatch.setattr(semantic, "semantic_score", failing)
    scored, repeats = score_round_repeats(record.domain, record.domain, ("canonical",), problems)
    assert not repeats and "MemoryError" in scored["semantic"]["reason"]
    assert semantic.semantic_round(record.domain, record.domain, problems) == scored["semantic"]


def _scores(items: list[dict]) -> list:
    volatile = {"latency", "finished", "seconds"}

    def clean(value):
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if k not in volatile}
        if isinstance(value, list):
            return [clean(v) for v in value]
        return value

    return sorted((clean(item) for item in items), key=lambda item: item["item"])


def test_a_second_eval_takes_every_result_from_disk_and_logs_the_same(monkeypatch):
    from text2world.tasks.generation import task as generation
    from text2world.tasks.generation.task import EvalOptions, evaluate

    def options(run_id: str) -> EvalOptions:
        return EvalOptions(model="reference/noisy-oracle", domains=ITEMS, ec=3, workers=0,
                           run_id=run_id)

    first = evaluate(options("first"))
    kept = list((Path(os.environ["T2W_HOME"]) / "cache" / "scores").rglob("*.json"))
    rounds = sum(len(item["rounds"]) for item in first.run.items())
    assert len(kept) >= rounds  # a validation and a score per distinct answer

    def recomputed(*args):
        raise AssertionError("validated or scored again")

    monkeypatch.setattr(generation, "validate_round_repeats", recomputed)
    monkeypatch.setattr(generation, "score_round_repeats", recomputed)
    second = evaluate(options("second"))
    assert _scores(second.run.items()) == _scores(first.run.items())
    assert json.dumps(second.summary["metrics"]) == json.dumps(first.summary["metrics"])


def test_another_home_scores_again(monkeypatch, tmp_path):
    from text2world.tasks.generation import task as generation
    from text2world.tasks.generation.task import EvalOptions, evaluate

    calls: list[str] = []
    real = generation.score_round_repeats

    def counted(*args):
        calls.append(args[1])
        return real(*args)

    monkeypatch.setattr(generation, "score_round_repeats", counted)
    for run_id in ("here", "there"):
        evaluate(EvalOptions(model="reference/oracle", domains=ITEMS[:1], ec=0, workers=0,
                             semantic=False, run_id=run_id))
        monkeypatch.setenv("T2W_HOME", str(tmp_path / "other-home"))
    assert len(calls) == 2


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(pytest.main([__file__, "-q"]))


def test_disk_caches_are_bounded_and_keep_the_entries_in_use(tmp_path, monkeypatch):
    """Past its bound a store removes the entries used longest ago (a hit refreshes one),
    down to three quarters; entries of an older code digest, never read again, go first."""
    from text2world.planning.fast_downward import PlanCache

    entry = len(json.dumps({"result": {"x": "y" * 100}}))
    cache = ResultCache(tmp_path / "scores", max_bytes=40 * entry)
    monkeypatch.setattr(ResultCache, "PRUNE_EVERY", 10)
    keys = [cache.key("score", [i]) for i in range(60)]
    for age, key in enumerate(keys[:30]):
        cache.put(key, {"x": "y" * 100})
        os.utime(cache.path(key), (1000 + age, 1000 + age))  # written long ago, in order
    assert cache.get(keys[0]) is not None  # in use: its time is now
    for key in keys[30:]:
        cache.put(key, {"x": "y" * 100})
    stats = cache.stats()
    assert stats["bytes"] <= 40 * entry and stats["max_bytes"] == 40 * entry
    assert cache.get(keys[0]) is not None and cache.get(keys[-1]) is not None
    assert cache.get(keys[1]) is None  # the oldest unused went first
    monkeypatch.setenv("T2W_SCORE_CACHE_BYTES", "0")
    monkeypatch.setenv("T2W_PLAN_CACHE_BYTES", "12345")
    assert ResultCache(tmp_path).max_bytes is None and PlanCache(tmp_path).max_bytes == 12345
    monkeypatch.delenv("T2W_SCORE_CACHE_BYTES")
    assert ResultCache(tmp_path).max_bytes == ResultCache.DEFAULT_MAX_BYTES


def test_cache_commands_cover_every_cache_and_bad_bounds_are_clear_errors(tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from text2world.cli import app
    from text2world.model.cache import Completion, ResponseCache
    from text2world.planning.fast_downward import PlanCache

    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    responses = ResponseCache()
    responses.put("ab" + "0" * 62, Completion("x", None, 1, 1, 0.01, 0.1), "openai/m", 0)
    plans, scores = PlanCache(), ResultCache()
    plans.put(plans.key("p", "d", "q"), {"solved": True})
    scores.put(scores.key("score", ["g", "a"]), {"ok": True})
    runner = CliRunner()
    shown = json.loads(runner.invoke(app, ["cache", "inspect", "--json"]).output)
    assert (shown["entries"], shown["plans"]["entries"], shown["scores"]["entries"]) == (1, 1, 1)
    text = runner.invoke(app, ["cache", "inspect"]).output
    assert "planner answers" in text and "scores" in text and "of at most 512 MiB" in text
    only = runner.invoke(app, ["cache", "clear", "--only", "scores", "--yes"])
    assert only.exit_code == 0 and "removed 1 scores" in only.output
    assert plans.stats()["entries"] == 1 and responses.stats()["entries"] == 1
    every = runner.invoke(app, ["cache", "clear", "--yes"])
    assert "removed 1 cached responses, 1 planner answers, 0 scores" in every.output
    assert plans.stats()["entries"] == 0 and responses.stats()["entries"] == 0
    wrong = runner.invoke(app, ["cache", "clear", "--only", "plans", "--model", "m", "--yes"])
    assert wrong.exit_code == 1 and "Traceback" not in wrong.output
    monkeypatch.setenv("T2W_PLAN_CACHE_BYTES", "lots")
    bad = runner.invoke(app, ["cache", "inspect"])
    assert bad.exit_code == 1 and "T2W_PLAN_CACHE_BYTES='lots'" in bad.output
    assert bad.exception is None or isinstance(bad.exception, SystemExit)
