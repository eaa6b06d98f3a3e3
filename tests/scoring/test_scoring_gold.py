"""A gold that cannot be scored is reported (`gold_executable`, `gold_errors`), and paper-mode
numbers stay those of the released code; per-action results in both modes."""

from __future__ import annotations

from text2world import score
from text2world.pddl.model import strip_comments_released

GOLD = ("(define (domain d) (:predicates (p ?x) (q ?x))\n"
        "(:action a :parameters (?x) :precondition (and (p ?x)) :effect (and (q ?x)))\n"
        "(:action b :parameters (?x) :precondition (and (q ?x)) :effect (and (not (q ?x)))))\n")


def test_released_gold_187_is_reported_as_not_executable(official_test):
    record = next(r for r in official_test if str(r["id"]) == "187")
    gold = record["pddl_domain"]
    fixed = gold + ")"  # its one missing parenthesis
    for mode in ("paper", "canonical"):
        result = score(gold, fixed, mode=mode)
        assert result.executable and not result.gold_executable
        assert result.gold_errors[0].category == "IncorrectParentheses"
        assert result.gold_errors[0].line is not None
        assert result.f1_parameters == result.f1_effects == 0.0
        assert 0.9 < result.similarity <= 1.0
        detailed = result.to_dict(details=True)
        assert detailed["gold_executable"] is False and detailed["gold_errors"]


def test_parsable_golds_are_reported_executable(official_test):
    for record in official_test[::10]:
        gold = record["pddl_domain"]
        if str(record["id"]) == "187":
            continue
        result = score(gold, strip_comments_released(gold))
        assert result.gold_executable and result.gold_errors == ()


def test_gold_ending_in_a_comment_without_newline_does_not_parse_in_paper_mode():
    gold = GOLD.rstrip("\n") + "\n; the end"
    result = score(gold, GOLD)
    assert result.executable and not result.gold_executable and result.f1_effects == 0.0
    assert result.gold_errors[0].line == 4
    assert score(gold, GOLD, mode="canonical").gold_errors == ()  # comments stripped first


def test_gold_quirk_that_zeroes_action_f1s_is_explained_in_paper_mode():
    gold = GOLD.replace("(q ?x))\n", "(q ?x) (and-gate ?x))\n", 1).replace(
        "(and (p ?x))", "(and (p ?x) (and-gate ?x))")
    result = score(gold, gold)
    assert result.executable and result.gold_executable and result.f1_effects == 0.0
    assert result.gold_errors[0].kind == "ReleasedQuirk"
    assert score(gold, gold, mode="canonical").f1_effects == 1.0


def test_per_action_in_paper_mode_are_the_released_per_action_f1s():
    predicted = GOLD.replace("(:action b", "(:action c")
    result = score(GOLD, predicted)
    # one gold action missing zeroes the domain's action F1s (released), per action shows why
    assert result.f1_effects == 0.0
    assert result.per_action == {
        "a": {"status": "matched", "predicted": "a", "parameters": 1.0, "preconditions": 1.0,
              "effects": 1.0},
        "b": {"status": "missing", "predicted": None, "parameters": 0.0, "preconditions": 0.0,
              "effects": 0.0},
        "c": {"status": "extra", "predicted": "c", "parameters": 0.0, "preconditions": 0.0,
              "effects": 0.0},
    }
    averaged = score(GOLD, GOLD.replace("(and (q ?x)))\n(:action b", "(and (p ?x)))\n(:action b"))
    values = [v["effects"] for v in averaged.per_action.values()]
    assert averaged.f1_effects == sum(values) / len(values)


def test_to_dict_keeps_the_documented_keys_unless_details_are_asked():
    result = score(GOLD, GOLD)
    assert "per_action" not in result.to_dict() and "gold_executable" not in result.to_dict()
    assert set(result.to_dict(details=True)) - set(result.to_dict()) == {
        "gold_executable", "gold_errors", "per_action"}
