"""The package's curated public surface (issue 49): every package face (a subpackage's
``__init__.py``) and every module of the layers below the tasks says what it exports with
``__all__``, and every name an ``__all__`` lists exists (a name bound at the module's top level,
or a submodule of the package). Read with ``ast``, so nothing is imported: optional extras
(Ray, Inspect, MCP) need not be installed. docs/library.md renders modules by their ``__all__``
(mkdocs.yml: ``filters: public``).

The checker is tried on synthetic sources first, so a missing or wrong ``__all__`` does fail."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from repo_paths import REPO
from test_layers import package_modules

# Package faces without __all__ yet, each with why: an entry that gains one fails
# ``test_known_faces_without_all_still_lack_it`` (strike it off).
KNOWN_WITHOUT_ALL: dict[str, str] = {}

# The layers whose every module has __all__ (pyproject.toml types them strictly too).
CURATED_LAYERS = ("errors", "files", "version", "children", "bounded", "stats", "pddl",
                  "simulation", "planning", "scoring", "store", "worlds", "model")

MODULES = package_modules()


def declared_all(source: str) -> list[str] | None:
    """The names of a module's ``__all__`` (a literal list or tuple), None without one."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            names = ast.literal_eval(value)
            assert isinstance(names, (list, tuple)), "__all__ must be a literal list of names"
            return list(names)
    return None


def top_level_names(source: str) -> set[str]:
    """Every name bound at a module's top level (definitions, assignments, imports), also
    inside top-level ``if``/``try``/``with``/``for`` blocks."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.If):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for handler in node.handlers:
                    visit(handler.body)
                visit(node.orelse)
                visit(node.finalbody)
            elif isinstance(node, (ast.For, ast.With)):
                visit(node.body)

    visit(ast.parse(source).body)
    return names


def missing_names(source: str, path: Path) -> list[str]:
    """Names of the module's ``__all__`` it does not bind (a package may list its submodules)."""
    bound = top_level_names(source)
    folder = path.parent if path.name == "__init__.py" else None
    return [name for name in declared_all(source) or [] if name not in bound and not (
        folder is not None and ((folder / f"{name}.py").is_file()
                                or (folder / name / "__init__.py").is_file()))]


def test_the_checker_reads_all_and_finds_missing_names(tmp_path):
    assert declared_all('"""doc"""\n') is None
    assert declared_all("__all__ = ['a', 'b']\n") == ["a", "b"]
    assert declared_all("__all__: list[str] = []\n") == []
    source = ("import os\nfrom x import y as z\nA = 1\nif True:\n    B = 2\n"
              "def f():\n    C = 3\nclass K:\n    pass\n"
              "__all__ = ['os', 'z', 'A', 'B', 'f', 'K', 'C', 'sub', 'gone']\n")
    (tmp_path / "sub.py").write_text("")
    assert missing_names(source, tmp_path / "__init__.py") == ["C", "gone"]  # C: local to f
    assert missing_names(source, tmp_path / "mod.py") == ["C", "sub", "gone"]  # not a package


def test_every_package_face_says_what_it_exports():
    lacking = sorted(name for name, path in MODULES.items() if path.name == "__init__.py"
                     and declared_all(path.read_text()) is None and name not in KNOWN_WITHOUT_ALL)
    assert lacking == [], f"package faces without __all__: {lacking}"


def test_known_faces_without_all_still_lack_it():
    done = sorted(name for name in KNOWN_WITHOUT_ALL
                  if declared_all(MODULES[name].read_text()) is not None)
    assert done == [], f"these have __all__ now: strike them off KNOWN_WITHOUT_ALL: {done}"


def test_every_module_of_the_lower_layers_says_what_it_exports():
    lacking = sorted(name for name, path in MODULES.items()
                     if name.count(".") and name.split(".")[1] in CURATED_LAYERS
                     and declared_all(path.read_text()) is None)
    assert lacking == [], f"modules without __all__ in {CURATED_LAYERS}: {lacking}"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_every_name_of_all_exists(module):
    path = MODULES[module]
    assert missing_names(path.read_text(), path) == [], \
        f"{path.relative_to(REPO)}: __all__ lists names the module does not bind"


# docs/reference.md: the base modules, then each package below the tasks with its __all__
REFERENCE = REPO / "docs" / "reference.md"
REFERENCE_BASE = ("errors", "files", "stats", "bounded")
REFERENCE_PACKAGES = ("pddl", "simulation", "planning", "scoring", "store", "worlds", "model")


def test_the_library_reference_follows_the_packages_all():
    """The reference page renders, for each package, the package and then the modules its
    ``__all__`` lists, in that order (each module shows its own ``__all__``: mkdocs.yml's
    ``filters: public``): a module added to or taken from an ``__all__`` must be added to or
    taken from the page."""
    expected = [f"text2world.{name}" for name in REFERENCE_BASE]
    for package in REFERENCE_PACKAGES:
        listed = declared_all(MODULES[f"text2world.{package}"].read_text()) or []
        expected += [f"text2world.{package}", *(f"text2world.{package}.{m}" for m in listed)]
    rendered = [line.removeprefix("::: ").strip() for line in REFERENCE.read_text().splitlines()
                if line.startswith("::: ")]
    assert rendered == expected, "docs/reference.md does not follow the packages' __all__"
    options = (REPO / "mkdocs.yml").read_text()
    assert "filters: public" in options, "mkdocs.yml: modules must render their __all__ only"
