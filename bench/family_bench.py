"""The generalization report on the reference models (the figures of docs/generalization.md).

Runs ``t2w eval`` with ``reference/oracle`` and ``reference/noisy-oracle`` (EC_0, semantic
scoring on) on a folder of worlds labelled by family, in a fresh ``T2W_HOME``, and prints
``t2w report RUN --by family --held-out ...`` for both and ``t2w compare --by family --json``'s
held-out and in-family rows, with the CPU of each command.

``--worlds DIR``: a folder ``t2w worlds generate`` wrote. Without it, a stand-in: the store's
test domains copied into a folder of the store's layout, each with its manifest ``category``
as its family (``tests/generated_worlds.py`` builds it), so the report runs before any
generator does.

    python bench/family_bench.py [--worlds DIR] [--held-out puzzle,game]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))


def _stand_in(dest: Path) -> Path:
    from generated_worlds import make_generated_folder

    entries = json.loads((REPO / "data" / "manifest.json").read_text())["domains"]
    return make_generated_folder(dest, {e["id"]: (e["id"], e["category"]) for e in entries
                                        if e["split"] == "test"})


def _t2w(home: Path, *args: str) -> tuple[str, float]:
    """Output and CPU seconds (children included) of ``t2w ARGS``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "text2world.cli", *args], capture_output=True,
                          text=True, env={**os.environ, "T2W_HOME": str(home),
                                          "T2W_RUNS_DIR": str(home / "runs"), "COLUMNS": "80"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        sys.exit(f"t2w {' '.join(args)} failed:\n{done.stderr}")
    return done.stdout, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--worlds", type=Path, help="a generated worlds folder (default: the "
                        "store's test domains, family = category)")
    parser.add_argument("--held-out", default="puzzle,game",
                        help="families held out (default: puzzle,game, of the stand-in)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "home"
        worlds = args.worlds.resolve() if args.worlds else _stand_in(Path(tmp) / "worlds")
        print(f"worlds: {'generated folder ' + str(worlds) if args.worlds else 'stand-in'}")
        runs = {}
        for run_id, model in (("oracle", "reference/oracle"),
                              ("noisy", "reference/noisy-oracle")):
            _, cpu = _t2w(home, "eval", "--model", model, "--dataset", str(worlds), "--ec", "0",
                          "--quiet", "--run-id", run_id)
            runs[run_id] = home / "runs" / run_id
            print(f"t2w eval --model {model} --ec 0: {cpu:.1f} CPU-s")
        for run_id, path in runs.items():
            text, cpu = _t2w(home, "report", str(path), "--by", "family", "--held-out",
                             args.held_out)
            print(text, end="")
            print(f"(t2w report {run_id} --by family: {cpu:.1f} CPU-s)\n")
        data = json.loads(_t2w(home, "compare", str(runs["oracle"]), str(runs["noisy"]),
                               "--by", "family", "--held-out", args.held_out, "--json")[0])
        print("t2w compare oracle noisy --by family: B - A [95% interval], points")
        for row in data["families"]:
            if row["family"] in ("in-family", "held-out"):
                for metric, cell in row["metrics"].items():
                    diff = cell["difference"]
                    print(f"  {row['family']:9} {metric:16} {100 * diff['mean']:+.1f} "
                          f"[{100 * diff['low']:+.1f}, {100 * diff['high']:+.1f}] "
                          f"({row['items']} items)")


if __name__ == "__main__":
    main()
