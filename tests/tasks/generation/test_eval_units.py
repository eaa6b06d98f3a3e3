"""Units of the eval machinery: run store, cache keys, retry policy, model resolution,
reference models, prompts."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

import json
import subprocess
import sys
from pathlib import Path

import pytest
from llm_server import Script, ScriptedLLMServer, pddl_answer, small_domain, write_store

from text2world.engine.run_store import Run, RunError, read_jsonl
from text2world.model.client import ModelConfigError, RetryPolicy, api_key_for, request_key, resolve_model
from text2world.model.reference import reference_answer
from text2world.pddl.validation import validate
from text2world.tasks.generation.prompts import Prompts, load_template
from text2world.tasks.generation.task import EvalOptions, evaluate, options_from_run


def test_torn_last_line_is_ignored_then_cut_and_runs_are_single_writer(tmp_path):
    run, resumed = Run.create_or_resume(tmp_path / "run", {"model": "m", "ec": 1})
    assert not resumed
    run.lock()
    run.append_item({"item": "a", "ec": {}})
    run.close()
    with run.log_path.open("ab") as stream:
        stream.write(b'{"item": "b", "ec"')  # a writer killed mid-line
    assert [r["item"] for r in read_jsonl(run.log_path)] == ["a"]
    again = Run.open(run.path)
    again.lock()
    assert run.log_path.read_bytes().endswith(b"}\n")
    with pytest.raises(RunError, match="another t2w eval"):
        Run.open(run.path).lock()
    again.append_item({"item": "b", "ec": {}})
    again.close()
    assert [r["item"] for r in read_jsonl(run.log_path)] == ["a", "b"]
    run.log_path.write_text('{"item": "a"}\nnot json\n{"item": "b"}\n')
    with pytest.raises(RunError, match="line 2"):
        read_jsonl(run.log_path)


FORK_AND_RELOCK = """
import os, sys, time
from pathlib import Path
from text2world.engine.run_store import Run
run, _ = Run.create_or_resume(Path(sys.argv[1]), {"model": "m", "ec": 0})
run.lock()
ready, signal_ready = os.pipe()
child = os.fork()
if child == 0:  # a forked child (a pool worker) that outlives the run's writer
    try:
        os.write(signal_ready, b"x")  # running: the at-fork hooks have run
        time.sleep(30)
    finally:
        os._exit(0)
os.read(ready, 1)
try:
    run.close()  # the writer is done: its lock must be free although the child lives on
    again = Run.open(run.path)
    again.lock()
    again.close()
    print("relocked")
finally:
    os.kill(child, 9)
    os.waitpid(child, 0)
"""


def test_forked_children_never_hold_the_run_lock(tmp_path):
    run, _ = Run.create_or_resume(tmp_path / "run", {"model": "m", "ec": 0})
    run.lock()
    with pytest.raises(RunError, match=f"another t2w eval \\(process {os.getpid()}\\)"):
        Run.open(run.path).lock()
    run.close()
    # Fork in a fresh single-threaded interpreter, as the eval process forks its pool.
    forked = subprocess.run([sys.executable, "-c", FORK_AND_RELOCK, str(tmp_path / "forked")],
                            capture_output=True, text=True, timeout=120)
    assert forked.returncode == 0 and forked.stdout.strip() == "relocked", forked.stderr


def test_request_key_covers_model_base_messages_settings_round():
    messages = [{"role": "user", "content": "x"}]
    base = request_key("openai/m", None, messages, {"temperature": 0}, 0)
    assert base == request_key("openai/m", None, list(messages), {"temperature": 0}, 0)
    variants = [request_key("openai/n", None, messages, {"temperature": 0}, 0),
                request_key("openai/m", "http://127.0.0.1:1/v1", messages, {"temperature": 0}, 0),
                request_key("openai/m", None, [{"role": "user", "content": "y"}],
                            {"temperature": 0}, 0),
                request_key("openai/m", None, messages, {"temperature": 0.5}, 0),
                request_key("openai/m", None, messages, {"temperature": 0}, 1)]
    assert len({base, *variants}) == 6


def test_retry_delay_grows_is_bounded_and_honours_retry_after():
    policy = RetryPolicy(max_retries=5, base_delay=1.0, max_delay=8.0)
    assert 0.75 <= policy.delay(1) <= 1.25
    assert 3.0 <= policy.delay(3) <= 5.0
    assert policy.delay(10) <= 8.0 * 1.25

    class Response:
        headers = {"retry-after": "3"}

    class Limited(Exception):
        response = Response()

    assert policy.delay(1, Limited()) == 3.0


def test_model_resolution_and_key_checks(monkeypatch):
    spec = resolve_model("deepseek-r1")
    assert spec.litellm_model == "deepseek/deepseek-reasoner"
    assert spec.api_key_env == "DEEPSEEK_API_KEY"
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    with pytest.raises(ModelConfigError, match="DEEPSEEK_API_KEY"):
        api_key_for(spec)
    monkeypatch.setenv("DEEPSEEK_API_KEY", "sk-test")
    assert api_key_for(spec) == "sk-test"
    assert "sk-test" not in json.dumps(spec.to_config())
    local = resolve_model("openai/my-model", api_base="http://127.0.0.1:8000/v1")
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert api_key_for(local) == "EMPTY"  # local servers need no key
    with pytest.raises(ModelConfigError, match="OPENAI_API_KEY"):
        api_key_for(resolve_model("openai/gpt-4o"))
    assert resolve_model("reference/oracle").is_reference
    with pytest.raises(ModelConfigError, match="unknown model"):
        resolve_model("definitely-not-a-model")


def test_reference_models_are_deterministic_and_get_repaired():
    gold = small_domain("t2wu-gold", actions=3)
    assert "(domain t2wu-gold)" in reference_answer("oracle", gold, "x", 0)
    validity = {}
    for item in range(30):
        answers = [reference_answer("noisy-oracle", gold, f"item{item}", r, seed=1)
                   for r in range(6)]
        assert answers == [reference_answer("noisy-oracle", gold, f"item{item}", r, seed=1)
                           for r in range(6)]
        valid = []
        for answer in answers:
            try:
                from text2world.pddl.extract import extract_domain

                valid.append(validate(extract_domain(answer)).ok)
            except Exception:  # noqa: BLE001 - no PDDL in the answer
                valid.append(False)
        validity[item] = valid
        # once repaired it stays repaired, and everything is repaired by round 4
        first = valid.index(True)
        assert all(valid[first:]) and first <= 4
    firsts = [v.index(True) for v in validity.values()]
    assert min(firsts) == 0 and max(firsts) >= 2  # a spread of needed corrections


_TOOLS = [{"type": "function", "function": {"name": "validate_domain", "parameters": {
    "type": "object", "properties": {"pddl": {"type": "string"}}}}}]


@pytest.mark.parametrize("case", ["generate", "correct", "feedback", "agent-call",
                                  "agent-final", "refused"])
def test_reference_models_answer_without_litellm_as_through_it(case, monkeypatch):
    """The client answers a reference model itself (no litellm import): the same Completion as
    litellm's provider gives (latency apart), and a call the model refuses still goes through
    litellm, which raises what it always raised."""
    import asyncio

    from text2world.model.client import InfrastructureError, LLMClient
    from text2world.store.datasets import load_dataset

    gold = load_dataset().get("blocksworld").domain
    model, tools, round_index = "reference/noisy-oracle", None, 0
    context: dict = {"gold": gold, "item": "blocksworld", "seed": 3}
    messages = [{"role": "system", "content": "You are a helpful assistant."},
                {"role": "user", "content": "Write the blocksworld domain."}]
    if case in ("correct", "feedback"):
        round_index = 2
        messages.append({"role": "assistant", "content": "(define (domain"})
    if case == "feedback":
        context["feedback"] = {"kind": "behavior", "open": True}
    if case.startswith("agent"):
        tools, context = _TOOLS, {**context, "agent": True, "tools_offered": True}
        if case == "agent-final":
            messages += [{"role": "assistant", "content": "", "tool_calls": [{
                "id": "call_0", "type": "function", "function": {
                    "name": "validate_domain", "arguments": "{}"}}]},
                         {"role": "tool", "tool_call_id": "call_0", "content": '{"ok": true}'}]
    if case == "refused":
        model = "reference/judge-yes"  # answers only inside t2w judge

    def answer(direct: bool):
        sent: list[int] = []
        client = LLMClient(resolve_model(model))
        if not direct:
            monkeypatch.setattr(LLMClient, "_reference_completion", lambda *args: None)
        try:
            completion = asyncio.run(client.complete(messages, round_index, context,
                                                     on_send=sent.append, tools=tools))
        finally:
            monkeypatch.undo()
        return {**completion.to_dict(), "latency": None}, sent, client.calls

    if case == "refused":
        with pytest.raises(InfrastructureError, match="BadRequest.*answers only inside t2w judge"):
            answer(True)
        return
    direct, through = answer(True), answer(False)
    assert direct == through
    assert (direct[0]["tool_calls"] is not None) == (case == "agent-call")


def test_correction_prompt_history_is_bounded(tmp_path):
    prompts = Prompts(load_template("zero-shot", ("description",), "prompt"),
                      load_template("correction", ("domain", "error"), "correction prompt"))
    history = [(f"(define (domain d{i}))", f"error {i}") for i in range(8)]
    text = prompts.correction_messages(history, "(define (domain now))", "error now", 9)[-1][
        "content"]
    assert "Round 9\nDomain with errors:\n(define (domain now))" in text
    assert "error now" in text and "error 7" in text and "error 3" in text
    assert "error 2" not in text  # the last 5 earlier rounds only
    generation = prompts.generation_messages("A {weird} description with braces.")
    assert "A {weird} description with braces." in generation[-1]["content"]


def test_resume_option_reads_the_run_config(tmp_path):
    store = write_store(tmp_path / "store", ["t2wu-a", "t2wu-b"])
    with ScriptedLLMServer({name: Script([pddl_answer(small_domain(name))])
                            for name in ("t2wu-a", "t2wu-b")}) as server:
        first = evaluate(EvalOptions(model="openai/test-model", api_base=server.url,
                                     dataset=str(store), ec=2, limit=1, workers=0,
                                     temperature=0.2))
        assert [i["item"] for i in first.run.items()] == ["t2wu-a"]
        options = options_from_run(first.run.path, workers=0)
        assert options.ec == 2 and options.temperature == 0.2 and options.api_base == server.url
        assert options.domains == ["t2wu-a"]  # the run covers exactly what it selected
        options.limit = options.domains = None  # resume and extend the run to every item
        second = evaluate(options)
        assert second.resumed and second.run.path == first.run.path
        assert sorted(i["item"] for i in second.run.items()) == ["t2wu-a", "t2wu-b"]
        assert len(server.requests) == 2


def test_cost_from_the_models_file_and_cached_calls_cost_nothing(tmp_path):
    home = Path(os.environ["T2W_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "models.toml").write_text(
        '[models.priced]\nmodel = "openai/test-model"\napi_key_env = ""\n'
        "input_cost_per_mtok = 2.0\noutput_cost_per_mtok = 4.0\n")
    store = write_store(tmp_path / "store", ["t2wu-a"])
    with ScriptedLLMServer({"t2wu-a": Script([pddl_answer(small_domain("t2wu-a"))])}) as server:
        first = evaluate(EvalOptions(model="priced", api_base=server.url, dataset=str(store),
                                     ec=0, workers=0, run_id="paid"))
        second = evaluate(EvalOptions(model="priced", api_base=server.url, dataset=str(store),
                                      ec=0, workers=0, run_id="cached"))
    rnd = first.run.items()[0]["rounds"][0]
    assert rnd["prompt_tokens"] > 0
    assert rnd["cost"] == pytest.approx((rnd["prompt_tokens"] * 2 + rnd["completion_tokens"] * 4)
                                        / 1e6)
    assert first.summary["cost_paid"] == pytest.approx(rnd["cost"])
    assert second.summary["cost_paid"] == 0 and second.summary["cost"] == pytest.approx(rnd["cost"])
    assert first.run.config["model_spec"]["litellm_model"] == "openai/test-model"


def test_paper_mode_scores_what_the_released_code_extracts_from_the_answer():
    """A domain block and a longer problem block: the round's domain (validated, corrected,
    scored in canonical mode) is the domain; paper mode scores the longest block, as released."""
    from text2world.store.datasets import load_dataset
    from text2world.tasks.generation.scoring import extract_round_domain, score_round

    record = load_dataset().get("blocksworld")
    problem = record.problems[-1].pddl
    problem = problem.replace("(:init", "; a long problem, as real answers have\n" * 40 + "(:init")
    assert len(problem) > len(record.domain)
    answer = f"```pddl\n{record.domain}\n```\nand a problem:\n```pddl\n{problem}\n```\n"
    domain, error = extract_round_domain(answer)
    assert error is None and domain.strip() == record.domain.strip()
    scored = score_round(record.domain, domain, ("paper", "canonical"), response=answer)
    assert scored["scores"]["canonical"]["f1_predicates"] == 1.0
    assert scored["scores"]["paper"]["executable"] is False  # the released rule took the problem
    without = score_round(record.domain, domain, ("paper",))
    assert without["scores"]["paper"]["f1_predicates"] == 1.0
