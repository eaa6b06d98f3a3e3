"""Redaction by value (issue 46, item 3): every secret the process knows is masked wherever
we write text, whatever a provider echoes of it. Through the real entry points: ``t2w eval``
against a loopback OpenAI-compatible server whose 401 quotes the key it was sent (whole, and
as OpenAI shows it, ``sk-abc1****wxyz``), checked on stderr, stdout and every file of the run
and of ``T2W_HOME``; and the access log of a real ``t2w serve --token`` opened with
``?token=`` as the docs describe."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from llm_server import Script, ScriptedLLMServer, small_domain
from processes import free_port, stop_group
from repo_paths import REPO

from text2world.model.credentials import MASK, mask_secrets, redact_text


def _fragments(secret: str) -> list[str]:
    """What must not appear: the secret, any 8 of its characters in a row past its prefix,
    and its OpenAI-style short form."""
    return [secret, secret[8:16], secret[-12:], secret[:8] + "*"]


def _leaks(text: str, secret: str) -> list[str]:
    return [piece for piece in _fragments(secret) if piece in text]


def test_a_provider_echo_is_masked_whole_and_in_part() -> None:
    key = "sk-proj-" + secrets.token_hex(16)
    echoed = (f"Incorrect API key provided: {key}. Shown as {key[:8]}{'*' * 20}{key[-4:]}; "
              f"or {key[:14]}...")
    masked = mask_secrets(echoed, (key,))
    assert not _leaks(masked, key) and key[-4:] not in masked and key[8:14] not in masked
    assert masked.startswith("Incorrect API key provided: ***.")
    # prose and PDDL that share no run of 8 characters with a key are left alone
    text = "(define (domain sk-proj) (:predicates (on ?x ?y)))"
    assert mask_secrets(text, (key,)) == text


def test_known_secrets_come_from_secret_named_variables(monkeypatch) -> None:
    token = secrets.token_urlsafe(24)
    monkeypatch.setenv("SOME_SERVICE_TOKEN", token)
    monkeypatch.setenv("MAX_TOKENS_DEFAULT", "4096")  # not a secret's name, nor a secret
    assert redact_text(f"got {token} back") == f"got {MASK} back"
    assert redact_text("max 4096 tokens") == "max 4096 tokens"


@pytest.mark.parametrize("status", ["401", "500"])  # fatal (stderr), an item's error (the run)
def test_eval_against_a_provider_that_echoes_the_key_writes_it_nowhere(status: str,
                                                                      tmp_path: Path) -> None:
    key = "sk-proj-" + secrets.token_hex(20)
    other = "hf_" + secrets.token_hex(16)  # a secret the process knows but never sends
    runs, home = tmp_path / "runs", tmp_path / "home"
    server = ScriptedLLMServer({}, default=Script(answers=[small_domain("echo")],
                                                  faults=[f"{status}-echo"] * 20))
    with server:
        env = {**os.environ, "OPENAI_API_KEY": key, "HF_TOKEN": other, "T2W_HOME": str(home),
               "LITELLM_LOCAL_MODEL_COST_MAP": "True", "COLUMNS": "200"}
        result = subprocess.run(
            [sys.executable, "-m", "text2world.cli", "eval", "-m", "openai/echo-model",
             "--api-base", server.url, "--limit", "2", "--runs-dir", str(runs), "--run-id", "r",
             "--max-retries", "0", "--no-progress"],
            capture_output=True, text=True, timeout=300, env=env, cwd=tmp_path)
        sent = [r.headers.get("authorization", "") for r in server.requests]
    assert sent and all(key in header for header in sent)  # the key did reach the provider
    output = result.stdout + result.stderr
    assert "Traceback" not in output, output
    assert "Incorrect API key provided" in output, output  # the echo itself was reported
    assert not _leaks(output, key), output
    written = [path for root in (runs, home) if root.exists() for path in root.rglob("*")
               if path.is_file()]
    if status == "500":  # the echo is in the run's files too, masked
        assert any("Incorrect API key" in path.read_text(errors="replace") for path in written)
    for path in written:
        text = path.read_text(encoding="utf-8", errors="replace")
        assert not _leaks(text, key) and other not in text, path


def test_serve_access_log_never_holds_the_token(tmp_path: Path) -> None:
    token = secrets.token_urlsafe(24)
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "text2world.cli", "serve", "--executor", "thread",
         "--score-processes", "1", "--port", str(port), "--token", token, "--log-level", "info"],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO), "T2W_HOME": str(tmp_path)},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    text = ""
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            assert process.poll() is None, stop_group(process)
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < deadline, "t2w serve did not start within 120 s"
            time.sleep(0.2)
        with httpx.Client(base_url=url, timeout=30) as browser:
            assert browser.get(f"/v1/domains?limit=1&token={token}").status_code == 200
            assert browser.get(f"/v1/domains?token={token}x").status_code in (200, 401)
            assert browser.get("/v1/domains", headers={
                "Authorization": f"Bearer {token}"}).status_code == 200
    finally:
        text = stop_group(process)  # everything it wrote, the access log included
    assert "/v1/domains?limit=1&token=" in text, text  # the request lines are logged
    assert token not in text and token[:12] not in text, text
