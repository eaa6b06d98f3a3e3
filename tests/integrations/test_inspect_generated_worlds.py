"""An Inspect task on a folder of generated worlds, offline: ``inspect eval
text2world/generation -T dataset=DIR`` with the ``t2w`` reference provider, imported with
``t2w import-inspect`` and reported by family (``t2w report --by family``), each a process
as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from generated_worlds import FAMILIES, WORLDS, make_generated_folder, t2w
from inspect_helpers import inspect_env

pytest.importorskip("inspect_ai")


def test_inspect_eval_on_generated_worlds_reports_by_family(tmp_path):
    worlds = make_generated_folder(tmp_path / "worlds")
    home = tmp_path / "home"
    env = {**inspect_env(tmp_path), "T2W_HOME": str(home)}
    ran = subprocess.run([sys.executable, "-m", "inspect_ai", "eval", "text2world/generation",
                          "--model", "t2w/noisy-oracle", "-T", "ec=0", "-T",
                          f"dataset={worlds}", "--log-dir", str(tmp_path / "logs"),
                          "--display", "none"],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert ran.returncode == 0, ran.stderr[-3000:]
    (log,) = (tmp_path / "logs").glob("*.eval")
    imported = t2w("import-inspect", str(log), cwd=tmp_path, home=home)
    assert imported.returncode == 0, imported.stderr
    (run,) = (home / "runs").iterdir()
    items = [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]
    assert {i["item"]: i["family"] for i in items} == \
        {world: family for world, (_, family) in WORLDS.items()}
    done = t2w("report", str(run), "--by", "family", "--held-out", "transport", "--json",
               home=home)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [row["family"] for row in data["families"]] == list(FAMILIES)
    (exec_row,) = [row for row in data["summary"] if row["metric"] == "executable@EC_k"]
    held = [float(i["ec"]["paper"][0]["executable"]) for i in items
            if i["family"] == "transport"]
    assert exec_row["held_out"]["mean"] == pytest.approx(sum(held) / len(held))
