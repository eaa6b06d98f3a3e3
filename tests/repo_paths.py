"""Where the tests find the repository: one definition for every test file, however deep its
folder (``tests/<package>/...``), so no test counts ``.parent``s from its own ``__file__``."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent  # tests/: the shared helpers, conftest.py, fixtures/
REPO = TESTS.parent  # the repository root: text2world/, data/, docs/, bench/
FIXTURES = TESTS / "fixtures"
OFFICIAL_DIR = REPO.parent / "shared" / "text2world-official"  # the released data, beside the clone
