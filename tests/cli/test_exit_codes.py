"""One exit-code table for every command (``ExitCode``, docs/runs.md "Exit codes"): usage 2,
input 1, each through the real ``t2w`` process; infrastructure 3 is checked where each cause is
tested (tests/cli/test_cli_first_use.py: nothing listening; test_eval_cli.py: a refused key;
test_eval_credentials.py: a server gone mid-run)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from repo_paths import REPO

from text2world.cli.common import ExitCode


def _t2w(*args: str, tmp_path: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "text2world.cli", *args], capture_output=True, text=True,
                          timeout=600, cwd=tmp_path,
                          env={**os.environ, "T2W_HOME": str(tmp_path / "home"),
                               "T2W_RUNS_DIR": str(tmp_path / "runs"), "COLUMNS": "80", **env})


def test_the_docs_table_lists_every_code():
    text = (REPO / "docs" / "runs.md").read_text()
    table = text[text.index("## Exit codes"):]
    listed = {int(code) for code in re.findall(r"^\| (\d+) \|", table, re.MULTILINE)}
    assert {int(code) for code in ExitCode} <= listed


def test_a_command_line_that_does_not_parse_exits_2(tmp_path):
    result = _t2w("validate", "--no-such-option", tmp_path=tmp_path)
    assert result.returncode == ExitCode.USAGE == 2, result.stderr
    assert "Traceback" not in result.stderr


def test_bad_input_exits_1(tmp_path):
    broken = tmp_path / "broken.pddl"
    broken.write_text("(define (domain d) (:predicates (p ?x)")
    assert _t2w("validate", str(broken), tmp_path=tmp_path).returncode == ExitCode.INPUT == 1
    batch = tmp_path / "in.jsonl"
    batch.write_text('{"id": "a", "gold_id": "gripper"}\n')
    result = _t2w("score-batch", str(batch), "--out", str(tmp_path / "out.jsonl"), tmp_path=tmp_path)
    assert result.returncode == ExitCode.INPUT, result.stderr
    assert "line 1" in result.stderr and "Traceback" not in result.stderr
