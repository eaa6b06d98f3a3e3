"""Solving problems with Fast Downward via unified-planning: solved, unsolvable, unparsable."""

from __future__ import annotations

import os

from text2world.planning import solve_many, tarski_problem_error
from text2world.store import load_dataset

UNSOLVABLE = """(define (problem stuck) (:domain blocksworld)
  (:objects a b - block)
  (:init (on-table a) (on-table b) (clear a) (clear b))
  (:goal (and (on a b) (on b a))))"""
UNDEFINED_OBJECT = """(define (problem typo) (:domain blocksworld)
  (:objects a - block)
  (:init (on-table a) (clear a) (hand-empty))
  (:goal (on a zzz)))"""


def test_solved_unsolvable_and_unparsable_problems(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    blocksworld = load_dataset().get("blocksworld")
    problem = blocksworld.problems[0].pddl
    jobs = [("ok", blocksworld.domain, problem), ("stuck", blocksworld.domain, UNSOLVABLE),
            ("typo", blocksworld.domain, UNDEFINED_OBJECT)]
    results = solve_many(jobs, workers=2, timeout=20, tarski_check=True)
    assert results["ok"].solved and results["ok"].plan_length > 0
    assert not results["stuck"].solved and results["stuck"].status != "ParseError"
    assert results["typo"].status == "ParseError" and "tarski" in results["typo"].message
    assert tarski_problem_error(blocksworld.domain, problem) is None
    # the planner ran in temporary folders: nothing written into the working directory
    assert os.listdir(tmp_path) == []

