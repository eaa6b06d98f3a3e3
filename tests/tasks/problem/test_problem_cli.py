"""``t2w eval --task problem`` through the command line (a fresh process): the oracle's
problems are all equivalent, the noisy oracle's rounds are scored per round with intervals and
floors, a run resumes and extends, ``t2w report`` shows the tables, bad flags get one clear
line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from generated_worlds import t2w

ITEMS = "blocksworld:p01,cargo-logistics:p01,tidy-room:h01"


def _run_folder(home: Path) -> Path:
    (folder,) = [p for p in (home / "runs").iterdir() if p.name.startswith("problem__")]
    return folder


def _items(folder: Path) -> list[dict]:
    return [json.loads(line) for line in (folder / "log.jsonl").read_text().splitlines()
            if line.strip() and json.loads(line).get("type", "item") == "item"]


def test_oracle_problems_are_all_equivalent(tmp_path):
    result = t2w("eval", "--task", "problem", "--model", "reference/oracle", "--ec", "1",
                 "--domains", ITEMS, "--split", "all", "--no-progress", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr
    assert "EC_1  │ 100.0 [100.0, 100.0] │ 100.0 [100.0, 100.0] │ 100.0 [100.0, 100.0]" \
        in result.stdout
    assert all(len(line) <= 80 for line in result.stdout.splitlines()
               if not line.lstrip().startswith("/"))
    items = _items(_run_folder(tmp_path))
    assert sorted(i["item"] for i in items) == sorted(ITEMS.split(","))
    assert {i["size"] for i in items} == {"easy", "hard"}
    for item in items:
        assert item["ec"]["equivalent"] == [1.0, 1.0] and item["rule"]
        assert set(item["floors"]) == {"first-problem", "empty-goal"}
        assert item["floors"]["empty-goal"]["equivalent"] is not True


def test_noisy_oracle_rounds_resume_and_report(tmp_path):
    first = t2w("eval", "--task", "problem", "--model", "reference/noisy-oracle",
                "--description", "abstract", "--size", "easy", "--limit", "3",
                "--no-progress", home=tmp_path)
    assert first.returncode == 0, first.stderr
    folder = _run_folder(tmp_path)
    assert "__abstract__easy__ec3__" in folder.name
    assert len(_items(folder)) == 3
    resumed = t2w("eval", "--task", "problem", "--resume", str(folder), "--no-progress",
                  home=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert "0 new items" in resumed.stdout and len(_items(folder)) == 3
    # the same command with a larger selection extends the run
    again = t2w("eval", "--task", "problem", "--model", "reference/noisy-oracle",
                "--description", "abstract", "--size", "easy", "--limit", "6",
                "--no-progress", home=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "3 new items" in again.stdout and _run_folder(tmp_path) == folder
    items = _items(folder)
    assert len({i["item"] for i in items}) == 6
    for item in items:
        rounds = item["rounds"]
        assert len(item["ec"]["parseable"]) == 4 and 1 <= len(rounds) <= 4
        for before in rounds[:-1]:  # every round before the last had findings to act on
            assert before["findings"] and before["feedback"]
            assert not (before["verdict"]["parseable"] and before["verdict"]["solvable"])
        assert item["description"].startswith("Objects: ") and item["style"] == "abstract"
    report = t2w("report", str(folder), "--json", home=tmp_path)
    assert report.returncode == 0, report.stderr
    summary = json.loads(report.stdout)
    assert summary["kind"] == "problem" and len(summary["per_round"]) == 4
    for row in summary["per_round"]:
        for metric in ("parseable", "solvable", "equivalent"):
            assert row[metric]["low"] <= row[metric]["mean"] <= row[metric]["high"]
    assert set(summary["floors"]) == {"first-problem", "empty-goal"}
    tables = t2w("report", str(folder), home=tmp_path)
    assert "Floors" in tables.stdout and "EC_3" in tables.stdout


@pytest.mark.parametrize(("args", "message"), [
    (("--description", "concrete"), "choose explicit or abstract"),
    (("--size", "huge"), "unknown size 'huge'"),
    (("--feedback", "plans"), "--feedback: not an option of --task problem"),
    (("--domains", "blocksworld:p99"), "no problem item blocksworld:p99"),
])
def test_bad_flags_get_one_clear_line(tmp_path, args, message):
    result = t2w("eval", "--task", "problem", "--model", "reference/oracle", *args,
                 "--no-progress", home=tmp_path)
    assert result.returncode != 0
    assert message in " ".join(result.stderr.split())
    assert "Traceback" not in result.stderr


def test_unknown_task_and_size_without_it(tmp_path):
    chess = t2w("eval", "--task", "chess", "--model", "reference/oracle", home=tmp_path)
    assert chess.returncode != 0 and "unknown --task 'chess'" in chess.stderr
    size = t2w("eval", "--model", "reference/oracle", "--size", "hard", home=tmp_path)
    assert size.returncode != 0 and "--size is for --task problem" in size.stderr


def test_problem_runs_compare_item_by_item(tmp_path):
    """``t2w compare`` pairs two problem runs through the kind's descriptor (its columns:
    the last round's parseable / solvable / equivalent per item, domains as clusters)."""
    for model in ("reference/oracle", "reference/noisy-oracle"):
        made = t2w("eval", "--task", "problem", "--model", model, "--ec", "0", "--domains",
                   ITEMS, "--split", "all", "--no-progress", "--quiet", home=tmp_path)
        assert made.returncode == 0, made.stderr
    runs = sorted(str(p) for p in (tmp_path / "runs").iterdir())
    result = t2w("compare", *runs, "--json", home=tmp_path)
    assert result.returncode == 0, result.stderr
    compared = json.loads(result.stdout)
    assert compared["kind"] == "problem" and compared["common_items"] == 3
    assert compared["clustered_by_domain"] is True and compared["headline"] == "equivalent"
    assert [m["metric"] for m in compared["metrics"]] == ["parseable", "solvable", "equivalent"]
    models = {compared["a"]["model"]: "a", compared["b"]["model"]: "b"}
    equivalent = compared["metrics"][2]
    assert equivalent[f"mean_{models['reference/oracle']}"] == 1.0
    assert equivalent[f"mean_{models['reference/noisy-oracle']}"] < 1.0
