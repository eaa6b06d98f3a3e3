"""Semantic scoring: identity pairs score 1.0, behaviour-changing mutants are detected, a
prediction that cannot be simulated gets a reason, diagnoses name the literal."""

from __future__ import annotations

import random
from collections import OrderedDict

import pytest

from text2world.scoring import semantic_gold, semantic_pair
from text2world.scoring.mutants import behaviour_differs, mutants, rename
from text2world.scoring.semantic import SemanticSettings, prepare_gold, semantic_score
from text2world.simulation import parse_problem
from text2world.store.datasets import load_dataset, store_problems


def has_alignment() -> bool:
    try:
        import text2world.scoring.alignment  # noqa: F401
    except ImportError:
        return False
    return True


@pytest.fixture(scope="module")
def blocks():
    gold, problems = store_problems("blocksworld")
    return gold, problems, prepare_gold(gold, problems)


def assert_perfect(score) -> None:
    assert score.ok, score.reason
    assert score.metrics() == {"plan_validity": 1.0, "gold_plan_acceptance": 1.0,
                               "applicability_f1": 1.0, "transition_accuracy": 1.0}
    assert not score.diagnoses


def test_gold_against_itself_and_renamed_variables(blocks) -> None:
    gold, problems, cache = blocks
    assert_perfect(semantic_score(gold, gold, gold_cache=cache))
    renamed = rename(cache.domain, actions=False, predicates=False, types=False).to_pddl()
    assert "?rb" in renamed
    score = semantic_score(gold, renamed, gold_cache=cache)
    assert_perfect(score)
    # sample sizes and seed are reported, and the work was real
    assert score.settings["seed"] == 0 and score.settings["walks"] == 6
    assert score.settings["states"] > 100 and score.settings["transitions"] > 100
    assert len(score.problems) == len(problems) == len(load_dataset().get("blocksworld").problems) >= 3


@pytest.mark.skipif(not has_alignment(), reason="vocabulary alignment (issue 11 section 2) "
                    "not in this checkout")
def test_consistent_renaming_of_every_kind_scores_one(blocks) -> None:
    gold, _, cache = blocks
    renamed = rename(cache.domain, types=True).to_pddl()
    assert "r-stack-a" in renamed and "r-clear-p" in renamed and "r-block-t" in renamed
    assert_perfect(semantic_score(gold, renamed, gold_cache=cache))


@pytest.mark.skipif(not has_alignment(), reason="vocabulary alignment not in this checkout")
def test_a_prediction_equal_up_to_names_plans_nothing_the_gold_did_not(blocks, monkeypatch) -> None:
    """The planners' inputs are printed with canonical variable names and a fixed domain name,
    so a faithful answer with its own names (variables, or everything) finds every plan of the
    gold in the planner cache: no planner runs for it."""
    from text2world.planning import front

    gold, _, cache = blocks
    # what earlier tests planned (under any bounds) is not remembered: the answers found come
    # from the gold's
    front.clear_memory()

    def no_planning(*args, **kwargs):
        raise AssertionError("a planner ran for a prediction equal to the gold up to names")

    monkeypatch.setattr(front, "plan_problem", no_planning)
    for renamed in (rename(cache.domain, actions=False, predicates=False, types=False),
                    rename(cache.domain, types=True)):
        text = renamed.to_pddl().replace("(domain blocksworld)", "(domain my-blocks)")
        score = semantic_score(gold, text, gold_cache=cache)
        assert_perfect(score)
        assert score.planner_seconds < 0.5
    # a behaviour change is planned (here: no plan in the cache for it)
    changed = gold.replace("(not (hand-empty))", "", 1)
    with pytest.raises(AssertionError, match="a planner ran"):
        semantic_score(gold, changed, gold_cache=cache)


def test_a_prediction_is_searched_within_lower_bounds_than_the_gold() -> None:
    """A prediction's problem is searched in-process within ``PREDICTION_LIMITS`` (sudoku-fill's
    p03 needs 526 expansions, past its 300: Fast Downward plans it), the gold's and a
    prediction that is the gold within the gold's ``FRONT_LIMITS`` (in-process)."""
    from text2world.planning.front import FRONT_LIMITS, PREDICTION_LIMITS

    assert PREDICTION_LIMITS.max_expanded < 526 <= FRONT_LIMITS.max_expanded
    gold, problems = store_problems("sudoku-fill")
    cache = prepare_gold(gold, problems)
    unused = gold.replace("(:predicates", "(:predicates (unused-flag)", 1)
    for text, planner in ((gold, "in-process"), (unused, "fast-downward lama-first (after "
                                                 "in-process lazy-gbfs(ff, preferred): bound "
                                                 "(more than 300 states expanded))")):
        score = semantic_score(gold, text, gold_cache=cache)
        assert score.verdict == "equivalent", score.reason
        p03 = next(p for p in score.problems if p.name == "p03")
        assert p03.plan_valid and p03.planner.startswith(planner), p03.planner
        assert p03.gold_planner.startswith("in-process")


def test_gold_cache_is_reused(blocks) -> None:
    gold, problems, cache = blocks
    assert prepare_gold(gold, problems) is cache
    score = semantic_score(gold, gold, problems)  # builds nothing new
    assert score.ok and score.planner_seconds < 0.05  # the planner result is cached too


def test_a_gold_state_met_again_is_kept_once(blocks) -> None:
    """Walks revisit states and cross the plan's: each distinct state of a prepared gold is one
    object (these sets are most of a prepared gold's bytes)."""
    _, _, cache = blocks
    states = [state for problem in cache.problems for trajectory in problem.trajectories
              for state in trajectory.states]
    assert len({id(state) for state in states}) == len(set(states)) < len(states)


@pytest.mark.parametrize("item", ["blocksworld", "gripper", "ambulance-triage", "bakery-ovens"])
def test_the_gold_keeps_the_applicable_actions_its_sampling_computed(item) -> None:
    """Preparing a gold computes the applicable actions of the states it samples (its
    breadth-first tree, its walks): they are kept for the pairs, equal to the simulator's, and
    a pair scores the same with them as with an empty start."""
    gold, problems = store_problems(item)
    settings = SemanticSettings(seed=7)  # a gold of its own: not the module's cached one
    cache = prepare_gold(gold, problems, settings)
    kept = 0
    for problem in cache.problems:
        states = {state for trajectory in problem.trajectories for state in trajectory.states}
        assert set(problem.applicable) <= states
        for state, actions in problem.applicable.items():
            assert actions == problem.simulator.applicable(state)
        kept += len(problem.applicable)
    assert kept
    from text2world.pddl.model import parse_domain

    mutant = next(m for m in mutants(parse_domain(gold)) if m.kind == "drop-precondition")
    prediction = mutant.domain.to_pddl()
    with_kept = semantic_score(gold, prediction, gold_cache=cache).to_dict()
    for problem in cache.problems:  # as if nothing had been kept
        problem.applicable.clear()
        problem.changes.clear()
    without = semantic_score(gold, prediction, gold_cache=cache).to_dict()
    with_kept.pop("seconds"), without.pop("seconds")
    with_kept.pop("planner_seconds"), without.pop("planner_seconds")
    assert with_kept == without


@pytest.mark.parametrize("item", ["blocksworld", "gripper", "ambulance-triage", "bakery-ovens"])
def test_a_prediction_that_is_the_gold_is_scored_as_a_full_comparison_scores_it(
        item, monkeypatch) -> None:
    """A copy of the gold (another domain name, other variable names, every name its own:
    aligned, the gold itself) is simulated by the gold's own answers (``_gold_answers_trajectory``) on
    every problem: the same score, to the counts and the seeded sample, as comparing it state
    by state; a mutant is not."""
    import re

    from text2world.pddl.model import parse_domain

    gold, problems = store_problems(item)
    model = parse_domain(gold)
    predictions = [gold, gold.replace("(domain ", "(domain another-name-", 1),
                   re.sub(r"\?([a-z])", r"?renamed-\1", gold),
                   rename(model, actions=False, predicates=False, types=False).to_pddl(),
                   rename(model, types=True).to_pddl(),
                   next(m for m in mutants(model)).domain.to_pddl()]
    used: list[bool] = []
    original = semantic_pair.PairScorer._gold_answers_trajectory
    monkeypatch.setattr(semantic_pair.PairScorer, "_gold_answers_trajectory",
                        lambda self, *args: args[-1] is None and used.append(True)
                        or original(self, *args))
    calls: list[int] = []  # the gold's answers used, per prediction

    def scores(itself: bool) -> list[dict]:
        found = []
        for prediction in predictions:
            before = len(used)
            scorer_init = semantic_pair.PairScorer.__init__

            def init(self, *args, **kwargs):
                scorer_init(self, *args, **kwargs)
                self.itself = self.itself and itself

            monkeypatch.setattr(semantic_pair.PairScorer, "__init__", init)
            score = semantic_score(gold, prediction, problems).to_dict()
            monkeypatch.setattr(semantic_pair.PairScorer, "__init__", scorer_init)
            calls.append(len(used) - before)
            found.append({k: v for k, v in score.items()
                          if k not in ("seconds", "planner_seconds")})
        return found

    fast = scores(True)
    # every copy, every trajectory of every problem (at least one a problem); not the mutant
    assert calls[:-1] == [calls[0]] * (len(predictions) - 1) and calls[0] >= len(problems)
    assert calls[-1] == 0
    used.clear()
    assert scores(False) == fast and not used
    assert fast[0]["verdict"] == "equivalent" and fast[-1] != fast[0]


def test_the_gold_with_actions_left_out_is_scored_as_a_full_comparison_scores_it(
        monkeypatch) -> None:
    """A prediction that is the gold with an action left out (``pddl.perturb.drop_action``: a
    training run's commonest incomplete answer) is compared through the gold's own answers
    where each kept action compiles as the gold's (``_gold_answers_trajectory``): the same
    score, to the counts, the diagnoses and the seeded sample, as comparing it state by state
    (``_kept_actions`` None). Where leaving the action out makes a predicate static, the joins
    may be ordered otherwise and the full comparison runs. Where the gold's plan keeps to the
    kept actions, no plan of the prediction is searched for: the planner's plan, in the full
    comparison, is valid in the gold there too."""
    from text2world.pddl import perturb

    used: list[bool] = []
    original = semantic_pair.PairScorer._gold_answers_trajectory
    monkeypatch.setattr(semantic_pair.PairScorer, "_gold_answers_trajectory",
                        lambda self, *args: args[-1] is not None and used.append(True)
                        or original(self, *args))
    kept = semantic_pair.kept_actions
    pairs, shortcuts = 0, 0
    for record in sorted(load_dataset().records, key=lambda r: r.id)[::4]:
        if not record.problems:
            continue
        gold, problems = store_problems(record.id)
        for seed in range(2):
            prediction = perturb.drop_action(gold, seed=seed)
            found = []
            for restricted in (True, False):
                monkeypatch.setattr(semantic_pair, "kept_actions",
                                    kept if restricted else lambda *_: None)
                score = semantic_score(gold, prediction, problems).to_dict()
                found.append({k: v for k, v in score.items()
                              if k not in ("seconds", "planner_seconds")})
            for short, full in zip(found[0]["problems"], found[1]["problems"]):
                if short["planner"] == semantic_pair.KEPT_PLAN:
                    assert short["plan_valid"] and short["gold_plan_accepted"]
                    assert full["plan_valid"] is True, (record.id, seed, full)
                    for problem in (short, full):
                        problem.pop("planner"), problem.pop("plan_reason")
                    shortcuts += 1
            assert found[0] == found[1], (record.id, seed)
            assert found[0]["verdict"] != "equivalent"
            pairs += 1
    assert pairs >= 40 and len(used) >= 3 * pairs  # most problems of most pairs
    assert shortcuts >= pairs // 2
    monkeypatch.setattr(semantic_pair, "kept_actions", kept)


def test_gold_cache_holds_a_batch_of_golds_and_is_bounded_in_bytes(monkeypatch) -> None:
    """More golds than the 32 a count bound kept (a GRPO step's prompts) stay prepared; the
    bound is in bytes (``T2W_GOLD_CACHE_BYTES``): past it the least recently used goes."""
    from text2world.scoring.caching import deep_size
    from text2world.store.datasets import load_dataset

    # a cache of this test's own: the module's golds (the ``blocks`` fixture) stay cached
    monkeypatch.setattr(semantic_gold, "_GOLD_CACHE", OrderedDict())
    records = [r for r in load_dataset() if r.problems][:40]
    golds = [(r.domain, tuple((p.name, p.pddl) for p in r.problems)) for r in records]
    prepared = [prepare_gold(gold, problems) for gold, problems in golds]
    assert all(prepare_gold(gold, problems) is cache
               for (gold, problems), cache in zip(golds, prepared))
    sizes = [deep_size(cache) for cache in prepared]
    large, small = golds[sizes.index(max(sizes))], golds[sizes.index(min(sizes))]
    semantic_gold._GOLD_CACHE.clear()
    first = prepare_gold(*large)
    ((_, room),) = semantic_gold._GOLD_CACHE.values()  # the bytes it was cached with
    monkeypatch.setenv("T2W_GOLD_CACHE_BYTES", str(room))  # room for it alone
    assert prepare_gold(*large) is first
    prepare_gold(*small)  # fits, but not beside the first: the least recently used goes
    assert prepare_gold(*large) is not first


@pytest.mark.slow
def test_every_store_gold_stays_prepared_within_the_default_bound(monkeypatch) -> None:
    """A pass over the whole store (a batch sorted by gold, ``reward_bench``) finds each gold
    prepared on the next pass: the default bound holds all of them. A bound smaller than the
    store made the least recently used cache prepare every gold again on each pass."""
    from text2world.scoring.caching import PREPARED_GOLDS_MAX_BYTES, default_max_bytes
    from text2world.store.datasets import load_dataset

    monkeypatch.delenv("T2W_GOLD_CACHE_BYTES", raising=False)
    monkeypatch.setattr(semantic_gold, "_GOLD_CACHE", OrderedDict())
    golds = [(r.domain, tuple((p.name, p.pddl) for p in r.problems))
             for r in load_dataset() if r.problems]
    prepared = [prepare_gold(gold, problems) for gold, problems in golds]
    assert default_max_bytes(PREPARED_GOLDS_MAX_BYTES) == PREPARED_GOLDS_MAX_BYTES
    held = sum(size for _, size in semantic_gold._GOLD_CACHE.values())
    assert len(semantic_gold._GOLD_CACHE) == len(golds), (len(semantic_gold._GOLD_CACHE), held)
    assert all(prepare_gold(gold, problems) is cache
               for (gold, problems), cache in zip(golds, prepared))
    assert held <= 0.8 * PREPARED_GOLDS_MAX_BYTES  # room for the store to grow


def test_diagnoses_name_the_literal(blocks) -> None:
    gold, _, cache = blocks
    weak = gold.replace("(and (holding ?b) (clear ?target))", "(holding ?b)")
    score = semantic_score(gold, weak, gold_cache=cache)
    assert score.ok and score.applicability_f1 < 1.0
    assert score.transition_accuracy == 1.0 and score.gold_plan_acceptance == 1.0
    top = score.diagnoses[0]
    assert (top.action, top.kind, top.literal) == ("stack", "missing-precondition",
                                                   "(clear ?target)")
    assert top.message.startswith("`stack`: precondition `(clear ?target)` missing: "
                                  f"applicable in {top.count} sampled states")
    no_add = gold.replace("(and (holding ?b)\n                 (clear ?below)",
                          "(and (clear ?below)")
    assert no_add != gold
    score = semantic_score(gold, no_add, gold_cache=cache)
    messages = [d.message for d in score.diagnoses]
    assert any(m.startswith("`unstack`: effect `(holding ?b)` missing") for m in messages)
    assert score.transition_accuracy < 1.0 and score.gold_plan_acceptance < 1.0


def test_parameter_types_are_diagnosed_not_fatal(blocks) -> None:
    gold, _, cache = blocks
    narrow = gold.replace("(:types block)", "(:types block table - object)").replace(
        "(on ?top - block ?below - block)", "(on ?top - block ?below - object)").replace(
        "(clear ?b - block)", "(clear ?b - object)").replace(
        "(?b - block ?target - block)", "(?b - block ?target - table)")
    score = semantic_score(gold, narrow, gold_cache=cache)
    assert score.ok and score.applicability_f1 < 1.0
    assert score.diagnoses[0].kind == "parameter-types"
    assert "narrower than the gold's" in score.diagnoses[0].message


def test_every_behaviour_changing_mutant_is_detected(blocks) -> None:
    gold, problems, cache = blocks
    parsed = [parse_problem(gold, text) for _, text in problems]
    found = mutants(cache.domain)
    assert {m.kind for m in found} == {"drop-precondition", "drop-add", "drop-delete",
                                       "swap-add-delete", "swap-parameters"}
    # swapping an action's parameters is a faithful rewrite (the alignment puts them back in
    # the gold's order: test_semantic_verdicts), not a change of behaviour
    sample = random.Random(0).sample([m for m in found if m.kind != "swap-parameters"], 8)
    changing = 0
    for mutant in sample:
        truth = behaviour_differs(cache.domain, mutant.domain, parsed)
        score = semantic_score(gold, mutant.domain.to_pddl(), gold_cache=cache)
        metrics = score.metrics()
        if truth is not None:
            changing += 1
            assert not score.ok or min(v for v in metrics.values() if v is not None) < 1.0, (
                mutant.kind, mutant.action, mutant.detail, truth, metrics)
    assert changing >= 6


def test_conditional_effects_domain_mutants() -> None:
    gold, problems = store_problems("switch-doors")  # conditional effects
    cache = prepare_gold(gold, problems)
    assert_perfect(semantic_score(gold, gold, gold_cache=cache))
    parsed = [parse_problem(gold, text) for _, text in problems]
    for mutant in random.Random(1).sample(mutants(cache.domain), 3):
        truth = behaviour_differs(cache.domain, mutant.domain, parsed)
        score = semantic_score(gold, mutant.domain.to_pddl(), gold_cache=cache)
        if truth is not None:
            assert min(v for v in score.metrics().values() if v is not None) < 1.0


def test_predictions_that_cannot_be_simulated_get_a_reason(blocks) -> None:
    gold, problems, cache = blocks
    broken = semantic_score(gold, "(define (domain x", gold_cache=cache)
    assert not broken.ok and "does not parse" in broken.reason
    assert broken.metrics() == dict.fromkeys(broken.metrics())  # all None, not zero
    unrelated = ("(define (domain other) (:requirements :strips) (:predicates (p))"
                 " (:action fly :parameters () :precondition (p) :effect (not (p))))")
    score = semantic_score(gold, unrelated, gold_cache=cache)
    assert not score.ok and "no alignment" in score.reason
    numeric = gold.replace("(:requirements :strips :typing)",
                           "(:requirements :strips :typing :action-costs)").replace(
        "(hand-empty))", "(hand-empty)) (:functions (fuel) - number)", 1).replace(
        "(not (holding ?b))))", "(not (holding ?b)) (increase (fuel) 1)))", 1)
    score = semantic_score(gold, numeric, gold_cache=cache)
    assert not score.ok and "numeric effect" in score.reason
    no_problems = semantic_score(gold, gold, [])
    assert not no_problems.ok and "no problems" in no_problems.reason


def test_time_limit_gives_a_reason(blocks) -> None:
    gold, problems, _ = blocks
    settings = SemanticSettings(time_limit=0.0)
    score = semantic_score(gold, gold, problems, settings=settings)
    assert not score.ok and "time limit" in score.reason


def test_cli_score_semantic(blocks, tmp_path) -> None:
    import json as jsonlib
    import subprocess
    import sys
    gold, _, _ = blocks
    weak = tmp_path / "weak.pddl"
    weak.write_text(gold.replace("(and (holding ?b) (clear ?target))", "(holding ?b)"))
    run = subprocess.run([sys.executable, "-m", "text2world.cli", "score", "blocksworld",
                          str(weak), "--semantic", "--json"], capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr
    data = jsonlib.loads(run.stdout)
    assert data["executable"] is True
    semantic = data["semantic"]
    assert semantic["ok"] and semantic["applicability_f1"] < 1.0
    assert semantic["diagnoses"][0]["literal"] == "(clear ?target)"
    gold_file = tmp_path / "gold.pddl"
    gold_file.write_text(gold)
    missing = subprocess.run([sys.executable, "-m", "text2world.cli", "score", str(gold_file),
                              str(weak), "--semantic"], capture_output=True, text=True,
                             timeout=300)
    assert missing.returncode != 0 and "--problems DIR" in missing.stderr + missing.stdout


def test_api_score_semantic(blocks) -> None:
    from fastapi.testclient import TestClient

    from text2world.api.app import create_app
    from text2world.api.settings import Settings
    gold, problems, _ = blocks
    app = create_app(Settings(score_timeout=120, score_processes=1))
    with TestClient(app, raise_server_exceptions=False) as client:
        body = client.post("/v1/score", json={"gold_id": "blocksworld", "pddl": gold,
                                              "semantic": True}).json()
        assert body["semantic"]["ok"] and body["semantic"]["applicability_f1"] == 1.0
        assert body["semantic"]["verdict"] == "equivalent"
        plain = client.post("/v1/score", json={"gold_id": "blocksworld", "pddl": gold}).json()
        assert plain["semantic"] is None
        given = client.post("/v1/score", json={
            "gold_pddl": gold, "pddl": gold, "semantic": True,
            "problems": [{"name": n, "pddl": t} for n, t in problems[:1]]}).json()
        assert given["semantic"]["ok"] and len(given["semantic"]["problems"]) == 1
        missing = client.post("/v1/score", json={"gold_pddl": gold, "pddl": gold,
                                                 "semantic": True})
        assert missing.status_code == 422 and "problems" in missing.text


def test_eval_score_run_and_report_carry_semantic_scores(tmp_path) -> None:
    import json as jsonlib
    import os
    import subprocess
    import sys
    env = {**os.environ, "T2W_HOME": str(tmp_path / "home"), "T2W_RUNS_DIR": str(tmp_path / "runs")}

    def t2w(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "text2world.cli", *args], env=env,
                              capture_output=True, text=True, timeout=600)

    run = t2w("eval", "--model", "reference/oracle", "--ec", "1", "--split", "all",
              "--domains", "blocksworld", "--no-progress", "--run-id", "sem")
    assert run.returncode == 0, run.stderr
    folder = tmp_path / "runs" / "sem"
    item = jsonlib.loads((folder / "log.jsonl").read_text().splitlines()[0])
    assert item["rounds"][0]["semantic"]["ok"]
    assert item["rounds"][0]["semantic"]["verdict"] == "equivalent"
    assert item["ec"]["semantic"] == [{"ok": True, "verdict": "equivalent", "plan_validity": 1.0,
                                       "gold_plan_acceptance": 1.0, "applicability_f1": 1.0,
                                       "transition_accuracy": 1.0}] * 2
    summary = jsonlib.loads((folder / "summary.json").read_text())
    assert [row["applicability_f1"] for row in summary["metrics"]["semantic"]] == [1.0, 1.0]
    assert summary["metrics"]["semantic"][-1]["verdicts"]["equivalent"] == 1
    rescored = t2w("score-run", str(folder), "--semantic", "--json")
    assert rescored.returncode == 0, rescored.stderr
    assert jsonlib.loads(rescored.stdout)["metrics"]["semantic"][0]["simulable"] == 1.0
    report = t2w("report", str(folder))
    assert report.returncode == 0, report.stderr
    assert "Semantic scores" in report.stdout
    markdown = (folder / "report" / "paper" / "report.md").read_text()
    assert "## Semantic scores" in markdown
    assert "| equivalent | different | incomplete | not_simulated |" in markdown
    assert (folder / "report" / "paper" / "semantic_per_round.png").is_file()
    off = t2w("eval", "--model", "reference/oracle", "--ec", "0", "--split", "all",
              "--domains", "blocksworld", "--no-progress", "--run-id", "plain", "--no-semantic")
    assert off.returncode == 0, off.stderr
    plain = jsonlib.loads((tmp_path / "runs" / "plain" / "summary.json").read_text())
    assert "semantic" not in plain["metrics"]


def _item(per_round: list[dict | None], diagnoses: list[dict] | None = None) -> dict:
    return {"ec": {"semantic": per_round},
            "rounds": [{"semantic": {"diagnoses": diagnoses or []}}]}


def test_semantic_means_count_an_unsimulable_item_as_zero() -> None:
    from text2world.reports.semantic import semantic_rounds

    def cell(value):
        return {"ok": True, **{m: value for m in
                               ("plan_validity", "gold_plan_acceptance", "applicability_f1",
                                "transition_accuracy")}}

    not_simulable = {"ok": False, "plan_validity": None, "gold_plan_acceptance": None,
                     "applicability_f1": None, "transition_accuracy": None}
    # Round 0: one of two items simulable (at 1.0); round 1: the correction made the other
    # simulable too, at 0.5. Over the simulated items alone the mean DROPS (1.0 -> 0.75); over
    # all items it rises (0.5 -> 0.75), as it should.
    items = [_item([cell(1.0), cell(1.0)]), _item([not_simulable, cell(0.5)])]
    rows = semantic_rounds(items, 1)
    assert [row["items"] for row in rows] == [2, 2]
    assert [row["simulable"] for row in rows] == [0.5, 1.0]
    assert [row["plan_validity"] for row in rows] == [0.5, 0.75]
    assert [row["plan_validity_simulated"] for row in rows] == [1.0, 0.75]
    # A metric a simulated item has no value for is left out of both means.
    no_gold_plan = {**cell(1.0), "gold_plan_acceptance": None}
    rows = semantic_rounds([_item([no_gold_plan]), _item([not_simulable])], 0)
    assert rows[0]["gold_plan_acceptance"] == 0.0 and rows[0]["gold_plan_acceptance_simulated"] is None
    assert rows[0]["plan_validity"] == 0.5


def test_report_counts_diagnoses_by_their_words() -> None:
    from text2world.reports.semantic import _top_diagnoses
    from text2world.scoring.diagnosis import KINDS, describe

    missing = {"action": "stack", "kind": "missing-action", "literal": "", "count": 7,
               "message": "`stack`: no such action in the prediction (applicable in 7 ...)"}
    effect = {"action": "pick", "kind": "missing-effect", "literal": "(holding ?b)", "count": 3,
              "message": "`pick`: effect `(holding ?b)` missing (in 3 sampled transitions)"}
    items = [_item([None], [missing, effect]), _item([None], [{**missing, "count": 2}])]
    found = _top_diagnoses([("run", items, 0)])["run"]
    assert found == [(("stack", "no such action in the prediction"), 2),
                     (("pick", "effect `(holding ?b)` missing"), 1)]
    for kind in KINDS:  # every kind in words; an action diagnosis has no literal to quote
        literal = "" if kind.endswith("-action") else "(p ?x)"
        text = describe(kind, literal)
        assert kind not in text and "``" not in text and literal in text
