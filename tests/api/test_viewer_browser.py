"""The viewer end to end: a real ``t2w view`` (uvicorn) process on 127.0.0.1, driven by headless
Chromium through Playwright. Any request to another host fails the test: the page must work
offline.

Chromium is Debian's ``chromium`` package (``.ci/run`` installs it); Playwright only drives it
(``executable_path``), it never downloads a browser. Set ``T2W_SCREENSHOTS`` to a folder to keep
the screenshots.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest
from processes import chromium_path, viewer_process
from run_kinds import make_runs

from text2world.engine.run_store import Run

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not "
                               "installed (pip install -e '.[test]')")


CHROMIUM = chromium_path()
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="no Chromium browser found (apt-get install chromium, as .ci/run "
    "does, or set T2W_CHROMIUM to its path): the browser tests cannot run")


@pytest.fixture(scope="module")
def kinds(tmp_path_factory):
    """Runs of every kind in one folder (tests/run_kinds.py): 5 noisy-oracle and 3 oracle
    generation items, two world-model tasks, a probe, a failed run and a damaged one."""
    return make_runs(tmp_path_factory.mktemp("viewer-browser"), items=5, oracle_items=3)


@pytest.fixture(scope="module")
def runs(kinds):
    return kinds.runs_dir, Run.open(kinds.noisy), Run.open(kinds.oracle)


@pytest.fixture(scope="module")
def server(runs, tmp_path_factory):
    with viewer_process(runs[0], tmp_path_factory.mktemp("view-home")) as url:
        yield url


@pytest.fixture(scope="module")
def browser(kinds):
    # ``kinds`` first: the runs are made with asyncio.run, which refuses to start inside the
    # event loop that Playwright's sync API keeps running on this thread.
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
    assert rows.count() == 3  # the two reference runs and the one that could not connect
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
    assert rows.count() == 3

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
    items = Run.open(noisy.path).scored_items()
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
    items = Run.open(noisy.path).scored_items()
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


def test_every_kind_of_run_renders(page, server, kinds, tmp_path):
    page.goto(server + "/")  # the root leads to the viewer
    wait_ready(page, "leaderboard")
    assert page.url.endswith("/view/")
    # one table per kind; reference runs carry a badge, the unreachable run is marked failed
    assert page.locator("table.wm-runs").count() == 2
    assert page.locator("#probe-runs tbody tr").count() == 1
    assert page.locator(".badge.ref").count() == 5
    failed = page.locator(f'tr[data-run="{kinds.unreachable.name}"]')
    assert failed.locator(".badge.failed").inner_text() == "failed"
    assert "0/2" in failed.inner_text()
    # the damaged run is listed with its reason
    assert "config.json is not valid JSON" in page.locator("#broken-runs").inner_text()
    # the default columns fit at 1400 px with three scoring modes
    width = page.evaluate("document.querySelector('#leaderboard').getBoundingClientRect().width")
    room = page.evaluate("document.querySelector('main').clientWidth")
    assert width <= room, (width, room)
    # intervals: hovering a score gives its 95% interval
    assert "95% interval" in page.locator("#leaderboard td.num span[title]").first.get_attribute(
        "title")
    screenshot(page, "leaderboard-kinds", tmp_path)

    for path in (kinds.next_state, kinds.propose, kinds.probe):
        page.goto(f"{server}/view/#/run/{path.name}")
        wait_ready(page, "run")
        assert page.locator("#items tbody tr").count() > 0
        screenshot(page, f"run-{path.name[:20]}", tmp_path)
        page.locator("#items tbody tr a").first.click()
        wait_ready(page, "item")
        if path == kinds.probe:
            assert "Continuation" in page.locator("main").inner_text()
        else:
            text = page.locator("main").inner_text()
            assert "Truth" in text and "Answer (as read)" in text and "Verdict" in text
        screenshot(page, f"item-{path.name[:20]}", tmp_path)

    page.goto(f"{server}/view/#/run/{kinds.damaged.name}")
    wait_ready(page, "error")
    assert "cannot be read" in page.locator(".error-box").inner_text()


def test_item_page_shows_semantic_diagnoses(page, server, kinds, tmp_path):
    items = Run.open(kinds.noisy).items()
    item, index = next((item, rnd["round"]) for item in items for rnd in item["rounds"]
                       if (rnd.get("semantic") or {}).get("diagnoses"))
    diagnosis = item["rounds"][index]["semantic"]["diagnoses"][0]
    page.goto(f"{server}/view/#/run/{kinds.noisy.name}/item/{item['item']}/round/{index}")
    wait_ready(page, "item")
    table = page.locator("#diagnoses")
    assert diagnosis["action"] in table.inner_text()
    assert diagnosis["message"][:40] in table.inner_text()
    assert page.locator("#sem-problems tbody tr").count() >= 1  # per problem: the plan's fate
    page.locator("#semantic").scroll_into_view_if_needed()
    screenshot(page, "item-semantic", tmp_path)


def test_compare_page_has_the_paired_comparison(page, server, kinds):
    page.goto(f"{server}/view/#/compare/{kinds.oracle.name},{kinds.noisy.name}")
    wait_ready(page, "compare")
    page.wait_for_selector("table.paired")
    assert "executable@EC_0" in page.locator("table.paired").inner_text()
    assert page.locator("#heatmap tbody tr").count() == 5


def test_bundle_opens_from_file_without_a_server(kinds, browser, tmp_path):
    """t2w view --bundle: the static site works from file:// (scripts, not fetch)."""
    from text2world.api.bundle import write_bundle

    site = tmp_path / "site"
    write_bundle(kinds.runs_dir, site, [kinds.noisy.name, kinds.next_state.name])
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors, remote = [], []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def gate(route):
        if urlparse(route.request.url).scheme in ("file", "data"):
            route.continue_()
        else:
            remote.append(route.request.url)
            route.abort()

    page.route("**/*", gate)
    index = (site / "index.html").as_uri()
    page.goto(index + "#/")
    wait_ready(page, "leaderboard")
    assert page.locator("#leaderboard tbody tr").count() == 1
    assert page.locator("table.wm-runs").count() == 1
    page.goto(f"{index}#/run/{kinds.noisy.name}")
    wait_ready(page, "run")
    assert page.locator("#table1 tbody tr").count() == 4
    first = sorted(str(i["item"]) for i in Run.open(kinds.noisy).items())[0]
    page.goto(f"{index}#/run/{kinds.noisy.name}/item/{first}")
    wait_ready(page, "item")
    page.wait_for_selector("#diff .diff-action, #diff .note")
    # a run left out of the bundle says so
    page.goto(f"{index}#/run/{kinds.probe.name}")
    wait_ready(page, "error")
    assert "not in this bundle" in page.locator(".error-box").inner_text()
    context.close()
    assert errors == [] and remote == []


def test_ec_curves_stay_apart_inside_the_axes_and_rounds_say_what_they_were(page, server, runs,
                                                                            tmp_path):
    """Two runs whose curves coincide (both at 100 % in places): each series has its own dash
    pattern and marker shape, no two markers of a round sit on one spot, and every marker and
    error bar lies inside the plot area. An item's correction round says so in words."""
    _, noisy, oracle = runs
    page.goto(f"{server}/view/#/compare/{noisy.run_id},{oracle.run_id}")
    wait_ready(page, "compare")
    chart = page.locator("#cmp-body svg.chart").first
    dashes = chart.locator("polyline.series").evaluate_all(
        "lines => lines.map(l => l.getAttribute('stroke-dasharray') || '')")
    assert len(dashes) == 2 and len(set(dashes)) == 2, dashes
    shapes = chart.locator("g.s").evaluate_all(
        "groups => groups.map(g => g.querySelector('.pt').tagName)")
    assert len(set(shapes)) == 2, shapes
    geometry = chart.evaluate("""svg => {
        const box = svg.viewBox.baseVal, L = 44, T = 24, B = 34, R = 12;
        const inside = (x, y) => x > L && x < box.width - R && y >= T && y <= box.height - B;
        const centre = el => { const b = el.getBBox(); return [b.x + b.width / 2, b.y + b.height / 2]; };
        const points = [...svg.querySelectorAll('g.s')].map(g => [...g.querySelectorAll('.pt')].map(centre));
        const bars = [...svg.querySelectorAll('.errbar')].map(
            l => [l.x1, l.y1, l.x2, l.y2].map(v => v.baseVal.value));
        return {points, outside: points.flat().filter(p => !inside(...p)).length
                + bars.filter(([x1, y1, x2, y2]) => !inside(x1, y1) || !inside(x2, y2)).length};
    }""")
    assert geometry["outside"] == 0, geometry
    first, second = geometry["points"]
    assert all(abs(a[0] - b[0]) >= 2 for a, b in zip(first, second))  # never on one spot
    screenshot(page, "compare-curves", tmp_path)

    items = Run.open(noisy.path).scored_items()
    corrected = next(i for i in items if len(i["rounds"]) > 1)
    page.goto(f"{server}/view/#/run/{noisy.run_id}/item/{corrected['item']}/round/1")
    wait_ready(page, "item")
    card = page.locator(".kv").first.inner_text()
    assert "correction round" in card and "(correct)" not in card, card
    page.goto(f"{server}/view/#/run/{noisy.run_id}/item/{corrected['item']}/round/0")
    wait_ready(page, "item")
    assert "first answer" in page.locator(".kv").first.inner_text()


def test_every_leaderboard_score_has_its_interval(page, server, kinds):
    page.goto(server + "/view/")
    wait_ready(page, "leaderboard")
    for box in page.locator("[data-column]").all():  # every generation column shown
        if not box.is_checked():
            box.check()
            wait_ready(page, "leaderboard")
    row = page.locator(f'#leaderboard tr[data-run="{kinds.noisy.name}"]')
    scores = row.locator("td.num").all_inner_texts()[3:]  # after EC, items and cost
    assert scores and all("±" in text for text in scores), scores
    for table in page.locator("table.wm-runs").all():
        cells = table.locator("tbody tr").first.locator("td.num").all_inner_texts()[1:]
        assert all("±" in text or text == "–" for text in cells), cells
    above = page.locator("#probe-runs tbody tr td.num").last.inner_text()
    assert "±" in above, above


@pytest.mark.parametrize("tallest", [1, 5, 7, 13, 62, 101, 1234])
def test_error_chart_axis_ends_on_a_label_at_or_above_the_tallest_bar(page, server, tallest):
    """The syntax-error chart's y axis: round steps, and its last label at or above the tallest bar
    (ticks 13/26/39/52 left a bar of 62 past the last label)."""
    page.goto(f"{server}/view/#/")
    wait_ready(page, "leaderboard")
    chart = page.evaluate("""tallest => {
        const box = document.createElement('div');
        box.innerHTML = barChart([{round: 0, invalid: tallest, categories: {syntax: tallest}},
                                  {round: 1, invalid: 1, categories: {syntax: 1}}], 'errors');
        const labels = [...box.querySelectorAll('svg text[text-anchor=end]')].map(
            t => ({value: Number(t.textContent), y: Number(t.getAttribute('y')) - 4}));
        const bar = box.querySelector('rect.bar');
        return {labels, barTop: Number(bar.getAttribute('y'))};
    }""", tallest)
    values = [label["value"] for label in chart["labels"]]
    assert values[0] == 0 and len(values) <= 6, values
    steps = {b - a for a, b in zip(values, values[1:])}
    assert len(steps) == 1, values  # evenly spaced
    assert values[-1] >= tallest, values
    top = chart["labels"][-1]["y"]
    assert chart["barTop"] >= top - 1e-6, (chart, "the tallest bar rises past the last label")
