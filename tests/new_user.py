"""What a new user's terminal is, for the tests that run commands as one: an offline environment
with an empty ``HOME`` and ``T2W_HOME`` at ``COLUMNS=80``, and the rule that no output line is wider
than 80 characters (a path alone on its line, to copy, excepted)."""

from __future__ import annotations

import os
import re
from pathlib import Path

from repo_paths import REPO

MAX_COLUMNS = 80
# A line that is one path or file name alone (a run's folder on a line of its own, perhaps in
# brackets or followed by the colon of "PATH: what is wrong") may pass 80 columns.
_LONE_PATH = re.compile(r"\(?[\w./~-]+[:;,)]*")


def wide_lines(output: str, width: int = MAX_COLUMNS) -> list[str]:
    """The output's lines wider than ``width`` characters, less those that hold one path alone."""
    return [line for line in output.splitlines()
            if len(line) > width and not _LONE_PATH.fullmatch(line.strip())]


def new_user_environment(home: Path, work: Path) -> dict[str, str]:
    """The environment of a new user on an offline machine (no key, no proxy, litellm's bundled
    cost map, Hugging Face offline), with an empty HOME beside ``home`` (nothing of the
    developer's caches or config), ``T2W_HOME=home``, runs in ``work/runs``, this checkout's code
    importable."""
    dropped = re.compile(r".*(_API_KEY|_TOKEN|_SECRET)$|(?i:.*_proxy)$|CI$|T2W_.*|PYTEST_.*")
    env = {key: value for key, value in os.environ.items() if not dropped.fullmatch(key)}
    user_home = home.parent / "user-home"
    user_home.mkdir(parents=True, exist_ok=True)  # "home" is a fresh folder's child: so is this
    env.update({
        "HOME": str(user_home), "XDG_CACHE_HOME": str(user_home / ".cache"),
        "T2W_HOME": str(home), "T2W_RUNS_DIR": str(work / "runs"), "COLUMNS": str(MAX_COLUMNS),
        "LINES": "50", "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1", "NO_COLOR": "1", "TERM": "dumb",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])),
    })
    return env
