"""``t2w mcp``: text2world's validator, scorer, planner and simulator as MCP tools for agents.

Tools: ``validate_domain``, ``score_domain``, ``plan``, ``validate_plan``, ``simulate``,
``list_domains`` and ``get_domain``, over stdio (the default) or streamable HTTP on loopback.

Bounded like the REST API (``text2world.api.app``): the text arguments of one call may hold
at most ``max_body`` bytes (the API's body limit, 1 MiB), semantic problems at most 20 with
names of at most 200 characters, every domain passes ``text2world.pddl.bounds`` before the
parser sees it, and every validation, scoring and simulation job runs in a scoring process of
the API's executor (``text2world.service.executor.ScoringExecutor``), stopped past
``score_timeout`` (10 s). Planning runs the planner front (in-process search bounded to about
2 s, then Fast Downward in its own process group, killed past ``plan_timeout``). Errors are
tool errors whose text starts with the API's error code (``invalid_domain: ...``).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Literal

from fastapi.responses import JSONResponse

from text2world.api.limits import BodyLimitMiddleware
from text2world.api.settings import DEFAULT_MAX_BODY, DEFAULT_SCORE_TIMEOUT
from text2world.errors import ApiError, ScoringTimeout, ScoringUnavailable
from text2world.service import simulation_jobs
from text2world.service.error_codes import MCP, api_error
from text2world.service.jobs import score_job, validate_job
from text2world.store.datasets import (
    BUILTIN,
    Dataset,
    DatasetUnavailable,
    Record,
    StoreGold,
    UnknownDataset,
    UnknownDomain,
    gold_from_store,
    named_dataset,
    named_record,
)

DEFAULT_PLAN_TIMEOUT = 20.0  # seconds; the world-model tasks' planner bound
MAX_PROBLEMS = 20  # semantic problems of one call, as ``ScoreRequest.problems``
MAX_PROBLEM_NAME = 200  # characters, as ``ProblemText.name``
MAX_PAGE = 500  # domains per list_domains page, as GET /v1/domains
DEFAULT_HTTP_PORT = 8766  # beside the REST API's 8765


@dataclass(frozen=True)
class McpSettings:
    max_body: int = DEFAULT_MAX_BODY
    """Bytes of text (UTF-8) the arguments of one tool call may hold."""
    score_timeout: float = DEFAULT_SCORE_TIMEOUT
    """Seconds one validation, scoring or simulation job may run; past it, the job is stopped."""
    plan_timeout: float = DEFAULT_PLAN_TIMEOUT
    """Seconds Fast Downward may search; the most a ``plan`` call may ask for."""
    processes: int = 1
    """Scoring processes (an agent's calls come one at a time)."""
    executor: str = "process"
    """"thread": jobs in threads of this process (past the time limit a job is reported as
    stopped but runs on): for hosts that own no process pool (an Inspect task's solver)."""

    def __post_init__(self) -> None:
        for name in ("max_body", "score_timeout", "plan_timeout", "processes"):
            if not getattr(self, name) > 0:
                raise ValueError(f"{name.replace('_', ' ')} must be positive, "
                                 f"not {getattr(self, name)}")


def _failure(err: ApiError) -> Exception:
    from mcp.server.mcpserver.exceptions import ToolError

    return ToolError(f"{err.code}: {err.message}" + (
        "\nerrors: " + json.dumps(err.details["errors"]) if "errors" in err.details else ""))


def _check_size(settings: McpSettings, **texts: Any) -> None:
    """The REST API's body limit, applied to the text a call carries."""
    size = 0
    for value in texts.values():
        if isinstance(value, str):
            size += len(value.encode("utf-8", "surrogatepass"))
        elif isinstance(value, (list, tuple)):
            size += sum(len(json.dumps(v, ensure_ascii=False).encode("utf-8", "surrogatepass"))
                        for v in value)
    if size > settings.max_body:
        raise ApiError(413, "payload_too_large", f"the arguments hold {size:,} bytes of text; the "
                       f"limit is {settings.max_body:,} (t2w mcp --max-body)")
    for name, value in texts.items():
        if isinstance(value, str):
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as err:
                raise ApiError(422, "invalid_request", f"{name} contains an unpaired UTF-16 "
                               f"surrogate at character {err.start}; send UTF-8 text") from None


def _one_of(first: tuple[str, Any], second: tuple[str, Any], what: str) -> None:
    if (first[1] is None) == (second[1] is None):
        raise ApiError(422, "invalid_request",
                       f"give exactly one of '{first[0]}' and '{second[0]}' ({what})")


def _dataset(name: str) -> Dataset:
    try:
        return named_dataset(name)
    except (UnknownDataset, DatasetUnavailable) as err:
        raise api_error(err, MCP) from None


def _record(dataset: str, record_id: str) -> Record:
    try:
        return named_record(dataset, record_id)
    except (UnknownDataset, DatasetUnavailable, UnknownDomain) as err:
        raise api_error(err, MCP) from None


def _gold(dataset: str, gold_id: str) -> StoreGold:
    try:
        return gold_from_store(dataset, gold_id)
    except (UnknownDataset, DatasetUnavailable, UnknownDomain) as err:
        raise api_error(err, MCP) from None


class Tools:
    """The tools as plain async methods (the MCP layer only wraps them), over one executor."""

    def __init__(self, settings: McpSettings) -> None:
        self.settings = settings
        self.executor: Any = None  # text2world.service.executor.ScoringExecutor, started with the server

    async def start(self) -> None:
        from text2world.service.executor import ScoringExecutor

        self.executor = ScoringExecutor(self.settings.executor, self.settings.processes,
                                        self.settings.score_timeout)
        await self.executor.start(wait=False)

    def close(self) -> None:
        if self.executor is not None:
            self.executor.close()
            self.executor = None

    async def _run(self, job, task: dict) -> dict:
        if self.executor is None:
            await self.start()
        try:
            return await self.executor.run(job, task, "mcp")
        except (ScoringTimeout, ScoringUnavailable) as err:
            raise api_error(err, MCP) from None

    # ---- the tools

    async def validate_domain(self, pddl: str | None = None, response: str | None = None,
                              exact_case: bool = False) -> dict:
        _one_of(("pddl", pddl), ("response", response), "a domain or a raw model answer")
        _check_size(self.settings, pddl=pddl, response=response)
        return await self._run(validate_job, {"pddl": pddl, "response": response,
                                              "exact_case": exact_case})

    async def score_domain(self, pddl: str | None = None, response: str | None = None,
                           gold_id: str | None = None, gold_pddl: str | None = None,
                           mode: str = "paper", semantic: bool = False,
                           problems: list[dict] | None = None, dataset: str = BUILTIN) -> dict:
        _one_of(("pddl", pddl), ("response", response), "a domain or a raw model answer")
        _one_of(("gold_id", gold_id), ("gold_pddl", gold_pddl), "a store id or a gold domain")
        if mode not in ("paper", "canonical"):
            raise ApiError(422, "invalid_request",
                           f"mode must be 'paper' or 'canonical', not {mode!r}")
        _check_size(self.settings, pddl=pddl, response=response, gold_pddl=gold_pddl,
                    problems=problems or [])
        pairs = _problem_pairs(problems)
        gold_ref: dict[str, str] | None = None
        gold: str | None
        if gold_id is not None:
            found = await asyncio.to_thread(_gold, dataset, gold_id)
            gold, gold_ref = found.domain, found.ref()
            pairs = pairs or list(found.problems)
        else:
            gold = gold_pddl
            if semantic and not pairs:
                raise ApiError(422, "invalid_request", "'semantic' with 'gold_pddl' needs "
                               "'problems' (a list of {name, pddl})")
        result = await self._run(score_job, {"gold": gold, "pddl": pddl, "response": response,
                                             "mode": mode, "semantic": semantic,
                                             "problems": pairs})
        return {**result, "gold": gold_ref}

    async def plan(self, domain: str, problem: str, timeout: float | None = None) -> dict:
        from text2world.planning.front import plan_problem

        _check_size(self.settings, domain=domain, problem=problem)
        limit = self.settings.plan_timeout if timeout is None else timeout
        if not 0 < limit <= self.settings.plan_timeout:
            raise ApiError(422, "invalid_request", f"timeout must be in (0, "
                           f"{self.settings.plan_timeout:g}] seconds (t2w mcp --plan-timeout), "
                           f"not {limit}")
        await self._run(simulation_jobs.check_planning_job, {"domain": domain, "problem": problem})
        # The planner front: in-process search (bounded to about 2 s), then Fast Downward,
        # whose process group is killed past ``limit``.
        result = await asyncio.to_thread(plan_problem, domain, problem, limit)
        answer = {"solved": result.solved, "status": result.status,
                  "plan": list(result.plan), "plan_length": result.plan_length,
                  "message": result.message, "planner": result.planner,
                  "timeout_seconds": limit}
        if result.solved:  # the planner's plan, replayed under VAL semantics
            answer["validated"] = await self._run(simulation_jobs.plan_check_job, {
                "domain": domain, "problem": problem, "plan": list(result.plan)})
        return answer

    async def validate_plan(self, domain: str, problem: str, plan: str | list[str]) -> dict:
        _check_size(self.settings, domain=domain, problem=problem,
                    plan=plan if isinstance(plan, str) else list(plan))
        return await self._run(simulation_jobs.validate_plan_job,
                               {"domain": domain, "problem": problem, "plan": plan})

    async def simulate(self, domain: str, problem: str, action: str,
                       state: list[str] | None = None) -> dict:
        _check_size(self.settings, domain=domain, problem=problem, action=action,
                    state=state or [])
        return await self._run(simulation_jobs.simulate_job, {"domain": domain, "problem": problem,
                                                       "action": action, "state": state})

    async def list_domains(self, dataset: str = BUILTIN, split: str = "all", offset: int = 0,
                           limit: int = 50) -> dict:
        if split not in ("all", "train", "test"):
            raise ApiError(422, "invalid_request",
                           f"split must be all, train or test, not {split!r}")
        if offset < 0 or not 1 <= limit <= MAX_PAGE:
            raise ApiError(422, "invalid_request",
                           f"offset must be at least 0 and limit in 1..{MAX_PAGE}")
        records = (await asyncio.to_thread(_dataset, dataset)).split(split)
        page = records[offset: offset + limit]
        return {"dataset": dataset, "split": split, "total": len(records), "offset": offset,
                "next_offset": offset + limit if offset + limit < len(records) else None,
                "items": [{"id": r.id, "name": r.name, "split": r.split,
                           "category": r.meta.get("category"),
                           "has_abstract": r.abstract is not None,
                           "has_concrete": r.concrete is not None,
                           "problems": len(r.problems)} for r in page]}

    async def get_domain(self, domain_id: str, dataset: str = BUILTIN) -> dict:
        record = await asyncio.to_thread(_record, dataset, domain_id)
        return {"dataset": dataset, "id": record.id, "name": record.name, "split": record.split,
                "domain": record.domain, "abstract": record.abstract,
                "concrete": record.concrete,
                "problems": [{"name": p.name, "pddl": p.pddl} for p in record.problems]}

    async def list_published(self) -> dict:
        """The published tables (as ``GET /v1/published``)."""
        from text2world.reports.published import PublishedError, published_index

        try:
            return await asyncio.to_thread(published_index)
        except PublishedError as err:
            raise api_error(err, MCP) from None


def _problem_pairs(problems: list[dict] | None) -> list[tuple[str, str]]:
    if not problems:
        return []
    if len(problems) > MAX_PROBLEMS:
        raise ApiError(422, "invalid_request",
                       f"problems: {len(problems)} given; at most {MAX_PROBLEMS}")
    pairs = []
    for index, entry in enumerate(problems):
        if (not isinstance(entry, dict) or not isinstance(entry.get("name"), str)
                or not isinstance(entry.get("pddl"), str) or set(entry) - {"name", "pddl"}):
            raise ApiError(422, "invalid_request",
                           f"problems[{index}] must be an object with text 'name' and 'pddl'")
        if len(entry["name"]) > MAX_PROBLEM_NAME:
            raise ApiError(422, "invalid_request", f"problems[{index}].name has more than "
                           f"{MAX_PROBLEM_NAME} characters")
        pairs.append((entry["name"], entry["pddl"]))
    return pairs


_DESCRIPTIONS = {
    "validate_domain": "Validate a PDDL domain (`pddl`) or a raw model answer (`response`, the "
                       "domain is extracted): ok, and every error and warning with its category, "
                       "line and column.",
    "score_domain": "Score a generated domain (`pddl` or `response`) against a gold (`gold_id` of "
                    "a store domain, or `gold_pddl`): mode `paper` (the released evaluator) or "
                    "`canonical` (rename-invariant); `semantic: true` adds plan validity, gold "
                    "plan acceptance, applicability F1, transition accuracy and diagnoses on the "
                    "gold's problems (or `problems`: [{name, pddl}]).",
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

    from text2world.api.server import HTTP_PROTOCOL

    guarded, _ = http_app(settings, host, allowed_hosts, token)
    # lifespan events pass through the middleware to the SDK's app (its session manager)
    uvicorn.run(guarded, host=host, port=port, log_level="warning", proxy_headers=False,
                server_header=False, http=HTTP_PROTOCOL, lifespan="on")


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
