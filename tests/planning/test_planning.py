"""Solving problems with Fast Downward via unified-planning: solved, unsolvable, unparsable."""

from __future__ import annotations

import os

import pytest

from text2world.planning.fast_downward import solve_many, tarski_problem_error
from text2world.store.datasets import load_dataset

UNSOLVABLE = """(define (problem stuck) (:domain blocksworld)
  (:objects a b - block)
  (:init (on-table a) (on-table b) (clear a) (clear b))
  (:goal (and (on a b) (on b a))))"""
UNDEFINED_OBJECT = """(define (problem typo) (:domain blocksworld)
  (:objects a - block)
  (:init (on-table a) (clear a) (hand-empty))
  (:goal (on a zzz)))"""


def test_solved_unsolvable_and_unparsable_problems(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocksworld = load_dataset().get("blocksworld")
    problem = blocksworld.problems[0].pddl
    jobs = [("ok", blocksworld.domain, problem), ("stuck", blocksworld.domain, UNSOLVABLE),
            ("typo", blocksworld.domain, UNDEFINED_OBJECT)]
    results = solve_many(jobs, workers=2, timeout=20, tarski_check=True)
    assert results["ok"].solved and results["ok"].plan_length > 0
    assert not results["stuck"].solved and results["stuck"].status != "ParseError"
    assert results["typo"].status == "ParseError" and "tarski" in results["typo"].message
    assert tarski_problem_error(blocksworld.domain, problem) is None
    # the planner ran in temporary folders: nothing written into the working directory
    assert os.listdir(tmp_path) == []



def test_semantic_scoring_and_world_models_cache_plans_in_one_home(tmp_path, monkeypatch):
    """One on-disk home for planner answers; the planner configuration is in the key, so
    the satisficing plans of semantic scoring and the optimal ones of the world-model tasks
    never answer for each other."""
    from text2world.planning import front as planner_front
    from text2world.planning.fast_downward import PlanCache
    from text2world.tasks.wm import planner as wm_planner
    from text2world.tasks.wm.planner import PLANNER_VERSION, optimal_plan

    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    planner_front.clear_memory()
    record = load_dataset().get("blocksworld")
    domain, problem = record.domain, record.problems[0].pddl
    satisficing = planner_front.cached_plan(domain, problem, 30)
    optimal = optimal_plan(domain, problem, timeout=30)
    assert satisficing.solved and optimal.solved
    assert satisficing.planner.startswith("in-process") and optimal.planner.startswith("in-process")
    files = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*.json"))
    keys = {PlanCache.key(planner_front.FRONT, domain, problem),
            PlanCache.key(PLANNER_VERSION, domain, problem)}
    assert files == sorted(PlanCache().path(k).relative_to(tmp_path) for k in keys)
    assert all(str(f).startswith("cache/plans/") for f in files)
    # Both are read back from there: no planner runs the second time.
    planner_front.clear_memory()
    monkeypatch.setattr(planner_front, "plan_problem", None)  # would fail if called
    monkeypatch.setattr(wm_planner, "_in_process", None)
    monkeypatch.setattr(wm_planner, "_fast_downward", None)
    assert planner_front.cached_plan(domain, problem, 30) == satisficing
    assert optimal_plan(domain, problem, timeout=30).cached
    planner_front.clear_memory()


def test_the_direct_pipeline_answers_as_the_driver_does(tmp_path):
    """``fast_downward_plan`` runs lama-first's translator and search without the driver: the
    same exit code and the same plan as the driver, on a solved, an unsolvable and an
    unparsable problem and on a small store problem of each of three domains."""
    from text2world.planning.fast_downward import (
        fast_downward_folder,
        read_plan_file,
        run_fast_downward,
        run_fast_downward_direct,
    )

    blocksworld = load_dataset().get("blocksworld")
    cases = [(blocksworld.domain, blocksworld.problems[0].pddl),
             (blocksworld.domain, UNSOLVABLE), (blocksworld.domain, UNDEFINED_OBJECT)]
    for name in ("cargo-logistics", "sudoku-fill", "dishwasher"):
        record = load_dataset().get(name)
        cases.append((record.domain, record.problems[-1].pddl))
    codes = []
    for domain, problem in cases:
        answers = []
        for direct in (False, True):
            with fast_downward_folder(domain, problem) as workdir:
                if direct:
                    code, _ = run_fast_downward_direct(workdir, 60, alias="lama-first")
                else:
                    code, _ = run_fast_downward(
                        workdir, ["--plan-file", "plan", "--alias", "lama-first", "domain.pddl",
                                  "problem.pddl"], 60)
                plan = read_plan_file(workdir / "plan") if (workdir / "plan").is_file() else None
            answers.append((code, plan))
        assert answers[0] == answers[1], (problem[:60], answers)
        codes.append(answers[0][0])
    assert codes[:3] == [0, 11, 31] and codes[3:] == [0, 0, 0]


def test_the_direct_pipeline_keeps_the_drivers_cpu_limit():
    """With an overall CPU limit (the world-model planner's), a search that cannot finish stops
    at the limit with the driver's exit code (23: search out of time), and a limit already
    used up stops before the translator runs (232), as through the driver."""
    from text2world.planning.fast_downward import (
        fast_downward_folder,
        run_fast_downward,
        run_fast_downward_direct,
    )

    domain = load_dataset().get("blocksworld").domain
    blocks = [f"b{i}" for i in range(12)]  # blind A* on 12 blocks runs for minutes
    problem = ("(define (problem endless) (:domain blocksworld)\n"
               f"  (:objects {' '.join(blocks)} - block)\n"
               f"  (:init {' '.join(f'(on-table {b}) (clear {b})' for b in blocks)} "
               "(hand-empty))\n  (:goal (and (on b0 b1) (on b1 b0))))\n")
    for limit, expected in ((2, 23), (1, 232)):
        with fast_downward_folder(domain, problem) as workdir:
            direct, _ = run_fast_downward_direct(workdir, 30, search=("--search", "astar(blind())"),
                                                 cpu_limit=limit)
            driver, _ = run_fast_downward(
                workdir, ["--overall-time-limit", f"{limit}s", "--plan-file", "plan",
                          "domain.pddl", "problem.pddl", "--search", "astar(blind())"], 30)
        assert direct == driver == expected, (limit, direct, driver)


def test_the_prover_takes_a_turn_after_lama_first(tmp_path, monkeypatch):
    """Blind A* (``PROVER_SEARCH``) takes a turn when lama-first has not answered in its first
    half second (``fast_downward_with_prover``): the answer
    is lama-first's as if it ran alone, unless the prover proves the problem unsolvable (8
    switches, 7 tokens: unsolvable by counting, h^2 sees every goal pair reachable, the
    in-process search stops on its bounds) or lama-first runs out of time. A proof is kept as
    any other answer; a plan the prover gives is clock-shaped (``timeout_of``: lama-first's
    limit decided it) and never written to disk. lama-first's limit is 0 where the prover must
    answer, so that it stops on every machine; both out of time: the usual timeout."""
    from planning_helpers import TOKENS, tokens_problem

    from text2world.planning import front as planner_front
    from text2world.planning.fast_downward import (
        PROVER_SEARCH,
        PlanCache,
        fast_downward_plan,
        fast_downward_with_prover,
    )
    from text2world.simulation import simulator_from_text

    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    planner_front.clear_memory()
    counting = tokens_problem(8)
    assert fast_downward_plan(TOKENS, counting, search=PROVER_SEARCH).status == "UNSOLVABLE_PROVEN"
    blocksworld = load_dataset().get("blocksworld")
    domain, problem = blocksworld.domain, blocksworld.problems[0].pddl
    alone = fast_downward_plan(domain, problem, 20)
    assert fast_downward_with_prover(domain, problem, 20, prover_timeout=20) == (alone, False)
    # the prover's turn at once (lama-first stopped as it starts), its plan set aside:
    # lama-first, run again, answers as alone
    assert fast_downward_with_prover(domain, problem, 20, prover_timeout=20,
                                     prover_after=0) == (alone, False)
    stopped, _ = planner_front.planned(TOKENS, tokens_problem(30), 0.0)
    assert stopped.status == "Timeout" and stopped.message.startswith("no plan within 0 CPU")

    monkeypatch.setattr(planner_front, "fast_downward_with_prover",
                        lambda d, p, _timeout, prover_timeout: fast_downward_with_prover(
                            d, p, 0, prover_timeout=20))
    proof, _ = planner_front.planned(TOKENS, counting, 20)
    assert proof.status == "UNSOLVABLE_PROVEN" and not proof.solved
    # the record does not say which search proved it (a wall-clock turn decided that)
    assert proof.planner.startswith(planner_front.FD_UNSOLVABLE)
    assert "bound" in proof.planner and planner_front.timeout_of(proof) == ""
    assert PlanCache().get(PlanCache.key(planner_front.FRONT, TOKENS, counting)) is not None

    monkeypatch.setattr(planner_front, "search_plan", lambda *_a, **_k: (None, "skipped"))
    found, _ = planner_front.planned(domain, problem, 20)
    assert found.solved and found.planner.startswith(planner_front.PROVER)
    assert "the plan is the prover's" in planner_front.timeout_of(found)
    assert PlanCache().get(PlanCache.key(planner_front.FRONT, domain, problem)) is None
    assert simulator_from_text(domain, problem).validate_plan(found.plan).valid
    planner_front.clear_memory()


def test_lama_first_stopped_for_the_prover_counts_its_cpu(monkeypatch):
    """When lama-first has not answered in its turn (10 switches, 9 tokens: the prover proves
    it in about a fifth of lama-first's time), its launcher kills and reaps its search itself
    (exit code ``TURN_OVER``, not a signal), so that the search's CPU seconds count among
    this process's children's; the prover's run, in the same folder, searches the translation
    lama-first's run made (it translates nothing); the prover's proof is the answer, and
    nothing of either process group is left. A problem lama-first answers in its turn never
    starts the prover."""
    from planning_helpers import TOKENS, tokens_problem

    from text2world.planning import fast_downward

    launched, outputs = [], []
    original = fast_downward._Launched.__init__

    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        launched.append(self)

    def output(self):
        outputs.append(self.log.read_text())
        return outputs[-1]

    monkeypatch.setattr(fast_downward._Launched, "__init__", recording)
    monkeypatch.setattr(fast_downward._Launched, "output", output)
    result, proved = fast_downward.fast_downward_with_prover(TOKENS, tokens_problem(10), 60,
                                                             prover_timeout=60)
    assert proved and result.status == "UNSOLVABLE_PROVEN"
    lama, prover = launched
    assert prover.process.returncode == 11 and lama.process.returncode == fast_downward.TURN_OVER
    assert lama.log == prover.log  # one folder
    assert "Parsing..." not in outputs[-1] and "Task is provably unsolvable" in outputs[-1]
    for run in launched:
        with pytest.raises(ProcessLookupError):
            os.killpg(run.process.pid, 0)
    launched.clear()
    quick, proved = fast_downward.fast_downward_with_prover(TOKENS, tokens_problem(2), 60,
                                                            prover_after=60)
    assert quick.status == "UNSOLVABLE_PROVEN" and not proved and len(launched) == 1
    assert "Parsing..." in outputs[-1]


def test_a_run_on_an_earlier_translation_counts_its_cpu_seconds(tmp_path):
    """The direct launcher searches a translation an earlier run finished in its folder, and
    its CPU limit counts that translation's CPU seconds (``translated``), as the driver's does
    its own: with the limit's seconds already spent the run ends as a translator out of time."""
    from planning_helpers import TOKENS, tokens_problem

    from text2world.planning.fast_downward import (
        PROVER_SEARCH,
        fast_downward_folder,
        run_fast_downward_direct,
    )

    with fast_downward_folder(TOKENS, tokens_problem(3)) as workdir:
        code, output = run_fast_downward_direct(workdir, 60, alias="lama-first", cpu_limit=20)
        assert code == 11 and "Parsing..." in output
        spent = float((workdir / "translated").read_text())
        assert 0 < spent < 20
        code, output = run_fast_downward_direct(workdir, 60, search=PROVER_SEARCH, cpu_limit=20)
        assert code == 11 and "Parsing..." not in output
        (workdir / "translated").write_text("19.5")
        code, _ = run_fast_downward_direct(workdir, 60, search=PROVER_SEARCH, cpu_limit=20)
        assert code == 232  # 0 whole seconds left, as the driver's translator past its limit
