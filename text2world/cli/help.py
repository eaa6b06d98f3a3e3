"""Conventional click-style ``--help``: ``PATH`` in usage lines, ``TEXT``/``INTEGER`` types,
no type shown for a flag.

typer 0.2x renders option types as ``<str>``/``<bool>`` (a flag takes no value, so a type
there misleads) and required arguments as ``{path}`` in the usage line. ``ConventionalGroup``
(the ``cls`` of the ``t2w`` app) gives every parameter of every (sub)command the classic
rendering; parsing is untouched.
"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

_NAMES = {str: "TEXT", int: "INTEGER", float: "FLOAT", bool: "BOOLEAN", Path: "PATH",
          datetime.datetime: "DATETIME"}


def _type_name(param: TyperArgument | TyperOption) -> str:
    described = param.type_descriptor
    if described.is_choice:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in described.choices or ()) + "]"
    annotation: Any = described.annotation
    if described.is_list:
        annotation = getattr(annotation, "__args__", (str,))[0]
    if described.is_path:
        return "PATH"
    return _NAMES.get(annotation, getattr(annotation, "__name__", str(annotation)).upper())


class ConventionalOption(TyperOption):
    def display_type(self, ctx) -> str:
        return "" if self.is_flag or self.count else _type_name(self)

    def display_type_rich(self, ctx) -> str | None:
        if self.is_flag or self.count:
            return None
        return self.metavar or _type_name(self)


class ConventionalArgument(TyperArgument):
    def display_type(self, ctx) -> str:
        return _type_name(self)

    def _usage_display_name(self) -> str:
        name = self.metavar or (self.name or "").upper()  # a metavar as written, as click does
        if not self.required and not name.startswith("["):
            name = f"[{name}]"
        return name + ("..." if self.nargs != 1 and not name.endswith("...") else "")


def reflowed(text: str | None) -> str | None:
    """Help text with each paragraph's lines joined: rich keeps a docstring's line breaks, so
    at 80 columns the command list and every paragraph after the first came out ragged. A
    paragraph with a list item or an indented line keeps its lines."""
    if not text:
        return text
    paragraphs = []
    for paragraph in text.strip().split("\n\n"):
        lines = paragraph.splitlines()
        structured = any(line.lstrip().startswith(("- ", "* ", "\b")) or line.startswith("  ")
                         for line in lines)
        paragraphs.append(paragraph if structured else " ".join(line.strip() for line in lines))
    return "\n\n".join(paragraphs)


def conventional(command) -> None:
    """Give the parameters of ``command`` and of all its subcommands the classic rendering,
    and its help text reflowed paragraphs (``reflowed``)."""
    if isinstance(getattr(command, "help", None), str):
        command.help = reflowed(command.help)
    for param in getattr(command, "params", ()):
        if type(param) is TyperOption:
            param.__class__ = ConventionalOption
        elif type(param) is TyperArgument:
            param.__class__ = ConventionalArgument
    if type(command) is TyperCommand:
        command.__class__ = ConventionalCommand
    elif type(command) is TyperGroup:
        command.__class__ = ConventionalSubgroup
    for sub in getattr(command, "commands", {}).values():
        conventional(sub)


def _conventional_help_option(command, ctx):
    base = TyperGroup if isinstance(command, TyperGroup) else TyperCommand  # subclasses too
    option = base.get_help_option(command, ctx)
    if type(option) is TyperOption:
        option.__class__ = ConventionalOption
    return option


class ConventionalCommand(TyperCommand):
    get_help_option = _conventional_help_option


class ConventionalSubgroup(TyperGroup):
    get_help_option = _conventional_help_option


class ConventionalGroup(TyperGroup):
    get_help_option = _conventional_help_option

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        conventional(self)
