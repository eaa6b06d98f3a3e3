"""``scoring.problem_answer``: a model's problem answer (prose, fences, reasoning) extracted and
rewarded 1 when equivalent to the gold problem, else 0; every trivial answer's floor is 0 on
the store; a gold that does not parse is the caller's error."""

from __future__ import annotations

import random

import pytest
from problem_rewrites import renamed as renamed_parts
from problem_rewrites import renaming, render, store_problems

from text2world.pddl.extract import NoProblemFound, extract_problem
from text2world.scoring.problem_answer import (
    ProblemComparisonError,
    check_problem_gold,
    score_problem_answer,
)
from text2world.store.datasets import load_dataset

DOMAINS = ("blocksworld", "gripper", "brewery", "bike-sharing")


def _record(name: str):
    return load_dataset().get(name)


def empty_goal(problem: str) -> str:
    """The problem with its goal replaced by the empty conjunction."""
    start = problem.lower().index("(:goal")
    return problem[:start] + "(:goal (and)))"


def renamed(name: str, problem: str) -> str:
    """The store problem with every object renamed and everything shuffled (a faithful
    rewrite, ``problem_rewrites``)."""
    rng = random.Random(7)
    item = next(item for item in store_problems() if item.name == f"{name}/{problem}")
    return render(item, *renamed_parts(item, renaming(item, rng)), rng)


def test_the_problem_is_extracted_from_prose_fences_and_reasoning():
    problem = "(define (problem p) (:domain d) (:objects a) (:init (p a)) (:goal (and (q a))))"
    domain = "(define (domain d) (:predicates (p ?x) (q ?x)))"
    for answer in (problem, f"Here it is:\n```pddl\n{problem}\n```\nIt has (one) object.",
                   f"<think>(define (problem wrong))</think>\n```\n{problem}\n```",
                   f"```pddl\n{domain}\n```\n```pddl\n{problem}\n```",
                   f"```lisp\n{domain}\n\n{problem}\n```", f"Sure. {problem} Done (really)."):
        assert extract_problem(answer) == problem
    assert extract_problem("```pddl\n(define (problem p) (:domain d)\n") == \
        "(define (problem p) (:domain d)"  # truncated: kept so the parser says where
    for answer in ("", "I cannot.", f"```pddl\n{domain}\n```", "x" * 2_000_000):
        with pytest.raises(NoProblemFound):
            extract_problem(answer)


@pytest.mark.parametrize("name", DOMAINS)
def test_the_gold_and_a_faithful_rewrite_earn_1(name):
    record = _record(name)
    gold = record.problems[0].pddl
    for answer in (f"```pddl\n{gold}\n```", f"The problem:\n{renamed(name, record.problems[0].name)}\nDone."):
        scored = score_problem_answer(record.domain, gold, answer)
        assert scored.reward == 1.0 and scored.reason == "", scored.reason
        assert scored.verdict.equivalent is True


@pytest.mark.parametrize("name", DOMAINS)
def test_every_trivial_answer_scores_the_floor_0(name):
    record = _record(name)
    gold, other = record.problems[0].pddl, record.problems[1].pddl
    empty = score_problem_answer(record.domain, gold, empty_goal(gold))
    assert empty.verdict.parseable and empty.reward == 0.0
    assert empty.verdict.init_f1 == 1.0  # what a looser metric would have paid for
    copied = score_problem_answer(record.domain, gold, f"```pddl\n{other}\n```")
    assert copied.verdict.parseable and copied.reward == 0.0
    assert copied.reason.startswith("not equivalent")
    for answer, why in (("I don't know.", "no problem"),
                        ("(define (problem p) (:domain x) (:objects", "the prediction does not parse")):
        scored = score_problem_answer(record.domain, gold, answer)
        assert scored.reward == 0.0 and scored.reason.startswith(why), scored.reason


def test_a_gold_that_does_not_parse_is_the_callers_error():
    record = _record("gripper")
    gold = record.problems[0].pddl
    with pytest.raises(ProblemComparisonError, match="the gold problem"):
        score_problem_answer(record.domain, gold.replace("ball1", "(", 1), "no problem here")
    with pytest.raises(ProblemComparisonError, match="the domain does not parse"):
        check_problem_gold("(define (domain", gold)
    scored = score_problem_answer(record.domain, gold, gold).to_dict()
    assert scored["reward"] == 1.0 and scored["verdict"]["equivalent"] is True
    assert scored["extracted"] == gold.strip()
