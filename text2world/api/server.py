"""The HTTP protocol ``t2w serve`` runs uvicorn with: httptools plus a deadline and a size bound
for request heads.

uvicorn arms a timer only after a response (``timeout_keep_alive``) and cancels it on any byte
received, so a client that connects and sends nothing, or one header byte per second, holds a
connection forever. Here a connection must deliver a complete request head within
``header_timeout`` seconds of opening and of each response; otherwise it is closed, with a 408
answer if part of a request had arrived (an idle connection is closed silently, as uvicorn's
keep-alive timeout does, so a client never reads a 408 as the answer to its next request).
A request head over ``MAX_HEAD_BYTES`` is answered 400 and its connection closed (httptools
itself bounds no head; h11, the protocol before, bounded it at the same size).
(Bodies are bounded by ``api.limits.BodyLimitMiddleware``.)

httptools (llhttp, in C) rather than h11 (pure Python): the front process's CPU per scoring
request is 15 % less with it and uvloop (bench/api_bench.py), and one front process serves
every client of ``t2w serve``.
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
from typing import Any

from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter, DefaultFormatter
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from text2world.api.settings import Settings
from text2world.errors import Text2WorldError
from text2world.model.credentials import redact_text

# The request line and headers of one request, in bytes (h11's bound of an incomplete event).
MAX_HEAD_BYTES = 16 * 1024

_timeout: float | None = None


def header_timeout() -> float:
    """``T2W_API_HEADER_TIMEOUT``, read once per process."""
    global _timeout
    if _timeout is None:
        _timeout = Settings.from_env().header_timeout
    return _timeout


def _timeout_response(seconds: float) -> bytes:
    body = json.dumps({"error": {
        "code": "request_timeout",
        "message": f"the request headers did not arrive within {seconds:g} s "
                   "(T2W_API_HEADER_TIMEOUT); the connection is closed"}}).encode()
    return (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: application/json\r\n"
            b"connection: close\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n"
            + body)


class HeadTooLarge(Text2WorldError, ValueError):
    """Raised in the parser's callback: httptools turns it into a parser error (a 400)."""


class HeaderTimeoutProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a deadline and a size bound for each request's head."""

    _header_timer: asyncio.TimerHandle | None = None
    _head_started = False  # bytes of a request head have arrived, not yet its end
    _in_body = False       # a request's head is complete, its body not yet
    _head_bytes = 0

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    # parser callbacks (httptools finds them by name)

    def on_message_begin(self) -> None:
        self._head_started, self._head_bytes = True, 0
        super().on_message_begin()

    def on_url(self, url: bytes) -> None:
        self._count_head(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count_head(len(name) + len(value) + 4)  # ": " and CRLF
        super().on_header(name, value)

    def on_headers_complete(self) -> None:
        self._head_started, self._in_body = False, True
        self._cancel_header_timer()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        self._in_body = False
        super().on_message_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Waiting for the next request on this connection (unless a pipelined one started, or
        # the body of the one answered is still arriving).
        if not self.transport.is_closing() and self._between_requests():
            self._arm_header_timer()

    # the deadline

    def _count_head(self, size: int) -> None:
        self._head_bytes += size
        if self._head_bytes > MAX_HEAD_BYTES:
            raise HeadTooLarge(f"a request head over {MAX_HEAD_BYTES} bytes")

    def _between_requests(self) -> bool:
        return not self._in_body and (self.cycle is None or self.cycle.response_complete)

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(header_timeout(), self._header_timeout)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or not self._between_requests():
            return
        if self._head_started:  # bytes of an incomplete request head
            self.transport.write(_timeout_response(header_timeout()))
        self.transport.close()


HTTP_PROTOCOL = f"{__name__}:HeaderTimeoutProtocol"
"""The value of uvicorn's ``http`` option (an import string, so worker processes load it)."""


# --------------------------------------------------------------------------------------------
# Logs: uvicorn's own formatters, with every secret the process knows masked (the access log
# quotes request lines, and a browser opens the service with ``?token=TOKEN``).


class RedactingFormatter(DefaultFormatter):
    def format(self, record: logging.LogRecord) -> str:
        return redact_text(super().format(record))


class RedactingAccessFormatter(AccessFormatter):
    def format(self, record: logging.LogRecord) -> str:
        return redact_text(super().format(record))


def log_config() -> dict[str, Any]:
    """uvicorn's logging configuration with the redacting formatters (``uvicorn.run``'s
    ``log_config``; a dict, so that each worker process configures itself the same way)."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["default"]["()"] = f"{__name__}.RedactingFormatter"
    config["formatters"]["access"]["()"] = f"{__name__}.RedactingAccessFormatter"
    return config
