"""A folder of "generated worlds" in the store's own layout, as ``t2w worlds generate`` writes
one (domains/, descriptions/, problems/, manifest.json whose entries carry a ``family``),
made from store domains renamed into three families, so the tests of everything that takes a
dataset do not depend on the generator; and ``t2w``, the CLI in a subprocess."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from repo_paths import REPO

# generated id -> (store domain it copies, family): small domains, quick to simulate
WORLDS = {
    "transport-01": ("drone-delivery", "transport"),
    "transport-02": ("bus-routing", "transport"),
    "keys-doors-01": ("grid-keys", "keys-doors"),
    "keys-doors-02": ("switch-doors", "keys-doors"),
    "sorting-01": ("dual-arm-sorting", "sorting"),
    "sorting-02": ("recycling-sorting", "sorting"),
}
FAMILIES = ("keys-doors", "sorting", "transport")


def make_generated_folder(dest: Path, worlds: dict[str, tuple[str, str]] = WORLDS,
                          shipped: bool = False) -> Path:
    """``dest`` as a generated worlds folder (ids that are not the store's, each entry with
    its family); ``shipped``: with the store's plans and answer keys of each world, under the
    world's id, as a generator ships its own. Returns it."""
    store = REPO / "data"
    entries = {e["id"]: e for e in json.loads((store / "manifest.json").read_text())["domains"]}
    manifest = []
    for new, (old, family) in worlds.items():
        (dest / "domains").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(store / "domains" / f"{old}.pddl", dest / "domains" / f"{new}.pddl")
        shutil.copytree(store / "descriptions" / old, dest / "descriptions" / new)
        shutil.copytree(store / "problems" / old, dest / "problems" / new)
        for folder in ("plans", "plans/generated", "keys", "keys/generated") if shipped else ():
            if (store / folder / f"{old}.json").is_file():
                (dest / folder).mkdir(parents=True, exist_ok=True)
                shutil.copyfile(store / folder / f"{old}.json", dest / folder / f"{new}.json")
        manifest.append({**entries[old], "id": new, "family": family,
                         "provenance": f"test fixture: store domain {old}"})
    (dest / "manifest.json").write_text(json.dumps({"version": 1, "domains": manifest},
                                                   indent=2) + "\n")
    return dest


def t2w(*args: str, cwd: Path | None = None, home: Path | None = None, timeout: float = 300,
        columns: int = 80) -> subprocess.CompletedProcess:
    """``t2w ARGS`` in a fresh process, ``columns`` wide; ``home``: its T2W_HOME (a module's
    fixture has not the test's yet), its runs folder ``home/runs``."""
    env = {**os.environ, "COLUMNS": str(columns), "TERM": "dumb"}
    if home is not None:
        env.update(T2W_HOME=str(home), T2W_RUNS_DIR=str(home / "runs"))
    return subprocess.run([sys.executable, "-m", "text2world.cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)
