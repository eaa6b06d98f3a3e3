"""/v1/score reports what `t2w score --json` does: per-action results, the gold's own status,
and a raw answer extracted as `score_answer` does."""

from __future__ import annotations

import pytest
from api_helpers import scoring_client

from text2world import load_dataset, score, score_answer
from text2world.pddl.perturb import drop_action


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with scoring_client(tmp_path_factory.mktemp("runs"), score_processes=1) as test_client:
        yield test_client


def test_score_reports_per_action_and_gold_status(client):
    gold = load_dataset().get("blocksworld").domain
    predicted = drop_action(gold, seed=1)
    for mode in ("paper", "canonical"):
        body = client.post("/v1/score", json={"gold_pddl": gold, "pddl": predicted,
                                              "mode": mode}).json()
        expected = score(gold, predicted, mode=mode).to_dict(details=True)
        assert body["per_action"] == expected["per_action"]
        assert sorted(v["status"] for v in body["per_action"].values()).count("missing") == 1
        assert body["gold_executable"] is True and body["gold_errors"] == []


def test_score_reports_an_unparsable_gold(client):
    gold = load_dataset().get("blocksworld").domain
    broken = gold.replace("(:predicates", "(:predicates (broken", 1)
    for mode in ("paper", "canonical"):
        response = client.post("/v1/score", json={"gold_pddl": broken, "pddl": gold, "mode": mode})
        assert response.status_code == 200, response.text
        body = response.json()
        assert body["executable"] is True and body["gold_executable"] is False
        assert body["gold_errors"][0]["category"] == "IncorrectParentheses"


def test_raw_answer_is_extracted_like_score_answer(client):
    gold = load_dataset().get("blocksworld").domain
    problem = "(define (problem p) (:domain blocksworld) (:objects a b) (:init) (:goal (and)))"
    answer = f"Here:\n```\npddl\n{gold}\n```\nand the problem:\n```pddl\n{problem}\n```"
    for mode in ("paper", "canonical"):
        body = client.post("/v1/score", json={"gold_pddl": gold, "response": answer,
                                              "mode": mode}).json()
        expected = score_answer(gold, answer, mode=mode).to_dict(details=True)
        for key in ("executable", "similarity", "f1_effects", "per_action"):
            assert body[key] == expected[key], key
    assert body["f1_effects"] == 1.0  # canonical: the domain, not the problem
