"""One answer that should hold a PDDL problem, scored by meaning against the gold problem.

``extract_problem(answer)``: the ``(define (problem ...))`` in a chat answer (fenced or bare,
reasoning blocks removed), as ``pddl.extract`` finds domains; ``score_problem_answer(domain,
gold, answer)``: that problem's ``ProblemVerdict`` (``problem_equivalence.compare_problems``) as
a JSON object, with whether a problem was found at all. What ``t2w eval --task problem``
scores each round with.
"""

from __future__ import annotations

import re

from text2world.errors import Text2WorldError
from text2world.pddl.extract import (
    MAX_ANSWER_CHARS,
    balanced_expression,
    fenced_blocks,
    strip_reasoning,
)
from text2world.scoring.problem_equivalence import compare_problems

_PROBLEM_DEFINE = re.compile(r"\(\s*define\s*\(\s*problem\b", re.IGNORECASE)


class NoProblemFound(Text2WorldError, ValueError):
    """The answer holds no PDDL problem."""


def extract_problem(answer: str) -> str:
    """The problem in ``answer``: the longest ``(define (problem ...))`` of its fenced blocks,
    else of its bare text (to the end when it never balances, so the parser says so)."""
    if not isinstance(answer, str) or not answer.strip():
        raise NoProblemFound("the answer is empty")
    if len(answer) > MAX_ANSWER_CHARS:
        raise NoProblemFound(f"the answer has {len(answer):,} characters; the limit is "
                             f"{MAX_ANSWER_CHARS:,}")
    text = strip_reasoning(answer)
    found = []
    for code in [block.code for block in fenced_blocks(text)] + [text]:
        match = _PROBLEM_DEFINE.search(code)
        if match is not None:
            found.append(balanced_expression(code, match.start()))
        if found:
            break
    if not found:
        raise NoProblemFound("no PDDL problem found in the answer (no '(define (problem' text)")
    return max(found, key=len)


def score_problem_answer(domain_pddl: str, gold_problem_pddl: str, answer: str) -> dict:
    """The verdict on the problem in ``answer`` (``ProblemVerdict.to_dict``), with
    ``extracted`` (a problem was found), ``problem`` (its text) and, where none was found,
    ``message`` saying why. Raises ``ProblemComparisonError`` when the gold side cannot be
    read."""
    try:
        problem = extract_problem(answer)
    except NoProblemFound as err:
        verdict = compare_problems(domain_pddl, gold_problem_pddl, "")
        return {**verdict.to_dict(), "extracted": False, "problem": "", "message": str(err)}
    verdict = compare_problems(domain_pddl, gold_problem_pddl, problem)
    return {**verdict.to_dict(), "extracted": True, "problem": problem}
