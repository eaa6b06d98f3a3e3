"""Stratification of the store (manifest ``size_band`` and ``features``) and
``t2w report --by size|feature`` over a real offline run of the reference models."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from repo_paths import REPO

from text2world.reports.generation import ReportError
from text2world.reports.strata import stratified_scores
from text2world.store.audit import SIZE_BANDS, domain_features, size_band
from text2world.store.curation import cached_validate
from text2world.store.datasets import data_dir
from text2world.tasks.generation.task import EvalOptions, evaluate

DATA = data_dir()
IDS = ["hanoi-discs", "power-grid", "tic-tac-toe", "cargo-logistics"]


def test_manifest_carries_size_band_and_features():
    manifest = json.loads((DATA / "manifest.json").read_text(encoding="utf-8"))["domains"]
    bands = {name for _, name in SIZE_BANDS}
    assert all(e["size_band"] in bands and isinstance(e["features"], list) for e in manifest)
    by_id = {e["id"]: e for e in manifest}
    hanoi = set(by_id["hanoi-discs"]["features"])
    assert {"comments", "constants", "mixed-case", "untyped"} <= hanoi
    assert "adl" in by_id["power-grid"]["features"]
    assert "successor-counter" in by_id["cargo-logistics"]["features"]


def test_features_and_bands_follow_the_text():
    text = (DATA / "domains" / "gripper.pddl").read_text(encoding="utf-8")
    domain = cached_validate(text).domain
    assert domain_features(text, domain) == [] and size_band(domain) == "small"
    commented = "; a comment\n" + text.replace("(define (domain gripper)",
                                                "(define (domain Gripper)")
    assert domain_features(commented, cached_validate(commented).domain) == \
        ["comments", "mixed-case"]


@pytest.fixture(scope="module")
def oracle_run(tmp_path_factory):
    root = tmp_path_factory.mktemp("strata")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("T2W_HOME", str(root / "home"))
        result = evaluate(EvalOptions(model="reference/oracle", ec=0, domains=IDS, workers=0,
                                      runs_root=root / "runs"))
    return result.run.path


def test_report_by_size_and_feature(oracle_run):
    rows = stratified_scores([oracle_run], "size")
    assert sum(r["domains"] for r in rows) == len(IDS)
    assert all(r["exec_eck"] == 1.0 and r["similarity_eck"] == 1.0 for r in rows)
    # Every stratum's mean carries its interval (all ones: no spread).
    assert all(r["intervals"]["exec_eck"]["low"] == 1.0 and r["intervals"]["exec_eck"]["n"]
               == r["domains"] for r in rows)
    features = {r["feature"]: r["domains"] for r in stratified_scores([oracle_run], "feature")}
    assert features["untyped"] == 2 and features["adl"] == 1  # hanoi-discs, tic-tac-toe; power-grid
    with pytest.raises(ReportError, match="unknown stratification"):
        stratified_scores([oracle_run], "colour")


def test_cli_report_by(oracle_run):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    run = subprocess.run([sys.executable, "-m", "text2world.cli", "report", str(oracle_run),
                          "--by", "feature", "--markdown"], capture_output=True, text=True,
                         env=env)
    assert run.returncode == 0, run.stderr
    assert "| untyped | 2 | 100.0 [100.0, 100.0] |" in run.stdout
    table = subprocess.run([sys.executable, "-m", "text2world.cli", "report", str(oracle_run),
                            "--by", "feature"], capture_output=True, text=True,
                           env={**env, "COLUMNS": "160"})
    assert table.returncode == 0 and "untyped" in table.stdout and "|" not in table.stdout, \
        table.stdout
    bad = subprocess.run([sys.executable, "-m", "text2world.cli", "report", str(oracle_run),
                          "--by", "colour"], capture_output=True, text=True, env=env)
    assert bad.returncode != 0 and "colour" in bad.stderr + bad.stdout
