"""A kind added with its one registry line is shown by the viewer, which has no page of its
own for it: the toy kind of ``tests/toy_kind.py`` (registered by its ``add_kind`` line, its
runs made by the engine in a process of their own), served by a real ``t2w view`` process that
imports the line first, driven by headless Chromium through Playwright (as
``test_viewer_browser.py``; Debian's ``chromium``, never a downloaded browser).

The toy's runs get their own leaderboard table, titled by its registration's label, with its
task's headline values as columns (not the list of runs that cannot be shown); its run page
lists the items with their scores and an item page shows the logged record, escaped; a bundle
of its runs (``t2w view --bundle``) shows the same from ``file://``."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from processes import headless_chromium, needs_browser, served_page, viewer_process
from toy_kind import TOY_T2W, make_toy_runs, toy_env, toy_t2w, write_toy


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    root = write_toy(tmp_path_factory.mktemp("toy-viewer"))
    return root, make_toy_runs(root)


@pytest.fixture(scope="module")
def server(toy, tmp_path_factory):
    root, runs = toy
    with viewer_process(runs, tmp_path_factory.mktemp("view-home"), TOY_T2W,
                        toy_env(root)) as url:
        yield url


@pytest.fixture(scope="module")
def browser(toy):
    with headless_chromium() as instance:  # after ``toy``: its runs are made first
        yield instance


@pytest.fixture
def page(browser, server):
    with served_page(browser, server) as page:
        yield page


def wait_ready(page, route: str) -> None:
    page.wait_for_selector(f"body[data-ready={route}]", timeout=20_000)


def test_the_listing_gives_the_kinds_label_and_headline(server):
    runs = {run["id"]: run for run in httpx.get(f"{server}/v1/runs").json()["items"]}
    oracle, noisy = runs["toy-oracle"], runs["toy-noisy"]
    assert (oracle["kind"], oracle["status"], oracle["kind_label"]) == ("toy", "ok",
                                                                        "toy (toy run)")
    assert oracle["headline"] == {"accuracy": 1.0}
    assert noisy["headline"]["accuracy"] == noisy["summary"]["accuracy"] < 1.0


def shows_the_toy_kind(page, viewer: str, runs: Path) -> None:
    """The viewer at ``viewer`` (its page's URL) shows the toy runs: their table, the noisy
    run's page, one of its wrong items."""
    page.goto(f"{viewer}#/")
    wait_ready(page, "leaderboard")
    table = page.locator('table.kind-runs[data-kind="toy"]')
    assert table.count() == 1
    assert page.locator("#broken-runs").count() == 0  # not among the runs that cannot be shown
    heading = table.locator("xpath=preceding::h2[1]").inner_text()
    assert heading.startswith("toy (toy run)")
    assert table.locator("thead th").all_inner_texts()[-1].startswith("Accuracy")
    cells = {row.get_attribute("data-run"): row.locator("td").last.inner_text()
             for row in table.locator("tbody tr").all()}
    accuracy = json.loads((runs / "toy-noisy" / "summary.json").read_text())["accuracy"]
    assert cells == {"toy-oracle": "1", "toy-noisy": str(round(accuracy, 3))}

    table.locator('tr[data-run="toy-noisy"] a').first.click()
    wait_ready(page, "run")
    assert page.locator("#headline").inner_text().split() == ["Accuracy",
                                                              str(round(accuracy, 3))]
    rows = page.locator("#items tbody tr")
    assert rows.count() == 3
    verdicts = {row.get_attribute("data-item"): row.locator("td").last.inner_text()
                for row in rows.all()}
    assert set(verdicts.values()) == {"yes", "no"}  # the noisy oracle gets some wrong
    wrong = next(item for item, verdict in verdicts.items() if verdict == "no")

    page.locator(f'#items tr[data-item="{wrong}"] a').click()
    wait_ready(page, "item")
    assert page.locator("h1").inner_text() == wrong
    assert page.locator("#item-scores").inner_text().split() == ["correct", "no"]
    # the logged record's fields, as logged and escaped (the answer's <think> tag is text)
    logged = next(record for record in map(json.loads, (runs / "toy-noisy" / "log.jsonl")
                                           .read_text().splitlines())
                  if record.get("item") == wrong)
    answer = logged["rounds"][0]["response"]
    shown = page.locator("h2", has_text="rounds").locator("xpath=following-sibling::pre[1]")
    assert json.dumps(answer, ensure_ascii=False)[1:80] in shown.inner_text()
    assert "<think>" in answer and page.locator("#app think").count() == 0


@needs_browser()
def test_a_new_kind_gets_its_table_its_run_page_and_its_item_pages(page, server, toy):
    shows_the_toy_kind(page, f"{server}/view/", toy[1])


@needs_browser()
def test_a_bundle_of_a_new_kinds_runs_opens_from_file(browser, toy, tmp_path):
    """``t2w view --bundle`` (the real command, the toy registered): the same pages from
    file://, with no server."""
    root, runs = toy
    made = toy_t2w(root, "view", str(runs), "--bundle", str(tmp_path / "site"))
    assert made.returncode == 0, made.stderr
    index = (tmp_path / "site" / "index.html").as_uri()
    with served_page(browser, index) as page:
        shows_the_toy_kind(page, index, runs)
