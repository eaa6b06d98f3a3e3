"""Answer parsing of the world-model tasks on realistic answers (issue 21's cases): each case
is an answer shape models give, read the way the model meant it."""

from __future__ import annotations

import pytest

from text2world.tasks.wm.parse import AnswerError, parse_actions, parse_next_state, parse_plan_step, parse_verify


def test_negated_atoms_in_a_diff_are_removals():
    json_answer = ('```json\n{"applicable": true, "added": ["(at f t2)", "(not (at f t1))"], '
                   '"removed": ["(not (fuel-full f))"]}\n```')
    answer = parse_next_state(json_answer, "diff")
    assert answer["added"] == {("at", "f", "t2")}
    assert answer["removed"] == {("at", "f", "t1"), ("fuel-full", "f")}
    prose = "Added:\n(at f t2)\n(not (at f t1))\nRemoved:\n(not (clear t2))\n"
    answer = parse_next_state(prose, "diff")
    assert answer["added"] == {("at", "f", "t2")}
    assert answer["removed"] == {("at", "f", "t1"), ("clear", "t2")}
    # a full state that also lists what is false keeps only what holds
    full = '{"applicable": true, "state": ["(at f t2)", "(not (at f t1))"]}'
    assert parse_next_state(full, "full")["state"] == {("at", "f", "t2")}


def test_proposals_as_objects_with_a_reason():
    answer = ('```json\n{"actions": [{"action": "(pick-up a)", "reason": "a is clear"}, '
              '{"action": "(unstack c b)", "reason": "frees b"}]}\n```')
    assert parse_actions(answer) == ["(pick-up a)", "(unstack c b)"]
    with pytest.raises(AnswerError):
        parse_actions('{"actions": [{"reason": "no action named"}]}')


def test_python_dict_syntax():
    answer = ("Here is my step:\n{'done': False, 'action': '(move r1 a b)', "
              "'next_state': ['(at r1 b)', '(free a)']}")
    step = parse_plan_step(answer)
    assert step == {"done": False, "action": "(move r1 a b)",
                    "next_state": {("at", "r1", "b"), ("free", "a")}}
    assert parse_plan_step("{'done': True}")["done"] is True
    assert parse_verify("{'reaches_goal': False, 'first_failing_step': 3}") == \
        {"reaches_goal": False, "first_failing_step": 3}
    # literals only: a call is not evaluated, so the answer is a format error
    with pytest.raises(AnswerError):
        parse_plan_step("{'done': __import__('os').getpid() > 0}")


def test_state_key_is_read_and_a_missing_state_is_a_format_error():
    step = parse_plan_step('{"done": false, "action": "(pick a)", "state": ["(holding a)"]}')
    assert step["next_state"] == {("holding", "a")}
    with pytest.raises(AnswerError, match="next_state"):
        parse_plan_step('{"done": false, "action": "(pick a)"}')


@pytest.mark.parametrize("text", [
    "The action cannot be applied because (clear b) does not hold.",
    "(stack a b) can't be applied: (holding a) is false in the current state.",
    "This move is not applicable, since (at r1 a) is required and the robot is at b.",
])
def test_prose_refusals_naming_atoms_are_not_applicable(text):
    for form in ("full", "diff"):
        assert parse_next_state(text, form)["applicable"] is False


def test_prose_with_a_state_is_still_read_as_a_state():
    text = ("It is not possible to stack first, but pick-up applies.\n"
            "Next state: (holding a) (clear b)")
    answer = parse_next_state(text, "full")
    assert answer["applicable"] and answer["state"] == {("holding", "a"), ("clear", "b")}
