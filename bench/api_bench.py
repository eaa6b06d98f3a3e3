"""Load benchmark of the REST scoring service on loopback, against in-process scoring.

For a core count N and a worker layout, in one run:

1. the in-process rate: ``service.jobs.score_job`` (extract, score, validate: the work behind one
   ``POST /v1/score``) in N processes at once, gold caches warm, measured before and after the
   server runs (their mean is the reference);
2. ``t2w serve`` with default settings (``--workers W``; with N below the machine's cores the
   server and the in-process processes are pinned to N cores): a bounded load of keep-alive
   connections from a light raw-socket client for a fixed time: req/s, p50/p99, ratio to (1);
3. the same load with ``--hostile`` more connections from another address (127.0.0.2)
   sending 40 KB bodies of semicolons in a loop: legitimate req/s kept, and what the hostile
   connections got back (then a clean phase once the per-client rate's window has passed:
   while another client is active, each is paced to ``T2W_API_CLIENT_RATE``).

Targets (issue 15): ratio >= 0.8 and p99 <= 3 x p50. Issue 9: legitimate throughput with the
hostile connections >= 0.7 of without.

    python bench/api_bench.py [--cores N] [--workers 1] [--seconds 10] [--hostile 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from text2world import load_dataset  # noqa: E402
from text2world.api.limits import RATE_WINDOW  # noqa: E402
from text2world.pddl.perturb import drop_action, rename_variables  # noqa: E402
from text2world.service.jobs import score_job  # noqa: E402


def payloads(limit: int, mode: str) -> list[dict]:
    """Store gold ids with generated-looking predictions: renamed variables, a dropped action."""
    records = list(load_dataset())[:limit]
    bodies = []
    for index, record in enumerate(records):
        predicted = rename_variables(record.domain, seed=index)
        if index % 3 == 0:
            predicted = drop_action(predicted, seed=index)
        bodies.append({"gold_id": record.id, "pddl": predicted, "mode": mode,
                       "_gold": record.domain})
    return bodies


# ------------------------------------------------------------------------------ in process


def _worker(args) -> float:
    seconds, tasks, cores, offset = args
    if cores:
        os.sched_setaffinity(0, cores)
    tasks = tasks[offset:] + tasks[:offset]
    for task in tasks:  # warm, as the server's caches are warm after its first requests
        score_job(task)
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        score_job(tasks[done % len(tasks)])
        done += 1
    return done / (time.perf_counter() - started)


def in_process_rate(bodies: list[dict], seconds: float, processes: int,
                    cores: list[int] | None) -> float:
    """Jobs per second of the endpoint's library work in ``processes`` processes at once."""
    tasks = [{"gold": b["_gold"], "pddl": b["pddl"], "response": None, "mode": b["mode"]}
             for b in bodies]
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        return sum(pool.map(_worker, [(seconds, tasks, cores, i) for i in range(processes)]))


# ------------------------------------------------------------------------------ the server


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(workers: int, processes: int | None, cores: list[int] | None,
                 warm: bool = False) -> tuple[subprocess.Popen, int, float]:
    """``t2w serve`` on a free port, once /readyz answers 200; also the seconds that took."""
    port = free_port()
    t2w = Path(sys.executable).parent / "t2w"
    command = ([str(t2w)] if t2w.exists() else [sys.executable, "-m", "text2world.cli"]) + [
        "serve", "--host", "127.0.0.1", "--port", str(port), "--workers", str(workers),
        "--log-level", "warning"]
    if processes is not None:
        command += ["--score-processes", str(processes)]
    if warm:
        command.append("--warm")
    started = time.perf_counter()
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE,
                               preexec_fn=(lambda: os.sched_setaffinity(0, cores)) if cores else None)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"t2w serve exited: {process.stderr.read().decode(errors='replace')}")
        try:
            status, _ = asyncio.run(_one_request(port, b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
            if status == 200:
                return process, port, time.perf_counter() - started
        except OSError:
            pass
        time.sleep(0.2)
    stop_server(process)
    raise SystemExit("t2w serve was not ready within 120 s")


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)  # the server's own process group
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def front_pids(server: int, workers: int) -> list[int]:
    """The processes that answer HTTP: ``t2w serve`` itself, or with ``--workers N`` the N
    processes uvicorn spawns (its children started by ``multiprocessing.spawn``)."""
    if workers == 1:
        return [server]
    children = []
    for task in Path(f"/proc/{server}/task").iterdir():
        children += (task / "children").read_text().split()
    return [int(pid) for pid in children
            if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()]


# ------------------------------------------------------------------------------ load client


def _request(path: str, body: dict) -> bytes:
    data = json.dumps(body).encode()
    return (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            f"content-length: {len(data)}\r\n\r\n").encode() + data


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    body = await reader.readexactly(int(headers.get("content-length", "0")))
    return status, body, headers.get("connection", "").lower() == "close"


async def _one_request(port: int, raw: bytes) -> tuple[int, bytes]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(raw)
        await writer.drain()
        status, body, _ = await _read_response(reader)
        return status, body
    finally:
        writer.close()


async def _connection(port: int, requests: list[bytes], stop_at: float, offset: int,
                      latencies: list[float] | None, statuses: Counter,
                      source: str | None = None) -> None:
    local = (source, 0) if source else None
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=local)
    index = offset
    try:
        while time.perf_counter() < stop_at:
            raw = requests[index % len(requests)]
            index += 1
            started = time.perf_counter()
            writer.write(raw)
            await writer.drain()
            try:
                status, _, closing = await asyncio.wait_for(
                    _read_response(reader), max(0.1, stop_at - time.perf_counter() + 30))
            except (asyncio.IncompleteReadError, ConnectionError, asyncio.TimeoutError):
                statuses["closed"] += 1
                closing = True
                status = None
            finished = time.perf_counter()
            if status is not None and finished <= stop_at:  # the phase's own answers only
                statuses[status] += 1
                if status == 200 and latencies is not None:
                    latencies.append(finished - started)
            if closing:
                writer.close()
                reader, writer = await asyncio.open_connection("127.0.0.1", port,
                                                               local_addr=local)
    finally:
        writer.close()


async def load(port: int, requests: list[bytes], connections: int, seconds: float,
               hostile: list[bytes], hostile_connections: int) -> dict:
    latencies: list[float] = []
    statuses: Counter = Counter()
    hostile_statuses: Counter = Counter()
    started = time.perf_counter()
    stop_at = started + seconds
    tasks = [_connection(port, requests, stop_at, i * 7, latencies, statuses)
             for i in range(connections)]
    tasks += [_connection(port, hostile, stop_at, i, None, hostile_statuses, "127.0.0.2")
              for i in range(hostile_connections)]
    # Hostile requests still running at the end are waited for (their answers are not counted).
    await asyncio.gather(*tasks)
    latencies.sort()
    ok = len(latencies)
    return {"ok": ok, "rps": ok / seconds, "statuses": statuses, "hostile": hostile_statuses,
            "latencies": latencies,
            "p50": statistics.median(latencies) if latencies else float("nan"),
            "p99": latencies[min(ok - 1, int(0.99 * ok))] if latencies else float("nan")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1,
                        help="cores to use (default: all); below all, everything is pinned")
    parser.add_argument("--workers", type=int, default=1, help="t2w serve --workers")
    parser.add_argument("--seconds", type=float, default=10.0, help="load time per phase")
    parser.add_argument("--hostile-seconds", type=float, default=25.0,
                        help="load time of the phase with hostile connections")
    parser.add_argument("--connections", type=int, default=0,
                        help="legitimate keep-alive connections (default 4 per core)")
    parser.add_argument("--hostile", type=int, default=4, help="hostile connections (0: skip)")
    parser.add_argument("--domains", type=int, default=12, help="distinct gold domains used")
    parser.add_argument("--mode", default="paper", choices=("paper", "canonical"))
    parser.add_argument("--no-startup", dest="startup", action="store_false",
                        help="skip timing a --warm start")
    args = parser.parse_args()
    available = sorted(os.sched_getaffinity(0))
    cores = available[:args.cores] if args.cores < len(available) else None
    count = len(cores) if cores else len(available)
    connections = args.connections or 4 * count
    bodies = payloads(args.domains, args.mode)
    requests = [_request("/v1/score", {k: v for k, v in b.items() if not k.startswith("_")})
                for b in bodies]
    hostile = [_request("/v1/score", {"gold_id": bodies[0]["gold_id"], "mode": "paper",
                                      "pddl": "(define (domain x) " + ";" * 40_000 + ")"})]
    in_seconds = min(args.seconds, 5.0)
    print(f"cores: {count} of {len(available)} (load average {os.getloadavg()[0]:.1f} before the "
          f"run, other processes included); workers {args.workers}; {len(bodies)} store domains; "
          f"mode {args.mode}; {connections} keep-alive connections")
    # Phases interleaved so that every figure sees the same (shared, noisy) machine:
    # in process, server, in process, server, server under attack, server, in process.
    in_process: list[float] = []
    clean: list[dict] = []
    front_cpu = 0.0
    processes = None if cores is None else max(1, count // args.workers)
    server, port, cold_start = start_server(args.workers, processes, cores)

    fronts = front_pids(server.pid, args.workers)

    def clean_phase() -> None:
        nonlocal front_cpu
        cpu_before = sum(map(_cpu_seconds, fronts))
        clean.append(asyncio.run(load(port, requests, connections, args.seconds, [], 0)))
        front_cpu += sum(map(_cpu_seconds, fronts)) - cpu_before

    attacked = None
    try:
        # Warm each scoring process's gold cache, as the in-process reference is warm.
        asyncio.run(load(port, requests, connections, 2.0, [], 0))
        for _ in range(2):
            in_process.append(in_process_rate(bodies, in_seconds, count, cores))
            clean_phase()
        if args.hostile:
            attacked = asyncio.run(load(port, requests, connections, args.hostile_seconds,
                                        hostile, args.hostile))
            # While another client has sent a request in the last RATE_WINDOW seconds, the
            # legitimate client is paced to its rate (api.limits): the next clean phase starts
            # after that window, as one client alone (it measured the window's pacing before).
            time.sleep(RATE_WINDOW + 1)
            clean_phase()
    finally:
        stop_server(server)
    in_process.append(in_process_rate(bodies, in_seconds, count, cores))
    warm_start = None
    if args.startup:
        warm_server, _, warm_start = start_server(args.workers, processes, cores, warm=True)
        stop_server(warm_server)

    reference = statistics.mean(in_process)
    rps = statistics.mean(phase["rps"] for phase in clean)
    latencies = sorted(x for phase in clean for x in phase["latencies"])
    p50 = statistics.median(latencies)
    p99 = latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]
    ratio, tail = rps / reference, p99 / p50
    statuses = sum((phase["statuses"] for phase in clean), Counter())
    print(f"in process, {count} processes: " + ", ".join(f"{r:.1f}" for r in in_process)
          + f" req/s (mean {reference:.1f})")
    print("server: " + ", ".join(f"{phase['rps']:.1f}" for phase in clean)
          + f" req/s (mean {rps:.1f}) = {ratio:.2f} x in process (target 0.8); "
          f"p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, p99/p50 {tail:.2f} (target 3); "
          f"statuses {dict(statuses)}; {'ok' if ratio >= 0.8 and tail <= 3 else 'MISS'}")
    served = sum(len(phase["latencies"]) for phase in clean)
    print(f"front process{'es' if len(fronts) > 1 else ''} CPU ({len(fronts)}): "
          f"{front_cpu / max(1, served) * 1000:.2f} ms per request "
          f"({front_cpu / (len(clean) * args.seconds):.2f} of a core in all)")
    print(f"start-up until /readyz: {cold_start:.1f} s" + (
        f"; with --warm (every store gold parsed once, shared by all scoring processes): "
        f"{warm_start:.1f} s" if warm_start is not None else ""))
    if attacked is not None:
        around = statistics.mean(phase["rps"] for phase in clean[-2:])
        kept = attacked["rps"] / around
        print(f"with {args.hostile} hostile connections (40 KB of ';' each, from 127.0.0.2) for "
              f"{args.hostile_seconds:g} s: {attacked['rps']:.1f} legitimate req/s = {kept:.2f} "
              f"of the clean phases around it (target 0.7); p50 {attacked['p50'] * 1000:.1f} ms, "
              f"p99 {attacked['p99'] * 1000:.1f} ms; legitimate statuses "
              f"{dict(attacked['statuses'])}; hostile got {dict(attacked['hostile'])}; "
              f"{'ok' if kept >= 0.7 else 'MISS'}")


if __name__ == "__main__":
    main()
