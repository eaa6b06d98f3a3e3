"""The first hour of a new user (issue 10): --version, --mode choices in --help, score-run and
report titled with their scoring mode, one report folder per mode, compared runs on their common
items, tables that fit 80 columns, one round label (EC_k), and a serve port apart from vLLM's.

Terminal output is checked as a user sees it: ``t2w`` in a subprocess with COLUMNS=80.
"""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before litellm is imported

import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from urllib.parse import urlparse

import pytest
from repo_paths import REPO
from typer.testing import CliRunner

from text2world import __version__, load_dataset
from text2world.cli import app
from text2world.cli.serve import SERVE_PORT
from text2world.model.client import load_model_aliases
from text2world.reports.generation import build_report

runner = CliRunner()
OTHER_ROUND_LABELS = re.compile(r"\bEC\d|\bECk\b|\b[Rr]ound \d")  # anything but EC_0 .. EC_k


def t2w(*args: str, columns: int = 80) -> subprocess.CompletedProcess:
    """``t2w ARGS`` as a user runs it, on a terminal COLUMNS wide."""
    env = {**os.environ, "COLUMNS": str(columns), "PYTHONPATH": str(REPO)}
    env.pop("LINES", None)
    result = subprocess.run([sys.executable, "-m", "text2world.cli", *args], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def flat(text: str) -> str:
    """Terminal text without box drawing or line breaks, to search for a sentence."""
    return " ".join(re.sub(r"[│╭╮╰╯─┃]", " ", text).split())


def assert_fits(text: str, columns: int = 80) -> None:
    """Every line fits, but for the length of the test's own runs folder (a message names a
    path on one line, so that it can be copied)."""
    runs = os.environ["T2W_RUNS_DIR"]
    wide = [line for line in text.splitlines() if len(line.replace(runs, "runs")) > columns]
    assert not wide, "\n".join(wide)


def make_run(run_id: str, *extra: str) -> Path:
    result = runner.invoke(app, ["eval", "--model", "reference/noisy-oracle", "--ec", "2",
                                 "--no-progress", "--workers", "0", "--run-id", run_id, *extra])
    assert result.exit_code == 0, result.output
    return Path(os.environ["T2W_RUNS_DIR"]) / run_id


# --------------------------------------------------------------------------------------------
# --version, --mode choices


def test_version_matches_the_package_metadata():
    result = t2w("--version")
    assert result.returncode == 0
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert result.stdout.strip() == f"text2world {project['version']}"
    assert project["version"] == __version__


@pytest.mark.parametrize("command", [["score"], ["score-run"], ["report"]])
def test_help_lists_the_mode_choices_and_a_wrong_one_is_a_usage_error(command):
    help_text = runner.invoke(app, [*command, "--help"]).output
    assert re.search(r"paper\|canonical", help_text), help_text
    wrong = runner.invoke(app, [*command, "--mode", "papr", "x", "y"])
    assert wrong.exit_code == 2
    assert "'papr' is not one of 'paper', 'canonical'" in flat(wrong.output)


# --------------------------------------------------------------------------------------------
# score-run: each table says its mode


def test_score_run_titles_each_table_with_its_mode():
    run = make_run("sr", "--limit", "3")
    both = t2w("score-run", str(run))
    assert both.returncode == 0, both.stderr
    titles = [line for line in both.stdout.splitlines() if "mode (3 items" in line]
    assert len(titles) == 2, both.stdout
    assert "paper mode" in titles[0] and "canonical mode" in titles[1]
    paper_part, canonical_part = both.stdout.split("canonical mode")
    assert "F1 types" not in paper_part and "F1 types" in canonical_part
    assert_fits(both.stdout)

    canonical = t2w("score-run", str(run), "--mode", "canonical")
    assert canonical.returncode == 0, canonical.stderr
    assert "canonical mode" in canonical.stdout and "paper mode" not in canonical.stdout
    assert "F1 types" in canonical.stdout
    # the numbers printed are the summary's canonical ones, F1 over types included
    summary = json.loads((run / "summary.json").read_text())
    last = summary["metrics"]["canonical"][-1]
    assert last["f1_types"] is not None
    row = next(line for line in canonical.stdout.splitlines() if "EC_2" in line)
    assert f"{100 * last['f1_types']:.1f}" in row and f"{100 * last['f1_effects']:.1f}" in row
    for output in (both.stdout, canonical.stdout):
        assert not OTHER_ROUND_LABELS.search(output), output


# --------------------------------------------------------------------------------------------
# report


def test_report_writes_one_folder_per_mode_and_fits_80_columns():
    run = make_run("rep", "--limit", "4")
    paper = t2w("report", str(run))
    assert paper.returncode == 0, paper.stderr
    canonical = t2w("report", str(run), "--mode", "canonical")
    assert canonical.returncode == 0, canonical.stderr
    for mode, result in (("paper", paper), ("canonical", canonical)):
        folder = run / "report" / mode
        assert json.loads((folder / "report.json").read_text())["mode"] == mode
        assert f"{mode} report written to {folder}/" in " ".join(result.stdout.split())
        assert f"{mode} mode" in (folder / "table1.md").read_text()
        assert_fits(result.stdout)
        assert "Table 1" in result.stdout and "EC_0" in result.stdout
        assert not OTHER_ROUND_LABELS.search(result.stdout), result.stdout
        assert not OTHER_ROUND_LABELS.search((folder / "report.md").read_text())
    # canonical tables carry F1 over types; the paper ones do not
    assert "F1 types" in (run / "report" / "canonical" / "report.md").read_text()
    assert "F1 types" not in (run / "report" / "paper" / "report.md").read_text()
    assert "F1 types" in canonical.stdout and "F1 types" not in paper.stdout
    # the markdown stays in the files (and --markdown prints it for a pipe)
    markdown = runner.invoke(app, ["report", str(run), "--markdown"])
    assert "| Model | Run | Items | Exec EC_0 |" in markdown.output
    # an explicit folder holding the other mode's report is not silently replaced
    refused = runner.invoke(app, ["report", str(run), "--mode", "canonical",
                                  "--out", str(run / "report" / "paper")])
    assert refused.exit_code == 1
    assert "holds the paper report" in flat(refused.output)
    assert json.loads((run / "report" / "paper" / "report.json").read_text())["mode"] == "paper"


def test_report_compares_runs_on_their_common_items_and_says_so(tmp_path):
    four = make_run("abstract4", "--limit", "4")
    two = make_run("concrete2", "--limit", "2", "--description", "concrete")
    result = t2w("report", str(four), str(two))
    assert result.returncode == 0, result.stderr
    warning = flat(result.stderr)
    assert "warning: the runs cover different items" in warning
    assert "(abstract): 4" in warning and "(concrete): 2" in warning
    assert "on the 2 items they all finished, leaving out 2" in warning
    assert_fits(result.stdout)
    folder = Path(re.search(r"paper report written to (\S+)/", flat(result.stdout)).group(1))
    data = json.loads((folder / "report.json").read_text())
    assert data["items"] == {"runs": {"reference/noisy-oracle (abstract)": 4,
                                      "reference/noisy-oracle (concrete)": 2},
                             "common": 2, "restricted": True}
    assert [row["items"] for row in data["runs"]] == [2, 2]
    assert {pair["abstract"]["items"] for pair in data["abstract_vs_concrete"]} == {2}
    assert f"**Warning:** {data['warnings'][0]}" in (folder / "report.md").read_text()
    # the restricted means are those of the common items
    on_two = build_report([four], out_dir=tmp_path / "alone", plots=False)
    restricted_curve = data["per_round"]["reference/noisy-oracle (abstract)"]
    assert restricted_curve[0]["items"] == 2
    assert on_two.data["per_round"][on_two.data["runs"][0]["run"]][0]["items"] == 4
    kept = build_report([four, two], out_dir=tmp_path / "kept", plots=False, all_items=True)
    assert [row["items"] for row in kept.data["runs"]] == [4, 2]
    assert "not comparable" in kept.warnings[0]
    # runs over the same items: no warning
    other = make_run("abstract4b", "--limit", "4", "--seed", "1")
    same = build_report([four, other], out_dir=tmp_path / "same", plots=False)
    assert same.warnings == [] and same.data["items"]["restricted"] is False


# --------------------------------------------------------------------------------------------
# listings at 80 columns


def test_data_list_shows_every_id_in_full_at_80_columns():
    result = t2w("data", "list")
    assert result.returncode == 0, result.stderr
    assert_fits(result.stdout)
    first_cells = {line.split()[0] for line in result.stdout.splitlines() if line.strip()}
    ids = [record.id for record in load_dataset().records]
    assert set(ids) <= first_cells  # each id whole, at the start of its row
    assert "…" not in result.stdout
    wide = t2w("data", "list", columns=140)
    assert "Airport Ground Control" in wide.stdout  # names where they fit


def test_list_models_shows_aliases_and_api_bases_in_full_at_80_columns():
    result = t2w("eval", "--list-models")
    assert result.returncode == 0, result.stderr
    assert_fits(result.stdout)
    assert "…" not in result.stdout
    aliases = load_model_aliases()
    rows = {line.split()[0] for line in result.stdout.splitlines() if line.strip()}
    assert set(aliases) <= rows
    for entry in aliases.values():
        assert entry["model"] in result.stdout
        if entry.get("api_base"):
            assert entry["api_base"] in result.stdout
    local = result.stdout[result.stdout.index("llama-3.1-8b "):]
    assert "api base http://localhost:8000/v1" in local.splitlines()[1]


def test_serve_port_differs_from_every_local_alias_port():
    """`t2w serve` must not sit where `t2w eval --model llama-3.1-8b` sends its calls."""
    ports = {urlparse(entry["api_base"]).port for entry in load_model_aliases().values()
             if entry.get("api_base")}
    assert 8000 in ports  # vLLM's default, kept for the local aliases
    assert SERVE_PORT not in ports
    assert f"default: {SERVE_PORT}" in flat(t2w("serve", "--help").stdout)


def test_serve_and_view_default_to_different_ports():
    from text2world.cli.view import VIEW_PORT

    assert VIEW_PORT != SERVE_PORT
    view_help = flat(runner.invoke(app, ["view", "--help"], terminal_width=80).output)
    assert f"default: {VIEW_PORT}" in view_help


# --------------------------------------------------------------------------------------------
# What t2w eval says at the end of a run


def test_eval_with_a_smaller_selection_says_how_many_selected_items_are_done():
    """A run folder is shared by --limit selections of the same settings and covers every item
    it was ever asked for: after a 3-item run, --limit 1 says the run's 3/3 (never '3/1 done')."""
    make_run("shared", "--limit", "3")
    result = runner.invoke(app, ["eval", "--model", "reference/noisy-oracle", "--ec", "2",
                                 "--no-progress", "--workers", "0", "--run-id", "shared",
                                 "--limit", "1"])
    assert result.exit_code == 0, result.output
    text = flat(result.output)
    assert "1 of 1 item already done" in text, text
    assert "the run covers 3 items, 3/3 done" in text and "3/1 done" not in text


def test_eval_infrastructure_errors_name_the_first_cause_and_the_api_base():
    """Nothing listens on the api base: the message says what failed and where, never the
    credentials written in the URL."""
    import socket

    with socket.socket() as probe:  # a loopback port with nothing listening on it
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = t2w("eval", "--model", "openai/some-model", "--api-base",
                 f"http://user:SECRET@127.0.0.1:{port}/v1", "--limit", "1", "--ec", "0",
                 "--max-retries", "0", "--no-progress", "--workers", "0", "--run-id", "refused")
    # Nothing answered at all: the run stops at once (a refused connection is not retried for
    # long), saying why and where.
    assert result.returncode == 3, result.stdout + result.stderr  # ExitCode.INFRASTRUCTURE
    message = flat(result.stderr)
    assert "connection_error" in message and "openai/some-model" in message, message
    assert "Connection refused" in message, message
    assert f"http://***@127.0.0.1:{port}/v1" in message and "SECRET" not in message, message
    assert "t2w eval --resume" in message


def test_score_table_title_stays_on_one_line_at_80_columns():
    gold = str(REPO / "data" / "domains" / "blocksworld.pddl")
    result = t2w("score", gold, gold, "--mode", "canonical")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].strip() == \
        "blocksworld.pddl vs blocksworld.pddl (canonical mode)"
    assert_fits(result.stdout)


# --------------------------------------------------------------------------------------------
# --help of every command and subcommand, as click renders it


def _command_paths() -> list[list[str]]:
    import typer.main

    def walk(command, path):
        yield path
        for name, sub in sorted(getattr(command, "commands", {}).items()):
            yield from walk(sub, [*path, name])

    return list(walk(typer.main.get_command(app), []))


@pytest.mark.parametrize("path", _command_paths(), ids=lambda path: " ".join(path) or "t2w")
def test_every_help_is_conventional_and_uncut_at_80_columns(path):
    result = runner.invoke(app, [*path, "--help"], terminal_width=80, env={"COLUMNS": "80"})
    assert result.exit_code == 0, (path, result.output)
    text = result.output
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage, usage  # PATH, not {path}
    # TEXT, not <str>; a flag: no type at all
    assert not re.search(r"<(str|int|float|bool|path|list\[\w+\])>", text), (path, text)
    assert "…" not in text, (path, text)  # nothing cut


def test_help_renders_types_and_arguments_as_click_does():
    assert ["validate"] in _command_paths() and ["wm", "next-state"] in _command_paths()
    validate = runner.invoke(app, ["validate", "--help"], terminal_width=80).output
    assert re.search(r"Usage: .* validate \[OPTIONS\] PATH\b", validate)
    assert re.search(r"--json\s+Print the result as JSON", validate)  # a flag shows no type
    evaluate = flat(runner.invoke(app, ["eval", "--help"], terminal_width=80).output)
    assert "--ec INTEGER" in evaluate and "--model -m TEXT" in evaluate
    lint = runner.invoke(app, ["data", "lint", "--help"], terminal_width=80).output
    assert "[OPTIONS] [ID]..." in lint
