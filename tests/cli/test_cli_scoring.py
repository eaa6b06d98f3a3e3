"""``t2w validate`` and ``t2w score`` as a user runs them."""

from __future__ import annotations

import json

from pddl_helpers import BROKEN
from typer.testing import CliRunner

from text2world import load_dataset, score
from text2world.cli import app
from text2world.pddl.perturb import rename_variables

runner = CliRunner()


def test_validate_valid_domain_exits_0(tmp_path):
    path = tmp_path / "gripper.pddl"
    path.write_text(load_dataset().get("gripper").domain)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 0 and "valid" in result.output
    as_json = runner.invoke(app, ["validate", str(path), "--json"])
    assert json.loads(as_json.output) == {"ok": True, "errors": [], "warnings": []}


def test_score_json_has_the_documented_keys_and_library_values(tmp_path):
    gold_text = load_dataset().get("blocksworld").domain
    predicted_text = rename_variables(gold_text, seed=1)
    gold, predicted = tmp_path / "gold.pddl", tmp_path / "pred.pddl"
    gold.write_text(gold_text)
    predicted.write_text(predicted_text)
    for mode in ("paper", "canonical"):
        result = runner.invoke(app, ["score", str(gold), str(predicted), "--json", "--mode", mode])
        assert result.exit_code == 0, result.output
        data = json.loads(result.output)
        assert data == score(gold_text, predicted_text, mode=mode).to_dict(details=True)
        expected = {"mode", "executable", "similarity", "f1_predicates", "f1_parameters",
                    "f1_preconditions", "f1_effects", "errors", "gold_executable",
                    "gold_errors", "per_action"}
        assert set(data) == expected | ({"f1_types", "alignment"} if mode == "canonical" else set())


def test_score_extracts_the_domain_from_an_llm_answer(tmp_path):
    gold_text = load_dataset().get("blocksworld").domain
    gold, answer = tmp_path / "gold.pddl", tmp_path / "answer.txt"
    gold.write_text(gold_text)
    answer.write_text(f"<think>hmm</think>\nHere it is:\n```pddl\n{gold_text}\n```\nDone.")
    result = runner.invoke(app, ["score", str(gold), str(answer), "--json"])
    assert result.exit_code == 0
    assert json.loads(result.output)["f1_effects"] == 1.0
    answer.write_text("```\nI could not write it.\n```")
    result = runner.invoke(app, ["score", str(gold), str(answer), "--json"])
    assert result.exit_code == 1


def test_score_and_validate_extract_a_bare_domain_from_prose(tmp_path):
    """An answer with prose around an unfenced domain scores as ``score_answer`` scores it
    (the README: ``t2w score`` extracts as the library does); a domain file with leading
    comments is still read as written."""
    from text2world import score_answer

    gold_text = load_dataset().get("blocksworld").domain
    gold, answer = tmp_path / "gold.pddl", tmp_path / "answer.txt"
    gold.write_text(gold_text)
    text = f"Sure! Here is the PDDL domain:\n{gold_text}\nLet me know if you need more."
    answer.write_text(text)
    for mode in ("paper", "canonical"):
        result = runner.invoke(app, ["score", str(gold), str(answer), "--json", "--mode", mode])
        assert result.exit_code == 0, result.output
        assert json.loads(result.output) == score_answer(gold_text, text, mode).to_dict(
            details=True)
    assert runner.invoke(app, ["validate", str(answer)]).exit_code == 0
    commented = tmp_path / "commented.pddl"
    commented.write_text(f"; my domain\n\n{gold_text}\n; trailing note")
    result = runner.invoke(app, ["score", str(gold), str(commented), "--json"])
    assert json.loads(result.output) == score(gold_text, commented.read_text()).to_dict(
        details=True)


def test_help_lists_every_command_with_a_purpose():
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("validate", "score", "eval", "report", "score-run", "cache", "data",
                    "serve", "contamination"):
        assert command in result.output


def test_score_shows_per_action_results(tmp_path):
    gold_text = load_dataset().get("blocksworld").domain
    start = gold_text.index("(:action stack")
    end = gold_text.index("(:action", start + 1)
    gold, predicted = tmp_path / "gold.pddl", tmp_path / "pred.pddl"
    gold.write_text(gold_text)
    predicted.write_text(gold_text[:start] + gold_text[end:])  # 'stack' missing
    for mode in ("paper", "canonical"):
        result = runner.invoke(app, ["score", str(gold), str(predicted), "--mode", mode])
        assert result.exit_code == 0, result.output
        assert "per action" in result.output
        line = next(x for x in result.output.splitlines() if " stack " in x)
        assert "missing" in line
        assert "matched" in next(x for x in result.output.splitlines() if "unstack" in x)
        data = json.loads(runner.invoke(app, ["score", str(gold), str(predicted), "--json",
                                              "--mode", mode]).output)
        assert data["per_action"]["stack"] == {"status": "missing", "predicted": None,
                                               "parameters": 0.0, "preconditions": 0.0,
                                               "effects": 0.0}
        # the predicted action each gold action was matched with
        assert data["per_action"]["unstack"]["predicted"] == "unstack"
        assert data["per_action"]["unstack"]["status"] == "matched"


def test_score_says_on_stderr_when_the_gold_does_not_parse(tmp_path):
    gold_text = load_dataset().get("blocksworld").domain
    gold, predicted = tmp_path / "gold.pddl", tmp_path / "pred.pddl"
    gold.write_text(gold_text.replace("(:predicates", "(:predicates (broken", 1))
    predicted.write_text(gold_text)
    cli = CliRunner(mix_stderr=False) if "mix_stderr" in CliRunner.__init__.__code__.co_varnames \
        else CliRunner()
    for mode in ("paper", "canonical"):
        result = cli.invoke(app, ["score", str(gold), str(predicted), "--json", "--mode", mode])
        assert result.exit_code == 0  # the prediction itself is executable
        data = json.loads(result.stdout)
        assert data["gold_executable"] is False and data["gold_errors"]
        assert data["f1_effects"] == 0.0
        warning = " ".join(result.stderr.split())
        assert "gold domain" in warning and "does not parse" in warning


def test_validate_lists_every_error_with_its_line(tmp_path):
    path = tmp_path / "broken.pddl"
    path.write_text(BROKEN)
    result = runner.invoke(app, ["validate", str(path)])
    assert result.exit_code == 1
    errors = [line for line in result.output.splitlines() if line.startswith("error")]
    assert len(errors) >= 5 and all("line " in line for line in errors), result.output
    data = json.loads(runner.invoke(app, ["validate", str(path), "--json"]).output)
    assert {(e["kind"], e["line"]) for e in data["errors"]} >= {("ArityMismatch", 6),
                                                                ("UndefinedConstant", 9)}


def test_validate_prints_the_kind_and_no_domain_found(tmp_path):
    path = tmp_path / "undeclared.pddl"
    path.write_text("(define (domain d) (:predicates (p ?x))\n(:action a :parameters (?x)"
                    " :precondition (r ?x) :effect (not (p ?x))))")
    result = runner.invoke(app, ["validate", str(path)], terminal_width=200)
    assert result.exit_code == 1
    assert "error UndefinedPredicate: line 2" in result.output and "Other" not in result.output
    prose = tmp_path / "prose.pddl"
    prose.write_text("I am not able to write that domain.")
    for command in (["validate", str(prose)], ["score", "blocksworld", str(prose)]):
        result = runner.invoke(app, command, terminal_width=200)
        assert result.exit_code == 1
        assert "NoDomainFound: no PDDL domain" in result.output, result.output


def test_score_takes_a_store_id_in_every_mode(tmp_path):
    gold_text = load_dataset().get("blocksworld").domain
    predicted = tmp_path / "pred.pddl"
    predicted.write_text(rename_variables(gold_text, seed=2))
    for mode in ("paper", "canonical"):
        result = runner.invoke(app, ["score", "blocksworld", str(predicted), "--json", "-m", mode])
        assert result.exit_code == 0, result.output
        expected = score(gold_text, predicted.read_text(), mode=mode).to_dict(details=True)
        assert json.loads(result.output) == expected
    unknown = runner.invoke(app, ["score", "no-such-domain", str(predicted)])
    assert unknown.exit_code == 1
    assert "no such file, and not a domain id of the store" in " ".join(unknown.output.split())
