"""Runs interrupted by a kill or a full disk (issue 31, items 4 and 8), through the CLI process:
each request is recorded as sent before it goes out, so the summary counts the requests in
flight at a kill (``calls_sent_unanswered``); resuming still pays no answered call twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from llm_server import Script, ScriptedLLMServer, priced_home, write_store
from repo_paths import REPO

from text2world.engine.run_store import read_jsonl

NAMES = [f"t2wk-{i}" for i in range(8)]
TASKS = {
    "eval": ["eval", "--ec", "0", "--workers", "0", "--no-progress"],
    "wm": ["wm", "next-state", "--domains", "blocksworld", "--problems", "2"],
}


@pytest.fixture()
def setup(tmp_path):
    store = write_store(tmp_path / "store", NAMES)
    home = priced_home(tmp_path / "home", 2.0, 4.0)
    env = {**os.environ, "T2W_HOME": str(home), "T2W_RUNS_DIR": str(tmp_path / "runs"),
           "PYTHONPATH": str(REPO), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    return {"store": store, "env": env, "runs": tmp_path / "runs"}


def _command(task: str, setup: dict, url: str) -> list[str]:
    data = ["--dataset", str(setup["store"])] if task == "eval" else []
    return [sys.executable, "-m", "text2world.cli", *TASKS[task], *data, "--model", "priced-test",
            "--api-base", url, "--timeout", "30", "--retry-delay", "0.01", "--quiet", "-j", "4",
            "--run-id", "killed"]


@pytest.mark.slow
@pytest.mark.parametrize("task", list(TASKS))
def test_calls_in_flight_at_a_kill_are_counted_as_sent_unanswered(task: str, setup: dict) -> None:
    run = setup["runs"] / "killed"
    with ScriptedLLMServer({}, latency=0.05, default=Script(["I cannot tell."])) as server:
        server.hold_after(2)
        process = subprocess.Popen(_command(task, setup, server.url), env=setup["env"], cwd=REPO,
                                   stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            assert server.held.wait(180), "the run never reached the held request"
            assert server.wait_until(server.settled, 30)
            assert server.wait_until(lambda: len(read_jsonl(run / "paid.jsonl")) >= len(server.answered()), 30)
            in_flight = [r for r in server.requests if r.held]
            os.kill(process.pid, signal.SIGKILL)
            assert process.wait(60) == -signal.SIGKILL
        finally:
            if process.poll() is None:
                process.kill()
        sent = read_jsonl(run / "sent.jsonl")
        paid = read_jsonl(run / "paid.jsonl")
        # every request recorded before it went out (one may be recorded and killed before sending)
        assert len(sent) >= len(server.requests)
        assert {p["call"] for p in paid} <= {s["call"] for s in sent}
        unanswered_at_kill = len(sent) - len(paid)
        server.release()
        resumed = subprocess.run([sys.executable, "-m", "text2world.cli", *TASKS[task][:2 if task == "wm" else 1],
                                  "--resume", str(run), "--quiet", "--retry-delay", "0.01"],
                                 env=setup["env"], cwd=REPO, capture_output=True, text=True, timeout=300)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    summary = json.loads((run / "summary.json").read_text())
    assert summary["calls_sent_unanswered"] == unanswered_at_kill >= len(in_flight) > 0
    assert summary["calls_sent"] == len(read_jsonl(run / "sent.jsonl")) >= len(server.requests)
    assert summary["paid_calls"] == len(read_jsonl(run / "paid.jsonl"))


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs RLIMIT_FSIZE with SIGXFSZ ignored (Linux)")
def test_a_full_disk_is_one_error_line_and_resume_drops_a_torn_line(tmp_path: Path) -> None:
    """The kernel refuses writes past a file size limit (EFBIG) as a full disk does (ENOSPC):
    the run stops with one error naming the folder and the cause, its log without a partial line;
    a torn line (a crash mid-write) is dropped on resume with a note; the resumed run finishes."""
    import resource

    env = {**os.environ, "T2W_HOME": str(tmp_path / "home"), "T2W_RUNS_DIR": str(tmp_path / "runs"),
           "PYTHONPATH": str(REPO)}
    run = tmp_path / "runs" / "full"

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (25_000, 25_000))

    command = [sys.executable, "-m", "text2world.cli", "eval", "--model", "reference/oracle", "--limit", "6",
               "--ec", "0", "--workers", "0", "--run-id", "full", "--no-progress"]
    full = subprocess.run(command, preexec_fn=small_files, env=env, cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert full.returncode == 1, full.stdout + full.stderr
    flowing = " ".join(full.stderr.split())
    assert "Traceback" not in full.stderr and "cannot write the run folder" in flowing, full.stderr
    assert str(run) in flowing and "File too large" in flowing
    assert full.stderr.count("error:") == 1, full.stderr  # one error, wrapped at 80 columns
    logged = (run / "log.jsonl").read_bytes()
    assert logged.endswith(b"\n") and 0 < len(read_jsonl(run / "log.jsonl")) < 6

    with (run / "log.jsonl").open("ab") as log:  # what a crash mid-write leaves
        log.write(b'{"item": "torn')
    resumed = subprocess.run([sys.executable, "-m", "text2world.cli", "eval", "--resume", str(run),
                              "--no-progress"], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr
    assert "dropped an unfinished last line" in resumed.stderr.replace("\n", " ")
    items = [record["item"] for record in read_jsonl(run / "log.jsonl")]
    assert len(items) == len(set(items)) == 6
