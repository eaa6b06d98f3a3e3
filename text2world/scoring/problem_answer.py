"""A model's problem answer scored against the gold problem: the one function the services use
(the rewards' ``metric="problem"``, ``t2w score-batch``, ``POST /v1/score/problem``, the MCP
tool ``score_problem``).

``score_problem_answer(domain, gold_problem, answer)`` extracts the ``(define (problem ...))``
of the answer (prose, markdown fences and ``<think>`` blocks around it: ``pddl.extract``),
compares it with the gold by meaning (``problem_equivalence.compare_problems``) and returns a
``ProblemAnswerScore``: the verdict and a reward in [0, 1]. ``problem_round_verdict``: the
same verdict as a round of ``t2w eval --task problem`` records it.

The reward is binary: **1.0 when the answer is equivalent to the gold** (the same initial state
up to a renaming of objects, goals accepting the same reachable states), **0.0 otherwise**:
no problem in the answer, one that does not parse against the domain, one whose check a bound
stopped (``equivalent`` None: the reason starts with ``limit:``), or one that poses another
task. No partial credit: every looser signal (solvable, the similarity of the texts, the
F1 of the initial facts or of the goal literals) is earned by trivial answers (the gold's
initial state with an empty goal has an initial-fact F1 of 1 and is solvable; the domain's
other store problem parses and is solvable), so it is reported beside the reward
(``verdict``), never paid. The floor of each trivial answer is thus 0: an empty-goal problem
scores 0 unless the gold's goal holds in every reachable state (then it is the gold's task),
and a copy of another store problem scores 0 unless it is the same task
(``tests/scoring/test_problem_answer.py`` checks both on the store).

A domain or gold problem that cannot be compared (it does not parse) is the caller's input,
not the model's: it raises ``ProblemComparisonError``. Nothing in the answer raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from text2world.pddl.extract import NoProblemFound, extract_problem
from text2world.pddl.model import parse_domain
from text2world.scoring.problem_equivalence import (
    DEFAULT_WORK_BOUND,
    PLAN_TIMEOUT,
    ProblemComparisonError,
    ProblemVerdict,
    compare_problems,
)
from text2world.simulation import SimulationError, parse_problem

LIMIT = "limit"  # starts a reason where a bound of the check left the answer open


@dataclass(frozen=True)
class ProblemAnswerScore:
    """One problem answer's reward and why: ``verdict`` (None when no problem was extracted),
    ``reason`` why the reward is below 1 (empty when it is 1), ``problem`` the extracted text."""

    reward: float
    verdict: ProblemVerdict | None
    reason: str = ""
    problem: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"reward": self.reward, "reason": self.reason,
                "verdict": self.verdict.to_dict() if self.verdict else None,
                "extracted": self.problem}


def check_problem_gold(domain_pddl: str, gold_problem_pddl: str) -> None:
    """Raise ``ProblemComparisonError`` (saying which and why) unless the domain and the gold
    problem parse: what a caller checks before any answer is scored."""
    for name, value in (("domain", domain_pddl), ("gold problem", gold_problem_pddl)):
        if not isinstance(value, str) or not value.strip():
            raise ProblemComparisonError(f"the {name} must be PDDL text, not {value!r:.40}")
    try:
        domain = parse_domain(domain_pddl)
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        raise ProblemComparisonError(f"the domain does not parse: {err}") from None
    try:
        parse_problem(domain, gold_problem_pddl)
    except SimulationError as err:
        raise ProblemComparisonError(f"the gold problem: {err.reason}") from None


def problem_reward(verdict: ProblemVerdict) -> tuple[float, str]:
    """The reward of a verdict (see the module docstring) and the reason it is below 1."""
    if verdict.equivalent:
        return 1.0, ""
    if not verdict.parseable:
        return 0.0, verdict.message  # "the prediction does not parse: ..."
    if verdict.equivalent is None:
        return 0.0, f"{LIMIT}: the check was left open: {verdict.message}"
    where = f": {verdict.counterexample.text}" if verdict.counterexample else ""
    return 0.0, f"not equivalent ({verdict.rule}){where}"


def score_problem_answer(domain_pddl: str, gold_problem_pddl: str, answer: str, *,
                         work_bound: int = DEFAULT_WORK_BOUND,
                         plan_timeout: float = PLAN_TIMEOUT) -> ProblemAnswerScore:
    """The reward of ``answer`` (a model's raw text holding a problem) for ``gold_problem_pddl``
    of ``domain_pddl``; ``work_bound`` and ``plan_timeout`` as in ``compare_problems``.
    Raises ``ProblemComparisonError`` when the domain or the gold cannot be compared."""
    try:
        problem = extract_problem(answer)
    except NoProblemFound as err:
        check_problem_gold(domain_pddl, gold_problem_pddl)  # a bad gold: the caller's error
        return ProblemAnswerScore(0.0, None, f"no problem: {err}")
    verdict = compare_problems(domain_pddl, gold_problem_pddl, problem, work_bound=work_bound,
                               plan_timeout=plan_timeout)
    reward, reason = problem_reward(verdict)
    return ProblemAnswerScore(reward, verdict, reason[:1000], problem)


def problem_round_verdict(domain_pddl: str, gold_problem_pddl: str, answer: str
                          ) -> dict[str, Any]:
    """One round of ``t2w eval --task problem`` as its item record keeps it: the verdict on
    the problem in ``answer`` (``ProblemVerdict.to_dict``, an unparsed verdict when there is
    none) with ``extracted`` (a problem was found), ``problem`` (its text) and, where none
    was found, ``message`` saying why. Raises ``ProblemComparisonError`` when the gold side
    cannot be read."""
    try:
        problem = extract_problem(answer)
    except NoProblemFound as err:
        verdict = compare_problems(domain_pddl, gold_problem_pddl, "")
        return {**verdict.to_dict(), "extracted": False, "problem": "", "message": str(err)}
    verdict = compare_problems(domain_pddl, gold_problem_pddl, problem)
    return {**verdict.to_dict(), "extracted": True, "problem": problem}


__all__ = ["LIMIT", "ProblemAnswerScore", "ProblemComparisonError", "check_problem_gold",
           "problem_reward", "problem_round_verdict", "score_problem_answer"]
