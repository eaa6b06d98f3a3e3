"""The contamination probe's kind (``t2w contamination --model``) as the engine, the reports,
the API, the bundle and the CLI know it (``engine.kinds.KindSpec``); registered in
``tasks/registry.py``. Light to import: what it computes is imported when asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from text2world.engine.kinds import Columns, KindSpec
from text2world.tasks.generation.kind import GenerationKind

if TYPE_CHECKING:
    from text2world.engine.run_store import ItemRecord, Run


class ContaminationKind(KindSpec):
    name = "contamination"
    command = "t2w contamination"
    # The generation kind's keys, not all its own settings (its configs say ``ec: 0``): what
    # its run ids have always hashed, kept so that its runs keep their ids.
    identity_keys = GenerationKind.identity_keys
    task_module = "text2world.tasks.contamination.task"
    page_module = "text2world.tasks.contamination.page"
    item_record = "text2world.tasks.contamination.records:ProbeItem"
    report = "text2world.cli.report:probe_report"
    compared = True

    def compare_columns(self, run: "Run", items: "Sequence[ItemRecord]",
                        mode: str) -> tuple[Columns, str]:
        """Each probed domain's overlap rate."""
        from text2world.tasks.contamination.records import probe_items

        return {"rate": {str(i["item"]): float(i["rate"]) for i in probe_items(items)
                         if isinstance(i.get("rate"), (int, float))}}, "rate"
