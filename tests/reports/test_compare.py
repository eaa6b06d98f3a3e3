"""``t2w compare``: paired differences between runs on their common items, on real offline runs
of the reference models (every kind in one runs folder)."""

from __future__ import annotations

import json

import pytest
from run_kinds import make_runs
from typer.testing import CliRunner

from text2world.cli import app as cli
from text2world.reports.compare import CompareError, compare_markdown, compare_runs


@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    return make_runs(tmp_path_factory.mktemp("compare"))


def test_noisy_oracle_against_oracle_shows_the_planted_difference(kinds):
    data = compare_runs(kinds.oracle, kinds.noisy)
    assert data["common_items"] == 4 and data["kind"] == "generation"
    rows = {row["metric"]: row for row in data["metrics"]}
    # The noisy oracle breaks its first answers: executability at EC_0 is lower on most items.
    first = rows["executable@EC_0"]
    assert first["mean_a"] == 1.0 and first["mean_b"] < 1.0
    assert first["difference"]["mean"] < 0 and first["losses"] >= 2 and first["wins"] == 0
    assert first["difference"]["high"] <= 0
    assert "EC_1 for A, EC_3 for B" in " ".join(data["notes"])
    assert sum(data["domains"].values()) == 4
    markdown = compare_markdown(data)
    assert "| executable@EC_0 |" in markdown


def test_a_run_against_itself_differs_nowhere(kinds):
    for path in (kinds.noisy, kinds.next_state, kinds.probe):
        data = compare_runs(path, path)
        assert data["metrics"], path
        for row in data["metrics"]:
            assert row["difference"]["mean"] == 0.0 and row["p_value"] == 1.0
            assert row["wins"] == row["losses"] == 0
        assert data["differ_most"] == []


def test_world_model_comparison_resamples_domains(kinds):
    data = compare_runs(kinds.next_state, kinds.next_state)
    assert data["clustered_by_domain"] and data["headline"] == "accuracy"
    with pytest.raises(CompareError, match="next-state run with a propose run"):
        compare_runs(kinds.next_state, kinds.propose)
    with pytest.raises(CompareError, match="generation run with a wm run"):
        compare_runs(kinds.noisy, kinds.propose)
    with pytest.raises(CompareError, match="no such run"):
        compare_runs(kinds.noisy, kinds.runs_dir / "nothing")


def test_cli_compare(kinds):
    result = CliRunner().invoke(cli, ["compare", str(kinds.oracle), str(kinds.noisy), "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["common_items"] == 4
    result = CliRunner().invoke(cli, ["compare", str(kinds.oracle), str(kinds.noisy)])
    assert result.exit_code == 0 and "Exec@EC_0" in result.output and "W/T/L" in result.output
    assert "| executable@EC_0 |" in CliRunner().invoke(
        cli, ["compare", str(kinds.oracle), str(kinds.noisy), "--markdown"]).output
    result = CliRunner().invoke(cli, ["compare", str(kinds.oracle), str(kinds.propose)])
    assert result.exit_code != 0 and "cannot compare" in result.output
