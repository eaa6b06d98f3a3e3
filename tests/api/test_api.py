"""REST API in process (FastAPI TestClient): numbers equal the library's, every error case is a
structured JSON error with the right status, no request reaches files outside data and runs."""

from __future__ import annotations

import asyncio
import json
import os
import threading
import time
from pathlib import Path

import pytest
from api_helpers import assert_error, huge_domain, sleep_then_pid, wait_ready
from fastapi.testclient import TestClient
from processes import alive
from repo_paths import OFFICIAL_DIR

from text2world import load_dataset, score, validate
from text2world.api.app import create_app
from text2world.api.settings import Settings, SettingsError
from text2world.errors import ScoringTimeout
from text2world.pddl.perturb import drop_action, rename_variables
from text2world.service.executor import ScoringExecutor
from text2world.service.jobs import gold_cache_info, score_job
from text2world.store.datasets import import_dataset

SCORE_KEYS = ("mode", "executable", "similarity", "f1_predicates", "f1_parameters",
              "f1_preconditions", "f1_effects", "errors")


def assert_same_score(api: dict, library: dict) -> None:
    for key in SCORE_KEYS:
        assert api[key] == library[key], (key, api[key], library[key])
    if library["mode"] == "canonical":
        assert api["f1_types"] == library["f1_types"]


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("runs")
    finished = root / "2026-01-01-gpt-4o"
    finished.mkdir()
    (finished / "config.json").write_text(json.dumps(
        {"model": "gpt-4o", "dataset": {"name": "text2world", "content_hash": "abc"},
         "api_key": "sk-should-never-be-here", "settings": {"ec": 3}}))
    (finished / "summary.json").write_text(json.dumps({"items": 2, "rounds": {"0": {"exec": 0.5}}}))
    (finished / "log.jsonl").write_text('{"id": "a"}\n{"id": "b"}\n')
    running = root / "running"
    running.mkdir()
    (running / "config.json").write_text(json.dumps({"model": "deepseek-r1"}))
    damaged = root / "damaged"
    damaged.mkdir()
    (damaged / "config.json").write_text("{not json")
    (damaged / "summary.json").write_text('{"items": 1')
    summary_only = root / "summary-only"
    summary_only.mkdir()
    (summary_only / "summary.json").write_text("[1, 2]")
    odd_numbers = root / "nan-summary"
    odd_numbers.mkdir()
    (odd_numbers / "summary.json").write_text('{"exec": NaN, "sim": Infinity, "f1": 1e999, "ok": 0.5}')
    looping = root / "looping"
    looping.mkdir()
    (looping / "config.json").symlink_to(looping / "config.json")
    (looping / "summary.json").write_text("{}")
    (root / "loop").symlink_to(root / "loop")
    (root / "empty-folder").mkdir()
    (root / "stray-file.txt").write_text("not a run")
    outside = tmp_path_factory.mktemp("outside")
    (outside / "config.json").write_text(json.dumps({"model": "secret-outside"}))
    (root / "escape").symlink_to(outside, target_is_directory=True)
    return root


@pytest.fixture(scope="module")
def client(runs_dir):
    app = create_app(Settings(runs_dir=runs_dir, score_timeout=60, score_processes=1))
    with TestClient(app, raise_server_exceptions=False) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def store():
    dataset = load_dataset()
    assert len(dataset) >= 2, "the built-in store should hold at least blocksworld and gripper"
    return dataset


# -------------------------------------------------------------------------------- scoring


def test_released_gold_domains_score_like_the_library(client, official_test):
    records = official_test[::25]  # a spread of the released domains, a few seconds of work
    for index, record in enumerate(records):
        gold = record["pddl_domain"]
        variants = [gold, drop_action(gold, seed=index), rename_variables(gold, seed=index),
                    records[(index + 1) % len(records)]["pddl_domain"]]
        for mode in ("paper", "canonical"):
            predicted = variants[(index + (mode == "canonical")) % len(variants)]
            response = client.post("/v1/score", json={"gold_pddl": gold, "pddl": predicted,
                                                       "mode": mode})
            assert response.status_code == 200, response.text
            body = response.json()
            assert_same_score(body, score(gold, predicted, mode=mode).to_dict())
            assert body["validation"] == {**validate(predicted).to_dict(), "extracted": False}
            assert body["gold"] is None


def test_score_by_store_id_and_from_a_raw_answer(client, store):
    record = store.records[0]
    predicted = drop_action(record.domain, seed=1)
    answer = f"<think>first (define (domain nope)) ideas</think>\nHere it is:\n```pddl\n{predicted}\n```"
    response = client.post("/v1/score", json={"gold_id": record.id, "response": answer,
                                               "mode": "canonical"})
    assert response.status_code == 200, response.text
    body = response.json()
    assert_same_score(body, score(record.domain, predicted.strip(), mode="canonical").to_dict())
    assert body["gold"] == {"dataset": "text2world", "id": record.id}
    assert body["validation"]["extracted"] is True


@pytest.mark.parametrize("mode", ["paper", "canonical"])
def test_score_errors_and_validation_errors_agree(client, store, mode):
    """An answer whose stray ')' dropped two actions: the error is in the score's errors and,
    the same, in its validation block (a warning of /v1/validate only)."""
    gold = store.get("blocksworld").domain
    answer = "Here it is:\n```pddl\n" + gold.replace("(:action stack", ")\n(:action stack", 1) + "\n```"
    body = client.post("/v1/score", json={"gold_id": "blocksworld", "response": answer,
                                          "mode": mode}).json()
    assert [e["kind"] for e in body["errors"]] == ["DroppedDefinitions"]
    assert body["validation"]["errors"] == body["errors"] and body["validation"]["ok"] is False
    assert not any(w["kind"] == "DroppedDefinitions" for w in body["validation"]["warnings"])
    broken = gold.replace("(and (clear ?b)", "(and (clearer ?b)", 1)
    body = client.post("/v1/score", json={"gold_id": "blocksworld", "pddl": broken,
                                          "mode": mode}).json()
    assert body["errors"] and body["validation"]["errors"] == body["errors"]


def test_a_domain_past_the_size_limit_says_where(client):
    text = "(define (domain d)\n  (:predicates (p))\n" + " " * 128_000 + ")"
    for path, request in (("/v1/validate", {"pddl": text}),
                          ("/v1/score", {"gold_id": "blocksworld", "pddl": text})):
        error = client.post(path, json=request).json()["errors"][0]
        assert error["kind"] == "LimitExceeded" and "MAX_DOMAIN_CHARS" in error["message"]
        before = len("(define (domain d)\n  (:predicates (p))\n")
        assert (error["line"], error["column"]) == (3, 128_000 - before + 1)  # the first past it


def test_score_against_an_imported_dataset(client, official_test):
    path = OFFICIAL_DIR / "test.json"
    import_dataset(path, "official")
    record = official_test[3]
    predicted = official_test[4]["pddl_domain"]
    response = client.post("/v1/score", json={"gold_id": str(record["id"]), "dataset": "official",
                                               "pddl": predicted})
    assert response.status_code == 200, response.text
    assert_same_score(response.json(), score(record["pddl_domain"], predicted).to_dict())
    listed = client.get("/v1/datasets").json()["datasets"]
    assert {"official", "text2world"} <= {d["name"] for d in listed}
    official = next(d for d in listed if d["name"] == "official")
    assert official["domains"] == len(official_test) and official["kind"] == "imported"
    page = client.get("/v1/domains", params={"dataset": "official", "limit": 7, "offset": 7}).json()
    assert page["total"] == len(official_test) and len(page["items"]) == 7
    assert page["items"][0]["id"] == str(official_test[7]["id"])


def test_validate_reports_errors_with_lines_and_warnings(client):
    good = ("(define (domain d) (:predicates (p ?x))\n"
            "(:action a :parameters (?x) :precondition (p ?x) :effect (not (p ?x))))")
    bad = ("(define (domain d) (:predicates (p ?x))\n"
           "(:action a :parameters (?x)\n :precondition (q ?x) :effect (not (p ?x))))")
    for text in (good, bad, "", "(define", huge_domain(3)):
        response = client.post("/v1/validate", json={"pddl": text})
        assert response.status_code == 200, response.text
        assert response.json() == {**validate(text).to_dict(), "extracted": False}
    errors = client.post("/v1/validate", json={"pddl": bad}).json()["errors"]
    assert errors and errors[0]["category"] and errors[0]["line"] == 3
    exact = client.post("/v1/validate", json={"pddl": good.upper(), "exact_case": True}).json()
    assert exact == {**validate(good.upper(), fold_case=False).to_dict(), "extracted": False}
    extracted = client.post("/v1/validate", json={"response": f"```\n{good}\n```"}).json()
    assert extracted["ok"] and extracted["extracted"]


# -------------------------------------------------------------------------------- store


def test_domains_are_paged_and_filtered_by_split(client, store):
    everything = client.get("/v1/domains", params={"limit": 500}).json()
    assert everything["total"] == len(store) == len(everything["items"])
    assert [item["id"] for item in everything["items"]] == [r.id for r in store]
    first = client.get("/v1/domains", params={"limit": 2}).json()
    second = client.get("/v1/domains", params={"limit": 2, "offset": first["next_offset"]}).json()
    assert [i["id"] for i in first["items"] + second["items"]] == [r.id for r in store.records[:4]]
    for split in ("train", "test"):
        page = client.get("/v1/domains", params={"split": split, "limit": 500}).json()
        assert page["split"] == split
        assert [i["id"] for i in page["items"]] == [r.id for r in store.split(split)]
        assert all(item["split"] == split for item in page["items"])
    last = client.get("/v1/domains", params={"offset": len(store) - 1}).json()
    assert len(last["items"]) == 1 and last["next_offset"] is None


def test_one_domain_has_gold_descriptions_and_problems(client, store):
    record = store.records[0]
    body = client.get(f"/v1/domains/{record.id}").json()
    assert body["domain"] == record.domain and body["split"] == record.split
    assert body["abstract"] == record.abstract and body["concrete"] == record.concrete
    assert body["problems"] == [{"name": p.name, "pddl": p.pddl} for p in record.problems]


def test_healthz_and_openapi(client, store):
    health = client.get("/healthz").json()
    assert health["status"] == "ok" and health["domains"] == len(store)
    spec = client.get("/openapi.json").json()
    for path in ("/v1/score", "/v1/validate", "/v1/domains", "/v1/domains/{domain_id}",
                 "/v1/datasets", "/v1/runs", "/v1/runs/{run_id}", "/healthz"):
        assert path in spec["paths"], path
    assert "ScoreRequest" in spec["components"]["schemas"]
    docs = client.get("/docs")
    assert docs.status_code == 200 and "swagger" in docs.text.lower()


# -------------------------------------------------------------------------------- runs


def test_runs_are_listed_with_partial_files_tolerated(client):
    page = client.get("/v1/runs").json()
    runs = {item["id"]: item for item in page["items"]}
    # Folders without run files, stray files and a link out of the runs dir are not runs.
    assert set(runs) == {"2026-01-01-gpt-4o", "damaged", "running", "summary-only",
                         "nan-summary", "looping"}
    done = runs["2026-01-01-gpt-4o"]
    assert done["finished"] and done["model"] == "gpt-4o" and done["dataset"] == "text2world"
    assert done["summary"] == {"items": 2, "rounds": {"0": {"exec": 0.5}}} and not done["problems"]
    assert not runs["running"]["finished"] and runs["running"]["problems"] == ["summary.json is missing"]
    assert not runs["damaged"]["finished"]
    assert len(runs["damaged"]["problems"]) == 2
    assert all("not valid JSON" in p for p in runs["damaged"]["problems"])
    assert runs["summary-only"]["summary"] == [1, 2]
    # NaN and Infinity, which Python writes into JSON, come back as null instead of a 500.
    assert runs["nan-summary"]["summary"] == {"exec": None, "sim": None, "f1": None, "ok": 0.5}
    assert runs["looping"]["finished"] and runs["looping"]["problems"][0].startswith("config.json")
    second = client.get("/v1/runs", params={"limit": 2, "offset": 2}).json()
    assert [i["id"] for i in second["items"]] == [i["id"] for i in page["items"][2:4]]


def test_one_run_has_config_without_credentials(client):
    body = client.get("/v1/runs/2026-01-01-gpt-4o").json()
    assert body["config"]["model"] == "gpt-4o" and body["config"]["settings"] == {"ec": 3}
    assert "sk-should-never-be-here" not in json.dumps(body)
    assert body["logged_items"] == 2
    damaged = client.get("/v1/runs/damaged").json()
    assert damaged["config"] is None and damaged["summary"] is None


@pytest.mark.parametrize("run_id", ["nope", "escape", "loop", "empty-folder", "stray-file.txt", "..",
                                    ".hidden", "a..b", "%2e%2e", "..%2F..%2Fetc"])
def test_unknown_or_unsafe_run_ids_are_404(client, run_id):
    error = assert_error(client.get(f"/v1/runs/{run_id}"), 404)
    assert "secret-outside" not in error["message"]


# -------------------------------------------------------------------------------- errors


@pytest.mark.parametrize("path", ["/v1/domains/no-such-domain", "/v1/domains/..%2F..%2Fetc%2Fpasswd",
                                  "/v1/domains/.hidden", "/v1/domains/a%20b"])
def test_unknown_domain_is_404(client, path):
    assert_error(client.get(path), 404)


@pytest.mark.parametrize("dataset", ["no-such-dataset", "/etc", "../data", "..",
                                     "../shared/text2world-official/test.json"])
def test_datasets_are_names_never_paths(client, dataset):
    assert_error(client.get("/v1/domains", params={"dataset": dataset}), 404)
    assert_error(client.post("/v1/score", json={"gold_id": "blocksworld", "dataset": dataset,
                                                "pddl": "(define (domain d))"}), 404)


def test_unknown_gold_id_is_404(client):
    error = assert_error(client.post("/v1/score", json={"gold_id": "no-such-domain", "pddl": "x"}),
                         404, "unknown_domain")
    assert "no-such-domain" in error["message"]


MALFORMED = {
    "no gold": {"pddl": "(define (domain d))"},
    "no prediction": {"gold_pddl": "(define (domain d))"},
    "both golds": {"gold_id": "blocksworld", "gold_pddl": "x", "pddl": "x"},
    "both predictions": {"gold_id": "blocksworld", "pddl": "x", "response": "x"},
    "bad mode": {"gold_id": "blocksworld", "pddl": "x", "mode": "fuzzy"},
    "typo": {"gold_id": "blocksworld", "pdl": "x"},
    "number": {"gold_id": "blocksworld", "pddl": 12},
    "null mode": {"gold_id": "blocksworld", "pddl": "x", "mode": None},
    "list": [1, 2],
    "string": "hello",
}


@pytest.mark.parametrize("name", sorted(MALFORMED))
def test_malformed_score_body_is_422(client, name):
    error = assert_error(client.post("/v1/score", json=MALFORMED[name]), 422, "invalid_request")
    assert error["details"] and error["message"].startswith("malformed request")


@pytest.mark.parametrize("body", [b"", b"{", b'{"pddl": "x",}', b"\xff\xfe", b"[" * 50_000,
                                  b'{"pddl": "\\ud800"}', b'{"pddl": "x"} trailing'])
def test_unparseable_bodies_are_422(client, body):
    for path in ("/v1/score", "/v1/validate"):
        assert_error(client.post(path, content=body, headers={"content-type": "application/json"}),
                     422, "invalid_request")


@pytest.mark.parametrize("body, message, line, column", [
    (b'{"gold_id": "blocksworld", "pddl": , "mode": "paper"}',
     "invalid JSON at character 36: expected a value", 1, 36),  # counted from 1, as columns
    (b'{"pddl": "x",}', "invalid JSON at character 14: expected property name enclosed in "
     "double quotes", 1, 14),
    (b'{\n  "gold_id": "blocksworld",\n  "pddl" "x"\n}',
     "invalid JSON at character 40 (line 3, column 10): expected ':' delimiter", 3, 10),
])
def test_invalid_json_says_where_and_what(client, body, message, line, column):
    error = assert_error(client.post("/v1/score", content=body,
                                     headers={"content-type": "application/json"}),
                         422, "invalid_request")
    assert error["message"] == message
    assert error["details"][0]["line"] == line and error["details"][0]["column"] == column


@pytest.mark.parametrize("path, body, field", [
    ("/v1/score", {"gold_id": "blocksworld", "pddl": "x", "semantic": "yes"}, "semantic"),
    ("/v1/score", {"gold_id": "blocksworld", "pddl": "x", "semantic": 1}, "semantic"),
    ("/v1/validate", {"pddl": "x", "exact_case": "true"}, "exact_case"),
    ("/v1/score", {"gold_id": "blocksworld", "pddl": "x", "semantic": True,
                   "problems": [{"name": 7, "pddl": "x"}]}, "problems.0.name"),
])
def test_request_types_are_strict(client, path, body, field):
    error = assert_error(client.post(path, json=body), 422, "invalid_request")
    assert error["message"].startswith(f"malformed request: {field}: "), error


@pytest.mark.parametrize("content_type", ["text/plain", "application/x-www-form-urlencoded",
                                          "multipart/form-data; boundary=x"])
def test_a_body_that_is_not_declared_json_is_told_so(client, content_type):
    body = json.dumps({"pddl": "(define (domain d))"}).encode()
    for path in ("/v1/score", "/v1/validate"):
        error = assert_error(client.post(path, content=body, headers={"content-type": content_type}),
                             415, "unsupported_media_type")
        assert "Content-Type: application/json" in error["message"]
        assert content_type in error["message"]
    # JSON media types, and none at all, are read as JSON.
    for declared in ("application/json; charset=utf-8", "application/problem+json"):
        assert client.post("/v1/validate", content=body,
                           headers={"content-type": declared}).status_code == 200


def test_every_endpoint_has_a_written_summary(client):
    from fastapi.routing import APIRoute

    from text2world.api import viewer
    from text2world.api.routes import ROUTERS

    documented = [route for router in (*ROUTERS, viewer.router) for route in router.routes
                  if isinstance(route, APIRoute) and route.include_in_schema]
    spec = client.get("/openapi.json").json()
    assert len(documented) == sum(len(ops) for ops in spec["paths"].values()) >= 12
    for route in documented:  # FastAPI would title-case the function name ("Score Endpoint")
        assert route.summary and route.description, route.path
    summaries = [op["summary"] for ops in spec["paths"].values() for op in ops.values()]
    assert "Score a generated domain against a gold domain" in summaries


def test_answer_without_a_domain_is_422(client):
    error = assert_error(client.post("/v1/score", json={"gold_id": "blocksworld",
                                                        "response": "Sorry, I cannot help."}),
                         422, "no_domain_found")
    assert "no PDDL domain" in error["message"]
    assert_error(client.post("/v1/validate", json={"response": ""}), 422, "no_domain_found")


def test_pddl_without_define_is_no_domain_found(client):
    for path, body in (("/v1/validate", {"pddl": "hello world"}),
                       ("/v1/score", {"gold_id": "blocksworld", "pddl": "hello world"})):
        answer = client.post(path, json=body)
        assert answer.status_code == 200, answer.text
        error = answer.json()["errors"][0]
        assert (error["category"], error["kind"]) == ("UndefinedDomainName", "NoDomainFound")


def test_gold_without_actions_is_422(client):
    error = assert_error(client.post("/v1/score", json={"gold_pddl": "(define (domain d))",
                                                        "pddl": "(define (domain d))"}),
                         422, "unscorable")
    assert "no actions" in error["message"]


@pytest.mark.parametrize("query", ["split=dev", "limit=0", "limit=100000", "offset=-1",
                                   "offset=abc"])
def test_bad_query_is_422(client, query):
    assert_error(client.get(f"/v1/domains?{query}"), 422, "invalid_request")


def test_unknown_route_and_method(client):
    assert_error(client.get("/v2/score"), 404, "not_found")
    assert_error(client.get("/v1/score"), 405, "method_not_allowed")


def test_body_over_the_limit_is_413():
    app = create_app(Settings(max_body=2000, executor="thread"))
    with TestClient(app, raise_server_exceptions=False) as small:
        ok = small.post("/v1/validate", json={"pddl": "(define (domain d))"})
        assert ok.status_code == 200
        error = assert_error(small.post("/v1/validate", json={"pddl": "x" * 2001}), 413,
                             "payload_too_large")
        assert error["limit"] == 2000 and "2,000" in error["message"]

        def chunks():  # no Content-Length: the limit must hold for a streamed body too
            for _ in range(10):
                yield b" " * 500

        assert_error(small.post("/v1/validate", content=chunks(),
                                headers={"content-type": "application/json"}), 413)


def test_default_limit_is_one_megabyte(client):
    body = json.dumps({"gold_id": "blocksworld", "pddl": "x" * (1024 * 1024)})
    assert_error(client.post("/v1/score", content=body, headers={"content-type": "application/json"}),
                 413, "payload_too_large")


# -------------------------------------------------------------------------------- time limit


def test_scoring_past_the_time_limit_is_422_and_only_its_process_is_stopped():
    app = create_app(Settings(score_timeout=0.05, score_processes=2))
    with TestClient(app, raise_server_exceptions=False) as limited:
        wait_ready(limited)
        before = app.state.executor.pids()
        assert len(before) == 2
        error = assert_error(limited.post("/v1/validate", json={"pddl": huge_domain()}), 422,
                             "scoring_timeout")
        assert "0.05 s" in error["message"] and error["timeout_seconds"] == 0.05
        # The runaway process is killed, not left burning a core; the other one is untouched.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and all(alive(pid) for pid in before):
            time.sleep(0.05)
        assert sum(alive(pid) for pid in before) == 1
        # ... and the service keeps scoring, on a fresh process beside the old one.
        again = limited.post("/v1/validate", json={"pddl": "(define (domain d))"})
        assert again.status_code == 200 and again.json()["ok"]
        wait_ready(limited, alive=2)
        after = app.state.executor.pids()
        assert len(after) == 2 and len(after & before) == 1


def test_thread_executor_also_enforces_the_limit():
    app = create_app(Settings(executor="thread", score_timeout=0.05, score_processes=1))
    with TestClient(app, raise_server_exceptions=False) as threaded:
        assert threaded.post("/v1/validate", json={"pddl": "(define (domain d))"}).status_code == 200
        assert_error(threaded.post("/v1/validate", json={"pddl": huge_domain()}), 422,
                     "scoring_timeout")
        # The abandoned job keeps its slot until it ends: a new job waits for it (its own time
        # limit starts once it runs), it does not run beside it.
        assert app.state.executor.admission.snapshot()["free"] == 0
        again = threaded.post("/v1/validate", json={"pddl": "(define (domain d))"})
        assert again.status_code == 200 and again.json()["ok"]


def test_scoring_does_not_block_the_event_loop(runs_dir):
    app = create_app(Settings(runs_dir=runs_dir, score_timeout=1.5, score_processes=1))
    with TestClient(app, raise_server_exceptions=False) as busy:
        finished: list[float] = []

        def slow() -> None:
            for _ in range(4):  # each about 0.5 s: the input limits bound one job's work
                busy.post("/v1/validate", json={"pddl": huge_domain()})
            finished.append(time.monotonic())

        worker = threading.Thread(target=slow)
        worker.start()
        time.sleep(0.3)
        for path in ("/healthz", "/v1/domains", "/v1/runs"):
            assert busy.get(path).status_code == 200
        answered = time.monotonic()
        worker.join()
        assert finished and answered < finished[0]


# -------------------------------------------------------------------------------- settings


def test_a_timeout_stops_its_own_job_only():
    """Jobs running beside a runaway one finish on their own process, once, undisturbed."""
    async def scenario():
        executor = ScoringExecutor("process", 3, timeout=4.0)
        await executor.start()
        try:
            runaway = asyncio.create_task(executor.run(time.sleep, 30))
            await asyncio.sleep(2.0)
            # running from 2 s to 5 s: the runaway job is stopped at 4 s beside them
            beside = [asyncio.create_task(executor.run(sleep_then_pid, 3.0)) for _ in range(2)]
            with pytest.raises(ScoringTimeout):
                await runaway
            pids = await asyncio.gather(*beside)
            assert len(set(pids)) == 2 and all(alive(pid) for pid in pids)
            assert set(pids) <= executor.pids()
            assert await executor.run(abs, -3) == 3
            with pytest.raises(ScoringTimeout):
                await executor.run(time.sleep, 30)
            assert await executor.run(abs, -4) == 4
        finally:
            executor.close()

    asyncio.run(scenario())


def test_each_gold_is_parsed_once_per_scoring_process(store):
    record = store.records[0]
    task = {"gold": record.domain, "pddl": drop_action(record.domain), "response": None,
            "mode": "paper"}

    async def scenario():
        executor = ScoringExecutor("process", 1, timeout=60)
        await executor.start()
        try:
            before = await executor.run(gold_cache_info, None)  # read in the scoring process
            for _ in range(3):
                await executor.run(score_job, task)
            return before, await executor.run(gold_cache_info, None)
        finally:
            executor.close()

    before, after = asyncio.run(scenario())
    assert after["paper"]["misses"] == before["paper"]["misses"] + 1
    assert after["paper"]["hits"] >= before["paper"]["hits"] + 2


def test_default_pools_use_every_core():
    cores = os.cpu_count() or 1
    assert Settings().processes == cores
    for workers in (1, 2, 3, 8, 64):
        processes = Settings(workers=workers).processes
        assert 1 <= processes <= cores
        assert workers * processes >= min(cores, workers)  # no core left without a process
        assert workers * processes <= max(cores, workers)  # one process per core
    assert Settings(workers=8, score_processes=3).processes == 3
    with pytest.raises(SettingsError):
        Settings(workers=0)


def test_settings_from_environment():
    settings = Settings.from_env({"T2W_API_MAX_BODY": "5000", "T2W_API_SCORE_TIMEOUT": "2.5",
                                  "T2W_API_EXECUTOR": "thread", "T2W_RUNS_DIR": "/tmp/r",
                                  "T2W_API_WARM": "yes"})
    assert (settings.max_body, settings.score_timeout, settings.executor, settings.warm,
            settings.runs_dir) == (5000, 2.5, "thread", True, Path("/tmp/r"))
    assert Settings.from_env(settings.to_env()) == settings
    assert Settings.from_env({}) == Settings()
    for variable, value in (("T2W_API_MAX_BODY", "lots"), ("T2W_API_MAX_BODY", "0"),
                            ("T2W_API_SCORE_TIMEOUT", "nan"), ("T2W_API_SCORE_TIMEOUT", "-1"),
                            ("T2W_API_EXECUTOR", "gpu"), ("T2W_API_WARM", "maybe")):
        with pytest.raises(SettingsError, match=variable):
            Settings.from_env({variable: value})


def test_warm_start_parses_the_store_golds_once(store, tmp_path, monkeypatch):
    from text2world.scoring import metrics
    small_store = tmp_path / "data"
    (small_store / "domains").mkdir(parents=True)
    records = store.records[:3]
    for record in records:
        (small_store / "domains" / f"{record.id}.pddl").write_text(record.domain, encoding="utf-8")
    monkeypatch.setenv("T2W_DATA_DIR", str(small_store))
    metrics.paper_gold_view.cache_clear()
    app = create_app(Settings(executor="thread", warm=True))
    with TestClient(app) as warmed:
        wait_ready(warmed)
        assert metrics.paper_gold_view.cache_info().currsize == len(records)
        for record in records:
            hits = metrics.paper_gold_view.cache_info().hits
            response = warmed.post("/v1/score", json={"gold_id": record.id, "pddl": record.domain})
            assert response.status_code == 200
            assert metrics.paper_gold_view.cache_info().hits == hits + 1
        assert metrics.paper_gold_view.cache_info().currsize == len(records)


def test_no_500_for_every_endpoint_without_data(tmp_path, monkeypatch):
    """A server whose store is missing answers with errors, never a bare 500."""
    monkeypatch.setenv("T2W_DATA_DIR", str(tmp_path / "nowhere"))
    app = create_app(Settings(executor="thread", runs_dir=tmp_path / "no-runs"))
    with TestClient(app, raise_server_exceptions=False) as empty:
        assert empty.get("/healthz").json()["domains"] is None
        assert_error(empty.get("/v1/domains"), 503, "dataset_unavailable")
        assert_error(empty.get("/v1/domains/blocksworld"), 503)
        assert empty.get("/v1/runs").json()["items"] == []
        assert empty.get("/v1/datasets").status_code == 200


def test_unexpected_errors_are_structured_json_too():
    """The catch-all handler: a bug answers with JSON naming no internals, not an HTML 500."""
    app = create_app(Settings(executor="thread"))

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret internal detail")

    with TestClient(app, raise_server_exceptions=False) as crashing:
        error = assert_error(crashing.get("/boom"), 500, "internal_error")
        assert "secret internal detail" not in error["message"]
    # Without its lifespan the service says it is not ready instead of failing.
    assert_error(TestClient(app).post("/v1/validate", json={"pddl": "x"}), 503, "not_ready")


def test_library_errors_have_one_code_on_the_api_and_in_mcp():
    """One mapping (``service.error_codes.api_error``): each library error has the same status
    and code over REST and MCP; only where the message points the client differs."""
    from text2world.batch_scoring import BatchInputError
    from text2world.errors import ApiError, ScoringUnavailable
    from text2world.pddl.bounds import DomainInputError
    from text2world.pddl.extract import NoDomainFound
    from text2world.reports.published import PublishedError
    from text2world.scoring.score_base import ScoringError
    from text2world.service.error_codes import API, MCP, api_error
    from text2world.simulation import ProblemError, UnsupportedFeature
    from text2world.store.datasets import DatasetError, DatasetUnavailable, UnknownDataset, UnknownDomain

    cases = [(NoDomainFound("none"), 422, "no_domain_found"),
             (ScoringError("no actions"), 422, "unscorable"),
             (DomainInputError("empty"), 422, "invalid_domain"),
             (UnknownDataset("nope", ["text2world"]), 404, "unknown_dataset"),
             (DatasetUnavailable("mine", DatasetError("torn")), 503, "dataset_unavailable"),
             (UnknownDomain("text2world", "nope"), 404, "unknown_domain"),
             (ScoringTimeout(2.5), 422, "scoring_timeout"),
             (ScoringUnavailable("it died"), 503, "scoring_unavailable"),
             (PublishedError("torn table"), 503, "published_unavailable"),
             (BatchInputError("items[0]: no gold"), 422, "invalid_item"),
             (UnsupportedFeature("derived predicates"), 422, "unsupported"),
             (ProblemError("no :init"), 422, "invalid_problem")]
    for error, status, code in cases:
        rest, mcp = api_error(error, API), api_error(error, MCP)
        assert (rest.status, rest.code) == (mcp.status, mcp.code) == (status, code), error
    assert "GET /v1/domains" in api_error(cases[5][0]).message
    assert "list_domains" in api_error(cases[5][0], MCP).message
    timeout = api_error(ScoringTimeout(2.5))
    assert timeout.details == {"timeout_seconds": 2.5} and "2.5 s limit" in timeout.message
    assert api_error(cases[7][0]).headers == {"Retry-After": "1"}
    assert api_error(cases[7][0], MCP).headers == {}
    already = ApiError(409, "conflict", "as it is")
    assert api_error(already) is already
    with pytest.raises(KeyError):  # not a library error: a bug, answered as one (500)
        api_error(KeyError("x"))


def test_the_cli_and_the_api_score_a_domain_through_one_function(client, tmp_path):
    """``t2w score --json`` and ``POST /v1/score`` answer ``scoring.score_domain``'s result:
    the same scores for an answer whose stray ')' cut off an action, the API adding the
    validation block (whose errors are the score's) and the gold's reference."""
    from typer.testing import CliRunner

    from text2world.cli import app
    from text2world.scoring.score_domain import score_domain
    from text2world.store.datasets import gold_from_store

    gold = gold_from_store("text2world", "bakery-ovens")
    cut = gold.domain.rfind("(:action")
    answer = "Answer:\n```pddl\n" + gold.domain[:cut] + ")\n" + gold.domain[cut:] + "\n```\n"
    expected = score_domain(gold.domain, answer, mode="canonical", answer="answer")
    assert expected.extracted and [e.kind for e in expected.score.errors] == ["DroppedDefinitions"]
    assert expected.validation_dict()["errors"] == [e.to_dict() for e in expected.score.errors]
    body = client.post("/v1/score", json={"gold_id": "bakery-ovens", "response": answer,
                                          "mode": "canonical"}).json()
    assert body == {**json.loads(json.dumps(expected.to_dict())), "gold": gold.ref()}
    path = tmp_path / "answer.md"
    path.write_text(answer)
    cli = CliRunner().invoke(app, ["score", "bakery-ovens", str(path), "-m", "canonical", "--json"])
    assert json.loads(cli.stdout) == json.loads(json.dumps(expected.score.to_dict(details=True)))
