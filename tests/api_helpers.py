"""Helpers shared by the in-process and the real-server API tests."""

from __future__ import annotations


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
