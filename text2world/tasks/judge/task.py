"""The LLM-judge baseline as a task of the engine (``t2w judge RUN --model M``, paper section
3.6): for each item of a finished generation run, the judge is shown the gold domain and the
item's final domain and asked how closely they match (``prompts/judge.txt``); its answer is
set beside our semantic verdict of that domain (``agreement``).

A judge run is a run like any other (cache, resume, the paid ledger, epochs): its config names
the generation run it judges; its samples are that run's items with a semantic verdict.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, Mapping, Sequence

from text2world.engine.options import RunOptions
from text2world.engine.run_store import (
    ErrorRecord,
    ItemRecord,
    Run,
    RunConfig,
    RunError,
    RunSummary,
    identity_hash,
    make_run_id,
    text_hash,
)
from text2world.engine.runner import RunResult, TaskPlan, execute, plan_task
from text2world.engine.runner import options_from_run as resume_options
from text2world.engine.task import Sample, SampleContext
from text2world.errors import Text2WorldError
from text2world.model.client import ModelSpec
from text2world.model.environment import SYSTEM_MESSAGE
from text2world.store.datasets import BUILTIN, DatasetError, load_dataset
from text2world.tasks.generation.records import generation_items
from text2world.tasks.judge.agreement import (
    JUDGED_VERDICTS,
    agreement,
    floors,
    judged_label,
    parse_rating,
)
from text2world.tasks.judge.kind import JudgeKind
from text2world.tasks.judge.records import (
    JudgeConfig,
    JudgeItem,
    JudgeSummary,
    judge_config,
    judge_items,
    judge_summary,
)

KIND = JudgeKind.name
PROMPT_FILE = "judge.txt"


# The paper's figure (section 3.6): the LLM judge's agreement with human annotators.
PAPER_KAPPA = {"value": 0.10, "between": "an LLM judge and human annotators",
               "source": "Text2World (arXiv 2502.13092), section 3.6"}


class JudgeError(Text2WorldError, ValueError):
    """A run that cannot be judged, or bad judge options: a clear message."""


def judge_prompt() -> tuple[str, str]:
    """(the template, its source header) of ``prompts/judge.txt``."""
    text = resources.files("text2world").joinpath("prompts", PROMPT_FILE).read_text("utf-8")
    lines = text.splitlines(keepends=True)
    header = 0
    while header < len(lines) and lines[header].startswith("#"):
        header += 1
    return "".join(lines[header:]), "".join(line.lstrip("# ") for line in lines[:header])


def judge_messages(gold: str, predicted: str) -> list[dict]:
    template, _ = judge_prompt()
    text = template.replace("{gold}", gold.strip()).replace(
        "{predicted}", predicted.strip() or "(no domain)")
    return [{"role": "system", "content": SYSTEM_MESSAGE}, {"role": "user", "content": text}]


def counterexample(semantic: Mapping[str, Any] | None) -> str:
    """Where our semantic scoring found the final domain to differ from the gold, in words."""
    semantic = semantic or {}
    if semantic.get("unmatched"):
        return str(semantic["unmatched"][0])
    if semantic.get("diagnoses"):
        return str(semantic["diagnoses"][0].get("message") or "")
    for problem in semantic.get("problems") or []:
        if problem.get("plan_valid") is False:
            return (f"problem {problem.get('name')}: the domain's own plan fails in the gold "
                    f"({problem.get('plan_reason')})")
        if problem.get("gold_plan_accepted") is False:
            return (f"problem {problem.get('name')}: the gold's plan fails in the domain "
                    f"({problem.get('gold_plan_reason')})")
    return ""


@dataclass
class JudgeOptions(RunOptions):
    """``t2w judge RUN --model M``: the shared run options plus the run judged."""

    source: Path | None = None  # the generation run judged

    FIELDS: ClassVar[dict] = {"source_path": ("source", Path)}


class JudgeTask:
    """One call per judged item (``engine.task.Task``)."""

    kind = KIND
    command = JudgeKind.command
    uses_cpu_pool = False

    def __init__(self, options: JudgeOptions) -> None:
        self.options = options
        self.source: Run | None = None
        self.excluded: dict[str, str] = {}  # items without a semantic verdict: why
        self.dataset_name = ""
        self.dataset_hash = ""

    def check(self) -> None:
        if self.options.source is None:
            raise JudgeError("give the generation run to judge (a run folder or run id)")

    def load(self) -> list[Sample]:
        from text2world.engine.runner import open_for_resume

        options = self.options
        assert options.source is not None
        try:
            source = open_for_resume(options.source, "generation", "t2w judge",
                                     options.runs_root)
        except RunError as err:
            raise JudgeError(f"{options.source}: {err}") from None
        self.source = source
        items = sorted(generation_items(source.scored_items()), key=lambda i: str(i.get("item")))
        items = list({str(i["item"]): i for i in items if i.get("epoch", 0) == 0}.values())
        if not items:
            raise JudgeError(f"{source.path}: the run has no finished item to judge")
        golds = self._golds(source)
        samples = []
        for item in items:
            item_id = str(item["item"])
            final = ((item.get("ec") or {}).get("semantic") or [None])[-1] or {}
            verdict = final.get("verdict")
            if verdict not in JUDGED_VERDICTS:
                self.excluded[item_id] = ("no semantic verdict (the run was made without "
                                          "semantic scoring)" if not final else
                                          f"verdict {verdict}: {final.get('reason') or 'not simulated'}")
                continue
            if item_id not in golds:
                self.excluded[item_id] = "the run's dataset no longer has this item"
                continue
            rounds = item.get("rounds") or [{}]
            samples.append(Sample(item_id, {
                "item": item_id, "name": item.get("name"), "gold": golds[item_id],
                "domain": rounds[-1].get("domain") or "", "round": len(rounds) - 1,
                "verdict": verdict, "ours": JUDGED_VERDICTS[verdict],
                "counterexample": counterexample(rounds[-1].get("semantic"))}))
        wanted = set(options.domains or [])
        if wanted:
            unknown = sorted(wanted - {s.id for s in samples})
            if unknown:
                raise JudgeError(f"--domains: {', '.join(unknown[:5])} not judged items of "
                                 f"{source.path} (items with a semantic verdict: "
                                 f"{', '.join(s.id for s in samples[:5])} ...)")
            samples = [s for s in samples if s.id in wanted]
        samples = samples[:options.limit] if options.limit is not None else samples
        if not samples:
            raise JudgeError(f"{source.path}: no item has a semantic verdict to judge against "
                             f"({len(self.excluded)} without one; make the run with semantic "
                             "scoring: t2w eval --semantic, or t2w score-run)")
        return samples

    def _golds(self, source: Run) -> dict[str, str]:
        """The gold domain of each item, from the source run's own dataset."""
        config = source.config
        name = config.get("dataset") or BUILTIN
        where = config.get("dataset_source") or ""
        try:
            dataset = load_dataset(name)
        except DatasetError as err:
            if not (where and Path(where).exists()):
                raise JudgeError(f"the judged run's dataset {name!r} cannot be read: {err}") \
                    from None
            dataset = load_dataset(where)
        self.dataset_name, self.dataset_hash = dataset.name, dataset.content_hash
        records = list(dataset.records)
        if config.get("mystery"):
            from text2world.tasks.wm.mystery import mystery_records

            records = mystery_records(records, int(config.get("seed", 0)))
        return {record.id: record.domain for record in records}

    def selection_ids(self, samples: list[Sample]) -> list[str]:
        return [sample.id for sample in samples]

    def configure(self, spec: ModelSpec, generation: dict) -> JudgeConfig:
        source = self.source
        assert source is not None
        template, header = judge_prompt()
        return {
            "source_run": source.run_id, "source_path": str(source.path),
            "source_model": source.config.get("model"),
            "source_description": source.config.get("description"),
            "dataset": self.dataset_name,
            "dataset_hash": f"{self.dataset_hash}+judge-of:{source.run_id}",
            "split": source.config.get("split", "test"),
            "prompt": "judge", "prompt_hash": text_hash(template),
            "prompt_source": header.strip(),
            "excluded_items": self.excluded,
        }

    def run_id(self, config: RunConfig) -> str:
        return make_run_id(("judge", config["model"], judge_config(config)["source_run"]),
                           identity_hash(config))

    def before_run(self, pending: list[Sample], executor: Executor | None) -> None:
        pass

    def after_run(self) -> None:
        pass

    async def solve(self, sample: Sample, context: SampleContext) -> JudgeItem:
        data = sample.data
        messages = judge_messages(data["gold"], data["domain"])
        reference = {"task": "judge", "item": data["item"], "verdict": data["verdict"],
                     "seed": self.options.seed, "epoch": context.epoch}
        completion = await context.complete(messages, 0, reference)
        rating = parse_rating(completion.content)
        return {
            "item": data["item"], "name": data["name"], "round": data["round"],
            "verdict": data["verdict"], "ours": data["ours"],
            "counterexample": data["counterexample"], "messages": messages,
            "response": completion.content, "reasoning": completion.reasoning,
            "rating": rating, "judge": judged_label(rating),
            "usage": {"prompt_tokens": completion.prompt_tokens,
                      "completion_tokens": completion.completion_tokens},
            "cost": completion.cost, "latency": completion.latency,
            "attempts": completion.attempts, "cached": completion.cached,
            "finish_reason": completion.finish_reason,
            "rounds": [{"cached": completion.cached, "cost": completion.cost}],
        }

    # ---- summaries

    def summarize(self, config: RunConfig, items: Sequence[ItemRecord],
                  open_errors: Sequence[ErrorRecord]) -> JudgeSummary:
        items, own = judge_items(items), judge_config(config)
        measured = agreement(items)
        disagreements: list[dict[str, Any]] = sorted(
            ({key: item.get(key) for key in ("item", "name", "epoch", "verdict", "ours",
                                               "judge", "rating", "counterexample")}
             for item in items if item.get("judge") is not None
             and item.get("judge") != item.get("ours")),
            key=lambda row: (str(row["item"]), int(row.get("epoch") or 0)))
        unparsed = sorted({str(item["item"]) for item in items if item.get("judge") is None})
        return {"kind": KIND, "source_run": own.get("source_run"),
                "source_model": own.get("source_model"), **measured,
                "disagreements": disagreements, "unparsed_items": unparsed,
                "excluded_items": own.get("excluded_items") or {},
                "reference": floors(items, int(config.get("seed", 0))),
                "paper_kappa": PAPER_KAPPA}

    def headline(self, summary: RunSummary) -> dict[str, float | None]:
        summary = judge_summary(summary)
        return {"kappa": (summary.get("kappa") or {}).get("mean"),
                "accuracy": summary.get("accuracy")}

    def finish(self, run: Run, summary: RunSummary) -> RunSummary:
        return summary


# --------------------------------------------------------------------------------------------
# The entry points ``t2w judge`` and the library use


def plan_judge(options: JudgeOptions) -> TaskPlan:
    """Check everything before any call (``JudgeError`` for bad input)."""
    return plan_task(JudgeTask(options), JudgeError)


def judge(options: JudgeOptions, observer=None, judge_plan: TaskPlan | None = None
          ) -> RunResult:
    """Judge a generation run's final domains; ``engine.runner.execute`` says what it raises
    and what a stopped run keeps."""
    return execute((judge_plan or plan_judge(options)).prepared, observer)


def judge_options_from_run(path: str | Path, runs_root: Path | None = None,
                           **overrides: Any) -> JudgeOptions:
    """The options a judge run was made with (``--resume RUN``, a folder or a run id)."""
    return resume_options(JudgeOptions, KIND, "t2w judge", path, runs_root, **overrides)


def default_task() -> JudgeTask:
    """The task with default options (``tasks.registry.task_for_kind``)."""
    return JudgeTask(JudgeOptions())


def task_from_run(run: Run) -> JudgeTask:
    return JudgeTask(JudgeOptions.from_config(run.config, run.path))
