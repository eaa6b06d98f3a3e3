"""Fast Downward's "unsolvable" is one record whichever search proved it: lama-first's turn
before the prover's is wall-clock time, so on a loaded machine the prover proves what
lama-first, unhurried, proves itself (bench/scaling_bench.py found a score that differed
between one worker and two in its planner's name)."""

from __future__ import annotations

import functools
from dataclasses import asdict

import pytest

from text2world.planning import front
from text2world.planning.fast_downward import PlanCache, fast_downward_with_prover
from text2world.scoring.mutants import mutants
from text2world.scoring.semantic import prepare_gold
from text2world.store.datasets import store_problems


@pytest.fixture(scope="module")
def unsolvable() -> tuple[str, str]:
    """exam-timetabling with seat-student no longer using up a seat level: its p02 past the
    in-process search's bounds and h^2, where lama-first and the prover both prove it
    unsolvable (within a second of CPU each)."""
    gold, problems = store_problems("exam-timetabling")
    cache = prepare_gold(gold, problems)
    mutant = next(m for m in mutants(cache.domain) if m.kind == "drop-add"
                  and m.action == "seat-student" and "(seats-left" in m.detail)
    return mutant.domain.to_pddl(), dict(problems)["p02"]


def test_the_record_does_not_say_which_search_proved_it(unsolvable, monkeypatch, tmp_path):
    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    domain, problem = unsolvable
    records = {}
    for name, turn in (("prover at once", 0.0), ("lama-first alone", 120.0)):
        monkeypatch.setattr(front, "fast_downward_with_prover",
                            functools.partial(fast_downward_with_prover, prover_after=turn))
        records[name] = front.plan_problem(domain, problem, limits=front.PREDICTION_LIMITS)
    first, second = records.values()
    assert first == second
    assert first.status == "UNSOLVABLE_PROVEN" and not first.solved
    assert first.planner.startswith(front.FD_UNSOLVABLE + " (after in-process")
    # whoever proved it, fast_downward_with_prover says so: the two runs differ there
    proved = [fast_downward_with_prover(domain, problem, 10.0, 5.0, prover_after=turn)[1]
              for turn in (0.0, 120.0)]
    assert proved == [True, False]


def test_an_answer_cached_before_reads_as_the_same_record(unsolvable, monkeypatch, tmp_path):
    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    front.clear_memory()
    domain, problem = unsolvable
    fresh = front.plan_problem(domain, problem, limits=front.PREDICTION_LIMITS)
    why = fresh.planner.partition(" (after ")[2].removesuffix(")")
    older = asdict(fresh) | {"planner": f"{front.PROVER} beside {front.FALLBACK} (after {why})",
                             "message": "Search stopped without finding a solution."}
    PlanCache().put(PlanCache.key(front.front_name(front.PREDICTION_LIMITS), domain, problem),
                    older)
    found, _ = front.planned(domain, problem, limits=front.PREDICTION_LIMITS)
    assert found == fresh
