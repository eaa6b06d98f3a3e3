"""A run's log lines are checked against the record type its kind declares
(``KindSpec.item_record``): a corrupt line is named with its field where it is read, and every
command says so in one line instead of failing inside a summary with a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import text2world.tasks.registry  # noqa: F401 - registers the kinds
from text2world.engine.kinds import kind_names, kind_spec
from text2world.engine.record_checks import record_check
from text2world.engine.run_store import RunError
from text2world.tasks.generation.records import GenerationItem
from text2world.tasks.problem.records import ProblemItem
from text2world.tasks.wm.records import WmItem


def test_the_check_follows_the_declared_json_shape_to_the_field_at_fault():
    check = record_check(ProblemItem)
    assert check({"item": "gripper:p01", "epoch": 0, "ec": {"equivalent": [0.0, 1]},
                  "rule": None, "valid_round": None, "rounds": [{"verdict": {}}]}) is None
    assert check({"item": "a", "ec": "broken"}) == "field 'ec' is \"broken\", not an object"
    assert check({"item": "a", "ec": {"solvable": [1, "x"]}}) == \
        "field 'ec'['solvable'][1] is \"x\", not a number"
    assert check({"item": "a", "rounds": [{"verdict": 3}]}) == \
        "field 'rounds'[0]['verdict'] is 3, not an object"
    assert check({"item": "a", "usage": {"prompt_tokens": "9"}}) == \
        "field 'usage'['prompt_tokens'] is \"9\", not a whole number"
    assert check({"item": "a", "equivalent_open": 1}) == \
        "field 'equivalent_open' is 1, not true or false"
    assert check({"item": "a", "rounds_used": True}) == \
        "field 'rounds_used' is true, not a whole number"
    assert check(["a"]) == 'is ["a"], not an object'
    assert record_check(GenerationItem)({"item": "a", "rounds": [{"valid": "yes"}]}) == \
        "field 'rounds'[0]['valid'] is \"yes\", not true or false"
    assert record_check(WmItem)({"item": "a", "calls": {}}) == \
        "field 'calls' is {}, not a list"


def test_every_kind_declares_its_record_type():
    for name in kind_names():
        assert kind_spec(name).item_record, f"{name}: no item_record"
        assert kind_spec(name).item_check()({"item": "x", "epoch": 0}) is None


@pytest.fixture(scope="module")
def problem_run(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("problem-run")
    env = {**os.environ, "T2W_HOME": str(folder / "home"), "COLUMNS": "80"}
    result = subprocess.run(
        [sys.executable, "-m", "text2world.cli", "eval", "--task", "problem", "--model",
         "reference/oracle", "--limit", "2", "--size", "easy", "--no-progress"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return next((folder / "runs").glob("problem__*"))


def test_a_corrupt_line_is_one_clear_error_in_every_command(problem_run, tmp_path):
    run = tmp_path / problem_run.name
    run.mkdir()
    for name in ("config.json", "log.jsonl"):
        (run / name).write_bytes((problem_run / name).read_bytes())
    lines = (run / "log.jsonl").read_text().splitlines()
    record = json.loads(lines[1])
    record["ec"] = "broken"
    lines[1] = json.dumps(record)
    (run / "log.jsonl").write_text("\n".join(lines) + "\n")
    env = {**os.environ, "T2W_HOME": str(tmp_path / "home"), "COLUMNS": "200"}
    for command in (["report", str(run)], ["export-trajectories", str(run), "--out",
                                           str(tmp_path / "out.jsonl")]):
        result = subprocess.run([sys.executable, "-m", "text2world.cli", *command],
                                env=env, capture_output=True, text=True, timeout=300)
        said = result.stdout + result.stderr
        assert result.returncode == 1, said
        assert "Traceback" not in said
        assert "log.jsonl: line 2: corrupt record: field 'ec' is \"broken\", not an object" \
            in " ".join(said.split()), said
    with pytest.raises(RunError, match="line 2: corrupt record: field 'ec'"):
        from text2world.engine.run_reader import open_run

        open_run(run).items()
