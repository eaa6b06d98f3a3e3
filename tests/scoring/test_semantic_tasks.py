"""Semantic scoring cut into one task per gold problem (``scoring.semantic_tasks``): the
parts, scored in worker processes in longest-first order and merged, give the score the
unsplit ``semantic_score`` gives, to the byte but for its wall-clock fields, over the kinds of
answers bench/semantic_bench.py scores (the gold, renamings, single-point mutants) and those
that fail early (no parse, no problems, no alignment)."""

from __future__ import annotations

import json
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor

from text2world.pddl import perturb
from text2world.scoring.mutants import mutants, rename
from text2world.scoring.semantic import prepare_gold, semantic_score
from text2world.scoring.semantic_tasks import (
    expected_costs,
    lpt_makespan,
    lpt_order,
    merge_all,
    problem_tasks,
    score_problem,
)
from text2world.store.datasets import load_dataset, store_problems

CLOCKS = ("seconds", "planner_seconds")  # wall-clock fields: never equal from run to run


def comparable(score) -> str:
    data = score.to_dict()
    for name in CLOCKS:
        data.pop(name)
    return json.dumps(data, sort_keys=True, default=str)


def bench_pairs(domains: int = 8, per_domain: int = 3) -> list[tuple[str, str, list]]:
    """The bench's kinds of answers over store domains spread over the store."""
    records = sorted((r for r in load_dataset().records if r.problems), key=lambda r: r.id)
    rng = random.Random(0)
    pairs: list[tuple[str, str, list]] = []
    for record in records[::max(1, len(records) // domains)][:domains]:
        gold, problems = store_problems(record.id)
        domain = prepare_gold(gold, problems).domain
        chosen = rng.sample(mutants(domain), min(per_domain, len(mutants(domain))))
        answers = [gold, rename(domain).to_pddl(), perturb.drop_action(gold, seed=1),
                   *(m.domain.to_pddl() for m in chosen)]
        pairs += [(gold, answer, problems) for answer in answers]
    pairs.append(notes_on_both_sides())
    gold, problems = pairs[0][0], pairs[0][2]
    pairs += [(gold, "(define (domain broken", problems),  # does not parse
              (gold, gold, []),                                # no problems
              ("(define (domain x) (:action", gold, problems),  # the gold does not parse
              (gold, "(define (domain other) (:requirements :strips) (:predicates (q))"
                     " (:action z :parameters () :precondition (q) :effect (not (q))))",
               problems)]                                      # nothing aligns
    return pairs


SMALL_GOLD = """(define (domain small) (:requirements :strips) (:predicates (p) (q) (r))
  (:action a :parameters () :precondition (and (p) (r)) :effect (and (not (p)) (q))))"""
SMALL_ANSWER = """(define (domain small) (:requirements :strips) (:predicates (p) (q))
  (:action a :parameters () :precondition (p) :effect (and (not (p)) (q))))"""


def notes_on_both_sides() -> tuple[str, str, list]:
    """A pair whose score has notes of the gold's side (a problem without a gold plan) and of
    the prediction's (a predicate it lacks), on two problems: their order is the pair's."""
    problem = "(define (problem {0}) (:domain small) (:init {1}) (:goal (q)))"
    return SMALL_GOLD, SMALL_ANSWER, [("solvable", problem.format("solvable", "(p) (r)")),
                                      ("unsolvable", problem.format("unsolvable", "(r)"))]


def test_split_scoring_equals_the_unsplit_score() -> None:
    pairs = bench_pairs()
    whole = [semantic_score(gold, answer, problems) for gold, answer, problems in pairs]
    tasks = problem_tasks(pairs)
    assert len(tasks) > len(pairs)  # golds with several problems are cut
    order = lpt_order(expected_costs(tasks))
    # forked workers that do not hold the prepared golds: each prepares its problems alone
    from text2world.scoring import semantic_gold

    semantic_gold._GOLD_CACHE.clear()
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("fork")) as pool:
        parts = list(pool.map(score_problem, [tasks[i] for i in order]))
    split = merge_all(parts)
    assert len(split) == len(whole)
    repeatable = [i for i, score in enumerate(whole) if not score.timeouts]
    assert len(repeatable) >= len(pairs) - 2  # a clock may fire on a loaded machine
    for index in repeatable:
        assert comparable(split[index]) == comparable(whole[index]), pairs[index][1][:200]
    small = whole[len(pairs) - 5]
    assert any("no gold plan" in note for note in small.notes), small.notes
    assert sum("has no predicate r" in note for note in small.notes) == 2, small.notes
    verdicts = {whole[i].verdict for i in repeatable}
    assert {"equivalent", "different", "not_simulated"} <= verdicts


def test_lpt_makespan_puts_the_longest_task_first() -> None:
    assert lpt_order([1.0, 5.0, 3.0, 5.0]) == [1, 3, 2, 0]
    # not measured yet (its preparation still to pay): first, the larger problems first;
    # then the measured ones by their gold's cost times their problem's size (a broken
    # answer's search grows with the problem): 60, 45, 20; a tie to the larger problem
    assert lpt_order([2.0, None, 2.0, None, 9.0], sizes=[10, 50, 30, 70, 5]) == [3, 1, 2, 4, 0]
    assert lpt_order([3.0, 2.0], sizes=[20, 30]) == [1, 0]
    # longest first: 7 | 5+2 | 4+3 on three workers; in input order (2 | 3+7 | 4+5) 10
    durations = [2.0, 3.0, 4.0, 5.0, 7.0]
    assert lpt_makespan(durations, 3) == 7.0
    assert lpt_makespan(durations, 3, order=range(5)) == 10.0
    assert lpt_makespan(durations, 1) == sum(durations)
    assert lpt_makespan([], 4) == 0.0
