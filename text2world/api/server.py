"""The HTTP protocol ``t2w serve`` runs uvicorn with: h11 plus a deadline for request headers.

uvicorn arms a timer only after a response (``timeout_keep_alive``) and cancels it on any byte
received, so a client that connects and sends nothing, or one header byte per second, holds a
connection forever. Here a connection must deliver a complete request head within
``header_timeout`` seconds of opening and of each response; otherwise it is closed, with a 408
answer if part of a request had arrived (an idle connection is closed silently, as uvicorn's
keep-alive timeout does, so a client never reads a 408 as the answer to its next request).
(Bodies are bounded by ``api.limits.BodyLimitMiddleware``.)
"""

from __future__ import annotations

import asyncio
import copy
import json
import logging
from typing import Any

import h11
from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter, DefaultFormatter
from uvicorn.protocols.http.h11_impl import H11Protocol

from text2world.api.settings import Settings
from text2world.model.credentials import redact_text

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


class HeaderTimeoutH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm_header_timer()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is not h11.IDLE:  # a whole request head has arrived
            self._cancel_header_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # Waiting for the next request on this connection (unless a pipelined one started).
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._arm_header_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(header_timeout(), self._header_timeout)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _header_timeout(self) -> None:
        self._header_timer = None
        if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
            return
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a response is still being written
        if self.conn.trailing_data[0]:  # bytes of an incomplete request head
            self.transport.write(_timeout_response(header_timeout()))
        self.transport.close()


HTTP_PROTOCOL = f"{__name__}:HeaderTimeoutH11Protocol"
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
