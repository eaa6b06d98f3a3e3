"""tarski's tokens without tarski's lexer: a regular expression cuts the text where tarski's
ANTLR lexer would, and that lexer names each distinct piece once per process.

tarski's ANTLR lexer is pure Python, character by character: about half of a tarski parse of a
domain (~8 ms of ~17 on a 3,000-character answer). The parser only reads tokens (type,
channel, positions, text), so ``parse_string`` hands it tokens made here, the same ones to the
field, and tarski's own parser and visitor do the rest.

Why the tokens are the same. ANTLR's lexer takes at each position the longest text some rule
matches (ties: the rule listed first). ``_PIECE`` cuts the text into pieces, each the longest
run that could form one token (a name with its hyphens and digits, a number with its fraction,
a ':' or '?' with the name after it, a run of whitespace, a comment with its newline,
``(total-time)``); no token of the grammar extends past a piece's end (none begins with a name
character and goes on with another). Each distinct piece is lexed alone by tarski's lexer
(``_kind``, cached): exactly one token of the piece's whole length, and no error, gives its type
and channel; anything else (``:Requirements``, case-sensitive, is two errors and a name; a
character no rule reads) and the whole text goes to tarski's lexer instead, which then raises or
recovers exactly as it always did. Positions are counted as ANTLR counts them: characters (code
points), a line per '\\n', columns from 0 ('\\r' and tabs are one column each).
"""

from __future__ import annotations

import re
import threading
from typing import Any

_PIECE = re.compile(r"""
    (?P<ws>[ \t\r\n]+)
  | (?P<comment>;[^\r\n]*\r?\n)
  | \(total-time\)
  | [A-Za-z][A-Za-z0-9_-]*
  | [:?@][A-Za-z][A-Za-z0-9_-]*
  | -?[0-9]+(?:\.[0-9]+)?
  | >= | <= | \.\. | \#t
  | [()\[\]*+/^<>=-]
""", re.VERBOSE)

_KINDS: dict[str, tuple[int, int] | None] = {}
_KINDS_MAX = 100_000  # distinct pieces kept (names are unbounded): past it, the table restarts
_LOCK = threading.Lock()


def _kind(piece: str) -> tuple[int, int] | None:
    """(token type, channel) tarski's lexer gives ``piece`` read alone, or None unless that is
    one token of the whole piece without an error."""
    with _LOCK:
        if piece in _KINDS:
            return _KINDS[piece]
    from antlr4 import InputStream
    from antlr4.error.ErrorListener import ErrorListener
    from tarski.io._fstrips.parser.lexer import fstripsLexer

    errors: list[str] = []

    class Recorder(ErrorListener):
        def syntaxError(self, recognizer: Any, offending_symbol: Any, line: int,  # noqa: N802
                        column: int, msg: str, e: Exception | None) -> None:
            errors.append(msg)

    lexer = fstripsLexer(InputStream(piece))
    lexer.removeErrorListeners()
    lexer.addErrorListener(Recorder())
    found = lexer.getAllTokens()
    kind = None
    if not errors and len(found) == 1 and found[0].start == 0 \
            and found[0].stop == len(piece) - 1:
        kind = (found[0].type, found[0].channel)
    with _LOCK:
        if len(_KINDS) >= _KINDS_MAX:
            _KINDS.clear()
        _KINDS[piece] = kind
    return kind


class _TokenSource:
    """What ``CommonTokenStream`` and the parser's error recovery read of a lexer: its tokens
    in turn, its token factory, its input."""

    def __init__(self, text_stream: Any) -> None:
        from antlr4.CommonTokenFactory import CommonTokenFactory

        self.tokens: list = []
        self._next = 0
        self._factory = CommonTokenFactory.DEFAULT
        self.inputStream = text_stream

    def nextToken(self) -> Any:  # noqa: N802 - ANTLR's name
        token = self.tokens[self._next]
        self._next += 1
        return token

    def getSourceName(self) -> str:  # noqa: N802 - ANTLR's name
        return getattr(self.inputStream, "name", "<unknown>")


def tokens(text: str) -> _TokenSource | None:
    """A token source of tarski's lexer's tokens of ``text`` (``.tokens``, EOF last), or None
    where the pieces are not all tokens (then only tarski's lexer says what happens)."""
    from antlr4 import InputStream
    from antlr4.Token import CommonToken, Token

    stream = InputStream(text)
    source = _TokenSource(stream)
    pair = (source, stream)
    found = source.tokens
    append = found.append
    new = CommonToken.__new__
    line, line_start, position, end = 1, 0, 0, len(text)
    match = _PIECE.match
    kinds = _KINDS
    hidden = _kind(" ")  # a run of whitespace, or a comment with its newline: one hidden token
    comment = _kind(";\n")
    assert hidden is not None and comment is not None
    while position < end:
        piece = match(text, position)
        if piece is None:
            return None
        stop = piece.end()
        group = piece.lastgroup
        if group is None:
            value = piece.group()
            kind = kinds.get(value) or _kind(value)
            if kind is None:
                return None
        else:
            kind = hidden if group == "ws" else comment
        token = new(CommonToken)  # the attributes CommonToken(...) sets, without its calls
        token.source = pair
        token.type, token.channel = kind
        token.start, token.stop, token.tokenIndex = position, stop - 1, -1
        token.line, token.column, token._text = line, position - line_start, None
        append(token)
        if group is not None:  # lines end in whitespace and comments only
            value = piece.group()
            newline = value.rfind("\n")
            if newline >= 0:
                line += value.count("\n")
                line_start = position + newline + 1
        position = stop
    eof = CommonToken((None, stream), Token.EOF, Token.DEFAULT_CHANNEL, end, end - 1)
    eof.source = pair
    eof.line, eof.column = line, end - line_start
    append(eof)
    return source


def parse(parser: Any, text: str, rule: str) -> tuple[Any, Any] | None:
    """What ``parser._parse_stream(InputStream(text), rule)`` returns (a tarski
    ``FStripsParser``: the tree and its token stream), from ``tokens``; None where ``tokens``
    declines the text."""
    from antlr4 import CommonTokenStream
    from tarski.io._fstrips.parser.parser import fstripsParser

    source = tokens(text)
    if source is None:
        return None
    stream = CommonTokenStream(source)
    antlr_parser = parser._configure_error_handling(fstripsParser(stream))
    return getattr(antlr_parser, rule)(), stream


__all__ = ["parse", "tokens"]
