"""A toy kind of run, written into a package of its own (its task, page and ``KindSpec``,
nothing of text2world changed) and registered with ONE ``add_kind`` line, as a new task's
folder and its line in ``tasks/registry.py`` would be: what the kind-registry tests
(``tests/engine/test_kind_registry.py``) and the viewer's test of a kind it has no page for
(``tests/api/test_viewer_new_kind_browser.py``) run through the real commands.

The commands run as a user runs them, in a subprocess, with the toy's registration imported
first (what its one line in ``tasks/registry.py`` does for a task of the package)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

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


# ``t2w`` with the toy kind registered (its one line imported first), as ``python -c`` code
TOY_T2W = ("import sys, toykind.register; from text2world.cli import app; "
           "sys.argv[0] = 't2w'; app()")


def write_toy(root: Path) -> Path:
    """Write the ``toykind`` package under ``root``; ``root`` (what PYTHONPATH needs)."""
    package = root / "toykind"
    package.mkdir()
    for name, text in {"__init__": "", "kind": TOY_KIND, "task": TOY_TASK, "page": TOY_PAGE,
                       "register": TOY_REGISTER}.items():
        (package / f"{name}.py").write_text(textwrap.dedent(text))
    return root


def toy_env(toy: Path) -> dict[str, str]:
    """The environment of a process that imports the toy package (its own T2W_HOME)."""
    return {**os.environ,
            "PYTHONPATH": os.pathsep.join([str(toy), os.environ.get("PYTHONPATH", "")]),
            "T2W_HOME": str(toy / "home"), "COLUMNS": "100", "NO_COLOR": "1"}


def toy_python(toy: Path, code: str, *args: str) -> subprocess.CompletedProcess:
    """``python -c CODE ARGS`` in a process that can import the toy package."""
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          env=toy_env(toy), cwd=toy, timeout=600)


def toy_t2w(toy: Path, *args: str) -> subprocess.CompletedProcess:
    """``t2w ARGS`` with the toy kind registered."""
    return toy_python(toy, TOY_T2W, *args)


def make_toy_runs(toy: Path) -> Path:
    """Two toy runs of three items (``toy-oracle``: every answer right, ``toy-noisy``: some
    wrong), made by the engine in a process with the toy registered; their runs folder."""
    runs = toy / "runs"
    for model, run_id in (("reference/oracle", "toy-oracle"),
                          ("reference/noisy-oracle", "toy-noisy")):
        done = toy_python(toy, "import sys, toykind.register; from pathlib import Path; "
                               "from toykind.task import run_toy; "
                               "r = run_toy(sys.argv[1], Path(sys.argv[2]), sys.argv[3]); "
                               "print(r.summary['accuracy'], r.run.path)",
                          model, str(runs), run_id)
        assert done.returncode == 0, done.stderr
    return runs
