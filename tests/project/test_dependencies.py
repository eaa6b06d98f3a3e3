"""Installs that survive tomorrow's releases.

* ``pyproject.toml``: an upper bound only where something breaks, each with its reason on its line.
* ``requirements/lock.txt``: the whole dependency set, pinned, resolved by uv as of one date
  (``--exclude-newer``, in its header). CI and the image install from it, so an upstream release
  never changes what they test. It must satisfy every range of ``pyproject.toml``.
* Beside the trainer stacks we document (TRL + transformers, Inspect, Ray, datasets) ``text2world``
  must resolve; the stacks are resolved as of the lock's date, so the test does not turn red when
  an upstream release lands, and docs/dependencies.md lists each combination with its versions.

Today's index is checked by ``bench/dependency_resolve.py``, which reports and never gates.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib
import venv
from pathlib import Path
from types import ModuleType

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from repo_paths import REPO

PYPROJECT = REPO / "pyproject.toml"
LOCK = REPO / "requirements" / "lock.txt"
PROJECT = tomllib.loads(PYPROJECT.read_text())["project"]
LOCKED_EXTRAS = ("test", "docs")  # what the lock covers (its header's --extra options)

# The trainer stacks a user installs beside us (docs/dependencies.md, "Tested beside"): the
# packages of each, and the extra of ours they go with.
STACKS: dict[str, tuple[str, ...]] = {
    "trl": ("trl", "transformers"),
    "inspect": ("inspect-ai",),
    "ray": ("ray",),
    "datasets": ("datasets",),
}


def _requirements(extras: tuple[str, ...] | None = None) -> list[str]:
    groups = PROJECT["optional-dependencies"]
    chosen = groups if extras is None else {name: groups[name] for name in extras}
    return PROJECT["dependencies"] + [r for extra in chosen.values() for r in extra]


def _bench_module(name: str) -> ModuleType:
    """A module of bench/ by its path (tests do not import bench/ as a package)."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", REPO / "bench" / f"{name}.py")
    assert spec and spec.loader, f"bench/{name}.py is missing"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The lock's pins as bench/dependency_resolve.py reads them: one parser for both
lock_pins = _bench_module("lock_file").lock_pins


def lock_date() -> str:
    """The date the lock was resolved as of (its header's ``--exclude-newer``)."""
    match = re.search(r"--exclude-newer (\S+)", LOCK.read_text())
    assert match, f"{LOCK}: its header has no --exclude-newer DATE (regenerate it: docs/dependencies.md)"
    return match.group(1)


def _bounded_above(requirement: str) -> bool:
    return any(op in str(spec.operator) for spec in Requirement(requirement).specifier
               for op in ("<", "==", "~=", "==="))


def test_every_upper_bound_says_why_on_its_line():
    text = PYPROJECT.read_text()
    unexplained = []
    for requirement in _requirements():
        if not _bounded_above(requirement):
            continue
        lines = [line for line in text.splitlines() if f'"{requirement}"' in line]
        assert lines, f"{requirement!r}: not found on a line of its own in pyproject.toml"
        if not all("#" in line.split(f'"{requirement}"', 1)[1] for line in lines):
            unexplained.append(requirement)
    assert unexplained == [], f"upper bounds without a reason (a '# ...' comment on the line): {unexplained}"


def test_the_bound_check_finds_a_bound_and_passes_a_range():
    assert _bounded_above("httpx>=0.27,<0.29") and _bounded_above("tarski==0.9.1")
    assert _bounded_above("s3fs>=2023,<=2026.6.0") and not _bounded_above("httpx>=0.27")


def test_the_lock_satisfies_every_range_of_pyproject():
    pins = lock_pins()
    assert len(pins) > 100, f"{LOCK}: only {len(pins)} pins: is it the whole set?"
    problems = []
    for text in _requirements(LOCKED_EXTRAS) + _requirements(("mcp", "ray", "hf", "inspect")):
        requirement = Requirement(text)
        version = pins.get(canonicalize_name(requirement.name))
        if version is None:
            problems.append(f"{requirement.name}: not in the lock")
        elif not requirement.specifier.contains(version, prereleases=True):
            problems.append(f"{requirement.name}=={version} is outside {requirement.specifier}")
    assert problems == [], ("requirements/lock.txt disagrees with pyproject.toml; regenerate it with "
                            f"the command in its header (docs/dependencies.md): {problems}")


def test_the_lock_header_is_the_documented_command():
    header = LOCK.read_text().splitlines()[:3]
    command = " ".join(header)
    for part in ("uv pip compile pyproject.toml", "--extra test", "--extra docs", "--python-version 3.11",
                 "--exclude-newer", "-o requirements/lock.txt"):
        assert part in command, f"{LOCK}: header lacks {part!r}: {header}"
    assert f"--exclude-newer {lock_date()}" in (REPO / "docs" / "dependencies.md").read_text()


def test_ci_and_the_image_install_from_the_lock():
    ci = (REPO / ".ci" / "run").read_text()
    docker = (REPO / "Dockerfile").read_text()
    assert re.search(r"pip install .*-c requirements/lock\.txt .*-e \"\.\[test,docs\]\"", ci), ci
    assert "COPY pyproject.toml requirements/lock.txt ./" in docker and "'-c', 'lock.txt'" in docker


def _uv() -> list[str]:
    found = shutil.which("uv")
    return [found] if found else [sys.executable, "-m", "uv"]


def _compile(requirements: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    source = tmp_path / "requirements.in"
    source.write_text("\n".join(requirements) + "\n")
    return subprocess.run(
        [*_uv(), "pip", "compile", str(source), "--python-version", "3.11", "--python-platform",
         "x86_64-unknown-linux-gnu", "--exclude-newer", lock_date(), "--no-header", "--quiet",
         "-o", str(tmp_path / "resolved.txt")],
        capture_output=True, text=True, timeout=900, cwd=tmp_path)


def _no_index(result: subprocess.CompletedProcess) -> bool:
    output = result.stdout + result.stderr
    return result.returncode != 0 and any(
        mark in output for mark in ("Failed to fetch", "dns error", "Connection refused", "error sending request"))


def conflict_named(uv_output: str) -> str:
    """The packages uv's explanation names (``Because A depends on B ... we can conclude``)."""
    names = sorted(set(re.findall(r"(?:Because |and |depends on |requires )([A-Za-z0-9_.\-]+)(?=[\[=<>!~ ])",
                                  uv_output)))
    return ", ".join(names) or uv_output.strip()[-500:]


def test_conflict_named_names_the_pair():
    output = ("  × No solution found when resolving dependencies:\n  ╰─▶ Because litellm==1.106.2 depends on "
              "huggingface-hub<2.0 and transformers==5.25.0 depends on huggingface-hub>=2.0, we can conclude ...")
    assert conflict_named(output) == "huggingface-hub, litellm, transformers"


def _stack_versions(resolved: str, packages: tuple[str, ...]) -> dict[str, str]:
    pins = {canonicalize_name(m.group(1)): m.group(2)
            for m in re.finditer(r"^([A-Za-z0-9_.\-]+)==(\S+)", resolved, re.MULTILINE)}
    return {name: pins.get(canonicalize_name(name), "?") for name in packages}


def _newest_alone(packages: tuple[str, ...], tmp_path: Path) -> dict[str, str]:
    """The versions a stack resolves to on its own (as of the lock's date): what its users get."""
    alone = tmp_path / "alone"
    alone.mkdir()
    result = _compile(list(packages), alone)
    if _no_index(result) and not os.environ.get("CI"):
        pytest.skip("no package index reachable")
    assert result.returncode == 0, result.stderr[-3000:]
    return _stack_versions((alone / "resolved.txt").read_text(), packages)


def _our_newest(extras: tuple[str, ...]) -> list[str]:
    """Our direct dependencies at the newest versions their ranges allow as of the lock's date
    (the lock's pins): what a fresh ``pip install`` of ours puts in a venv."""
    pins = lock_pins()
    names = {canonicalize_name(Requirement(text).name) for text in _requirements(extras)}
    return sorted(f"{name}=={pins[name]}" for name in names if name in pins)


def _beside_us(ours: str, versions: dict[str, str], tmp_path: Path) -> None:
    """Ours, each direct dependency at its newest, resolves beside the stack at exactly its own
    versions: installed in either order, neither side must move the other (``pip install
    text2world`` then ``pip install trl`` once broke litellm's huggingface-hub<2). On failure,
    uv's explanation names the conflicting packages."""
    extras = tuple(ours.strip("[]").split(",")) if ours else ()
    result = _compile([f"-e {REPO}{ours}", *_our_newest(extras),
                       *(f"{name}=={version}" for name, version in versions.items())], tmp_path)
    stack = " + ".join(f"{name} {version}" for name, version in versions.items())
    assert result.returncode == 0, (f"text2world{ours} does not install beside {stack}: the conflict is "
                                    f"between {conflict_named(result.stderr)}\n{result.stderr[-3000:]}")


@pytest.mark.slow
@pytest.mark.parametrize("stack", sorted(STACKS))
def test_text2world_installs_beside_each_trainer_stack_at_its_own_versions(stack, tmp_path):
    """``text2world[test]`` with each stack at the versions the stack resolves to alone, as of the
    lock's date; docs/dependencies.md states those versions."""
    versions = _newest_alone(STACKS[stack], tmp_path)
    _beside_us("[test]", versions, tmp_path)
    row = " + ".join(f"{name} {version}" for name, version in versions.items())
    assert row in (REPO / "docs" / "dependencies.md").read_text(), (
        f"docs/dependencies.md does not list the tested combination '{row}' (stack {stack})")


@pytest.mark.slow
def test_pip_install_beside_trl_and_transformers_keeps_their_versions(tmp_path):
    """The training user's ``pip install -e . trl transformers`` (no extra): litellm's range must
    admit the huggingface-hub that current transformers needs (``litellm<1.106.3`` did not)."""
    _beside_us("", _newest_alone(("trl", "transformers"), tmp_path), tmp_path)


@pytest.mark.slow
def test_a_fresh_venv_installs_exactly_the_lock_without_backtracking(tmp_path):
    """CI's own install line, in a new empty venv with plain pip (``--dry-run``: nothing is
    installed): every version comes from the lock, and pip looks at one version of each."""
    import json

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    report = tmp_path / "report.json"
    result = subprocess.run(
        [str(env_dir / "bin" / "python"), "-m", "pip", "install", "--dry-run", "--ignore-installed",
         "--disable-pip-version-check", "--report", str(report), "-c", str(LOCK), "-e",
         f"{REPO}[{','.join(LOCKED_EXTRAS)}]"],
        capture_output=True, text=True, timeout=900, env={**os.environ, "PIP_NO_INPUT": "1"})
    output = result.stdout + result.stderr
    if result.returncode != 0 and "NewConnectionError" in output and not os.environ.get("CI"):
        pytest.skip("no package index reachable")
    assert result.returncode == 0, output[-3000:]
    assert "looking at multiple versions" not in output, [
        line for line in output.splitlines() if "looking at multiple versions" in line]
    pins = lock_pins()
    installed = {canonicalize_name(item["metadata"]["name"]): item["metadata"]["version"]
                 for item in json.loads(report.read_text())["install"]}
    installed.pop("text2world", None)
    moved = {name: (version, pins.get(name)) for name, version in installed.items() if pins.get(name) != version}
    assert moved == {}, f"installed versions that are not the lock's (installed, locked): {moved}"
