"""``t2w contamination --model`` end to end: a real OpenAI-compatible server on 127.0.0.1
(tests/llm_server.py), reached through litellm with an api base, the response cache, the run
folder and resume of ``t2w eval``."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before litellm is imported

import json
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from llm_server import Script, ScriptedLLMServer, pddl_answer
from processes import HAS_PROC, descendants, survivors, wait_for
from typer.testing import CliRunner

from text2world.cli.main import app
from text2world.engine.run_store import read_jsonl
from text2world.store.tokens import gpt2_encoding, gpt2_tokens
from text2world.tasks.contamination.task import ProbeOptions, probe

runner = CliRunner()

WORDS = """crane pallet dock hoist lift stack rig cargo oven tray dough knead bake cool glaze
crust comet probe orbit thrust align scan relay beacon valve pipe tank pump flush drain seal
gauge loom yarn spool weave dye spin knot thread violin bow string tune pluck strum chord
melody garden hedge prune rake mulch sow bloom weed harbor anchor sail moor tide buoy keel
mast quarry chisel marble polish carve slab block grit forest timber axe saw log bark resin
stump lantern candle wick flame ember ash soot hearth kettle ladle""".split()
NAMES = ["t2wc-memorised", "t2wc-chatty", "t2wc-fresh", "t2wc-partial", "t2wc-flaky"]
# Disjoint vocabularies of 14 words: every domain (and the unrelated answer) uses its own.
VOCAB = {name: WORDS[14 * i:14 * (i + 1)] for i, name in enumerate(NAMES + ["music"])}
assert len(set(WORDS)) == len(WORDS) >= 14 * len(VOCAB)


def make_domain(name: str, words: list[str]) -> str:
    """A domain whose four actions each use their own names (no repeated 10-grams)."""
    first, second = words[0], words[1]
    actions, predicates = [], []
    for index in range(4):
        verb, ready, near, done = words[2 + 3 * index:5 + 3 * index] + [words[-1 - index]]
        predicates.append(f"({ready}-{index} ?x - {first}) ({near}-{index} ?x - {first} "
                          f"?y - {second})")
        actions.append(
            f"  (:action {verb}\n"
            f"    :parameters (?x - {first} ?y - {second})\n"
            f"    :precondition (and ({ready}-{index} ?x) ({near}-{index} ?x ?y))\n"
            f"    :effect (and ({done}-{index} ?x) (not ({ready}-{index} ?x))))")
    return (f"(define (domain {name})\n"
            "  (:requirements :strips :typing)\n"
            f"  (:types {first} {second})\n"
            f"  (:predicates {' '.join(predicates)})\n"
            + "\n".join(actions) + ")\n")


GOLD = {name: make_domain(name, VOCAB[name]) for name in NAMES}


def prompt_prefix(text: str, tokens: int = 20) -> str:
    """The first 20 GPT-2 tokens, computed here independently of the library."""
    return gpt2_encoding().decode(gpt2_tokens(text)[:tokens])


def rest_of(name: str) -> str:
    return GOLD[name][len(prompt_prefix(GOLD[name])):]


def scripts(flaky_faults: int) -> dict[str, Script]:
    partial_rest = rest_of("t2wc-partial")
    lines = partial_rest.splitlines(keepends=True)
    half = "".join(lines[:len(lines) // 2])
    unrelated = make_domain("music", VOCAB["music"])
    return {
        # Continues the domain exactly, without a code block.
        "t2wc-memorised": Script([rest_of("t2wc-memorised")]),
        # Answers the whole domain (prompt included) in a code block, inside prose and after
        # a <think> block that must be ignored.
        "t2wc-chatty": Script(["<think>recall it</think>\n" + pddl_answer(GOLD["t2wc-chatty"],
                                                                          "Sure! Here it is.")]),
        # Writes a different domain.
        "t2wc-fresh": Script([pddl_answer(unrelated)]),
        # Remembers the first half, then drifts.
        "t2wc-partial": Script([pddl_answer(half + unrelated.split("(:action", 1)[1])]),
        "t2wc-flaky": Script([rest_of("t2wc-flaky")], faults=["500"] * flaky_faults),
    }


@pytest.fixture()
def store(tmp_path: Path) -> Path:
    root = tmp_path / "store"
    (root / "domains").mkdir(parents=True)
    for name, text in GOLD.items():
        (root / "domains" / f"{name}.pddl").write_text(text)
    return root


def _run(*args: str):
    result = runner.invoke(app, ["contamination", *args])
    assert "Traceback" not in result.output, result.output
    return result


def _probe_args(store: Path, server: ScriptedLLMServer, *extra: str) -> list[str]:
    return ["--model", "openai/test-model", "--api-base", server.url, "--dataset", str(store),
            "--max-retries", "1", "--retry-delay", "0.01", "--timeout", "20", "-j", "3",
            *extra]


def test_probe_end_to_end_through_litellm(store, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-t2w-test-secret")
    with ScriptedLLMServer(scripts(flaky_faults=0)) as server:
        result = _run(*_probe_args(store, server), "--json")
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        rates = {row["item"]: row["rate"] for row in data["per_domain"]}
        assert set(rates) == set(GOLD)
        assert rates["t2wc-memorised"] == 1.0
        assert rates["t2wc-chatty"] == 1.0
        assert rates["t2wc-flaky"] == 1.0
        assert rates["t2wc-fresh"] < 0.05
        assert 0.3 < rates["t2wc-partial"] < 0.8
        assert data["mean_rate"] == pytest.approx(sum(rates.values()) / len(rates))
        assert data["finished_items"] == data["planned_items"] == len(GOLD)
        assert data["new_items"] == len(GOLD) and not data["resumed"]
        # Most contaminated domains come with their matching spans.
        top = data["most_contaminated"][0]
        assert top["rate"] == 1.0 and top["spans"]
        assert top["spans"][0]["reference_text"].strip()

        # What the model was asked: the first 20 GPT-2 tokens of each gold domain.
        assert len(server.answered()) == len(GOLD)
        asked = {body["messages"][-1]["content"] for body in server.bodies}
        for name, text in GOLD.items():
            head = prompt_prefix(text)
            assert name in head
            assert any(prompt.endswith(head) for prompt in asked)
            # The prompt tokens are not counted: the continuation alone scores 1.0.

        run = Path(data["run_path"])
        assert run.parent == Path(os.environ["T2W_RUNS_DIR"])
        config = json.loads((run / "config.json").read_text())
        assert config["kind"] == "contamination" and config["api_base"] == server.url
        assert config["dataset_hash"] and config["prefix_tokens"] == 20
        log = read_jsonl(run / "log.jsonl")
        assert sorted(item["item"] for item in log) == sorted(GOLD)
        saved = json.loads((run / "summary.json").read_text())
        assert saved["mean_rate"] == data["mean_rate"]
        for stored in run.iterdir():  # the key is used, never written down
            assert b"sk-t2w-test-secret" not in stored.read_bytes(), stored
        histogram = run / "contamination_hist.png"
        assert histogram.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert Path(data["histogram_path"]) == histogram

        # The same command again resumes the run: no new request.
        again = _run(*_probe_args(store, server), "--json")
        assert again.exit_code == 0
        repeated = json.loads(again.stdout)
        assert repeated["resumed"] and repeated["new_items"] == 0
        assert repeated["run_path"] == data["run_path"]
        assert len(server.requests) == len(GOLD)

        # A new run with the same settings is answered from the response cache.
        cached = json.loads(_run(*_probe_args(store, server), "--run-id", "second",
                                 "--json").stdout)
        assert cached["cached_calls"] == len(GOLD) and cached["mean_rate"] == data["mean_rate"]
        assert len(server.requests) == len(GOLD)
        # --no-cache asks again.
        fresh = _run(*_probe_args(store, server), "--run-id", "third", "--no-cache",
                     "--limit", "2", "--json")
        assert fresh.exit_code == 0
        assert len(server.requests) == len(GOLD) + 2

        # Human-readable output: table, mean, histogram path and spans.
        table = _run(*_probe_args(store, server), "--top", "5", "--spans", "1")
        assert table.exit_code == 0
        assert "t2wc-memorised" in table.output and "mean contamination rate" in table.output
        assert "histogram:" in table.output and "gold" in table.output


def test_infrastructure_errors_are_kept_apart_and_retried_on_resume(store):
    # max-retries 1: two 500s exhaust the retries of the first run.
    with ScriptedLLMServer(scripts(flaky_faults=2)) as server:
        first = _run(*_probe_args(store, server), "--json")
        assert first.exit_code == 3  # ExitCode.INFRASTRUCTURE
        data = json.loads(first.stdout)
        assert data["infrastructure_error_items"] == ["t2wc-flaky"]
        assert data["finished_items"] == len(GOLD) - 1
        run = Path(data["run_path"])
        assert [e["item"] for e in read_jsonl(run / "errors.jsonl")] == ["t2wc-flaky"]
        assert "t2wc-flaky" not in {item["item"] for item in read_jsonl(run / "log.jsonl")}

        resumed = _run("--resume", str(run), "--json")
        assert resumed.exit_code == 0, resumed.output
        after = json.loads(resumed.stdout)
        assert after["resumed"] and after["new_items"] == 1
        assert after["finished_items"] == len(GOLD) and after["infrastructure_errors"] == 0
        assert {r["item"]: r["rate"] for r in after["per_domain"]}["t2wc-flaky"] == 1.0
        # Resuming recomputes the rates from the log, e.g. with another n.
        other_n = json.loads(_run("--resume", str(run), "--n", "5", "--json").stdout)
        assert other_n["n"] == 5 and other_n["new_items"] == 0


def test_requests_run_concurrently(store):
    with ScriptedLLMServer(scripts(flaky_faults=0)) as server:
        server.hold_after(0)  # hold every request until released
        options = ProbeOptions(model="openai/test-model", api_base=server.url,
                               dataset=str(store), max_concurrency=3, max_retries=0,
                               timeout=30)
        outcome: dict = {}
        worker = threading.Thread(target=lambda: outcome.update(result=probe(options)))
        worker.start()
        try:
            assert server.wait_until(lambda: len(server.requests) >= 3, timeout=30)
            assert len(server.requests) == 3  # never more than --max-concurrency in flight
        finally:
            server.release()
            worker.join(60)
        assert outcome["result"].summary["finished_items"] == len(GOLD)


def test_reference_oracle_and_bad_input(store):
    oracle = _run("--model", "reference/oracle", "--dataset", str(store), "--json")
    assert oracle.exit_code == 0, oracle.output
    assert json.loads(oracle.stdout)["mean_rate"] == 1.0
    unknown = _run("--model", "no-such-model-alias", "--dataset", str(store))
    assert unknown.exit_code == 1 and "unknown model" in unknown.output
    missing = _run("--resume", "/nonexistent/run")
    assert missing.exit_code == 1 and "no such run" in missing.output
    assert "no domain with id" in _run("--model", "reference/oracle", "--dataset", str(store),
                                       "--domains", "nope").output
    secret = _run("--model", "reference/oracle", "--model-arg", "api_key=abc")
    assert secret.exit_code == 1 and "looks like a secret" in secret.output


@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "term"])
def test_a_killed_or_terminated_probe_resumes_at_once(store, tmp_path, signum):
    env = {**os.environ, "OPENAI_API_KEY": "sk-dummy", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    with ScriptedLLMServer(scripts(flaky_faults=0)) as server:
        server.hold_after(2)
        command = [sys.executable, "-c", "from text2world.cli import app; app()",
                   "contamination", *_probe_args(store, server), "--run-id", "probe-killed"]
        with (tmp_path / "err.txt").open("w") as err:
            process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=err)
        try:
            assert server.held.wait(120), "the probe never reached the held request"
            children = descendants(process.pid) if HAS_PROC else {}
            process.send_signal(signum)  # the probe process only
            code = process.wait(60)
        finally:
            if process.poll() is None:
                process.kill()
        assert wait_for(lambda: not survivors(children), 10)
        stderr = (tmp_path / "err.txt").read_text()
        if signum == signal.SIGTERM:
            assert code == 143, stderr
            assert "stopped by SIGTERM" in stderr and "--resume" in stderr
            assert "never awaited" not in stderr and "Traceback" not in stderr
        run = Path(os.environ["T2W_RUNS_DIR"]) / "probe-killed"
        assert len(read_jsonl(run / "log.jsonl")) < len(GOLD)
        server.release()
        resumed = subprocess.run([*command[:3], "contamination", "--resume", str(run), "--json"],
                                 env=env, capture_output=True, text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert sorted(item["item"] for item in read_jsonl(run / "log.jsonl")) == sorted(GOLD)
    summary = json.loads(resumed.stdout)
    assert summary["finished_items"] == len(GOLD) and summary["complete"]


def test_prefix_tokens_is_the_hidden_old_name_of_prompt_tokens(store, tmp_path):
    def prefix_of(*flags: str) -> int:
        result = _run("--model", "reference/oracle", "--dataset", str(store), "--json",
                      "--runs-dir", str(tmp_path / "runs"), *flags)
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)["prefix_tokens"]

    assert prefix_of("--prefix-tokens", "12") == prefix_of("--prompt-tokens", "12") == 12
    assert prefix_of("--prompt-tokens", "12", "--prefix-tokens", "12") == 12
    clash = _run("--model", "reference/oracle", "--dataset", str(store), "--prompt-tokens", "12",
                 "--prefix-tokens", "13")
    assert clash.exit_code == 1 and "disagree" in clash.output
    assert "--prefix-tokens" not in _run("--help").output  # hidden: the help stays uncut
