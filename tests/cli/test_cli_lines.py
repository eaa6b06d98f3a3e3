"""Every main command's output, as a new user sees it at COLUMNS=80 (an empty HOME and T2W_HOME,
offline, runs under a long temporary path with their default, long, run ids): no line of
standard output or standard error wider than 80 characters. Messages wrap; a run's folder too
long for a line goes alone on a line of its own, whole, to copy (issue 47, item 3: `run: ...`
lines of 180-200 characters, `report:`, `resuming`, `paper report written to`, the judge's note
on the paper's kappa, the missing API key error, `re-scored`, the probe's `run:`/`histogram:`).

One fixture runs the commands in order (later ones read the runs the earlier ones made); each
command is then its own test, so a failure names the command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from new_user import MAX_COLUMNS, new_user_environment, wide_lines

pytestmark = pytest.mark.slow

GOLD_ANSWER = "blocksworld"
NOISY, ORACLE = "reference-noisy-oracle__*", "reference-oracle__*"


def _commands(runs: Path) -> list[tuple[str, list[str], int]]:
    """(name, arguments, exit code) in the order they run; ``{NAME}`` stands for the one run
    folder that matches the glob NAME when the command runs."""
    return [
        ("eval", ["eval", "--model", "reference/noisy-oracle", "--ec", "1", "--limit", "2"], 0),
        ("eval resumed", ["eval", "--model", "reference/noisy-oracle", "--ec", "1", "--limit", "3"], 0),
        ("eval oracle", ["eval", "--model", "reference/oracle", "--ec", "1", "--limit", "3", "--quiet"], 0),
        ("eval without a key", ["eval", "--model", "gpt-4o-mini", "--ec", "1", "--limit", "1"], 1),
        ("score-run", ["score-run", "{%s}" % NOISY, "--mode", "canonical"], 0),
        ("report", ["report", "{%s}" % NOISY], 0),
        ("report against paper", ["report", "{%s}" % NOISY, "--against", "paper"], 0),
        ("compare", ["compare", "{%s}" % ORACLE, "{%s}" % NOISY], 0),
        ("judge", ["judge", "{%s}" % NOISY, "--model", "reference/judge-oracle"], 0),
        ("wm next-state", ["wm", "next-state", "--model", "reference/oracle", "--domains", "gripper",
                           "--size", "easy"], 0),
        ("wm verify", ["wm", "verify", "--model", "reference/noisy-oracle", "--domains", "gripper",
                       "--size", "easy", "--rho", "0.5,1"], 0),
        ("wm propose", ["wm", "propose", "--model", "reference/oracle", "--domains", "gripper",
                        "--size", "easy", "--top-k", "3"], 0),
        ("wm plan", ["wm", "plan", "--model", "reference/noisy-oracle", "--domains", "gripper",
                     "--size", "easy"], 0),
        ("wm report", ["report", "{wm-next-state__*}"], 0),
        ("contamination", ["contamination", "--model", "reference/oracle", "--limit", "2"], 0),
        ("contamination report", ["report", "{contamination__*}"], 0),
        ("score", ["score", "blocksworld", "answer.pddl", "--semantic"], 0),
        ("validate", ["validate", "answer.pddl"], 0),
        ("data list", ["data", "list"], 0),
        ("data show", ["data", "show", "blocksworld"], 0),
        ("data list one domain", ["data", "list", "--split", "train"], 0),
        ("cache inspect", ["cache", "inspect"], 0),
        ("score-batch", ["score-batch", "answers.jsonl", "--out", "scores.jsonl", "--metric",
                         "executable"], 0),
        ("export-trajectories", ["export-trajectories", "{wm-plan__*}", "--out", "one.jsonl"], 0),
    ]


def _resolve(argument: str, runs: Path) -> str:
    if not (argument.startswith("{") and argument.endswith("}")):
        return argument
    matches = sorted(runs.glob(argument[1:-1]))
    assert len(matches) == 1, f"{argument}: {matches}"
    return str(matches[0])


@pytest.fixture(scope="module")
def outputs(tmp_path_factory) -> dict[str, tuple[int, int, str]]:
    """name -> (exit code, expected exit code, standard output and error together)."""
    folder = tmp_path_factory.mktemp("a-folder-with-a-fairly-long-name-as-temporary-folders-have")
    home, work = folder / "home", folder / "work"
    home.mkdir()
    work.mkdir()
    env = new_user_environment(home, work)
    runs = work / "runs"
    from text2world.store.datasets import load_dataset

    gold = load_dataset("text2world").get(GOLD_ANSWER).domain
    (work / "answer.pddl").write_text(gold, encoding="utf-8")
    (work / "answers.jsonl").write_text("\n".join(json.dumps(line) for line in (
        {"id": "a", "gold_id": GOLD_ANSWER, "response": f"```pddl\n{gold}\n```"},
        {"id": "b", "gold_id": GOLD_ANSWER, "response": "I do not know."})) + "\n", encoding="utf-8")
    results = {}
    for name, arguments, expected in _commands(runs):
        done = subprocess.run([sys.executable, "-m", "text2world.cli",
                               *(_resolve(a, runs) for a in arguments)], cwd=work, env=env,
                              stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, timeout=600)
        results[name] = (done.returncode, expected, done.stdout)
    return results


@pytest.mark.parametrize("name", [name for name, _, _ in _commands(Path("runs"))])
def test_every_line_fits_80_columns(outputs, name):
    code, expected, output = outputs[name]
    assert code == expected and "Traceback" not in output, f"t2w {name}: exit {code}\n{output}"
    wide = wide_lines(output)
    assert not wide, (f"t2w {name}: {len(wide)} lines wider than {MAX_COLUMNS} columns:\n"
                      + "\n".join(wide) + f"\n--- output ---\n{output}")


def test_the_run_lines_name_the_run_whole(outputs):
    """The long run folder is printed whole (on its own line where it does not fit), so it can be
    copied; the prose around it is wrapped, not lost."""
    output = outputs["eval"][2]
    lines = [line.strip() for line in output.splitlines()]
    folder = next(line for line in lines if "reference-noisy-oracle__" in line and line.startswith("/"))
    assert Path(folder).is_dir(), folder
    flowing = " ".join(output.split())
    assert "2 new items, 2/2 items done" in flowing and "report: t2w report" in flowing
    assert "needs an API key" in " ".join(outputs["eval without a key"][2].split())
    assert "re-scored 3 items (canonical)" in " ".join(outputs["score-run"][2].split())


def test_messages_wrap_and_a_long_path_stands_whole_on_its_own_line():
    from text2world.cli.common import wrap_message

    path = "/tmp/" + "a-long-folder-name/" * 5 + "runs/reference-noisy-oracle__text2world__ec1__4d41590b"
    lines = wrap_message(f"run: {path}  (2 new items, 2/2 done, 3 calls, 0 from cache, protocol "
                         "syntax, $0.0000 paid ($0.0000 in all), 2.6s)", 80).splitlines()
    assert lines[0] == "run:" and lines[1] == "  " + path
    assert all(len(line) <= 80 for line in lines[2:]) and lines[2].startswith("  (2 new items")
    assert wrap_message("short: fits", 80) == "short: fits"
    assert wrap_message("first\n  indented paragraph " + "word " * 20, 40).splitlines()[2].startswith("    ")
