"""The LLM-judge baseline's kind (``t2w judge``) as the engine, the reports, the API, the
bundle and the CLI know it (``engine.kinds.KindSpec``); registered in ``tasks/registry.py``."""

from __future__ import annotations

from text2world.engine.kinds import TASK_IDENTITY_KEYS, KindSpec


class JudgeKind(KindSpec):
    name = "judge"
    command = "t2w judge"
    # Not its settings: kept in the identity its run ids hash, which has always had them, so
    # that its runs keep their ids.
    identity_keys = TASK_IDENTITY_KEYS + ("correction_prompt_hash", "ec")
    task_module = "text2world.tasks.judge.task"
    page_module = "text2world.tasks.judge.page"
    report = "text2world.cli.report:judge_report"
    judges = True
