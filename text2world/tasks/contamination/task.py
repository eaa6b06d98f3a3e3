"""The contamination probe as a task of the engine (``t2w contamination --model``, paper
section 3.4): each gold domain's first tokens are the prompt, the model's continuation is
compared with the rest of the gold.

Every finished domain is logged with the model's continuation; rates are recomputed from the
logged continuations when ``n`` or ``max_mismatches`` change, so resuming with other values
needs no new calls. The summary's ``prefix_tokens`` is the prompt's length in GPT-2 tokens
(``prompt_tokens`` is the token usage of the calls, as in every task).
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Sequence

import numpy as np

from text2world.engine.options import RunOptions
from text2world.engine.run_store import (
    ErrorRecord,
    ItemRecord,
    Run,
    RunConfig,
    RunSummary,
    identity_hash,
    make_run_id,
    run_epochs,
    text_hash,
)
from text2world.engine.runner import RunResult, TaskPlan, execute, plan_task
from text2world.engine.runner import options_from_run as resume_options
from text2world.engine.task import Sample, SampleContext
from text2world.model.client import ModelSpec
from text2world.store.datasets import DatasetError, Record, first, load_dataset
from text2world.tasks.contamination.kind import ContaminationKind
from text2world.tasks.contamination.overlap import (
    DEFAULT_MAX_MISMATCHES,
    DEFAULT_N,
    Contamination,
    check_parameters,
    prefix_end,
)
from text2world.tasks.contamination.probe import (
    DEFAULT_PROMPT_TOKENS,
    HISTOGRAM_FILE,
    PROBE_PROMPT,
    ProbeError,
    continuation_text,
    plot_histogram,
    probe_item_result,
    probe_messages,
)
from text2world.tasks.contamination.records import (
    ProbeConfig,
    ProbeItem,
    ProbeSummary,
    probe_config,
    probe_items,
    probe_summary,
)

KIND = ContaminationKind.name


@dataclass
class ProbeOptions(RunOptions):
    """``t2w contamination --model``: the run options of every task plus the probe's own."""

    prompt_tokens: int = DEFAULT_PROMPT_TOKENS  # GPT-2 tokens of each gold domain given
    n: int = DEFAULT_N
    max_mismatches: int = DEFAULT_MAX_MISMATCHES
    top: int = 10

    FIELDS: ClassVar[dict] = {"prompt_tokens": ("prompt_tokens", int),  # runs before 2
                              "prefix_tokens": ("prompt_tokens", int)}


class ProbeTask:
    """The probe (``engine.task.Task``): one call per gold domain."""

    kind = KIND
    command = ContaminationKind.command
    uses_cpu_pool = False

    def __init__(self, options: ProbeOptions) -> None:
        self.options = options
        self.records: dict[str, Record] = {}
        self.dataset_name = ""

    def check(self) -> None:
        options = self.options
        check_parameters(options.n, options.max_mismatches)
        if options.prompt_tokens < 1:
            raise ProbeError(f"--prompt-tokens must be at least 1, not {options.prompt_tokens}")

    def load(self) -> list[Sample]:
        options = self.options
        try:
            self.dataset = load_dataset(options.dataset)
            records = first(self.dataset.select(options.split, options.domains), options.limit)
        except DatasetError as err:
            raise ProbeError(str(err)) from None
        self.records = {record.id: record for record in records}
        return [Sample(record.id, record) for record in records]

    def selection_ids(self, samples: list[Sample]) -> list[str]:
        return [sample.id for sample in samples]

    def configure(self, spec: ModelSpec, generation: dict) -> ProbeConfig:
        options, dataset = self.options, self.dataset
        return {
            "dataset": dataset.name, "dataset_source": dataset.source,
            "dataset_hash": dataset.content_hash, "split": options.split,
            "prompt": f"contamination-{options.prompt_tokens}",
            "prompt_hash": text_hash(PROBE_PROMPT),
            "prefix_tokens": options.prompt_tokens,
            "n": options.n, "max_mismatches": options.max_mismatches,
        }

    def run_id(self, config: RunConfig) -> str:
        return make_run_id(("contamination", config["model"], config["dataset"],
                            config["split"], f"p{probe_config(config)['prefix_tokens']}"),
                           identity_hash(config))

    def before_run(self, pending: list[Sample], executor: Executor | None) -> None:
        pass

    def after_run(self) -> None:
        pass

    async def solve(self, sample: Sample, context: SampleContext) -> ProbeItem:
        record: Record = sample.data
        options = self.options
        head_end = prefix_end(record.domain, options.prompt_tokens)
        messages = probe_messages(record.domain[:head_end])
        reference = {"gold": record.domain, "item": record.id, "seed": options.seed}
        completion = await context.complete(messages, 0, reference)
        continuation = continuation_text(completion.content)
        result = probe_item_result(record.domain, continuation, options.n,
                                   options.max_mismatches, options.prompt_tokens)
        return {
            "item": record.id, "name": record.name, "split": record.split,
            **({"family": record.family} if record.family else {}),
            "prompt_chars": head_end, "messages": messages,
            "response": completion.content, "reasoning": completion.reasoning,
            "continuation": continuation, "rate": result.rate,
            "contaminated": result.contaminated, "counted": result.counted,
            "n": options.n, "max_mismatches": options.max_mismatches,
            "usage": {"prompt_tokens": completion.prompt_tokens,
                      "completion_tokens": completion.completion_tokens},
            "cost": completion.cost, "latency": completion.latency,
            "attempts": completion.attempts, "cached": completion.cached,
            "finish_reason": completion.finish_reason,
            "rounds": [{"cached": completion.cached, "cost": completion.cost}],
        }

    # ---- summaries

    def results(self, config: RunConfig,
                items: Sequence[ProbeItem]) -> dict[str, Contamination | dict]:
        """Per item: its logged rate when it was computed with this probe's ``n`` and
        ``max_mismatches``, else the rate computed again from the logged continuation."""
        options, own = self.options, probe_config(config)
        results: dict[str, Contamination | dict] = {}
        for item in items:
            same = (int(item.get("n", own.get("n", DEFAULT_N))) == options.n and
                    int(item.get("max_mismatches", own.get("max_mismatches",
                                                              DEFAULT_MAX_MISMATCHES)))
                    == options.max_mismatches)
            record = self.records.get(str(item.get("item")))
            if same or record is None:
                results[str(item["item"])] = {
                    "rate": float(item.get("rate", 0.0)),
                    "contaminated": item.get("contaminated"), "counted": item.get("counted"),
                    "n": options.n, "max_mismatches": options.max_mismatches}
            else:
                results[str(item["item"])] = probe_item_result(
                    record.domain, item.get("continuation", ""), options.n,
                    options.max_mismatches, options.prompt_tokens)
        return results

    def summarize(self, config: RunConfig, items: Sequence[ItemRecord],
                  open_errors: Sequence[ErrorRecord]) -> ProbeSummary:
        from text2world.stats import bootstrap_mean

        items = probe_items(items)
        results = self.results(config, items)
        names = {str(item["item"]): item.get("name", "") for item in items}
        rate = {key: (value.rate if isinstance(value, Contamination) else value["rate"])
                for key, value in results.items()}
        ordered = sorted(results, key=lambda key: (-rate[key], key))
        rates = [rate[key] for key in ordered]

        def row(key: str) -> dict:
            value = results[key]
            data = value.to_dict(spans=False) if isinstance(value, Contamination) else value
            return {"item": key, "name": names[key], **data}

        planned = int(config.get("planned_items") or 0)
        return {
            "kind": KIND, "split": config.get("split"),
            "n": self.options.n, "max_mismatches": self.options.max_mismatches,
            "prefix_tokens": self.options.prompt_tokens,
            "complete": len(results) >= planned * run_epochs(config),
            "mean_rate": float(np.mean(rates)) if rates else None,
            "mean_rate_interval": bootstrap_mean(rates).as_dict(),  # 95%, over domains
            "median_rate": float(np.median(rates)) if rates else None,
            "domains_above_half": sum(1 for r in rates if r > 0.5),
            # their share, with its 95% interval (the viewer's column beside the count)
            "above_half_interval": bootstrap_mean([float(r > 0.5) for r in rates]).as_dict(),
            "per_domain": [row(key) for key in ordered],
            "most_contaminated": [row(key) for key in ordered[:self.options.top]
                                  if rate[key] > 0],
        }

    def headline(self, summary: RunSummary) -> dict[str, float | None]:
        summary = probe_summary(summary)
        return {"mean_rate": summary.get("mean_rate"),
                "median_rate": summary.get("median_rate")}

    def finish(self, run: Run, summary: RunSummary) -> ProbeSummary:
        """The histogram, and the matching spans of the most contaminated domains."""
        summary = probe_summary(summary)
        rates = [row["rate"] for row in summary["per_domain"]]
        summary["histogram"] = None
        if rates:
            plot_histogram(rates, run.path / HISTOGRAM_FILE,
                           title=f"{run.config.get('model')} on {run.config.get('dataset')} "
                                 f"({len(rates)} domain{'' if len(rates) == 1 else 's'})")
            summary["histogram"] = HISTOGRAM_FILE
        logged = {str(item["item"]): item for item in probe_items(run.items())}
        spans = []
        for row in summary["most_contaminated"]:
            record = self.records.get(row["item"])
            if record is None:
                spans.append(row)
                continue
            result = probe_item_result(record.domain, logged[row["item"]].get("continuation", ""),
                                       self.options.n, self.options.max_mismatches,
                                       self.options.prompt_tokens)
            spans.append({"item": row["item"], "name": row["name"], **result.to_dict()})
        summary["most_contaminated"] = spans
        return summary


# --------------------------------------------------------------------------------------------
# The entry points ``t2w contamination --model`` and the library use


@dataclass
class ProbeResult:
    run_path: Path
    resumed: bool
    summary: ProbeSummary
    results: dict[str, Contamination]  # the most contaminated items, with their spans
    histogram: Path | None
    errors: list[ErrorRecord]  # open infrastructure errors (items to retry with --resume)
    new_items: int = 0
    run_result: RunResult | None = None


class ProbePlan(TaskPlan):
    task: ProbeTask


def plan_probe(options: ProbeOptions) -> ProbePlan:
    """Check everything before any call (``ProbeError`` for bad input)."""
    return plan_task(ProbeTask(options), ProbeError, ProbePlan)


def probe(options: ProbeOptions, observer=None, probe_plan: ProbePlan | None = None
          ) -> ProbeResult:
    """Probe a model for memorised gold domains (paper section 3.4); raises ``ProbeError``
    for bad input and what ``engine.runner.execute`` raises (finished domains are kept)."""
    probe_plan = probe_plan or plan_probe(options)
    task = probe_plan.task
    result = execute(probe_plan.prepared, observer)
    summary = probe_summary(result.summary)
    contaminated: dict[str, Contamination] = {}
    for row in summary["most_contaminated"]:
        record = task.records.get(row["item"])
        missing: ProbeItem = {}
        logged = next((i for i in probe_items(result.run.items())
                       if str(i["item"]) == row["item"]), missing)
        if record is not None:
            contaminated[row["item"]] = probe_item_result(
                record.domain, logged.get("continuation", ""), options.n,
                options.max_mismatches, options.prompt_tokens)
    histogram = result.run.path / HISTOGRAM_FILE if summary.get("histogram") else None
    return ProbeResult(result.run.path, result.resumed, summary, contaminated, histogram,
                       result.run.open_errors(), result.new_items, result)


def probe_options_from_run(path: str | Path, runs_root: Path | None = None,
                           **overrides: Any) -> ProbeOptions:
    """The options a probe run was made with (``--resume RUN``, a folder or a run id)."""
    return resume_options(ProbeOptions, KIND, "t2w contamination", path, runs_root,
                          **overrides)


def default_task() -> ProbeTask:
    """The task with default options (``tasks.registry.task_for_kind``)."""
    return ProbeTask(ProbeOptions())


def task_from_run(run: Run) -> ProbeTask:
    options, config = ProbeOptions.from_config(run.config, run.path), probe_config(run.config)
    options.n = int(config.get("n", DEFAULT_N))
    options.max_mismatches = int(config.get("max_mismatches", DEFAULT_MAX_MISMATCHES))
    return ProbeTask(options)
