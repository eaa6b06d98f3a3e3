"""The registry of run kinds: each task's kind, registered once into the engine's registry
(``engine.kinds``), ONE line per kind: its name -> its descriptor, "module:Class" (a
``KindSpec`` subclass in ``tasks/<kind>/kind.py``), imported the first time it is asked for.
Adding a task touches its own folder and one line here. The package's facade
(``text2world/__init__.py``) imports this module, so the kinds are registered in every process.

Each task owns its summary (``Task.summarize``), its headline (``Task.headline``),
``task_from_run`` and its run page (``overview`` in ``tasks/<kind>/page.py``); whatever reads a
run of any kind (``Run.summary``, ``t2w report``, ``t2w score-run``, ``t2w import-inspect``,
``t2w view``) finds them through ``kind_spec(run.kind)``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from text2world.engine.kinds import add_kind, kind_spec, run_kind

if TYPE_CHECKING:
    from text2world.engine.run_store import ItemRecord, Run, RunSummary
    from text2world.engine.task import Task

# "" and "eval": what configs written before kinds existed (or by the first t2w eval) say
add_kind("generation", "text2world.tasks.generation.kind:GenerationKind", aliases=("", "eval"))
add_kind("wm", "text2world.tasks.wm.kind:WmKind")
add_kind("contamination", "text2world.tasks.contamination.kind:ContaminationKind")
add_kind("judge", "text2world.tasks.judge.kind:JudgeKind")
add_kind("problem", "text2world.tasks.problem.kind:ProblemKind")


def task_for_run(run: "Run") -> "Task":
    """The task of ``run``, with the options it was made with (``RunError`` for a kind no task
    makes)."""
    return run_kind(run.config).task_from_run(run)


def task_for_kind(kind: str) -> "Task":
    """A task of ``kind`` with default options: for its ``summarize``/``headline``, which are
    pure functions of the records (a run imported from elsewhere)."""
    return kind_spec(kind).default_task()


def summarize_run(run: "Run", items: "Sequence[ItemRecord] | None" = None) -> "RunSummary":
    """The summary of ``run`` computed now (the engine's counts, the task's part, epochs), by
    its task; ``items``: its items when the caller has them (re-scored ones)."""
    from text2world.engine.summary import summarize

    return summarize(task_for_run(run), run, items)


def run_page(run: "Run", items: "Sequence[ItemRecord]") -> dict:
    """What the viewer's run page shows of ``run`` and its finished ``items``: its kind's page
    (``RunError`` for a kind no task makes), which reads them as its kind's records."""
    return run_kind(run.config).page(run, items)
