"""The services over real processes (issue 31): Host names, tokens, slow bodies, a symlinked log,
oversized MCP calls over HTTP answered as over stdio (uvicorn for the API and the viewer, the MCP
client for both MCP transports)."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import socket
import subprocess
import sys
import time

import httpx
import pytest
from processes import free_port, stop_group
from repo_paths import FIXTURES, REPO

from text2world.api.guard import host_allowed, host_name, hosts_for_bind

FIXTURE_RUN = FIXTURES / "runs" / "legacy-eval"


class Service:
    """``t2w ARGS --port P`` in its own process group, ready once ``path`` answers."""

    def __init__(self, args: list[str], ready: str | None = "/healthz", headers: dict | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            [sys.executable, "-m", "text2world.cli", *args, "--port", str(self.port)], cwd=REPO,
            env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)
        deadline = time.monotonic() + 120
        while True:
            assert self.process.poll() is None, self.stop()
            try:
                if ready is None:
                    socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                    return
                if httpx.get(self.url + ready, timeout=2, headers=headers).status_code < 500:
                    return
            except (httpx.TransportError, OSError):
                pass
            assert time.monotonic() < deadline, "the service did not start within 120 s"
            time.sleep(0.2)

    def stop(self) -> str:
        return stop_group(self.process)


def test_host_names() -> None:
    assert host_name("LocalHost:8765") == "localhost" and host_name("[::1]:80") == "[::1]"
    assert host_name("127.0.0.1") == "127.0.0.1"
    assert host_allowed("api.example.com", ("*.example.com",)) and not host_allowed("example.org", ("*.example.com",))
    assert hosts_for_bind("127.0.0.1", None) == ("localhost", "127.0.0.1", "[::1]")
    assert hosts_for_bind("0.0.0.0", None) is None and hosts_for_bind("0.0.0.0", ("a",)) == ("a",)


@pytest.fixture(scope="module")
def api():
    service = Service(["serve", "--executor", "thread", "--score-processes", "1", "--body-timeout", "2",
                       "--token", "s3cret"])
    yield service
    output = service.stop()
    assert "Traceback" not in output, output


def test_api_checks_host_and_token(api: Service) -> None:
    auth = {"Authorization": "Bearer s3cret"}
    assert httpx.get(api.url + "/v1/domains?limit=1", headers=auth, timeout=30).status_code == 200
    foreign = httpx.get(api.url + "/v1/domains", headers={**auth, "Host": "evil.example:8765"}, timeout=30)
    assert foreign.status_code == 421 and foreign.json()["error"]["code"] == "invalid_host"
    missing = httpx.get(api.url + "/v1/domains", timeout=30)
    assert missing.status_code == 401 and missing.json()["error"]["code"] == "unauthorized"
    wrong = httpx.get(api.url + "/v1/domains", headers={"Authorization": "Bearer nope"}, timeout=30)
    assert wrong.status_code == 401
    assert httpx.get(api.url + "/healthz", timeout=30).status_code == 200  # probes carry no token
    # a browser passes it once; the cookie carries it after
    with httpx.Client(base_url=api.url, timeout=30) as browser:
        assert browser.get("/v1/domains?limit=1&token=s3cret").status_code == 200
        assert browser.get("/v1/domains?limit=1").status_code == 200


def test_api_times_out_a_body_that_trickles_in(api: Service) -> None:
    with socket.create_connection(("127.0.0.1", api.port), timeout=60) as raw:
        raw.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer s3cret\r\n"
                    b"Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"pddl\": \"")
        answer = b""
        started = time.monotonic()
        while b"\r\n\r\n" not in answer or not answer.rstrip().endswith(b"}"):
            raw.sendall(b"(")  # a byte now and then: never idle, never done
            time.sleep(0.2)
            raw.settimeout(0.01)
            try:
                chunk = raw.recv(65536)
            except TimeoutError:
                chunk = None
            except OSError:
                break
            raw.settimeout(60)
            if chunk == b"":
                break
            answer += chunk or b""
            assert time.monotonic() - started < 60, "no answer to a body that never ends"
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert b"T2W_API_BODY_TIMEOUT" in answer


def test_service_warns_when_exposed_without_token() -> None:
    with socket.socket() as taken:  # the port is held, so the service exits after its warning
        taken.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run([sys.executable, "-m", "text2world.cli", "serve", "--host", "0.0.0.0",
                                 "--port", str(port), "--executor", "thread"], capture_output=True, text=True,
                                timeout=120, cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert result.returncode == 1, result.stderr
    assert "without a token" in result.stderr and "cannot listen" in result.stderr, result.stderr


@pytest.fixture(scope="module")
def viewer(tmp_path_factory):
    runs = tmp_path_factory.mktemp("guard-runs") / "runs"
    outside = tmp_path_factory.mktemp("outside")
    shutil.copytree(FIXTURE_RUN, runs / "linked-log")
    shutil.copy(FIXTURE_RUN / "log.jsonl", outside / "log.jsonl")
    (runs / "linked-log" / "log.jsonl").unlink()
    (runs / "linked-log" / "log.jsonl").symlink_to(outside / "log.jsonl")
    shutil.copytree(FIXTURE_RUN, runs / "plain")
    service = Service(["view", str(runs), "--no-warm"], ready="/view/")
    yield service
    output = service.stop()
    assert "Traceback" not in output, output


def test_viewer_refuses_a_log_outside_the_runs_folder(viewer: Service) -> None:
    assert httpx.get(viewer.url + "/v1/runs/plain/overview", timeout=60).status_code == 200
    linked = httpx.get(viewer.url + "/v1/runs/linked-log/overview", timeout=60)
    assert linked.status_code == 422, linked.text
    assert "log.jsonl points outside the runs directory" in linked.json()["error"]["message"]
    listed = httpx.get(viewer.url + "/v1/runs", timeout=60).json()
    assert "log.jsonl points outside" in json.dumps(listed)


def test_viewer_checks_host(viewer: Service) -> None:
    assert httpx.get(viewer.url + "/view/", headers={"Host": "localhost"}, timeout=60).status_code == 200
    foreign = httpx.get(viewer.url + "/view/", headers={"Host": "rebound.example"}, timeout=60)
    assert foreign.status_code == 421


def _oversized() -> dict:
    return {"pddl": "(define (domain d) " + ";" * 1_100_000 + ")"}


def test_mcp_oversized_call_is_the_same_tool_error_on_both_transports() -> None:
    pytest.importorskip("mcp")
    from mcp import Client, StdioServerParameters
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    mcp = Service(["mcp", "--http", "--token", "tok"], ready=None)
    try:
        async def over_http(arguments: dict, host: str = "127.0.0.1") -> tuple[bool, str]:
            headers = {"Authorization": "Bearer tok", "Host": f"{host}:{mcp.port}"}
            transport = streamable_http_client(f"http://127.0.0.1:{mcp.port}/mcp",
                                               http_client=create_mcp_http_client(headers=headers))
            async with Client(transport, read_timeout_seconds=60) as client:
                result = await client.call_tool("validate_domain", arguments)
                return result.is_error, result.content[0].text

        async def over_stdio(arguments: dict) -> tuple[bool, str]:
            parameters = StdioServerParameters(command=sys.executable, args=["-m", "text2world.cli", "mcp"],
                                               env={"PYTHONPATH": str(REPO), "T2W_HOME": os.environ["T2W_HOME"]})
            async with Client(parameters, read_timeout_seconds=120) as client:
                result = await client.call_tool("validate_domain", arguments)
                return result.is_error, result.content[0].text

        huge = {"pddl": "(define (domain d) " + ";" * 7_000_000 + ")"}  # past the transport's limit too
        answers = [asyncio.run(over_stdio(_oversized())), asyncio.run(over_http(_oversized())),
                   asyncio.run(over_http(huge))]
        for is_error, text in answers:
            assert is_error and "payload_too_large:" in text, text
        assert not asyncio.run(over_http({"pddl": "(define (domain d))"}))[0]
        foreign = httpx.post(mcp.url + "/mcp", headers={"Host": "evil.example", "Authorization": "Bearer tok"},
                             json={}, timeout=30)
        assert foreign.status_code == 421
        assert httpx.post(mcp.url + "/mcp", json={}, timeout=30).status_code == 401
    finally:
        output = mcp.stop()
    assert "Traceback" not in output, output


# ---- fuzz: generated domains of growing arity, depth and size, every entry point


def _generated(arity: int, depth: int, actions: int) -> tuple[str, str, str]:
    """A domain whose first action has ``arity`` parameters chained by ``next`` and a
    precondition nested ``depth`` levels of and/or/not; ``actions`` actions in all; a problem
    and a one-step plan."""
    params = " ".join(f"?x{i} - n" for i in range(arity))
    chain = " ".join(f"(next ?x{i} ?x{i + 1})" for i in range(arity - 1)) or "(mark ?x0)"
    nested = "(mark ?x0)"
    for level in range(depth):
        nested = ("(not (not {}))", "(or {} (mark ?x0))", "(and {} (next ?x0 ?x0))")[level % 3].format(nested)
    extra = "".join(f"(:action a{i} :parameters (?y - n) :precondition (mark ?y) :effect (not (mark ?y)))"
                    for i in range(actions - 1))
    domain = ("(define (domain fuzz) (:requirements :strips :typing :negative-preconditions"
              " :disjunctive-preconditions) (:types n) (:predicates (next ?a - n ?b - n) (mark ?a - n))"
              f" (:action walk :parameters ({params}) :precondition (and {chain} (or {nested} (not (mark ?x0))))"
              f"  :effect (mark ?x{arity - 1})) {extra})")
    nodes = " ".join(f"n{i}" for i in range(4))
    init = " ".join(f"(next n{i} n{(i + 1) % 4})" for i in range(4))
    problem = f"(define (problem p) (:domain fuzz) (:objects {nodes} - n) (:init {init}) (:goal (mark n3)))"
    step = "(walk " + " ".join(f"n{i % 4}" for i in range(arity)) + ")"
    return domain, problem, step


FUZZ = [(1, 0, 1), (8, 4, 5), (19, 10, 20), (21, 20, 40), (30, 30, 80), (45, 40, 150)]


@pytest.mark.slow
def test_fuzz_generated_domains_reach_no_500_no_traceback() -> None:
    pytest.importorskip("mcp")
    from mcp import Client, StdioServerParameters
    from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

    cases = [_generated(*shape) for shape in FUZZ]
    api = Service(["serve", "--executor", "process", "--score-processes", "1"])
    mcp = Service(["mcp", "--http"], ready=None)
    try:
        with httpx.Client(base_url=api.url, timeout=120) as client:
            for domain, problem, _ in cases:
                answer = client.post("/v1/score", json={
                    "pddl": domain, "gold_pddl": domain, "semantic": True,
                    "problems": [{"name": "p", "pddl": problem}]})
                assert answer.status_code < 500, answer.text[:500]
                if answer.status_code == 200:
                    assert "SyntaxError" not in answer.text and "nested" not in answer.text, answer.text[:500]

        async def tools(client) -> None:
            for domain, problem, step in cases:
                calls = {"validate_domain": {"pddl": domain},
                         "score_domain": {"pddl": domain, "gold_pddl": domain, "semantic": True,
                                          "problems": [{"name": "p", "pddl": problem}]},
                         "simulate": {"domain": domain, "problem": problem, "action": step},
                         "validate_plan": {"domain": domain, "problem": problem, "plan": step},
                         "plan": {"domain": domain, "problem": problem, "timeout": 5}}
                for tool, arguments in calls.items():
                    result = await client.call_tool(tool, arguments)
                    text = json.dumps(result.structured_content) if not result.is_error else result.content[0].text
                    assert "Traceback" not in text and "SyntaxError" not in text, (tool, text[:500])
                    if result.is_error:  # a documented error: a code, a colon, a message
                        assert text.split(":", 1)[0].replace("Error executing tool ", "").strip(), text

        async def both() -> None:
            parameters = StdioServerParameters(command=sys.executable, args=["-m", "text2world.cli", "mcp"],
                                               env={"PYTHONPATH": str(REPO), "T2W_HOME": os.environ["T2W_HOME"]})
            async with Client(parameters, read_timeout_seconds=120) as client:
                await tools(client)
            transport = streamable_http_client(f"http://127.0.0.1:{mcp.port}/mcp",
                                               http_client=create_mcp_http_client())
            async with Client(transport, read_timeout_seconds=120) as client:
                await tools(client)

        asyncio.run(both())
    finally:
        outputs = api.stop() + mcp.stop()
    assert "Traceback" not in outputs, outputs[-3000:]
