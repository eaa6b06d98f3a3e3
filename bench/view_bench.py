"""How fast the viewer opens a 101-item EC3 run (target: page ready in under 1 s).

Makes (once) a run of the reference noisy oracle over the store's 101 test domains at EC3, and
beside it runs of every other kind (world-model next-state and propose, a contamination probe,
a run that could not connect, a damaged run: ``tests/run_kinds.py``), starts ``t2w view`` on
loopback and measures
* the JSON endpoints (overview, item, diff): first request (log parsed) and warm medians;
* page-ready time in headless Chromium (navigation start to the page rendered with its data) for
  the leaderboard, the run page (first with the server's cache cold) and an item page.

    python bench/view_bench.py [--runs-dir DIR] [--repeat 5]

The run is kept in --runs-dir (default: $T2W_HOME/bench-view-runs) and reused next time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx


def default_home() -> Path:
    return Path(os.environ.get("T2W_HOME") or Path.home() / ".local/share/text2world")


def make_run(runs_dir: Path) -> Path:
    for path in sorted(runs_dir.glob("reference-noisy-oracle__*__ec3__*")):
        if (path / "summary.json").is_file() and sum(1 for _ in (path / "log.jsonl").open()) >= 101:
            return path
    from text2world.tasks.generation.task import EvalOptions, evaluate

    started = time.perf_counter()
    result = evaluate(EvalOptions(model="reference/noisy-oracle", ec=3, runs_root=runs_dir))
    print(f"made the run in {time.perf_counter() - started:.0f} s: {result.run.path}")
    return result.run.path


def make_other_kinds(runs_dir: Path) -> dict[str, str]:
    """World-model, probe, failed and damaged runs beside the big one (made once)."""
    import tempfile

    found = {kind: next((p.name for p in sorted(runs_dir.glob(pattern))), None) for kind, pattern
             in (("wm next-state", "wm-next-state__*"), ("wm propose", "wm-propose__*"),
                 ("probe", "contamination__*"))}
    if all(found.values()):
        return found  # type: ignore[return-value]
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    from run_kinds import make_runs

    with tempfile.TemporaryDirectory() as scratch:
        kinds = make_runs(Path(scratch), items=1)
        for path in (kinds.next_state, kinds.propose, kinds.probe, kinds.unreachable,
                     kinds.damaged):
            if not (runs_dir / path.name).exists():
                shutil.move(str(path), runs_dir / path.name)
    return make_other_kinds(runs_dir)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def timed_get(client: httpx.Client, url: str) -> float:
    started = time.perf_counter()
    response = client.get(url)
    elapsed = time.perf_counter() - started
    response.raise_for_status()
    return 1000 * elapsed


def server_cpu(pid: int) -> float:
    """CPU milliseconds the server process has used (user + system): unlike wall time, not
    stretched by other processes on a loaded machine."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return 1000 * (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def chromium() -> str | None:
    for name in (os.environ.get("T2W_CHROMIUM"), "chromium", "chromium-browser"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def page_ready(browser, url: str, route: str) -> float:
    context = browser.new_context()  # empty browser cache each time
    page = context.new_page()
    page.goto(url)
    page.wait_for_selector(f"body[data-ready={route}]", timeout=30_000)
    ready = page.evaluate("window.__t2wReady.at")
    context.close()
    return ready


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs-dir", type=Path, default=default_home() / "bench-view-runs")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    args.runs_dir.mkdir(parents=True, exist_ok=True)
    run = make_run(args.runs_dir)
    others = make_other_kinds(args.runs_dir)
    print(f"runs of every kind beside it: {', '.join(others.values())}")
    log_size = (run / "log.jsonl").stat().st_size
    print(f"run: {run.name}: log.jsonl {log_size / 1e6:.1f} MB")

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    # --no-warm: the worst case, the run's log is read when its page is first opened.
    server = subprocess.Popen([sys.executable, "-m", "text2world.cli", "view", str(args.runs_dir),
                               "--port", str(port), "--no-warm"], stdout=subprocess.DEVNULL)
    try:
        with httpx.Client(timeout=30) as client:
            deadline = time.monotonic() + 60
            while True:
                try:
                    client.get(base + "/healthz")
                    break
                except httpx.HTTPError as err:
                    if time.monotonic() > deadline:
                        raise SystemExit("t2w view did not start") from err
                    time.sleep(0.2)
            run_url = f"{base}/v1/runs/{run.name}"
            browser_path = chromium()
            figures = []
            if browser_path:
                from playwright.sync_api import sync_playwright

                playwright = sync_playwright().start()
                browser = playwright.chromium.launch(executable_path=browser_path,
                                                     args=["--disable-dev-shm-usage"])
                # The first page of a fresh browser also pays for starting its renderer; the
                # leaderboard reads summaries only, so the run's log is still unread after it.
                first = page_ready(browser, f"{base}/view/#/", "leaderboard")
                figures.append(("leaderboard ready, first page of a fresh browser", first))
                cpu = server_cpu(server.pid)
                cold_page = page_ready(browser, f"{base}/view/#/run/{run.name}", "run")
                figures.append(("run page ready, log not yet read by the server", cold_page))
                figures.append(("  server CPU time for it (log read, overview)",
                                server_cpu(server.pid) - cpu))
            cold = timed_get(client, run_url + "/overview")
            figures.append(("GET overview, log already parsed by the page", cold))
            overview = client.get(run_url + "/overview").json()
            ids = [row["item"] for row in overview["items"]]
            warm = [timed_get(client, run_url + "/overview") for _ in range(args.repeat)]
            figures.append(("GET overview (median)", statistics.median(warm)))
            items = [timed_get(client, f"{run_url}/items/{item}") for item in ids[:args.repeat]]
            figures.append(("GET item (median)", statistics.median(items)))
            diffs = [timed_get(client, f"{run_url}/items/{item}/diff")
                     for item in ids[:args.repeat]]
            figures.append(("GET item diff, scored on request (median)", statistics.median(diffs)))
            runs_list = [timed_get(client, f"{base}/v1/runs?limit=500") for _ in range(args.repeat)]
            figures.append(("GET /v1/runs (median)", statistics.median(runs_list)))
            if browser_path:
                for name, url, route in (
                        ("leaderboard ready", f"{base}/view/#/", "leaderboard"),
                        ("run page ready", f"{base}/view/#/run/{run.name}", "run"),
                        ("item page ready (with diff)",
                         f"{base}/view/#/run/{run.name}/item/{ids[len(ids) // 2]}", "item"),
                        *((f"{kind} run page ready", f"{base}/view/#/run/{name}", "run")
                          for kind, name in others.items())):
                    times = [page_ready(browser, url, route) for _ in range(args.repeat)]
                    figures.append((f"{name} (median of {args.repeat})", statistics.median(times)))
                browser.close()
                playwright.stop()
            else:
                print("no Chromium found (apt-get install chromium): page-ready times skipped")
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"\n{len(overview['items'])} items, EC{overview['ec']}; load average "
          f"{os.getloadavg()[0]:.1f}")
    for name, value in figures:
        print(f"{name:<54} {value:8.1f} ms")
    run_ready = [value for name, value in figures if name.startswith("run page ready")]
    print("(wall times stretch with the machine's load; the CPU figure does not)")
    print(f"\ntarget: a 101-item EC3 run ready in under 1000 ms: "
          f"{'met' if run_ready and max(run_ready) < 1000 else 'MISSED'} "
          f"(worst run-page figure {max(run_ready, default=float('nan')):.0f} ms)")


if __name__ == "__main__":
    main()
