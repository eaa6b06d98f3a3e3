"""Fairness of ``t2w serve`` under many clients, on loopback (issue 46, item 4).

``--flooders`` client addresses (127.0.0.2, 127.0.0.3, ...) each keep ``--connections``
keep-alive connections sending semantic scoring jobs (each a different renaming of a store
domain, so no cache answers them) for as long as the well-behaved client runs, at most
``--flood-requests`` each. The well-behaved client (127.0.0.254) sends ``--requests`` scoring
requests one after the other, each waiting at most ``--timeout`` seconds for its answer. The
figure is the well-behaved client's answered share (HTTP 200), with its latencies, and what
the flood got back. Target: >= 90 % answered with 50 flooders.

    python bench/many_clients_bench.py [--flooders 50] [--requests 30] [--processes 2]

The last line is ``answered_share=<fraction>`` (tests/service/test_many_clients.py reads it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

from api_bench import _read_response, _request, start_server, stop_server  # noqa: E402

from text2world import load_dataset  # noqa: E402
from text2world.pddl.perturb import rename_variables  # noqa: E402

POLITE = "127.0.0.254"


def flood_bodies(count: int) -> list[bytes]:
    """Semantic scoring jobs, no two alike (renamed variables by seed)."""
    records = [r for r in load_dataset() if r.problems][:8]
    return [_request("/v1/score", {
        "gold_id": records[i % len(records)].id, "semantic": True,
        "pddl": rename_variables(records[i % len(records)].domain, seed=1000 + i)})
        for i in range(count)]


def polite_bodies(count: int) -> list[bytes]:
    record = next(r for r in load_dataset() if r.id == "blocksworld")
    return [_request("/v1/score", {"gold_id": record.id, "mode": "canonical",
                                   "pddl": rename_variables(record.domain, seed=i)})
            for i in range(count)]


async def _exchange(port: int, source: str, raw: bytes, connection: list, timeout: float
                    ) -> int | str:
    """One request on a kept connection (opened again when the server closed it): its status,
    with the error code for a refusal (``503 server_busy``)."""
    if not connection:
        connection[:] = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    reader, writer = connection
    try:
        writer.write(raw)
        await writer.drain()
        status, body, closing = await asyncio.wait_for(_read_response(reader), timeout)
    except (asyncio.IncompleteReadError, ConnectionError, asyncio.TimeoutError, OSError) as err:
        writer.close()
        connection.clear()
        return "timeout" if isinstance(err, asyncio.TimeoutError) else "closed"
    if closing:
        writer.close()
        connection.clear()
    if status != 200:
        try:
            return f"{status} {json.loads(body)['error']['code']}"
        except (ValueError, KeyError, TypeError):
            return status
    return status


async def flooder(port: int, source: str, bodies: list[bytes], offset: int, limit: int,
                  done: asyncio.Event, statuses: Counter) -> None:
    connection: list = []
    for index in range(limit):
        if done.is_set():
            break
        status = await _exchange(port, source, bodies[(offset + index) % len(bodies)],
                                 connection, 120)
        statuses[status] += 1
        if status not in (200, "closed", "timeout"):
            await asyncio.sleep(0.05)  # a refusal: try again soon, as a flood does
    if connection:
        connection[1].close()


async def polite(port: int, bodies: list[bytes], timeout: float, statuses: Counter,
                 latencies: list[float]) -> None:
    connection: list = []
    for raw in bodies:
        started = time.perf_counter()
        status = await _exchange(port, POLITE, raw, connection, timeout)
        statuses[status] += 1
        if status == 200:
            latencies.append(time.perf_counter() - started)
        await asyncio.sleep(0.1)  # a client that reads its answer before asking again
    if connection:
        connection[1].close()


async def run(port: int, args: argparse.Namespace) -> tuple[Counter, list[float], Counter]:
    flood = flood_bodies(max(64, args.flooders * 2))
    done = asyncio.Event()
    flood_statuses: Counter = Counter()
    tasks = [asyncio.create_task(flooder(port, f"127.0.0.{2 + f}", flood, f * 7 + c,
                                         args.flood_requests, done, flood_statuses))
             for f in range(args.flooders) for c in range(args.connections)]
    await asyncio.sleep(args.warmup)  # the flood is on before the well-behaved client comes
    statuses: Counter = Counter()
    latencies: list[float] = []
    await polite(port, polite_bodies(args.requests), args.timeout, statuses, latencies)
    done.set()
    await asyncio.gather(*tasks)
    return statuses, latencies, flood_statuses


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--flooders", type=int, default=50, help="flooding client addresses")
    parser.add_argument("--connections", type=int, default=4, help="connections per flooder")
    parser.add_argument("--flood-requests", type=int, default=40,
                        help="at most this many requests per flooding connection")
    parser.add_argument("--requests", type=int, default=30, help="the well-behaved client's")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds the well-behaved client waits for an answer")
    parser.add_argument("--processes", type=int, default=2, help="scoring processes")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of flood first")
    args = parser.parse_args()
    if not 1 <= args.flooders <= 250:
        parser.error("--flooders: 1 to 250 (one 127.0.0.x address each)")
    process, port, _ = start_server(1, args.processes, None)
    try:
        statuses, latencies, flood = asyncio.run(run(port, args))
    finally:
        stop_server(process)
    answered = statuses[200]
    share = answered / args.requests
    shown = ", ".join(f"{k}: {v}" for k, v in sorted(statuses.items(), key=str))
    print(f"{args.flooders} flooders x {args.connections} connections of semantic jobs, "
          f"{args.processes} scoring processes")
    print(f"well-behaved client: {answered}/{args.requests} answered ({100 * share:.1f} %); "
          f"statuses {shown}")
    if latencies:
        print(f"  latency p50 {statistics.median(latencies):.2f} s, "
              f"worst {max(latencies):.2f} s")
    print("flood got: " + ", ".join(f"{k}: {v}" for k, v in sorted(flood.items(), key=str)))
    print(f"answered_share={share:.3f}")


if __name__ == "__main__":
    main()
