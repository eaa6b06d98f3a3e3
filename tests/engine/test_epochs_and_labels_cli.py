"""Issue 47: ``--epochs`` never multiplies the item count, and two runs of one model are told
apart. Each case through ``t2w`` in a subprocess, as a user runs it (COLUMNS=80, no terminal):
eval's progress lines and summary, ``t2w report`` (its tables, report.md and report.json), the
per-epoch spread that docs/runs.md describes, ``--label`` and the labels run ids give,
``t2w compare`` of a mystery and a normal next-state run, ``t2w wm --epochs``."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from repo_paths import REPO


def t2w(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(REPO)}
    result = subprocess.run([sys.executable, "-m", "text2world.cli", *args],
                            cwd=os.environ["T2W_HOME"], env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return result


def flat(text: str) -> str:
    """Terminal text without box drawing or line breaks, to search for a sentence."""
    return " ".join(re.sub(r"[│╭╮╰╯─┃━┏┓┗┛┡┩╇┳┻]", " ", text).split())


def runs() -> Path:
    return Path(os.environ["T2W_RUNS_DIR"])


def test_epochs_count_items_times_epochs_in_eval_and_report():
    """The issue's command: 2 items asked twice are "2 items x 2 epochs" (never "4 items"), the
    progress and the closing line count samples as samples, the per-epoch spread is printed by
    eval and report, and the report's tests count each item once."""
    result = t2w("eval", "--model", "reference/oracle", "--ec", "1", "--limit", "2", "--epochs",
                 "2", "--run-id", "epochs")
    out, err = flat(result.stdout), flat(result.stderr)
    assert "paper mode (2 items x 2 epochs, %" in out, out
    assert "4 items" not in out and "4/4 done" not in out, out
    assert "4 new samples, 4/4 samples done (2 items x 2 epochs)" in out, out
    assert "eval: 4/4 samples (2 items x 2 epochs)" in err, err  # the lines without a terminal
    assert "% of all 2 items x 2 epochs" in out, out  # the semantic table
    assert "reference/oracle: per epoch (0 .. 1), %, then their mean" in out, out
    assert re.search(r"paper\.executable 100\.0 100\.0 100\.0 0\.0 100\.0 100\.0", out), out
    summary = json.loads((runs() / "epochs" / "summary.json").read_text())
    assert (summary["finished_items"], summary["finished_samples"], summary["epochs"],
            summary["planned_items"]) == (2, 4, 2, 2)

    report = flat(t2w("report", str(runs() / "epochs")).stdout)
    assert "2 items x 2 epochs" in report and "samples each" not in report, report
    assert "reference/oracle: per epoch (0 .. 1), %" in report, report
    folder = runs() / "epochs" / "report" / "paper"
    markdown = (folder / "report.md").read_text()
    assert "## Per epoch: reference/oracle (%, 2 epochs)" in markdown
    assert "| epochs | 2 items x 2 epochs |" in markdown  # Table 1: its run's label and count
    data = json.loads((folder / "report.json").read_text())
    assert data["runs"][0]["items"] == 2 and data["runs"][0]["epochs"] == 2
    # repeated measures over rounds: each item a subject once, its epochs averaged
    assert {entry["items"] for entry in data["rounds_test"]["reference/oracle"].values()} == {2}
    assert set(data["epochs"]["reference/oracle"]) == {"per_epoch", "spread"}


def test_resumed_epochs_say_samples_and_wm_epochs_count_items():
    """A resumed run with epochs says what is done in samples; ``t2w wm --epochs`` counts its
    items as items x epochs too."""
    t2w("eval", "--model", "reference/oracle", "--ec", "0", "--limit", "1", "--run-id", "grow",
        "--no-semantic")
    more = t2w("eval", "--model", "reference/oracle", "--ec", "0", "--limit", "1", "--epochs",
               "3", "--run-id", "grow", "--no-semantic")
    out = flat(more.stdout)
    assert "resuming" in out and "1 of 3 samples (1 item x 3 epochs) already done" in out, out
    assert "2 new samples, 3/3 samples done (1 item x 3 epochs)" in out, out
    wm = flat(t2w("wm", "next-state", "--model", "reference/oracle", "--domains", "blocksworld",
                  "--epochs", "2", "--run-id", "wm-epochs").stdout)
    summary = json.loads((runs() / "wm-epochs" / "summary.json").read_text())
    items = summary["planned_items"]
    assert summary["finished_items"] == items and summary["finished_samples"] == 2 * items
    assert f"{2 * items}/{2 * items} samples done ({items} items x 2 epochs)" in wm, wm
    assert "per epoch (0 .. 1), %" in wm, wm
    assert "per epoch (0 .. 1), %" in flat(t2w("report", str(runs() / "wm-epochs")).stdout)


def test_labels_tell_runs_of_one_model_apart_in_compare_and_report():
    """A mystery and a normal next-state run of one model: ``t2w compare`` titles each side
    with its run's label (never ``reference/oracle [-] (B) vs reference/oracle [-] (A)``);
    ``--label`` names a run in its config, its report and the comparison; a generated run id's
    label is what the id says beyond the model."""
    t2w("wm", "next-state", "--model", "reference/oracle", "--domains", "blocksworld",
        "--run-id", "next-state")
    t2w("wm", "next-state", "--model", "reference/oracle", "--domains", "blocksworld",
        "--mystery", "--run-id", "next-state-mystery")
    compared = flat(t2w("compare", str(runs() / "next-state"),
                        str(runs() / "next-state-mystery")).stdout)
    assert "[-]" not in compared, compared
    assert ("reference/oracle [next-state-mystery] (B) vs reference/oracle [next-state] (A)"
            in compared), compared

    t2w("eval", "--model", "reference/oracle", "--ec", "0", "--limit", "1", "--no-semantic",
        "--label", "baseline try")
    generated = next(path for path in runs().iterdir() if path.name.startswith("reference-"))
    assert json.loads((generated / "config.json").read_text())["label"] == "baseline try"
    t2w("eval", "--model", "reference/oracle", "--ec", "1", "--limit", "1", "--no-semantic")
    other = next(path for path in runs().iterdir() if "__ec1__" in path.name)
    digest = other.name.rsplit("__", 1)[1]
    compared = flat(t2w("compare", str(generated), str(other)).stdout)
    assert (f"reference/oracle [text2world/abstract/zero-shot/ec1/{digest}, syntax] (B) vs "
            "reference/oracle [baseline try, syntax] (A)") in compared, compared
    assert "run baseline try" in flat(t2w("report", str(generated)).stdout)
    summary = json.loads((other / "summary.json").read_text())
    assert summary["label"] == f"text2world/abstract/zero-shot/ec1/{digest}"


def test_counts_read_alike_in_run_lines_and_reports():
    """One wording of a count (engine.summary.count_of): the run lines' phrases and the reports'
    counts both write the noun in its number and thousands with a comma."""
    from text2world.engine.summary import count_of, done_phrase, items_phrase
    from text2world.reports import rendering

    assert rendering.count_of is count_of
    assert items_phrase(1) == "1 item" and items_phrase(0) == "0 items"
    assert items_phrase(1000) == "1,000 items"
    assert items_phrase(1200, 3) == "1,200 items x 3 epochs"
    summary = {"planned_items": 1500, "finished_items": 1200, "epochs": 1}
    assert done_phrase(summary, 1) == "1 new item, 1,200/1,500 items done"  # type: ignore[arg-type]
    summary = {"planned_items": 1000, "finished_samples": 1999, "epochs": 2}
    assert done_phrase(summary, 2) == \
        "2 new samples, 1,999/2,000 samples done (1,000 items x 2 epochs)"  # type: ignore[arg-type]
