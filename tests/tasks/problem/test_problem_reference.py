"""The problem task's reference answers and feedback (``tasks/problem/reference.py``,
``feedback.py``, ``scoring/problem_answer.py``): every real problem error the noisy oracle
makes is parseable and not equivalent to the gold (``compare_problems``), every syntax error
it makes is reported by the validator in the domain's words, and answers are extracted from
chat text."""

from __future__ import annotations

import random
from functools import lru_cache

import pytest

from text2world.pddl.extract import NoProblemFound, extract_problem
from text2world.pddl.model import parse_domain
from text2world.scoring.problem_answer import problem_round_verdict
from text2world.store.datasets import load_dataset
from text2world.tasks.problem.feedback import findings
from text2world.tasks.problem.reference import (
    SEMANTIC_ERRORS,
    reference_problem_answer,
    semantic_error,
    syntax_error,
)
from text2world.tasks.problem.task import empty_goal


@lru_cache(maxsize=1)
def _store() -> dict:
    return {record.id: record for record in load_dataset().select("all", None)}


@pytest.fixture
def records() -> dict:
    """The store's records by id (read once per process)."""
    return _store()


def test_real_problem_errors_parse_and_change_the_task(records):
    made = set()
    for domain in ("blocksworld", "cargo-logistics", "tidy-room"):
        record = records[domain]
        gold = record.problems[0].pddl
        for kind in SEMANTIC_ERRORS:
            broken = semantic_error(record.domain, gold, kind, random.Random(kind))
            if broken is None:
                continue
            made.add(kind)
            verdict = problem_round_verdict(record.domain, gold, f"```pddl\n{broken}\n```")
            assert verdict["parseable"] and verdict["equivalent"] is False, (kind, verdict)
            assert verdict["counterexample"]["text"]
    assert made == set(SEMANTIC_ERRORS)


def test_syntax_errors_are_reported_in_the_domains_words(records):
    record = records["blocksworld"]
    gold = record.problems[0].pddl
    domain = parse_domain(record.domain)
    reported = set()
    for seed in range(12):
        broken = syntax_error(gold, random.Random(seed))
        verdict = problem_round_verdict(record.domain, gold, broken)
        assert not verdict["parseable"]
        found = findings(verdict, domain)
        assert len(found) == 1
        reported.add(found[0].split(" ")[1] if found[0].startswith("unknown") else "parse")
    assert {"predicate", "object", "parse"} <= reported
    unknown = problem_round_verdict(record.domain, gold, gold.replace("(on b a)", "(onn b a)"))
    assert "unknown predicate 'onn'" in findings(unknown, domain)[0]
    assert "on-table" in findings(unknown, domain)[0]  # what the domain declares


def test_unsolvable_and_missing_answers_get_feedback_and_solvable_ones_end_the_loop(records):
    record = records["blocksworld"]
    gold = record.problems[0].pddl
    domain = parse_domain(record.domain)
    impossible = gold.replace("(on a b) (on b c)", "(on a b) (on b a)")
    assert "unsolvable" in findings(problem_round_verdict(record.domain, gold, impossible),
                                    domain)[0]
    assert "no PDDL problem" in findings(problem_round_verdict(record.domain, gold, "no idea"),
                                         domain)[0]
    # a wrong but solvable problem is not revealed by the feedback
    verdict = problem_round_verdict(record.domain, gold, empty_goal(gold))
    assert verdict["solvable"] and verdict["equivalent"] is False
    assert findings(verdict, domain) == []


def test_extraction():
    problem = "(define (problem p) (:domain d) (:objects a) (:init) (:goal (and)))"
    assert extract_problem(f"<think>(define (problem q))</think>\n```pddl\n{problem}\n```") \
        == problem
    assert extract_problem(f"Here it is: {problem} done") == problem
    with pytest.raises(NoProblemFound):
        extract_problem("(define (domain d))")


def test_the_noisy_oracle_fixes_syntax_under_feedback_and_is_seeded(records):
    record = records["blocksworld"]
    gold = record.problems[0].pddl
    answers = {}
    for item in range(30):
        context = {"domain": record.domain, "problem": gold, "item": f"x{item}", "seed": 3}
        rounds = [reference_problem_answer("noisy-oracle", {**context, "round": r})
                  for r in range(4)]
        assert rounds == [reference_problem_answer("noisy-oracle", {**context, "round": r})
                          for r in range(4)]
        answers[item] = rounds
        last = problem_round_verdict(record.domain, gold, rounds[-1])
        assert last["parseable"]  # every syntax error is fixed by EC_3
    firsts = [problem_round_verdict(record.domain, gold, a[0])["parseable"]
              for a in answers.values()]
    assert 0 < sum(firsts) < len(firsts)
    oracle = reference_problem_answer("oracle", {"problem": gold})
    assert problem_round_verdict(record.domain, gold, oracle)["equivalent"] is True
