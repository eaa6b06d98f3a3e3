"""Report values computed from runs served by the loopback server."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import csv
import json

import pytest
from scipy import stats

from text2world.tasks.generation.task import EvalOptions, evaluate
from text2world.reports.generation import ReportError, build_report

from llm_server import (Script, ScriptedLLMServer, broken_parenthesis, pddl_answer,
                        small_domain, undefined_predicate, write_store)

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
                 "anova.csv"):
        assert (tmp_path / "one" / name).is_file(), name


def test_anova_matches_scipy_on_the_logged_values(two_runs, tmp_path):
    report = build_report([two_runs[0]], out_dir=tmp_path / "anova")
    label = report.data["runs"][0]["run"]
    items = [json.loads(line) for line in (two_runs[0] / "log.jsonl").read_text().splitlines()]
    groups = [[float(item["ec"]["paper"][r]["executable"]) for item in items] for r in range(4)]
    expected = stats.f_oneway(*groups)
    entry = report.data["anova"][label]["executable"]
    assert entry["F"] == pytest.approx(float(expected.statistic))
    assert entry["p"] == pytest.approx(float(expected.pvalue))


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
