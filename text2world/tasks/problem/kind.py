"""The problem-generation kind (``t2w eval --task problem``) as the engine, the reports, the
API, the bundle and the CLI know it (``engine.kinds.KindSpec``); registered in
``tasks/registry.py``. Light to import: what it computes is imported when asked."""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from text2world.engine.kinds import Columns, KindSpec
from text2world.tasks.generation.kind import GenerationKind

if TYPE_CHECKING:
    from text2world.engine.run_store import ItemRecord, Run, RunConfig

# what ``t2w compare`` pairs: the last round's verdict per item, equivalence the headline
COMPARED_METRICS = ("parseable", "solvable", "equivalent")


class ProblemKind(KindSpec):
    name = "problem"
    command = "t2w eval --task problem"
    title = "problem (t2w eval --task problem)"
    # The generation kind's keys (its configs carry ``ec``, ``description``, ``prompt``); the
    # task adds its size to the run id's digest itself.
    identity_keys = GenerationKind.identity_keys
    task_module = "text2world.tasks.problem.task"
    page_module = "text2world.tasks.problem.page"
    item_record = "text2world.tasks.problem.records:ProblemItem"
    report = "text2world.cli.problem:problem_report"
    compared = True
    clustered_by_domain = True  # several problems of each domain
    inspect_import = True

    def compare_columns(self, run: "Run", items: "Sequence[ItemRecord]",
                        mode: str) -> tuple[Columns, str]:
        """Parseable / solvable / equivalent of each item's last round (1 or 0)."""
        from text2world.tasks.problem.records import problem_items

        columns: Columns = {metric: {} for metric in COMPARED_METRICS}
        for item in problem_items(items):
            values = item.get("ec") or {}
            for metric in COMPARED_METRICS:
                rounds = values.get(metric) or []
                if rounds:
                    columns[metric][str(item["item"])] = float(rounds[-1])
        return columns, "equivalent"

    def item_domains(self, items: "Sequence[ItemRecord]") -> dict[str, str]:
        """Its items share domains (``DOMAIN:PROBLEM``)."""
        return {str(i["item"]): str(i.get("domain") or str(i["item"]).split(":")[0])
                for i in items}

    def settings_notes(self, a: "RunConfig", b: "RunConfig") -> list[str]:
        notes = []
        for key, what in (("description", "descriptions"), ("size", "problems")):
            if a.get(key) != b.get(key):
                notes.append(f"{what} differ: {a.get(key)} vs {b.get(key)}")
        return notes
