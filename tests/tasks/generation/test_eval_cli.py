"""The ``t2w eval`` command line: reference models offline, bad input, kill and resume."""

from __future__ import annotations

import os

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # before litellm is imported

import csv
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from llm_server import (
    Script,
    ScriptedLLMServer,
    broken_parenthesis,
    forbid_network,
    pddl_answer,
    priced_home,
    small_domain,
    undefined_predicate,
    write_store,
)
from processes import HAS_PROC, descendants, survivors, wait_for
from repo_paths import REPO
from typer.testing import CliRunner

from text2world.cli import app
from text2world.engine.run_store import read_jsonl

runner = CliRunner()


def output_of(result) -> str:
    text = result.output or ""
    try:
        text += result.stderr or ""
    except ValueError:  # older click: stderr mixed into output
        pass
    return text


@pytest.fixture()
def no_network(monkeypatch):
    return forbid_network(monkeypatch)


def test_reference_model_runs_offline_end_to_end_and_reports(no_network, tmp_path):
    result = runner.invoke(app, ["eval", "--model", "reference/noisy-oracle", "--ec", "3",
                                 "--limit", "8", "--no-progress", "--workers", "0"])
    assert result.exit_code == 0, output_of(result)
    assert "REFERENCE MODEL" in output_of(result)
    runs = list(Path(os.environ["T2W_RUNS_DIR"]).iterdir())
    assert len(runs) == 1
    run = runs[0]
    for name in ("config.json", "log.jsonl", "summary.json"):
        assert (run / name).is_file()
    summary = json.loads((run / "summary.json").read_text())
    assert summary["finished_items"] == 8
    paper = summary["metrics"]["paper"]
    assert paper[0]["executable"] < paper[3]["executable"]  # corrections repair the domains
    assert json.loads((run / "config.json").read_text())["reference_model"] is True

    report = runner.invoke(app, ["report", str(run)])
    assert report.exit_code == 0, output_of(report)
    assert "Table 1" in report.output and "(reference)" in report.output
    with (run / "report" / "paper" / "table1.csv").open() as stream:
        row = list(csv.DictReader(stream))[0]
    assert float(row["executable_ec0"]) == pytest.approx(paper[0]["executable"])
    assert float(row["f1_effects_eck"]) == pytest.approx(paper[3]["f1_effects"])
    assert (run / "report" / "paper" / "per_round.png").stat().st_size > 1000
    assert no_network == []

    again = runner.invoke(app, ["eval", "--model", "reference/noisy-oracle", "--ec", "3",
                                "--limit", "8", "--no-progress", "--workers", "0"])
    assert again.exit_code == 0 and "8 of 8 items already done" in output_of(again)
    resumed = runner.invoke(app, ["eval", "--resume", str(run), "--no-progress"])
    assert resumed.exit_code == 0 and "8 of 8 items already done" in output_of(resumed)
    assert len(read_jsonl(run / "log.jsonl")) == 8
    rescored = runner.invoke(app, ["score-run", str(run), "--mode", "canonical"])
    assert rescored.exit_code == 0, output_of(rescored)
    assert (run / "scores.jsonl").is_file()


@pytest.mark.parametrize("arguments, message", [
    (["--model", "no-such-alias"], "unknown model 'no-such-alias'"),
    (["--model", "reference/nonsense"], "unknown reference model"),
    (["--model", "reference/oracle", "--domains", "gripper,no-such-domain"],
     "'no-such-domain'"),
    (["--model", "reference/oracle", "--prompt", "/nonexistent/template.txt"],
     "no such file"),
    (["--model", "reference/oracle", "--description", "vague"], "abstract, concrete, problems"),
    (["--model", "reference/oracle", "--dataset", "no-such-dataset"], "unknown dataset"),
    (["--model", "reference/oracle", "--model-arg", "oops"], "KEY=VALUE"),
    (["--resume", "/nonexistent/run"], "no such run directory"),
    (["--model", "deepseek-r1"], "DEEPSEEK_API_KEY"),
    (["--model", "reference/oracle", "--prompt", "few-shot", "--domains", "blocksworld,gripper"],
     "pass --allow-exemplar-items"),
])
def test_bad_input_is_a_clear_error(arguments, message, monkeypatch):
    monkeypatch.delenv("DEEPSEEK_API_KEY", raising=False)
    result = runner.invoke(app, ["eval", *arguments, "--no-progress"])
    text = output_of(result)
    assert result.exit_code == 1, text
    assert message in text
    assert "Traceback" not in text
    assert not Path(os.environ["T2W_RUNS_DIR"]).exists()  # nothing started


def test_unreadable_templates(tmp_path):
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00 not text")
    no_placeholder = tmp_path / "plain.txt"
    no_placeholder.write_text("Write a domain.")
    for path, message in ((binary, "not UTF-8"), (no_placeholder, "{description}"),
                          (tmp_path, "is a folder")):
        result = runner.invoke(app, ["eval", "--model", "reference/oracle", "--prompt",
                                     str(path), "--no-progress"])
        assert result.exit_code == 1 and message in " ".join(output_of(result).split()), output_of(result)
        assert "Traceback" not in output_of(result)
    result = runner.invoke(app, ["eval", "--model", "reference/oracle", "--correction-prompt",
                                 str(no_placeholder), "--no-progress"])
    assert result.exit_code == 1 and "{domain}" in output_of(result)


def test_progress_bar_and_model_list(monkeypatch):
    from io import StringIO

    from rich.console import Console

    import text2world.cli.evaluate as evaluate_cli

    screen = StringIO()
    import text2world.cli.runs as runs_cli

    terminal = Console(file=screen, force_terminal=True, width=200)
    monkeypatch.setattr(evaluate_cli, "console", terminal)
    monkeypatch.setattr(runs_cli, "console", terminal)
    result = runner.invoke(app, ["eval", "--model", "reference/oracle", "--ec", "1",
                                 "--limit", "2", "--workers", "0"])
    assert result.exit_code == 0, output_of(result)
    shown = screen.getvalue()
    assert "2/2" in shown and "calls" in shown and "tokens" in shown and "ETA" in shown
    listing = runner.invoke(app, ["eval", "--list-models"])
    assert listing.exit_code == 0
    assert "deepseek-r1" in screen.getvalue() and "REFERENCE MODEL" in screen.getvalue()


def test_user_models_file_extends_aliases(tmp_path):
    home = Path(os.environ["T2W_HOME"])
    home.mkdir(parents=True, exist_ok=True)
    (home / "models.toml").write_text('[models.my-local]\nmodel = "openai/my-model"\n'
                                      'api_base = "http://127.0.0.1:9/v1"\napi_key_env = ""\n')
    from text2world.model.client import resolve_model

    spec = resolve_model("my-local")
    assert spec.litellm_model == "openai/my-model" and spec.api_base == "http://127.0.0.1:9/v1"
    (home / "models.toml").write_text("[models.broken\n")
    result = runner.invoke(app, ["eval", "--model", "my-local", "--no-progress"])
    assert result.exit_code == 1 and "not valid TOML" in output_of(result)


def test_rejected_key_stops_the_run_with_a_clear_error(tmp_path, monkeypatch):
    store = write_store(tmp_path / "store", ["t2wa-one", "t2wa-two"])
    monkeypatch.setenv("OPENAI_API_KEY", "sk-wrong")
    with ScriptedLLMServer({"t2wa-one": Script([pddl_answer(small_domain("t2wa-one"))],
                                               faults=["401"] * 10),
                            "t2wa-two": Script([pddl_answer(small_domain("t2wa-two"))],
                                               faults=["401"] * 10)}) as server:
        result = runner.invoke(app, ["eval", "--model", "openai/test-model", "--api-base",
                                     server.url, "--dataset", str(store), "--no-progress",
                                     "--workers", "0", "--max-concurrency", "1"])
        statuses = [r.status for r in server.requests]
    text = output_of(result)
    assert result.exit_code == 3, text  # ExitCode.INFRASTRUCTURE: the provider refused
    assert "authentication" in text and "--resume" in text and "Traceback" not in text
    assert statuses == [401]  # not retried, and no further item was tried
    assert "sk-wrong" not in "".join(p.read_text() for p in
                                     Path(os.environ["T2W_RUNS_DIR"]).rglob("*.json*"))


def test_report_and_cache_commands_errors(tmp_path):
    result = runner.invoke(app, ["report", str(tmp_path / "missing")])
    assert result.exit_code == 1 and "no such run directory" in " ".join(output_of(result).split())
    empty = runner.invoke(app, ["cache", "inspect", "--json"])
    assert empty.exit_code == 0 and json.loads(empty.output)["entries"] == 0


# --------------------------------------------------------------------------------------------
# Kill and resume


KILL_NAMES = [f"t2wk-{i}" for i in range(8)]


def kill_scripts() -> dict[str, Script]:
    scripts = {}
    for index, name in enumerate(KILL_NAMES):
        gold = small_domain(name)
        broken = [pddl_answer(broken_parenthesis(gold)), pddl_answer(undefined_predicate(gold))]
        scripts[name] = Script(broken[: index % 3] + [pddl_answer(gold)])
    return scripts


PRICE_IN, PRICE_OUT = 2.0, 4.0  # USD per million tokens of the priced test alias


def call_cost(request) -> float:
    return (request.prompt_tokens * PRICE_IN + request.completion_tokens * PRICE_OUT) / 1e6


@pytest.mark.slow
def test_kill_mid_run_then_resume_logs_each_item_once_and_repays_nothing(tmp_path):
    store = write_store(tmp_path / "store", KILL_NAMES)
    home = priced_home(tmp_path / "home", PRICE_IN, PRICE_OUT)
    env = {**os.environ, "T2W_HOME": str(home), "T2W_RUNS_DIR": str(tmp_path / "runs"),
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    with ScriptedLLMServer(kill_scripts(), latency=0.05) as server:
        command = [sys.executable, "-c", "from text2world.cli import app; app()", "eval",
                   "--model", "priced-test", "--api-base", server.url,
                   "--dataset", str(store), "--ec", "3", "--max-concurrency", "3",
                   "--no-progress", "--workers", "0", "--timeout", "30",
                   "--retry-delay", "0.01", "--run-id", "killed"]
        # The third item (three rounds) is held at its second round: killed, it is the one item
        # in flight, with a round answered before the kill, whatever the scheduling.
        server.hold_at(KILL_NAMES[2], 1)
        log = tmp_path / "runs" / "killed" / "log.jsonl"
        process = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT)
        try:
            assert server.held.wait(120), "the run never reached the held request"
            assert server.wait_until(
                lambda: log.exists() and len(read_jsonl(log)) == len(KILL_NAMES) - 1, 120), \
                "the other items never finished"
            assert server.wait_until(server.settled, 30)
            answered = len(server.answered())
            # Kill only once every answered call is in the cache (written right on receipt).
            assert server.wait_until(
                lambda: len(list((home / "cache").glob("??/*.json"))) >= answered, 30)
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait(30)
        killed_at = time.time()
        answered_hashes = {r.body_hash for r in server.answered()}
        held_hashes = {r.body_hash for r in server.requests if not r.answered}
        seen_before = len(server.requests)
        logged_before = len(read_jsonl(log))
        assert logged_before < len(KILL_NAMES)  # killed mid-run
        server.release()

        resumed = subprocess.run(command, env=env, cwd=REPO, capture_output=True, text=True,
                                 timeout=300)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        assert "already done" in resumed.stdout

    items = [record["item"] for record in read_jsonl(log)]
    assert sorted(items) == sorted(KILL_NAMES) and len(items) == len(set(items))
    later = server.requests[seen_before:]
    assert not [r for r in later if r.body_hash in answered_hashes]  # nothing paid twice
    assert {r.body_hash for r in later} & held_hashes  # the unanswered call was sent again
    # The held item is the one finished by the resumed run: its first round, answered before
    # the kill, came from the cache (found by name: the log's order is the order items finish).
    held_record = next(record for record in read_jsonl(log) if record["item"] == KILL_NAMES[2])
    shown = [(r["round"], r["cached"], r["attempts"]) for r in held_record["rounds"]]
    assert held_record["rounds"][0]["cached"], (shown, logged_before, resumed.stdout)
    assert not held_record["rounds"][-1]["cached"], shown  # the held round was paid on resume
    summary = json.loads((tmp_path / "runs" / "killed" / "summary.json").read_text())
    assert summary["finished_items"] == len(KILL_NAMES)
    # cost_paid: every answer the client received, in either attempt, exactly once (the held
    # request was answered to a dead client after the kill: nobody received it).
    received = [r for r in server.requests
                if r.answered and (r.done_at < killed_at or r.at > killed_at)]
    assert summary["paid_calls"] == len(received)
    assert summary["cost_paid"] == pytest.approx(sum(call_cost(r) for r in received))
    logged_paid = sum(r["cost"] for record in read_jsonl(log) for r in record["rounds"]
                      if not r["cached"])
    assert summary["cost_paid"] > logged_paid  # the killed attempt's calls count
    assert summary["cost"] == pytest.approx(sum(r["cost"] for record in read_jsonl(log)
                                                for r in record["rounds"]))


# --------------------------------------------------------------------------------------------
# Killed by a signal: no process outlives the run, and it resumes at once


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc to find the process tree")
@pytest.mark.slow
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "term"])
def test_signal_to_the_eval_process_alone_leaves_no_process_and_resume_works(tmp_path, signum):
    store = write_store(tmp_path / "store", KILL_NAMES)
    env = {**os.environ, "T2W_HOME": str(tmp_path / "home"),
           "T2W_RUNS_DIR": str(tmp_path / "runs"), "OPENAI_API_KEY": "sk-dummy-test-key",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    run = tmp_path / "runs" / "signalled"
    with ScriptedLLMServer(kill_scripts(), latency=0.05) as server:
        command = [sys.executable, "-c", "from text2world.cli import app; app()", "eval",
                   "--model", "openai/test-model", "--api-base", server.url,
                   "--dataset", str(store), "--ec", "3", "--max-concurrency", "3",
                   "--no-progress", "--workers", "2", "--timeout", "30",
                   "--retry-delay", "0.01", "--run-id", "signalled"]
        server.hold_after(5)
        # Files, not pipes: a surviving child holding a pipe would hang this test instead of
        # failing it.
        with (tmp_path / "out.txt").open("w") as out, (tmp_path / "err.txt").open("w") as err:
            process = subprocess.Popen(command, env=env, cwd=REPO, stdout=out, stderr=err)
        try:
            assert server.held.wait(120), "the run never reached the held request"
            assert wait_for(lambda: len(descendants(process.pid)) >= 2, 60), \
                "the scoring pool never started"
            children = descendants(process.pid)
            process.send_signal(signum)  # the eval process only, never its group
            code = process.wait(60)
        finally:
            if process.poll() is None:
                process.kill()
        assert wait_for(lambda: not survivors(children), 10), \
            f"processes of the run outlived it: {survivors(children)}"
        stderr = (tmp_path / "err.txt").read_text()
        if signum == signal.SIGTERM:
            assert code == 143, stderr
            # one message (wrapped at 80 columns, the run path on a line of its own)
            flat = " ".join(stderr.split())
            assert flat.startswith("stopped by SIGTERM") and flat.count("stopped by") == 1, stderr
            assert f"Resume with: t2w eval --resume {run}" in flat, stderr
            assert "never awaited" not in stderr and "Traceback" not in stderr
        else:
            assert code == -signal.SIGKILL
        logged_before = len(read_jsonl(run / "log.jsonl"))
        assert logged_before < len(KILL_NAMES)
        server.release()

        resumed = subprocess.run([*command[:3], "eval", "--resume", str(run), "--no-progress",
                                  "--retry-delay", "0.01"], env=env, cwd=REPO,
                                 capture_output=True, text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        assert "being written" not in resumed.stderr
    items = [record["item"] for record in read_jsonl(run / "log.jsonl")]
    assert sorted(items) == sorted(KILL_NAMES)  # every item exactly once


def test_report_warns_first_prints_strata_as_tables_and_score_run_semantic_once(no_network):
    for limit, extra in (("2", []), ("1", ["--no-semantic", "--seed", "1"])):
        result = runner.invoke(app, ["eval", "--model", "reference/oracle", "--ec", "1",
                                     "--limit", limit, "--no-progress", "--workers", "0",
                                     *extra])
        assert result.exit_code == 0, output_of(result)
    runs = sorted(Path(os.environ["T2W_RUNS_DIR"]).iterdir(), key=lambda p: p.stat().st_mtime)
    report = runner.invoke(app, ["report", *map(str, runs)], terminal_width=120)
    text = report.output  # stdout and stderr as interleaved on a terminal
    assert report.exit_code == 0, text
    # The warning that every table covers only the common items comes before the tables.
    assert text.index("warning: the runs cover different items") < text.index("Table 1")
    by_size = runner.invoke(app, ["report", *map(str, runs), "--by", "size"], terminal_width=120)
    assert by_size.exit_code == 0, output_of(by_size)
    assert "Scores per size stratum" in by_size.output and "|---|" not in by_size.output
    assert "|---|" in runner.invoke(app, ["report", str(runs[0]), "--by", "size",
                                          "--markdown"]).output
    rescored = runner.invoke(app, ["score-run", str(runs[0])], terminal_width=120)
    assert rescored.exit_code == 0, output_of(rescored)
    assert rescored.output.count("Semantic scores") == 1
    assert "simulated only" in rescored.output
