"""The results viewer's library (action_diff, runview) and JSON endpoints, in process, on real runs
made offline with the reference models; and the offline /docs and /redoc pages."""

from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser

import pytest
from api_helpers import assert_error
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from text2world.api.app import create_app
from text2world.api.settings import Settings
from text2world.api.viewer import STATIC
from text2world.cli import app as cli
from text2world.engine.run_store import Run
from text2world.reports import runview
from text2world.scoring.metrics import action_diff, score
from text2world.store.datasets import load_dataset
from text2world.tasks.generation.task import EvalOptions, evaluate


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("viewer")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("T2W_HOME", str(root / "home"))
        evaluate(EvalOptions(model="reference/noisy-oracle", ec=3, limit=4, workers=0,
                             runs_root=root / "runs"))
    return root / "runs"


@pytest.fixture(scope="module")
def client(runs_dir):
    app = create_app(Settings(runs_dir=runs_dir, executor="thread", score_processes=1))
    with TestClient(app) as test_client:
        yield test_client


def noisy_run(runs_dir) -> Run:
    return Run.open(next(p for p in runs_dir.iterdir() if "noisy" in p.name))


# --------------------------------------------------------------------------------------------
# action_diff


def blocksworld() -> str:
    return load_dataset("text2world").get("blocksworld").domain


def test_diff_of_a_domain_with_itself_matches_everything():
    gold = blocksworld()
    diff = action_diff(gold, gold)
    assert diff["ok"] and diff["reason"] is None
    assert [a["name"] for a in diff["actions"]] == ["pick-up", "put-down", "stack", "unstack"]
    rows = [row for a in diff["actions"] for c in ("parameters", "preconditions", "effects")
            for row in a[c]] + diff["predicates"]
    assert rows and {row["status"] for row in rows} == {"matched"}
    assert all(row["gold"] == row["predicted"] for row in rows)


def test_diff_marks_missing_extra_and_matches_renamed_variables():
    gold = blocksworld()
    predicted = (gold.replace("?target", "?t")
                 .replace("(and (holding ?b) (clear ?t))", "(holding ?b)")
                 .replace("(:action put-down", "(:action PUT-DOWN")
                 .replace("  (:action unstack", "  (:action wave\n    :parameters (?b - block)\n"
                          "    :precondition (hand-empty)\n    :effect (clear ?b))\n"
                          "  (:action unstack")
                 .replace("(hand-empty))\n\n  (:action pick-up",
                          "(hand-empty) (glued ?b - block))\n\n  (:action pick-up"))
    predicted = predicted.replace(gold[gold.index("  (:action unstack"):], ")\n")
    diff = action_diff(gold, predicted)
    assert diff["ok"], diff["reason"]
    by_name = {a["name"].lower(): a for a in diff["actions"]}
    assert by_name["unstack"]["status"] == "missing"
    assert by_name["wave"]["status"] == "extra"
    assert by_name["put-down"]["status"] == "matched"  # case folded
    stack = by_name["stack"]
    assert {(r["status"], r["gold"], r["predicted"]) for r in stack["preconditions"]} == {
        ("matched", "(holding ?b)", "(holding ?b)"), ("missing", "(clear ?target)", None)}
    # renamed variables match by position; each side printed with its own names
    assert ("matched", "(on ?b ?target)", "(on ?b ?t)") in {
        (r["status"], r["gold"], r["predicted"]) for r in stack["effects"]}
    assert {r["status"] for r in by_name["unstack"]["effects"]} == {"missing"}
    assert {r["status"] for r in by_name["wave"]["effects"]} == {"extra"}
    assert ("extra", None, "(glued ?x0 - block)") in {  # as the domain model prints it
        (r["status"], r["gold"], r["predicted"]) for r in diff["predicates"]}
    # the F1s are canonical mode's own per-action scores
    per_action = score(gold, predicted, mode="canonical").per_action
    for name, action in by_name.items():
        assert action["f1"] == {k: per_action[name][k]
                                for k in ("parameters", "preconditions", "effects")}
        assert action["status"] == per_action[name]["status"]


def test_diff_of_a_broken_domain_says_why():
    diff = action_diff(blocksworld(), "(define (domain blocksworld) (:action")
    assert diff["ok"] is False and diff["actions"] == []
    assert "generated domain does not parse" in diff["reason"]
    diff = action_diff("(define", blocksworld())
    assert diff["ok"] is False and "gold domain does not parse" in diff["reason"]


# --------------------------------------------------------------------------------------------
# runview


def test_overview_equals_the_run_summary(runs_dir):
    run = noisy_run(runs_dir)
    items = run.scored_items()
    data = runview.overview(run, items)
    summary = json.loads((run.path / "summary.json").read_text())
    assert data["modes"] == ["paper", "canonical", "semantic"]  # store runs score behaviour
    for mode in data["modes"]:
        assert [{k: v for k, v in row.items()} for row in data["per_round"][mode]] == \
            summary["metrics"][mode]
    assert data["summary"]["valid_at_round"] == summary["valid_at_round"]
    assert sum(row["invalid"] for row in data["error_categories"][:1]) == \
        sum(1 for item in items if not item["rounds"][0]["valid"])
    assert [row["item"] for row in data["items"]] == sorted(str(i["item"]) for i in items)
    for row in data["items"]:
        item = next(i for i in items if i["item"] == row["item"])
        assert row["valid_round"] == item["valid_round"]
        assert row["scores"]["paper"]["exec_eck"] == item["ec"]["paper"][-1]["executable"]


def test_overview_shows_a_mode_the_run_store_does_not_know(runs_dir, tmp_path):
    """Any further mode in the log gets its own per-round means."""
    copy = tmp_path / "run"
    shutil.copytree(noisy_run(runs_dir).path, copy)
    lines = []
    for line in (copy / "log.jsonl").read_text().splitlines():
        item = json.loads(line)
        item["ec"]["future-mode"] = [{"plan_validity": 1.0 if s["executable"] else 0.0,
                                      "verdict": "equivalent" if s["executable"] else "different",
                                      "diagnoses": ["x"]} for s in item["ec"]["paper"]]
        lines.append(json.dumps(item))
    (copy / "log.jsonl").write_text("\n".join(lines) + "\n")
    run = Run.open(copy)
    data = runview.overview(run, run.scored_items())
    assert data["modes"] == ["paper", "canonical", "future-mode", "semantic"]
    assert [row["plan_validity"] for row in data["per_round"]["future-mode"]] == \
        [row["executable"] for row in data["per_round"]["paper"]]
    for row in data["items"]:
        assert row["scores"]["future-mode"]["eck"] == {
            "plan_validity": 1.0 if row["scores"]["paper"]["exec_eck"] else 0.0}
        assert row["scores"]["future-mode"]["verdict_eck"] == (
            "equivalent" if row["scores"]["paper"]["exec_eck"] else "different")


def test_error_lines_include_the_parser_position():
    validation = {"errors": [{"line": 1, "message": "1 parenthesis opened and never closed "
                              "(line 73:37 extraneous input '<EOF>')"},
                             {"line": None, "message": "no position"}]}
    assert runview.error_lines(validation) == [1, 73]


# --------------------------------------------------------------------------------------------
# JSON endpoints


def test_overview_endpoint(client, runs_dir):
    run = noisy_run(runs_dir)
    response = client.get(f"/v1/runs/{run.run_id}/overview")
    assert response.status_code == 200
    body = response.json()
    assert body["run_id"] == run.run_id and body["ec"] == 3
    assert len(body["per_round"]["paper"]) == 4 and len(body["items"]) == 4


def test_item_endpoint_has_rounds_gold_and_error_lines(client, runs_dir):
    run = noisy_run(runs_dir)
    items = run.scored_items()
    invalid = next(i for i in items if not i["rounds"][0]["valid"])
    body = client.get(f"/v1/runs/{run.run_id}/items/{invalid['item']}").json()
    assert body["gold"] == load_dataset("text2world").get(invalid["item"]).domain
    assert body["gold_note"] is None
    first = body["rounds"][0]
    assert first["messages"][1]["role"] == "user" and first["response"] and first["domain"]
    assert first["validation"]["errors"][0]["line"] in first["error_lines"]
    order = sorted(i["item"] for i in items)
    assert body["position"] == order.index(invalid["item"]) and body["count"] == len(order)
    assert body["next"] == (order[body["position"] + 1] if body["position"] + 1 < len(order)
                            else None)


def test_diff_endpoint_defaults_to_the_last_round(client, runs_dir):
    run = noisy_run(runs_dir)
    items = run.scored_items()
    item = next(i for i in items if i["valid"])
    last = len(item["rounds"]) - 1
    body = client.get(f"/v1/runs/{run.run_id}/items/{item['item']}/diff").json()
    assert body["round"] == last and body["ok"]
    gold = load_dataset("text2world").get(item["item"]).domain
    assert {k: v for k, v in body.items() if k not in ("round", "gold_note")} == \
        action_diff(gold, item["rounds"][last]["domain"])
    zero = client.get(f"/v1/runs/{run.run_id}/items/{item['item']}/diff?round=0").json()
    assert zero["round"] == 0


def test_viewer_errors_are_clear(client, runs_dir):
    run = noisy_run(runs_dir)
    assert "no run" in assert_error(client.get("/v1/runs/nope/overview"), 404,
                                    "unknown_run")["message"]
    assert_error(client.get("/v1/runs/..%2F..%2Fetc/overview"), 404)
    assert_error(client.get(f"/v1/runs/{run.run_id}/items/nope"), 404, "unknown_item")
    message = assert_error(client.get(f"/v1/runs/{run.run_id}/items/airport-ground/diff?round=9"),
                           404, "unknown_item")["message"]
    assert "rounds 0 to" in message
    assert_error(client.get(f"/v1/runs/{run.run_id}/items/airport-ground/diff?round=-1"), 422)
    (runs_dir / "not-a-run").mkdir(exist_ok=True)
    assert_error(client.get("/v1/runs/not-a-run/overview"), 404, "unknown_run")


def test_a_damaged_log_is_a_clear_error(client, runs_dir, tmp_path):
    copy = runs_dir / "damaged-run"
    shutil.copytree(noisy_run(runs_dir).path, copy)
    with (copy / "log.jsonl").open("a") as stream:
        stream.write("{not json\n")
    try:
        error = assert_error(client.get("/v1/runs/damaged-run/overview"), 422, "run_unreadable")
        assert "not valid JSON" in error["message"]
    finally:
        shutil.rmtree(copy)


# --------------------------------------------------------------------------------------------
# Offline pages: nothing is loaded from another host


class _References(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag, attrs) -> None:
        self.urls += [value for name, value in attrs if name in ("src", "href") and value]


def references(html: str) -> list[str]:
    parser = _References()
    parser.feed(html)
    return parser.urls


@pytest.mark.parametrize("page", ["/docs", "/redoc", "/view/"])
def test_pages_reference_no_external_host(client, page):
    response = client.get(page)
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]
    html = response.text
    assert not re.search(r"(https?:)?//[a-z0-9]", html, re.IGNORECASE), html
    urls = references(html)
    assert urls
    for url in urls:
        if url.startswith(("data:", "#")):
            continue
        assert url.startswith("/"), url
        asset = client.get(url)
        assert asset.status_code == 200, url
        assert len(asset.content) > 0
    if page == "/docs":
        assert '"validatorUrl": null' in html  # no validator badge from validator.swagger.io


def test_viewer_assets_fetch_nothing_from_elsewhere():
    for path in (STATIC / "viewer").iterdir():
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"https?://", text), path.name
    assert (STATIC / "docs" / "swagger-ui.LICENSE").is_file()
    assert (STATIC / "docs" / "redoc.LICENSE").is_file()


def test_openapi_lists_the_viewer_endpoints(client):
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/v1/runs/{run_id}/overview", "/v1/runs/{run_id}/items/{item_id}",
                 "/v1/runs/{run_id}/items/{item_id}/diff"):
        assert path in paths


# --------------------------------------------------------------------------------------------
# t2w view


def test_view_command_refuses_a_missing_folder(tmp_path):
    result = CliRunner().invoke(cli, ["view", str(tmp_path / "nope")])
    assert result.exit_code == 1
    assert "no such folder" in " ".join(result.output.split())


def test_warming_reads_the_newest_runs_once(runs_dir):
    from text2world.api import viewer

    run = noisy_run(runs_dir)
    viewer.warm(runs_dir).join(timeout=60)
    key = str(run.path.resolve())
    entry = viewer._items.entries[key]
    assert "overview" in entry[2]
    # a page opened afterwards gets the same parsed log, not a second read
    assert viewer._items.get(Run.open(run.path)) is entry[1]
