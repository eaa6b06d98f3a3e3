"""Bounds on the work any input can cause: the limits, and the linear-time checks that enforce them.

tarski is the only super-linear step of validating and scoring: its type attachment is quadratic in
the number of types (8,000 chained types take over a minute), and every parse costs about 10 µs per
character. Every text is checked here, in one linear pass over its tokens, before tarski sees it,
so that any accepted domain parses in well under two seconds on one core
(``bench/adversarial_bench.py`` measures the worst accepted input of each kind).

The limits are far above real domains: over the 101 released Text2World domains, at most
12.7 KB, 1,659 tokens, 17 types, nesting depth 10 and 36-character names.
"""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict

from text2world.errors import Text2WorldError

__all__ = [
    "MAX_DOMAIN_CHARS", "MAX_TOKENS", "MAX_NESTING_DEPTH", "MAX_TYPES", "MAX_TYPE_DEPTH",
    "MAX_DECLARATIONS", "MAX_IDENTIFIER_CHARS", "MAX_REPORTED_ISSUES", "LIMITS",
    "DomainInputError", "line_column", "TOKEN", "decode_domain_bytes", "check_domain_text",
    "check_structure",
]

# The limits, one place (the README's "Bounds on input" lists them).
MAX_DOMAIN_CHARS = 128_000  # characters of one domain text (the API's body limit is separate)
MAX_TOKENS = 20_000  # parentheses, names and keywords (comments excluded); tarski: ~0.5 s
MAX_NESTING_DEPTH = 100  # parentheses open at once; tarski's recursive parser breaks near 400
MAX_TYPES = 500  # names declared in :types; tarski's type attachment is quadratic (500: ~0.1 s)
MAX_TYPE_DEPTH = 64  # longest chain child - parent - ... in :types
MAX_DECLARATIONS = 4_000  # predicates + functions + constants + actions
MAX_IDENTIFIER_CHARS = 256  # one name or keyword; error locating searches names in the text
MAX_REPORTED_ISSUES = 50  # errors and warnings located and listed per domain (the rest counted)

LIMITS: dict[str, int] = {
    "MAX_DOMAIN_CHARS": MAX_DOMAIN_CHARS, "MAX_TOKENS": MAX_TOKENS,
    "MAX_NESTING_DEPTH": MAX_NESTING_DEPTH, "MAX_TYPES": MAX_TYPES,
    "MAX_TYPE_DEPTH": MAX_TYPE_DEPTH, "MAX_DECLARATIONS": MAX_DECLARATIONS,
    "MAX_IDENTIFIER_CHARS": MAX_IDENTIFIER_CHARS,
}


class DomainInputError(Text2WorldError, ValueError):
    """Input that cannot be a PDDL domain at all (empty, binary) or that exceeds a limit.

    ``category`` uses the syntax-error taxonomy of the validator; ``line``/``column`` are 1-based
    where known; ``kind`` is ``"LimitExceeded"`` for a structural limit, else ``"InvalidInput"``.
    """

    def __init__(self, message: str, category: str = "Other", line: int | None = None,
                 column: int | None = None, kind: str = "InvalidInput") -> None:
        super().__init__(message)
        self.message = message
        self.category = category
        self.line = line
        self.column = column
        self.kind = kind


def line_column(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    return line, column


# A token is a parenthesis, a ';' comment to its line end, or a run of other non-space characters.
TOKEN = re.compile(r"[()]|;[^\n]*|[^\s();]+")


def decode_domain_bytes(data: bytes, source: str = "input") -> str:
    """Decode bytes read from a file or request into text, with a clear error for binary data."""
    if len(data) > MAX_DOMAIN_CHARS * 4:
        raise DomainInputError(
            f"{source} is {len(data):,} bytes; a PDDL domain may have at most "
            f"{MAX_DOMAIN_CHARS:,} characters (MAX_DOMAIN_CHARS)", kind="LimitExceeded")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise DomainInputError(
            f"{source} is not UTF-8 text: byte 0x{data[err.start]:02x} at offset {err.start} "
            "cannot be decoded") from None
    return text


def _limit(text: str, offset: int, message: str, name: str,
           category: str = "Other") -> DomainInputError:
    line, column = line_column(text, offset)
    return DomainInputError(f"{message}: the limit is {LIMITS[name]:,} ({name})", category,
                            line, column, kind="LimitExceeded")


# Texts that passed ``check_domain_text`` lately: a round's answer is read by validation, by
# each scoring mode and against each problem, and every read checks it (bounded: entries and
# characters, the oldest forgotten first; a text that fails is checked again, and fails alike).
_PASSED: OrderedDict[str, None] = OrderedDict()
_PASSED_CHARS = 0
_PASSED_LIMITS: tuple = ()  # the limits they passed (other limits: checked again)
_PASSED_LOCK = threading.Lock()
PASSED_MAX_ENTRIES = 1024
PASSED_MAX_CHARS = 2_000_000


def _limits() -> tuple:
    return (MAX_DOMAIN_CHARS, MAX_TOKENS, MAX_NESTING_DEPTH, MAX_TYPES, MAX_TYPE_DEPTH,
            MAX_DECLARATIONS, MAX_IDENTIFIER_CHARS)


def check_domain_text(text: str) -> None:
    """Reject, in time linear in the text, input tarski must never see: not text, empty,
    binary, or past one of the structural limits above. Raises ``DomainInputError`` naming the
    limit and where it is exceeded. A text that passed lately passes at once (``_PASSED``)."""
    global _PASSED_CHARS, _PASSED_LIMITS
    limits = _limits()
    if isinstance(text, str):
        with _PASSED_LOCK:
            if _PASSED_LIMITS != limits:
                _PASSED.clear()
                _PASSED_CHARS, _PASSED_LIMITS = 0, limits
            elif text in _PASSED:
                _PASSED.move_to_end(text)
                return
    _check_domain_text(text)
    with _PASSED_LOCK:
        if _PASSED_LIMITS == limits and text not in _PASSED and len(text) <= PASSED_MAX_CHARS:
            _PASSED[text] = None
            _PASSED_CHARS += len(text)
            while len(_PASSED) > PASSED_MAX_ENTRIES or _PASSED_CHARS > PASSED_MAX_CHARS:
                _PASSED_CHARS -= len(_PASSED.popitem(last=False)[0])


def _new_passed_lock() -> None:  # a forked child never inherits a lock another thread held
    global _PASSED_LOCK
    _PASSED_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_new_passed_lock)


def _check_domain_text(text: str) -> None:
    if not isinstance(text, str):
        raise DomainInputError(f"a domain must be text, not {type(text).__name__}")
    if not text.strip():
        raise DomainInputError("no PDDL domain: the text is empty", category="UndefinedDomainName",
                               kind="NoDomainFound")
    if len(text) > MAX_DOMAIN_CHARS:  # where: the first character past the limit
        raise _limit(text, MAX_DOMAIN_CHARS, f"the domain text has {len(text):,} characters",
                     "MAX_DOMAIN_CHARS")
    nul = text.find("\x00")
    if nul >= 0:
        line, column = line_column(text, nul)
        raise DomainInputError("the text contains a NUL byte: binary data, not PDDL",
                               line=line, column=column)
    check_structure(text)


_DECLARING = {":predicates": "predicates", ":functions": "functions"}


def check_structure(text: str) -> None:
    """The structural limits (tokens, nesting, names, types, type depth, declarations), in one
    pass over the tokens of a text already known to be at most ``MAX_DOMAIN_CHARS`` long."""
    depth = 0
    tokens = 0
    declarations = 0
    previous = ""  # the token before, to see which section a '(' opens
    section = ""  # ':types', ':constants', ':predicates', ':functions' while inside one
    section_depth = 0
    parents: dict[str, str] = {}  # type -> parent, from :types
    type_offsets: dict[str, int] = {}
    pending: list[str] = []  # names before the next '-' in :types or :constants
    after_dash = False
    for match in TOKEN.finditer(text):
        token = match.group()
        if token[0] == ";":
            continue
        tokens += 1
        if tokens > MAX_TOKENS:
            raise _limit(text, match.start(), f"the domain has more than {MAX_TOKENS:,} tokens",
                         "MAX_TOKENS")
        if token == "(":
            depth += 1
            if depth > MAX_NESTING_DEPTH:
                raise _limit(text, match.start(), "parentheses are nested more than "
                             f"{MAX_NESTING_DEPTH} levels deep", "MAX_NESTING_DEPTH",
                             "IncorrectParentheses")
            if section in _DECLARING.keys() and depth == section_depth + 1:
                declarations += 1
        elif token == ")":
            if section and depth == section_depth:
                section = ""
            depth -= 1
        else:
            if len(token) > MAX_IDENTIFIER_CHARS:
                raise _limit(text, match.start(), f"a name has {len(token):,} characters",
                             "MAX_IDENTIFIER_CHARS")
            lowered = token.lower()
            if previous == "(" and not section:
                if lowered in (":types", ":constants", ":predicates", ":functions"):
                    section, section_depth, pending, after_dash = lowered, depth, [], False
                elif lowered in (":action", ":durative-action", ":derived"):
                    declarations += 1
            elif section in (":types", ":constants") and depth == section_depth:
                if lowered == "-":
                    after_dash = True
                elif after_dash:  # the parent type (or type of the constants) of pending names
                    if section == ":types":
                        for name in pending:
                            parents[name] = lowered
                        type_offsets.setdefault(lowered, match.start())
                    pending, after_dash = [], False
                else:
                    pending.append(lowered)
                    if section == ":types":
                        type_offsets.setdefault(lowered, match.start())
                    else:
                        declarations += 1
                if len(type_offsets) > MAX_TYPES:
                    raise _limit(text, match.start(), f"more than {MAX_TYPES:,} types are "
                                 "declared", "MAX_TYPES")
            if declarations > MAX_DECLARATIONS:
                raise _limit(text, match.start(), f"more than {MAX_DECLARATIONS:,} predicates, "
                             "functions, constants and actions are declared", "MAX_DECLARATIONS")
        previous = token
    _check_type_depth(text, parents, type_offsets)


def _check_type_depth(text: str, parents: dict[str, str], offsets: dict[str, int]) -> None:
    """Longest parent chain, each type visited once (a cycle is left for tarski to report)."""
    depth_of: dict[str, int] = {}
    for start in parents:
        chain = []
        node = start
        seen = set()
        while node in parents and node not in depth_of and node not in seen:
            seen.add(node)
            chain.append(node)
            node = parents[node]
        base = depth_of.get(node, 0)
        for offset_in_chain, name in enumerate(reversed(chain), 1):
            depth_of[name] = base + offset_in_chain
        if chain and depth_of[start] > MAX_TYPE_DEPTH:
            raise _limit(text, offsets.get(start, 0), f"type {start!r} is "
                         f"{depth_of[start]} levels below its root type", "MAX_TYPE_DEPTH")
