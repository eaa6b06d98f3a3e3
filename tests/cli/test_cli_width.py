"""Every table the CLI prints stays readable in a narrow terminal (issue 30, item 6): at
COLUMNS=80 (pipes, CI logs, default terminals) and 60, no cell is cut ("…"), no label column is
squeezed away, and every label and number the command's JSON holds is printed whole.

The commands run as a user runs them (``t2w`` in a subprocess) on real runs of every kind made
offline with the reference models (``tests/run_kinds.py``)."""

from __future__ import annotations

import itertools
import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before litellm is imported

import re
import subprocess
import sys

import pytest
from repo_paths import REPO
from rich.console import Console
from rich.table import Table
from run_kinds import RunKinds, make_runs

from text2world.reports.compare import compare_runs
from text2world.reports.generation import build_report
from text2world.reports.rendering import fit_table
from text2world.reports.wm import build_wm_report

WIDTHS = (80, 60)
CELL_EDGES = re.compile(r"[│┃]")


@pytest.fixture(scope="module")
def kinds(tmp_path_factory) -> RunKinds:
    return make_runs(tmp_path_factory.mktemp("width"))


def t2w(kinds: RunKinds, columns: int, *args: str) -> str:
    """``t2w ARGS``'s standard output on a terminal ``columns`` wide (exit 0 asserted)."""
    env = {**os.environ, "COLUMNS": str(columns), "PYTHONPATH": str(REPO),
           "T2W_HOME": str(kinds.runs_dir.parent / "home"), "T2W_RUNS_DIR": str(kinds.runs_dir)}
    env.pop("LINES", None)
    result = subprocess.run([sys.executable, "-m", "text2world.cli", *args], cwd=REPO, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return result.stdout


def assert_readable(text: str, columns: int, kinds: RunKinds) -> None:
    """No line wider than the terminal (but for a path printed whole to be copied), no cell
    ending in "…", no empty label cell beside a filled row."""
    root = str(kinds.runs_dir.parent)
    wide = [line for line in text.splitlines()  # a path or file name alone on its line may be longer
            if len(line) > columns and root not in line and "/" not in line and len(line.split()) > 1]
    assert not wide, "\n".join(wide)
    assert "…" not in text, text
    for line in text.splitlines():
        cells = CELL_EDGES.split(line)
        if len(cells) > 3 and line.startswith("│"):  # a body row: │ label │ ... │
            assert cells[1] != "", f"label column squeezed to nothing: {line}\n{text}"


def assert_whole(text: str, words: list[str]) -> None:
    """Each word printed whole: not cut, not broken across lines or cells."""
    for word in words:
        assert re.search(rf"(?<![\w@.\[-]){re.escape(word)}(?![\w@%-])", text), \
            f"{word!r} is not printed whole:\n{text}"


def row_labels(text: str) -> set[str]:
    return {CELL_EDGES.split(line)[1].strip() for line in text.splitlines()
            if line.startswith("│") and len(CELL_EDGES.split(line)) > 3}


def pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}"


@pytest.mark.parametrize("columns", WIDTHS)
def test_compare_prints_means_differences_and_p_whole(kinds, columns):
    data = compare_runs(kinds.oracle, kinds.noisy)
    text = t2w(kinds, columns, "compare", str(kinds.oracle), str(kinds.noisy))
    assert_readable(text, columns, kinds)
    numbers = [pct(row[key]) for row in data["metrics"] for key in ("mean_a", "mean_b")]
    numbers += [f"{row['p_value']:.3g}" for row in data["metrics"] if row["p_value"] is not None]
    numbers += [f"{row['wins']}/{row['ties']}/{row['losses']}" for row in data["metrics"]]
    assert_whole(text, numbers + ["Exec@EC_0", "F1 mean@EC_k", "W/T/L"])
    assert {"Exec@EC_0", "F1 pre@EC_k"} <= row_labels(text)


@pytest.mark.parametrize("columns", WIDTHS)
@pytest.mark.parametrize("task", ["next_state", "propose"])
def test_world_model_report_keeps_its_row_labels(kinds, columns, task, tmp_path):
    run = getattr(kinds, task)
    text = t2w(kinds, columns, "report", str(run))
    assert_readable(text, columns, kinds)
    data = build_wm_report([run], tmp_path).data
    row = data["runs"][0]
    labels = {"all", *data["by_rho"][row["run"]]}
    assert labels <= row_labels(text), text
    baselines = list(row["all"].get("baselines") or {})
    assert baselines and all(name in text for name in baselines)
    headers = {"next_state": ["acc", "illegal", "static", "dynamic"],
               "propose": ["hit@1", "hit@10", "strict@1", "appl@1"]}[task]
    assert_whole(text, headers)


@pytest.mark.parametrize("columns", WIDTHS)
def test_generation_report_and_rescored_tables(kinds, columns, tmp_path):
    text = t2w(kinds, columns, "report", str(kinds.noisy))
    assert_readable(text, columns, kinds)
    data = build_report([kinds.noisy], out_dir=tmp_path, plots=False).data
    rounds = data["per_round"][next(iter(data["per_round"]))]
    assert_whole(text, ["EC_0", "EC_3", "Exec", "Sim", "pred", "param", "IncorrectParentheses",
                        "not_simulated", "Plan valid", "Trans. acc.", "simulated only"]
                 + [pct(r["similarity"]) for r in rounds])
    assert {"EC_0", "EC_3", "Exec", "F1 eff"} <= row_labels(text)
    rescored = t2w(kinds, columns, "score-run", str(kinds.oracle))
    assert_readable(rescored, columns, kinds)
    assert "[95% interval]" in rescored and "F1 types" in rescored


@pytest.mark.parametrize("columns", WIDTHS)
def test_probe_and_stratified_reports(kinds, columns):
    text = t2w(kinds, columns, "report", str(kinds.probe))
    assert_readable(text, columns, kinds)
    assert_whole(text, ["airport-ground", "ambulance-triage", "141/141", "1.000",
                        "100.0 [100.0, 100.0]"])
    strata = t2w(kinds, columns, "report", str(kinds.noisy), str(kinds.oracle), "--by", "size")
    assert_readable(strata, columns, kinds)
    assert_whole(strata, ["domains", "reference/oracle"])


@pytest.mark.parametrize("columns", WIDTHS)
def test_probe_prints_its_overlap_excerpts_wrapped(kinds, columns):
    """The probe's gold and candidate excerpts (hundreds of characters of PDDL) wrap under
    their label instead of running past the terminal, names unbroken."""
    text = t2w(kinds, columns, "contamination", "--model", "reference/oracle", "--limit", "2")
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(("  gold ", "  candidate "))]
    assert len(starts) >= 4, text
    for start in starts:
        block = [lines[start], *itertools.takewhile(lambda line: line.startswith(" " * 12),
                                                    lines[start + 1:])]
        assert len(block) > 1, f"excerpt not wrapped:\n{text}"
        assert all(len(line) <= columns for line in block), "\n".join(block)
    assert_whole(text, ["ambulance-triage", "ambulance-at"])


@pytest.mark.parametrize("columns", WIDTHS)
def test_score_data_and_model_tables(kinds, columns, tmp_path):
    gold = (REPO / "data" / "domains" / "blocksworld.pddl").read_text(encoding="utf-8")
    predicted = tmp_path / "predicted.pddl"
    predicted.write_text(gold.replace("(handempty)", "(handempty-b)", 2), encoding="utf-8")
    text = t2w(kinds, columns, "score", "blocksworld", str(predicted), "--mode", "canonical",
               "--semantic")
    assert_readable(text, columns, kinds)
    assert_whole(text, ["pick-up", "put-down", "preconditions", "applicability_f1",
                        "transition_accuracy"])
    for args, words in ((["data", "list"], ["airport-ground", "blocksworld"]),
                        (["data", "stats"], ["domains", "requirements"]),
                        (["eval", "--list-models"], ["reference/oracle"])):
        text = t2w(kinds, columns, *args)
        assert_readable(text, columns, kinds)
        assert_whole(text, words)


def _wide_table() -> Table:
    table = Table(title="wide", caption="legend")
    table.add_column("label", min_width=5)
    for index in range(9):
        table.add_column(f"metric {index}", justify="right", no_wrap=True)
    for label in ("all", "baseline copy-state"):
        table.add_row(label, *(f"{index}9.5 [{index}1.0, 100.0]" for index in range(9)))
    return table


@pytest.mark.parametrize("columns", (40, 60, 80, 120))
def test_a_table_too_wide_is_split_into_parts_that_repeat_the_labels(columns):
    console = Console(width=columns, record=True, file=open(os.devnull, "w"))
    parts = fit_table(_wide_table(), console, columns)
    assert len(parts) > 1
    assert [part.title for part in parts][-1].endswith(f"(part {len(parts)} of {len(parts)})")
    assert [part.caption for part in parts] == [None] * (len(parts) - 1) + ["legend"]
    for part in parts:
        console.print(part)
    text = console.export_text()
    assert "…" not in text and max(len(line) for line in text.splitlines()) <= columns
    assert text.count("baseline") == len(parts)  # the label column in every part
    assert_whole(text, [f"{index}9.5 [{index}1.0, 100.0]" for index in range(9)])
    sizes = [len(part.columns) - 1 for part in parts]
    assert max(sizes) - min(sizes) <= 1  # even parts, no lone last column


def test_a_table_that_fits_is_left_as_it_is():
    table = Table()
    table.add_column("label")
    table.add_column("value")
    table.add_row("all", "1.0")
    console = Console(width=80, file=open(os.devnull, "w"))
    assert fit_table(table, console, 80) == [table]


def _ragged(lines: list[str], width: int) -> list[str]:
    """Lines of a wrapped text that end although the next line's first word would have fit."""
    out = []
    for line, following in zip(lines, lines[1:]):
        words = following.split()
        if line.strip() and words and len(line.rstrip()) + 1 + len(words[0]) <= width:
            out.append(line)
    return out


def test_help_paragraphs_and_the_command_list_are_filled_at_80_columns() -> None:
    """rich keeps a docstring's line breaks: a command's description came out ragged (a line
    of six words, then the next) in ``t2w --help`` and after the first paragraph."""
    env = {**os.environ, "COLUMNS": "80", "PYTHONPATH": str(REPO)}
    env.pop("LINES", None)

    def show(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "text2world.cli", *args, "--help"], cwd=REPO,
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        return done.stdout

    listing = show()
    rows: list[list[str]] = []  # each command's description lines in the Commands box
    for line in listing.split("Commands")[1].splitlines():
        if not line.startswith("│"):
            continue
        name, text = line[2:23].strip(), line[23:-1]
        if name:
            rows.append([])
        if rows:
            rows[-1].append(text)
    assert len(rows) > 10 and all(not _ragged(row, len(row[0]) - 1) for row in rows), rows
    text = show("contamination").split("╭")[0]
    paragraph = text.split("\n\n")[-2] if "\n\n" in text else text
    lines = [line[1:] for line in text.splitlines()[4:] if line.strip()]
    assert "--model probes a model" in text and not _ragged(lines, 78), paragraph
