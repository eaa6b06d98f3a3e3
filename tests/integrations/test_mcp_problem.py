"""The MCP tool ``score_problem`` through the ``mcp`` client over stdio, a real ``t2w mcp``
subprocess: a problem answer scored as ``POST /v1/score/problem`` scores it (the library's
``scoring.problem_answer``), bad arguments answered with the service's error codes."""

from __future__ import annotations

import asyncio
import os
import sys

import pytest

pytest.importorskip("mcp", reason="the MCP tests need the 'mcp' extra")
from mcp import Client, StdioServerParameters  # noqa: E402
from repo_paths import REPO  # noqa: E402

from text2world.scoring.problem_answer import score_problem_answer  # noqa: E402
from text2world.store.datasets import load_dataset  # noqa: E402


def _error(result) -> str:
    assert result.is_error, result.structured_content
    text = result.content[0].text
    return text.split(": ", 1)[1] if text.startswith("Error executing tool ") else text


def test_score_problem_over_stdio():
    record = load_dataset().get("gripper")
    gold, other = record.problems[0], record.problems[1]
    env = {"PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "T2W_HOME": os.environ["T2W_HOME"]}

    async def session() -> None:
        parameters = StdioServerParameters(command=sys.executable,
                                           args=["-m", "text2world.cli", "mcp"], env=env,
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
