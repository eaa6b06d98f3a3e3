"""``semantic_score`` on hostile quantified answers (issue 46): within its 60 s per pair (CPU
seconds here, Fast Downward's processes included) plus 2, refused early with a ``limit:``
reason where a quantifier ranges over too many object combinations."""

from __future__ import annotations

import resource

import pytest
from hostile_answers import GOLD, UNDER_THE_CAP, hostile_answer

from text2world.pddl.extract import extract_domain
from text2world.scoring.semantic import SemanticSettings, semantic_score
from text2world.store.datasets import load_dataset


def _cpu() -> float:
    mine = resource.getrusage(resource.RUSAGE_SELF)
    theirs = resource.getrusage(resource.RUSAGE_CHILDREN)
    return mine.ru_utime + mine.ru_stime + theirs.ru_utime + theirs.ru_stime


@pytest.mark.parametrize("variables", [UNDER_THE_CAP, 14, 20])
def test_a_quantified_answer_is_scored_within_the_pair_s_limit(variables):
    record = load_dataset().get(GOLD)
    problems = [(p.name, p.pddl) for p in record.problems]
    settings = SemanticSettings()
    semantic_score(record.domain, record.domain, problems, settings=settings)  # gold prepared
    started = _cpu()
    result = semantic_score(record.domain, extract_domain(hostile_answer(variables), "canonical"),
                            problems, settings=settings)
    assert _cpu() - started <= settings.time_limit + 2
    assert not result.ok and result.verdict == "not_simulated"
    if variables > UNDER_THE_CAP:  # refused on the first problem, before any grounding
        assert "limit:" in result.reason and "combinations of objects" in result.reason
    else:  # a later problem has too many blocks, unless the pair's clock fired first
        assert "limit:" in result.reason or "timeout:" in result.reason, result.reason
