"""A non-editable install (the Dockerfile's ``pip install .``) must carry every package and file.

Checked against the packaging configuration itself (no build, no network): every folder of
Python modules under text2world/ and api/ is a package setuptools finds with pyproject's
settings, and every data file is matched by a package-data pattern.
"""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from setuptools import find_packages

REPO = Path(__file__).resolve().parent.parent
CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_module_folder_is_a_packaged_package():
    found = set(find_packages(where=str(REPO), **CONFIG["packages"]["find"]))
    folders = {str(p.parent.relative_to(REPO)).replace("/", ".")
               for root in ("text2world", "api") for p in (REPO / root).rglob("*.py")
               if "__pycache__" not in p.parts}
    assert folders - found == set()
    assert "text2world.cli" in found


def test_every_data_file_is_package_data():
    patterns = CONFIG["package-data"]["text2world"]
    data = [str(p.relative_to(REPO / "text2world")) for p in (REPO / "text2world").rglob("*")
            if p.is_file() and p.suffix not in (".py", ".pyc")]
    assert data, "expected prompts and models.toml"
    for name in data:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in patterns), name

