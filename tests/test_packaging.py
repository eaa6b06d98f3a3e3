"""A non-editable install (the Dockerfile's ``pip install .``) must carry every package and file.

Checked against the packaging configuration itself (no build, no network): every folder of
Python modules under text2world/ is a package setuptools finds with pyproject's
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


def _instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined, comments dropped."""
    joined = text.replace("\\\n", " ")
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1].strip())
            for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_dockerfile_installs_the_dependencies_before_copying_the_source():
    steps = _instructions((REPO / "Dockerfile").read_text())
    copies = [(index, args) for index, (op, args) in enumerate(steps) if op in ("COPY", "ADD")]
    # The first copy is pyproject.toml alone; the next step installs the dependencies it lists.
    first_index, first = copies[0]
    assert first.split()[:-1] == ["pyproject.toml"], first
    install = steps[first_index + 1]
    assert install[0] == "RUN" and "pyproject.toml" in install[1] and "dependencies" in install[1]
    # The source comes after, piece by piece (never "COPY . ."), and is installed without deps.
    sources = [args.split()[0] for index, args in copies[1:]]
    assert "." not in sources and "text2world" in sources and "data" in sources
    assert all(index > first_index + 1 for index, _ in copies[1:])
    assert any(op == "RUN" and "pip install --no-deps ." in args for op, args in steps)


def test_tests_and_benchmarks_stay_out_of_the_image():
    ignored = {line.strip().rstrip("/") for line in
               (REPO / ".dockerignore").read_text().splitlines() if line.strip()}
    assert {"tests", "bench", ".git"} <= ignored
    copied = [args.split()[0] for op, args in _instructions((REPO / "Dockerfile").read_text())
              if op == "COPY"]
    assert not {"tests", "bench"} & set(copied)
