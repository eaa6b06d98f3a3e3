"""``t2w mcp``: text2world's validator, scorer, planner and simulator as MCP tools for agents.

Tools: ``validate_domain``, ``score_domain``, ``score_problem``, ``plan``, ``validate_plan``, ``simulate``,
``list_domains``, ``get_domain`` and ``list_published``, over stdio (the default) or streamable
HTTP on loopback.

The tools are the service's (``service.tools``, which the agent protocol calls too), bounded
like the REST API: the text arguments of one call may hold at most ``max_body`` bytes (1 MiB),
every validation, scoring and simulation job runs in a scoring process of
``service.executor.ScoringExecutor``, stopped past ``score_timeout`` (10 s), and planning is
bounded by ``plan_timeout``. This module adds ``list_published`` (the published tables belong
to the reports, above the service), the MCP server, its HTTP transport and ``t2w mcp``'s
client. Errors are tool errors whose text starts with the API's error code
(``invalid_domain: ...``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Literal

from fastapi.responses import JSONResponse

from text2world.api.limits import BodyLimitMiddleware
from text2world.errors import ApiError
from text2world.service import tools as service_tools
from text2world.service.error_codes import MCP, api_error
from text2world.service.tools import McpSettings

DEFAULT_HTTP_PORT = 8766  # beside the REST API's 8765


def _failure(err: ApiError) -> Exception:
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(f"{err.code}: {err.message}" + (
        "\nerrors: " + json.dumps(err.details["errors"]) if "errors" in err.details else ""))


class Tools(service_tools.Tools):
    """The service's tools (``service.tools.Tools``), and the published tables: they belong
    to the reports, above the service, so only the MCP server offers them."""

    async def list_published(self) -> dict:
        """The published tables (as ``GET /v1/published``)."""
        from text2world.reports.published import PublishedError, published_index

        try:
            return await asyncio.to_thread(published_index)
        except PublishedError as err:
            raise api_error(err, MCP) from None


_DESCRIPTIONS = {
    "validate_domain": "Validate a PDDL domain (`pddl`) or a raw model answer (`response`, the "
                       "domain is extracted): ok, and every error and warning with its category, "
                       "line and column.",
    "score_domain": "Score a generated domain (`pddl` or `response`) against a gold (`gold_id` of "
                    "a store domain, or `gold_pddl`): mode `paper` (the released evaluator) or "
                    "`canonical` (rename-invariant); `semantic: true` adds plan validity, gold "
                    "plan acceptance, applicability F1, transition accuracy and diagnoses on the "
                    "gold's problems (or `problems`: [{name, pddl}]).",
    "score_problem": "Score a problem answer (`response`, a raw model answer holding "
                     "`(define (problem ...))`) against a gold problem (`gold_problem`: a "
                     "problem name of the store domain `gold_id`, or problem PDDL with "
                     "`gold_pddl`): reward 1.0 when it poses the gold's task (the same initial "
                     "state up to a renaming of objects, goals accepting the same reachable "
                     "states), else 0, with the reason and the verdict.",
    "plan": "Solve a PDDL problem (the planner front: in-process greedy search, then Fast "
            "Downward lama-first): the plan, or the status (unsolvable, timeout, ...), and "
            "which planner answered. The plan is replayed in the simulator (`validated`).",
    "validate_plan": "Execute a plan (text, one step per line, or a list of steps such as "
                     "\"(stack a b)\") from the problem's initial state: valid, the first failing "
                     "step (1-based) with its unsatisfied preconditions, or the goals left unmet.",
    "simulate": "Apply one ground action (\"(stack a b)\") in a state (a list of atoms such as "
                "\"(on a b)\"; default: the problem's initial state): applicable, the "
                "unsatisfied preconditions, the next state, what it added and deleted, cost.",
    "list_domains": "The domains of a dataset (default: the built-in store), a page at a time.",
    "get_domain": "One stored domain: gold PDDL, abstract and concrete descriptions, problems.",
    "list_published": "The published result tables (the Text2World paper's Tables 1, 6 and 2's "
                      "in-context rows, and the user's): name, family, source (paper, arXiv "
                      "id, table), conditions (description, prompt), metrics, models.",
}


def build_server(settings: McpSettings | None = None):
    """The MCP server (``mcp.server.MCPServer``) with the tools registered."""
    from text2world.version import __version__

    _Server = _server_class()

    tools = Tools(settings or McpSettings())

    @asynccontextmanager
    async def lifespan(_server) -> AsyncIterator[None]:
        await tools.start()
        try:
            yield None
        finally:
            tools.close()

    server = _Server("text2world", version=__version__, lifespan=lifespan,
                       instructions="Validate, score, plan and simulate PDDL domains; the "
                                    "text2world store's domains are listed by list_domains.",
                       log_level="WARNING")

    def register(name: str, function) -> None:
        async def call(**arguments: Any) -> dict:
            try:
                return await function(**arguments)
            except ApiError as err:
                raise _failure(err) from None
        call.__name__ = name
        call.__signature__ = _signature(function)  # type: ignore[attr-defined]  # the schema
        call.__annotations__ = {**function.__annotations__}
        server.add_tool(call, name=name, description=_DESCRIPTIONS[name])

    for name in _DESCRIPTIONS:
        register(name, getattr(tools, name))
    return server


def _server_class():
    """``MCPServer`` whose argument errors (wrong type, missing argument: the SDK checks them
    against the schema before a tool runs) carry the documented code prefix, as every other
    tool error does: ``invalid_request: pddl: Input should be a valid string``."""
    from mcp.server import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from pydantic import ValidationError

    from text2world.api.errors import validation_details, validation_summary

    class Server(MCPServer):
        async def call_tool(self, name: str, arguments: dict[str, Any], context=None):
            try:
                return await super().call_tool(name, arguments, context)
            except ToolError as err:
                if not isinstance(err.__cause__, ValidationError):
                    raise
                summary = validation_summary(validation_details(err.__cause__.errors()))
                raise ToolError(f"Error executing tool {name}: invalid_request: {summary}") \
                    from err.__cause__

    return Server


def _signature(method):
    import inspect
    import typing

    signature = inspect.signature(method)
    hints = typing.get_type_hints(method)
    parameters = [parameter.replace(annotation=hints.get(parameter.name, Any))
                  for parameter in signature.parameters.values()]
    return signature.replace(parameters=parameters, return_annotation=dict[str, Any])


Transport = Literal["stdio", "http"]


# JSON escapes one byte of text as at most 6 (\u0001): a call whose text is within max_body
# fits in this many bytes, so the tool's own check (_check_size) answers it, as over stdio.
def _http_body_limit(settings: McpSettings) -> int:
    return 6 * settings.max_body + 64 * 1024


_REQUEST_ID = re.compile(rb'"id"\s*:\s*("(?:[^"\\]|\\.){0,200}"|-?\d{1,20})')


class _CallSizeLimit(BodyLimitMiddleware):
    """A body past the transport's limit answered as the tool answers an oversized call over
    stdio (a tool result with ``payload_too_large``), not as a transport error; and the REST
    API's body deadline."""

    trust_declared = False  # the answer needs the request's id, at the head of the body

    def __init__(self, app, settings: McpSettings, body_timeout: float) -> None:
        super().__init__(app, _http_body_limit(settings), body_timeout)
        self.tool_limit = settings.max_body

    def _too_large(self, size: str, head: bytes = b"") -> JSONResponse:
        found = _REQUEST_ID.search(head[:4096])
        request_id = json.loads(found.group(1)) if found else None
        text = (f"payload_too_large: the arguments hold more than {self.tool_limit:,} bytes of text; "
                f"the limit is {self.tool_limit:,} (t2w mcp --max-body)")
        from mcp.types import CallToolResult, TextContent

        result = CallToolResult(content=[TextContent(type="text", text=text)], is_error=True).model_dump(
            by_alias=True, mode="json", exclude_none=True)
        return JSONResponse({"jsonrpc": "2.0", "id": request_id, "result": result},
                            headers={"Connection": "close"})


def http_app(settings: McpSettings, host: str = "127.0.0.1", allowed_hosts: tuple[str, ...] | None = None,
             token: str | None = None):
    """The streamable HTTP app (at /mcp): the SDK's, with the REST API's guard (Host names,
    token), an oversized call answered as over stdio and a deadline for request bodies."""
    from mcp.server.transport_security import TransportSecuritySettings

    from text2world.api.guard import GuardMiddleware, hosts_for_bind
    from text2world.api.settings import Settings

    hosts = hosts_for_bind(host, allowed_hosts)
    # The SDK checks Host (and Origin) itself where it is given names; the guard answers the same 421.
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=hosts is not None,
        allowed_hosts=[h for name in hosts or () for h in (name, f"{name}:*")],
        allowed_origins=[o for name in hosts or () for o in (f"http://{name}", f"http://{name}:*")])
    app = build_server(settings).streamable_http_app(
        max_request_body_size=_http_body_limit(settings) + 1, transport_security=security, host=host)
    limited = _CallSizeLimit(app, settings, Settings.from_env().body_timeout)
    return GuardMiddleware(limited, allowed_hosts=hosts, token=token), app


def serve(settings: McpSettings, transport: Transport = "stdio", host: str = "127.0.0.1",
          port: int = DEFAULT_HTTP_PORT, allowed_hosts: tuple[str, ...] | None = None,
          token: str | None = None) -> None:
    """Run the server until its client goes away (stdio) or it is interrupted (HTTP)."""
    if transport == "stdio":
        build_server(settings).run("stdio")
        return
    import uvicorn

    from text2world.api.server import HTTP_PROTOCOL, log_config

    guarded, _ = http_app(settings, host, allowed_hosts, token)
    # lifespan events pass through the middleware to the SDK's app (its session manager)
    uvicorn.run(guarded, host=host, port=port, log_level="warning", proxy_headers=False,
                server_header=False, http=HTTP_PROTOCOL, lifespan="on", log_config=log_config())


def default_processes() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def call_over_stdio(tool: str, arguments: dict,
                    server_args: list[str] | None = None) -> tuple[bool, Any]:
    """Start ``t2w mcp`` as a subprocess, call one tool through the MCP client over stdio and
    return (is_error, structured result or error text): what an agent's client does."""
    import sys

    import anyio
    from mcp import Client, StdioServerParameters

    async def call() -> tuple[bool, Any]:
        parameters = StdioServerParameters(
            command=sys.executable, args=["-m", "text2world.cli", "mcp", *(server_args or [])],
            env={key: value for key, value in os.environ.items()
                 if key in ("PYTHONPATH", "T2W_HOME", "T2W_DATA_DIR", "PATH")})
        async with Client(parameters, read_timeout_seconds=300) as client:
            result = await client.call_tool(tool, arguments)
        if result.is_error:
            return True, " ".join(part.text for part in result.content if hasattr(part, "text"))
        return False, result.structured_content

    return anyio.run(call)
