"""A non-editable install (the Dockerfile's ``pip install .``) must carry every package and file.

Checked against the packaging configuration itself (no build, no network): every folder of
Python modules under text2world/ is a package setuptools finds with pyproject's
settings, and every data file is matched by a package-data pattern.
"""

from __future__ import annotations

import fnmatch
import tomllib

from repo_paths import REPO
from setuptools import find_packages

CONFIG = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_every_module_folder_is_a_packaged_package():
    found = set(find_packages(where=str(REPO), **CONFIG["packages"]["find"]))
    folders = {str(p.parent.relative_to(REPO)).replace("/", ".")
               for p in (REPO / "text2world").rglob("*.py")
               if "__pycache__" not in p.parts}
    assert folders - found == set()
    assert "text2world.cli" in found


def test_every_data_file_is_package_data():
    for package, expected in (("text2world", "prompts, models.toml, the viewer's page and the /docs assets"),):
        patterns = CONFIG["package-data"][package]
        data = [str(p.relative_to(REPO / package)) for p in (REPO / package).rglob("*")
                if p.is_file() and p.suffix not in (".py", ".pyc")]
        assert data, f"expected {expected}"
        for name in data:
            # setuptools' '*' does not cross '/', unlike fnmatch's: compare folder by folder.
            assert any(fnmatch.fnmatch(name, pattern) and name.count("/") == pattern.count("/")
                       for pattern in patterns), f"{package}/{name}"



def test_the_api_is_inside_the_package_with_the_entry_point_unchanged():
    found = set(find_packages(where=str(REPO), **CONFIG["packages"]["find"]))
    assert {"text2world.api", "text2world.api.routes"} <= found
    assert all(name == "text2world" or name.startswith("text2world.") for name in found)
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts == {"t2w": "text2world.cli:app"}

