"""Shared fixtures: the released Text2World data (reference, read from ../shared) and tmp homes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from repo_paths import OFFICIAL_DIR


def official_file(name: str) -> Path:
    """A file of the released data (``../shared/text2world-official``): the test is skipped,
    saying why, where it is missing, and fails in CI (env ``CI`` set), where it must be there."""
    path = OFFICIAL_DIR / name
    if not path.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: CI must have ../shared beside the clone")
        pytest.skip(f"released Text2World data not found at {path}")
    return path


@pytest.fixture(scope="session")
def official_test() -> list[dict]:
    return json.loads(official_file("test.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def official_train() -> list[dict]:
    return json.loads(official_file("train.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="session")
def released_blocksworld(official_train) -> str:
    """The released few-shot exemplar: IPC blocksworld, untyped, with `pickup`/`putdown`."""
    (text,) = [r["pddl_domain"] for r in official_train if "(domain blocksworld)" in r["pddl_domain"]]
    return text


@pytest.fixture(scope="session")
def official_dir() -> Path:
    """The released data's folder, with both its files (skipped or failed as above)."""
    for name in ("test.json", "train.json"):
        official_file(name)
    return OFFICIAL_DIR


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Every test gets its own user data and runs directories."""
    home = tmp_path_factory.mktemp("t2w-home")
    monkeypatch.setenv("T2W_HOME", str(home))
    monkeypatch.setenv("T2W_RUNS_DIR", str(home / "runs"))
