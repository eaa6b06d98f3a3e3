"""``t2w mcp``: the tools driven through the ``mcp`` client library, over stdio in a real
subprocess and over streamable HTTP, and the tool functions in-process."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("mcp")

from api_helpers import huge_domain
from mcp import Client, StdioServerParameters
from processes import free_port
from repo_paths import REPO

from text2world import score, validate
from text2world.integrations.mcp_server import McpSettings, Tools, build_server
from text2world.scoring.problem_answer import score_problem_answer
from text2world.scoring.semantic import semantic_score
from text2world.store.datasets import load_dataset

TOOLS = {"validate_domain", "score_domain", "score_problem", "plan", "validate_plan", "simulate",
         "list_domains", "get_domain", "list_published"}
BROKEN = ("(define (domain broken) (:requirements :strips)\n  (:predicates (p))\n"
          "  (:action a :parameters ()\n    :precondition (q)\n    :effect (p)))")


def _env() -> dict[str, str]:
    return {"PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
            "T2W_HOME": os.environ["T2W_HOME"]}


def _result(result) -> dict:
    assert not result.is_error, result.content[0].text
    return result.structured_content


def _error(result) -> str:
    assert result.is_error, result.structured_content
    text = result.content[0].text
    return text.split(": ", 1)[1] if text.startswith("Error executing tool ") else text


def _blocksworld():
    record = load_dataset().get("blocksworld")
    return record, record.problems[0].pddl


def test_stdio_subprocess_serves_every_tool():
    record, problem = _blocksworld()
    broken_pred = record.domain.replace("(clear ?x)", "(clear ?x ?x)", 1)

    async def session() -> None:
        parameters = StdioServerParameters(command=sys.executable,
                                           args=["-m", "text2world.cli", "mcp"], env=_env(),
                                           cwd=str(REPO))
        async with Client(parameters, read_timeout_seconds=120) as client:
            assert {tool.name for tool in (await client.list_tools()).tools} == TOOLS

            checked = _result(await client.call_tool("validate_domain", {"pddl": BROKEN}))
            assert checked["ok"] is False
            assert checked["errors"] == [e.to_dict() for e in validate(BROKEN).errors]
            assert checked["errors"][0]["line"] == 4

            scored = _result(await client.call_tool("score_domain", {
                "pddl": broken_pred, "gold_id": "blocksworld", "mode": "canonical"}))
            library = score(record.domain, broken_pred, mode="canonical").to_dict(details=True)
            assert {k: scored[k] for k in library} == json.loads(json.dumps(library))
            assert scored["gold"] == {"dataset": "text2world", "id": "blocksworld"}

            semantic = _result(await client.call_tool("score_domain", {
                "pddl": record.domain, "gold_pddl": record.domain, "semantic": True,
                "problems": [{"name": p.name, "pddl": p.pddl} for p in record.problems]}))
            expected = semantic_score(record.domain, record.domain,
                                      [(p.name, p.pddl) for p in record.problems])
            assert semantic["semantic"]["ok"] is True
            metrics = expected.metrics()
            assert {k: semantic["semantic"][k] for k in metrics} == metrics

            planned = _result(await client.call_tool("plan", {"domain": record.domain,
                                                              "problem": problem}))
            assert planned["solved"] and planned["validated"]["valid"] is True
            assert planned["planner"].startswith("in-process")  # the planner front answered
            verdict = _result(await client.call_tool("validate_plan", {
                "domain": record.domain, "problem": problem, "plan": "\n".join(planned["plan"])}))
            assert verdict["valid"] is True and verdict["failed_step"] is None

            step = _result(await client.call_tool("simulate", {
                "domain": record.domain, "problem": problem, "action": planned["plan"][0]}))
            assert step["applicable"] is True and step["added"] and step["deleted"]

            page = _result(await client.call_tool("list_domains", {"limit": 5}))
            assert page["total"] == len(load_dataset()) and len(page["items"]) == 5
            domain = _result(await client.call_tool("get_domain", {"domain_id": "blocksworld"}))
            assert domain["domain"] == record.domain

            assert _error(await client.call_tool("get_domain", {"domain_id": "nope"})).startswith(
                "unknown_domain: dataset 'text2world' has no domain with id 'nope'")
            too_big = "x" * (1024 * 1024 + 1)
            assert "payload_too_large" in _error(await client.call_tool(
                "validate_domain", {"pddl": too_big}))

    asyncio.run(session())




def _http_server(port: int, *options: str) -> subprocess.Popen:
    """``t2w mcp --http`` on ``port``, once it accepts connections."""
    server = subprocess.Popen([sys.executable, "-m", "text2world.cli", "mcp", "--http",
                               "--port", str(port), *options], cwd=REPO,
                              env={**os.environ, **_env()}, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return server
        except OSError:
            if server.poll() is not None or time.monotonic() > deadline:
                server.kill()
                pytest.fail("the HTTP server did not start: " + server.stderr.read().decode())
            time.sleep(0.2)


def test_streamable_http_on_loopback():
    port = free_port()
    server = _http_server(port)
    try:
        async def session() -> None:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=60) as client:
                checked = _result(await client.call_tool("validate_domain", {"pddl": BROKEN}))
                assert checked["errors"][0]["line"] == 4

        asyncio.run(session())
    finally:
        server.terminate()
        server.wait(30)


# ---- in-process: the tool functions themselves


def _run(coroutine_factory, settings: McpSettings | None = None):
    async def main():
        tools = Tools(settings or McpSettings())
        await tools.start()
        try:
            return await coroutine_factory(tools)
        finally:
            tools.close()
    return asyncio.run(main())


def test_validate_plan_names_failing_step_and_unmet_goals():
    record, problem = _blocksworld()

    async def calls(tools: Tools):
        failing = await tools.validate_plan(record.domain, problem, ["(unstack b a)", "(pick-up a)",
                                                                     "(stack a c)"])
        short = await tools.validate_plan(record.domain, problem, "(unstack b a)\n(stack b c)")
        return failing, short

    failing, short = _run(calls)
    assert failing["valid"] is False and failing["failed_step"] == 2
    assert failing["failed_action"] == "(pick-up a)"
    assert failing["unsatisfied_preconditions"] == ["(hand-empty)"]
    assert short["valid"] is False and short["failed_step"] is None
    assert short["steps_applied"] == 2 and short["unmet_goals"] == ["(on a b)"]


def test_simulate_in_a_given_state_and_inapplicable_actions():
    record, problem = _blocksworld()

    async def calls(tools: Tools):
        state = ["(on-table a)", "(on-table b)", "(clear a)", "(clear b)", "(hand-empty)"]
        picked = await tools.simulate(record.domain, problem, "(pick-up a)", state)
        blocked = await tools.simulate(record.domain, problem, "(pick-up a)")
        return picked, blocked

    picked, blocked = _run(calls)
    assert picked["applicable"] and picked["added"] == ["(holding a)"]
    assert sorted(picked["deleted"]) == ["(clear a)", "(hand-empty)", "(on-table a)"]
    assert blocked["applicable"] is False and blocked["next_state"] is None
    assert blocked["unsatisfied_preconditions"] == ["(clear a)"]


@pytest.mark.parametrize("call, code", [
    (lambda t, d, p: t.simulate(d, p, "(pick-up a)", ["(floating a)"]), "invalid_state: state[0]"),
    (lambda t, d, p: t.simulate(d, p, "(pick-up a)", ["(clear a b)"]), "invalid_state: state[0]"),
    (lambda t, d, p: t.simulate(d, p, "(fly a)"), "invalid_action"),
    (lambda t, d, p: t.simulate(BROKEN, p, "(a)"),
     "invalid_domain: the domain does not parse: line 4"),
    (lambda t, d, p: t.validate_plan(d, "(define (problem", "(pick-up a)"), "invalid_problem"),
    (lambda t, d, p: t.plan(d, p, timeout=1000), "invalid_request: timeout"),
    (lambda t, d, p: t.score_domain(pddl=d, gold_pddl=d, semantic=True), "invalid_request"),
    (lambda t, d, p: t.score_domain(pddl=d, gold_id="blocksworld", mode="exact"),
     "invalid_request"),
    (lambda t, d, p: t.score_domain(pddl=d, response="x", gold_id="blocksworld"),
     "invalid_request"),
    (lambda t, d, p: t.score_domain(pddl=d, gold_pddl=d, semantic=True,
                                    problems=[{"name": "p"}]), "invalid_request: problems[0]"),
    (lambda t, d, p: t.list_domains(dataset="nope"), "unknown_dataset"),
    (lambda t, d, p: t.list_domains(limit=0), "invalid_request"),
])
def test_bad_arguments_get_clear_errors(call, code):
    from text2world.errors import ApiError

    record, problem = _blocksworld()

    async def attempt(tools: Tools):
        with pytest.raises(ApiError) as caught:
            await call(tools, record.domain, problem)
        return caught.value

    error = _run(attempt)
    assert f"{error.code}: {error.message}".startswith(code), error.message


def test_a_job_past_the_time_limit_is_stopped_and_the_next_one_runs():
    from text2world.errors import ApiError

    async def calls(tools: Tools):
        with pytest.raises(ApiError) as caught:
            await tools.validate_domain(pddl=huge_domain())
        # The next job runs in a fresh process; on a loaded machine even a small one can take
        # 0.05 s, so it gets a limit that tests the recovery, not the machine's speed.
        tools.executor.timeout = 60.0
        after = await tools.validate_domain(pddl=BROKEN)
        return caught.value, after

    error, after = _run(calls, McpSettings(score_timeout=0.05))
    assert error.code == "scoring_timeout" and "0.05 s limit" in error.message
    assert after["ok"] is False


def test_in_process_client_sees_tool_errors_with_their_code():
    _, problem = _blocksworld()

    async def session():
        async with Client(build_server(McpSettings())) as client:
            return await client.call_tool("validate_plan", {"domain": BROKEN, "problem": problem,
                                                            "plan": "(a)"})

    text = _error(asyncio.run(session()))
    assert text.startswith("invalid_domain: the domain does not parse: line 4")
    assert '"line": 4' in text  # every error, with its line, in the details


@pytest.mark.parametrize("tool, arguments, message", [
    ("validate_domain", {"pddl": 7}, "invalid_request: pddl: Input should be a valid string"),
    ("get_domain", {}, "invalid_request: domain_id: Field required"),
    ("list_domains", {"limit": "many"}, "invalid_request: limit: Input should be a valid integer"),
])
def test_argument_errors_carry_the_code_prefix(tool, arguments, message):
    """Arguments the SDK rejects against the schema, before the tool runs, read like every
    other tool error: the code, the argument, what is wrong."""
    async def session():
        async with Client(build_server(McpSettings())) as client:
            return await client.call_tool(tool, arguments)

    text = _error(asyncio.run(session()))
    assert text.startswith(message), text
    assert "validation error for" not in text and "pydantic" not in text


def test_call_option_runs_one_tool_through_the_client():
    command = [sys.executable, "-m", "text2world.cli", "mcp", "--call", "get_domain"]
    env = {**os.environ, **_env()}
    done = subprocess.run([*command, "--args", '{"domain_id": "gripper"}'], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["domain"] == load_dataset().get("gripper").domain
    missing = subprocess.run([*command, "--args", '{"domain_id": "nope"}'], cwd=REPO, env=env,
                             capture_output=True, text=True, timeout=300)
    assert missing.returncode == 1 and "unknown_domain" in missing.stderr
    bad = subprocess.run([*command, "--args", "[1"], cwd=REPO, env=env, capture_output=True,
                         text=True, timeout=300)
    assert bad.returncode == 1 and "--args is not JSON" in bad.stderr


# ---- planning a hostile domain: in a scoring process, never the server's own


def _own_cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the server's CPU in /proc")
def test_plan_on_a_hostile_domain_is_bounded_and_never_runs_in_the_server_process():
    from hostile_answers import UNDER_THE_CAP, hostile_domain

    record, problem = _blocksworld()
    port = free_port()
    server = _http_server(port, "--plan-timeout", "2", "--score-timeout", "5")
    try:
        async def session() -> tuple[list, float]:
            async with Client(f"http://127.0.0.1:{port}/mcp", read_timeout_seconds=300) as client:
                answers = []
                await client.call_tool("validate_domain", {"pddl": BROKEN})  # warmed up
                before = _own_cpu(server.pid)
                for variables in (UNDER_THE_CAP, 20):
                    answers.append(await client.call_tool("plan", {
                        "domain": hostile_domain(variables), "problem": problem}))
                planned = _result(await client.call_tool("plan", {"domain": record.domain,
                                                                  "problem": problem}))
                assert planned["solved"] and planned["validated"]["valid"] is True
                return answers, _own_cpu(server.pid) - before

        (costly, huge), spent = asyncio.run(session())
        if costly.is_error:  # stopped past its limit, or Fast Downward's own limit answered
            assert _error(costly).startswith("scoring_timeout"), _error(costly)
        else:
            assert costly.structured_content["status"] == "Timeout", costly.structured_content
        assert _error(huge).startswith("grounding_too_large: limit:"), _error(huge)
        assert spent < 2.0, spent  # the search ran elsewhere: the server only passed messages
    finally:
        server.terminate()
        server.wait(30)


def test_score_problem_over_stdio():
    """``score_problem`` as ``POST /v1/score/problem`` answers (``scoring.problem_answer``)."""
    record = load_dataset().get("gripper")
    gold, other = record.problems[0], record.problems[1]

    async def session() -> None:
        parameters = StdioServerParameters(command=sys.executable,
                                           args=["-m", "text2world.cli", "mcp"], env=_env(),
                                           cwd=str(REPO))
        async with Client(parameters, read_timeout_seconds=120) as client:
            call = client.call_tool
            right = await call("score_problem", {"gold_id": "gripper", "gold_problem": gold.name,
                                                 "response": f"```pddl\n{gold.pddl}\n```"})
            assert not right.is_error, right.content[0].text
            body = right.structured_content
            assert body["reward"] == 1.0 and body["verdict"]["equivalent"] is True
            assert body["gold"] == {"dataset": "text2world", "id": "gripper"}
            wrong = (await call("score_problem", {"gold_pddl": record.domain,
                                                  "gold_problem": gold.pddl,
                                                  "response": other.pddl})).structured_content
            expected = score_problem_answer(record.domain, gold.pddl, other.pddl).to_dict()
            assert {key: wrong[key] for key in expected} == expected and wrong["reward"] == 0.0
            for arguments, message in [
                ({"gold_id": "gripper", "gold_problem": "p99", "response": "r"},
                 "unknown_problem: domain 'gripper' has no problem 'p99'"),
                ({"gold_id": "nope", "gold_problem": "p01", "response": "r"},
                 "unknown_domain:"),
                ({"gold_id": "gripper", "gold_problem": "(define (problem q)", "response": "r"},
                 "unscorable: the problem cannot be scored: the gold problem"),
                ({"gold_problem": "p01", "response": "r"},
                 "invalid_request: give exactly one of 'gold_id' and 'gold_pddl'"),
                ({"gold_id": "gripper", "response": "r"}, "invalid_request:"),
            ]:
                assert _error(await call("score_problem", arguments)).startswith(message)

    asyncio.run(session())
