"""``POST /v1/score/problem`` over a real ``t2w serve`` process: a problem answer scored in the
scoring processes as ``scoring.problem_answer`` scores it; bad input (missing fields, an unknown
store domain or problem, a gold problem that does not parse) a clear 4xx, never a 500."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest
from api_helpers import assert_error
from processes import free_port, stop_group
from repo_paths import REPO

from text2world.scoring.problem_answer import score_problem_answer
from text2world.store.datasets import load_dataset

GOLD = "gripper"


@pytest.fixture(scope="module")
def server():
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "text2world.cli", "serve", "--host", "127.0.0.1", "--port",
         str(port), "--score-processes", "1"], cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)}, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True)
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120)
    deadline = time.monotonic() + 120
    while True:
        assert process.poll() is None, stop_group(process)
        try:
            if client.get("/readyz", timeout=2).status_code == 200:
                break
        except httpx.TransportError:
            pass
        assert time.monotonic() < deadline, "t2w serve was not ready within 120 s"
        time.sleep(0.2)
    yield client
    client.close()
    output = stop_group(process)
    assert "Traceback" not in output, output


@pytest.fixture(scope="module")
def record():
    return load_dataset().get(GOLD)


def test_a_problem_answer_is_scored_as_the_library_scores_it(server, record):
    gold, other = record.problems[0], record.problems[1]
    answer = f"The problem:\n```pddl\n{gold.pddl}\n```"
    response = server.post("/v1/score/problem", json={"gold_id": GOLD, "gold_problem": gold.name,
                                                      "response": answer})
    assert response.status_code == 200, response.text
    body = response.json()
    assert body["reward"] == 1.0 and body["reason"] == "" and body["verdict"]["equivalent"]
    assert body["gold"] == {"dataset": "text2world", "id": GOLD} and body["problem"] == gold.name
    expected = score_problem_answer(record.domain, gold.pddl, other.pddl).to_dict()
    wrong = server.post("/v1/score/problem", json={"gold_pddl": record.domain,
                                                   "gold_problem": gold.pddl,
                                                   "response": other.pddl}).json()
    assert {key: wrong[key] for key in expected} == expected
    assert wrong["reward"] == 0.0 and wrong["gold"] is None and wrong["problem"] is None
    none = server.post("/v1/score/problem", json={"gold_id": GOLD, "gold_problem": "p02",
                                                  "response": "I cannot."}).json()
    assert none["reward"] == 0.0 and none["verdict"] is None
    assert none["reason"].startswith("no problem")


@pytest.mark.parametrize("body, status, code, words", [
    ({"gold_id": GOLD, "response": "r"}, 422, "invalid_request", "gold_problem"),
    ({"gold_id": GOLD, "gold_problem": "p01"}, 422, "invalid_request", "response"),
    ({"gold_problem": "p01", "response": "r"}, 422, "invalid_request", "exactly one of"),
    ({"gold_id": "no-such", "gold_problem": "p01", "response": "r"}, 404, "unknown_domain",
     "no-such"),
    ({"gold_id": GOLD, "gold_problem": "p99", "response": "r"}, 404, "unknown_problem",
     "its problems: p01, p02"),
    ({"gold_pddl": "(define (domain x))", "gold_problem": "p01", "response": "r"}, 422,
     "invalid_request", "problem name only with 'gold_id'"),
    ({"gold_id": GOLD, "gold_problem": "(define (problem q) (:domain gripper) (:objects x",
      "response": "r"}, 422, "unscorable", "the gold problem"),
    ({"gold_pddl": "(define (domain", "gold_problem": "(define (problem q))", "response": "r"},
     422, "unscorable", "the domain does not parse"),
    ({"gold_id": GOLD, "gold_problem": "p01", "response": "r", "dataset": "/etc"}, 422,
     "invalid_request", "dataset"),
    ({"gold_id": GOLD, "gold_problem": 1, "response": "r"}, 422, "invalid_request",
     "gold_problem"),
])
def test_bad_input_is_a_clear_4xx(server, body, status, code, words):
    error = assert_error(server.post("/v1/score/problem", json=body), status, code)
    assert words in error["message"] or words in str(error), error
