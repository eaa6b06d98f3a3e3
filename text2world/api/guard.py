"""Who may talk to the service: the ``Host`` header and an optional bearer token (ASGI middleware).

A web page can reach a loopback service by DNS rebinding: its own name, re-pointed to
127.0.0.1, arrives in the ``Host`` header. Checking that header against the names the service
is meant to be reached by stops it (Starlette's ``TrustedHostMiddleware``; the MCP SDK answers
421 the same way). A token protects a service bound beyond loopback. Both apply to the REST
API, the viewer and (with the SDK's own check) the MCP HTTP server.
"""

from __future__ import annotations

import hmac
import ipaddress
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

from text2world.api.errors import error_response

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]")
TOKEN_COOKIE = "t2w_token"
EXEMPT_PATHS = ("/healthz", "/readyz")  # probes of a container runtime carry no token


def is_loopback(host: str) -> bool:
    """Whether binding to ``host`` listens on this machine only."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_name(header: str) -> str:
    """The name of a ``Host`` header value, without its port, lowercased (IPv6 in brackets)."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[:header.find("]") + 1] if "]" in header else header
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def host_allowed(name: str, allowed: tuple[str, ...]) -> bool:
    return any(name == pattern or pattern == "*"
               or (pattern.startswith("*.") and name.endswith(pattern[1:])) for pattern in allowed)


def hosts_for_bind(bind_host: str, allowed: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """The ``Host`` names a service bound to ``bind_host`` answers to: those given, else the
    loopback names when it listens on loopback only, else any (None)."""
    if allowed:
        return allowed
    return LOOPBACK_HOSTS if is_loopback(bind_host) else None


def exposure_warning(bind_host: str, token: str | None, what: str = "the service") -> str | None:
    """A warning for a service bound beyond loopback without a token, else None."""
    if is_loopback(bind_host) or token:
        return None
    return (f"{what} listens on {bind_host}, beyond this machine, without a token: anyone who can "
            "reach it may use it; set --token (T2W_API_TOKEN) and --allowed-hosts")


def parse_hosts(raw: str | None) -> tuple[str, ...] | None:
    """``a,b`` (an option's value) as a tuple of lowercased names; None or empty: None."""
    hosts = tuple(host.strip().lower() for host in (raw or "").split(",") if host.strip())
    return hosts or None


class GuardMiddleware:
    """421 for a ``Host`` not in ``allowed_hosts`` (None: any); 401 without ``token`` (None:
    none needed). A browser may pass the token once as ``?token=``: it is kept in an HttpOnly,
    same-site cookie, so the viewer's pages and their requests carry it."""

    def __init__(self, app, allowed_hosts: tuple[str, ...] | None, token: str | None) -> None:
        self.app = app
        self.allowed_hosts = allowed_hosts
        self.token = token

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {key.decode("latin-1"): value.decode("latin-1") for key, value in scope.get("headers") or ()}
        if self.allowed_hosts is not None:
            name = host_name(headers.get("host", ""))
            if not host_allowed(name, self.allowed_hosts):
                await error_response(
                    421, "invalid_host",
                    f"this service is not served as {name or 'an empty Host'!r}; it answers to "
                    f"{', '.join(self.allowed_hosts)} (T2W_API_ALLOWED_HOSTS, --allowed-hosts)",
                    headers={"Connection": "close"})(scope, receive, send)
                return
        if self.token is None or scope.get("path") in EXEMPT_PATHS:
            await self.app(scope, receive, send)
            return
        given = self._bearer(headers) or self._cookie(headers)
        from_query = None
        if given is None:
            from_query = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [None])[0]
            given = from_query
        if given is None or not hmac.compare_digest(given.encode(), self.token.encode()):
            await error_response(
                401, "unauthorized",
                "this service needs its token: send 'Authorization: Bearer TOKEN' (T2W_API_TOKEN, --token)"
                if given is None else "the token is not this service's (T2W_API_TOKEN, --token)",
                headers={"WWW-Authenticate": "Bearer"})(scope, receive, send)
            return
        if from_query is None:
            await self.app(scope, receive, send)
            return

        async def send_with_cookie(message) -> None:
            if message["type"] == "http.response.start":
                cookie = f"{TOKEN_COOKIE}={self.token}; HttpOnly; SameSite=Strict; Path=/"
                message = {**message, "headers": [*message.get("headers", ()),
                                                  (b"set-cookie", cookie.encode("latin-1"))]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    @staticmethod
    def _bearer(headers: dict[str, str]) -> str | None:
        scheme, _, value = headers.get("authorization", "").partition(" ")
        return value.strip() if scheme.lower() == "bearer" and value.strip() else None

    @staticmethod
    def _cookie(headers: dict[str, str]) -> str | None:
        if "cookie" not in headers:
            return None
        try:
            morsel = SimpleCookie(headers["cookie"]).get(TOKEN_COOKIE)
        except CookieError:
            return None
        return morsel.value if morsel is not None else None


__all__ = ["LOOPBACK_HOSTS", "GuardMiddleware", "exposure_warning", "host_allowed", "host_name", "hosts_for_bind",
           "is_loopback", "parse_hosts"]
