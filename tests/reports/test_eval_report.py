"""Report values computed from runs served by the loopback server."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import csv
import json

import pytest
from llm_server import (
    Script,
    ScriptedLLMServer,
    broken_parenthesis,
    pddl_answer,
    small_domain,
    undefined_predicate,
    write_store,
)

from text2world.reports.generation import ReportError, build_report
from text2world.tasks.generation.task import EvalOptions, evaluate

NAMES = ["t2wr-a", "t2wr-b", "t2wr-c", "t2wr-d", "t2wr-e"]


def scripts() -> dict[str, Script]:
    def gold(name):
        return small_domain(name)

    return {
        "t2wr-a": Script([pddl_answer(gold("t2wr-a"))]),
        "t2wr-b": Script([pddl_answer(broken_parenthesis(gold("t2wr-b"))),
                          pddl_answer(gold("t2wr-b"))]),
        "t2wr-c": Script([pddl_answer(undefined_predicate(gold("t2wr-c"))),
                          pddl_answer(broken_parenthesis(gold("t2wr-c"))),
                          pddl_answer(gold("t2wr-c"))]),
        "t2wr-d": Script(["no domain from me (t2wr-d)", pddl_answer(gold("t2wr-d"))]),
        # valid, but one action short: lower F1 at every round
        "t2wr-e": Script([pddl_answer(small_domain("t2wr-e", actions=1))]),
    }


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("report")
    store = write_store(root / "store", NAMES)
    runs = []
    with pytest.MonkeyPatch.context() as patch, ScriptedLLMServer(scripts()) as server:
        patch.setenv("T2W_HOME", str(root / "home"))
        for description in ("abstract", "concrete"):
            result = evaluate(EvalOptions(
                model="openai/test-model", api_base=server.url, dataset=str(store), ec=3,
                description=description, workers=0, timeout=5, retry_base_delay=0.01,
                runs_root=root / "runs"))
            runs.append(result.run.path)
    return runs


def test_table1_round_curve_and_categories(two_runs, tmp_path):
    report = build_report([two_runs[0]], out_dir=tmp_path / "one")
    row = report.data["runs"][0]
    # executable after 0/1/2 corrections: a, e | + b, d | + c
    assert row["executable_ec0"] == pytest.approx(2 / 5)
    assert row["executable_eck"] == pytest.approx(1.0)
    curve = [r["executable"] for r in report.data["per_round"][row["run"]]]
    assert curve == pytest.approx([0.4, 0.8, 1.0, 1.0])
    # t2wr-e lost one of its two actions: valid at once, but lower action F1
    per_domain = {r["item"]: r[row["run"]] for r in report.data["per_domain"]}
    assert per_domain["t2wr-a"]["f1_mean_eck"] == pytest.approx(1.0)
    assert per_domain["t2wr-e"]["f1_mean_eck"] < 1.0
    assert per_domain["t2wr-e"]["valid_round"] == 0
    assert per_domain["t2wr-c"]["valid_round"] == 2
    categories = report.data["error_categories"][row["run"]]
    assert categories[0]["categories"] == {"IncorrectParentheses": 1, "Other": 1,
                                           "NoDomainFound": 1}
    assert categories[1]["categories"] == {"IncorrectParentheses": 1}
    assert categories[2]["invalid"] == 0
    with (tmp_path / "one" / "table1.csv").open() as stream:
        table = list(csv.DictReader(stream))
    assert float(table[0]["executable_ec0"]) == pytest.approx(0.4)
    assert "| Exec EC_0 |" in (tmp_path / "one" / "table1.md").read_text()
    for name in ("per_round.png", "errors_per_round.png", "report.json", "per_domain.csv",
                 "rounds_repeated_measures.csv"):
        assert (tmp_path / "one" / name).is_file(), name


def test_rounds_are_tested_as_repeated_measures_with_intervals(two_runs, tmp_path):
    from text2world.stats import bootstrap_mean, repeated_measures

    report = build_report([two_runs[0]], out_dir=tmp_path / "rm")
    label = report.data["runs"][0]["run"]
    items = sorted((json.loads(line) for line in
                    (two_runs[0] / "log.jsonl").read_text().splitlines()),
                   key=lambda item: item["item"])
    rounds = [[float(item["ec"]["paper"][r]["executable"]) for item in items] for r in range(4)]
    entry = report.data["rounds_test"][label]["executable"]
    expected = repeated_measures(rounds)
    assert entry["F"] == pytest.approx(expected["F"]) and entry["p"] == pytest.approx(expected["p"])
    assert entry["first_to_last"]["difference"]["mean"] == pytest.approx(0.6)
    # Table 1's figures carry their interval: EC_0 executability 2/5.
    ec0 = report.data["intervals"][label][0]["executable"]
    assert ec0 == bootstrap_mean(rounds[0]).as_dict() and ec0["mean"] == pytest.approx(0.4)
    assert ec0["low"] < 0.4 < ec0["high"]
    assert "40.0 [" in (tmp_path / "rm" / "table1.md").read_text()


def test_abstract_vs_concrete_when_both_exist(two_runs, tmp_path):
    report = build_report(two_runs, out_dir=tmp_path / "both")
    pairs = report.data["abstract_vs_concrete"]
    assert len(pairs) == 1 and pairs[0]["model"] == "openai/test-model"
    assert pairs[0]["abstract"]["eck"]["executable"] == pytest.approx(1.0)
    assert (tmp_path / "both" / "abstract_vs_concrete.png").is_file()
    labels = [row["run"] for row in report.data["runs"]]
    assert labels == ["openai/test-model (abstract)", "openai/test-model (concrete)"]
    single = build_report([two_runs[0]], out_dir=tmp_path / "single")
    assert single.data["abstract_vs_concrete"] == []


def test_report_errors(tmp_path):
    with pytest.raises(ReportError, match="no such run"):
        build_report([tmp_path / "nothing"])
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "config.json").write_text(json.dumps({"ec": 1, "model": "m"}))
    with pytest.raises(ReportError, match="no finished item"):
        build_report([tmp_path / "empty"])
    with pytest.raises(ReportError, match="mode"):
        build_report([tmp_path / "empty"], mode="other")


def _published(tmp_path, rows, monkeypatch) -> str:
    """A user table under T2W_HOME/published/ (the documented schema)."""
    home = tmp_path / "home"
    (home / "published").mkdir(parents=True)
    (home / "models.toml").write_text('[models.test-alias]\nmodel = "openai/test-model"\n')
    monkeypatch.setenv("T2W_HOME", str(home))
    table = {"name": "mine", "title": "A published table", "scale": "percent",
             "source": {"paper": "Someone et al.", "arxiv": "0000.00000", "version": "v1",
                        "table": "Table 9"},
             "conditions": {"mode": "paper", "description": "abstract"},
             "settings": {"EC_0": 0, "EC_3": 3}, "rows": rows}
    (home / "published" / "mine.json").write_text(json.dumps(table))
    return "mine"


def test_against_a_published_table(two_runs, tmp_path, monkeypatch):
    from text2world.reports.published import PublishedError, against, load_table

    # The run (openai/test-model, abstract): Exec 40% at EC_0, 100% at EC_3 (see above).
    rows = [{"model": "test-alias", "setting": "EC_0", "metric": "executable", "value": 40.0},
            {"model": "test-alias", "setting": "EC_3", "metric": "executable", "value": 100.0}]
    name = _published(tmp_path, rows, monkeypatch)
    matched = against(two_runs[0], name)
    assert matched["matched"] == "test-alias"  # through the alias's litellm model
    assert [r["status"] for r in matched["rows"]] == ["within", "within"]
    assert matched["outside"] == 0 and matched["notes"] == []
    # Figures far from ours are flagged (5 items: EC_0's interval is wide, about 0 to 80).
    far = [{**rows[0], "value": 95.0}, {**rows[1], "value": 5.0}]
    (tmp_path / "home" / "published" / "mine.json").write_text(
        json.dumps({**load_table(name), "rows": far}))
    flagged = against(two_runs[0], name)
    assert [r["status"] for r in flagged["rows"]] == ["outside", "outside"]
    # The concrete run differs from the table's conditions: said so.
    assert "description" in " ".join(against(two_runs[1], name)["notes"])
    # Bad tables are refused with the row that is wrong.
    (tmp_path / "home" / "published" / "bad.json").write_text(
        json.dumps({"rows": [{"model": "x", "setting": "EC_9", "metric": "executable",
                              "value": 1}]}))
    with pytest.raises(PublishedError, match="row 1: setting 'EC_9'"):
        load_table("bad")


def test_shipped_paper_table_and_reference_runs(two_runs):
    from text2world.reports.published import load_table, matching_model

    table = load_table("text2world-table1")
    assert table["source"]["arxiv"] == "2502.13092" and table["source"]["table"] == "Table 1"
    assert table["family"] == "paper" and table["rows"]
    for row in table["rows"]:  # every shipped row names its model, round, metric and value
        assert row["setting"] in ("EC_0", "EC_3") and 0 <= row["value"] <= 100
    rows_table = {**table, "rows": [{"model": "reference/oracle", "setting": "EC_0",
                                     "metric": "executable", "value": 100.0}]}
    assert matching_model({"model": "reference/oracle", "reference_model": True},
                          rows_table) is None


def test_cli_report_against(two_runs, tmp_path, monkeypatch):
    from typer.testing import CliRunner

    from text2world.cli import app as cli

    name = _published(tmp_path, [{"model": "test-alias", "setting": "EC_3",
                                  "metric": "executable", "value": 5.0}], monkeypatch)
    result = CliRunner().invoke(cli, ["report", str(two_runs[0]), "--against", name])
    assert result.exit_code == 0, result.output
    assert "1 of 1 published figures lie outside our 95% interval" in " ".join(result.output.split())
