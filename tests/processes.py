"""Process-tree helpers for crash tests (Linux /proc): which processes descend from a PID, and
whether they are still alive after it was killed (PIDs are compared with their start time, so
a reused PID is not mistaken for a survivor)."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

HAS_PROC = Path("/proc/self/stat").is_file()


def _stat(pid: int) -> tuple[str, int, int] | None:
    """(state, parent PID, start time) of a process, or None if it is gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()  # the name may hold spaces and parentheses
    return fields[0], int(fields[1]), int(fields[19])


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    stat = _stat(pid)
    return stat is not None and stat[0] != "Z"


def descendants(pid: int) -> dict[int, int]:
    """PID -> start time of every living descendant of ``pid``."""
    children: dict[int, list[int]] = {}
    starts: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            stat = _stat(int(entry))
            if stat is not None and stat[0] != "Z":
                children.setdefault(stat[1], []).append(int(entry))
                starts[int(entry)] = stat[2]
    found: dict[int, int] = {}
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found[child] = starts[child]
                todo.append(child)
    return found


def survivors(processes: dict[int, int]) -> list[int]:
    """Those of ``processes`` (PID -> start time) still running (zombies count as dead)."""
    alive = []
    for pid, start in processes.items():
        stat = _stat(pid)
        if stat is not None and stat[0] != "Z" and stat[2] == start:
            alive.append(pid)
    return alive


def wait_for(predicate, timeout: float, step: float = 0.05) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return bool(predicate())


def run_fresh(code: str, watched: tuple[str, ...], timeout: float = 300) -> tuple[list[str], list[str]]:
    """Run ``code`` in a fresh interpreter (this environment); returns its output lines and
    which top-level modules of ``watched`` it had imported by the end (for import-cost tests)."""
    import subprocess
    import sys

    probe = f"\nimport sys\nprint(sorted({{m.split('.')[0] for m in sys.modules}} & set({watched!r})))\n"
    done = subprocess.run([sys.executable, "-c", code + probe], capture_output=True, text=True,
                          timeout=timeout, env={**os.environ})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    return lines[:-1], eval(lines[-1])  # noqa: S307 - our own printed list of names


def free_port() -> int:
    """A loopback TCP port nothing listens on now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def stop_group(process) -> str:
    """SIGTERM the process group a ``start_new_session`` Popen leads (SIGKILL after 20 s);
    its captured standard output."""
    import signal
    import subprocess

    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    return process.stdout.read().decode(errors="replace")


def offline_page(page, server: str) -> tuple[list[str], list[str]]:
    """Refuse (and record) a browser page's requests to any host but ``server``'s, and record
    its script errors: (requests to other hosts, script errors), for the test to find empty."""
    from urllib.parse import urlparse

    external: list[str] = []
    errors: list[str] = []
    local = urlparse(server).netloc

    def gate(route) -> None:
        target = urlparse(route.request.url)
        if target.scheme in ("data", "blob") or target.netloc == local:
            route.continue_()
        else:
            external.append(route.request.url)
            route.abort()

    page.route("**/*", gate)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return external, errors


def chromium_path() -> str | None:
    """The headless browser the page tests drive (``T2W_CHROMIUM``, else Debian's chromium)."""
    import shutil

    for candidate in (os.environ.get("T2W_CHROMIUM"), "chromium", "chromium-browser",
                      "google-chrome"):
        if candidate and (found := shutil.which(candidate)):
            return found
    return None


def needs_browser():
    """The mark of a test that drives Chromium: skipped, saying why, without the playwright
    package or a Chromium browser."""
    import importlib.util

    import pytest

    if importlib.util.find_spec("playwright") is None:
        return pytest.mark.skip(reason="the playwright package is not installed "
                                       "(pip install -e '.[test]')")
    return pytest.mark.skipif(
        chromium_path() is None, reason="no Chromium browser found (apt-get install chromium, "
        "as .ci/run does, or set T2W_CHROMIUM to its path): the browser tests cannot run")


@contextmanager
def headless_chromium() -> Iterator:
    """Headless Chromium (``chromium_path``) driven by Playwright's sync API, which never
    downloads a browser; closed after. Start it after any ``asyncio.run`` of the test's set-up:
    the sync API keeps an event loop running on this thread."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # small /dev/shm in containers crashes Chromium's renderer otherwise
        browser = playwright.chromium.launch(executable_path=chromium_path(),
                                             args=["--disable-dev-shm-usage"])
        try:
            yield browser
        finally:
            browser.close()


@contextmanager
def served_page(browser, server: str) -> Iterator:
    """A 1400 x 1000 page of ``browser`` that may reach ``server`` only (``offline_page``; a
    bundle's ``file://`` index: local files only); after, no request went elsewhere and no
    script failed."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    external, errors = offline_page(page, server)
    yield page
    assert external == [], f"requests to other hosts: {external}"
    assert errors == [], f"script errors: {errors}"
    context.close()


@contextmanager
def viewer_process(runs_dir: Path, home: Path, t2w_code: str | None = None,
                   env: Mapping[str, str] | None = None) -> Iterator[str]:
    """``t2w view RUNS_DIR`` as a real process on a free loopback port: its URL once /healthz
    answers (the test fails with the process's output if it never does); stopped after.
    ``t2w_code``: ``python -c`` code that runs ``t2w`` (one that registers a kind first, say);
    ``env``: the process's environment (default: this one's)."""
    import subprocess
    import sys

    import httpx
    import pytest

    port = free_port()
    t2w = [sys.executable, "-c", t2w_code] if t2w_code else [sys.executable, "-m", "text2world.cli"]
    process = subprocess.Popen(
        [*t2w, "view", str(runs_dir), "--port", str(port)],
        env={**(os.environ if env is None else env), "T2W_HOME": str(home)},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    try:
        while True:
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                process.kill()
                pytest.fail(f"t2w view did not start: {process.stdout.read()}")
            time.sleep(0.2)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
