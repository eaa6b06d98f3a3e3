"""The Inspect task ``text2world/problem`` scores exactly as ``t2w eval --task problem`` (the
reference models through Inspect's ``t2w`` provider and through the engine), and its log
becomes a run folder that ``t2w report`` reads (``t2w import-inspect``)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from text2world.cli import app as cli  # noqa: E402
from text2world.integrations.inspect_engine import ITEM_KEY  # noqa: E402
from text2world.integrations.inspect_import import import_inspect_log  # noqa: E402
from text2world.integrations.inspect_problem import problem  # noqa: E402
from text2world.tasks.problem.task import ProblemOptions, run_problems  # noqa: E402

DOMAINS = "blocksworld:p01,blocksworld:p02,cargo-logistics:p01"


def test_problem_task_scores_exactly_as_the_engine(tmp_path, monkeypatch):
    monkeypatch.setenv("T2W_HOME", str(tmp_path / "home"))
    engine = run_problems(ProblemOptions(
        model="reference/noisy-oracle", domains=DOMAINS.split(","), split="all", size="easy",
        ec=3, workers=0, runs_root=tmp_path / "runs"))
    records = {str(i["item"]): i for i in engine.run.scored_items()}
    log = inspect_eval(problem(domains=DOMAINS, split="all", size="easy"),
                       model="t2w/noisy-oracle", log_dir=str(tmp_path / "logs"),
                       display="none")[0]
    assert log.status == "success", log.error
    assert {s.id for s in log.samples} == set(records)
    for sample in log.samples:
        mine = next(iter(sample.scores.values())).metadata[ITEM_KEY]
        theirs = records[str(sample.id)]
        assert mine["ec"] == theirs["ec"] and mine["rule"] == theirs["rule"]
        assert [r["response"] for r in mine["rounds"]] == \
            [r["response"] for r in theirs["rounds"]]
    out = tmp_path / "imported"
    imported = import_inspect_log(Path(log.location), out)
    assert imported.summary["per_round"][-1]["equivalent"]["mean"] == \
        engine.summary["per_round"][-1]["equivalent"]["mean"]
    report = CliRunner().invoke(cli, ["report", str(out)])
    assert report.exit_code == 0, report.output
    assert "Floors" in report.output
