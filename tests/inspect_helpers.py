"""Running the ``inspect`` command on this checkout in a subprocess (``inspect eval
text2world/...``), as a user does, whether or not the installed text2world is this checkout."""

from __future__ import annotations

import json
import os
from pathlib import Path

from repo_paths import REPO


def inspect_env(tmp_path: Path) -> dict[str, str]:
    """The environment for ``python -m inspect_ai`` to find this checkout's tasks.

    Only a checkout that is not the installed one goes on the path: a checkout's own
    text2world.egg-info (no direct_url.json) would hide the installed distribution, and
    Inspect names an extension's tasks after its installed package."""
    paths = [] if _installed_from_here() else [str(REPO)]
    paths.append(_entry_point_path(tmp_path))
    return {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in paths if p)}


def _entry_point_path(tmp_path: Path) -> str:
    """The installed text2world may predate the entry point: declare it as pyproject does."""
    from importlib.metadata import entry_points

    if any(ep.value == "text2world.integrations.inspect_tasks"
           for ep in entry_points(group="inspect_ai")):
        return ""
    dist = tmp_path / "ep" / "text2world_inspect_entry-0.0.0.dist-info"
    dist.mkdir(parents=True, exist_ok=True)
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: text2world-inspect-entry\n"
                                   "Version: 0.0.0\n")
    (dist / "entry_points.txt").write_text(
        "[inspect_ai]\ntext2world = text2world.integrations.inspect_tasks\n")
    return str(tmp_path / "ep")


def _installed_from_here() -> bool:
    from importlib.metadata import PackageNotFoundError, distribution

    try:
        direct = json.loads(distribution("text2world").read_text("direct_url.json") or "{}")
    except (PackageNotFoundError, ValueError):
        return False
    url = direct.get("url") or ""
    return url.startswith("file://") and Path(url.removeprefix("file://")).resolve() == REPO
