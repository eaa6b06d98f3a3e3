"""Abstract descriptions do not give the dynamics away (``t2w data lint``, text2world/lint.py).

Each store abstract must pass the lint at the released set's thresholds, and the store as a whole
must have no more rule phrases per General section than the released set's level.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from repo_paths import OFFICIAL_DIR, REPO

from text2world.store.datasets import data_dir
from text2world.store.lint import (
    ACTION_LIMIT,
    CORPUS_RULE_MEAN,
    GENERAL_RULE_LIMIT,
    corpus_figures,
    lint_records,
    lint_store,
    lint_text,
)

DATA = data_dir()
STORE_IDS = sorted(p.stem for p in (DATA / "domains").glob("*.pddl"))
RELEASED = OFFICIAL_DIR / "test.json"


@pytest.mark.parametrize("record_id", STORE_IDS)
def test_abstract_description_states_no_dynamics(record_id):
    [result] = lint_store(DATA, [record_id])
    assert result.ok, f"{result.path}: {'; '.join(result.failures)}\n" + "\n".join(
        str(f) for f in result.offending())


def test_store_rule_phrases_per_general_at_the_released_level():
    figures = corpus_figures(lint_store(DATA))
    assert figures["rule_phrases_per_general"] <= CORPUS_RULE_MEAN, figures


GOOD = """### General
Couriers deliver parcels across a city of depots. The objective is to bring every parcel to its
destination depot.

### Actions
- **drive <?v> <?from> <?to>**: Van ?v drives from depot ?from to depot ?to.
- **load <?p> <?v> <?d>**: Puts parcel ?p into van ?v at depot ?d.
"""


def test_lint_passes_purpose_only_prose_and_ignores_names():
    result = lint_text(GOOD + "- **only-if-needed <?x>**: Handles (must-wait ?x) cases.\n")
    assert result.ok and not result.findings, [str(f) for f in result.findings]


def test_lint_reports_each_offending_sentence_with_line():
    text = GOOD.replace("The objective", "A van can only carry one parcel and must never be "
                                         "overloaded. The objective") + (
        "- **unload <?p> <?v> <?d> <?n1> <?n0>**: Takes ?p out, so that the free room of ?v goes "
        "from ?n0 up to ?n1.\n- **refuel <?v>**: The tank is filled; afterwards it becomes "
        "full.\n")
    result = lint_text(text, "x.md")
    assert not result.ok
    kinds = {(f.kind, f.phrase, f.line) for f in result.findings}
    assert ("rule", "only", 2) in kinds and ("rule", "must", 2) in kinds
    assert ("rule", "never", 2) in kinds
    assert ("counter", "from ?n0 up to ?n1", 8) in kinds and ("effect", "so that", 8) in kinds
    assert ("effect", "becomes", 9) in kinds and ("effect", "afterwards", 9) in kinds
    sentence = next(f for f in result.findings if f.phrase == "only").sentence
    assert sentence == "A van can only carry one parcel and must never be overloaded."
    assert any(f.startswith("general:") for f in result.failures)
    assert any(f.startswith("actions:") for f in result.failures)
    assert str(result.findings[0]).startswith("x.md:2: rule wording 'only'")


def test_limits_are_the_thresholds():
    one_rule = GOOD.replace("The objective", "Vans only drive on roads. The objective")
    assert lint_text(one_rule).ok and GENERAL_RULE_LIMIT == 1
    two_rules = GOOD.replace("The objective", "Vans only drive on roads and must refuel. The "
                                              "objective")
    assert not lint_text(two_rules).ok
    lines = "".join(f"- **a{i} <?x>**: Works on ?x if it is ready.\n"
                    for i in range(ACTION_LIMIT + 1))
    assert lint_text(GOOD + lines[: lines.rindex("- **")]).ok
    assert not lint_text(GOOD + lines).ok


@pytest.mark.skipif(not RELEASED.is_file() and not os.environ.get("CI"),
                    reason="released Text2World data not beside the clone")
def test_released_set_mostly_passes_its_own_level():
    """The thresholds are the released set's: most of its descriptions pass them."""
    records = json.loads(RELEASED.read_text(encoding="utf-8"))
    figures = corpus_figures(lint_records((str(r["id"]), r["corrected_description"])
                                          for r in records))
    assert figures["rule_phrases_per_general"] <= CORPUS_RULE_MEAN
    assert figures["generals_with_3_or_more"] <= 0.02
    assert figures["failing"] <= 0.25 * len(records), figures


def test_cli_lint_reports_and_exits_nonzero(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    bad = subprocess.run([sys.executable, "-m", "text2world.cli", "data", "lint", "no-such-id"],
                         capture_output=True, text=True, env=env)
    assert bad.returncode != 0 and "no-such-id" in bad.stderr + bad.stdout
    released = tmp_path / "rel.json"
    released.write_text(json.dumps([{"id": 1, "corrected_description": GOOD.replace(
        "The objective", "Vans only drive on roads and must refuel. The objective")}]))
    run = subprocess.run([sys.executable, "-m", "text2world.cli", "data", "lint", "--released",
                          str(released), "--json"], capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    payload = json.loads(run.stdout)
    assert payload["figures"]["failing"] == 1
    assert payload["files"][0]["findings"][0]["line"] == 2


def test_lint_command_passes_on_the_store_and_prints_readable_figures():
    from typer.testing import CliRunner

    from text2world.cli import app

    result = CliRunner().invoke(app, ["data", "lint"])
    assert result.exit_code == 0, result.output
    last = " ".join(result.output[result.output.rindex("figures: "):].split())  # wrapped at 80 columns
    assert last.startswith("figures: descriptions ") and last.endswith("failing 0")
    assert "_" not in last  # words, not the JSON keys
