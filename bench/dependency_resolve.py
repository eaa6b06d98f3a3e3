"""What a fresh ``pip install -e .`` resolves to **today**, and whether pip backtracks getting there.

CI installs from the committed lock (``requirements/lock.txt``), so an upstream release cannot
change what it tests; a user's ``pip install -e .`` takes ``pyproject.toml``'s ranges against
today's index. This script measures that path and reports, it never gates (exit 0 whatever it
finds; 2 only for a usage error):

* how long pip took (wall, and CPU-s of pip and its children) in a new, empty venv (``--dry-run``);
* every package pip said it was "looking at multiple versions" of (backtracking);
* every package whose version today differs from the lock's (what moved since the lock's date);
* with ``--with trl --with transformers`` (any packages), the same beside a trainer stack.

    python bench/dependency_resolve.py                       # text2world[test] as a user gets it
    python bench/dependency_resolve.py --extras "" --with trl --with transformers
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

from first_command_bench import machine
from lock_file import LOCK, canonical_name, lock_pins

REPO = Path(__file__).resolve().parent.parent
_BACKTRACK = re.compile(r"looking at multiple versions of ([A-Za-z0-9_.\-\[\]]+)")


def backtracked(pip_output: str) -> list[str]:
    """The packages pip backtracked over, in the order it first said so."""
    return list(dict.fromkeys(canonical_name(name.split("[")[0]) for name in _BACKTRACK.findall(pip_output)))


def resolve(extras: str, packages: list[str], timeout: float) -> dict:
    """A dry-run install in a new venv: the report, pip's output and its cost."""
    with tempfile.TemporaryDirectory(prefix="t2w-resolve-") as folder:
        env_dir = Path(folder) / "venv"
        venv.EnvBuilder(with_pip=True).create(env_dir)
        report = Path(folder) / "report.json"
        target = f"{REPO}[{extras}]" if extras else str(REPO)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.monotonic()
        try:
            result = subprocess.run(
                [str(env_dir / "bin" / "python"), "-m", "pip", "install", "--dry-run", "--ignore-installed",
                 "--disable-pip-version-check", "--report", str(report), "-e", target, *packages],
                capture_output=True, text=True, timeout=timeout, env={**os.environ, "PIP_NO_INPUT": "1"})
            output, code = result.stdout + result.stderr, result.returncode
        except subprocess.TimeoutExpired as error:
            output, code = f"{error.stdout or ''}{error.stderr or ''}\npip: no answer in {timeout:.0f} s", -1
        wall = time.monotonic() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        installed = {}
        if code == 0 and report.is_file():
            installed = {canonical_name(item["metadata"]["name"]): item["metadata"]["version"]
                         for item in json.loads(report.read_text())["install"]}
        return {"code": code, "output": output, "wall": wall, "installed": installed,
                "cpu": (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--extras", default="test", help="our extras to include (comma-separated; '' for none)")
    parser.add_argument("--with", dest="packages", action="append", default=[], metavar="PKG",
                        help="another package to resolve beside us (repeatable), e.g. trl")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds pip may take")
    args = parser.parse_args(argv)
    what = " + ".join([f"text2world[{args.extras}]" if args.extras else "text2world", *args.packages])
    print(f"resolving {what} against today's index, in a new venv (pip --dry-run)")
    print(f"machine: {machine()}; load average {os.getloadavg()[0]:.1f} at start")
    outcome = resolve(args.extras, args.packages, args.timeout)
    print(f"pip took {outcome['wall']:.1f}s wall, {outcome['cpu']:.1f} CPU-s (pip and its children)")
    if outcome["code"] != 0:
        tail = [line for line in outcome["output"].splitlines() if line.strip()][-12:]
        print("resolution failed (this reports, it does not gate):")
        print("\n".join(f"  {line[:76]}" for line in tail))
        return 0
    moved = backtracked(outcome["output"])
    print(f"backtracked over {len(moved)} package(s)" + (f": {', '.join(moved)}" if moved else ""))
    pins = lock_pins()
    newer = sorted((name, pins[name], version) for name, version in outcome["installed"].items()
                   if name in pins and pins[name] != version)
    print(f"{len(outcome['installed'])} packages; {len(newer)} differ from the lock "
          f"({LOCK.relative_to(REPO)})")
    for name, locked, today in newer:
        print(f"  {name}: lock {locked}, today {today}")
    for name in args.packages:
        version = outcome["installed"].get(canonical_name(re.split(r"[\[<>=!~ ]", name)[0]))
        if version:
            print(f"  beside us: {name} {version}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
