"""``t2w export-trajectories``: each sample's conversation (prompt, answers, corrections, tool
calls) with its scores, filterable, in the format ``datasets`` and TRL's SFTTrainer read."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import FIXTURES as TEST_FIXTURES
from typer.testing import CliRunner

from text2world.cli import app as cli
from text2world.engine.trajectories import TrajectoryError, conversation, trajectories

FIXTURES = TEST_FIXTURES / "runs"


@pytest.fixture(scope="module")
def semantic_run(tmp_path_factory) -> Path:
    """A generation run of the noisy reference model with semantic scores (offline, seeded)."""
    home = tmp_path_factory.mktemp("home")
    env = {**os.environ, "T2W_HOME": str(home), "T2W_RUNS_DIR": str(home / "runs")}
    result = subprocess.run(
        [sys.executable, "-m", "text2world.cli", "eval", "--model", "reference/noisy-oracle",
         "--domains", "blocksworld,gripper,bakery-ovens", "--ec", "2", "--semantic",
         "--run-id", "sem", "--quiet"], env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    return home / "runs" / "sem"


def _export(tmp_path: Path, *args: str) -> tuple[int, str, Path]:
    out = tmp_path / "trajectories.jsonl"
    result = CliRunner().invoke(cli, ["export-trajectories", *args, "--out", str(out)])
    return result.exit_code, " ".join(result.output.split()), out


def test_conversations_load_with_datasets_and_keep_every_round(tmp_path, semantic_run):
    datasets = pytest.importorskip("datasets")
    code, output, out = _export(tmp_path, str(semantic_run))
    assert code == 0 and "3 trajectories" in output, output
    table = datasets.load_dataset("json", data_files=str(out), split="train")
    assert len(table) == 3 and {"messages", "verdict", "scores", "item"} <= set(table.column_names)
    log = {json.loads(row)["item"]: json.loads(row) for row in (semantic_run / "log.jsonl").open()}
    for row in table:
        rounds = log[row["item"]]["rounds"]
        roles = [m["role"] for m in row["messages"]]
        assert roles == ["system"] + ["user", "assistant"] * len(rounds)
        answers = [m["content"] for m in row["messages"] if m["role"] == "assistant"]
        assert answers == [r["response"] for r in rounds]
        corrections = [m["content"] for m in row["messages"] if m["role"] == "user"][1:]
        assert corrections == [r["messages"][-1]["content"] for r in rounds[1:]]
        assert row["scores"]["canonical.similarity"] is not None
        assert row["verdict"] == rounds[-1]["semantic"]["verdict"]


def test_filter_by_final_verdict_or_score(tmp_path, semantic_run):
    every = trajectories([semantic_run])
    equivalent = trajectories([semantic_run], "semantic_equivalent")
    assert equivalent and len(equivalent) < len(every)
    assert all(line["verdict"] == "equivalent" for line in equivalent)
    high = trajectories([semantic_run], "semantic.plan_validity>=1")
    assert {line["item"] for line in high} == {line["item"] for line in every
                                                if line["scores"]["semantic.plan_validity"] == 1.0}
    code, output, _ = _export(tmp_path, str(semantic_run), "--where", "semantic_equivalent")
    assert code == 0 and (f"{len(equivalent)} trajectories" if len(equivalent) > 1 else "1 trajectory") in output


def test_runs_of_every_kind_export_to_one_table(tmp_path):
    datasets = pytest.importorskip("datasets")
    runs = []
    for name in ("legacy-eval", "legacy-wm", "legacy-probe"):
        shutil.copytree(FIXTURES / name, tmp_path / "runs" / name)
        runs.append(name)
    code, output, out = _export(tmp_path, *runs, "--runs-dir", str(tmp_path / "runs"))
    assert code == 0, output
    table = datasets.load_dataset("json", data_files=str(out), split="train")
    assert set(table["kind"]) == {"generation", "wm", "contamination"}
    wm = [row for row in table if row["kind"] == "wm"]
    assert {row["verdict"] for row in wm} <= {"correct", "wrong"} and wm[0]["scores"]["correct"] in (0.0, 1.0)
    assert len(trajectories([tmp_path / "runs" / "legacy-wm"], "correct")) <= len(wm)


def test_agent_calls_keep_their_tool_messages():
    first = [{"role": "system", "content": "s"}, {"role": "user", "content": "write it"}]
    tool_call = [{"id": "c1", "type": "function", "function": {"name": "validate", "arguments": "{}"}}]
    calls = [{"messages": first, "response": "", "tool_calls": tool_call},
             {"messages": first + [{"role": "assistant", "content": "", "tool_calls": tool_call},
                                   {"role": "tool", "tool_call_id": "c1", "content": "ok"}],
              "response": "done"}]
    messages = conversation(calls)
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "assistant"]
    assert messages[2]["tool_calls"] == tool_call and messages[-1]["content"] == "done"


def test_bad_filters_and_runs_are_clear_errors(tmp_path):
    with pytest.raises(TrajectoryError, match="--where 'verdict is good'"):
        trajectories([FIXTURES / "legacy-eval"], "verdict is good")
    code, output, out = _export(tmp_path, str(FIXTURES / "legacy-eval"), "--where", "bogus")
    assert code == 1 and "--where 'bogus'" in output and not out.exists()
    code, output, _ = _export(tmp_path, str(tmp_path / "no-such-run"))
    assert code == 1 and "no-such-run" in output
