"""The tasks by run kind: what reads a run of any kind (``Run.summary``, ``t2w report``) finds
the task that made it here."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from text2world.engine.run_store import Run
    from text2world.engine.task import Task


def task_for_run(run: "Run") -> "Task":
    """The task of ``run``, with the options it was made with."""
    if run.kind == "wm":
        from text2world.tasks.wm.task import task_from_run as wm_task
        return wm_task(run)
    if run.kind == "contamination":
        from text2world.tasks.contamination.task import task_from_run as probe_task
        return probe_task(run)
    if run.kind == "judge":
        from text2world.tasks.judge.task import task_from_run as judge_task
        return judge_task(run)
    from text2world.tasks.generation.task import task_from_run as generation_task
    return generation_task(run)


def summarize_run(run: "Run") -> dict:
    """The summary of ``run`` computed now from its log, by its task."""
    from text2world.engine.runner import summarize

    return summarize(task_for_run(run), run)
