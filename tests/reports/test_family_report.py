"""``t2w report --by family [--held-out]`` and ``t2w compare --by family``: the generalization
report, on real offline runs (``t2w eval --dataset`` on a folder of generated worlds, the
reference models) through the CLI in a subprocess."""

from __future__ import annotations

import json
from types import SimpleNamespace

import pytest
from generated_worlds import FAMILIES, WORLDS, make_generated_folder, t2w

from text2world.stats import bootstrap_mean, independent_difference


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("families")
    worlds = make_generated_folder(root / "worlds")
    home = root / "home"
    made = {}
    # EC_0 only: the noisy oracle's first answers are broken, so families differ
    for run_id, model in (("noisy", "reference/noisy-oracle"), ("oracle", "reference/oracle")):
        done = t2w("eval", "--model", model, "--dataset", str(worlds), "--ec", "0", "--quiet",
                   "--run-id", run_id, home=home)
        assert done.returncode == 0, done.stderr
        made[run_id] = home / "runs" / run_id
    return SimpleNamespace(root=root, home=home, worlds=worlds, **made)


def _log(run) -> list[dict]:
    return [json.loads(line) for line in (run / "log.jsonl").read_text().splitlines()]


def _json(*args, home) -> dict:
    done = t2w(*args, "--json", home=home)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_item_records_its_family(runs):
    items = _log(runs.noisy)
    assert {item["item"]: item["family"] for item in items} == \
        {world: family for world, (_, family) in WORLDS.items()}


def test_report_by_family_matches_the_log_and_holds_out(runs):
    data = _json("report", str(runs.noisy), "--by", "family", "--held-out", "keys-doors",
                 home=runs.home)
    assert [row["family"] for row in data["families"]] == list(FAMILIES)
    assert data["metrics"] == ["executable@EC_k", "f1_mean@EC_k", "equivalent@EC_k"]
    items = _log(runs.noisy)
    executable = {i["item"]: float(i["ec"]["paper"][0]["executable"]) for i in items}
    equivalent = {i["item"]: float(i["ec"]["semantic"][0]["verdict"] == "equivalent")
                  for i in items}
    for row in data["families"]:
        members = [i for i in executable if WORLDS[i][1] == row["family"]]
        assert row["items"] == row["domains"] == 2
        assert row["held_out"] == (row["family"] == "keys-doors")
        assert row["metrics"]["executable@EC_k"] == \
            bootstrap_mean([executable[i] for i in members]).as_dict()
        assert row["metrics"]["equivalent@EC_k"]["mean"] == \
            sum(equivalent[i] for i in members) / 2
    # the noisy oracle's first answers break somewhere: the figures are not all 1
    assert any(row["metrics"]["equivalent@EC_k"]["mean"] < 1 for row in data["families"])
    (summary,) = [row for row in data["summary"] if row["metric"] == "equivalent@EC_k"]
    inside = [equivalent[i] for i in equivalent if WORLDS[i][1] != "keys-doors"]
    outside = [equivalent[i] for i in equivalent if WORLDS[i][1] == "keys-doors"]
    assert summary["in_family"]["mean"] == pytest.approx(sum(inside) / 4)
    assert summary["held_out"]["mean"] == pytest.approx(sum(outside) / 2)
    assert summary["gap"] == independent_difference(inside, outside).as_dict()
    assert summary["gap"]["n"] == 6


@pytest.mark.parametrize("columns", (80, 60))
def test_report_and_compare_by_family_print_whole_at_the_terminals_width(runs, columns):
    done = t2w("report", str(runs.noisy), "--by", "family", "--held-out", "sorting,transport",
               home=runs.home, columns=columns)
    assert done.returncode == 0, done.stderr
    assert "(held out)" in done.stdout and "(sorting, transport)" in done.stdout
    compared = t2w("compare", str(runs.oracle), str(runs.noisy), "--by", "family",
                   home=runs.home, columns=columns)
    assert compared.returncode == 0 and "Exec EC_k by family" in compared.stdout
    for text in (done.stdout, compared.stdout):
        assert all(len(line) <= columns for line in text.splitlines()), text
        assert "…" not in text, text


def test_report_by_family_as_markdown(runs):
    markdown = t2w("report", str(runs.noisy), "--by", "family", "--markdown", home=runs.home)
    assert "| keys-doors | 2 |" in markdown.stdout and "held-out" not in markdown.stdout


def test_compare_by_family_side_by_side(runs):
    data = _json("compare", str(runs.oracle), str(runs.noisy), "--by", "family",
                 "--held-out", "keys-doors", home=runs.home)
    assert [row["family"] for row in data["families"]] == [*FAMILIES, "in-family", "held-out"]
    oracle = {i["item"]: i for i in _log(runs.oracle)}
    noisy = {i["item"]: i for i in _log(runs.noisy)}
    for row in data["families"]:
        cell = row["metrics"]["executable@EC_k"]
        members = [i for i in WORLDS if row["family"] == WORLDS[i][1]
                   or (row["family"] == "held-out" and WORLDS[i][1] == "keys-doors")
                   or (row["family"] == "in-family" and WORLDS[i][1] != "keys-doors")]
        a = [float(oracle[i]["ec"]["paper"][0]["executable"]) for i in members]
        b = [float(noisy[i]["ec"]["paper"][0]["executable"]) for i in members]
        assert row["items"] == len(members)
        assert cell["a"]["mean"] == pytest.approx(sum(a) / len(a)) == 1.0
        assert cell["difference"]["mean"] == pytest.approx((sum(b) - sum(a)) / len(a))


def test_a_run_whose_items_carry_no_family_takes_its_datasets(runs, tmp_path):
    run = tmp_path / "older"
    run.mkdir()
    for name in ("config.json", "summary.json"):
        (run / name).write_bytes((runs.noisy / name).read_bytes())
    (run / "log.jsonl").write_text("".join(
        json.dumps({k: v for k, v in item.items() if k != "family"}) + "\n"
        for item in _log(runs.noisy)))
    data = _json("report", str(run), "--by", "family", home=runs.home)
    assert [row["family"] for row in data["families"]] == list(FAMILIES)


def test_store_domains_count_under_store(runs):
    done = t2w("eval", "--model", "reference/oracle", "--domains", "gripper,blocksworld",
               "--ec", "0", "--no-semantic", "--quiet", "--run-id", "store", home=runs.home)
    assert done.returncode == 0, done.stderr
    data = _json("report", str(runs.home / "runs" / "store"), "--by", "family",
                 home=runs.home)
    assert [(row["family"], row["items"]) for row in data["families"]] == [("store", 2)]


@pytest.mark.parametrize("args, message", [
    (("--by", "family", "--held-out", "mazes"),
     "no item of family 'mazes' in the run; its families: keys-doors, sorting, transport"),
    (("--by", "family", "--held-out", "keys-doors,sorting,transport"),
     "every family of the run is held out"),
    (("--held-out", "sorting"), "--held-out needs --by family"),
])
def test_bad_family_options_are_refused_clearly(runs, args, message):
    for command in (("report", str(runs.noisy)), ("compare", str(runs.oracle), str(runs.noisy))):
        done = t2w(*command, *args, home=runs.home)
        assert done.returncode != 0
        output = " ".join((done.stdout + done.stderr).split())
        assert message in output and "Traceback" not in output, output


def test_size_strata_read_the_runs_folder_from_anywhere(runs, tmp_path):
    # the run names its dataset "worlds" (the folder's name): its source is where it is read
    done = t2w("report", str(runs.noisy), "--by", "size", "--json", cwd=tmp_path,
               home=runs.home)
    assert done.returncode == 0, done.stderr
    assert sum(row["domains"] for row in json.loads(done.stdout)) == len(WORLDS)
