"""``text2world.rewards``: called exactly as TRL's GRPOTrainer and veRL call reward functions;
gold answers earn 1.0, broken ones less, garbage 0; deterministic, bounded, never raising on model
output, importable without the API's extras."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from trainer_helpers import verl_rewards

from text2world.model.reference import reference_answer
from text2world.pddl.perturb import drop_action, rename_variables
from text2world.rewards import (
    METRICS,
    NOT_EQUIVALENT_CAP,
    DomainReward,
    RewardInputError,
    compute_score,
    domain_reward,
    resolve_gold,
    reward_for,
)
from text2world.store.datasets import load_dataset

GOLD = "gripper"


@pytest.fixture(scope="module")
def gold_text() -> str:
    return load_dataset().get(GOLD).domain


def _answers(gold: str) -> list[str]:
    return [
        reference_answer("oracle", gold, GOLD, 0),                         # the gold, fenced
        f"Renamed:\n```pddl\n{rename_variables(gold, seed=3)}\n```",       # equivalent
        f"<think>drop one</think>\n```pddl\n{drop_action(gold, seed=1)}\n```",  # broken
        "I cannot write PDDL.",                                            # garbage
        "(define (domain gripper) (:predicates (at ?x)",                   # does not parse
    ]


def test_domain_reward_as_grpo_trainer_calls_it(gold_text):
    answers = _answers(gold_text)
    size = len(answers)
    # GRPOTrainer: reward_func(prompts=..., completions=..., completion_ids=..., **reward_kwargs),
    # every other dataset column a list aligned with the completions, plus trainer_state.
    columns = {"gold_id": [GOLD] * size, "split": ["test"] * size, "trainer_state": object()}
    plain = domain_reward(prompts=["Write the domain."] * size, completions=answers,
                          completion_ids=[[1, 2]] * size, **columns)
    chat = domain_reward(prompts=[[{"role": "user", "content": "Write the domain."}]] * size,
                         completions=[[{"role": "assistant", "content": a}] for a in answers],
                         completion_ids=[[1, 2]] * size, **columns)
    assert plain == chat
    assert all(isinstance(value, float) for value in plain)
    assert plain[0] == plain[1] == 1.0
    assert 0.0 < plain[2] < 1.0 and plain[2] <= NOT_EQUIVALENT_CAP
    assert plain[3] == plain[4] == 0.0
    details = domain_reward.last_details
    assert [d.verdict for d in details[:3]] == ["equivalent", "equivalent", "incomplete"]
    assert details[2].reason.startswith("semantic verdict incomplete")
    assert details[3].reason.startswith("no domain") and "does not validate" in details[4].reason
    assert domain_reward.__name__ == "domain_reward"  # TRL logs each reward function by name


@pytest.mark.parametrize("metric", METRICS)
def test_every_metric_gives_the_gold_full_reward_and_garbage_none(gold_text, metric):
    rewards = domain_reward(_answers(gold_text), gold_id=GOLD, metric=metric)
    assert rewards[0] == 1.0 and rewards[3] == rewards[4] == 0.0
    assert rewards[2] < 1.0 or metric == "executable"
    per_row = domain_reward(_answers(gold_text)[:2], gold_id=[GOLD, GOLD], metric=[metric, "executable"])
    assert per_row == [1.0, 1.0]


def test_compute_score_as_verl_calls_it(gold_text):
    # veRL's reward manager: compute_score(data_source=, solution_str=, ground_truth=, extra_info=)
    answer = reference_answer("oracle", gold_text, GOLD, 0)
    assert compute_score(data_source="text2world", solution_str=answer, ground_truth=GOLD,
                         extra_info={"split": "test", "index": 0}) == 1.0
    assert compute_score(data_source="text2world", solution_str=answer, ground_truth=gold_text) == 1.0
    broken = compute_score(data_source="text2world", solution_str=drop_action(gold_text, seed=1),
                           ground_truth=GOLD, extra_info={"metric": "paper_f1"})
    assert 0.0 < broken < 1.0
    assert compute_score("text2world", "no pddl here", GOLD, None) == 0.0


@pytest.mark.parametrize("how", ["file", "pkg"])
def test_verl_loads_compute_score_by_file_path_and_by_pkg(gold_text, how):
    """veRL's file-path loader runs ``rewards.py`` without a ``sys.modules`` entry (dataclasses
    with string annotations die there), and its reward loop passes keywords of its own
    (``reward_router_address``, ``reward_model_tokenizer``): both load forms score."""
    assert verl_rewards(how, gold_text, {"index": 0}) == ["1.0", "0.0"]


def test_compute_score_ignores_keywords_it_does_not_know(gold_text):
    answer = reference_answer("oracle", gold_text, GOLD, 0)
    assert compute_score("text2world", answer, GOLD, None, reward_router_address="127.0.0.1:1",
                         reward_model_tokenizer=object(), anything_else=3) == 1.0


def test_domain_reward_takes_the_keywords_trl_passes_today(gold_text):
    # TRL (1.x) adds trainer_state, log_extra and log_metric to every reward function call
    logged: list = []
    answers = _answers(gold_text)[:1] + _answers(gold_text)[3:4]
    rewards = domain_reward(prompts=["p", "p"], completions=answers, completion_ids=[[1], [2]],
                            gold_id=[GOLD, GOLD], trainer_state=object(),
                            log_extra=lambda *a, **k: logged.append(a),
                            log_metric=lambda *a, **k: logged.append(a))
    assert rewards == [1.0, 0.0]


def test_a_gold_given_as_other_pddl_has_no_problems_and_falls_back(gold_text):
    other = gold_text.replace("(define (domain gripper", "(define (domain gripper-copy")
    gold = resolve_gold(other)
    assert gold.id.startswith("pddl:") and gold.problems == ()
    assert resolve_gold(gold_text).id == GOLD  # a store gold as text keeps its problems
    detail = reward_for(gold, drop_action(other, seed=1))
    assert "canonical_f1" in detail.reason and detail.reward == detail.scores["canonical_f1"] < 1.0


def test_deterministic_across_processes(gold_text):
    answers = _answers(gold_text)
    here = domain_reward(answers, gold_id=GOLD)
    script = textwrap.dedent(f"""
        import json, sys
        from text2world.rewards import domain_reward
        print(json.dumps(domain_reward(json.loads(sys.stdin.read()), gold_id={GOLD!r})))
    """)
    other = subprocess.run([sys.executable, "-c", script], input=json.dumps(answers),
                           capture_output=True, text=True, check=True, timeout=300)
    assert json.loads(other.stdout) == here == domain_reward(answers, gold_id=GOLD)


def test_an_answer_met_again_is_not_parsed_again(gold_text, monkeypatch):
    from text2world import rewards

    monkeypatch.setenv("T2W_REWARD_WORKERS", "0")  # spies on the scoring: in this process

    answer = f"```pddl\n{drop_action(gold_text, seed=5)}\n```"
    first = reward_for(resolve_gold(GOLD), answer)

    def no_parse(*_args, **_kwargs):
        raise AssertionError("parsed again")

    monkeypatch.setattr("text2world.pddl.validation.validate", no_parse)
    monkeypatch.setattr("text2world.pddl.model.parse_domain", no_parse)
    assert reward_for(resolve_gold(GOLD), answer) == first
    assert rewards._VALIDATED.cache_info().hits and rewards._PARSED.cache_info().hits


def test_an_answer_is_parsed_with_the_garbage_collector_paused(gold_text, monkeypatch):
    """The answer's validation (tarski's parse) runs with the cyclic collector paused, as its
    scoring does, and the collector runs again after the reward (also after one that failed)."""
    import gc

    from text2world.pddl import validation

    monkeypatch.setenv("T2W_REWARD_WORKERS", "0")  # spies on the scoring: in this process
    seen = []
    original = validation.validate

    def spying(*args, **kwargs):
        seen.append(gc.isenabled())
        return original(*args, **kwargs)

    monkeypatch.setattr(validation, "validate", spying)
    assert gc.isenabled()
    answer = f"```pddl\n{drop_action(gold_text, seed=11)}\n```"
    assert reward_for(resolve_gold(GOLD), answer).executable
    assert seen == [False] and gc.isenabled()

    def failing(*_args, **_kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(validation, "validate", failing)
    failed = reward_for(resolve_gold(GOLD), answer.replace("(:action", "(:action  ", 1))
    assert failed.reward == 0 and "boom" in failed.reason and gc.isenabled()


def test_past_the_cpu_limit_the_reward_is_zero_with_the_reason(gold_text):
    tight = DomainReward(limit=1e-9)
    assert tight([drop_action(gold_text, seed=1)], gold_id=[GOLD]) == [0.0]
    assert "CPU seconds per answer" in tight.last_details[0].reason
    assert tight.last_details[0].timed_out  # a clock decided it: the reason says "timeout:"


def test_a_lower_planner_limit_is_an_option_that_changes_rewards_apart(tmp_path, monkeypatch):
    """``planner_limit`` lowers Fast Downward's CPU seconds on the answer's plans only: an answer
    whose plan Fast Downward must settle (here: prove there is none, in about 0.1 CPU-s) gets 0
    and a timeout reason under a limit too low for it, and its default reward stays as it was
    (the option's plans are cached apart)."""
    from text2world.planning import front

    monkeypatch.setenv("T2W_HOME", str(tmp_path))
    front.clear_memory()
    gold = "smart-home"  # a dropped action Fast Downward proves leaves the goal unreachable
    answer = f"```pddl\n{drop_action(load_dataset().get(gold).domain, seed=1003)}\n```"
    default = reward_for(resolve_gold(gold), answer)
    assert default.reward > 0 and not default.timed_out
    low = reward_for(resolve_gold(gold), answer, planner_limit=1e-6)
    assert low.reward == 0.0 and low.timed_out and "1e-06 per planner run" in low.reason
    assert reward_for(resolve_gold(gold), answer) == default
    assert DomainReward(planner_limit=1e-6)([answer], gold_id=[gold]) == [0.0]
    assert domain_reward([answer], gold_id=[gold], planner_limit=1e-6) == [0.0]
    assert compute_score("text2world", answer, gold, {"planner_limit": 1e-6}) == 0.0
    assert compute_score("text2world", answer, gold) == default.reward
    # at or above the default limit, the option is the default
    assert reward_for(resolve_gold(gold), answer, planner_limit=60) == default
    for wrong in (0, -1, "x", float("nan")):
        with pytest.raises(RewardInputError, match="planner_limit"):
            DomainReward(planner_limit=wrong)
    front.clear_memory()


NASTY = [None, 42, {"role": "assistant"}, [{"role": "user", "content": "x"}], b"\x00\xff", "",
         "\ud800 lone surrogate (define", "<think> never closed (define (domain x)", "(" * 5000,
         "(define (domain x) " + "(:action a)" * 3000, "x" * 2_000_000,
         [{"role": "assistant", "content": [{"type": "text", "text": "(define (domain d))"}]}]]


@pytest.mark.parametrize("answer", NASTY, ids=range(len(NASTY)))
def test_any_model_output_scores_without_raising(answer):
    rewards = domain_reward([answer], gold_id=[GOLD])
    assert rewards[0] == 0.0 and domain_reward.last_details[0].reason


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(alphabet=st.sampled_from(list("()?-: \n\tabdefinoprstx`;<>")), max_size=300))
def test_random_text_never_raises(text):
    value = compute_score("text2world", text, GOLD)
    assert 0.0 <= value <= 1.0


def test_the_callers_configuration_errors_are_raised_clearly(gold_text):
    with pytest.raises(RewardInputError, match="neither PDDL text nor a domain id"):
        domain_reward(["x"], gold_id=["no-such-domain"])
    with pytest.raises(RewardInputError, match="unknown reward metric"):
        domain_reward(["x"], gold_id=[GOLD], metric="accuracy")
    with pytest.raises(RewardInputError, match="2 values for 1 completions"):
        domain_reward(["x"], gold_id=[GOLD, GOLD])
    with pytest.raises(RewardInputError, match="needs a 'gold_id'"):
        domain_reward(["x"], prompts=["p"])


def test_importable_without_the_api_extras():
    blocked = ("fastapi", "uvicorn", "starlette", "mcp", "ray")
    script = textwrap.dedent(f"""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in {blocked!r}:
                    raise ImportError("blocked: " + name)
        sys.meta_path.insert(0, Block())
        from text2world.rewards import compute_score, domain_reward
        from text2world.batch_scoring import score_chunk
        print(compute_score("text2world", "no domain", "blocksworld"))
        assert not any(name.split(".")[0] in {blocked!r} for name in sys.modules)
    """)
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "0.0"


def test_the_reward_bench_runs_on_a_few_golds_with_its_breakdown(tmp_path):
    """``bench/reward_bench.py`` (the throughput figures of the docs) runs end to end on two
    golds, the breakdown included: it times our functions by name, so a renamed one fails
    here rather than when the figures are next measured."""
    from repo_paths import REPO

    result = subprocess.run(
        [sys.executable, str(REPO / "bench" / "reward_bench.py"), "--golds", "2", "--per-gold",
         "2", "--skip-ray", "--skip-processes", "--passes", "1", "--breakdown"],
        capture_output=True, text=True, timeout=600, env={**os.environ, "T2W_HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr[-2000:]
    assert "answers whose reward differed between the two passes: 0" in result.stdout
    assert "floor (empty domain): mean reward 0.000" in result.stdout
    assert "breakdown, 3 answers not seen before" in result.stdout
    assert "through the gold's answers" in result.stdout
