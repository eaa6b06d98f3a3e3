"""Run every test file alone, each in its own pytest process (a local check; CI runs the suite
once, in random order): a file that passes only after another file has run fails here.

    python tests/run_each_file.py                                 # every file, slow tests skipped
    python tests/run_each_file.py --slow                          # slow tests too
    python tests/run_each_file.py test_wm.py tasks/generation/test_eval.py --seed 7 --timeout 300
    python tests/run_each_file.py tests/store                     # every file under a folder

A file is named by its path (from the repository root, from tests/ or from the current folder)
or by its bare name (basenames are unique under tests/); a folder stands for every test file
under it. Run it from the repository root (PYTHONPATH set to it when the package is installed
from another checkout). Prints one line per file (its path under tests/: passed / failed /
timed out, seconds) and exits non-zero when any file failed.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def test_files(folder: Path) -> list[Path]:
    """Every test file under ``folder``, in the order of their paths."""
    return sorted(folder.rglob("test_*.py"), key=lambda path: path.relative_to(TESTS).as_posix())


def find(name: str) -> list[Path]:
    """The test files ``name`` stands for: a path from the repository root, from tests/ or from
    the current folder (a file, or a folder: every test file under it), else a bare file name
    looked up under tests/ (basenames are unique there). Empty when nothing matches."""
    for base in (Path.cwd(), TESTS.parent, TESTS):
        candidate = (base / name).resolve()
        if candidate.is_dir() and candidate.is_relative_to(TESTS):
            return test_files(candidate)
        if candidate.is_file() and candidate.is_relative_to(TESTS) and candidate.suffix == ".py":
            return [candidate]
    if "/" not in name:
        return sorted(TESTS.rglob(name))
    return []


def run_file(path: Path, *, slow: bool, seed: int | None, timeout: float) -> tuple[str, float, str]:
    """(outcome, seconds, the last lines of pytest's output) of one file run alone."""
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(path)]
    if not slow:
        command += ["-m", "not slow"]
    if seed is not None:
        command += ["-p", "randomly", f"--randomly-seed={seed}"]
    started = time.monotonic()
    try:
        done = subprocess.run(command, cwd=TESTS.parent, capture_output=True, text=True,
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timed out", time.monotonic() - started, ""
    tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
    # 5: every test deselected (a file of slow tests only, without --slow)
    outcome = "passed" if done.returncode in (0, 5) else f"failed (exit {done.returncode})"
    return outcome, time.monotonic() - started, tail


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="*",
                        help="test files or folders (paths, or names under tests/; default: all)")
    parser.add_argument("--slow", action="store_true", help="run the slow tests too")
    parser.add_argument("--seed", type=int, default=None, help="pytest-randomly's seed")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per file (600)")
    args = parser.parse_args(argv)
    if args.files:
        found = [(name, find(name)) for name in args.files]
        missing = [name for name, paths in found if not paths]
        if missing:
            parser.error(f"no such test file under {TESTS}: {', '.join(missing)}")
        files = list(dict.fromkeys(path for _, paths in found for path in paths))
    else:
        files = test_files(TESTS)
    failed = []
    for path in files:
        outcome, seconds, tail = run_file(path, slow=args.slow, seed=args.seed,
                                          timeout=args.timeout)
        name = path.relative_to(TESTS).as_posix()
        print(f"{name}: {outcome} ({seconds:.0f} s)", flush=True)
        if outcome != "passed":
            failed.append(name)
            if tail:
                print("    " + tail.replace("\n", "\n    "), flush=True)
    print(f"{len(files) - len(failed)} of {len(files)} files pass alone"
          + (f"; failed: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
