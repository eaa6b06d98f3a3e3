"""Error answers of the REST service: ``{"error": {"code", "message", ...}}`` with a status.

``install_handlers`` makes every error take that form; nothing becomes a bare 500.
"""

from __future__ import annotations

import logging
from email.message import Message
from typing import Any, Sequence

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from text2world.errors import ApiError
from text2world.pddl.bounds import line_column

log = logging.getLogger("text2world.api")


def error_response(status: int, code: str, message: str, headers: dict | None = None,
                   **details: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **details}},
                        status_code=status, headers=headers)


HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}


def validation_details(errors: Sequence[Any]) -> list[dict]:
    """Pydantic errors without the echoed input (it may be a megabyte) or non-JSON context."""
    details = []
    for error in errors[:20]:
        location = [str(part) for part in error.get("loc", ())]
        details.append({"location": location, "message": str(error.get("msg", "")),
                        "type": str(error.get("type", ""))})
    return details


def validation_summary(details: list[dict]) -> str:
    """``field: what is wrong`` for the first three errors (``validation_details``' form), the
    text both the API's 422 and the MCP tools' ``invalid_request`` errors give."""
    parts = []
    for detail in details[:3]:
        where = ".".join(detail["location"][1:] if detail["location"][:1] == ["body"]
                         else detail["location"]) or "body"
        parts.append(f"{where}: {detail['message']}")
    more = f" (and {len(details) - 3} more)" if len(details) > 3 else ""
    return "; ".join(parts) + more


def _validation_message(details: list[dict]) -> str:
    if not details:
        return "the request is malformed"
    return "malformed request: " + validation_summary(details)


def _json_syntax_error(exc: RequestValidationError) -> tuple[str, dict] | None:
    """A body that is not JSON at all: where (character, and line and column when it has
    several lines) and what, as ``invalid JSON at character 35: expected a value``."""
    error = next((e for e in exc.errors() if e.get("type") == "json_invalid"), None)
    if error is None:
        return None
    location = tuple(error.get("loc", ()))
    offset = location[1] if len(location) > 1 and isinstance(location[1], int) else None
    reason = str((error.get("ctx") or {}).get("error") or "not JSON")
    # json's messages ("Expecting value", "Expecting ',' delimiter") as a person says them
    if reason == "Expecting value":
        reason = "expected a value"
    elif reason.startswith("Expecting "):
        reason = "expected " + reason.removeprefix("Expecting ")
    else:
        reason = reason[:1].lower() + reason[1:]
    if offset is None:
        return f"invalid JSON: {reason}", {}
    body = exc.body if isinstance(exc.body, str) else ""
    line, column = line_column(body, offset)
    where = f"character {offset + 1}" + (f" (line {line}, column {column})" if "\n" in body else "")
    return f"invalid JSON at {where}: {reason}", {"character": offset + 1, "line": line,
                                                  "column": column}


def _not_json(content_type: str | None) -> bool:
    """A Content-Type that FastAPI does not read as JSON (it reads a missing one as JSON)."""
    if not content_type:
        return False
    header = Message()
    header["content-type"] = content_type
    subtype = header.get_content_subtype()
    return header.get_content_maintype() != "application" or not (
        subtype == "json" or subtype.endswith("+json"))


def install_handlers(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(request: Request, exc: ApiError) -> JSONResponse:
        return error_response(exc.status, exc.code, exc.message, headers=exc.headers,
                              **exc.details)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        content_type = request.headers.get("content-type")
        body_errors = any(tuple(error.get("loc", ()))[:1] == ("body",) for error in exc.errors())
        if body_errors and _not_json(content_type):
            # FastAPI reads such a body as bytes, and pydantic would say "Input should be a
            # valid dictionary", which does not tell the client what to change.
            return error_response(
                415, "unsupported_media_type",
                f"the request body must be a JSON object sent with 'Content-Type: "
                f"application/json' (this request says {content_type!r})")
        syntax = _json_syntax_error(exc)
        if syntax is not None:
            message, position = syntax
            return error_response(422, "invalid_request", message, details=[
                {"location": ["body"], "message": message, "type": "json_invalid", **position}])
        details = validation_details(exc.errors())
        return error_response(422, "invalid_request", _validation_message(details), details=details)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400:
            # FastAPI's answer to a body that is not parseable JSON (e.g. nested too deeply).
            return error_response(422, "invalid_request",
                                  f"malformed request body: {exc.detail}; send a JSON object")
        if exc.status_code == 404:
            message = f"no such endpoint: {request.method} {request.url.path} (see /docs)"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path} (see /docs)"
        else:
            message = str(exc.detail)
        # exc.headers carries Allow on 405.
        return error_response(exc.status_code, HTTP_CODES.get(exc.status_code, "http_error"),
                              message, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, "internal_error",
                              f"unexpected {type(exc).__name__}; this is a bug in the service")
