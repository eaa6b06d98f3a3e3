"""``t2w eval`` scoring a hostile answer (issue 46): a model that answers with a costly
quantified domain; SIGTERM stops the run within seconds whatever is being scored, no process
of it survives, and its memory stays bounded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from hostile_answers import GOLD, UNDER_THE_CAP, hostile_answer
from llm_server import Script, ScriptedLLMServer
from processes import HAS_PROC, descendants, survivors, wait_for
from repo_paths import REPO

GIB = 1024 ** 3


def _cpu(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _peak_memory(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    return int(line.split()[1]) * 1024


@pytest.mark.skipif(not HAS_PROC, reason="needs Linux /proc to watch the process tree")
def test_sigterm_stops_eval_scoring_a_hostile_answer_within_seconds(tmp_path):
    env = {**os.environ, "T2W_HOME": str(tmp_path / "home"),
           "T2W_RUNS_DIR": str(tmp_path / "runs"), "OPENAI_API_KEY": "sk-dummy-test-key",
           "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    # the answer's scoring costs many CPU seconds (grounded on the first problem): SIGTERM
    # comes while it runs, in the eval process itself (one item: no scoring pool)
    with ScriptedLLMServer({}, default=Script([hostile_answer(UNDER_THE_CAP)])) as server:
        command = [sys.executable, "-m", "text2world.cli", "eval", "--model",
                   "openai/test-model", "--api-base", server.url, "--split", "train",
                   "--domains", GOLD, "--ec", "1", "--no-progress", "--timeout", "30",
                   "--run-id", "hostile"]
        with (tmp_path / "out.txt").open("w") as out, (tmp_path / "err.txt").open("w") as err:
            process = subprocess.Popen(command, env=env, cwd=REPO, stdout=out, stderr=err)
        try:
            assert server.wait_until(lambda: any(r.answered for r in server.requests), 120), \
                "the model was never asked"
            answered = _cpu(process.pid)
            # scoring under way: two CPU seconds past the answer
            assert wait_for(lambda: _cpu(process.pid) > answered + 2.0, 120), \
                "the run never scored the answer"
            assert process.poll() is None, "the answer was scored before the signal"
            children = descendants(process.pid)
            assert _peak_memory(process.pid) < 2 * GIB
            process.send_signal(signal.SIGTERM)
            signalled = time.monotonic()
            code = process.wait(60)
            took = time.monotonic() - signalled
        finally:
            if process.poll() is None:
                process.kill()
                process.wait(30)
    stderr = (tmp_path / "err.txt").read_text()
    assert code == 143, stderr
    assert "stopped by SIGTERM" in stderr and "Traceback" not in stderr, stderr
    # the promise is STOP_GRACE (3 s); loose, for a loaded machine: the scoring left alone
    # would take tens of CPU seconds more
    assert took < 10, (took, stderr)
    assert wait_for(lambda: not survivors(children), 10), \
        f"processes of the run outlived it: {survivors(children)}"
