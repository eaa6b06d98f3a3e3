"""The world-model kind (``t2w wm``: next-state, verify, propose, plan) as the engine, the
reports, the API, the bundle and the CLI know it (``engine.kinds.KindSpec``); registered in
``tasks/registry.py``. Light to import: what it computes is imported when asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from text2world.engine.kinds import Columns, KindSpec
from text2world.tasks.generation.kind import GenerationKind

if TYPE_CHECKING:
    from text2world.engine.run_store import ItemRecord, Run, RunConfig


class WmKind(KindSpec):
    name = "wm"
    command = "t2w wm"
    title = "world-model (t2w wm)"
    # The generation kind's keys, not all its own settings (its configs say ``ec: 0``): what
    # its run ids have always hashed, kept so that its runs keep their ids.
    identity_keys = GenerationKind.identity_keys
    task_module = "text2world.tasks.wm.task"
    page_module = "text2world.tasks.wm.page"
    item_record = "text2world.tasks.wm.records:WmItem"
    report = "text2world.cli.report:wm_report"
    compared = True
    clustered_by_domain = True
    inspect_import = True

    def compare_columns(self, run: "Run", items: "Sequence[ItemRecord]",
                        mode: str) -> tuple[Columns, str]:
        """Each metric of its task per item; the headline: the task's (``metrics.HEADLINE``)."""
        from text2world.tasks.wm.intervals import wm_item_values
        from text2world.tasks.wm.metrics import HEADLINE
        from text2world.tasks.wm.records import wm_items

        task = run.config.get("task")
        columns: Columns = {}
        for item in wm_items(items):
            for metric, value in wm_item_values(str(task), item).items():
                columns.setdefault(metric, {})[str(item["item"])] = value
        return columns, HEADLINE.get(str(task), "accuracy")

    def item_domains(self, items: "Sequence[ItemRecord]") -> dict[str, str]:
        """Its items share domains (several problems and steps of each)."""
        from text2world.tasks.wm.records import wm_items

        return {str(i["item"]): str(i.get("domain")) for i in wm_items(items)}

    def check_comparable(self, a: "RunConfig", b: "RunConfig") -> None:
        task_a, task_b = a.get("task"), b.get("task")
        if task_a != task_b:
            raise ValueError(f"cannot compare a {task_a} run with a {task_b} run")
