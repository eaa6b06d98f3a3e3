"""Run records are checked where they are read: a corrupt config or log line is a clear error
naming the file, the line and the field (``t2w report``, ``t2w compare``, the API's listing),
never a traceback; the formats older versions wrote still open (no ``kind``, ``kind: eval``,
no ``epochs``, a whole ``epochs`` written as a float)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from repo_paths import FIXTURES, REPO

from text2world.engine.run_reader import list_runs, open_run
from text2world.engine.run_records import RunError, check_config, run_epochs


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """A copy of a generation run written by an early version (no kind, no version)."""
    path = tmp_path / "runs" / "old"
    shutil.copytree(FIXTURES / "runs" / "legacy-eval", path)
    return path


def t2w(*args: str, home: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "T2W_HOME": str(home), "COLUMNS": "100"}
    return subprocess.run([sys.executable, "-m", "text2world.cli", *args], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=300)


def _edit_config(run: Path, **changes: object) -> None:
    config = json.loads((run / "config.json").read_text())
    config.update(changes)
    (run / "config.json").write_text(json.dumps(config))


@pytest.mark.parametrize("field, value, says", [
    ("epochs", "two", "field 'epochs' is \"two\", not a whole number"),
    ("epochs", 0, "field 'epochs' is 0, not 1 or more"),
    ("selected", ["a", 3], "field 'selected' holds an item id that is not a string"),
    ("model", ["x"], "field 'model' is [\"x\"], not a string"),
    ("kind", 7, "field 'kind' is 7, not a string"),
])
def test_a_corrupt_config_names_its_file_and_field(run, tmp_path, field, value, says):
    _edit_config(run, **{field: value})
    with pytest.raises(RunError) as caught:
        open_run(run)
    assert str(caught.value) == f"{run / 'config.json'}: corrupt run config: {says}"
    done = t2w("report", str(run), "--json", home=tmp_path / "home")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert says in " ".join(done.stderr.split())
    # the listing never fails for one damaged run: it says why
    info = next(info for info in list_runs(run.parent) if info.run_id == "old")
    assert info.error is not None and says in info.error


@pytest.mark.parametrize("line, says", [
    ('{"item": 12, "rounds": []}', "line 3: corrupt record: field 'item' is 12, not a string"),
    ('{"item": "x", "epoch": "0"}', "line 3: corrupt record: field 'epoch' is \"0\", not a whole number"),
    ('["not", "a", "record"]', "line 3 is not a JSON object"),
])
def test_a_corrupt_log_line_names_its_file_line_and_field(run, tmp_path, line, says):
    log = run / "log.jsonl"
    lines = log.read_text().splitlines()
    assert len(lines) == 2
    log.write_text("\n".join(lines + [line]) + "\n")
    with pytest.raises(RunError, match="corrupt|not a JSON object") as caught:
        open_run(run).items()
    assert str(caught.value) == f"{log}: {says}"
    for command in (["report", str(run)], ["compare", str(run), str(run)]):
        done = t2w(*command, home=tmp_path / "home")
        assert done.returncode != 0 and "Traceback" not in done.stderr, done.stderr
        assert says in " ".join(done.stderr.split())


def test_older_formats_are_read_as_they_were_written(run):
    config = json.loads((run / "config.json").read_text())
    assert "kind" not in config and "epochs" not in config and "version" not in config
    opened = open_run(run)
    assert (opened.kind, opened.version, run_epochs(opened.config)) == ("generation", 1, 1)
    _edit_config(run, kind="eval", epochs=2.0)
    opened = open_run(run)
    assert (opened.kind, run_epochs(opened.config), opened.config["epochs"]) == ("generation", 2, 2)
    assert type(opened.config["epochs"]) is int
    assert check_config({"epochs": None, "kind": None}, run / "config.json") == {
        "epochs": None, "kind": None}  # null: the readers' defaults, as a missing key
