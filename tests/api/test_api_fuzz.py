"""Property test: no request, however malformed, gets a 500 or a non-JSON answer.

Bounded: a fixed number of examples per property and a deadline-free run of a few seconds.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from text2world.api.app import create_app
from text2world.api.settings import Settings

FUZZ = settings(max_examples=80, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

GOOD = ("(define (domain d) (:requirements :strips :typing) (:types box)\n"
        "  (:predicates (on ?x - box) (free))\n"
        "  (:action lift :parameters (?b - box) :precondition (and (on ?b) (free))\n"
        "     :effect (and (not (on ?b)) (not (free)))))")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    runs = tmp_path_factory.mktemp("runs")
    (runs / "r1").mkdir()
    (runs / "r1" / "summary.json").write_text("{}")
    app = create_app(Settings(runs_dir=runs, score_timeout=20, max_body=64 * 1024))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


def check(response) -> None:
    assert response.status_code < 500, (response.status_code, response.text[:500])
    body = response.json()  # every answer is JSON
    if response.status_code >= 400:
        assert set(body) == {"error"} and body["error"]["message"], body


# PDDL-like text: fragments of a real domain, cut, repeated and spliced with noise, so the
# parser and scorer see near misses, not only random characters.
pddl_text = st.one_of(
    st.text(max_size=300),
    st.builds(lambda a, b, noise: GOOD[a:b] + noise + GOOD[b:],
              st.integers(0, len(GOOD)), st.integers(0, len(GOOD)), st.text(max_size=20)),
    st.builds(lambda n: "(" * n + GOOD + ")" * (n // 2), st.integers(0, 400)),
    st.sampled_from([GOOD, GOOD.upper(), "", " ", "(define", "(define (domain))", "\x00",
                     f"```pddl\n{GOOD}\n```", f"<think>{GOOD}", "```\n```"]),
)
values = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True),
                   pddl_text, st.lists(st.integers(), max_size=3),
                   st.dictionaries(st.text(max_size=5), st.integers(), max_size=2))
score_keys = st.sampled_from(["gold_id", "gold_pddl", "pddl", "response", "mode", "dataset",
                              "exact_case", "extra"])
ids = st.one_of(st.sampled_from(["blocksworld", "gripper", "..", "../data", "/etc/passwd",
                                 "text2world", "official", "r1", "a" * 200, "%00", "."]),
                st.text(max_size=30))


@FUZZ
@given(body=st.dictionaries(score_keys, values, max_size=6))
def test_score_bodies_never_500(client, body):
    check(client.post("/v1/score", json=body))


@FUZZ
@given(gold_id=ids, predicted=pddl_text, mode=st.sampled_from(["paper", "canonical"]),
       as_response=st.booleans())
def test_well_formed_score_requests_never_500(client, gold_id, predicted, mode, as_response):
    body = {"gold_id": gold_id, "mode": mode, ("response" if as_response else "pddl"): predicted}
    check(client.post("/v1/score", json=body))
    check(client.post("/v1/score", json={**body, "gold_id": None, "gold_pddl": predicted}))


@FUZZ
@given(body=st.dictionaries(st.sampled_from(["pddl", "response", "exact_case", "x"]), values,
                            max_size=3))
def test_validate_bodies_never_500(client, body):
    check(client.post("/v1/validate", json=body))


@FUZZ
@given(raw=st.one_of(st.binary(max_size=400),
                     st.builds(lambda d, cut: json.dumps(d)[:cut].encode(),
                               st.dictionaries(score_keys, values, max_size=4), st.integers(0, 400))),
       content_type=st.sampled_from(["application/json", "text/plain", "", "application/x-www-form-urlencoded",
                                     "application/json; charset=latin-1", "multipart/form-data"]))
def test_raw_bodies_never_500(client, raw, content_type):
    headers = {"content-type": content_type} if content_type else {}
    for path in ("/v1/score", "/v1/validate"):
        check(client.post(path, content=raw, headers=headers))


@FUZZ
@given(identifier=ids, dataset=ids,
       query=st.dictionaries(st.sampled_from(["split", "offset", "limit", "dataset", "x"]),
                             st.text(max_size=12), max_size=4))
def test_get_endpoints_never_500(client, identifier, dataset, query):
    quoted = quote(identifier, safe="")
    check(client.get(f"/v1/domains/{quoted}", params={"dataset": dataset}))
    check(client.get(f"/v1/runs/{quoted}"))
    check(client.get("/v1/domains", params=query))
    check(client.get("/v1/runs", params={k: v for k, v in query.items() if k != "dataset"}))
