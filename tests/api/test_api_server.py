"""REST API over a real ``t2w serve`` (uvicorn) process on 127.0.0.1, reached with httpx.

The main server is started exactly as the Dockerfile's CMD (host and port swapped for loopback
and a free port, /app mapped to the repository), so the image's steps are exercised here too.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from api_helpers import assert_error, huge_domain
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from processes import descendants, free_port, stop_group, survivors
from repo_paths import REPO
from typer.testing import CliRunner

from text2world import load_dataset, score, validate
from text2world.cli import app as cli
from text2world.pddl.perturb import drop_action

SCORE_KEYS = ("mode", "executable", "similarity", "f1_predicates", "f1_parameters",
              "f1_preconditions", "f1_effects", "errors")




def t2w_command() -> list[str]:
    script = Path(sys.executable).parent / "t2w"
    if script.is_file():
        return [str(script)]
    found = shutil.which("t2w")
    return [found] if found else [sys.executable, "-c", "from text2world.cli import app; app()"]


def dockerfile() -> dict:
    """FROM, ENV, COPY and CMD of the Dockerfile (the simple subset it uses)."""
    text = (REPO / "Dockerfile").read_text(encoding="utf-8")
    joined = re.sub(r"\\\n", " ", text)
    lines = [line.strip() for line in joined.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    parsed: dict = {"env": {}, "copy": [], "run": [], "steps": []}
    for line in lines:
        instruction, _, rest = line.partition(" ")
        instruction = instruction.upper()
        parsed["steps"].append((instruction, rest.strip()))
        if instruction == "FROM":
            parsed["from"] = rest.strip()
        elif instruction == "ENV":
            for token in shlex.split(rest):
                key, _, value = token.partition("=")
                parsed["env"][key] = value
        elif instruction == "COPY":
            parsed["copy"].append(rest.split())
        elif instruction == "RUN":
            parsed["run"].append(rest)
        elif instruction == "WORKDIR":
            parsed["workdir"] = rest.strip()
        elif instruction == "CMD":
            parsed["cmd"] = json.loads(rest)
    return parsed


class Server:
    def __init__(self, args: list[str], env: dict[str, str], port: int) -> None:
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen(
            args, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            start_new_session=True)  # its own process group: stopping it stops its workers
        self.client = httpx.Client(base_url=self.url, timeout=60)
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                output = self.process.stdout.read().decode(errors="replace")
                pytest.fail(f"t2w serve exited with {self.process.returncode}:\n{output}")
            try:
                if self.client.get("/readyz", timeout=2).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                pytest.fail("t2w serve was not ready (/readyz) within 120 s")
            time.sleep(0.2)

    def stop(self) -> str:
        self.client.close()
        return stop_group(self.process)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``t2w serve`` started as the Dockerfile's CMD."""
    docker = dockerfile()
    port = free_port()
    args = t2w_command() + docker["cmd"][1:]
    args[args.index("--host") + 1] = "127.0.0.1"
    args[args.index("--port") + 1] = str(port)
    workdir = docker["workdir"]
    env = {key: value.replace(workdir, str(REPO), 1) if value.startswith(workdir) else value
           for key, value in docker["env"].items()}
    home = tmp_path_factory.mktemp("serve-home")
    env.update(T2W_HOME=str(home), T2W_RUNS_DIR=str(home / "runs"))
    running = Server(args, env, port)
    yield running
    output = running.stop()
    assert "Traceback" not in output, output


def test_dockerfile_is_simple_and_correct():
    docker = dockerfile()
    assert docker["from"] == "python:3.11-slim"
    # Everything is copied into the work directory, and installed from there without deps
    # (they have a layer of their own: the test below).
    assert all(copy[-1].rstrip("/") in (".", docker["workdir"]) or copy[-1].startswith("./")
               for copy in docker["copy"])
    assert any(re.search(r"pip install --no-deps \.(\s|$)", run) for run in docker["run"])
    # The copied store is the one served.
    assert ["data", "./data"] in docker["copy"]
    assert docker["env"]["T2W_DATA_DIR"] == f"{docker['workdir']}/data"
    assert (REPO / "data" / "domains").is_dir()
    cmd = docker["cmd"]
    assert cmd[:2] == ["t2w", "serve"]
    assert cmd[cmd.index("--host") + 1] == "0.0.0.0" and cmd[cmd.index("--port") + 1] == "8765"
    # That `pip install .` installs every package (text2world.api and text2world.cli included)
    # is checked against the packaging configuration in tests/project/test_packaging.py.


def test_dockerfile_installs_the_dependencies_before_copying_the_source():
    steps = dockerfile()["steps"]
    copies = [index for index, (op, _) in enumerate(steps) if op in ("COPY", "ADD")]
    # The first copy is pyproject.toml and the lock alone; the next step installs the
    # dependencies pyproject.toml lists, at the lock's versions (the ones CI tests).
    assert steps[copies[0]][1].split()[:-1] == ["pyproject.toml", "requirements/lock.txt"], steps[copies[0]]
    install = steps[copies[0] + 1]
    assert install[0] == "RUN" and "pyproject.toml" in install[1] and "dependencies" in install[1]
    assert "'-c', 'lock.txt'" in install[1]
    # The source comes after, piece by piece (never "COPY . ."): an edit rebuilds only those.
    sources = [steps[index][1].split()[0] for index in copies[1:]]
    assert "." not in sources and {"text2world", "data"} <= set(sources)
    assert min(copies[1:]) > copies[0] + 1


def test_tests_and_benchmarks_stay_out_of_the_image():
    ignored = {line.strip().rstrip("/") for line in
               (REPO / ".dockerignore").read_text().splitlines() if line.strip()}
    assert {"tests", "bench", ".git"} <= ignored
    assert not {"tests", "bench"} & {copy[0] for copy in dockerfile()["copy"]}


def test_docker_command_serves_health_and_the_store(server):
    health = server.client.get("/healthz").json()
    assert health["status"] == "ok"
    assert health["domains"] and health["domains"] >= 2
    page = server.client.get("/v1/domains", params={"limit": 500}).json()
    served = {item["id"] for item in page["items"]}
    assert "blocksworld" in served and served <= {p.stem for p in (REPO / "data" / "domains").glob("*.pddl")}
    gold = server.client.get("/v1/domains/blocksworld").json()
    assert gold["domain"] == (REPO / "data" / "domains" / "blocksworld.pddl").read_text(encoding="utf-8")
    assert server.client.get("/openapi.json").json()["info"]["title"]
    assert server.client.get("/docs").status_code == 200


def test_released_gold_domains_over_http_equal_the_library(server, official_test):
    for index, record in enumerate(official_test[10::30]):
        gold = record["pddl_domain"]
        predicted = drop_action(gold, seed=index) if index % 2 else gold
        for mode in ("paper", "canonical"):
            response = server.client.post("/v1/score", json={"gold_pddl": gold, "pddl": predicted,
                                                              "mode": mode})
            assert response.status_code == 200, response.text
            body = response.json()
            expected = score(gold, predicted, mode=mode).to_dict()
            for key in SCORE_KEYS:
                assert body[key] == expected[key], key
            assert body["validation"]["errors"] == validate(predicted).to_dict()["errors"]


def test_concurrent_requests_are_all_answered_correctly(server, official_test):
    pairs = [(official_test[i]["pddl_domain"], official_test[i + 1]["pddl_domain"])
             for i in range(0, 16, 2)]

    def post(pair):
        gold, predicted = pair
        return server.client.post("/v1/score", json={"gold_pddl": gold, "pddl": predicted})

    with ThreadPoolExecutor(8) as pool:
        responses = list(pool.map(post, pairs))
    for (gold, predicted), response in zip(pairs, responses):
        assert response.status_code == 200, response.text
        assert response.json()["similarity"] == score(gold, predicted).similarity


def test_errors_over_the_wire(server):
    client = server.client
    assert_error(client.post("/v1/score", json={"gold_id": "no-such-domain", "pddl": "x"}), 404,
                 "unknown_domain")
    assert_error(client.get("/v1/runs/no-such-run"), 404, "unknown_run")
    assert_error(client.get("/v1/domains/..%2F..%2Fetc%2Fpasswd"), 404)
    assert_error(client.post("/v1/score", content=b"{", headers={"content-type": "application/json"}),
                 422, "invalid_request")
    assert_error(client.post("/v1/score", json={"gold_id": "blocksworld"}), 422, "invalid_request")
    assert_error(client.post("/v1/score", json={"gold_id": "blocksworld", "response": "no domain"}),
                 422, "no_domain_found")
    big = json.dumps({"pddl": "x" * (1024 * 1024 + 1)}).encode()
    assert_error(client.post("/v1/validate", content=big, headers={"content-type": "application/json"}),
                 413, "payload_too_large")

    def chunks():  # chunked transfer: no Content-Length to check up front
        for _ in range(40):
            yield b" " * 32768

    assert_error(client.post("/v1/validate", content=chunks(),
                             headers={"content-type": "application/json"}), 413)
    assert_error(client.get("/v1/validate"), 405)
    assert client.get("/healthz").status_code == 200  # still serving after all that


def small_job(client, path: str, body: dict, tries: int = 5):
    """A small job under a 0.05 s limit: answered, or stopped by the limit on a loaded machine
    (a fresh scoring process is slow at first) and then answered on a later try. Anything else
    (a 500, a 503, a dead worker) fails."""
    for _ in range(tries):
        response = client.post(path, json=body)
        if response.status_code == 200:
            return response
        assert_error(response, 422, "scoring_timeout")
    raise AssertionError(f"{path}: {tries} tries all stopped by the 0.05 s limit")


def test_two_workers_configured_by_flags_and_environment(tmp_path):
    port = free_port()
    args = t2w_command() + ["serve", "--host", "127.0.0.1", "--port", str(port), "--workers", "2",
                            "--score-timeout", "0.05", "--score-processes", "1"]
    env = {"T2W_API_MAX_BODY": "100000", "T2W_HOME": str(tmp_path),
           "T2W_RUNS_DIR": str(tmp_path / "runs")}
    running = Server(args, env, port)
    try:
        # two uvicorn workers, each with its scoring process, under the supervisor
        children = descendants(running.process.pid)
        assert len(children) >= 4
        ok = small_job(running.client, "/v1/validate", {"pddl": "(define (domain d))"})
        assert ok.json()["ok"]
        assert_error(running.client.post("/v1/validate", json={"pddl": "x" * 100_001}), 413)
        huge = huge_domain()
        assert len(huge) < 100_000  # under the body limit, far longer than 0.05 s to parse
        error = assert_error(running.client.post("/v1/validate", json={"pddl": huge}), 422,
                             "scoring_timeout")
        assert error["timeout_seconds"] == 0.05
        small_job(running.client, "/v1/score", {"gold_id": "blocksworld",
                                                "pddl": "(define (domain d))"})
    finally:
        output = running.stop()
    assert "Traceback" not in output, output
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and survivors(children):
        time.sleep(0.1)
    assert not survivors(children), "worker processes outlived the server"


def test_serve_prints_its_url_and_docs(tmp_path):
    """Where to go, as ``t2w view`` says it; on loopback, no word of authentication."""
    port = free_port()
    running = Server(t2w_command() + ["serve", "--host", "127.0.0.1", "--port", str(port),
                                      "--score-processes", "1"],
                     {"T2W_HOME": str(tmp_path), "T2W_RUNS_DIR": str(tmp_path / "runs")}, port)
    output = running.stop()
    assert f"text2world API: http://127.0.0.1:{port}/ (docs: http://127.0.0.1:{port}/docs" in " ".join(output.split())
    assert "no authentication" not in output and "Traceback" not in output, output


@pytest.mark.parametrize("extra, message", [
    (["--workers", "0"], "--workers 0"),
    (["--port", "70000"], "--port 70000"),
    (["--score-timeout", "0"], "T2W_API_SCORE_TIMEOUT"),
    (["--max-body", "-5"], "T2W_API_MAX_BODY"),
    (["--executor", "gpu"], "T2W_API_EXECUTOR"),
    (["--client-rate", "-1"], "T2W_API_CLIENT_RATE"),
    (["--client-burst", "0"], "T2W_API_CLIENT_BURST"),
    (["--demote-after", "-0.5"], "T2W_API_DEMOTE_AFTER"),
    (["--data-dir", "/nonexistent-store"], "not a store folder"),
    (["--host", "no-such-host.invalid"], "cannot be resolved"),
])
def test_serve_rejects_bad_configuration_clearly(extra, message):
    result = CliRunner().invoke(cli, ["serve", "--port", str(free_port())] + extra)
    assert result.exit_code == 1, result.output
    assert message in result.output, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_serve_reports_a_port_in_use():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(t2w_command() + ["serve", "--port", str(port)],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and f"127.0.0.1:{port}" in result.stderr
    assert "Traceback" not in result.stderr


@settings(max_examples=25, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(raw=st.one_of(st.binary(max_size=300),
                     st.builds(lambda d: json.dumps(d).encode(),
                               st.dictionaries(st.sampled_from(["gold_id", "gold_pddl", "pddl",
                                                                "response", "mode"]),
                                               st.one_of(st.text(max_size=80), st.integers(),
                                                         st.none()), max_size=4))),
       path=st.sampled_from(["/v1/score", "/v1/validate"]))
def test_real_server_never_answers_500(server, raw, path):
    response = server.client.post(path, content=raw, headers={"content-type": "application/json"})
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        assert response.json()["error"]["message"]


# -------------------------------------------------------------------------------- hostile clients


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """A server with short deadlines and small limits, to reach each of them quickly."""
    port = free_port()
    home = tmp_path_factory.mktemp("guarded-home")
    args = t2w_command() + ["serve", "--host", "127.0.0.1", "--port", str(port),
                            "--score-processes", "2", "--score-timeout", "1",
                            "--header-timeout", "1", "--client-limit", "2",
                            "--limit-wait", "0",  # past the limit: refused at once
                            "--max-body", "100000", "--demote-after", "0",
                            "--log-level", "warning"]
    running = Server(args, {"T2W_HOME": str(home), "T2W_RUNS_DIR": str(home / "runs")}, port)
    yield running
    output = running.stop()
    assert "Traceback" not in output, output


def _read_until_closed(sock: socket.socket, limit: float = 30.0) -> bytes:
    sock.settimeout(limit)
    data = b""
    while True:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        data += chunk
    return data


def test_slow_request_headers_are_cut_off_with_408(guarded):
    port = int(guarded.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sent = 0
        try:
            for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 200:
                sock.sendall(bytes([byte]))  # one byte every 0.1 s: 23 s for the whole head
                sent += 1
                time.sleep(0.1)
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = _read_until_closed(sock)
    assert sent < 200, "the server kept reading a request head far past its deadline"
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]["code"] == "request_timeout"


def test_a_request_head_over_its_bound_gets_400_and_the_connection_closes(guarded):
    """httptools bounds no request head: the protocol does (``MAX_HEAD_BYTES``), before the
    deadline, so a fast client cannot grow one in memory for the header timeout's length."""
    from text2world.api.server import MAX_HEAD_BYTES

    port = int(guarded.url.rsplit(":", 1)[1])
    fits = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: " + b"a" * (MAX_HEAD_BYTES - 200)
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(fits + b"\r\nConnection: close\r\n\r\n")
        assert _read_until_closed(sock).startswith(b"HTTP/1.1 200")
    with socket.create_connection(("127.0.0.1", port)) as sock:
        try:
            sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            for _ in range(64):  # 64 headers of 1 KB: four times the bound
                sock.sendall(b"X-Pad: " + b"a" * 1024 + b"\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        answer = _read_until_closed(sock)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]


def test_pipelined_requests_are_answered_in_order_and_the_deadline_holds_after(guarded):
    port = int(guarded.url.rsplit(":", 1)[1])
    request = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(request * 3 + b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow:")
        answer = _read_until_closed(sock)  # the deadline (1 s) closes it after the three
    assert answer.count(b"HTTP/1.1 200") == 3
    assert answer.rsplit(b"HTTP/1.1 ", 1)[1].startswith(b"408")


def test_idle_connections_are_closed(guarded):
    port = int(guarded.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        assert _read_until_closed(sock) == b""  # closed without a word: nothing was asked


def test_413_closes_the_connection_instead_of_reading_the_body(guarded):
    port = int(guarded.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port)) as sock:
        sock.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
                     b"content-length: 50000000\r\n\r\n" + b" " * 65536)
        answer = _read_until_closed(sock)  # returns only once the server has closed
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 413") and b"connection: close" in head.lower()
    assert json.loads(body)["error"]["code"] == "payload_too_large"


def test_an_oversized_body_gets_its_413_not_a_reset(guarded):
    """A client sending a body somewhat over the limit reads the 413 every time: the service
    reads and drops a refused body up to 4x the limit before closing (a lingering close),
    declared or streamed; a far larger one is refused unread (the test above)."""
    import httpx

    port = int(guarded.url.rsplit(":", 1)[1])
    body = json.dumps({"pddl": "x" * 350_000}).encode()
    for _ in range(3):  # the whole body sent, and the answer read only a moment later
        with socket.create_connection(("127.0.0.1", port)) as sock:
            sock.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                         b"content-type: application/json\r\n"
                         + f"content-length: {len(body)}\r\n\r\n".encode() + body)
            time.sleep(0.3)
            answer = _read_until_closed(sock)
        assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    with httpx.Client(base_url=guarded.url, timeout=30) as client:
        for index in range(20):
            size = 100_001 + index * 15_000  # up to 385 KB: within 4x the 100 KB limit
            response = client.post("/v1/validate", json={"pddl": "x" * size})
            assert_error(response, 413, "payload_too_large")

        def streamed():
            for _ in range(30):
                yield b" " * 10_000

        response = client.post("/v1/validate", content=streamed(),
                               headers={"content-type": "application/json"})
        assert_error(response, 413, "payload_too_large")


def test_405_has_allow_over_the_wire(guarded):
    response = guarded.client.get("/v1/validate")
    assert_error(response, 405, "method_not_allowed")
    assert response.headers["allow"] == "POST"


def test_a_client_over_its_limit_gets_429_and_a_runaway_job_disturbs_no_one(guarded):
    slow = []
    hostile = threading.Thread(target=lambda: slow.extend(
        guarded.client.post("/v1/validate", json={"pddl": huge_domain()}) for _ in range(2)))
    hostile.start()
    try:
        deadline = time.monotonic() + 60
        while guarded.client.get("/readyz").json()["free"] == 2:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        # While a job runs past its limit (and is killed) beside them, other requests all
        # succeed: nothing is retried, nothing fails.
        for index in range(12):
            ok = guarded.client.post("/v1/score", json={"gold_id": "blocksworld",
                                                        "pddl": "(define (domain d))"})
            assert ok.status_code == 200, (index, ok.text)
    finally:
        hostile.join()
    assert all(response.status_code in (200, 422) for response in slow)
    # Three at once from one address with a limit of two: the third is refused, as JSON.
    with ThreadPoolExecutor(3) as pool:
        first = [pool.submit(guarded.client.post, "/v1/validate", json={"pddl": huge_domain()})
                 for _ in range(2)]
        deadline = time.monotonic() + 60
        while guarded.client.get("/readyz").json()["free"] != 0:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        refused = guarded.client.post("/v1/validate", json={"pddl": "(define (domain d))"})
        for future in first:
            future.result()
    error = assert_error(refused, 429, "too_many_requests")
    assert int(refused.headers["retry-after"]) == error["retry_after"] >= 1
    assert guarded.client.get("/readyz").status_code == 200


@pytest.fixture(scope="module")
def paced(tmp_path_factory):
    """A server that lets each client address send one request every five seconds."""
    port = free_port()
    home = tmp_path_factory.mktemp("paced-home")
    args = t2w_command() + ["serve", "--host", "127.0.0.1", "--port", str(port),
                            "--score-processes", "1", "--client-rate", "0.2", "--client-burst",
                            "1", "--log-level", "warning"]
    running = Server(args, {"T2W_HOME": str(home), "T2W_RUNS_DIR": str(home / "runs")}, port)
    yield running
    output = running.stop()
    assert "Traceback" not in output, output


def _post_raw(port: int, body: bytes, source: str = "127.0.0.1") -> bytes:
    with socket.create_connection(("127.0.0.1", port), source_address=(source, 0)) as sock:
        sock.sendall(b"POST /v1/validate HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json"
                     b"\r\ncontent-length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
        return _read_until_closed(sock)


def test_a_client_over_its_request_rate_gets_429_and_the_connection_closes(paced):
    port = int(paced.url.rsplit(":", 1)[1])
    body = json.dumps({"pddl": "(define (domain d))"}).encode()
    # Another client is active (a client alone is never paced).
    assert _post_raw(port, body, source="127.0.0.2").startswith(b"HTTP/1.1 200")
    assert paced.client.post("/v1/validate", content=body,
                             headers={"content-type": "application/json"}).status_code == 200
    # The next request would have to wait five seconds, past the longest hold (2 s): refused at
    # once, and the server closes the connection rather than read what follows.
    answer = _post_raw(port, body)
    head, _, rest = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 429") and b"connection: close" in head.lower(), head
    error = json.loads(rest)["error"]
    assert error["code"] == "rate_limited" and "T2W_API_CLIENT_RATE" in error["message"]
    retry = int(re.search(rb"retry-after: (\d+)", head.lower()).group(1))
    assert retry == error["retry_after"] and 1 <= retry <= 5
    # Probes are never paced.
    assert all(paced.client.get(path).status_code == 200 for path in ("/healthz", "/readyz"))


# -------------------------------------------------------------------------------- several workers


@pytest.fixture(scope="module")
def two_fronts(tmp_path_factory):
    """Two front processes (uvicorn workers) with a client limit of two requests each."""
    port = free_port()
    home = tmp_path_factory.mktemp("fronts-home")
    args = t2w_command() + ["serve", "--host", "127.0.0.1", "--port", str(port),
                            "--workers", "2", "--score-processes", "1", "--client-limit", "2",
                            "--log-level", "warning"]
    running = Server(args, {"T2W_HOME": str(home), "T2W_RUNS_DIR": str(home / "runs")}, port)
    yield running
    output = running.stop()
    assert "Traceback" not in output, output


def test_a_client_sending_past_its_limit_is_queued_not_refused(two_fronts):
    """Twelve requests at once from one address, over connections the two front processes
    share unevenly, with a limit of two inside each: the requests past the limit wait for
    room (``--limit-wait``) and every one is answered."""
    body = {"pddl": "(define (domain d) (:predicates (p)))"}
    with ThreadPoolExecutor(12) as pool:
        clients = [httpx.Client(base_url=two_fronts.url, timeout=60) for _ in range(12)]
        try:
            answers = list(pool.map(lambda c: c.post("/v1/validate", json=body), clients))
        finally:
            for client in clients:
                client.close()
    assert [answer.status_code for answer in answers] == [200] * 12, \
        [answer.text for answer in answers if answer.status_code != 200]


def test_a_batch_streams_its_results_as_json_lines_in_order(two_fronts):
    domain = load_dataset().get("gripper").domain
    items = [{"id": f"item-{index}", "gold_id": "gripper",
              "response": drop_action(domain, seed=index) if index % 2 else domain}
             for index in range(5)]
    whole = two_fronts.client.post("/v1/score/batch", json={"items": items})
    assert whole.status_code == 200, whole.text
    lines = []
    with two_fronts.client.stream("POST", "/v1/score/batch", json={"items": items},
                                  headers={"Accept": "application/x-ndjson"}) as streamed:
        assert streamed.status_code == 200
        assert streamed.headers["content-type"].startswith("application/x-ndjson")
        lines = [json.loads(line) for line in streamed.iter_lines() if line]
    assert lines == whole.json()["results"]
    assert [line["id"] for line in lines] == [item["id"] for item in items]
    bad = two_fronts.client.post("/v1/score/batch", headers={"Accept": "application/x-ndjson"},
                                 json={"items": [{"id": "x", "gold_id": "no-such",
                                                  "response": "r"}]})
    assert_error(bad, 422, "invalid_item")  # refused before the stream starts
