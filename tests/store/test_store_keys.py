"""The answer keys shipped with the store (data/keys/) are current for the texts and replay in
the simulator the way the shipped plans do: every keyed state is a state the items start from,
every keyed action applies there, the plan's own action costs exactly the rest of the plan, no
cost-to-go is below what the state's optimum allows, and a sample agrees with the planner.
Scoring a proposal the key knows asks no planner."""

from __future__ import annotations

import json

import pytest

from text2world.simulation import GroundAction
from text2world.store.datasets import load_dataset
from text2world.store.plans import plan_key
from text2world.tasks.wm.answer_keys import key_indices, state_key
from text2world.tasks.wm.planner import optimal_plan
from text2world.tasks.wm.shipped_keys import KEYS_FOLDER, keys_path, shipped_key, state_hash
from text2world.tasks.wm.world import world_for

STORE = load_dataset()
RECORDS = {r.id: r for r in STORE.records}
# the store's own problems (--size easy)
KEY_FILES = sorted(keys_path("x").parent.glob("*.json"))
# the generated (hard) problems, which the default propose and plan items use
GENERATED_KEY_FILES = sorted(keys_path("x", generated=True).parent.glob("*.json"))


def test_keys_are_shipped():
    assert KEY_FILES, f"no answer key under data/{KEYS_FOLDER}/"
    assert GENERATED_KEY_FILES, f"no answer key under data/{KEYS_FOLDER}/generated/"


def _hard_record(record_id: str):
    from text2world.tasks.wm.generators import sized_records

    return sized_records([RECORDS[record_id]], "hard")[0]


@pytest.mark.parametrize("path", KEY_FILES + GENERATED_KEY_FILES,
                         ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_shipped_key_is_current_and_replays(path):
    record = _hard_record(path.stem) if path in GENERATED_KEY_FILES else RECORDS[path.stem]
    data = json.loads(path.read_text())
    texts = {p.name: p.pddl for p in record.problems}
    for name, entry in data["problems"].items():
        assert entry["key"] == plan_key(record.domain, texts[name]), \
            f"{record.id}/{name}: stale key; run python -m text2world.tasks.wm.answer_keys --missing"
        if "skipped" in entry:  # no optimal world: no item starts here, nothing is keyed
            assert entry["states"] == {} and entry["skipped"], f"{record.id}/{name}"
            continue
        world = world_for(record, name)
        by_hash = {state_hash(world.states[i]): i for i in key_indices(world)}
        assert set(entry["states"]) == set(by_hash), f"{record.id}/{name}: keyed states"
        for digest, answers in entry["states"].items():
            index = by_hash[digest]
            state, rest = world.states[index], world.remaining_cost(index)
            applicable = {str(a) for a in world.simulator.applicable(state)}
            assert set(answers) <= applicable and answers, f"{record.id}/{name}"
            for text, to_go in answers.items():
                _, cost = world.step_cost(state, GroundAction.parse(text))
                if to_go is not None:  # h*(s) <= c(a) + h*(s'): never below the optimum
                    assert cost + to_go >= rest - 1e-9, f"{record.id}/{name} {text}"
            plan_action = str(world.plan[index])
            assert answers[plan_action] == pytest.approx(rest - world.step_costs[index])
            left = (entry.get("unanswered") or {}).get(digest, [])
            # what the planner left unanswered: applicable actions the key could not cost
            assert set(left) <= applicable and not set(left) & set(answers), f"{record.id}/{name}"
        assert set(entry.get("unanswered") or {}) <= set(entry["states"]), f"{record.id}/{name}"


@pytest.mark.parametrize("generated", [False, True], ids=["easy", "generated"])
def test_a_sample_of_the_key_agrees_with_the_planner(generated):
    files = GENERATED_KEY_FILES if generated else KEY_FILES
    path = next((p for p in files if p.stem == "blocksworld"), None) or files[0]
    record = _hard_record(path.stem) if generated else RECORDS[path.stem]
    name, entry = next(iter(json.loads(path.read_text())["problems"].items()))
    world = world_for(record, name)
    index = key_indices(world)[-1]
    state = world.states[index]
    answers = entry["states"][state_hash(state)]
    for text in sorted(answers)[:6]:
        successor, _ = world.step_cost(state, GroundAction.parse(text))
        result = optimal_plan(record.domain, world.cost_problem(successor),
                              models=(world.domain, world.simulator.problem), start=successor)
        planned = world._plan_cost(successor, result) if result.solved else None
        assert result.status in ("solved", "unsolvable")
        assert answers[text] == planned, f"{record.id}/{name} {text}"


def test_a_rebuilt_key_equals_the_shipped_one():
    path = KEY_FILES[0]
    record = RECORDS[path.stem]
    name, entry = next(iter(json.loads(path.read_text())["problems"].items()))
    world = world_for(record, name)
    index = key_indices(world)[0]
    answers, _, unanswered = state_key(world, index)
    assert answers == entry["states"][state_hash(world.states[index])]
    assert unanswered == (entry.get("unanswered") or {}).get(state_hash(world.states[index]), [])


def test_a_stale_key_is_ignored():
    record = RECORDS[KEY_FILES[0].stem]
    problem = record.problems[0]
    assert shipped_key(record, problem.name, problem.pddl)
    assert shipped_key(record, problem.name, problem.pddl + "\n; edited\n") == {}


def test_proposals_the_key_knows_ask_no_planner(tmp_path, monkeypatch):
    import text2world.tasks.wm.task as task_module
    from text2world.tasks.wm import WmOptions, run_wm

    def no_planner(*args, **kwargs):
        raise AssertionError("the planner ran although the key knows the action")

    monkeypatch.setattr(task_module, "optimal_plan", no_planner)
    monkeypatch.setenv("T2W_RUNS_DIR", str(tmp_path))
    result = run_wm(WmOptions(model="reference/noisy-oracle", task="propose", size="easy",
                              split="all", domains=[KEY_FILES[0].stem], max_concurrency=2))
    assert result.stats["planner_calls"] == 0
    assert result.new_items > 0


def test_scores_with_the_key_equal_the_planners(tmp_path, monkeypatch):
    """The same items scored from the key and (key hidden) by the planner: identical metrics."""
    import text2world.tasks.wm.world as world_module
    from text2world.tasks.wm import WmOptions, run_wm

    # a domain whose items leave the plan (its key answers what the planner would)
    domain = "bakery-ovens" if keys_path("bakery-ovens").is_file() else KEY_FILES[0].stem

    def run(folder: str) -> tuple:
        monkeypatch.setenv("T2W_RUNS_DIR", str(tmp_path / folder))
        world_module._cached_world.cache_clear()  # fresh worlds: nothing remembered
        result = run_wm(WmOptions(model="reference/noisy-oracle", task="propose", size="easy", split="all",
                                  domains=[domain], max_concurrency=1))
        items = [json.loads(line) for line in result.run.log_path.read_text().splitlines()]
        return sorted((i["item"], json.dumps(i["metrics"], sort_keys=True),
                       json.dumps(i["baselines"], sort_keys=True))
                      for i in items if "metrics" in i), result

    keyed, with_key = run("keyed")
    monkeypatch.setattr(world_module, "shipped_key", lambda *args, **kwargs: {})
    planned, with_planner = run("planned")
    assert with_key.stats["planner_calls"] == 0
    assert with_planner.stats["planner_calls"] > 0
    assert with_key.summary["metrics"] == with_planner.summary["metrics"]
    assert keyed == planned


UNANSWERED = [(path, generated) for files, generated in ((KEY_FILES, False),
                                                        (GENERATED_KEY_FILES, True))
              for path in files if '"unanswered"' in path.read_text()]


def test_some_keys_record_what_the_planner_left_unanswered():
    assert UNANSWERED, "no key records an action the planner left unanswered"


@pytest.mark.parametrize("path, generated", UNANSWERED,
                         ids=lambda p: p.stem if hasattr(p, "stem") else "")
def test_recorded_unanswered_actions_are_those_the_key_lacks(path, generated):
    """``answer_keys --record-unanswered`` reads them off a key without a planner: every
    applicable action of a keyed state that the key has no cost for."""
    from text2world.tasks.wm.answer_keys import unanswered_from_key

    record = _hard_record(path.stem) if generated else RECORDS[path.stem]
    entries = json.loads(path.read_text())["problems"]
    assert unanswered_from_key(record, entries) == entries


def test_unanswered_actions_are_no_answer_only_within_the_keys_bound():
    """A check given no more time than the key's build (bound_s) gets the planner's no answer
    from the key; given more, it asks the planner (the action is not in the key)."""
    path, generated = UNANSWERED[0]
    record = _hard_record(path.stem) if generated else RECORDS[path.stem]
    name, entry = next((n, e) for n, e in json.loads(path.read_text())["problems"].items()
                       if e.get("unanswered"))
    text = next(p.pddl for p in record.problems if p.name == name)
    digest, actions = next(iter(entry["unanswered"].items()))
    within = shipped_key(record, name, text, planner_timeout=entry["bound_s"])
    assert all(within[digest][action] is None for action in actions)
    beyond = shipped_key(record, name, text, planner_timeout=entry["bound_s"] + 10)
    assert not set(actions) & set(beyond[digest])
    assert shipped_key(record, name, text) == entry["states"]


def test_propose_from_an_empty_home_runs_no_planner(tmp_path):
    """Issue 47: ``t2w wm propose`` from an empty T2W_HOME on a domain whose baselines propose
    actions the key's build left unanswered: no planner runs (its plan cache stays empty),
    where it used to run Fast Downward to its timeout for each."""
    import os
    import subprocess
    import sys

    from repo_paths import REPO

    home = tmp_path / "home"
    env = {**os.environ, "T2W_HOME": str(home), "T2W_RUNS_DIR": str(tmp_path / "runs"),
           "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "text2world.cli", "wm", "propose", "--model",
                           "reference/oracle", "--domains", "taxi-dispatch", "--json"],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["finished_items"] > 0
    planned = list((home / "cache" / "plans").rglob("*.json")) \
        if (home / "cache" / "plans").is_dir() else []
    assert planned == [], f"the planner ran: {len(planned)} answers cached"
