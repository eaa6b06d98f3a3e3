"""The LLM-judge baseline's kind (``t2w judge``) as the engine, the reports, the API, the
bundle and the CLI know it (``engine.kinds.KindSpec``); registered in ``tasks/registry.py``."""

from __future__ import annotations

from text2world.engine.kinds import KindSpec
from text2world.tasks.generation.kind import GenerationKind


class JudgeKind(KindSpec):
    name = "judge"
    command = "t2w judge"
    # The generation kind's keys, not all its own settings (its configs say ``ec: 0``): what
    # its run ids have always hashed, kept so that its runs keep their ids.
    identity_keys = GenerationKind.identity_keys
    task_module = "text2world.tasks.judge.task"
    page_module = "text2world.tasks.judge.page"
    item_record = "text2world.tasks.judge.records:JudgeItem"
    report = "text2world.cli.report:judge_report"
    judges = True
