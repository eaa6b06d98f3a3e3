"""One tarski parse per distinct text: ANTLR parse trees, kept in a small bounded cache.

A round of ``t2w eval`` reads one domain text many times: validation, paper and canonical
scoring, semantic scoring, and each gold problem parsed against its domain. Lexing and parsing
(ANTLR, pure Python) are about 90 % of a tarski parse; building tarski's language from the
tree is the rest. So the trees are cached, keyed by the exact text and grammar rule, and every
reader is still fresh: ``domain_reader`` visits the cached tree with a new ``PDDLReader``
(problem parsing adds objects to a reader's language, so readers are never shared), which is
what ``PDDLReader.parse_domain_string`` does after parsing. Results, errors included, are the
ones an uncached parse gives: a text ANTLR rejects keeps its exception (raised again as a copy),
and checks made while visiting (undeclared names, arities) run on every read.

The cache is per process, bounded in entries and in characters, and thread-safe.

Within ``transient()`` the trees parsed are kept until the block ends, not in the process's
cache: a reward reads a new answer twice (validation, then the model) and never again (what it
keeps of an answer met again is the validation and the model), and a cached tree is about
1,000 objects the cyclic garbage collector walks on each full collection until it is evicted:
kept, the trees of new answers were most of what a reward's full collections walked.
"""

from __future__ import annotations

import copy
import re
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from text2world.pddl import tarski_lexer

MAX_ENTRIES = 256
# all cached texts together: a tree costs about 150 bytes per character of its text (measured
# on the store's domains), so at most about 75 MB
MAX_CHARS = 500_000

# tarski's ANTLR lexer reads a comment character by character (a 40 KB comment costs ~75 ms);
# it skips comments, so an empty one leaves every token, line and column as they were.
_COMMENT_BODY = re.compile(r";[^\n]*")

_TREES: OrderedDict[tuple[str, str], tuple[object, BaseException | None]] = OrderedDict()
_CHARS = 0
_LOCK = threading.Lock()
_STATS = {"hits": 0, "misses": 0}
# the trees of the innermost ``transient()`` block of this thread or task, or None
_TRANSIENT: ContextVar[dict | None] = ContextVar("t2w_transient_trees", default=None)


def clear() -> None:
    """Forget every cached tree."""
    global _CHARS
    with _LOCK:
        _TREES.clear()
        _CHARS = 0


def stats() -> dict[str, int]:
    """Hits and misses since the process started (for benchmarks and tests)."""
    with _LOCK:
        return dict(_STATS, entries=len(_TREES))


@contextmanager
def transient() -> Iterator[None]:
    """Trees parsed within the block are reused within it and dropped when it ends (see the
    module's docstring); trees the process's cache holds are still found. A block within
    another shares the outer block's trees."""
    outer = _TRANSIENT.get()
    token = _TRANSIENT.set({} if outer is None else outer)
    try:
        yield
    finally:
        _TRANSIENT.reset(token)


def _tree(reader: Any, text: str, rule: str) -> tuple[Any, bool]:
    """The parse tree of ``text`` from grammar rule ``rule`` ("domain" or "problem"), parsed
    by ``reader``'s own parser on a miss (through ``parse_domain_string`` for domains, so that
    whatever observes tarski's parses sees this one). Raises what ANTLR raised."""
    global _CHARS
    key = (rule, text)
    local = _TRANSIENT.get()
    with _LOCK:
        found = local.get(key) if local is not None else None
        if found is None:
            found = _TREES.get(key)
            if found is not None:
                _TREES.move_to_end(key)
        if found is not None:
            _STATS["hits"] += 1
    if found is not None:
        tree, kept = found
        if kept is not None:
            raise _copy(kept)
        return tree, False
    with _LOCK:
        _STATS["misses"] += 1
    parser = reader.parser
    captured: list = []
    parse_string = parser.parse_string

    def capturing(string: str, start_rule: str) -> Any:
        # tarski's parser on tokens cut without its lexer, the same ones (``tarski_lexer``)
        result = tarski_lexer.parse(parser, string, start_rule) \
            or parse_string(string, start_rule)
        captured.append(result[0])
        return result

    parser.parse_string = capturing  # an attribute of this reader's parser only
    error: BaseException | None = None
    try:
        if rule == "domain":
            reader.parse_domain_string(text)
        else:
            reader.parse_instance_string(text)
    except RecursionError:
        raise  # the caller turns it into its own error; not worth keeping
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        error = err
    finally:
        del parser.parse_string
    if not captured and error is None:  # pragma: no cover - tarski always parses first
        raise RuntimeError("tarski did not parse the text")
    # an error while visiting (a semantic check) is raised again by every visit: keep the
    # tree; an error in ANTLR itself (no tree) is kept as the answer
    entry: tuple[object, BaseException | None]
    if captured:
        entry = (captured[0], None)
    else:
        assert error is not None
        entry = (None, _copy(error))  # a copy: no traceback kept
    with _LOCK:
        if local is not None:
            local[key] = entry
        elif key not in _TREES:
            _TREES[key] = entry
            _CHARS += len(text)
            while _TREES and (len(_TREES) > MAX_ENTRIES or _CHARS > MAX_CHARS):
                (_, old), _ = _TREES.popitem(last=False)
                _CHARS -= len(old)
    if error is not None:
        raise error
    return captured[0], True


def _copy(error: BaseException) -> BaseException:
    try:
        return copy.copy(error)
    except Exception:  # noqa: BLE001 - an exception class that cannot be copied
        return error


def domain_reader(text: str) -> Any:
    """A fresh ``tarski.io.PDDLReader`` (``raise_on_error=True``) holding the domain ``text``,
    its tree parsed at most once per process (see the module's docstring). Comment bodies are
    emptied first (see ``_COMMENT_BODY``). Raises what ``parse_domain_string`` raises."""
    from tarski.io import PDDLReader
    from tarski.io.fstrips import uniformize_costs

    reader = PDDLReader(raise_on_error=True)
    tree, parsed = _tree(reader, _COMMENT_BODY.sub(";", text), "domain")
    if not parsed:  # what parse_domain_string does after parsing
        reader.parser.visit(tree)
        uniformize_costs(reader.problem)
    return reader


def read_instance(reader: Any, text: str) -> Any:
    """``reader.parse_instance_string(text)`` with the problem's tree parsed at most once per
    process; returns the tarski problem."""
    tree, parsed = _tree(reader, _COMMENT_BODY.sub(";", text), "problem")
    if not parsed:
        reader.parser.visit(tree)
    return reader.problem


__all__ = ["MAX_CHARS", "MAX_ENTRIES", "clear", "domain_reader", "read_instance", "stats",
           "transient"]
