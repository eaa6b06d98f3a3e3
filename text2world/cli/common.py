"""What every command shares: the console, reading input files, failing with a clear message."""

from __future__ import annotations

import json
import sys
import textwrap
from contextlib import contextmanager
from contextvars import ContextVar
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import Any, Iterator, NoReturn, cast

import typer
from rich.console import Console
from rich.text import Text

from text2world.files import MAX_INPUT_FILE_BYTES, InputFileError, read_input_bytes
from text2world.pddl.model import DomainInputError, decode_domain_bytes
from text2world.scoring.metrics import MODES

console = Console()
err_console = Console(stderr=True)


def choices(name: str, values: tuple[str, ...] | list[str]) -> type[StrEnum]:
    """A fixed set of option values as an enum, so that ``--help`` lists them and any other
    value is a clear usage error (works across the typer versions we allow)."""
    # typeshed types the functional Enum call as a member, not the new class
    return cast(type[StrEnum], StrEnum(name, {value: value for value in values}))


Mode = choices("Mode", MODES)
MODE_HELP = ("paper: the released evaluator, quirks included; canonical: rename-invariant, "
             "per action, with F1 over types.")


# Short metric headers for terminal tables: a round's scores must fit 80 columns.
METRIC_HEADERS = {"executable": "Exec", "similarity": "Sim", "f1_predicates": "F1 pred",
                  "f1_parameters": "F1 param", "f1_preconditions": "F1 pre",
                  "f1_effects": "F1 eff", "f1_types": "F1 types", "f1_mean": "F1 mean"}


def mode_option(default, *names: str, **extra) -> Any:
    """The ``--mode`` option every scoring command shares (choices listed in ``--help``)."""
    return typer.Option(default, "--mode", *names, help=extra.pop("help", MODE_HELP), **extra)


def wrap_message(message: str, width: int) -> str:
    """Prose wrapped at ``width`` columns, continuation lines indented; a word longer than a line
    (a run's folder, a path) goes whole on a line of its own, to copy, never folded."""
    lines: list[str] = []
    for paragraph in message.splitlines() or [""]:
        indent = paragraph[:len(paragraph) - len(paragraph.lstrip())]
        lines += textwrap.wrap(paragraph, width, subsequent_indent=indent + "  ", break_long_words=False,
                               break_on_hyphens=False) or [""]
    return "\n".join(lines)


def say(message: str, *, to: Console | None = None, label_style: str | None = None) -> None:
    """Print a message (plain text, no markup) wrapped at the terminal's width (``COLUMNS``;
    80 where it is not a terminal); ``label_style`` styles its first word up to the colon
    (``error:``, ``warning:``)."""
    target = to or console
    text = Text(wrap_message(message, target.width))
    if label_style and ":" in message:
        text.stylize(label_style, 0, message.index(":") + 1)
    target.print(text, highlight=False, soft_wrap=True)


def warn(message: str) -> None:
    """A warning on stderr: something the user should know that does not stop the command."""
    say(f"warning: {message}", to=err_console, label_style="bold yellow")


_JSON_FAILURES: ContextVar[bool] = ContextVar("json_failures", default=False)


@contextmanager
def json_failures(enabled: bool) -> Iterator[None]:
    """Within it (a command run with ``--json``), ``fail`` also prints the error as JSON on
    standard output (``{"ok": false, "error": ..., "exit_code": ...}``), so that a caller
    parsing the output gets JSON whatever the exit code."""
    token = _JSON_FAILURES.set(enabled)
    try:
        yield
    finally:
        _JSON_FAILURES.reset(token)


class ExitCode(IntEnum):
    """What a ``t2w`` exit status means, for every command (docs/runs.md, "Exit codes")."""

    OK = 0
    INPUT = 1  # bad input or a check that failed (an invalid domain, a bad line): the message says where
    USAGE = 2  # a command line that does not parse: an unknown option or value (typer's own code)
    INFRASTRUCTURE = 3  # a model provider, server or cluster failed or refused (no server, a bad key)
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT): finished items are kept, the resume command printed
    # a run stopped by a signal exits 128 + its number (143 for SIGTERM, 129 for SIGHUP)


def fail(message: str, code: int = ExitCode.INPUT) -> NoReturn:
    """Print an error a person can act on and exit; never a traceback."""
    say(f"error: {message}", to=err_console, label_style="bold red")
    if _JSON_FAILURES.get():
        print_json({"ok": False, "error": message, "exit_code": code})
    raise typer.Exit(code)


def read_text_file(path: Path, what: str = "file") -> str:
    """Read a PDDL or answer file as text, with clear errors for missing, binary or huge files."""
    if str(path) == "-":
        data = sys.stdin.buffer.read(MAX_INPUT_FILE_BYTES + 1)
        if len(data) > MAX_INPUT_FILE_BYTES:
            fail(f"{what} on standard input is larger than {MAX_INPUT_FILE_BYTES:,} bytes: too large")
        path_name = "standard input"
    else:
        try:
            data = read_input_bytes(path, what)
        except InputFileError as err:
            fail(str(err))
        path_name = str(path)
    try:
        return decode_domain_bytes(data, f"{what} {path_name}")
    except DomainInputError as err:
        fail(err.message)


def print_json(data) -> None:
    sys.stdout.write(json.dumps(data, indent=2, ensure_ascii=False) + "\n")

