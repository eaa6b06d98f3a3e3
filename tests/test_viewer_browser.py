"""The viewer end to end: a real ``t2w view`` (uvicorn) process on 127.0.0.1, driven by headless
Chromium through Playwright. Any request to another host fails the test: the page must work
offline.

Chromium is Debian's ``chromium`` package (``.ci/run`` installs it); Playwright only drives it
(``executable_path``), it never downloads a browser. Set ``T2W_SCREENSHOTS`` to a folder to keep
the screenshots.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

from text2world.tasks.generation.task import EvalOptions, evaluate
from text2world.tasks.generation.rescore import load_run_items
from text2world.engine.run_store import Run

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not "
                               "installed (pip install -e '.[test]')")


def chromium_path() -> str | None:
    for candidate in (os.environ.get("T2W_CHROMIUM"), "chromium", "chromium-browser",
                      "google-chrome"):
        if candidate and (found := shutil.which(candidate)):
            return found
    return None


CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium browser found (apt-get install chromium, as .ci/run "
    "does, or set T2W_CHROMIUM to its path): the browser tests cannot run")


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("viewer-browser")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("T2W_HOME", str(root / "home"))
        noisy = evaluate(EvalOptions(model="reference/noisy-oracle", ec=3, limit=5, workers=0,
                                     runs_root=root / "runs")).run
        oracle = evaluate(EvalOptions(model="reference/oracle", ec=1, limit=3, workers=0,
                                      runs_root=root / "runs")).run
    return root / "runs", noisy, oracle


@pytest.fixture(scope="module")
def server(runs, tmp_path_factory):
    runs_dir = runs[0]
    port = free_port()
    env = {**os.environ, "T2W_HOME": str(tmp_path_factory.mktemp("view-home"))}
    process = subprocess.Popen(
        [sys.executable, "-m", "text2world.cli", "view", str(runs_dir), "--port", str(port)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
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
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as playwright:
        # small /dev/shm in containers crashes Chromium's renderer otherwise
        instance = playwright.chromium.launch(executable_path=CHROMIUM,
                                              args=["--disable-dev-shm-usage"])
        yield instance
        instance.close()


@pytest.fixture
def page(browser, server):
    """A page whose requests to any host but the server are refused and recorded."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.external = []
    page.errors = []
    local = urlparse(server).netloc

    def gate(route):
        target = urlparse(route.request.url)
        if target.scheme in ("data", "blob") or target.netloc == local:
            route.continue_()
        else:
            page.external.append(route.request.url)
            route.abort()

    page.route("**/*", gate)
    page.on("pageerror", lambda error: page.errors.append(str(error)))
    yield page
    assert page.external == [], f"requests to other hosts: {page.external}"
    assert page.errors == [], f"script errors: {page.errors}"
    context.close()


def wait_ready(page, route: str) -> None:
    page.wait_for_selector(f"body[data-ready={route}]", timeout=20_000)


def screenshot(page, name: str, tmp_path: Path) -> Path:
    folder = Path(os.environ.get("T2W_SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    page.screenshot(path=str(path), full_page=False)
    assert path.stat().st_size > 10_000  # a rendered page, not a blank one
    return path


def test_leaderboard_compare_run_item_diff_and_keys(page, server, runs, tmp_path):
    _, noisy, oracle = runs
    page.goto(server + "/view/")
    wait_ready(page, "leaderboard")
    rows = page.locator("#leaderboard tbody tr")
    assert rows.count() == 2
    text = page.locator("#leaderboard").inner_text()
    assert "reference/noisy-oracle" in text and "reference/oracle" in text
    screenshot(page, "leaderboard", tmp_path)

    # sorting by paper Exec at ECk puts the oracle (100%) first when descending
    header = page.locator('th[data-sort="m:paper:executable:k"]')
    header.click()
    assert rows.first.get_attribute("data-run") == oracle.run_id
    header.click()
    assert rows.first.get_attribute("data-run") == noisy.run_id

    # filtering
    page.fill("#lb-filter", "noisy")
    assert rows.count() == 1
    page.fill("#lb-filter", "")
    assert rows.count() == 2

    # select both runs and compare them side by side
    for run in (noisy, oracle):
        page.check(f'[data-select="{run.run_id}"]')
    page.click("#compare")
    wait_ready(page, "compare")
    body = page.locator("#cmp-body").inner_text()
    assert "reference/noisy-oracle" in body and "reference/oracle" in body
    assert page.locator("#cmp-body svg.chart polyline").count() >= 2

    # the noisy run's page: Table 1 per round and the charts
    page.goto(server + "/view/#/")
    wait_ready(page, "leaderboard")
    page.click(f'tr[data-run="{noisy.run_id}"] a')
    wait_ready(page, "run")
    assert page.locator("#table1 tbody tr").count() == 4  # EC0..EC3
    page.locator("svg.chart rect.band").first.hover()
    tip = page.locator("#tooltip").inner_text()
    assert "EC_0" in tip and "Exec: 40.0%" in tip, tip  # 2 of the 5 items parse at EC0
    screenshot(page, "run", tmp_path)

    # the item with the lowest F1 after its last round that is still valid: a diff to see
    items = load_run_items(Run.open(noisy.path))
    target = min((i for i in items if i["valid"]),
                 key=lambda i: i["ec"]["canonical"][-1]["f1_effects"])
    page.click(f'tr[data-item="{target["item"]}"] a')
    wait_ready(page, "item")
    assert page.url.endswith(f"#/run/{noisy.run_id}/item/{target['item']}")
    diff = page.locator("#diff")
    assert diff.locator(".diff-action").count() >= 2
    statuses = set(diff.locator(".badge").all_inner_texts())
    assert "matched" in statuses and ({"missing", "extra"} & statuses), statuses
    assert diff.locator("tr.row-matched").count() > 0
    different = diff.locator("details.diff-action[open]").first
    different.evaluate("node => node.scrollIntoView({block: \"start\"})")
    screenshot(page, "item-diff", tmp_path)

    # keyboard: j goes to the next item, k back
    detail = httpx.get(f"{server}/v1/runs/{noisy.run_id}/items/{target['item']}").json()
    page.keyboard.press("k" if detail["next"] is None else "j")
    wait_ready(page, "item")
    neighbour = detail["previous"] if detail["next"] is None else detail["next"]
    page.wait_for_function(f"location.hash.endsWith({neighbour!r})")
    page.keyboard.press("j" if detail["next"] is None else "k")
    page.wait_for_function(f"location.hash.endsWith({target['item']!r})")
    wait_ready(page, "item")
    page.keyboard.press("u")
    wait_ready(page, "run")

    # on the run page: j moves down the item table, Enter opens the row
    order = sorted(str(i["item"]) for i in items)
    page.keyboard.press("j")
    assert page.locator("#items tbody tr.cursor").get_attribute("data-item") == order[1]
    page.keyboard.press("Enter")
    page.wait_for_function(f"location.hash.endsWith({order[1]!r})")
    wait_ready(page, "item")


def test_deep_link_to_an_invalid_round_highlights_the_error_line(page, server, runs, tmp_path):
    _, noisy, _ = runs
    items = load_run_items(Run.open(noisy.path))
    item = next(i for i in items if not i["rounds"][0]["valid"]
                and i["rounds"][0]["validation"]["errors"][0]["line"])
    error = item["rounds"][0]["validation"]["errors"][0]
    page.goto(f"{server}/view/#/run/{noisy.run_id}/item/{item['item']}/round/0")
    wait_ready(page, "item")
    assert page.locator("#rounds a.active").inner_text().startswith("EC_0")
    highlighted = page.locator("#domain .ln.err")
    assert str(error["line"]) in highlighted.evaluate_all("nodes => nodes.map(n => n.dataset.line)")
    assert error["message"][:40] in page.locator("#errors").inner_text()
    assert page.locator("#diff").inner_text().startswith("No per-action diff")
    # reasoning and prompt are folded
    assert page.locator("#prompt").get_attribute("open") is None
    screenshot(page, "item-error", tmp_path)
    # number keys pick a round
    page.keyboard.press(str(len(item["rounds"]) - 1))
    page.wait_for_function(f"location.hash.endsWith('/round/{len(item['rounds']) - 1}')")
    wait_ready(page, "item")


def test_unknown_run_shows_an_error(page, server):
    page.goto(f"{server}/view/#/run/no-such-run")
    wait_ready(page, "error")
    assert "no run 'no-such-run'" in page.locator(".error-box").inner_text()


@pytest.mark.parametrize("path, selector", [("/docs", ".swagger-ui .info .title"),
                                            ("/redoc", "h1")])
def test_api_docs_render_offline(page, server, path, selector):
    page.goto(server + path)
    page.wait_for_selector(selector, timeout=30_000)
    assert "text2world scoring service" in page.locator(selector).first.inner_text()
