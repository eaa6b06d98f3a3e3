"""What every reader of runs prints, of the same runs of every kind: to check that a change to
how runs are read (the run store, the kinds' descriptors) changes no output, byte for byte.

    python bench/kinds_snapshot.py make DIR       # small offline runs of every kind in DIR/runs
    python bench/kinds_snapshot.py outputs DIR OUT # t2w report/compare/view --bundle of them
    python bench/kinds_snapshot.py diff OUT1 OUT2  # the outputs that differ (exit 1 if any)

``make`` once (runs carry time stamps), then ``outputs`` before and after the change on the
same runs (before: ``PYTHONPATH=<a checkout of the base commit>``), and ``diff`` the two
folders. The legacy fixtures (tests/fixtures/runs) are copied in too: runs written by older
versions of the run format.
"""

from __future__ import annotations

import filecmp
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

# (run id, t2w arguments): small offline runs of every kind, two of each compared kind.
RUNS = (
    ("gen-noisy", ["eval", "--model", "reference/noisy-oracle", "--limit", "5", "--ec", "2",
                   "--epochs", "2"]),
    ("gen-oracle", ["eval", "--model", "reference/oracle", "--limit", "5", "--ec", "2",
                    "--epochs", "2"]),
    ("wm-oracle", ["wm", "next-state", "--model", "reference/oracle", "--limit-domains", "2"]),
    ("wm-noisy", ["wm", "next-state", "--model", "reference/noisy-oracle", "--limit-domains",
                  "2"]),
    ("probe-oracle", ["contamination", "--model", "reference/oracle", "--limit", "4"]),
    ("probe-noisy", ["contamination", "--model", "reference/noisy-oracle", "--limit", "4"]),
    ("judge-random", ["judge", "RUNS/gen-noisy", "--model", "reference/judge-random"]),
    ("judge-oracle", ["judge", "RUNS/gen-noisy", "--model", "reference/judge-oracle"]),
)

# (output file, t2w arguments): what is compared.
OUTPUTS = (
    ("report-gen-noisy.txt", ["report", "RUNS/gen-noisy", "--out", "OUT/r1"]),
    ("report-gen-noisy.json", ["report", "RUNS/gen-noisy", "--json", "--out", "OUT/r2"]),
    ("report-gen-both.md", ["report", "RUNS/gen-noisy", "RUNS/gen-oracle", "--markdown",
                            "--out", "OUT/r3"]),
    ("report-gen-canonical.json", ["report", "RUNS/gen-noisy", "--mode", "canonical", "--json",
                                   "--out", "OUT/r4"]),
    ("report-wm.txt", ["report", "RUNS/wm-oracle", "RUNS/wm-noisy", "--out", "OUT/r5"]),
    ("report-wm.json", ["report", "RUNS/wm-oracle", "--json", "--out", "OUT/r6"]),
    ("report-probe.txt", ["report", "RUNS/probe-noisy", "--out", "OUT/r7"]),
    ("report-judge.txt", ["report", "RUNS/judge-random", "--out", "OUT/r8"]),
    ("report-legacy-eval.txt", ["report", "RUNS/legacy-eval", "--out", "OUT/r9"]),
    ("report-legacy-wm.txt", ["report", "RUNS/legacy-wm", "--out", "OUT/r10"]),
    ("compare-gen.txt", ["compare", "RUNS/gen-oracle", "RUNS/gen-noisy"]),
    ("compare-gen.json", ["compare", "RUNS/gen-oracle", "RUNS/gen-noisy", "--json"]),
    ("compare-wm.txt", ["compare", "RUNS/wm-oracle", "RUNS/wm-noisy"]),
    ("compare-wm.json", ["compare", "RUNS/wm-oracle", "RUNS/wm-noisy", "--json"]),
    ("compare-probe.txt", ["compare", "RUNS/probe-oracle", "RUNS/probe-noisy"]),
    ("compare-judge.txt", ["compare", "RUNS/judge-oracle", "RUNS/judge-random"]),
    ("compare-mixed.txt", ["compare", "RUNS/gen-oracle", "RUNS/wm-noisy"]),
    ("export.txt", ["export-trajectories", "RUNS/gen-noisy", "RUNS/wm-noisy",
                    "RUNS/probe-noisy", "RUNS/judge-random", "--out", "OUT/export.jsonl"]),
    ("report-family.txt", ["report", "RUNS/gen-noisy", "--by", "family"]),
    ("report-against.txt", ["report", "RUNS/gen-noisy", "--against", "paper"]),
    ("report-mixed.txt", ["report", "RUNS/gen-noisy", "RUNS/wm-noisy"]),
    ("bundle.txt", ["view", "RUNS", "--bundle", "OUT/bundle"]),
)


def t2w(args: list[str], runs: Path, out: Path | None = None) -> subprocess.CompletedProcess:
    home = runs.parent / "home"
    env = {**os.environ, "T2W_HOME": str(home), "T2W_RUNS_DIR": str(runs), "COLUMNS": "100",
           "NO_COLOR": "1"}
    args = [a.replace("RUNS", str(runs)).replace("OUT", str(out or "")) for a in args]
    return subprocess.run([str(Path(sys.executable).parent / "t2w"), *args], env=env,
                          capture_output=True, text=True, cwd=runs.parent)


def make(folder: Path) -> None:
    runs = folder / "runs"
    runs.mkdir(parents=True, exist_ok=True)
    for run_id, args in RUNS:
        done = t2w([*args, "--run-id", run_id, "--quiet"], runs)
        print(f"{run_id}: exit {done.returncode}")
        if done.returncode:
            print(done.stdout[-2000:], done.stderr[-2000:])
    for fixture in (REPO / "tests" / "fixtures" / "runs").iterdir():
        shutil.copytree(fixture, runs / fixture.name, dirs_exist_ok=True)


def outputs(folder: Path, out: Path) -> None:
    runs = folder / "runs"
    out.mkdir(parents=True, exist_ok=True)
    for name, args in OUTPUTS:
        done = t2w(args, runs, out)
        text = f"exit {done.returncode}\n--- stdout\n{done.stdout}--- stderr\n{done.stderr}"
        (out / name).write_text(text.replace(str(out), "OUT").replace(str(folder), "DIR"))
        print(f"{name}: exit {done.returncode}")


def _normal(path: Path) -> str:
    text = re.sub(r"/[^\"\s]*/text2world/", "REPO/text2world/", path.read_text())
    if path.suffix == ".svg":
        text = re.sub(r"<dc:date>[^<]*</dc:date>", "", text)
        text = re.sub(r"\b(p|m|image)[0-9a-f]{8,}\b", "ID", text)
    return text


def diff(first: Path, second: Path) -> int:
    different = []

    def walk(cmp: filecmp.dircmp) -> None:
        different.extend(str(Path(cmp.left, name).relative_to(first))
                         for name in cmp.diff_files + cmp.left_only + cmp.right_only)
        for sub in cmp.subdirs.values():
            walk(sub)

    walk(filecmp.dircmp(first, second, ignore=[]))
    # figures carry their time of drawing and random ids, pages the checkout's path: compared
    # without them
    different = [name for name in different if not (first / name).is_file()
                 or not (second / name).is_file()
                 or _normal(first / name) != _normal(second / name)]
    files = sum(1 for path in first.rglob("*") if path.is_file())
    print(f"{files} files compared; {len(different)} differ" + "".join(
        f"\n  {name}" for name in sorted(different)))
    return 1 if different else 0


if __name__ == "__main__":
    command, *paths = sys.argv[1:]
    if command == "make":
        make(Path(paths[0]).resolve())
    elif command == "outputs":
        outputs(Path(paths[0]).resolve(), Path(paths[1]).resolve())
    elif command == "diff":
        sys.exit(diff(Path(paths[0]), Path(paths[1])))
    else:
        sys.exit(__doc__)
