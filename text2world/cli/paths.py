"""Every path a user names on the command line, held to the guard of ``text2world.files``.

Two nets over the commands' own readers and writers (``read_input_text``, ``check_folder``,
``atomic_write_text``, ``LineAppender``): each parameter typed ``Path`` is checked when it
is parsed, so a device (``/dev/zero``, ``/dev/full``), a FIFO or a socket (or a link to
one) is refused before the command opens anything; and a path error raised anywhere in a
command (``InputFileError``, ``OutputFileError``, a full disk) ends it with one line on
stderr and exit code 1, never a traceback.
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any

from text2world.cli.common import fail
from text2world.engine.run_records import RunError
from text2world.files import InputFileError, OutputFileError, refuse_special, write_error

# the errors of a failed write that no command handles better than by saying so
_DISK_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS})


def is_path_parameter(param: Any) -> bool:
    """A parameter (typer's) whose value names a path: typed ``Path``, or a list of them."""
    described = getattr(param, "type_descriptor", None)
    if described is None:
        return False
    if described.is_list:  # list[Path]: its item type
        return Path in getattr(described.annotation, "__args__", ())
    return bool(described.is_path)


def _name(param: Any) -> str:
    opts = getattr(param, "opts", None) or []
    return max(opts, key=len) if opts and opts[0].startswith("-") else ""  # an argument: its path


def _guarded(callback: Any) -> Any:
    def check(ctx: Any, param: Any, value: Any) -> Any:
        values = value if isinstance(value, (list, tuple)) else (value,)
        for one in values:
            if one is not None and str(one) != "-":
                try:
                    refuse_special(one, _name(param))
                except InputFileError as err:
                    fail(str(err))
        return callback(ctx, param, value) if callback is not None else value
    check.guards_paths = True  # type: ignore[attr-defined]
    return check


def guard_path_parameters(command: Any) -> None:
    """Give every path parameter of ``command`` and of its subcommands the parse-time check."""
    for param in command.params:
        if is_path_parameter(param) and not getattr(param.callback, "guards_paths", False):
            param.callback = _guarded(param.callback)
    for sub in getattr(command, "commands", {}).values():
        guard_path_parameters(sub)


def invoke_guarded(invoke: Any, ctx: Any) -> Any:
    """``invoke(ctx)`` with a path error, or a corrupt run file (``RunError``: the file, the
    line, the field), from anywhere in the command as one line."""
    try:
        return invoke(ctx)
    except (InputFileError, OutputFileError, RunError) as err:
        fail(str(err))
    except OSError as err:
        if err.errno not in _DISK_ERRNOS:
            raise
        fail(str(write_error(err.filename or "output", "file", err)))
