"""The library's exception base: every error text2world raises on purpose derives from
``Text2WorldError``, so a caller can catch them all (``except Text2WorldError``) and still
tell the concerns apart by subclass (``DatasetError``, ``RunError``, ``ScoringError``, ...).

The subclasses keep their historical built-in bases too (most are ``ValueError``), so code
that caught those still works."""

from __future__ import annotations

from typing import Any, Callable

__all__ = ["Text2WorldError", "ApiError", "ScoringTimeout", "ScoringUnavailable", "PublishedError"]


class Text2WorldError(Exception):
    """A clear error of text2world: bad input, an unusable run, a model that cannot be
    called. Its message says what and where."""


class ApiError(Text2WorldError):
    """An error answered as ``{"error": {"code", "message", ...}}`` with an HTTP status (by the
    API and the MCP server); raised by the jobs (``service.jobs``, ``service.simulation_jobs``)
    and caught by what runs them, the agent protocol's tools included."""

    def __init__(self, status: int, code: str, message: str, headers: dict[str, str] | None = None,
                 **details: Any) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details
        self.headers = headers or {}

    def __reduce__(self) -> tuple[Callable[..., ApiError], tuple[Any, ...]]:
        # Raised inside scoring processes: must survive pickling back to the server.
        return (_api_error, (self.status, self.code, self.message, self.details))


def _api_error(status: int, code: str, message: str, details: dict) -> ApiError:
    return ApiError(status, code, message, **details)


class ScoringTimeout(Text2WorldError):
    """A scoring job (the API's and MCP's executor, ``service.executor``) ran past the time limit
    (``seconds``) and was stopped."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"the job ran past the {seconds:g} s limit and was stopped")


class ScoringUnavailable(Text2WorldError):
    """No scoring process could run the job (it died, or none has started in time)."""


class PublishedError(Text2WorldError, ValueError):
    """A published table (``reports.published``) that cannot be found or read, or a run that
    cannot be set beside it. Defined here so that the error-code table, below the reports,
    maps it without importing them."""
