"""Helpers shared by the in-process and the real-server API tests."""

from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


def huge_domain(actions: int = 440) -> str:
    """A valid domain among the slowest the input limits accept (text2world/bounds.py: about
    0.5 s of CPU to validate, 19,000 tokens): the way to exceed a short time limit."""
    predicates = "".join(f"(p{i} ?x - obj)" for i in range(50))
    body = "".join(
        f"(:action a{i} :parameters (?x - obj ?y - obj) :precondition (and (p{i % 50} ?x) "
        f"(not (q ?y))) :effect (and (q ?x) (not (p{i % 50} ?x))))\n" for i in range(actions))
    return ("(define (domain huge) (:requirements :strips :typing :negative-preconditions) "
            f"(:types obj) (:predicates {predicates} (q ?x - obj))\n{body})")


def assert_error(response, status: int, code: str | None = None) -> dict:
    """A structured error: only an ``error`` object with a message (and the code, if given)."""
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"}, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    if code is not None:
        assert body["error"]["code"] == code, body
    return body["error"]


def sleep_then_pid(seconds: float) -> int:
    """A scoring job (run in a scoring process): sleep, then say which process ran it."""
    import os
    import time

    time.sleep(seconds)
    return os.getpid()


def wait_ready(client, alive: int = 1, seconds: float = 60.0) -> dict:
    """Poll /readyz until at least ``alive`` scoring processes are up (a generous deadline: a
    fork takes milliseconds, the fork server's first start a few seconds)."""
    import time

    deadline = time.monotonic() + seconds
    while True:
        response = client.get("/readyz")
        if response.status_code == 200 and response.json()["alive"] >= alive:
            return response.json()
        assert time.monotonic() < deadline, f"not ready after {seconds} s: {response.text}"
        time.sleep(0.05)


@contextmanager
def scoring_client(runs_dir: Path, score_processes: int) -> Iterator:
    """An in-process client of the API (scoring in ``score_processes`` children, 60 s per job)
    whose server errors come back as responses, as over HTTP."""
    from fastapi.testclient import TestClient

    from text2world.api.app import create_app
    from text2world.api.settings import Settings

    app = create_app(Settings(runs_dir=runs_dir, score_timeout=60, score_processes=score_processes))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client
