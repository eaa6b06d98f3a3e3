"""Protocols of one model side by side and test-time scaling in the viewer: the JSON of
``GET /v1/protocols?model=`` and ``GET /v1/runs/ID/scaling`` (in process) against each run's own
report, the bundle, and the charts drawn by the page in Debian's Chromium (a real ``t2w view``).

The runs are made offline with ``reference/noisy-oracle`` before Playwright's sync loop starts
(the runs use asyncio.run, which refuses to start inside it).
"""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from urllib.parse import quote

import pytest
from api_helpers import assert_error
from fastapi.testclient import TestClient
from processes import chromium_path, offline_page, viewer_process

from text2world.api.app import create_app
from text2world.api.bundle import bundle_key, write_bundle
from text2world.api.settings import Settings
from text2world.reports.generation import build_report
from text2world.tasks.generation.task import EvalOptions, evaluate

MODEL = "reference/noisy-oracle"
# bus-routing: noisy-oracle validates at EC_1 with an action lost (seed 0); the syntax and plans
# protocols keep it lost, the behaviour oracle gets it corrected
# (tests/tasks/generation/test_protocols.py).
DOMAINS = ["brewery", "bus-routing"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("protocols")
    made = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("T2W_HOME", str(root / "home"))
        for name, changes in (("syntax", {}), ("plans", {"feedback": "plans"}),
                              ("behavior", {"feedback": "behavior"}),
                              ("scaling", {"epochs": 3, "run_id": "scaling"})):
            made[name] = evaluate(EvalOptions(model=MODEL, ec=2, domains=DOMAINS, workers=0,
                                              runs_root=root / "runs", **changes)).run
    return SimpleNamespace(root=root, runs_dir=root / "runs", **made)


@pytest.fixture(scope="module")
def client(runs):
    app = create_app(Settings(runs_dir=runs.runs_dir, executor="thread", score_processes=1))
    with TestClient(app) as test_client:
        yield test_client


def own_report(run, tmp: Path):
    """The run's own ``t2w report`` (one run: one label)."""
    report = build_report([run.path], out_dir=tmp / run.run_id, plots=False)
    ((paper,),) = [report.data["per_round"].values()]
    ((semantic,),) = [report.data["semantic"]["per_round"].values()]
    return report, paper, semantic


def test_protocol_curves_are_the_runs_own_per_round_scores(client, runs, tmp_path):
    answer = client.get("/v1/protocols", params={"model": MODEL})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert data["model"] == MODEL
    assert data["protocols"] == ["syntax", "plans", "behavior"]
    assert data["headline"] == {"executability": "paper.executable",
                                "semantic": "semantic.plan_validity"}
    by_run = {series["run_id"]: series for series in data["series"]}
    assert set(by_run) == {runs.syntax.run_id, runs.plans.run_id, runs.behavior.run_id,
                           runs.scaling.run_id}
    assert len({series["label"] for series in data["series"]}) == 4
    behavior = by_run[runs.behavior.run_id]
    assert behavior["oracle_feedback"] and "oracle" in behavior["label"]
    assert not any("oracle" in by_run[run.run_id]["label"] for run in (runs.syntax, runs.plans))
    # items, not samples: 2 domains, each asked in 3 epochs
    assert by_run[runs.scaling.run_id]["epochs"] == 3 and by_run[runs.scaling.run_id]["items"] == 2
    assert any("oracle" in note for note in data["notes"])
    for run in (runs.syntax, runs.plans, runs.behavior, runs.scaling):
        series = by_run[run.run_id]
        _, paper, semantic = own_report(run, tmp_path)
        assert len(series["curves"]["paper.executable"]) == 3  # EC_0 .. EC_2
        assert series["curves"]["paper.executable"] == [row["executable"] for row in paper]
        assert series["curves"]["paper.similarity"] == [row["similarity"] for row in paper]
        assert series["curves"]["semantic.plan_validity"] == [row["plan_validity"]
                                                              for row in semantic]
        assert series["curves"]["semantic.equivalent"] == [
            row["verdicts"]["equivalent"] / row["items"] for row in semantic]
        # the report's own intervals per round, drawn as error bars; none for a verdict share
        report, _, _ = own_report(run, tmp_path / "again")
        ((paper_intervals,),) = [report.data["intervals"].values()]
        assert series["intervals"]["paper.executable"] == [
            {"low": row["executable"]["low"], "high": row["executable"]["high"]}
            for row in paper_intervals]
        assert "semantic.equivalent" not in series["intervals"]
    # the oracle gets bus-routing's lost action back; the syntax loop never notices it
    assert (by_run[runs.behavior.run_id]["curves"]["semantic.equivalent"][-1]
            > by_run[runs.syntax.run_id]["curves"]["semantic.equivalent"][-1])


def test_compare_names_the_protocols_and_the_oracle(runs):
    from text2world.reports.compare import compare_markdown, compare_runs

    data = compare_runs(runs.syntax.path, runs.behavior.path)
    assert data["a"]["protocol"] == "syntax" and data["b"]["protocol"] == "behavior"
    assert data["b"]["protocol_label"] == "behavior (oracle feedback)"
    assert any("behavior (oracle feedback)" in note for note in data["notes"])
    assert "(protocol behavior (oracle feedback))" in compare_markdown(data)


def test_protocols_of_an_unknown_model(client):
    assert_error(client.get("/v1/protocols", params={"model": "openai/nobody"}), 404,
                 "unknown_model")
    assert client.get("/v1/protocols").status_code == 422


def test_scaling_curves_are_the_reports(client, runs, tmp_path):
    answer = client.get(f"/v1/runs/{runs.scaling.run_id}/scaling")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    report, _, _ = own_report(runs.scaling, tmp_path)
    ((curves,),) = [report.data["scaling"].values()]
    for key in ("epochs", "items", "pass_at_k", "best_of_n", "correction_budget",
                "selection_rule", "protocol"):
        assert data[key] == curves[key], key
    assert data["epochs"] == 3 and set(data["pass_at_k"]) == {"executable", "equivalent"}
    assert len(data["pass_at_k"]["executable"]) == 3 and len(data["best_of_n"]["equivalent"]) == 3
    assert data["label"] == "syntax"
    assert_error(client.get(f"/v1/runs/{runs.syntax.run_id}/scaling"), 404, "no_scaling")
    assert_error(client.get("/v1/runs/nothing-here/scaling"), 404, "unknown_run")


def test_the_openapi_schema_describes_the_curves(client):
    schema = client.get("/openapi.json").json()
    assert "/v1/protocols" in schema["paths"] and "/v1/runs/{run_id}/scaling" in schema["paths"]
    series = schema["components"]["schemas"]["ProtocolSeries"]["properties"]
    assert {"label", "oracle_feedback", "curves"} <= set(series)


def test_the_bundle_holds_the_curves(runs, tmp_path):
    out = tmp_path / "site"
    write_bundle(runs.runs_dir, out, [runs.syntax.run_id, runs.scaling.run_id])
    for url in (f"/v1/protocols?model={quote(MODEL, safe='')}",
                f"/v1/runs/{runs.scaling.run_id}/scaling?mode=paper"):
        text = (out / "data" / f"{bundle_key(url)}.js").read_text(encoding="utf-8")
        assert text.startswith(f'__t2wData("{url}", {{') and '"error"' not in text[:200]


# --------------------------------------------------------------------------------------------
# The page, in Chromium


@pytest.fixture(scope="module")
def server(runs):
    with viewer_process(runs.runs_dir, runs.root / "view-home") as url:
        yield url


@pytest.fixture(scope="module")
def browser(runs):
    sync_api = pytest.importorskip("playwright.sync_api",
                                   reason="the playwright package is not installed")
    chromium = chromium_path()
    if chromium is None:
        pytest.skip("no Chromium browser found (apt-get install chromium, or set T2W_CHROMIUM)")
    # ``runs`` first: they are made with asyncio.run, refused inside Playwright's loop.
    with sync_api.sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=chromium,
                                              args=["--disable-dev-shm-usage"])
        yield instance
        instance.close()


def open_page(browser, server, path: str):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    external, errors = offline_page(page, server)
    page.goto(server + "/view/" + path)
    return context, page, errors, external


def test_the_pages_draw_the_protocol_and_scaling_charts(browser, server, runs):
    context, page, errors, external = open_page(browser, server, "#/")
    try:
        page.wait_for_selector("body[data-ready=leaderboard]", timeout=60_000)
        badges = page.locator("#leaderboard a.badge.protocol")
        assert sorted(badges.all_inner_texts()) == ["behavior (oracle)", "plans"]
        badges.first.click()  # the badge leads to the model's protocols side by side
        page.wait_for_selector("body[data-ready=protocols]", timeout=60_000)
        assert page.url.endswith("#/protocols/" + quote(MODEL, safe=""))
        charts = page.locator(".protocol-charts svg.chart")
        assert charts.count() == 2
        legend = page.locator(".protocol-charts .card").first.locator(".legend").inner_text()
        for label in ("syntax", "plans", "behavior (oracle feedback)"):
            assert label in legend
        # one line per run: four polylines (or markers only for a flat one-point series)
        assert page.locator(".protocol-charts .card").first.locator("g.s").count() == 4
        assert page.locator(".protocol-charts .card").first.locator("line.errbar").count() > 0
        assert page.locator("#protocol-runs tbody tr").count() == 4
        page.select_option("#protocol-curve", "semantic.equivalent")
        page.wait_for_selector('.protocol-charts [data-curve="semantic.equivalent"] svg.chart')

        page.goto(server + "/view/#/run/" + runs.scaling.run_id)
        page.wait_for_selector("body[data-ready=run]", timeout=60_000)
        page.wait_for_selector("#scaling-chart svg.chart", timeout=60_000)
        scaling = page.locator("#scaling-chart").inner_text()
        assert "pass@k executable" in scaling and "best-of-N semantically equivalent" in scaling
        assert page.locator("#budget-chart svg.chart").count() == 1
        page.wait_for_selector("#protocols-panel svg.chart", timeout=60_000)
        assert page.locator("#protocols-panel svg.chart").count() == 2
        assert errors == [] and external == []
    finally:
        context.close()
