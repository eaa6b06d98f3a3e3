"""Rewards are deterministic: the same answers scored in two fresh processes, with different
``PYTHONHASHSEED``s, empty planner caches (their own ``T2W_HOME``) and one process made several
times slower, give identical rewards, verdicts, reasons and scores; and a second pass in the same
process (the golds and plans cached) gives them again.

The slow process stands for a loaded machine: a profile hook makes every Python call of the
scoring cost more CPU time, as contention does. Bounds that count work are blind to it; a bound
that counts seconds is not: with the in-process search bounded at 0.5 CPU-s (before issue 35b),
the slow process sent sudoku-fill's larger problems to Fast Downward, whose plans differ, and the
answers' rewards changed (0.35825 against 0.35778)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from planning_helpers import TOKENS, tokens_problem

from text2world.model.reference import reference_answer
from text2world.pddl.perturb import drop_action
from text2world.planning import front as planner_front
from text2world.planning.fast_downward import PlanCache, fast_downward_plan
from text2world.simulation import simulator_from_text
from text2world.simulation.search import BOUND, SearchLimits, greedy_search, optimal_search
from text2world.store.datasets import load_dataset

GOLDS = ("sudoku-fill", "lights-out")

SCORE_TWICE = textwrap.dedent("""
    import json, sys, threading
    from text2world.rewards import resolve_gold, reward_for
    pairs = json.load(sys.stdin)
    if sys.argv[1] == "slow":  # every Python call costs more CPU time: a loaded machine
        def hook(*_):
            return None
        sys.setprofile(hook)
        threading.setprofile(hook)
    passes = [[reward_for(resolve_gold(gold), answer).to_dict() for gold, answer in pairs]
              for _ in range(2)]
    print(json.dumps(passes))
""")


def _answers() -> list[tuple[str, str]]:
    """Mutants of each gold: the noisy reference model's first rounds and a dropped action."""
    pairs = []
    for gold in GOLDS:
        domain = load_dataset().get(gold).domain
        pairs += [(gold, reference_answer("noisy-oracle", domain, gold, 1, seed=1)),
                  (gold, reference_answer("noisy-oracle", domain, gold, 0, seed=0)),
                  (gold, f"```pddl\n{drop_action(domain, seed=2)}\n```")]
    return pairs


def _score(pairs: list[tuple[str, str]], home: Path, hash_seed: str, speed: str) -> list[list[dict]]:
    env = {**os.environ, "T2W_HOME": str(home), "PYTHONHASHSEED": hash_seed}
    done = subprocess.run([sys.executable, "-c", SCORE_TWICE, speed], input=json.dumps(pairs),
                          capture_output=True, text=True, env=env, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def test_rewards_are_identical_across_processes_hash_seeds_and_speeds(tmp_path):
    pairs = _answers()
    first = _score(pairs, tmp_path / "home-1", "1", "normal")
    second = _score(pairs, tmp_path / "home-2", "2", "slow")
    assert first[0] == first[1], "a second pass in the same process changed a reward"
    assert second[0] == second[1], "a second pass in the same process changed a reward"
    for (gold, _), here, there in zip(pairs, first[0], second[0]):
        assert here == there, f"{gold}: {here['reward']} ({here['reason'][:200]}) in one process, " \
                              f"{there['reward']} ({there['reason'][:200]}) in the other"
    # the answers are mutants: not all equivalent, and no clock decided any of them
    assert {detail["verdict"] for detail in first[0]} - {"equivalent"}
    assert not any("timeout:" in detail["reason"] for detail in first[0] + second[0])


HOPELESS = tokens_problem(30)  # 30 switches, 29 tokens, no plan: only a bound ends a search


def test_the_heuristics_work_bounds_a_search_without_a_clock():
    sim = simulator_from_text(TOKENS, HOPELESS)
    limits = SearchLimits(max_expanded=10**9, max_evaluated=10**9, max_seconds=600,
                          max_relaxed_work=3_000)
    first, second = greedy_search(sim, limits=limits), greedy_search(sim, limits=limits)
    assert first.status == BOUND and first.bound == "relaxed-work" and "3,000" in first.message
    assert (first.expanded, first.evaluated) == (second.expanded, second.evaluated)
    assert "relaxed-work<=3000" in limits.describe()
    # the front: bounded by work only; its CPU seconds are a safety net far above them
    assert planner_front.FRONT_LIMITS.max_relaxed_work and planner_front.FRONT_LIMITS.max_seconds >= 5


def test_a_clock_that_fires_says_timeout():
    sim = simulator_from_text(TOKENS, HOPELESS)
    clock = optimal_search(sim, heuristic="blind", limits=SearchLimits(10**9, 10**9, max_seconds=0.0))
    assert clock.status == BOUND and clock.bound == "seconds" and clock.message.startswith("timeout:")
    answer, why = planner_front.search_plan(sim, SearchLimits(10**9, 10**9, max_seconds=0.0))
    assert answer is None and "timeout:" in why
    # Fast Downward's limit counts CPU seconds; with none left it stops at once, as a timeout
    stopped = fast_downward_plan(TOKENS, HOPELESS, timeout=0)
    assert stopped.status == "Timeout" and "CPU seconds" in stopped.message
    assert planner_front.timeout_of(stopped).startswith("Fast Downward")


def test_an_answer_a_clock_shaped_is_not_cached(tmp_path, monkeypatch):
    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    planner_front.clear_memory()
    result = planner_front.cached_plan(TOKENS, HOPELESS, timeout=0)  # the front's bound, then FD
    assert result.status == "Timeout" and planner_front.timeout_of(result)
    assert PlanCache().get(PlanCache.key(planner_front.FRONT, TOKENS, HOPELESS)) is None


def test_fast_downwards_cpu_limit_is_remembered_in_memory_with_its_cost(tmp_path, monkeypatch):
    """A timeout Fast Downward's CPU limit decided is what a rerun on the same texts gives:
    remembered in memory (never on disk), with the planner's CPU seconds it cost, which a
    remembered answer is charged again (so a limit that counts the planner's CPU fires as it
    did); the wall clock's timeouts are not remembered (the machine's load decides them)."""
    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    planner_front.clear_memory()
    first, spent = planner_front.planned(TOKENS, HOPELESS, timeout=0)
    assert first.status == "Timeout" and "CPU seconds" in first.message and spent >= 0
    assert PlanCache().get(PlanCache.key(planner_front.FRONT, TOKENS, HOPELESS)) is None

    def no_planner(*_args, **_kwargs):
        raise AssertionError("the remembered answer runs no planner")

    monkeypatch.setattr(planner_front, "plan_problem", no_planner)
    assert planner_front.planned(TOKENS, HOPELESS, timeout=0) == (first, spent)
    assert planner_front.cached_plan(TOKENS, HOPELESS, timeout=0) == first
    planner_front.clear_memory()
    wall = planner_front.PlanResult(False, "Timeout", message="no plan within 30 wall-clock seconds",
                                    planner=f"{planner_front.FALLBACK} (after a bound)")
    calls = []

    def walled(*_args, **_kwargs):
        calls.append(1)
        return wall

    monkeypatch.setattr(planner_front, "plan_problem", walled)
    for _ in range(2):
        assert planner_front.cached_plan(TOKENS, HOPELESS, timeout=0) == wall
    assert len(calls) == 2
    planner_front.clear_memory()
