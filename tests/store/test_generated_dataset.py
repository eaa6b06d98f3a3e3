"""A folder of generated worlds (the store's layout, a ``family`` per manifest entry) is a
dataset wherever a store id is: ``t2w eval --dataset DIR`` (named relatively, read again from
any folder), ``t2w wm``, ``t2w contamination``, the rewards (``resolve_gold``,
``compute_score``, TRL's ``domain_reward``), ``t2w score-batch`` (``--dataset`` or a line's
``dataset``), the Hugging Face export (its ``family`` column) and the viewer. Through the real
entry points: the CLI in a subprocess, the reward functions, the viewer's app."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from generated_worlds import WORLDS, make_generated_folder, t2w

from text2world.rewards import RewardInputError, compute_score, domain_reward, resolve_gold


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    root = tmp_path_factory.mktemp("generated")
    worlds = make_generated_folder(root / "worlds")
    home = root / "home"
    # named relatively, from the folder above it: the run must find it from anywhere after
    done = t2w("eval", "--model", "reference/oracle", "--dataset", "worlds", "--ec", "0",
               "--no-semantic", "--quiet", "--run-id", "oracle", cwd=root, home=home)
    assert done.returncode == 0, done.stderr
    return SimpleNamespace(root=root, worlds=worlds, home=home, run=home / "runs" / "oracle")


def _gold(made, world: str) -> str:
    return (made.worlds / "domains" / f"{world}.pddl").read_text()


def _log(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]


def test_eval_on_the_folder_scores_every_world_and_records_where_it_is(made):
    config = json.loads((made.run / "config.json").read_text())
    assert config["dataset"] == "worlds"
    assert config["dataset_source"] == str(made.worlds.resolve())
    items = _log(made.run)
    assert sorted(i["item"] for i in items) == sorted(WORLDS)
    assert all(i["ec"]["paper"][0]["similarity"] == 1.0 for i in items)


def test_the_viewer_shows_a_generated_gold_from_another_folder(made):
    from fastapi.testclient import TestClient

    from text2world.api.app import create_app
    from text2world.api.settings import Settings

    app = create_app(Settings(runs_dir=made.home / "runs", executor="thread",
                              score_processes=1))
    with TestClient(app) as client:
        body = client.get("/v1/runs/oracle/items/keys-doors-01").json()
    assert body["gold"] == _gold(made, "keys-doors-01") and body["gold_note"] is None


def test_world_model_tasks_and_the_probe_run_on_the_folder(made):
    done = t2w("wm", "next-state", "--model", "reference/oracle", "--dataset",
               str(made.worlds), "--domains", "transport-01,sorting-01", "--problems", "1",
               "--quiet", "--run-id", "wm", home=made.home)
    assert done.returncode == 0, done.stderr
    items = _log(made.home / "runs" / "wm")
    assert {(i["domain"], i["family"]) for i in items} == \
        {("transport-01", "transport"), ("sorting-01", "sorting")}
    assert all(i["metrics"]["correct"] for i in items)
    done = t2w("contamination", "--model", "reference/oracle", "--dataset", str(made.worlds),
               "--quiet", "--run-id", "probe", home=made.home)
    assert done.returncode == 0, done.stderr
    assert {i["item"]: i["family"] for i in _log(made.home / "runs" / "probe")} == \
        {world: family for world, (_, family) in WORLDS.items()}


def test_rewards_take_a_generated_gold_id(made):
    worlds = str(made.worlds)
    gold = resolve_gold("sorting-02", dataset=worlds)
    assert gold.domain == _gold(made, "sorting-02") and len(gold.problems) >= 1
    answer = f"```pddl\n{_gold(made, 'sorting-02')}\n```"
    wrong = f"```pddl\n{_gold(made, 'transport-01')}\n```"
    assert compute_score("text2world", answer, "sorting-02",
                         extra_info={"dataset": worlds}) == 1.0
    assert compute_score("text2world", wrong, "sorting-02", extra_info={"dataset": worlds}) < 1
    assert domain_reward([answer, wrong], gold_id=["sorting-02"] * 2, dataset=worlds,
                         metric="paper_f1")[0] == 1.0
    with pytest.raises(RewardInputError, match="domain id of dataset 'text2world'"):
        resolve_gold("sorting-02")


def test_score_batch_takes_generated_gold_ids(made):
    lines = made.root / "lines.jsonl"
    lines.write_text(
        json.dumps({"id": "right", "gold_id": "keys-doors-02",
                    "response": _gold(made, "keys-doors-02")}) + "\n"
        + json.dumps({"id": "wrong", "gold_id": "keys-doors-02",
                      "response": _gold(made, "keys-doors-01")}) + "\n"
        + json.dumps({"id": "store", "gold_id": "gripper", "dataset": "text2world",
                      "response": "(define (domain g))"}) + "\n")
    out = made.root / "scored.jsonl"
    done = t2w("score-batch", "lines.jsonl", "--dataset", "worlds", "-o", "scored.jsonl",
               "--workers", "2", "--metric", "paper_f1", cwd=made.root, home=made.home)
    assert done.returncode == 0, done.stderr
    rows = {row["id"]: row for row in map(json.loads, out.read_text().splitlines())}
    assert rows["right"]["reward"] == 1.0 and rows["right"]["gold"] == "keys-doors-02"
    assert rows["wrong"]["reward"] < 1.0 and rows["store"]["gold"] == "gripper"
    refused = t2w("score-batch", "lines.jsonl", "-o", "other.jsonl", cwd=made.root,
                  home=made.home)
    assert refused.returncode == 1  # ExitCode.INPUT
    assert "line 1 (id 'right'): 'keys-doors-02' is neither PDDL text nor a domain id of " \
        "dataset 'text2world'" in " ".join(refused.stderr.split())


def test_the_hugging_face_export_carries_the_family(made):
    datasets = pytest.importorskip("datasets")
    out = made.root / "hf"
    done = t2w("data", "export", str(made.worlds), str(out), "--format", "hf",
               home=made.home)
    assert done.returncode == 0, done.stderr
    rows = datasets.load_from_disk(str(out))["test"]
    assert {row["id"]: row["family"] for row in rows} == \
        {world: family for world, (_, family) in WORLDS.items()}
    training = rows.filter(lambda row: row["family"] != "keys-doors")
    assert sorted(training["id"]) == sorted(w for w in WORLDS if not w.startswith("keys"))
    assert "`family`" in (out / "README.md").read_text()


def test_a_folder_ships_its_own_plans_and_answer_keys(tmp_path):
    from text2world.store.datasets import load_dataset
    from text2world.store.plans import shipped_plan
    from text2world.tasks.wm.shipped_keys import shipped_key

    world = {"transport-01": ("drone-delivery", "transport")}
    store = load_dataset().get("drone-delivery")
    shipped = load_dataset(str(make_generated_folder(tmp_path / "shipped", world, True)))
    bare = load_dataset(str(make_generated_folder(tmp_path / "bare", world)))
    for problem in store.problems:
        expected = shipped_plan(store, problem.name, problem.pddl)
        assert expected is not None and expected.plan
        assert shipped_plan(shipped.get("transport-01"), problem.name, problem.pddl) == expected
        assert shipped_plan(bare.get("transport-01"), problem.name, problem.pddl) is None
        key = shipped_key(store, problem.name, problem.pddl)  # empty for a problem too big
        assert shipped_key(shipped.get("transport-01"), problem.name, problem.pddl) == key
        assert shipped_key(bare.get("transport-01"), problem.name, problem.pddl) == {}
    assert any(shipped_key(store, p.name, p.pddl) for p in store.problems)


def test_data_list_shows_the_families(made):
    listed = t2w("data", "list", "--dataset", str(made.worlds), "--json", home=made.home)
    assert listed.returncode == 0, listed.stderr
    assert {row["id"]: row["family"] for row in json.loads(listed.stdout)} == \
        {world: family for world, (_, family) in WORLDS.items()}
    table = t2w("data", "list", "--dataset", str(made.worlds), home=made.home).stdout
    assert "family" in table.splitlines()[1] and "keys-doors" in table
    store = t2w("data", "list", "--split", "train", home=made.home).stdout
    assert "category" in store.splitlines()[1]


def test_t2w_score_takes_a_generated_gold_id(made):
    answer = made.worlds / "domains" / "transport-02.pddl"
    done = t2w("score", "transport-02", str(answer), "--dataset", "worlds", "--semantic",
               "--json", cwd=made.root, home=made.home)
    assert done.returncode == 0, done.stderr
    scored = json.loads(done.stdout)
    assert scored["similarity"] == 1.0 and scored["semantic"]["verdict"] == "equivalent"
    refused = t2w("score", "transport-02", str(answer), home=made.home)
    assert refused.returncode != 0 and "not a domain id of the store" in refused.stderr
    unknown = t2w("score", "transport-09", str(answer), "--dataset", str(made.worlds),
                  home=made.home)
    assert "not a domain id of dataset" in " ".join(unknown.stderr.split())
    assert "Traceback" not in unknown.stderr
