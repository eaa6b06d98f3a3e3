"""Reading runs of every kind and format version, without failing on a damaged one: what the
viewer, ``t2w report``, the API and ``t2w score-run`` use (the formats: ``run_store``).

* ``open_run(path) -> Run``: one run folder; ``RunError`` says why it cannot be opened.
* ``list_runs(runs_dir) -> list[RunInfo]``: every run folder, by name, symlinked ones
  followed (``confined``: only inside the runs folder, as a server must); damaged or unknown
  runs are listed with ``problems`` and ``error``.
* ``find_run(runs_dir, run_id) -> RunInfo | None``: one of them by its id.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from text2world.engine.run_store import (
    CONFIG_FILE,
    ERRORS_FILE,
    LOG_FILE,
    PAID_FILE,
    SCORES_FILE,
    SENT_FILE,
    SUMMARY_FILE,
    Run,
    RunConfig,
    RunError,
    check_config,
    kind_names,
    kind_of,
    run_kind,
    run_version,
)


def open_run(path: Path | str) -> Run:
    """A run folder of any kind and format version; ``RunError`` says why it cannot be read."""
    run = Run.open(Path(path))
    try:
        run_kind(run.config)
    except RunError as err:
        raise RunError(f"{path}: {err}") from None
    return run


RUN_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$")  # what a run id may look like
MAX_RECORD_FILE = 16 * 1024 * 1024  # bytes of config.json / summary.json a reader will read


@dataclass
class RunInfo:
    """One folder of a runs directory, as ``list_runs`` finds it, read without failing:
    ``config`` and ``summary`` are None when missing or damaged, and ``problems`` says why;
    ``run`` is the opened run (None when its config cannot be read), ``kind`` its task."""

    path: Path
    run_id: str
    config: dict[str, Any] | None  # any JSON object: read without checking its keys
    summary: Any  # any JSON value (a run's summary when it is one)
    problems: list[str]
    modified: float

    @property
    def run(self) -> Run | None:
        return Run(self.path, cast(RunConfig, self.config)) if isinstance(self.config, dict) else None

    @property
    def kind(self) -> str | None:
        return kind_of(self.config) if isinstance(self.config, dict) else None

    @property
    def version(self) -> int | None:
        return run_version(self.config) if isinstance(self.config, dict) else None

    @property
    def finished(self) -> bool:
        """summary.json exists and is readable."""
        return self.summary is not None

    @property
    def error(self) -> str | None:
        """Why the run cannot be opened, or None."""
        if self.run is not None:
            return None if self.kind in kind_names() else f"a run of unknown kind {self.kind!r}"
        return "; ".join(self.problems) or f"no {CONFIG_FILE}"

    def logged_items(self) -> int | None:
        """Lines in log.jsonl, or None (with a problem noted) when it cannot be read."""
        log = self.path / LOG_FILE
        try:
            if not log.is_file():
                return None
            with log.open("rb") as stream:
                return sum(1 for line in stream if line.strip())
        except (OSError, RuntimeError) as err:
            self.problems.append(f"{LOG_FILE} cannot be read ({err})")
            return None


def read_run_info(folder: Path, root: Path | None = None) -> RunInfo:
    """A run folder read without failing (``RunInfo``); with ``root``, files that resolve
    outside it are not read."""
    problems: list[str] = []
    config = read_record_file(folder / CONFIG_FILE, problems, root)
    summary = read_record_file(folder / SUMMARY_FILE, problems, root)
    modified = 0.0
    for name in (CONFIG_FILE, LOG_FILE, SUMMARY_FILE):
        try:
            modified = max(modified, (folder / name).stat().st_mtime)
        except (OSError, RuntimeError):
            pass
    if config is not None and not isinstance(config, dict):
        problems.append(f"{CONFIG_FILE} is not a JSON object")
        config = None
    if config is not None:
        try:  # checked and migrated as ``Run.open`` does; named as the listing names files
            config = check_config(config, Path(CONFIG_FILE))
        except RunError as err:
            problems.append(str(err))
            config = None
    if root is not None:
        escaped = [name for name in RUN_DATA_FILES if _outside(folder / name, root)]
        if escaped:  # refused like a config or summary that points out: the run cannot be opened
            problems.extend(f"{name} points outside the runs directory" for name in escaped)
            config = None
    return RunInfo(folder, folder.name, config, summary, problems, modified)


# The append-only files a run's pages read (config and summary go through read_record_file).
RUN_DATA_FILES = (LOG_FILE, SCORES_FILE, ERRORS_FILE, PAID_FILE, SENT_FILE)


def _outside(path: Path, root: Path) -> bool:
    """Whether ``path`` exists (a dangling link counts) and resolves outside ``root``."""
    try:
        return (path.is_symlink() or path.exists()) and not path.resolve().is_relative_to(root)
    except (OSError, RuntimeError):  # a symlink loop: not something to read
        return True


def read_record_file(path: Path, problems: list[str], root: Path | None = None) -> Any:
    """A JSON record file (config or summary), or None with the reason in ``problems``:
    missing, outside ``root``, not a file, too large, unreadable or not JSON. NaN and
    infinities (which Python writes into JSON) come back as None."""
    name = path.name
    try:
        if not path.exists():
            problems.append(f"{name} is missing")
            return None
        if root is not None and not path.resolve().is_relative_to(root):
            problems.append(f"{name} points outside the runs directory")
            return None
        if not path.is_file():
            problems.append(f"{name} is not a file")
            return None
        if path.stat().st_size > MAX_RECORD_FILE:
            problems.append(f"{name} is larger than {MAX_RECORD_FILE:,} bytes")
            return None
        text = path.read_text(encoding="utf-8")
    except (OSError, RuntimeError, UnicodeDecodeError) as err:  # RuntimeError: symlink loop
        problems.append(f"{name} cannot be read ({err})")
        return None
    try:
        return json.loads(text, parse_constant=lambda constant: None, parse_float=_finite)
    except (ValueError, RecursionError) as err:
        # A summary being rewritten is replaced atomically, so this is a damaged file.
        problems.append(f"{name} is not valid JSON ({err})")
        return None


def _finite(text: str) -> float | None:
    value = float(text)
    return value if value not in (float("inf"), float("-inf")) else None


def is_run_folder(entry: Path, root: Path | None = None) -> bool:
    """A folder with a run id for a name holding run records (config, summary or log); with
    ``root``, it must resolve inside it (a symlink out of the runs folder is not followed)."""
    try:
        return (bool(RUN_NAME.match(entry.name)) and ".." not in entry.name
                and entry.is_dir()
                and (root is None or entry.resolve().is_relative_to(root))
                and any((entry / name).exists()
                        for name in (CONFIG_FILE, SUMMARY_FILE, LOG_FILE)))
    except (OSError, RuntimeError):  # unreadable entry or symlink loop: not a run
        return False


def list_runs(root: Path | str, confined: bool = False) -> list[RunInfo]:
    """Every run folder under ``root``, by name; symlinked run folders are followed (with
    ``confined``, only those that resolve inside ``root``: what a server shows). Never raises
    for a run: a damaged or unknown one is listed with its ``problems``/``error``. A root
    that cannot be read raises ``RunError``; one that does not exist lists nothing."""
    root = Path(root)
    try:
        if not root.is_dir():
            return []
        resolved = root.resolve()
        entries = sorted(root.iterdir(), key=lambda p: p.name)
    except (OSError, RuntimeError) as err:
        raise RunError(f"the runs directory {root} cannot be read ({err})") from None
    return [read_run_info(entry, resolved if confined else None) for entry in entries
            if is_run_folder(entry, resolved if confined else None)]


def find_run(root: Path | str, run_id: str, confined: bool = True) -> RunInfo | None:
    """The run ``run_id`` of ``root`` (a plain run id, nothing else), or None."""
    root = Path(root)
    if not RUN_NAME.match(run_id) or ".." in run_id:
        return None
    entry = root / run_id
    try:
        resolved = root.resolve()
    except (OSError, RuntimeError):
        return None
    if not is_run_folder(entry, resolved if confined else None):
        return None
    return read_run_info(entry, resolved if confined else None)
