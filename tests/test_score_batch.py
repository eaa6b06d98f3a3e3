"""Batch scoring: ``t2w score-batch`` (every score per line, resumable, the same lines with and
without ``--ray``) and ``POST /v1/score/batch`` (the same lines, bounded like /v1/score)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from api_helpers import assert_error, scoring_client
from trainer_helpers import require_ray, write_batch
from typer.testing import CliRunner

from text2world.batch_scoring import BatchInputError, parse_line, read_batch, score_task
from text2world.cli import app as cli
from text2world.model.reference import reference_answer
from text2world.pddl.perturb import drop_action
from text2world.store.datasets import load_dataset

GOLDS = ("blocksworld", "gripper", "bakery-ovens")


def _lines() -> list[dict]:
    store = load_dataset()
    lines = []
    for gold in GOLDS:
        domain = store.get(gold).domain
        for round_index in range(3):  # the noisy reference model: broken, then repaired answers
            lines.append({"id": f"{gold}-{round_index}", "gold_id": gold,
                          "response": reference_answer("noisy-oracle", domain, gold, round_index, seed=2)})
        lines.append({"id": f"{gold}-dropped", "gold_pddl": domain, "response": drop_action(domain, seed=1)})
    lines.append({"id": "garbage", "gold_id": "gripper", "response": "no PDDL at all"})
    return lines


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return write_batch(tmp_path_factory.mktemp("batch"), _lines())


@pytest.fixture(scope="module")
def expected(source) -> list[dict]:
    return [score_task(parse_line(line, "test").task()) for line in _lines()]


def _run(*args: str):
    return CliRunner().invoke(cli, ["score-batch", *args])


def _read(path: Path) -> list[dict]:
    return [json.loads(row) for row in path.read_text(encoding="utf-8").splitlines()]


def test_every_score_verdict_and_reason_per_line(tmp_path, source, expected):
    out = tmp_path / "out.jsonl"
    result = _run(str(source), "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = _read(out)
    assert lines == expected
    assert [line["id"] for line in lines] == [line["id"] for line in _lines()]  # the input's order
    for line in lines:
        assert set(line["scores"]) == {"executable", "paper_f1", "canonical_f1", "semantic"}
        assert (line["reward"] == 1.0) == (line["verdict"] == "equivalent")
        assert line["reward"] == 1.0 or line["reason"]
    by_id = {line["id"]: line for line in lines}
    assert by_id["garbage"]["reward"] == 0.0 and by_id["garbage"]["reason"].startswith("no domain")
    assert by_id["gripper-dropped"]["gold"] == "gripper"  # a store gold given as text
    assert 0.0 < by_id["gripper-dropped"]["reward"] < 1.0
    assert {line["reward"] for line in lines} > {0.0, 1.0}  # mixed quality


def test_resumes_by_id_after_a_kill(tmp_path, source, expected):
    out = tmp_path / "out.jsonl"
    done = [json.dumps(line) + "\n" for line in expected[:4]]
    out.write_text("".join(done) + '{"id": "torn', encoding="utf-8")  # killed mid-line
    result = _run(str(source), "--out", str(out), "--workers", "2")
    assert result.exit_code == 0, result.output
    assert "4 already there" in result.output
    assert _read(out) == expected


def test_the_same_lines_on_ray_with_two_workers(tmp_path, source, expected):
    require_ray()
    out = tmp_path / "ray.jsonl"
    result = _run(str(source), "--out", str(out), "--ray", "--workers", "2")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == "".join(json.dumps(line, ensure_ascii=False) + "\n"
                                                      for line in expected)


@pytest.mark.parametrize("row, message", [
    ("not json", "line 2: not JSON"),
    ('["a list"]', "line 2: a line must be a JSON object"),
    ('{"id": "x", "response": "r"}', "exactly one of 'gold_id' and 'gold_pddl'"),
    ('{"id": "x", "gold_id": "no-such", "response": "r"}', "neither PDDL text nor a domain id"),
    ('{"id": "x", "gold_id": "gripper", "response": 3}', "'response' must be a string"),
    ('{"id": "x", "gold_id": "gripper", "response": "r", "extra": 1}', "unknown field(s) extra"),
    ('{"id": "a", "gold_id": "gripper", "response": "r"}', "id 'a' appears twice"),
])
def test_bad_lines_are_refused_before_scoring_with_file_and_line(tmp_path, row, message):
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "gold_id": "gripper", "response": "r"}\n' + row + "\n", encoding="utf-8")
    with pytest.raises(BatchInputError, match="line 2"):
        read_batch(source)
    result = _run(str(source), "--out", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 1  # ExitCode.INPUT
    assert message in " ".join(result.output.split())
    assert not (tmp_path / "out.jsonl").exists()


def test_an_output_of_another_input_is_not_mixed_in(tmp_path, source):
    out = tmp_path / "out.jsonl"
    out.write_text('{"id": "from-elsewhere", "reward": 1.0}\n', encoding="utf-8")
    result = _run(str(source), "--out", str(out))
    assert result.exit_code == 1 and "another input" in result.output


# ---------------------------------------------------------------------------------- the API


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    with scoring_client(tmp_path_factory.mktemp("runs"), score_processes=2) as test_client:
        yield test_client


def test_api_batch_gives_the_command_s_lines(client, expected):
    response = client.post("/v1/score/batch", json={"items": _lines()})
    assert response.status_code == 200, response.text
    assert response.json()["results"] == expected
    paper = client.post("/v1/score/batch", json={"items": _lines()[:2], "metric": "paper_f1"})
    assert [r["reward"] for r in paper.json()["results"]] == [r["scores"]["paper_f1"] for r in expected[:2]]


@pytest.mark.parametrize("body, code", [
    ({"items": []}, "invalid_request"),
    ({"items": [{"id": "x", "response": "r"}]}, "invalid_request"),
    ({"items": [{"id": "x", "gold_id": "no-such", "response": "r"}]}, "invalid_item"),
    ({"items": [{"id": "x", "gold_id": "gripper", "response": "r"}], "metric": "bleu"}, "invalid_request"),
    ({"items": [{"id": "x", "gold_id": "gripper", "response": "r"}] * 513}, "invalid_request"),
    # a dataset is a name: a path would make the server read any file it can
    ({"items": [{"id": "x", "gold_id": "gripper", "response": "r", "dataset": "/etc"}]}, "invalid_request"),
    ({"items": [{"id": "x", "gold_id": "passwd", "response": "r", "dataset": "../../etc"}]},
     "invalid_request"),
])
def test_api_batch_refuses_bad_requests_with_422(client, body, code):
    error = assert_error(client.post("/v1/score/batch", json=body), 422)
    assert error["code"] == code, error


def test_api_metric_choices_are_the_reward_metrics():
    from typing import get_args

    from text2world.api.schemas import BatchScoreRequest
    from text2world.rewards import METRICS

    assert get_args(BatchScoreRequest.model_fields["metric"].annotation) == METRICS
