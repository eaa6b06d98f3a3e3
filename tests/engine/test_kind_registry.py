"""A kind is described once: a toy task (``tests/toy_kind.py``: a package of its own, nothing of
text2world changed), registered with ONE ``add_kind`` line, is run by the engine, summarised,
reported (``t2w report``), compared (``t2w compare``), exported (``t2w export-trajectories``)
and viewed (``t2w view --bundle``) through the generic paths."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from toy_kind import make_toy_runs, toy_python, toy_t2w, write_toy

from text2world.engine.kinds import add_kind, kind_names, kind_of, kind_spec, remove_kind
from text2world.engine.run_records import RunError


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> Path:
    """The folder holding the ``toykind`` package."""
    return write_toy(tmp_path_factory.mktemp("toy"))


@pytest.fixture(scope="module")
def toy_runs(toy: Path) -> Path:
    return make_toy_runs(toy)


def test_the_toy_kind_runs_and_is_summarised_by_its_task(toy_runs: Path):
    for run_id, accuracy in (("toy-oracle", 1.0), ("toy-noisy", None)):
        config = json.loads((toy_runs / run_id / "config.json").read_text())
        summary = json.loads((toy_runs / run_id / "summary.json").read_text())
        assert config["kind"] == summary["kind"] == "toy"
        assert summary["finished_items"] == 3 and summary["calls"] == 3
        if accuracy is not None:
            assert summary["accuracy"] == accuracy
        else:  # the noisy oracle breaks some gold domains
            assert summary["accuracy"] < 1.0
        assert summary["run_id"] == run_id and summary["label"] == run_id  # the engine's part


def test_the_toy_kind_is_reported_compared_exported_and_viewed(toy: Path, toy_runs: Path):
    report = toy_t2w(toy, "report", str(toy_runs / "toy-noisy"), "--json")
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["kind"] == "toy"
    table = toy_t2w(toy, "report", str(toy_runs / "toy-oracle"))
    assert table.returncode == 0 and "accuracy" in table.stdout and "1.0" in table.stdout

    compared = toy_t2w(toy, "compare", str(toy_runs / "toy-oracle"), str(toy_runs / "toy-noisy"),
                   "--json")
    assert compared.returncode == 0, compared.stderr
    data = json.loads(compared.stdout)
    assert data["kind"] == "toy" and data["headline"] == "exact" and data["common_items"] == 3
    assert [row["metric"] for row in data["metrics"]] == ["exact"]
    assert data["metrics"][0]["mean_a"] == 1.0 and data["metrics"][0]["mean_b"] < 1.0

    exported = toy_t2w(toy, "export-trajectories", str(toy_runs / "toy-oracle"), "--out",
                   str(toy / "toy.jsonl"))
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in (toy / "toy.jsonl").read_text().splitlines()]
    assert [(line["kind"], line["verdict"]) for line in lines] == [("toy", "correct")] * 3

    bundle = toy_t2w(toy, "view", str(toy_runs), "--bundle", str(toy / "bundle"))
    assert bundle.returncode == 0, bundle.stderr
    pages = {}
    for path in (toy / "bundle" / "data").glob("*.js"):
        url, _, body = path.read_text()[len("__t2wData("):-len(");\n")].partition(", ")
        pages[json.loads(url)] = json.loads(body)
    overview = pages["/v1/runs/toy-oracle/overview"]
    assert overview["kind"] == "toy" and len(overview["items"]) == 3
    item = overview["items"][0]["item"]
    assert pages[f"/v1/runs/toy-oracle/items/{item}"]["metrics"] == {"correct": True}
    assert pages["/v1/runs/toy-oracle/compare/toy-noisy"]["headline"] == "exact"


def test_without_its_line_the_toy_kind_is_unknown(toy: Path, toy_runs: Path):
    """The registration is what makes it known: without it the same commands say so."""
    done = toy_python(toy, "import sys; from text2world.cli import app; sys.argv[0] = 't2w'; app()",
                   "compare", str(toy_runs / "toy-oracle"), str(toy_runs / "toy-noisy"))
    assert done.returncode != 0 and "unknown kind 'toy'" in done.stderr + done.stdout


def test_add_kind_is_lazy_and_checked():
    add_kind("lazy", "no_such_module_here:Nothing", aliases=("old-lazy",))
    try:
        assert "lazy" in kind_names() and kind_of({"kind": "old-lazy"}) == "lazy"
        with pytest.raises(ModuleNotFoundError):  # imported only when asked for
            kind_spec("lazy")
    finally:
        remove_kind("lazy")
    assert "lazy" not in kind_names() and kind_of({"kind": "old-lazy"}) == "old-lazy"
    with pytest.raises(ValueError, match="module:Class"):
        add_kind("bad", "no colon")
    with pytest.raises(RunError, match="unknown kind 'chess'"):
        kind_spec("chess")
