"""A problem run in the viewer's API (``tasks/problem/page.py`` through ``/v1/runs``): the run
page's per-round table and floors, an item page with its rounds, the runs listing, and the
viewer's script that draws them; and the library entry point with epochs."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import pytest
from fastapi.testclient import TestClient

from text2world.api.app import create_app
from text2world.api.settings import Settings
from text2world.tasks.problem.task import ProblemOptions, ProblemTaskError, plan_problems, run_problems


def test_run_page_item_page_and_listing(tmp_path, monkeypatch):
    monkeypatch.setenv("T2W_HOME", str(tmp_path / "home"))
    runs = tmp_path / "runs"
    result = run_problems(ProblemOptions(
        model="reference/noisy-oracle", domains=["blocksworld:p01", "blocksworld:p02"],
        split="all", size="easy", ec=2, epochs=2, workers=0, runs_root=runs))
    summary = result.summary
    assert summary["finished_items"] == 2 and summary.get("per_epoch")
    with TestClient(create_app(Settings(runs_dir=runs, executor="thread",
                                        score_processes=1))) as client:
        name = result.run.path.name
        data = client.get(f"/v1/runs/{name}/overview").json()
        assert data["kind"] == "problem"
        rounds = data["problem"]["per_round"]
        assert [r["round"] for r in rounds] == [0, 1, 2]
        assert set(rounds[-1]) >= {"parseable", "solvable", "equivalent", "similarity"}
        assert set(data["problem"]["floors"]) == {"first-problem", "empty-goal"}
        assert len(data["items"]) == 4  # two items, two epochs
        item = client.get(f"/v1/runs/{name}/items/blocksworld:p01").json()
        assert item["kind"] == "problem" and item["description"].startswith("The objects")
        assert item["rounds"][-1]["verdict"]["parseable"] is True
        listing = client.get("/v1/runs").json()
        entry = next(r for r in listing["items"] if r["id"] == name)
        assert entry["kind"] == "problem" and entry["summary"]["per_round"]
        script = client.get("/view/assets/viewer.js").text
        # the problem kind's own table and run page, not the generic ones of a new kind
        assert "problem: problemTable" in script and "problem: problemRunPage" in script


def test_library_errors_are_clear(tmp_path):
    with pytest.raises(ProblemTaskError, match="choose explicit or abstract"):
        plan_problems(ProblemOptions(model="reference/oracle", style="concrete",
                                     runs_root=tmp_path))
    with pytest.raises(ProblemTaskError, match="--ec must be 0 or more"):
        plan_problems(ProblemOptions(model="reference/oracle", ec=-1, runs_root=tmp_path))
