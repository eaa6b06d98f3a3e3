"""The one bounded reader for every file a user names (domains, answers, problems, templates).

A size check alone is not a bound: a device (``/dev/zero``) reports size 0 and reads forever,
and a FIFO with no writer blocks ``open``. Here the path must be a regular file (checked before
it is opened, so a device is never opened, and again on the open descriptor), it is opened
without blocking, and at most ``limit + 1`` bytes are read whatever the size says.

Also the package's folders (``data_dir``: the built-in store; ``home_dir``: ``$T2W_HOME``) and
``atomic_write_text``, used by every layer that keeps files (caches, the store, runs).
"""

from __future__ import annotations

import json
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path

from text2world.errors import Text2WorldError

MAX_INPUT_FILE_BYTES = 4 * 1024 * 1024  # one domain, answer or problem file


class InputFileError(Text2WorldError, ValueError):
    """A named input file cannot be read: missing, a folder, not a regular file, too large."""


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        return "is a FIFO (named pipe), not a regular file; pass its text on standard input with '-'"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


def read_input_bytes(path: str | os.PathLike, what: str = "file",
                     limit: int = MAX_INPUT_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path``; ``InputFileError`` (naming ``what`` and the path)
    for anything else or for more than ``limit`` bytes. Never blocks on a FIFO or reads a device."""
    name = f"{what} {path}"
    try:
        mode = os.stat(path).st_mode
        if not stat.S_ISREG(mode):
            raise InputFileError(f"{name}: {_kind(mode)}")
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputFileError(f"{name}: no such file") from None
    except OSError as err:
        raise InputFileError(f"{name}: cannot be read ({err.strerror})") from None
    with os.fdopen(fd, "rb") as handle:
        try:
            mode = os.fstat(fd).st_mode  # the path may have been swapped since the check
            if not stat.S_ISREG(mode):
                raise InputFileError(f"{name}: {_kind(mode)}")
            data = handle.read(limit + 1)
        except OSError as err:
            raise InputFileError(f"{name}: cannot be read ({err.strerror})") from None
    if len(data) > limit:
        raise InputFileError(f"{name} is larger than {limit:,} bytes: too large for this input")
    return data


def read_input_text(path: str | os.PathLike, what: str = "file",
                    limit: int = MAX_INPUT_FILE_BYTES) -> str:
    """``read_input_bytes`` decoded as UTF-8 (a clear error when it is not)."""
    data = read_input_bytes(path, what, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputFileError(f"{what} {Path(path)}: not UTF-8 text (byte {err.start:,})") from None


# --------------------------------------------------------------------------------------------
# The package's folders, and writing a file whole


def data_dir() -> Path:
    """The built-in store: ``$T2W_DATA_DIR`` or the repository's ``data/`` folder."""
    configured = os.environ.get("T2W_DATA_DIR")
    return Path(configured) if configured else Path(__file__).resolve().parents[1] / "data"


def home_dir() -> Path:
    configured = os.environ.get("T2W_HOME")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "text2world"


def atomic_write_text(path: Path, text: str, durable: bool = True) -> None:
    """Write through a temporary file and rename, so readers never see half a file.
    ``durable``: on disk before the rename (fsync); a cache entry that a crash may empty
    (its reader takes an unreadable entry for a miss) can skip it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


_WRITES: dict[str, int] = {}  # writes of this process per store folder (when to prune)


class JsonFileStore:
    """JSON objects on disk, one file per hex key (``root/<2 hex>/<key>.json``): the store under
    the planner's and the scores' caches. Writes are atomic; an unreadable entry reads as a
    miss, and a write that fails (a full disk, a read-only home) only costs the cache.

    Bounded in bytes (``max_bytes``; None: unbounded): every ``PRUNE_EVERY`` writes of a process
    the folder is measured and, past the bound, the entries used longest ago (a hit refreshes
    an entry's time) are removed until three quarters of it are left. Entries no key reaches
    any more (a changed scorer's, another planner version's) are never read again, so they go
    first."""

    durable = True  # fsync each entry (False: a crash may lose an entry, which is a miss)
    touch_on_hit = False  # refresh an entry's time when it is read (what pruning keeps)
    PRUNE_EVERY = 256

    def __init__(self, root: Path, max_bytes: int | None = None) -> None:
        self.root = root
        self.max_bytes = max_bytes

    def path(self, key: str) -> Path:
        return self.root / key[:2] / f"{key}.json"

    def read(self, key: str) -> dict | None:
        path = self.path(key)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if not isinstance(data, dict):
            return None
        if self.touch_on_hit:
            try:
                os.utime(path)
            except OSError:
                pass
        return data

    def write(self, key: str, text: str) -> None:
        try:
            atomic_write_text(self.path(key), text, durable=self.durable)
        except OSError:
            return
        # counted per folder in this process: callers open a store per use
        writes = _WRITES[str(self.root)] = _WRITES.get(str(self.root), 0) + 1
        if self.max_bytes is not None and writes % self.PRUNE_EVERY == 0:
            self.prune(self.max_bytes)

    def entries(self) -> list[tuple[Path, int, float]]:
        """(path, bytes, time of last use) of every entry."""
        found = []
        try:
            folders = [f for f in os.scandir(self.root) if len(f.name) == 2 and f.is_dir()]
        except OSError:
            return []
        for folder in folders:
            try:
                files = list(os.scandir(folder.path))
            except OSError:
                continue
            for entry in files:
                if entry.name.endswith(".json") and not entry.name.startswith("."):
                    try:
                        info = entry.stat()
                    except OSError:
                        continue
                    found.append((Path(entry.path), info.st_size, info.st_mtime))
        return found

    def stats(self) -> dict:
        """{"path", "entries", "bytes", "max_bytes"}."""
        entries = self.entries()
        return {"path": str(self.root), "entries": len(entries),
                "bytes": sum(size for _, size, _ in entries), "max_bytes": self.max_bytes}

    def prune(self, max_bytes: int) -> int:
        """Past ``max_bytes``, remove the entries used longest ago until three quarters of it
        are left; the number removed."""
        entries = self.entries()
        total = sum(size for _, size, _ in entries)
        if total <= max_bytes:
            return 0
        removed = 0
        for path, size, _ in sorted(entries, key=lambda e: (e[2], str(e[0]))):
            if total <= max_bytes * 3 // 4:
                break
            try:
                path.unlink()
            except OSError:
                continue
            total -= size
            removed += 1
        return removed

    def clear(self) -> int:
        """Remove every entry; the number removed."""
        removed = 0
        for path, _, _ in self.entries():
            try:
                path.unlink()
                removed += 1
            except OSError:
                pass
        return removed


def disk_cache_bytes(variable: str, default: int,
                     environ: Mapping[str, str] | None = None) -> int | None:
    """A disk cache's bound from the environment variable ``variable`` (bytes; 0: unbounded),
    else ``default``. A value that is not a whole number is an error naming the variable."""
    raw = (os.environ if environ is None else environ).get(variable, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise CacheSettingError(f"{variable}={raw!r}: expected a whole number of bytes "
                                "(0: no bound)") from None
    if value < 0:
        raise CacheSettingError(f"{variable}={raw!r}: expected a whole number of bytes >= 0")
    return value or None


class CacheSettingError(Text2WorldError, ValueError):
    """A cache's bound in the environment is not a number of bytes."""


DISK_CACHE_VARIABLES = ("T2W_PLAN_CACHE_BYTES", "T2W_SCORE_CACHE_BYTES")


def check_cache_settings(environ: Mapping[str, str] | None = None) -> None:
    """Raise ``CacheSettingError`` for a disk cache bound in the environment that is not a
    number of bytes: checked where a command starts, not where a cache is first opened."""
    for variable in DISK_CACHE_VARIABLES:
        disk_cache_bytes(variable, 0, environ)


def drop_torn_tail(path: Path) -> int:
    """A writer killed mid-line leaves an unfinished last line: cut it before appending.
    Returns the bytes dropped."""
    if not path.is_file():
        return 0
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with path.open("r+b") as stream:
            stream.truncate(cut)
            stream.flush()
            os.fsync(stream.fileno())
        return len(data) - cut
    return 0


__all__ = ["MAX_INPUT_FILE_BYTES", "CacheSettingError", "InputFileError", "JsonFileStore",
           "check_cache_settings", "disk_cache_bytes", "atomic_write_text", "data_dir", "drop_torn_tail",
           "home_dir",
           "read_input_bytes", "read_input_text"]
