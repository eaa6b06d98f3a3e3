"""A kind is described once: a toy task, written here into a package of its own (its task, page
and ``KindSpec``, nothing of text2world changed), registered with ONE ``add_kind`` line, is run
by the engine, summarised, reported (``t2w report``), compared (``t2w compare``), exported
(``t2w export-trajectories``) and viewed (``t2w view --bundle``) through the generic paths.

The commands run as a user runs them, in a subprocess, with the toy's registration imported
first (what its one line in ``tasks/registry.py`` does for a task of the package)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from text2world.engine.kinds import add_kind, kind_names, kind_of, kind_spec, remove_kind
from text2world.engine.run_records import RunError

TOY_KIND = '''
from text2world.engine.kinds import KindSpec


class ToyKind(KindSpec):
    name = "toy"
    command = "toy run"
    task_module = "toykind.task"
    page_module = "toykind.page"
    compared = True

    def compare_columns(self, run, items, mode):
        return {"exact": {str(i["item"]): float(i["metrics"]["correct"]) for i in items}}, "exact"
'''

TOY_TASK = '''
from dataclasses import dataclass

from text2world.engine.options import RunOptions
from text2world.engine.run_store import identity_hash, make_run_id, text_hash
from text2world.engine.runner import TaskPlan, execute, plan_task
from text2world.engine.task import Sample
from text2world.errors import Text2WorldError
from text2world.store.datasets import first, load_dataset

KIND = "toy"


class ToyError(Text2WorldError, ValueError):
    pass


class ToyTask:
    """Asks the model for a gold domain; correct when it answers it exactly."""

    kind = KIND
    command = "toy run"
    uses_cpu_pool = False

    def __init__(self, options):
        self.options = options

    def check(self):
        pass

    def load(self):
        self.dataset = load_dataset(self.options.dataset)
        records = first(self.dataset.select(self.options.split, None), self.options.limit)
        return [Sample(record.id, record) for record in records]

    def selection_ids(self, samples):
        return [sample.id for sample in samples]

    def configure(self, spec, generation):
        return {"dataset": self.dataset.name, "dataset_hash": self.dataset.content_hash,
                "split": self.options.split, "prompt": "toy", "prompt_hash": text_hash("toy")}

    def run_id(self, config):
        return make_run_id(("toy", config["model"]), identity_hash(config))

    def before_run(self, pending, executor):
        pass

    def after_run(self):
        pass

    async def solve(self, sample, context):
        record = sample.data
        messages = [{"role": "user", "content": f"Write the domain {record.name}."}]
        completion = await context.complete(
            messages, 0, {"gold": record.domain, "item": record.id, "seed": 0})
        correct = record.domain.strip() in completion.content
        return {"item": record.id, "metrics": {"correct": correct},
                "usage": {"prompt_tokens": completion.prompt_tokens,
                          "completion_tokens": completion.completion_tokens},
                "cost": completion.cost, "latency": completion.latency,
                "rounds": [{"messages": messages, "response": completion.content,
                            "cached": completion.cached, "cost": completion.cost}]}

    def summarize(self, config, items, open_errors):
        right = [bool(i["metrics"]["correct"]) for i in items]
        return {"kind": KIND, "accuracy": sum(right) / len(right) if right else None}

    def headline(self, summary):
        return {"accuracy": summary.get("accuracy")}

    def finish(self, run, summary):
        return summary


def default_task():
    return ToyTask(RunOptions())


def task_from_run(run):
    return ToyTask(RunOptions.from_config(run.config, run.path))


def run_toy(model, runs_dir, run_id):
    options = RunOptions(model=model, limit=3, runs_root=runs_dir, run_id=run_id)
    return execute(plan_task(ToyTask(options), ToyError, TaskPlan).prepared)
'''

TOY_PAGE = '''
def overview(run, items):
    return {"kind": run.kind, "run_id": run.run_id, "config": run.config,
            "items": [{"item": str(i["item"]), "correct": i["metrics"]["correct"]}
                      for i in items]}
'''

# the toy's one registry line
TOY_REGISTER = 'from text2world.engine.kinds import add_kind\nadd_kind("toy", "toykind.kind:ToyKind")\n'


@pytest.fixture(scope="module")
def toy(tmp_path_factory) -> Path:
    """The folder holding the ``toykind`` package."""
    root = tmp_path_factory.mktemp("toy")
    package = root / "toykind"
    package.mkdir()
    for name, text in {"__init__": "", "kind": TOY_KIND, "task": TOY_TASK, "page": TOY_PAGE,
                       "register": TOY_REGISTER}.items():
        (package / f"{name}.py").write_text(textwrap.dedent(text))
    return root


def _python(toy: Path, code: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(toy), os.environ.get("PYTHONPATH", "")]),
           "T2W_HOME": str(toy / "home"), "COLUMNS": "100", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=env, cwd=toy, timeout=600)


def t2w(toy: Path, *args: str) -> subprocess.CompletedProcess:
    """``t2w ARGS`` with the toy kind registered (its one line imported first)."""
    return _python(toy, "import sys, toykind.register; from text2world.cli import app; "
                        "sys.argv[0] = 't2w'; app()", *args)


@pytest.fixture(scope="module")
def toy_runs(toy: Path) -> Path:
    runs = toy / "runs"
    for model, run_id in (("reference/oracle", "toy-oracle"),
                          ("reference/noisy-oracle", "toy-noisy")):
        done = _python(toy, "import sys, toykind.register; from pathlib import Path; "
                            "from toykind.task import run_toy; "
                            "r = run_toy(sys.argv[1], Path(sys.argv[2]), sys.argv[3]); "
                            "print(r.summary['accuracy'], r.run.path)",
                       model, str(runs), run_id)
        assert done.returncode == 0, done.stderr
    return runs


def test_the_toy_kind_runs_and_is_summarised_by_its_task(toy_runs: Path):
    for run_id, accuracy in (("toy-oracle", 1.0), ("toy-noisy", None)):
        config = json.loads((toy_runs / run_id / "config.json").read_text())
        summary = json.loads((toy_runs / run_id / "summary.json").read_text())
        assert config["kind"] == summary["kind"] == "toy"
        assert summary["finished_items"] == 3 and summary["calls"] == 3
        if accuracy is not None:
            assert summary["accuracy"] == accuracy
        else:  # the noisy oracle breaks some gold domains
            assert summary["accuracy"] < 1.0
        assert summary["run_id"] == run_id and summary["label"] == run_id  # the engine's part


def test_the_toy_kind_is_reported_compared_exported_and_viewed(toy: Path, toy_runs: Path):
    report = t2w(toy, "report", str(toy_runs / "toy-noisy"), "--json")
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["kind"] == "toy"
    table = t2w(toy, "report", str(toy_runs / "toy-oracle"))
    assert table.returncode == 0 and "accuracy" in table.stdout and "1.0" in table.stdout

    compared = t2w(toy, "compare", str(toy_runs / "toy-oracle"), str(toy_runs / "toy-noisy"),
                   "--json")
    assert compared.returncode == 0, compared.stderr
    data = json.loads(compared.stdout)
    assert data["kind"] == "toy" and data["headline"] == "exact" and data["common_items"] == 3
    assert [row["metric"] for row in data["metrics"]] == ["exact"]
    assert data["metrics"][0]["mean_a"] == 1.0 and data["metrics"][0]["mean_b"] < 1.0

    exported = t2w(toy, "export-trajectories", str(toy_runs / "toy-oracle"), "--out",
                   str(toy / "toy.jsonl"))
    assert exported.returncode == 0, exported.stderr
    lines = [json.loads(line) for line in (toy / "toy.jsonl").read_text().splitlines()]
    assert [(line["kind"], line["verdict"]) for line in lines] == [("toy", "correct")] * 3

    bundle = t2w(toy, "view", str(toy_runs), "--bundle", str(toy / "bundle"))
    assert bundle.returncode == 0, bundle.stderr
    pages = {}
    for path in (toy / "bundle" / "data").glob("*.js"):
        url, _, body = path.read_text()[len("__t2wData("):-len(");\n")].partition(", ")
        pages[json.loads(url)] = json.loads(body)
    overview = pages["/v1/runs/toy-oracle/overview"]
    assert overview["kind"] == "toy" and len(overview["items"]) == 3
    item = overview["items"][0]["item"]
    assert pages[f"/v1/runs/toy-oracle/items/{item}"]["metrics"] == {"correct": True}
    assert pages["/v1/runs/toy-oracle/compare/toy-noisy"]["headline"] == "exact"


def test_without_its_line_the_toy_kind_is_unknown(toy: Path, toy_runs: Path):
    """The registration is what makes it known: without it the same commands say so."""
    done = _python(toy, "import sys; from text2world.cli import app; sys.argv[0] = 't2w'; app()",
                   "compare", str(toy_runs / "toy-oracle"), str(toy_runs / "toy-noisy"))
    assert done.returncode != 0 and "unknown kind 'toy'" in done.stderr + done.stdout


def test_add_kind_is_lazy_and_checked():
    add_kind("lazy", "no_such_module_here:Nothing", aliases=("old-lazy",))
    try:
        assert "lazy" in kind_names() and kind_of({"kind": "old-lazy"}) == "lazy"
        with pytest.raises(ModuleNotFoundError):  # imported only when asked for
            kind_spec("lazy")
    finally:
        remove_kind("lazy")
    assert "lazy" not in kind_names() and kind_of({"kind": "old-lazy"}) == "old-lazy"
    with pytest.raises(ValueError, match="module:Class"):
        add_kind("bad", "no colon")
    with pytest.raises(RunError, match="unknown kind 'chess'"):
        kind_spec("chess")
