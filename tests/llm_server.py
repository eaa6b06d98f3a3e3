"""A real OpenAI-compatible HTTP server on 127.0.0.1 with scripted answers, for the eval tests
and the benchmark.

Each request is matched to a *script* by a marker (a unique domain name that appears in the
generation prompt, and in the previous domain quoted by correction prompts). The round of a
request is read from the correction prompt ("Round N"), so answers depend on the round, not
on how many requests came before (a killed and resumed run sees the same answers). Faults
(HTTP 429, 500, answers slower than the client's timeout) are consumed per request, before the
scripted answer. Every request is recorded.

    server = ScriptedLLMServer({"gripper-x": Script(answers=[broken, fixed], faults=["429"])})
    server.start(); ... server.url -> "http://127.0.0.1:PORT/v1"; server.stop()

``python tests/llm_server.py --latency 0.2`` serves the built-in store's gold domains (for
trying ``t2w eval --api-base`` by hand).
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

_ROUND = re.compile(r"^Round (\d+)\r?\nDomain with errors:", re.MULTILINE)


@dataclass
class Script:
    answers: list[str]  # answer content for round 0, 1, ... (the last one repeats)
    # "429", "500", "401", "slow" per request; "401-echo" (any status): an error whose message
    # quotes the key sent, whole and as OpenAI shows it (``sk-abc1****wxyz``), as providers do
    faults: list[str] = field(default_factory=list)
    reasoning: str | None = None  # sent as reasoning_content (reasoning models)
    # agent requests (with ``tools``): the tool calls of step 0, 1, ... (a step is a request;
    # its index is the number of tool answers in it), each {"name", "arguments": {...}};
    # past the last step, or without tools offered, the scripted answer
    tool_calls: list[list[dict]] = field(default_factory=list)


@dataclass
class Seen:
    marker: str | None
    round: int
    body_hash: str
    status: int
    answered: bool
    at: float
    fault: str | None = None
    done_at: float | None = None  # when the answer (or error) was sent
    headers: dict = field(default_factory=dict)  # names lower-cased
    prompt_tokens: int = 0  # the usage the answer reported
    completion_tokens: int = 0
    held: bool = False  # held by hold_after until release()


def request_round(prompt: str) -> int:
    rounds = [int(m.group(1)) for m in _ROUND.finditer(prompt)]
    return max(rounds) if rounds else 0


class ScriptedLLMServer:
    def __init__(self, scripts: dict[str, Script], latency: float = 0.0,
                 slow_seconds: float = 2.0, default: Script | None = None) -> None:
        self.scripts = scripts
        self.latency = latency
        self.slow_seconds = slow_seconds
        self.default = default
        self.requests: list[Seen] = []
        self.bodies: list[dict] = []
        self._faults_used: dict[str, int] = {}
        self._lock = threading.Lock()
        self._hold_after: int | None = None
        self._hold_at: tuple[str, int] | None = None
        self._released = threading.Event()
        self._released.set()
        self.held = threading.Event()  # set once a request is being held
        self._closing = False
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- control

    @property
    def url(self) -> str:
        assert self._httpd is not None
        return f"http://127.0.0.1:{self._httpd.server_address[1]}/v1"

    def start(self) -> "ScriptedLLMServer":
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:  # keep test output clean
                pass

            def do_POST(self) -> None:  # noqa: N802
                server._handle(self)

            def do_GET(self) -> None:  # noqa: N802
                server._send(self, 200, {"object": "list", "data": [{"id": "test-model"}]})

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop listening; a held request is answered and every open connection is closed,
        so the next request of a client is refused (a server that went away)."""
        self._closing = True
        self._released.set()
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()

    def __enter__(self) -> "ScriptedLLMServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()

    def hold_after(self, answered: int) -> None:
        """Answer ``answered`` requests, then hold every later one until ``release()``."""
        with self._lock:
            self._hold_after = answered
            self._released.clear()

    def hold_at(self, marker: str, round_index: int) -> None:
        """Hold only the request of script ``marker`` at round ``round_index`` until
        ``release()``; every other request is answered. A killed run then has exactly that item
        in flight, with its earlier rounds answered (and cached), whatever the scheduling."""
        with self._lock:
            self._hold_at = (marker, round_index)
            self._released.clear()

    def release(self) -> None:
        with self._lock:
            self._hold_after = None
            self._hold_at = None
        self._released.set()

    def answered(self) -> list[Seen]:
        with self._lock:
            return [r for r in self.requests if r.answered]

    def settled(self) -> bool:
        """Every request so far is answered or held: no answer is still on its way. A test
        that snapshots what was answered before killing the client waits for this first, or a
        request admitted just before the hold is answered after the snapshot."""
        with self._lock:
            # an error reply (404, scripted faults) is final once its status is set
            return all(r.held or r.done_at is not None or r.status not in (0, 200)
                       for r in self.requests)

    def wait_until(self, predicate, timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if predicate():
                return True
            time.sleep(0.02)
        return False

    # ---- serving

    def _match(self, prompt: str) -> tuple[str | None, Script | None]:
        # The longest marker wins, so "grid" never shadows "grid-keys".
        for marker in sorted(self.scripts, key=len, reverse=True):
            if marker in prompt:
                return marker, self.scripts[marker]
        return None, self.default

    def _handle(self, handler: BaseHTTPRequestHandler) -> None:
        length = int(handler.headers.get("Content-Length") or 0)
        raw = handler.rfile.read(length)
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            self._send(handler, 400, {"error": {"message": "invalid JSON"}})
            return
        messages = body.get("messages") or []
        prompt = "\n".join(str(m.get("content", "")) for m in messages)
        marker, script = self._match(prompt)
        round_index = request_round(prompt)
        body_hash = hashlib.sha256(json.dumps({k: v for k, v in body.items()
                                               if k not in ("user", "metadata")},
                                              sort_keys=True).encode()).hexdigest()
        with self._lock:
            self.bodies.append(body)
            fault = None
            if script is not None:
                used = self._faults_used.get(marker or "", 0)
                if used < len(script.faults):
                    fault = script.faults[used]
                    self._faults_used[marker or ""] = used + 1
            hold = fault is None and (
                (self._hold_after is not None
                 and sum(1 for r in self.requests if r.answered) >= self._hold_after)
                or self._hold_at == (marker, round_index))
            record = Seen(marker, round_index, body_hash, 0, False, time.time(), fault,
                          headers={k.lower(): v for k, v in handler.headers.items()})
            self.requests.append(record)
        if hold:
            record.held = True
            self.held.set()
            self._released.wait()
        if self.latency:
            time.sleep(self.latency)
        if script is None:
            record.status = 404
            self._send(handler, 404, {"error": {"message": "no script for this prompt",
                                                "type": "invalid_request_error"}})
            return
        if fault is not None and fault.endswith("-echo"):
            record.status = int(fault.split("-")[0])
            key = handler.headers.get("Authorization", "").removeprefix("Bearer ").strip()
            self._send(handler, record.status, {"error": {
                "message": f"Incorrect API key provided: {key}. Shown in your account as "
                           f"{key[:8]}{'*' * 20}{key[-4:]}.", "type": "invalid_request_error",
                "code": "invalid_api_key"}})
            return
        if fault is not None and fault.isdigit():  # "429", "500", "401", ...
            record.status = int(fault)
            kind = {"429": "rate_limit_error", "401": "authentication_error"}.get(
                fault, "server_error")
            self._send(handler, int(fault), {"error": {"message": f"scripted HTTP {fault}",
                                                       "type": kind}})
            return
        if fault == "slow":
            time.sleep(self.slow_seconds)
        content = script.answers[min(round_index, len(script.answers) - 1)]
        message: dict = {"role": "assistant", "content": content}
        step = sum(1 for m in messages if m.get("role") == "tool")
        if body.get("tools") and step < len(script.tool_calls):
            message = {"role": "assistant", "content": None, "tool_calls": [
                {"id": f"call_{step}_{index}", "type": "function",
                 "function": {"name": call["name"], "arguments": json.dumps(call["arguments"])}}
                for index, call in enumerate(script.tool_calls[step])]}
            content = json.dumps(message["tool_calls"])
        if script.reasoning is not None:
            message["reasoning_content"] = script.reasoning
        reply = {
            "id": f"chatcmpl-{len(self.requests)}", "object": "chat.completion",
            "created": int(time.time()), "model": body.get("model", "test-model"),
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}],
            "usage": {"prompt_tokens": len(prompt) // 4, "completion_tokens": len(content) // 4,
                      "total_tokens": len(prompt) // 4 + len(content) // 4},
        }
        record.status = 200
        record.prompt_tokens = reply["usage"]["prompt_tokens"]
        record.completion_tokens = reply["usage"]["completion_tokens"]
        record.answered = self._send(handler, 200, reply) and fault != "slow"
        record.done_at = time.time()

    def _send(self, handler: BaseHTTPRequestHandler, status: int, payload: dict) -> bool:
        data = json.dumps(payload).encode()
        try:
            handler.send_response(status)
            if self._closing:
                handler.send_header("Connection", "close")
                handler.close_connection = True
            handler.send_header("Content-Type", "application/json")
            handler.send_header("Content-Length", str(len(data)))
            handler.end_headers()
            handler.wfile.write(data)
            handler.wfile.flush()
            return True
        except (BrokenPipeError, ConnectionResetError):
            return False  # the client gave up (timeout): not an answer


# --------------------------------------------------------------------------------------------
# Small domains and a store folder for tests


def forbid_network(monkeypatch) -> list:
    """Make every connection or DNS lookup that is not to 127.0.0.1 fail; returns the list of
    attempts (a test asserts it stays empty: litellm must not reach the network)."""
    import socket

    attempts: list = []
    real_connect = socket.socket.connect
    real_getaddrinfo = socket.getaddrinfo
    local = ("127.0.0.1", "::1", "localhost")

    def guarded_connect(self, address):
        host = address[0] if isinstance(address, tuple) else address
        if host not in local and not str(host).startswith("/"):
            attempts.append(address)
            raise OSError(f"test forbids network access to {address}")
        return real_connect(self, address)

    def guarded_getaddrinfo(host, *args, **kwargs):
        if host not in local and host is not None:
            attempts.append(host)
            raise OSError(f"test forbids DNS lookups of {host}")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket.socket, "connect", guarded_connect)
    monkeypatch.setattr(socket, "getaddrinfo", guarded_getaddrinfo)
    return attempts


def priced_home(home: Path, price_in: float, price_out: float) -> Path:
    """A ``$T2W_HOME`` whose ``models.toml`` has ``priced-test``: the loopback server's model
    with a price per million tokens (so paid-call ledgers add up to known costs)."""
    home.mkdir(parents=True, exist_ok=True)
    (home / "models.toml").write_text(
        '[models.priced-test]\nmodel = "openai/test-model"\napi_key_env = ""\n'
        f"input_cost_per_mtok = {price_in}\noutput_cost_per_mtok = {price_out}\n")
    return home


def pddl_answer(domain: str, preface: str = "Here is the domain.") -> str:
    return f"{preface}\n\n```pddl\n{domain.strip()}\n```\n"


def small_domain(name: str, actions: int = 2) -> str:
    """A small valid typed domain named ``name``."""
    parts = [f"(define (domain {name})",
             "  (:requirements :strips :typing)",
             "  (:types thing place)",
             "  (:predicates (at ?t - thing ?p - place) (free ?t - thing) (linked ?a ?b - place))"]
    for index in range(actions):
        parts.append(f"  (:action move{index}\n"
                     "    :parameters (?t - thing ?from - place ?to - place)\n"
                     "    :precondition (and (at ?t ?from) (free ?t) (linked ?from ?to))\n"
                     "    :effect (and (at ?t ?to) (not (at ?t ?from))))")
    parts.append(")")
    return "\n".join(parts) + "\n"


def write_store(root: Path, names: list[str], actions: int = 2) -> Path:
    """A store folder (domains/, descriptions/) with one small domain per name."""
    for name in names:
        (root / "domains").mkdir(parents=True, exist_ok=True)
        (root / "domains" / f"{name}.pddl").write_text(small_domain(name, actions))
        folder = root / "descriptions" / name
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "abstract.md").write_text(
            f"Domain {name}: things move between linked places.\n")
        (folder / "concrete.md").write_text(
            f"Domain {name}: a thing ?t at place ?from moves to a linked place ?to if free.\n")
    return root


def broken_parenthesis(domain: str) -> str:
    index = domain.rstrip().rfind(")")
    return domain[:index] + domain[index + 1:]


def undefined_predicate(domain: str) -> str:
    return domain.replace("(free ?t)", "(unknown-pred ?t)", 1)


if __name__ == "__main__":  # pragma: no cover - manual use
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args()
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from text2world.store.datasets import load_dataset

    gold = {record.domain.split("(domain", 1)[1].split(")", 1)[0].strip(): record.domain
            for record in load_dataset()}
    server = ScriptedLLMServer({name: Script([pddl_answer(text)]) for name, text in gold.items()},
                               latency=args.latency).start()
    print(f"serving {len(gold)} gold domains at {server.url} (Ctrl-C to stop)")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        server.stop()
