"""A fair API under hostile load, in process: admission (per-client bounds, bounded queue, fair
order), readiness, gold caches bounded in bytes, 405 Allow, the OpenAPI "exactly one of".

The same guarantees over a real uvicorn process (raw sockets for the header deadline and the
413 close) are in tests/api/test_api_server.py.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest
from api_helpers import assert_error, huge_domain, sleep_then_pid, wait_ready
from fastapi.testclient import TestClient
from processes import alive
from repo_paths import REPO, TESTS

from text2world import load_dataset
from text2world.api.app import create_app
from text2world.api.limits import ClientRateLimiter
from text2world.api.settings import Settings, SettingsError
from text2world.errors import ApiError
from text2world.pddl.perturb import rename_variables
from text2world.scoring import metrics
from text2world.scoring.caching import TextCache, deep_size, text_key
from text2world.service import executor as scoring
from text2world.service.admission import Admission, Grant
from text2world.service.executor import ScoringExecutor
from text2world.service.jobs import gold_cache_info, score_job


def admission(**overrides) -> Admission:
    values = dict(slots=1, client_concurrency=1, client_limit=10, max_queue=10,
                  queue_timeout=30.0, penalty_seconds=60.0)
    values.update(overrides)
    return Admission(**values)


async def _waiting(gate: Admission, count: int) -> None:
    while gate.snapshot()["waiting"] < count:
        await asyncio.sleep(0.001)


# -------------------------------------------------------------------------------- admission


def test_a_client_past_its_limit_gets_429_with_retry_after():
    async def scenario():
        gate = admission(client_limit=2)
        await gate.acquire("a")
        second = asyncio.create_task(gate.acquire("a"))  # waits: one slot, in use
        await _waiting(gate, 1)
        with pytest.raises(ApiError) as refused:
            await gate.acquire("a")
        # Another client is not refused for what "a" holds: it waits its turn.
        other = asyncio.create_task(gate.acquire("b"))
        await _waiting(gate, 2)
        gate.release("a")
        await other  # "a" has had its turn: "b" goes first (fair queueing)
        gate.release("b")
        await second
        gate.release("a")
        return refused.value

    error = asyncio.run(scenario())
    assert error.status == 429 and error.code == "too_many_requests"
    assert int(error.headers["Retry-After"]) >= 1
    assert error.details["retry_after"] == int(error.headers["Retry-After"])
    assert "T2W_API_CLIENT_LIMIT" in error.message


def test_a_full_queue_gets_503_with_retry_after():
    async def scenario():
        gate = admission(max_queue=1)
        await gate.acquire("a")
        waiting = asyncio.create_task(gate.acquire("b"))
        await _waiting(gate, 1)
        with pytest.raises(ApiError) as refused:
            await gate.acquire("c")
        gate.release("a")
        await waiting
        gate.release("b")
        return refused.value

    error = asyncio.run(scenario())
    assert error.status == 503 and error.code == "server_busy"
    assert int(error.headers["Retry-After"]) >= 1


def test_waiting_past_the_queue_timeout_gets_503():
    async def scenario():
        gate = admission(queue_timeout=0.05)
        await gate.acquire("a")
        with pytest.raises(ApiError) as refused:
            await gate.acquire("b")
        assert gate.snapshot()["waiting"] == 0 and gate.snapshot()["clients"] == 1
        return refused.value

    error = asyncio.run(scenario())
    assert error.status == 503 and error.code == "queue_timeout"


def test_a_free_slot_goes_to_the_client_with_fewest_jobs_scoring():
    """One client with many connections does not crowd out another that arrives later."""
    async def scenario():
        gate = admission(slots=2, client_concurrency=2)
        await gate.acquire("crowd")
        await gate.acquire("crowd")
        crowd = [asyncio.create_task(gate.acquire("crowd")) for _ in range(3)]
        await _waiting(gate, 3)
        late = asyncio.create_task(gate.acquire("late"))
        await _waiting(gate, 4)
        gate.release("crowd")  # "crowd" still scores one job, "late" none: "late" goes first
        await late
        assert not any(task.done() for task in crowd)
        gate.release("crowd")
        assert gate.snapshot()["waiting"] == 2
        await asyncio.wait_for(crowd[0], 5)  # the earliest of them
        assert not crowd[1].done() and not crowd[2].done()
        for task in crowd:
            task.cancel()

    asyncio.run(scenario())


def test_a_client_alone_may_use_every_slot_but_not_more_than_its_concurrency():
    async def scenario():
        gate = admission(slots=3, client_concurrency=2)
        await gate.acquire("a")
        await gate.acquire("a")
        third = asyncio.create_task(gate.acquire("a"))
        await _waiting(gate, 1)
        assert gate.snapshot()["free"] == 1  # kept for another client
        await gate.acquire("b")
        gate.release("a")
        await third

    asyncio.run(scenario())


def test_a_client_whose_job_ran_past_the_limit_goes_last():
    async def scenario():
        gate = admission()
        await gate.acquire("x")
        gate.penalize("runaway")
        first = asyncio.create_task(gate.acquire("runaway"))
        await _waiting(gate, 1)
        second = asyncio.create_task(gate.acquire("polite"))
        await _waiting(gate, 2)
        gate.release("x")
        await second  # arrived later, served first
        assert not first.done()
        gate.release("polite")
        await first  # then served: nobody else waits
        gate.release("runaway")

    asyncio.run(scenario())


def test_a_cancelled_waiter_leaves_no_trace():
    async def scenario():
        gate = admission(client_limit=2)
        await gate.acquire("a")
        waiter = asyncio.create_task(gate.acquire("a"))
        await _waiting(gate, 1)
        waiter.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiter
        assert gate.snapshot()["waiting"] == 0
        gate.release("a")
        assert gate.snapshot() == {"slots": 1, "free": 1, "waiting": 0, "clients": 0,
                                   "background": 0}

    asyncio.run(scenario())


def test_admission_settings_and_their_variables():
    settings = Settings(score_processes=4)
    assert settings.per_client_concurrency == 4
    assert settings.per_client_limit == 16 and settings.queue_limit == 64
    custom = Settings.from_env({"T2W_API_CLIENT_CONCURRENCY": "1", "T2W_API_CLIENT_LIMIT": "3",
                                "T2W_API_MAX_QUEUE": "5", "T2W_API_QUEUE_TIMEOUT": "2",
                                "T2W_API_HEADER_TIMEOUT": "1.5",
                                "T2W_GOLD_CACHE_BYTES": "1000000"})
    assert (custom.per_client_concurrency, custom.per_client_limit, custom.queue_limit,
            custom.queue_timeout, custom.header_timeout, custom.gold_cache_bytes) == (
        1, 3, 5, 2.0, 1.5, 1_000_000)
    assert Settings.from_env(custom.to_env()) == custom
    assert (settings.per_client_rate, settings.per_client_burst, settings.demote_after) == (
        200.0, 200, 0.1)  # 50 requests per second per scoring process, a second's burst
    paced = Settings.from_env({"T2W_API_CLIENT_RATE": "2.5", "T2W_API_CLIENT_BURST": "7",
                               "T2W_API_DEMOTE_AFTER": "0"})
    assert (paced.per_client_rate, paced.per_client_burst, paced.demote_after) == (2.5, 7, 0.0)
    assert Settings.from_env(paced.to_env()) == paced
    for variable, value in (("T2W_API_CLIENT_RATE", "-1"), ("T2W_API_CLIENT_RATE", "nan"),
                            ("T2W_API_CLIENT_BURST", "0"), ("T2W_API_DEMOTE_AFTER", "-1"),
                            ("T2W_API_CLIENT_LIMIT", "0"), ("T2W_API_CLIENT_CONCURRENCY", "x"),
                            ("T2W_API_QUEUE_TIMEOUT", "0"), ("T2W_API_HEADER_TIMEOUT", "-1"),
                            ("T2W_GOLD_CACHE_BYTES", "-5"), ("T2W_PLAN_CACHE_BYTES", "x"),
                            ("T2W_SCORE_CACHE_BYTES", "-1")):
        with pytest.raises(SettingsError, match=variable):
            Settings.from_env({variable: value})


def test_a_demoted_job_gives_its_slot_to_the_next_request_and_still_counts_for_its_client():
    async def scenario():
        gate = admission(slots=1, client_concurrency=1)
        await gate.acquire("long")
        long_job = Grant("long")
        short = asyncio.create_task(gate.acquire("short"))
        again = asyncio.create_task(gate.acquire("long"))  # the same client, a second job
        await _waiting(gate, 2)
        assert gate.demote(long_job) and long_job.demoted
        await short  # the slot went to the other client at once
        assert gate.snapshot() == {"slots": 1, "free": 0, "waiting": 1, "clients": 2,
                                   "background": 1}
        assert not gate.demote(Grant("short"))  # every background place is taken
        gate.release("short")
        await asyncio.sleep(0.01)
        assert not again.done()  # "long" still has its one job (in the background)
        gate.release("long", demoted=True)
        await again
        gate.release("long")
        assert gate.snapshot() == {"slots": 1, "free": 1, "waiting": 0, "clients": 0,
                                   "background": 0}

    asyncio.run(scenario())


def test_client_rate_limiter_paces_then_refuses():
    limiter = ClientRateLimiter(rate=10, burst=2, max_delay=0.25, max_held=2, window=1.0)
    # A client alone is never paced: the limit protects other clients.
    assert all(limiter.admit("alone", 50.0) == 0 for _ in range(100))
    assert limiter.admit("other", 100.0) == 0
    # With another client active: a burst of two goes at once, then one request every 0.1 s,
    # each waiting its turn.
    assert [limiter.admit("a", 100.0) for _ in range(4)] == pytest.approx([0, 0, 0.1, 0.2])
    assert limiter.admit("a", 100.0) is None  # would wait 0.3 s, past the longest hold
    assert limiter.retry_after("a", 100.0) == 1
    assert limiter.admit("b", 100.0) == 0  # every client has its own bucket
    assert limiter.admit("a", 100.35) == pytest.approx(0)  # caught up
    # Nobody else for a second (the window): alone again, and its bucket is full.
    assert [limiter.admit("a", 101.5) for _ in range(5)] == [0] * 5
    assert limiter.admit("b", 101.6) == 0
    assert [limiter.admit("a", 101.6) for _ in range(3)] == pytest.approx([0, 0, 0.1])

    async def held():
        slow = ClientRateLimiter(rate=1, burst=1, max_delay=10, max_held=1)
        assert slow.admit("d", 0.0) == 0
        assert slow.admit("c", 0.0) == 0
        assert slow.admit("c", 0.0) == pytest.approx(1.0)
        holding = asyncio.create_task(slow.hold("c", 0.2))
        await asyncio.sleep(0)
        assert slow.admit("c", 0.0) is None  # one request of "c" is already held
        await holding
        assert slow.admit("c", 0.0) == pytest.approx(2.0)

    asyncio.run(held())


def test_rate_limit_over_the_app_paces_and_exempts_the_probes():
    app = create_app(Settings(score_processes=1, client_rate=5, client_burst=1))
    with TestClient(app, raise_server_exceptions=False) as client:
        wait_ready(client)
        other = TestClient(app, client=("192.0.2.7", 4000))
        for _ in range(20):  # alone: never paced; probes never touch the limiter at all
            assert client.get("/v1/domains").status_code == 200
            assert other.get("/healthz").status_code == 200
        assert other.get("/v1/domains").status_code == 200  # now another client is active
        started = time.monotonic()
        answers = [client.get("/v1/domains").status_code for _ in range(4)]
        # one request every 0.2 s: held, not refused (a lower bound: a loaded machine only adds)
        assert answers == [200] * 4 and time.monotonic() - started >= 0.55
    unlimited = create_app(Settings(score_processes=1, client_rate=0))
    assert not any(m.cls.__name__ == "ClientRateMiddleware" for m in unlimited.user_middleware)


def test_a_long_job_is_demoted_and_a_short_one_runs_beside_it():
    """One scoring process: a job past ``demote_after`` is reniced and gives its slot back, a
    process is forked for the next request, and the pool shrinks back when the long job ends."""
    async def scenario():
        executor = ScoringExecutor("process", 1, timeout=60, demote_after=0.2)
        await executor.start()
        try:
            first_pid = next(iter(executor.pids()))
            long_job = asyncio.create_task(executor.run(sleep_then_pid, 3.0, "long"))
            deadline = time.monotonic() + 30
            while executor.admission.snapshot()["background"] != 1:
                assert time.monotonic() < deadline, "the long job was not demoted"
                await asyncio.sleep(0.01)
            assert os.getpriority(os.PRIO_PROCESS, first_pid) == scoring.DEMOTED_NICE
            short_pid = await executor.run(sleep_then_pid, 0.0, "short")
            assert short_pid != first_pid and not long_job.done()
            assert os.getpriority(os.PRIO_PROCESS, short_pid) == os.getpriority(os.PRIO_PROCESS, 0)
            assert await long_job == first_pid
            deadline = time.monotonic() + 30
            while executor.pids() != {short_pid}:  # the demoted process is retired
                assert time.monotonic() < deadline, executor.pids()
                await asyncio.sleep(0.01)
            assert executor.admission.snapshot()["background"] == 0
            assert await executor.run(sleep_then_pid, 0.0, "long") == short_pid
        finally:
            executor.close()

    asyncio.run(scenario())


# -------------------------------------------------------------------------------- over the app


def test_429_over_the_app_is_json_with_retry_after():
    app = create_app(Settings(score_timeout=3, score_processes=1, client_limit=1,
                              demote_after=0,  # the slow job keeps its slot
                              limit_wait=0.2))  # and does not end within the wait for room
    with TestClient(app, raise_server_exceptions=False) as client:
        wait_ready(client)
        slow: list = []
        worker = threading.Thread(target=lambda: slow.append(
            client.post("/v1/validate", json={"pddl": huge_domain()})))
        worker.start()
        deadline = time.monotonic() + 30
        while client.get("/readyz").json()["free"] != 0:  # the slow job holds the one slot
            assert time.monotonic() < deadline
            time.sleep(0.01)
        refused = client.post("/v1/validate", json={"pddl": "(define (domain d))"})
        worker.join()
        error = assert_error(refused, 429, "too_many_requests")
        assert refused.headers["retry-after"] == str(error["retry_after"])
        assert slow[0].status_code in (200, 422)  # the slow one finished or hit its limit
        again = client.post("/v1/validate", json={"pddl": "(define (domain d))"})
        assert again.status_code == 200


def test_readyz_says_whether_scoring_works():
    app = create_app(Settings(score_processes=2))
    # Without the lifespan nothing scores: alive (healthz) but not ready.
    bare = TestClient(app, raise_server_exceptions=False)
    assert bare.get("/healthz").status_code == 200
    error = assert_error(bare.get("/readyz"), 503, "not_ready")
    assert error["retry_after"] >= 1
    with TestClient(app, raise_server_exceptions=False) as client:
        ready = wait_ready(client, alive=2)
        assert ready["status"] == "ready" and ready["scoring_processes"] == 2
        before = app.state.executor.pids()
        for pid in before:  # scoring processes die while idle (say, the OOM killer)
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 60
        while app.state.executor.pids() & before or len(app.state.executor.pids()) < 2:
            assert time.monotonic() < deadline, "dead scoring processes were not replaced"
            time.sleep(0.02)
        assert wait_ready(client, alive=2)["alive"] == 2
        assert client.post("/v1/validate", json={"pddl": "(define (domain d))"}).status_code == 200
        # When no process is up and replacements cannot be started, the service is not ready.
        start_process = scoring._start_process

        def cannot_fork(*args):
            raise OSError("fork refused (test)")

        scoring._start_process = cannot_fork
        try:
            for pid in app.state.executor.pids():
                os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 60
            while client.get("/readyz").status_code != 503:
                assert time.monotonic() < deadline, "still ready with no process and failing restarts"
                time.sleep(0.02)
            assert "restarts fail" in client.get("/readyz").json()["error"]["message"]
        finally:
            scoring._start_process = start_process
        assert wait_ready(client, alive=2)["alive"] == 2  # the retries succeed again


def test_405_names_the_allowed_methods(client_thread):
    response = client_thread.get("/v1/score")
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "POST"
    assert client_thread.delete("/v1/domains").headers["allow"] == "GET"


@pytest.fixture(scope="module")
def client_thread():
    app = create_app(Settings(executor="thread", score_processes=1))
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def test_openapi_states_exactly_one_of_each_pair(client_thread):
    jsonschema = pytest.importorskip("jsonschema")
    schemas = client_thread.get("/openapi.json").json()["components"]["schemas"]
    score_schema, validate_schema = schemas["ScoreRequest"], schemas["ValidateRequest"]
    assert len(score_schema["allOf"]) == 2
    assert all(len(part["oneOf"]) == 2 for part in score_schema["allOf"])
    assert len(validate_schema["oneOf"]) == 2
    domain = "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (p) :effect (not (p))))"
    # The schema accepts exactly the bodies the service accepts.
    for gold in ({}, {"gold_pddl": domain}, {"gold_id": "blocksworld"},
                 {"gold_id": "blocksworld", "gold_pddl": domain},
                 {"gold_id": None, "gold_pddl": domain}):
        for predicted in ({}, {"pddl": domain}, {"response": domain},
                          {"pddl": domain, "response": domain}, {"pddl": None, "response": domain}):
            body = {**gold, **predicted}
            schema_ok = jsonschema.Draft202012Validator(
                score_schema, format_checker=None).is_valid(body)
            response = client_thread.post("/v1/score", json=body)
            assert schema_ok == (response.status_code == 200), (body, response.text)
    for body in ({}, {"pddl": domain}, {"response": domain}, {"pddl": domain, "response": domain}):
        schema_ok = jsonschema.Draft202012Validator(validate_schema).is_valid(body)
        assert schema_ok == (client_thread.post("/v1/validate", json=body).status_code == 200)


# -------------------------------------------------------------------------------- gold caches


def test_gold_caches_are_bounded_in_bytes_and_keyed_by_a_digest():
    calls = []

    def parse(text: str) -> list[str]:
        calls.append(text)
        return text.split()

    cache = TextCache(parse, max_bytes=200_000)
    texts = [f"gold {index} " + "word " * 2000 for index in range(60)]
    for text in texts:
        assert cache(text) == text.split()
    info = cache.cache_info()
    assert 0 < info.bytes <= 200_000 and info.currsize < len(texts)
    assert info.bytes == sum(size for _, size in cache._entries.values())
    # Keys are 16-byte digests, never the (possibly megabyte) texts.
    assert all(isinstance(key, bytes) and len(key) == 16 for key in cache._entries)
    assert text_key(texts[-1]) in cache._entries
    # The most recently used entries stay; a hit does not call the function again.
    count = len(calls)
    assert cache(texts[-1]) == texts[-1].split() and len(calls) == count
    # A value larger than the whole bound is returned, not kept.
    assert cache("x " * 200_000) and cache.cache_info().bytes <= 200_000
    cache.set_max_bytes(0)
    assert cache.cache_info().currsize == 0 and cache.cache_info().bytes == 0
    assert deep_size(["ab", "ab"]) < deep_size(["ab", "cd"])  # shared objects count once


def test_library_gold_caches_are_byte_bounded():
    for cache in (metrics.paper_gold_view, metrics.canonical_gold_view):
        assert isinstance(cache, TextCache)
        assert cache.cache_info().max_bytes > 0


def test_scoring_processes_keep_gold_caches_within_the_configured_bytes():
    records = list(load_dataset())[:24]
    # Distinct golds: each store domain with its variables renamed two ways.
    golds = [rename_variables(record.domain, seed=seed) for record in records for seed in (1, 2)]

    async def scenario():
        executor = ScoringExecutor("process", 1, timeout=60, cache_bytes=150_000)
        await executor.start()
        try:
            for gold in golds:
                task = {"gold": gold, "pddl": gold, "response": None, "mode": "canonical"}
                await executor.run(score_job, task)
            return await executor.run(gold_cache_info, None)
        finally:
            executor.close()

    info = asyncio.run(scenario())["canonical"]
    assert info["max_bytes"] == 150_000
    assert 0 < info["bytes"] <= 150_000
    assert info["misses"] == len(golds) and info["currsize"] < len(golds)


# -------------------------------------------------------------------------------- warm start

_WARM_SCRIPT = """
import asyncio, json, sys
from text2world.service.jobs import gold_cache_info, score_job
from text2world.service import executor as scoring
from text2world.service.executor import ScoringExecutor
from api_helpers import sleep_then_pid

async def main():
    executor = ScoringExecutor("process", 2, timeout=60, warm=True)
    await executor.start()
    try:
        # Hold both processes, so each answers once.
        busy = [asyncio.create_task(executor.run(sleep_then_pid, 0.5)) for _ in range(2)]
        await asyncio.gather(*busy)
        infos = await asyncio.gather(*(executor.run(gold_cache_info, None) for _ in range(2)))
        gold = sys.argv[1]
        await executor.run(score_job, {"gold": gold, "pddl": gold, "response": None,
                                       "mode": "paper"})
        return infos
    finally:
        executor.close()

if __name__ == "__main__":
    print(json.dumps(asyncio.run(main())))
"""


def test_warm_start_parses_each_gold_once_for_all_scoring_processes(store, tmp_path):
    """The fork server parses the store's golds once; scoring processes are forked with them
    (a process of its own: the fork server is one per server process)."""
    small_store = tmp_path / "data"
    (small_store / "domains").mkdir(parents=True)
    records = store.records[:4]
    for record in records:
        (small_store / "domains" / f"{record.id}.pddl").write_text(record.domain, encoding="utf-8")
    env = {**os.environ, "T2W_DATA_DIR": str(small_store),
           "PYTHONPATH": os.pathsep.join([str(REPO), str(TESTS),
                                          os.environ.get("PYTHONPATH", "")])}
    script = tmp_path / "warm_check.py"
    script.write_text(_WARM_SCRIPT, encoding="utf-8")
    result = subprocess.run([sys.executable, str(script), records[0].domain], env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    infos = json.loads(result.stdout.strip().splitlines()[-1])
    assert len(infos) == 2
    for info in infos:
        for mode in ("paper", "canonical"):
            # Parsed before the fork (the misses were counted in the fork server), none since.
            assert info[mode]["currsize"] == len(records) + 1  # + the warm-up's tiny domain
            assert info[mode]["misses"] == len(records) + 1  # + the warm-up's tiny domain
            assert info[mode]["hits"] == 0


@pytest.fixture(scope="module")
def store():
    return load_dataset()


# -------------------------------------------------------------------------------- crash safety

_KILLED_SCRIPT = """
import asyncio, os, sys, time
from text2world.service import executor as scoring
from text2world.service.executor import ScoringExecutor

async def main():
    executor = ScoringExecutor("process", 2, timeout=600)
    await executor.start()
    busy = asyncio.create_task(executor.run(time.sleep, 600))  # a job that never ends itself
    while executor.admission.snapshot()["free"] != 1:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.2)
    print(" ".join(map(str, executor.pids())), flush=True)
    await busy

if __name__ == "__main__":
    asyncio.run(main())
"""


def test_no_scoring_process_outlives_a_killed_server(tmp_path):
    """kill -9 of the server's own PID (never its group): its scoring processes, one busy with
    a job that would run ten minutes, and the fork server end within seconds."""
    script = tmp_path / "killed.py"
    script.write_text(_KILLED_SCRIPT, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO),
                                                        os.environ.get("PYTHONPATH", "")])}
    server = subprocess.Popen([sys.executable, str(script)], env=env, stdout=subprocess.PIPE,
                              text=True)
    try:
        pids = [int(pid) for pid in server.stdout.readline().split()]
        assert len(pids) == 2
        fork_server = {int(line.split()[0]) for line in subprocess.run(
            ["ps", "-o", "pid=,ppid=", "-e"], capture_output=True, text=True).stdout.splitlines()
            if int(line.split()[1]) == server.pid}
        watched = set(pids) | fork_server
        assert all(alive(pid) for pid in watched)
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and any(alive(pid) for pid in watched):
        time.sleep(0.1)
    assert not any(alive(pid) for pid in watched), "processes outlived the killed server"


def test_a_request_past_its_client_limit_waits_for_room_within_the_limit_wait():
    """With ``limit_wait``, a request past its client's limit is not refused at once: it waits
    outside for a request of its client to leave, then takes its turn; only when none leaves
    within the wait is it refused (429)."""
    async def scenario():
        gate = admission(client_limit=2, limit_wait=30.0)
        await gate.acquire("a")
        second = asyncio.create_task(gate.acquire("a"))  # waits: one slot, in use
        await _waiting(gate, 1)
        third = asyncio.create_task(gate.acquire("a"))  # past the limit of 2: waits outside
        await asyncio.sleep(0.05)
        assert not third.done() and gate.snapshot()["waiting"] == 1
        gate.release("a")  # the second scores; the third takes the waiting place
        await second
        await _waiting(gate, 1)
        gate.release("a")
        await third  # served, never refused
        gate.release("a")
        short = admission(client_limit=1, limit_wait=0.05)
        await short.acquire("a")
        with pytest.raises(ApiError) as refused:  # nothing leaves within 0.05 s
            await short.acquire("a")
        return gate.snapshot(), refused.value

    snapshot, refused = asyncio.run(scenario())
    assert snapshot == {"slots": 1, "free": 1, "waiting": 0, "clients": 0, "background": 0}
    assert refused.status == 429 and refused.code == "too_many_requests"


def test_a_request_finding_the_queue_full_waits_for_a_place_within_the_limit_wait():
    async def scenario():
        gate = admission(max_queue=1, limit_wait=30.0)
        await gate.acquire("a")
        queued = asyncio.create_task(gate.acquire("b"))
        await _waiting(gate, 1)
        late = asyncio.create_task(gate.acquire("b"))  # no place, and none to take: waits
        await asyncio.sleep(0.05)
        assert not late.done()
        gate.release("a")  # "b"'s first scores, its place goes to the late one
        await queued
        gate.release("b")
        await late
        gate.release("b")
        return gate.snapshot()

    assert asyncio.run(scenario())["free"] == 1


def test_the_limit_wait_setting_and_its_variable():
    assert Settings().limit_wait == 5.0
    custom = Settings.from_env({"T2W_API_LIMIT_WAIT": "0.5", "T2W_API_QUEUE_TIMEOUT": "0.2"})
    assert custom.limit_wait == 0.5 and Settings.from_env(custom.to_env()) == custom
    assert Admission.for_settings(custom).limit_wait == 0.2  # never past the queue timeout
    with pytest.raises(SettingsError, match="T2W_API_LIMIT_WAIT"):
        Settings.from_env({"T2W_API_LIMIT_WAIT": "-1"})
