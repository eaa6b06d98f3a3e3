"""Issue 47 in the viewer, end to end (a real ``t2w view`` process driven by headless Chromium,
as tests/api/test_viewer_browser.py does): a run with epochs counts its items as items x
epochs (never ``4/2``), and runs of one model are told apart by their labels: a mystery and a
normal next-state run have different rows, a ``--label`` names its run in the leaderboard and
on its run page, and the compare page titles each side with it. The runs are made with ``t2w``
in subprocesses, as a user makes them."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from processes import chromium_path, offline_page, viewer_process
from repo_paths import REPO

sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright package is not "
                               "installed (pip install -e '.[test]')")


def t2w(runs_dir: Path, *args: str) -> None:
    env = {**os.environ, "T2W_RUNS_DIR": str(runs_dir), "PYTHONPATH": str(REPO)}
    done = subprocess.run([sys.executable, "-m", "text2world.cli", *args, "--quiet"],
                          cwd=runs_dir.parent, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.fixture(scope="module")
def runs_dir(tmp_path_factory) -> Path:
    runs = tmp_path_factory.mktemp("counts-labels") / "runs"
    t2w(runs, "eval", "--model", "reference/oracle", "--ec", "0", "--limit", "2", "--epochs",
        "2", "--no-semantic", "--run-id", "epochs")
    t2w(runs, "eval", "--model", "reference/oracle", "--ec", "0", "--limit", "2",
        "--no-semantic", "--run-id", "labelled", "--label", "first try")
    for run_id, extra in (("next-state", ()), ("next-state-mystery", ("--mystery",))):
        t2w(runs, "wm", "next-state", "--model", "reference/oracle", "--domains", "blocksworld",
            "--run-id", run_id, *extra)
    return runs


@pytest.fixture(scope="module")
def server(runs_dir, tmp_path_factory):
    with viewer_process(runs_dir, tmp_path_factory.mktemp("view-home")) as url:
        yield url


@pytest.fixture
def page(server):
    chromium = chromium_path()
    if chromium is None:
        pytest.skip("no Chromium browser found (apt-get install chromium, as .ci/run does, or "
                    "set T2W_CHROMIUM to its path): the browser tests cannot run")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium,
                                             args=["--disable-dev-shm-usage"])
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        external, errors = offline_page(page, server)
        yield page
        assert external == [] and errors == [], (external, errors)
        browser.close()


def wait_ready(page, route: str) -> None:
    page.wait_for_selector(f"body[data-ready={route}]", timeout=30_000)


def test_items_count_items_times_epochs_and_labels_tell_runs_apart(page, server):
    page.goto(server + "/view/")
    wait_ready(page, "leaderboard")
    epochs_row = page.locator('#leaderboard tr[data-run="epochs"]')
    cells = epochs_row.locator("td").all_inner_texts()
    assert "2 × 2 epochs" in cells and "4/2" not in cells, cells
    labelled = page.locator('#leaderboard tr[data-run="labelled"]').inner_text()
    assert "first try" in labelled and "2 × 2" not in labelled, labelled

    normal = page.locator('table.wm-runs tr[data-run="next-state"]').inner_text()
    mystery = page.locator('table.wm-runs tr[data-run="next-state-mystery"]').inner_text()
    assert normal != mystery and "next-state-mystery" in mystery, (normal, mystery)

    # the labelled run's page: its label in the title, its items counted once
    page.goto(server + "/view/#/run/labelled")
    wait_ready(page, "run")
    assert "first try" in page.locator("h1").inner_text()
    page.goto(server + "/view/#/run/epochs")
    wait_ready(page, "run")
    card = page.locator(".card.kv").first.inner_text()
    assert "2 × 2 epochs" in card, card

    # compare: each side titled with its label
    page.goto(server + "/view/#/compare/epochs,labelled")
    wait_ready(page, "compare")
    names = page.locator("#app").inner_text()  # Table 1 side by side: each run's label
    assert "reference/oracle [epochs] ·" in names and "reference/oracle [first try] ·" in names
    paired = page.locator("h2", has_text="Paired:").first
    paired.wait_for(timeout=30_000)  # the paired comparison loads after the page
    title = paired.inner_text()
    assert "reference/oracle [first try] (B) − reference/oracle [epochs] (A)" in title, title
