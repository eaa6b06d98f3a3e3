"""Start-up of a small ``t2w eval``: Fast Downward without unified-planning, the golds of a
small run prepared in the background (same scores), planner processes that die with the run,
and litellm imported with the garbage collector paused (``bench/startup_bench.py`` measures
the time; these tests check the behaviour)."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before litellm is imported

import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from processes import HAS_PROC, descendants, run_fresh, survivors, wait_for
from repo_paths import REPO

from text2world.engine.pool import GoldPrefetch
from text2world.planning import fast_downward as planning
from text2world.planning import front as planner_front
from text2world.scoring import semantic, semantic_gold
from text2world.store.datasets import load_dataset
from text2world.tasks.generation.scoring import score_round
from text2world.tasks.generation.task import EvalOptions, evaluate, plan

ITEM = "airport-ground"  # the first test item, as in bench/startup_bench.py
HEAVY = ("unified_planning", "up_fast_downward", "scipy", "ConfigSpace", "matplotlib",
         "sklearn", "fastapi", "uvicorn")


def _timing_free(data):
    """A result without its measured durations (they differ between any two runs)."""
    if isinstance(data, dict):
        return {k: _timing_free(v) for k, v in data.items()
                if k not in ("seconds", "planner_seconds", "latency", "finished")}
    if isinstance(data, list):
        return [_timing_free(v) for v in data]
    return data


def _clear_semantic_caches() -> None:
    semantic_gold._GOLD_CACHE.clear()
    planner_front.clear_memory()


def _record_and_prediction():
    record = load_dataset().get(ITEM)
    problems = tuple((p.name, p.pddl) for p in record.problems)
    # a prediction that differs from the gold (one action fewer): non-trivial semantic scores
    from text2world.pddl.perturb import drop_action
    return record, problems, drop_action(record.domain, seed=3)


# --------------------------------------------------------------------------------------------
# Fast Downward without importing up_fast_downward (unified-planning, ConfigSpace, scipy)


def test_planner_runs_without_importing_unified_planning_or_scipy():
    code = ("from text2world.planning.fast_downward import fast_downward_driver, fast_downward_plan\n"
            "from text2world.store.datasets import load_dataset\n"
            "driver = fast_downward_driver()\n"
            "record = load_dataset().get('blocksworld')\n"
            "result = fast_downward_plan(record.domain, record.problems[0].pddl)\n"
            "print(driver)\n"
            "print(result.solved, result.plan_length)\n")
    (driver, solved), loaded = run_fresh(code, HEAVY, timeout=120)
    assert driver.endswith(os.path.join("up_fast_downward", "downward", "fast-downward.py"))
    assert Path(driver).is_file()
    assert solved.startswith("True") and int(solved.split()[1]) > 0
    assert loaded == []


def test_missing_planner_is_a_clear_error(monkeypatch):
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None)
    with pytest.raises(planning.PlannerMissing, match="pip install up-fast-downward"):
        planning.fast_downward_driver()
    record, problems, _ = _record_and_prediction()
    _clear_semantic_caches()
    # Fast Downward is the fallback: make the in-process search give up so that it runs
    monkeypatch.setattr(planner_front, "search_plan", lambda *args: (None, "forced fallback"))
    # and the golds' shipped planner answers unused, so the gold is planned here
    monkeypatch.setattr("text2world.planning.front.gold_front_answer", lambda *args, **kwargs: None)
    try:
        result = semantic.semantic_score(record.domain, record.domain, problems)
    finally:
        _clear_semantic_caches()
    assert not result.ok and "gold cannot be simulated" in result.reason
    assert "up-fast-downward" in result.reason


def test_one_item_eval_imports_nothing_heavy():
    """The whole path of a 1-item run with semantic scoring (plan, call, validation, scoring,
    gold plans) imports none of unified-planning, up_fast_downward or scipy, nor litellm: the
    client answers a reference model itself (test_eval_credentials checks the CLI import and
    planning a run)."""
    code = ("from text2world.tasks.generation.task import EvalOptions, evaluate, plan\n"
            f"options = EvalOptions(model='reference/oracle', domains=[{ITEM!r}], ec=0)\n"
            "result = evaluate(options, evaluation_plan=plan(options, prefetch=True))\n"
            "item = result.run.items()[0]\n"
            "print(item['rounds'][0]['semantic']['ok'], item['ec']['semantic'] is not None)\n")
    (scored,), loaded = run_fresh(code, (*HEAVY, "litellm"))
    assert scored == "True True"  # semantic scoring ran, with gold plans from Fast Downward
    assert loaded == []


# --------------------------------------------------------------------------------------------
# Golds prepared in the background


def test_background_gold_preparation_gives_the_sequential_scores(tmp_path, monkeypatch):
    record, problems, prediction = _record_and_prediction()
    monkeypatch.setenv("T2W_HOME", str(tmp_path / "sequential"))  # no plan from the disk cache
    _clear_semantic_caches()
    sequential = score_round(record.domain, prediction, problems=problems)

    monkeypatch.setenv("T2W_HOME", str(tmp_path / "background"))
    _clear_semantic_caches()
    prefetch = GoldPrefetch([(record.domain, problems)])
    assert prefetch.wait(120) and prefetch.prepared == 1
    planned = []
    real_plan = planner_front.plan_problem
    monkeypatch.setattr(planner_front, "plan_problem",
                        lambda *args, **kwargs: planned.append(args) or real_plan(*args, **kwargs))
    background = score_round(record.domain, prediction, problems=problems)
    prediction_plans = len(planned)
    exact = score_round(record.domain, record.domain, problems=problems)
    _clear_semantic_caches()

    assert _timing_free(background) == _timing_free(sequential)
    assert sequential["semantic"]["ok"] and sequential["semantic"]["plan_validity"] is not None
    # scoring found the gold ready: it planned only the prediction's own problems, and a
    # prediction equal to the gold planned nothing at all
    assert 0 < prediction_plans <= len(problems)
    assert exact["semantic"]["ok"] and exact["semantic"]["plan_validity"] == 1.0
    assert len(planned) == prediction_plans


def test_a_gold_being_prepared_is_waited_for_not_built_twice(monkeypatch):
    record, problems, _ = _record_and_prediction()
    _clear_semantic_caches()
    started, release = threading.Event(), threading.Event()
    built = []
    real_build = semantic_gold._build_gold

    def slow_build(*args):
        built.append(threading.current_thread().name)
        started.set()
        assert release.wait(60)
        return real_build(*args)

    monkeypatch.setattr(semantic_gold, "_build_gold", slow_build)
    prefetch = GoldPrefetch([(record.domain, problems)])
    assert started.wait(60)
    results = []
    scorer = threading.Thread(target=lambda: results.append(
        semantic.prepare_gold(record.domain, list(problems))))
    scorer.start()
    scorer.join(0.5)  # it must be waiting for the prefetch, not building
    assert scorer.is_alive() and len(built) == 1
    release.set()
    scorer.join(120)
    assert prefetch.wait(120)
    assert built == ["t2w-gold-prefetch"]
    assert results and results[0] is semantic.prepare_gold(record.domain, list(problems))
    _clear_semantic_caches()


def test_small_run_prefetches_and_scores_as_the_pool_does(tmp_path, monkeypatch):
    """A 1-item run prepares its gold in the background; its recorded rounds equal those of
    the same run scored in a forked pool (no prefetch there)."""
    _clear_semantic_caches()
    small = EvalOptions(model="reference/noisy-oracle", domains=[ITEM], ec=2, seed=4,
                        runs_root=tmp_path / "small")
    small_plan = plan(small, prefetch=True)
    assert small_plan.prefetch is not None and small_plan.prefetch.golds[0][0] \
        == load_dataset().get(ITEM).domain
    small_run = evaluate(small, evaluation_plan=small_plan)
    assert small_plan.prefetch.wait(60) and small_plan.prefetch.prepared == 1

    monkeypatch.setenv("T2W_HOME", str(tmp_path / "pool-home"))  # plans made afresh
    _clear_semantic_caches()
    pooled = EvalOptions(model="reference/noisy-oracle", domains=[ITEM], ec=2, seed=4,
                         workers=1, runs_root=tmp_path / "pool")
    pooled_plan = plan(pooled, prefetch=True)
    assert pooled_plan.prefetch is None  # scored in the pool's process, not this one
    pooled_run = evaluate(pooled, evaluation_plan=pooled_plan)
    _clear_semantic_caches()

    small_items = _timing_free(small_run.run.items())
    assert small_items == _timing_free(pooled_run.run.items())
    rounds = small_items[0]["rounds"]
    assert all(r["semantic"]["settings"] for r in rounds if r["extracted"])
    assert small_items[0]["ec"]["semantic"] is not None


def test_no_prefetch_for_a_pool_a_resume_or_without_problems(tmp_path):
    many = plan(EvalOptions(model="reference/oracle", limit=5), prefetch=True)
    assert many.prefetch is None  # 5 items: the scoring pool prepares golds in its workers
    off = plan(EvalOptions(model="reference/oracle", domains=[ITEM], semantic=False),
               prefetch=True)
    assert off.prefetch is None
    quiet = plan(EvalOptions(model="reference/oracle", domains=[ITEM]))
    assert quiet.prefetch is None  # only when asked (the command line asks)


# --------------------------------------------------------------------------------------------
# A killed run leaves no planner behind


def _unsolvable_store(root: Path) -> Path:
    """A 1-item store whose problem keeps Fast Downward searching (10 blocks, a goal no state
    reaches: three blocks on each other in a cycle, which every pair of its atoms allows, so
    h^2 proves nothing and the front hands it to Fast Downward): its gold plan is still being
    searched for when the run is killed."""
    gold = load_dataset().get("blocksworld").domain
    blocks = [f"b{i}" for i in range(10)]
    problem = ("(define (problem endless) (:domain blocksworld)\n"
               f"  (:objects {' '.join(blocks)} - block)\n"
               f"  (:init {' '.join(f'(on-table {b}) (clear {b})' for b in blocks)} "
               "(hand-empty))\n  (:goal (and (on b0 b1) (on b1 b2) (on b2 b0))))\n")
    (root / "domains").mkdir(parents=True)
    (root / "domains" / "endless.pddl").write_text(gold)
    (root / "descriptions" / "endless").mkdir(parents=True)
    (root / "descriptions" / "endless" / "abstract.md").write_text("Stack blocks.\n")
    (root / "problems" / "endless").mkdir(parents=True)
    (root / "problems" / "endless" / "p01.pddl").write_text(problem)
    return root


def _planner_running(pid: int) -> bool:
    for child in descendants(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"downward" in command and b"fast-downward.py" not in command:
            return True  # the translator or the search, below the driver
    return False


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc to find the process tree")
def test_killed_run_leaves_no_planner_behind(tmp_path):
    store = _unsolvable_store(tmp_path / "store")
    env = {**os.environ, "T2W_HOME": str(tmp_path / "home"),
           "T2W_RUNS_DIR": str(tmp_path / "runs")}
    command = [sys.executable, "-c", "from text2world.cli import app; app()", "eval",
               "--model", "reference/oracle", "--dataset", str(store), "--ec", "0",
               "--no-progress"]
    with (tmp_path / "out.txt").open("w") as out:
        process = subprocess.Popen(command, env=env, cwd=REPO, stdout=out,
                                   stderr=subprocess.STDOUT)
    try:
        assert wait_for(lambda: _planner_running(process.pid), 60), \
            "the gold's planner never started"
        children = descendants(process.pid)
        process.send_signal(signal.SIGKILL)  # the eval process only, never its group
        process.wait(30)
    finally:
        if process.poll() is None:
            process.kill()
    left = [] if wait_for(lambda: not survivors(children), 10) else survivors(children)
    for pid in left:  # an endless search must not outlive a failing test either
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not left, f"planner processes outlived the run: {left}"


# --------------------------------------------------------------------------------------------
# litellm imported with the garbage collector paused


@pytest.mark.parametrize("collecting", [True, False], ids=["gc-on", "gc-off"])
def test_litellm_import_pauses_the_collector_and_freezes_what_it_imported(collecting):
    code = ("import gc\n"
            f"{'gc.enable()' if collecting else 'gc.disable()'}\n"
            "from text2world.model.client import litellm_module\n"
            "before = gc.get_freeze_count()\n"
            "litellm = litellm_module()\n"
            "print(gc.isenabled(), gc.get_freeze_count() - before,\n"
            "      any(p.get('provider') == 'reference' for p in litellm.custom_provider_map))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=300, env={**os.environ})
    assert done.returncode == 0, done.stderr
    enabled, frozen, registered = done.stdout.split()
    assert enabled == str(collecting)  # the caller's setting is restored
    assert int(frozen) > 100_000 and registered == "True"
