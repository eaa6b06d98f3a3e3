"""The one bounded reader for every file a user names (domains, answers, problems, templates).

A size check alone is not a bound: a device (``/dev/zero``) reports size 0 and reads forever,
and a FIFO with no writer blocks ``open``. Here the path must be a regular file (checked before
it is opened, so a device is never opened, and again on the open descriptor), it is opened
without blocking, and at most ``limit + 1`` bytes are read whatever the size says.

Also the package's folders (``data_dir``: the built-in store; ``home_dir``: ``$T2W_HOME``) and
``atomic_write_text``, used by every layer that keeps files (caches, the store, runs).
"""

from __future__ import annotations

import errno
import json
import os
import stat
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

from text2world.errors import Text2WorldError

MAX_INPUT_FILE_BYTES = 4 * 1024 * 1024  # one domain, answer or problem file
MAX_CACHE_ENTRY_BYTES = 64 * 1024 * 1024  # one entry of a disk cache (a miss past it)


class InputFileError(Text2WorldError, ValueError):
    """A named input file cannot be read: missing, a folder, not a regular file, too large."""


class OutputFileError(Text2WorldError, OSError):
    """A named output cannot be written: a folder, a device, a FIFO, a full disk. An
    ``OSError`` too, so that callers for which a failed write only costs a cache still
    catch it as one."""


def _kind(mode: int, stdin_hint: bool = True) -> str:
    if stat.S_ISDIR(mode):
        return "is a folder, not a file"
    if stat.S_ISFIFO(mode):
        hint = "; pass its text on standard input with '-'" if stdin_hint else ""
        return f"is a FIFO (named pipe), not a regular file{hint}"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "is a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "is a socket, not a regular file"
    return "is not a regular file"


_WRITE_ERRORS = {errno.ENOSPC: "the disk is full", errno.EDQUOT: "the disk quota is exhausted",
                 errno.EFBIG: "the file is larger than this process may write (file size limit)",
                 errno.EROFS: "the file system is read-only", errno.EACCES: "permission denied",
                 errno.EPERM: "permission denied"}


def write_error(path: str | os.PathLike, what: str, err: OSError) -> OutputFileError:
    """The clear error of a failed write: what, where, and why in words."""
    why = _WRITE_ERRORS.get(err.errno or 0) or err.strerror or str(err)
    return OutputFileError(f"{what} {path}: cannot be written ({why})")


def refuse_special(path: str | os.PathLike, what: str = "file") -> None:
    """``InputFileError`` when ``path`` exists and is neither a regular file nor a folder (a
    device, a FIFO, a socket, or a link to one): checked by ``stat``, which opens nothing."""
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return  # missing (or unnamable): the command's own reader says so
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise InputFileError(f"{what} {path}: {_kind(mode, stdin_hint=False)}".lstrip())


def check_folder(path: str | os.PathLike, what: str = "folder") -> Path:
    """``path`` as a folder that exists; ``InputFileError`` naming it otherwise."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputFileError(f"{what} {path}: no such folder") from None
    except OSError as err:
        raise InputFileError(f"{what} {path}: cannot be read ({err.strerror})") from None
    if not stat.S_ISDIR(mode):
        raise InputFileError(f"{what} {path}: {_not_folder(mode)}")
    return Path(path)


def _not_folder(mode: int) -> str:
    return "is a file, not a folder" if stat.S_ISREG(mode) else _kind(mode, False)


def _output_mode(path: Path, what: str) -> int | None:
    """The mode of an output path, None when there is nothing there yet."""
    try:
        return os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as err:
        raise write_error(path, what, err) from None


def check_output_file(path: str | os.PathLike, what: str = "output") -> Path:
    """``path`` as a file to write: absent or a regular file, in a folder (made if missing).
    ``OutputFileError`` for a folder, a device (``/dev/full``), a FIFO or a socket."""
    path = Path(path)
    mode = _output_mode(path, what)
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputFileError(f"{what} {path}: {_kind(mode, False)}; name a file to write")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OutputFileError(f"{what} {path}: {path.parent} is not a folder") from None
    except OSError as err:
        raise write_error(path, what, err) from None
    return path


def check_output_folder(path: str | os.PathLike, what: str = "output folder") -> Path:
    """``path`` as a folder to write into: made when missing; ``OutputFileError`` when it is
    a file, a device or a FIFO."""
    path = Path(path)
    mode = _output_mode(path, what)
    if mode is not None and not stat.S_ISDIR(mode):
        raise OutputFileError(f"{what} {path}: {_not_folder(mode)}")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise write_error(path, what, err) from None
    return path


def open_input(path: str | os.PathLike, what: str = "file") -> BinaryIO:
    """The one opener of a file a user names: the regular file ``path`` opened for reading
    (binary; the caller bounds what it reads, or streams it line by line); ``InputFileError``
    (naming ``what`` and the path) for anything else. The kind is checked before the open, so
    a device is never opened, and again on the open descriptor; the open does not block, so a
    FIFO never hangs it."""
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
    mode = os.fstat(fd).st_mode  # the path may have been swapped since the check
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise InputFileError(f"{name}: {_kind(mode)}")
    return os.fdopen(fd, "rb")


def read_input_bytes(path: str | os.PathLike, what: str = "file",
                     limit: int = MAX_INPUT_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (``open_input``); ``InputFileError`` for anything
    else or for more than ``limit`` bytes, whatever its size says."""
    name = f"{what} {path}"
    with open_input(path, what) as handle:
        try:
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


def atomic_write_text(path: Path, text: str, durable: bool = True, what: str = "file") -> None:
    """The one writer of a whole file: through a temporary file and a rename, so readers never
    see half a file, and a failed write (a full disk) leaves the old file as it was.
    ``durable``: on disk before the rename (fsync); a cache entry that a crash may empty
    (its reader takes an unreadable entry for a miss) can skip it. ``OutputFileError``
    (naming ``what`` and the path) when the path is not a regular file or the write fails."""
    path = check_output_file(path, what)
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    except OSError as err:
        raise write_error(path, what, err) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            if durable:
                stream.flush()
                os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException as err:
        Path(temporary).unlink(missing_ok=True)
        if isinstance(err, OSError) and not isinstance(err, OutputFileError):
            raise write_error(path, what, err) from None
        raise


class LineAppender:
    """The one appending writer (JSONL that a rerun resumes): opened without blocking, a
    regular file only, each line written whole or not at all. A failed write (a full disk)
    cuts the file back to its last whole line before ``OutputFileError`` is raised, so no
    torn line is left; a writer killed mid-line leaves one that ``drop_torn_tail`` cuts
    when the file is opened again."""

    def __init__(self, path: Path, what: str = "output") -> None:
        self.path, self.what = check_output_file(path, what), what
        flags = (os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
                 | getattr(os, "O_NOCTTY", 0))
        try:
            self.fd = os.open(self.path, flags, 0o666)
        except OSError as err:
            raise write_error(path, what, err) from None
        mode = os.fstat(self.fd).st_mode
        if not stat.S_ISREG(mode):  # swapped since the check
            os.close(self.fd)
            raise OutputFileError(f"{what} {path}: {_kind(mode, False)}")
        drop_torn_tail(self.path)

    def write_lines(self, lines: list[str]) -> None:
        """Append ``lines`` (each without its newline) in one write."""
        data = "".join(line + "\n" for line in lines).encode("utf-8")
        size = os.fstat(self.fd).st_size
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(self.fd, view):]
        except OSError as err:
            try:
                os.ftruncate(self.fd, size)
            except OSError:
                pass  # the rerun cuts the torn line (drop_torn_tail)
            raise write_error(self.path, self.what, err) from None

    def close(self) -> None:
        os.close(self.fd)

    def __enter__(self) -> "LineAppender":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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

    def read(self, key: str) -> dict[str, Any] | None:
        path = self.path(key)
        try:  # an entry linked to a device or a FIFO is refused, not read
            data = json.loads(read_input_text(path, "cache entry", MAX_CACHE_ENTRY_BYTES))
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
        path = self.path(key)
        try:
            if not stat.S_ISREG(os.lstat(path).st_mode):  # a link or a FIFO in our folder
                path.unlink()
        except OSError:
            pass  # none there yet
        try:
            atomic_write_text(path, text, durable=self.durable)
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

    def stats(self) -> dict[str, Any]:
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
    Returns the bytes dropped. Reads the file's tail only, from its end back to the last
    newline; anything but a regular file is left alone."""
    try:
        fd = os.open(path, os.O_RDWR | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    except OSError:
        return 0
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode) or info.st_size == 0:
            return 0
        end = position = info.st_size
        while position > 0:
            start = max(0, position - 65536)
            block = os.pread(fd, position - start, start)
            newline = block.rfind(b"\n")
            if newline >= 0:
                cut = start + newline + 1
                break
            position = start
        else:
            cut = 0
        if cut == end:
            return 0
        os.ftruncate(fd, cut)
        os.fsync(fd)
        return end - cut
    finally:
        os.close(fd)


__all__ = ["MAX_INPUT_FILE_BYTES", "CacheSettingError", "InputFileError", "JsonFileStore",
           "LineAppender", "OutputFileError", "atomic_write_text", "check_cache_settings",
           "check_folder", "check_output_file", "check_output_folder", "data_dir",
           "disk_cache_bytes", "drop_torn_tail", "home_dir", "open_input", "read_input_bytes", "read_input_text",
           "refuse_special", "write_error"]
