"""``metric="problem"`` of ``text2world.rewards``: called as TRL's GRPOTrainer and veRL call
reward functions (veRL's file-path and ``pkg://`` loaders included), scored in the bounded
worker processes: the gold problem earns 1, another task or garbage 0, a hostile answer 0
within its CPU limit; the caller's configuration errors are raised."""

from __future__ import annotations

import sys

import pytest
from trainer_helpers import verl_rewards

from text2world.rewards import (
    PROBLEM_METRIC,
    DomainReward,
    RewardInputError,
    compute_score,
    domain_reward,
    problem_reward_for,
    resolve_problem_gold,
    reward_workers,
)
from text2world.store.datasets import load_dataset

GOLD = "gripper"


@pytest.fixture(scope="module")
def problems() -> tuple[str, str]:
    record = load_dataset().get(GOLD)
    return record.problems[0].pddl, record.problems[1].pddl


def hostile_problem(balls: int) -> str:
    """A gripper problem of ``balls`` balls, each with an initial fact and a goal fact."""
    names = " ".join(f"b{i}" for i in range(balls))
    init = " ".join(f"(ball-at b{i} room-a)" for i in range(balls))
    goal = " ".join(f"(ball-at b{i} room-b)" for i in range(balls))
    return (f"(define (problem many) (:domain gripper) (:objects {names} - ball room-a room-b "
            f"- room left right - gripper) (:init (robot-at room-a) (free left) (free right) "
            f"{init}) (:goal (and {goal})))")


def test_problem_reward_as_grpo_trainer_calls_it(problems):
    gold, other = problems
    answers = [f"Here:\n```pddl\n{gold}\n```", other, "I cannot.", "(define (problem x"]
    size = len(answers)
    columns = {"gold_id": [GOLD] * size, "gold_problem": ["p01"] * size,
               "trainer_state": object()}
    reward = DomainReward(metric=PROBLEM_METRIC, name="problem_reward")
    plain = reward(prompts=["Write the problem."] * size, completions=answers,
                   completion_ids=[[1]] * size, **columns)
    chat = reward(prompts=[[{"role": "user", "content": "Write it."}]] * size,
                  completions=[[{"role": "assistant", "content": a}] for a in answers],
                  completion_ids=[[1]] * size, **columns)
    assert plain == chat == [1.0, 0.0, 0.0, 0.0]
    details = reward.last_details
    assert [d.verdict for d in details] == ["equivalent", "different", None, None]
    assert [d.executable for d in details] == [True, True, False, False]
    assert details[1].reason.startswith("not equivalent (initial-state)")
    assert details[1].scores["init_f1"] > 0  # reported, not paid
    assert details[2].reason.startswith("no problem")
    assert "does not parse" in details[3].reason
    # the metric as a column, beside domain metrics; the gold problem as PDDL text
    mixed = domain_reward([gold, gold], gold_id=[GOLD, GOLD], gold_problem=[gold, None],
                          metric=[PROBLEM_METRIC, "executable"])
    assert mixed == [1.0, 0.0]  # a problem is no domain


def test_compute_score_as_verl_calls_it(problems):
    gold, other = problems
    info = {"metric": PROBLEM_METRIC, "gold_problem": "p01", "index": 3}
    assert compute_score(data_source="t2w", solution_str=gold, ground_truth=GOLD,
                         extra_info=info, reward_router_address=None) == 1.0
    assert compute_score("t2w", other, GOLD, info) == 0.0
    domain = load_dataset().get(GOLD).domain
    assert compute_score("t2w", gold, domain, {**info, "gold_problem": gold}) == 1.0


@pytest.mark.parametrize("how", ["file", "pkg"])
def test_verl_loads_the_problem_metric_by_file_path_and_by_pkg(problems, how):
    info = {"metric": "problem", "gold_problem": "p01"}
    assert verl_rewards(how, problems[0], info) == ["1.0", "0.0"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the workers' limits are Linux's")
def test_a_hostile_answer_gets_0_within_its_cpu_limit_and_the_next_scores(problems, monkeypatch):
    from text2world import bounded

    gold = resolve_problem_gold(GOLD, "p01")
    # 1,500 objects and goals take most of a CPU second to read and compare, under the
    # default margin past the limit: with a smaller margin the watcher kills the worker
    assert problem_reward_for(gold, hostile_problem(1500), limit=2.0).reward == 0.0
    monkeypatch.setattr(bounded, "CPU_MARGIN", 0.05)
    assert problem_reward_for(gold, problems[0], limit=2.0).reward == 1.0  # a worker is warm
    before = set(reward_workers().pids())
    detail = problem_reward_for(gold, f"```pddl\n{hostile_problem(1500)}\n```", limit=0.2)
    assert detail.reward == 0.0 and detail.reason.startswith("timeout:"), detail.reason
    assert "0.2 CPU seconds" in detail.reason
    assert not before & set(reward_workers().pids())  # the worker was killed and replaced
    assert problem_reward_for(gold, problems[0], limit=2.0).reward == 1.0
    # past the parser's bounds an answer is refused before any search
    refused = problem_reward_for(gold, hostile_problem(2500), limit=2.0)
    assert refused.reward == 0.0 and "MAX_TOKENS" in refused.reason


def test_the_callers_configuration_errors_are_raised_clearly(problems):
    with pytest.raises(RewardInputError, match="needs a 'gold_problem'"):
        compute_score("t2w", problems[0], GOLD, {"metric": PROBLEM_METRIC})
    with pytest.raises(RewardInputError, match=r"its problems: p01, p02"):
        resolve_problem_gold(GOLD, "p99")
    with pytest.raises(RewardInputError, match="gold gripper/pddl:.*the gold problem"):
        resolve_problem_gold(GOLD, "(define (problem q) (:domain gripper) (:objects x")
    with pytest.raises(RewardInputError, match="neither PDDL text nor a domain id"):
        resolve_problem_gold("no-such-domain", "p01")
    with pytest.raises(RewardInputError, match="gold_problem has 1 values for 2"):
        domain_reward(["a", "b"], gold_id=GOLD, gold_problem=["p01"], metric=PROBLEM_METRIC)
