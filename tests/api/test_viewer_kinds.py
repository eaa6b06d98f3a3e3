"""The viewer's JSON for every kind of run in one runs folder (generation with semantic
scores, world-model next-state and propose, a contamination probe, a run that could not
connect, a damaged run), the paper panel, paired comparison and the static bundle; in
process, on real offline runs of the reference models."""

from __future__ import annotations

import json
import re
import shutil
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from run_kinds import make_runs
from typer.testing import CliRunner

from text2world.api.app import create_app
from text2world.api.bundle import bundle_key, write_bundle
from text2world.api.settings import Settings
from text2world.cli import app as cli
from text2world.engine.kinds import add_kind, remove_kind
from text2world.engine.run_store import Run


@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    return make_runs(tmp_path_factory.mktemp("kinds"))


@pytest.fixture(scope="module")
def client(kinds):
    app = create_app(Settings(runs_dir=kinds.runs_dir, executor="thread", score_processes=1))
    with TestClient(app) as test_client:
        yield test_client


def listing(client) -> dict[str, dict]:
    return {run["id"]: run for run in client.get("/v1/runs").json()["items"]}


def test_run_list_gives_kind_status_and_reason(client, kinds):
    runs = listing(client)
    assert len(runs) == 7
    assert runs[kinds.noisy.name]["kind"] == "generation"
    assert runs[kinds.noisy.name]["reference_model"] is True
    assert (runs[kinds.next_state.name]["kind"], runs[kinds.next_state.name]["task"]) == \
        ("wm", "next-state")
    assert runs[kinds.probe.name]["kind"] == "contamination"
    failed = runs[kinds.unreachable.name]
    assert failed["status"] == "failed" and "no item finished" in failed["reason"]
    assert failed["reference_model"] is False
    damaged = runs[kinds.damaged.name]
    assert damaged["status"] == "damaged" and "config.json is not valid JSON" in damaged["reason"]
    # summaries carry 95% intervals for the leaderboard
    summary = runs[kinds.noisy.name]["summary"]
    low, high = summary["intervals"]["paper"]["ec0"]["executable"]
    assert low <= summary["metrics"]["paper"][0]["executable"] <= high
    assert "accuracy" in runs[kinds.next_state.name]["summary"]["intervals"]
    assert runs[kinds.probe.name]["summary"]["mean_rate_interval"]["mean"] == 1.0


def test_run_list_gives_each_kinds_label_and_headline(client, kinds, tmp_path):
    """What the viewer shows of a kind it has no table of its own for: its registration's
    label and the run's headline values (its task's); nothing for an unknown kind, and a
    summary its task cannot read lists the run without values."""
    runs = listing(client)
    noisy, probe = runs[kinds.noisy.name], runs[kinds.probe.name]
    assert noisy["kind_label"] == "generation (t2w eval)"
    assert noisy["headline"]["paper.executable"] == \
        noisy["summary"]["metrics"]["paper"][-1]["executable"]
    assert probe["kind_label"] == "contamination (t2w contamination)"
    assert probe["headline"] == {"mean_rate": 1.0, "median_rate": 1.0}
    assert runs[kinds.next_state.name]["kind_label"] == "world-model (t2w wm)"
    damaged = runs[kinds.damaged.name]
    assert (damaged["kind"], damaged["kind_label"], damaged["headline"]) == ("unknown", None, None)

    odd = tmp_path / "runs" / kinds.oracle.name
    shutil.copytree(kinds.oracle, odd)
    (odd / "summary.json").write_text(json.dumps({"kind": "generation", "metrics": 5}))
    app = create_app(Settings(runs_dir=tmp_path / "runs", executor="thread", score_processes=1))
    with TestClient(app) as other:
        answer = other.get("/v1/runs")
    assert answer.status_code == 200, answer.text
    [run] = answer.json()["items"]
    assert (run["kind_label"], run["headline"]) == ("generation (t2w eval)", None)

    # a kind registered by a line whose descriptor does not import: listed, saying so
    config = json.loads((odd / "config.json").read_text())
    (odd / "config.json").write_text(json.dumps({**config, "kind": "unloadable"}))
    add_kind("unloadable", "no_such_module_here:Nothing")
    try:
        with TestClient(app) as other:
            answer = other.get("/v1/runs")
    finally:
        remove_kind("unloadable")
    assert answer.status_code == 200, answer.text
    [run] = answer.json()["items"]
    assert run["kind"] == "unloadable" and run["headline"] is None
    assert "does not load" in run["kind_label"] and "no_such_module_here" in run["kind_label"]


def test_every_run_page_and_an_item_of_each(client, kinds):
    for path in (kinds.noisy, kinds.oracle, kinds.next_state, kinds.propose, kinds.probe):
        answer = client.get(f"/v1/runs/{path.name}/overview")
        assert answer.status_code == 200, (path.name, answer.text)
        data = answer.json()
        first = data["items"][0]["item"]
        item = client.get(f"/v1/runs/{path.name}/items/{quote(first, safe='')}")
        assert item.status_code == 200, (first, item.text)
        assert item.json()["item"] == first
    wm = client.get(f"/v1/runs/{kinds.next_state.name}/overview").json()
    assert wm["kind"] == "wm" and wm["headline"] == "accuracy"
    assert set(wm["groups"]) == {"rho", "domain", "origin"}
    assert wm["all"]["intervals"]["accuracy"]["mean"] == pytest.approx(wm["all"]["accuracy"])
    item_id = wm["items"][0]["item"]
    assert "/" in item_id  # world-model ids hold slashes
    item = client.get(f"/v1/runs/{kinds.next_state.name}/items/{quote(item_id, safe='')}").json()
    assert item["truth"]["action"] and "applicable" in item["truth"]
    assert item["calls"][0]["messages"] and item["metrics"]["kind"] in ("legal", "illegal")
    probe = client.get(f"/v1/runs/{kinds.probe.name}/overview").json()
    assert probe["measures"]["mean_rate"]["mean"] == 1.0 and probe["measures"]["domains"] == 2
    generation = client.get(f"/v1/runs/{kinds.noisy.name}/overview").json()
    ci = generation["intervals"]["paper"][0]["executable"]
    assert ci["mean"] == pytest.approx(generation["per_round"]["paper"][0]["executable"])
    # only generation runs have a per-action diff
    answer = client.get(f"/v1/runs/{kinds.next_state.name}/items/{quote(item_id, safe='')}/diff")
    assert answer.status_code == 404 and "only generation runs" in answer.text


def test_semantic_rounds_keep_per_problem_plan_results(client, kinds):
    items = Run.open(kinds.noisy).items()
    semantic = [rnd["semantic"] for item in items for rnd in item["rounds"]
                if (rnd.get("semantic") or {}).get("ok")]
    assert semantic and all(s["problems"] for s in semantic)
    assert {"name", "plan_valid", "plan_reason", "gold_plan_accepted"} <= set(
        semantic[0]["problems"][0])


def test_damaged_and_failed_runs_say_why(client, kinds):
    answer = client.get(f"/v1/runs/{kinds.damaged.name}/overview")
    assert answer.status_code == 422
    assert "config.json" in answer.json()["error"]["message"]
    answer = client.get(f"/v1/runs/{kinds.unreachable.name}/overview")
    assert answer.status_code == 200 and answer.json()["items"] == []


def test_root_leads_to_the_viewer(client):
    answer = client.get("/", follow_redirects=False)
    assert answer.status_code in (302, 307) and answer.headers["location"] == "/view/"


def test_compare_and_published_endpoints(client, kinds):
    data = client.get(f"/v1/runs/{kinds.oracle.name}/compare/{kinds.noisy.name}").json()
    assert data["common_items"] == 4 and data["metrics"]
    answer = client.get(f"/v1/runs/{kinds.noisy.name}/compare/{kinds.propose.name}")
    assert answer.status_code == 422 and "cannot compare" in answer.text
    panel = client.get(f"/v1/runs/{kinds.noisy.name}/against/paper").json()
    assert panel["matched"] is None and "reference models are never matched" in panel["reason"]
    assert panel["table"]["source"]["arxiv"] == "2502.13092"


def test_bundle_holds_every_answer_the_pages_ask_for(kinds, tmp_path):
    out = tmp_path / "site"
    result = write_bundle(kinds.runs_dir, out, [kinds.noisy.name, kinds.next_state.name])
    assert (out / "index.html").is_file() and (out / "viewer.js").is_file()
    page = (out / "index.html").read_text()
    assert "window.T2W_BUNDLE = true" in page and "/view/assets" not in page

    def answer(url: str) -> dict:
        text = (out / "data" / f"{bundle_key(url)}.js").read_text()
        match = re.fullmatch(r"__t2wData\((\".*?\"), (.*)\);\n", text, re.DOTALL)
        assert match and json.loads(match.group(1)) == url
        return json.loads(match.group(2).replace("<\\/", "</"))

    listing_page = answer("/v1/runs?limit=500&offset=0")
    assert [r["id"] for r in listing_page["items"]] == result["runs"]
    overview = answer(f"/v1/runs/{kinds.noisy.name}/overview")
    for row in overview["items"]:
        item = answer(f"/v1/runs/{kinds.noisy.name}/items/{quote(row['item'], safe='')}")
        for index in range(len(item["rounds"])):
            assert "actions" in answer(f"/v1/runs/{kinds.noisy.name}/items/"
                                       f"{quote(row['item'], safe='')}/diff?round={index}")
    wm = answer(f"/v1/runs/{kinds.next_state.name}/overview")
    answer(f"/v1/runs/{kinds.next_state.name}/items/{quote(wm['items'][0]['item'], safe='')}")
    # the JavaScript computes the same keys
    js = (out / "viewer.js").read_text()
    assert "0x811c9dc5" in js and "0x5bd1e995" in js
    with pytest.raises(ValueError, match="no run 'nope'"):
        write_bundle(kinds.runs_dir, tmp_path / "other", ["nope"])


def test_cli_bundle(kinds, tmp_path):
    result = CliRunner().invoke(cli, ["view", str(kinds.runs_dir), "--bundle",
                                      str(tmp_path / "b"), "--runs", kinds.probe.name])
    assert result.exit_code == 0, result.output
    assert "static viewer of 1 run (" in result.output
    result = CliRunner().invoke(cli, ["view", str(kinds.runs_dir), "--runs", "x"])
    assert result.exit_code != 0 and "--bundle" in result.output
