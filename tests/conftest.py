"""Shared fixtures: the released Text2World data (reference, read from ../shared) and tmp homes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
OFFICIAL_DIR = REPO.parent / "shared" / "text2world-official"


@pytest.fixture(scope="session")
def official_test() -> list[dict]:
    path = OFFICIAL_DIR / "test.json"
    if not path.is_file():
        if os.environ.get("CI"):
            pytest.fail(f"{path} is missing: CI must have ../shared beside the clone")
        pytest.skip(f"released Text2World data not found at {path}")
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.fixture(autouse=True)
def _isolated_home(tmp_path_factory, monkeypatch):
    """Every test gets its own user data and runs directories."""
    home = tmp_path_factory.mktemp("t2w-home")
    monkeypatch.setenv("T2W_HOME", str(home))
    monkeypatch.setenv("T2W_RUNS_DIR", str(home / "runs"))
