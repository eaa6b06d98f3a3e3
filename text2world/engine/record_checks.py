"""A record read back from a run file checked against its TypedDict: the types a task declares
for its records (``tasks/<kind>/records.py``) are the checks, so a hand-edited or corrupt line
is named, with its field, where it is read rather than failing deep inside a summary or a
report ("'str' object has no attribute 'get'").

The check follows the JSON shape of each annotation: a string, a whole number, a number, true
or false, an object (a ``dict[K, V]``, a ``Mapping`` or a nested TypedDict, checked inside), a
list (``list[T]``, ``Sequence[T]``, checked inside); ``X | None`` may be null; ``Any`` and what
cannot be resolved are not checked. Absent keys are fine (``total=False``: records older
versions wrote lack keys newer ones add)."""

from __future__ import annotations

import collections.abc
import functools
import json
import sys
import types
import typing
from typing import Any, Callable, ForwardRef, Mapping, Union

# A check: a value -> where (the keys and indexes down to it) and what is wrong with it, or
# None when nothing is.
Problem = tuple[tuple["str | int", ...], str]
Check = Callable[[Any], "Problem | None"]


class _ReadOnly:
    """``ReadOnly[T]`` read as ``T`` (the engine imports ``ReadOnly`` for type checkers only)."""

    def __class_getitem__(cls, item: Any) -> Any:
        return item


def _resolve(annotation: Any) -> Any:
    """An annotation's type; ``Any`` where it cannot be resolved (nothing is checked)."""
    if not isinstance(annotation, ForwardRef):
        return annotation
    module = sys.modules.get(annotation.__forward_module__ or "")
    namespace = {**vars(typing), **(vars(module) if module else {}), "ReadOnly": _ReadOnly}
    try:
        return eval(annotation.__forward_arg__, namespace)  # noqa: S307 - our own annotations
    except Exception:  # noqa: BLE001 - an annotation only a type checker resolves
        return Any


def _what(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)[:60]


def _leaf(allowed: tuple[type, ...], what: str) -> Check:
    def check(value: Any) -> Problem | None:
        if isinstance(value, bool) != (bool in allowed) or not isinstance(value, allowed):
            return (), f"is {_what(value)}, not {what}"
        return None
    return check


_LEAVES: dict[Any, Check] = {
    str: _leaf((str,), "a string"),
    int: _leaf((int,), "a whole number"),
    float: _leaf((int, float), "a number"),
    bool: _leaf((bool,), "true or false"),
}


def _is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__total__")


def _union(checks: list[Check], nullable: bool) -> Check:
    def check(value: Any) -> Problem | None:
        if value is None:
            return None if nullable else ((), "is null")
        problems = [c(value) for c in checks]
        return None if any(p is None for p in problems) else problems[0]
    return check


def _list(inner: Check | None) -> Check:
    def check(value: Any) -> Problem | None:
        if not isinstance(value, list):
            return (), f"is {_what(value)}, not a list"
        for index, element in enumerate(value if inner else ()):
            problem = inner(element) if inner else None
            if problem:
                return (index, *problem[0]), problem[1]
        return None
    return check


def _object(inner: Check | None) -> Check:
    def check(value: Any) -> Problem | None:
        if not isinstance(value, dict):
            return (), f"is {_what(value)}, not an object"
        for key, element in (value.items() if inner else ()):
            problem = inner(element) if inner else None
            if problem:
                return (str(key), *problem[0]), problem[1]
        return None
    return check


def _check_of(hint: Any, depth: int = 0) -> Check | None:
    """The check of one annotation; None: nothing to check."""
    hint = _resolve(hint)
    if hint is Any or depth > 8:  # deep enough for any record: a cycle would not end
        return None
    if hint in _LEAVES:
        return _LEAVES[hint]
    if hint is type(None):
        return None  # null only: absent or null values are never checked
    if _is_typed_dict(hint):
        fields = _fields(hint, depth + 1)
        return _object(None) if not fields else _typed_dict(fields)
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if origin in (Union, types.UnionType):
        nullable = type(None) in arguments
        inner = [_check_of(a, depth + 1) for a in arguments if a is not type(None)]
        if not inner or any(c is None for c in inner):
            return None  # a member that takes anything
        return _union([c for c in inner if c is not None], nullable)
    if origin in (list, collections.abc.Sequence, tuple) or hint in (list, tuple):
        return _list(_check_of(arguments[0], depth + 1) if arguments else None)
    if origin in (dict, collections.abc.Mapping) or hint in (dict,):
        return _object(_check_of(arguments[1], depth + 1) if len(arguments) == 2 else None)
    return None  # Literal, Callable...: not a record's JSON


def _typed_dict(fields: Mapping[str, Check]) -> Check:
    def check(value: Any) -> Problem | None:
        if not isinstance(value, dict):
            return (), f"is {_what(value)}, not an object"
        for key, field_check in fields.items():
            if value.get(key) is None:
                continue  # absent (or null) in what an older version wrote: readers' default
            problem = field_check(value[key])
            if problem:
                return (key, *problem[0]), problem[1]
        return None
    return check


def _fields(record_type: type, depth: int = 0) -> dict[str, Check]:
    checks = {}
    for key, annotation in record_type.__annotations__.items():
        check = _check_of(annotation, depth)
        if check is not None:
            checks[key] = check
    return checks


@functools.cache
def record_check(record_type: type) -> Callable[[Any], str | None]:
    """The check of a record of ``record_type`` (a TypedDict): what is wrong with a record,
    naming the field (``field 'ec' is "broken", not an object``, ``field
    'rounds'[2]['valid'] is 1, not true or false``), or None."""
    whole = _typed_dict(_fields(record_type))

    def check(record: Any) -> str | None:
        problem = whole(record)
        if problem is None:
            return None
        path, what = problem
        if not path:
            return what
        return (f"field {path[0]!r}" + "".join(f"[{step!r}]" for step in path[1:])
                + f" {what}")
    return check


__all__ = ["record_check"]
