"""``t2w score-batch`` on problem answers (lines with ``gold_problem``) beside domain answers:
each problem line scored as ``rewards.problem_reward_for`` scores it, the same file from one
process, a local pool and Ray; bad problem lines refused before scoring, naming the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from trainer_helpers import require_ray, write_batch
from typer.testing import CliRunner

from text2world.batch_scoring import parse_line, score_task
from text2world.cli import app as cli
from text2world.rewards import problem_reward_for, resolve_problem_gold
from text2world.store.datasets import load_dataset


def _lines() -> list[dict]:
    store = load_dataset()
    lines = []
    for gold in ("blocksworld", "gripper"):
        record = store.get(gold)
        first, second = record.problems[0], record.problems[1]
        lines += [
            {"id": f"{gold}-gold", "gold_id": gold, "gold_problem": first.name,
             "response": f"Here:\n```pddl\n{first.pddl}\n```"},
            {"id": f"{gold}-other", "gold_id": gold, "gold_problem": first.name,
             "response": second.pddl},
            {"id": f"{gold}-text", "gold_pddl": record.domain, "gold_problem": second.pddl,
             "response": second.pddl},
            {"id": f"{gold}-none", "gold_id": gold, "gold_problem": second.name,
             "response": "I cannot."},
        ]
    lines.append({"id": "domain", "gold_id": "gripper", "response": "no PDDL at all"})
    return lines


@pytest.fixture(scope="module")
def source(tmp_path_factory) -> Path:
    return write_batch(tmp_path_factory.mktemp("batch"), _lines())


def _run(*args: str):
    return CliRunner().invoke(cli, ["score-batch", *args])


def _read(path: Path) -> list[dict]:
    return [json.loads(row) for row in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def expected() -> str:
    records = [score_task(parse_line(line, "test").task()) for line in _lines()]
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def test_problem_lines_are_scored_beside_domain_lines(tmp_path, source, expected):
    out = tmp_path / "out.jsonl"
    result = _run(str(source), "--out", str(out))
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == expected
    lines = {line["id"]: line for line in _read(out)}
    for gold in ("blocksworld", "gripper"):
        assert lines[f"{gold}-gold"]["reward"] == lines[f"{gold}-text"]["reward"] == 1.0
        assert lines[f"{gold}-gold"]["gold"] == f"{gold}/p01"
        assert lines[f"{gold}-gold"]["verdict"] == "equivalent"
        assert lines[f"{gold}-other"]["reward"] == lines[f"{gold}-none"]["reward"] == 0.0
        assert lines[f"{gold}-other"]["verdict"] == "different"
        assert lines[f"{gold}-none"]["reason"].startswith("no problem")
    assert {line["metric"] for line in lines.values()} == {"problem", "semantic"}
    assert lines["domain"]["metric"] == "semantic"
    # each line is what the reward function gives that answer
    gold = resolve_problem_gold("gripper", "p01")
    assert lines["gripper-other"]["reason"] == problem_reward_for(
        gold, _lines()[5]["response"]).reason


def test_a_local_pool_writes_the_same_file(tmp_path, source, expected):
    out = tmp_path / "pool.jsonl"
    result = _run(str(source), "--out", str(out), "--workers", "2")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == expected


def test_ray_writes_the_same_file(tmp_path, source, expected):
    require_ray()
    out = tmp_path / "ray.jsonl"
    result = _run(str(source), "--out", str(out), "--ray", "--workers", "2")
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8") == expected


@pytest.mark.parametrize("row, message", [
    ('{"id": "x", "gold_id": "gripper", "gold_problem": "p99", "response": "r"}',
     "its problems: p01, p02"),
    ('{"id": "x", "gold_id": "gripper", "gold_problem": 3, "response": "r"}',
     "'gold_problem' must be a string"),
    ('{"id": "x", "gold_id": "gripper", "gold_problem": "(define (problem", "response": "r"}',
     "the gold problem: the problem does not parse"),
    ('{"id": "x", "gold_id": "nope", "gold_problem": "p01", "response": "r"}',
     "neither PDDL text nor a domain id"),
])
def test_bad_problem_lines_are_refused_with_file_and_line(tmp_path, row, message):
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "gold_id": "gripper", "response": "r"}\n' + row + "\n",
                      encoding="utf-8")
    result = _run(str(source), "--out", str(tmp_path / "out.jsonl"))
    assert result.exit_code == 1, result.output
    text = " ".join(result.output.split())
    assert "line 2" in text and message in text, text
    assert not (tmp_path / "out.jsonl").exists()


def test_metric_problem_refuses_a_domain_line(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": "a", "gold_id": "gripper", "response": "r"}\n', encoding="utf-8")
    result = _run(str(source), "--out", str(tmp_path / "out.jsonl"), "--metric", "problem")
    assert result.exit_code == 1, result.output
    assert "line 'a' has no 'gold_problem'" in " ".join(result.output.split())
