"""Every action of every store domain matters: removing it makes some problem unsolvable
(text2world/necessity.py), or it is listed in the manifest's ``optional_actions`` with a reason
and used in some plan.

Re-solving ~300 problems and ~600 one-action-less variants with Fast Downward takes far longer
than CI allows on 2 cores, so the results live in the committed content cache
``data/necessity-cache.json`` (sha256 of domain and problem text -> solved, plan). These tests
(1) check the cache answers every solve the current files need (a changed domain or problem
misses and fails, naming ``bench/necessity_bench.py`` to refresh it), (2) apply the rule from the
cached answers, and (3) re-solve a sample of cached entries with Fast Downward to check the cache
tells the truth. ``T2W_NECESSITY_SAMPLE=N`` re-solves N entries (default 8).
"""

from __future__ import annotations

import os
import random
import re

import pytest
from repo_paths import REPO

from text2world.planning.fast_downward import solve_many
from text2world.store.datasets import DatasetError, data_dir
from text2world.store.necessity import (
    CACHE_NAME,
    SolveCache,
    action_names,
    analyse_domains,
    necessity_problems,
    optional_actions,
    store_domains,
    without_action,
)

DATA = data_dir()
STORE_IDS = sorted(p.stem for p in (DATA / "domains").glob("*.pddl"))
REFRESH = "run `python bench/necessity_bench.py --prune` to refresh data/necessity-cache.json"


@pytest.fixture(scope="module")
def analysis():
    cache = SolveCache(DATA / CACHE_NAME)
    uses = analyse_domains(store_domains(DATA), cache, solve=False)
    return cache, {u.id: u for u in uses}


def test_cache_answers_every_solve_the_store_needs(analysis):
    _, uses = analysis
    missing = {i: u.missing for i, u in uses.items() if u.missing}
    assert not missing, f"solves not in the cache per domain: {missing}; {REFRESH}"


@pytest.mark.parametrize("record_id", STORE_IDS)
def test_every_action_is_needed_by_some_problem(record_id, analysis):
    _, uses = analysis
    use = uses[record_id]
    problems = necessity_problems(use, optional_actions(DATA).get(record_id, {}))
    assert not problems, "; ".join(problems)


def test_at_least_three_problems_the_last_markedly_larger():
    short = {}
    for record_id in STORE_IDS:
        problems = sorted((DATA / "problems" / record_id).glob("*.pddl"))
        if len(problems) < 3:
            short[record_id] = len(problems)
            continue
        first, last = (p.read_text(encoding="utf-8") for p in (problems[0], problems[-1]))
        if len(last) < 1.3 * len(first):
            short[record_id] = f"last problem {len(last)} chars vs first {len(first)}"
    assert not short, short


def test_cache_tells_the_truth_on_a_sample(analysis):
    cache, _ = analysis
    keys = sorted(k for k in cache.sources if k in cache.entries)
    rng = random.Random(int(os.environ.get("T2W_NECESSITY_SEED", "13")))
    unsolved = [k for k in keys if not cache.entries[k]["solved"]]
    solved = [k for k in keys if cache.entries[k]["solved"]]
    size = int(os.environ.get("T2W_NECESSITY_SAMPLE", "8"))
    sample = rng.sample(unsolved, min(len(unsolved), size // 2)) + \
        rng.sample(solved, min(len(solved), size - size // 2))
    results = solve_many([(k, *cache.sources[k]) for k in sample], workers=2, timeout=60)
    wrong = [k[:12] for k in sample if results[k].solved != cache.entries[k]["solved"]]
    assert not wrong, f"cached answers differ from Fast Downward for {wrong}; {REFRESH}"


def test_without_action_removes_exactly_one_block():
    text = """; a (:action fake in a comment
(define (domain d) (:requirements :strips) (:predicates (p) (q))
  (:action a :parameters () :precondition (p) :effect (q)) ; (:action x
  (:action b :parameters () :precondition (q) :effect (and (p) (not (q)))))"""
    assert action_names(text) == ["a", "b"]
    stripped = without_action(text, "A")
    assert action_names(stripped) == ["b"] and "(:action b" in stripped
    code = re.sub(r";[^\n]*", "", stripped)
    assert code.count("(") == code.count(")") and "(:action a" not in code
    with pytest.raises(DatasetError, match="no action 'c'"):
        without_action(text, "c")


def test_cli_stats_audit_prints_the_figures(tmp_path):
    """`t2w data stats --audit` reports the store's figures from the cache (no solving)."""
    import json
    import subprocess
    import sys
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-m", "text2world.cli", "data", "stats", "--audit",
                          "--json"], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    store = json.loads(run.stdout)["store"]
    assert store["necessity"]["missing_solves"] == 0
    assert store["necessity"]["needed_by_no_problem"] == sum(
        len(v) for v in optional_actions(DATA).values())
    assert store["write_only_predicates"] == 0 and store["problems"]["min_per_domain"] >= 3
    assert store["sizes"]["features"]["constants"] >= 10
    assert store["sizes"]["features"]["untyped"] >= 8
    text = subprocess.run([sys.executable, "-m", "text2world.cli", "data", "stats", "--audit"],
                          capture_output=True, text=True, env=env)
    assert "necessity: needed by no problem" in text.stdout
    bad = subprocess.run([sys.executable, "-m", "text2world.cli", "data", "stats", "--audit",
                          "-d", str(tmp_path)], capture_output=True, text=True, env=env)
    assert bad.returncode != 0 and "store folder" in bad.stderr + bad.stdout
