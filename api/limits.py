"""Request body limit of the REST service (ASGI middleware)."""

from __future__ import annotations

from fastapi.responses import JSONResponse

from .errors import error_response


class BodyLimitMiddleware:
    """Answer 413 to bodies over ``max_body`` bytes, declared or streamed (chunked)."""

    def __init__(self, app, max_body: int) -> None:
        self.app = app
        self.max_body = max_body

    def _too_large(self, size: str) -> JSONResponse:
        # Connection: close: the server stops here instead of reading (and discarding) the
        # rest of a body it has refused.
        return error_response(
            413, "payload_too_large",
            f"the request body is {size} bytes; the limit is {self.max_body:,} bytes "
            "(T2W_API_MAX_BODY / t2w serve --max-body)", headers={"Connection": "close"},
            limit=self.max_body)

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None:
            try:
                length = int(declared)
            except ValueError:
                await error_response(422, "invalid_request", "invalid Content-Length header")(scope, receive, send)
                return
            if length > self.max_body:
                await self._too_large(f"{length:,}")(scope, receive, send)
                return
        # Read the whole body first (it is at most max_body) so a streamed body that grows past
        # the limit is refused before the application sees any of it.
        chunks, size = [], 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                await self._too_large(f"over {self.max_body:,}")(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        sent = False

        async def replay():
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)
