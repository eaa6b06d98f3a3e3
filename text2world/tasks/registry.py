"""The registry of run kinds: the one place that maps a run (its config's kind, ``RunKind``,
read by ``engine.run_store.run_kind``) to the task that made it. Each task owns its summary
(``Task.summarize``), its headline (``Task.headline``), ``task_from_run`` and its run page
(``overview`` in ``tasks/<kind>/page.py``); whatever reads a run of any kind (``Run.summary``,
``t2w report``, ``t2w score-run``, ``t2w import-inspect``, ``t2w view``) finds the task here."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Sequence

from text2world.engine.run_store import RunKind, run_kind

if TYPE_CHECKING:
    from text2world.engine.run_store import ItemRecord, Run, RunSummary
    from text2world.engine.task import Task

# The module of each kind's task: it defines ``task_from_run(run)`` and ``default_task()``.
TASK_MODULES = {
    RunKind.GENERATION: "text2world.tasks.generation.task",
    RunKind.WM: "text2world.tasks.wm.task",
    RunKind.CONTAMINATION: "text2world.tasks.contamination.task",
    RunKind.JUDGE: "text2world.tasks.judge.task",
    RunKind.PROBLEM: "text2world.tasks.problem.task",
}

# The module of each kind's run page (what ``t2w view`` shows of a run): it defines
# ``overview(run, items)``. Apart from the task's module: the viewer needs no task to show one.
PAGE_MODULES = {
    RunKind.GENERATION: "text2world.tasks.generation.page",
    RunKind.WM: "text2world.tasks.wm.page",
    RunKind.CONTAMINATION: "text2world.tasks.contamination.page",
    RunKind.JUDGE: "text2world.tasks.judge.page",
    RunKind.PROBLEM: "text2world.tasks.problem.page",
}


def task_for_run(run: "Run") -> "Task":
    """The task of ``run``, with the options it was made with (``RunError`` for a kind no task
    makes)."""
    return import_module(TASK_MODULES[run_kind(run.config)]).task_from_run(run)


def task_for_kind(kind: RunKind | str) -> "Task":
    """A task of ``kind`` with default options: for its ``summarize``/``headline``, which are
    pure functions of the records (a run imported from elsewhere)."""
    return import_module(TASK_MODULES[RunKind(kind)]).default_task()


def summarize_run(run: "Run", items: "Sequence[ItemRecord] | None" = None) -> "RunSummary":
    """The summary of ``run`` computed now (the engine's counts, the task's part, epochs), by
    its task; ``items``: its items when the caller has them (re-scored ones)."""
    from text2world.engine.summary import summarize

    return summarize(task_for_run(run), run, items)


def run_page(run: "Run", items: "Sequence[ItemRecord]") -> dict:
    """What the viewer's run page shows of ``run`` and its finished ``items``: its kind's page
    (``RunError`` for a kind no task makes), which reads them as its kind's records."""
    return import_module(PAGE_MODULES[run_kind(run.config)]).overview(run, items)
