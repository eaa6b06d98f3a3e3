"""Load benchmark of the REST scoring service on loopback.

Starts ``t2w serve`` with 1 and then 2 workers on 127.0.0.1, drives a bounded number of
concurrent ``POST /v1/score`` requests for a fixed time, and prints requests/s, p50/p99
latency and the ratio to the in-process rate of the same library work measured in this run
(``api.jobs.score_job``: extract, score, validate; one core). Targets from the issue:
throughput >= 0.8 x min(workers, cores) x single-core rate, p99 <= 3 x p50.

    python bench/api_bench.py [--seconds 12] [--workers 1,2] [--mode paper]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from api.jobs import score_job  # noqa: E402
from text2world import load_dataset  # noqa: E402
from text2world.perturb import drop_action, rename_variables  # noqa: E402


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


def in_process_rate(bodies: list[dict], seconds: float, job_times: list | None = None) -> float:
    """Jobs per second of the endpoint's library work on one core, gold caches warm."""
    tasks = [{"gold": b["_gold"], "pddl": b["pddl"], "response": None, "mode": b["mode"]}
             for b in bodies]
    for task in tasks:  # warm, as the server's caches are warm after its first requests
        score_job(task)
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        job_started = time.perf_counter()
        score_job(tasks[done % len(tasks)])
        if job_times is not None:
            job_times.append(time.perf_counter() - job_started)
        done += 1
    return done / (time.perf_counter() - started)


def _parallel_worker(args: tuple[list[dict], float]) -> float:
    bodies, seconds = args
    return in_process_rate(bodies, seconds)


def in_process_parallel_rate(bodies: list[dict], seconds: float, processes: int) -> float:
    """The same work in ``processes`` processes at once: what the machine gives right now
    (it is shared, so this can be well below processes x the one-core rate)."""
    context = multiprocessing.get_context("spawn")
    with context.Pool(processes) as pool:
        return sum(pool.map(_parallel_worker, [(bodies, seconds)] * processes))


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(workers: int) -> tuple[subprocess.Popen, str]:
    port = free_port()
    t2w = Path(sys.executable).parent / "t2w"
    command = [str(t2w) if t2w.exists() else "t2w", "serve", "--host", "127.0.0.1",
               "--port", str(port), "--workers", str(workers), "--log-level", "warning"]
    process = subprocess.Popen(command, start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"t2w serve exited: {process.stderr.read().decode(errors='replace')}")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return process, url
        except httpx.TransportError:
            pass
        time.sleep(0.2)
    stop_server(process)
    raise SystemExit("t2w serve did not start within 90 s")


def stop_server(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)  # the server's own process group
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


async def load(url: str, bodies: list[dict], concurrency: int, seconds: float,
               workers: int) -> dict:
    wire = [{k: v for k, v in body.items() if not k.startswith("_")} for body in bodies]
    latencies: list[float] = []
    failures = 0
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
        # Warm every worker's gold cache with each gold (requests land on workers at random).
        warm = [client.post("/v1/score", json=body) for body in wire for _ in range(workers)]
        for response in await asyncio.gather(*warm):
            response.raise_for_status()
        counter = 0
        stop_at = time.perf_counter() + seconds

        async def user() -> None:
            nonlocal counter, failures
            while time.perf_counter() < stop_at:
                body = wire[counter % len(wire)]
                counter += 1
                started = time.perf_counter()
                response = await client.post("/v1/score", json=body)
                if response.status_code == 200:
                    latencies.append(time.perf_counter() - started)
                else:
                    failures += 1

        started = time.perf_counter()
        await asyncio.gather(*(user() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    latencies.sort()
    return {"requests": len(latencies), "failures": failures, "rps": len(latencies) / elapsed,
            "p50": statistics.median(latencies),
            "p99": latencies[min(len(latencies) - 1, int(0.99 * len(latencies)))]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="load time per server")
    parser.add_argument("--workers", default="1,2", help="worker counts to measure")
    parser.add_argument("--domains", type=int, default=12, help="distinct gold domains used")
    parser.add_argument("--mode", default="paper", choices=("paper", "canonical"))
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    bodies = payloads(args.domains, args.mode)
    in_process_seconds = min(args.seconds, 4.0)
    print(f"cores: {cores} (load average {os.getloadavg()[0]:.1f} before the run, other "
          f"processes included); {len(bodies)} store domains; mode {args.mode}")
    job_times: list[float] = []
    in_process_rate(bodies, 2.0, job_times)
    job_times.sort()
    job_p50 = statistics.median(job_times)
    job_p99 = job_times[min(len(job_times) - 1, int(0.99 * len(job_times)))]
    print(f"in-process job time over these domains: p50 {job_p50 * 1000:.1f} ms, p99 "
          f"{job_p99 * 1000:.1f} ms (p99/p50 {job_p99 / job_p50:.2f}: the domains differ in size)")
    print("1-core/s: the endpoint's library work (extract, score, validate) in process on one "
          "core, measured right before and after each server run; all-cores/s: the same work in "
          f"{cores} processes at once (the machine is shared, so this is what it gives now)")
    print(f"{'workers':>7} {'conc':>4} {'req':>5} {'fail':>4} {'req/s':>7} {'p50 ms':>7} "
          f"{'p99 ms':>7} {'p99/p50':>7} {'1-core/s':>8} {'ratio':>6} {'target':>6} "
          f"{'all-cores/s':>11} {'ratio':>6}")
    for workers in (int(w) for w in args.workers.split(",")):
        process, url = start_server(workers)
        try:
            before = in_process_rate(bodies, in_process_seconds)
            parallel = in_process_parallel_rate(bodies, in_process_seconds, cores)
            # Two requests in flight per core: one scoring, one queued, so no core waits for
            # the client and latency stays a bounded multiple of one job. The same load for
            # every worker count keeps the runs comparable.
            concurrency = 2 * cores
            result = asyncio.run(load(url, bodies, concurrency, args.seconds, workers))
            after = in_process_rate(bodies, in_process_seconds)
        finally:
            stop_server(process)
        single = (before + after) / 2
        ratio = result["rps"] / single
        target = 0.8 * cores
        verdict = "ok" if ratio >= target and result["p99"] <= 3 * result["p50"] else "MISS"
        print(f"{workers:>7} {concurrency:>4} {result['requests']:>5} {result['failures']:>4} "
              f"{result['rps']:>7.1f} {result['p50'] * 1000:>7.1f} {result['p99'] * 1000:>7.1f} "
              f"{result['p99'] / result['p50']:>7.2f} {single:>8.1f} {ratio:>5.2f}x "
              f"{target:>5.1f}x {parallel:>11.1f} {result['rps'] / parallel:>5.2f}x {verdict}")


if __name__ == "__main__":
    main()
