"""Error answers of the REST service: ``{"error": {"code", "message", ...}}`` with a status."""

from __future__ import annotations

from typing import Any

from fastapi.responses import JSONResponse


def error_response(status: int, code: str, message: str, headers: dict | None = None,
                   **details: Any) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message, **details}},
                        status_code=status, headers=headers)


HTTP_CODES = {404: "not_found", 405: "method_not_allowed", 413: "payload_too_large"}
