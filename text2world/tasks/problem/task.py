"""The problem-generation task (``t2w eval --task problem``) on the engine: each item gives
the gold domain and a description of one of its problems (``descriptions``: explicit or
abstract); the model writes the PDDL problem; ``--ec K`` rounds of validator feedback
(``feedback``) correct it. Every round is scored by meaning (``scoring.problem_answer``:
parseable, solvable, equivalent to the gold, with the rule and the counterexample), with the
Levenshtein similarity and the init/goal F1 beside; every item also scores trivial answers
(``FLOORS``) so each figure has its floor.

Items: the store's problems (``--size easy``), the generated hard ones (``hard``, as ``t2w wm``
gets them: ``tasks.wm.generators.sized_records``) or both (default). A run is a run like any
other: cache, resume, the paid ledger, epochs, reports, the viewer.
"""

from __future__ import annotations

import re
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

from text2world.engine.options import RunOptions
from text2world.engine.run_store import (
    ErrorRecord,
    ItemRecord,
    Run,
    RunConfig,
    RunSummary,
    identity_hash,
    make_run_id,
    text_hash,
)
from text2world.engine.runner import RunResult, TaskPlan, execute, plan_task
from text2world.engine.runner import options_from_run as resume_options
from text2world.engine.summary import call_totals
from text2world.engine.task import Sample, SampleContext
from text2world.errors import Text2WorldError
from text2world.model.client import ModelSpec
from text2world.pddl.extract import balanced_expression
from text2world.pddl.model import parse_domain
from text2world.scoring.problem_answer import problem_round_verdict
from text2world.store.datasets import BUILTIN, Dataset, DatasetError, Record, load_dataset
from text2world.tasks.problem import reference  # noqa: F401 - registers the reference answers
from text2world.tasks.problem.descriptions import STYLES, describe
from text2world.tasks.problem.feedback import feedback_text, findings
from text2world.tasks.problem.intervals import METRICS, metric_value
from text2world.tasks.problem.kind import ProblemKind
from text2world.tasks.problem.prompts import PROMPT_HASH, correction_messages, problem_messages
from text2world.tasks.problem.records import ProblemConfig, ProblemItem, ProblemRound, problem_config
from text2world.tasks.problem.summary import problem_headline, summarize_problems

KIND = ProblemKind.name
SIZES = ("both", "easy", "hard")
FLOORS = ("first-problem", "empty-goal")  # trivial answers every item also scores
_GOAL = re.compile(r"\(\s*:goal\b", re.IGNORECASE)


class ProblemTaskError(Text2WorldError, ValueError):
    """Bad options of the problem task, or nothing to run: a clear message."""


@dataclass
class ProblemOptions(RunOptions):
    """``t2w eval --task problem``: the shared run options plus the task's own."""

    dataset: str = BUILTIN
    ec: int = 3
    style: str = "explicit"  # the description: explicit or abstract
    size: str = "both"  # easy: the store's problems; hard: generated ones; both
    workers: int | None = None

    FIELDS: ClassVar[dict] = {"ec": ("ec", int), "description": ("style", str),
                              "size": ("size", str)}


def empty_goal(problem_pddl: str) -> str:
    """The problem with its goal replaced by ``(and)``: what asks for nothing."""
    match = _GOAL.search(problem_pddl)
    if match is None:
        return problem_pddl
    goal = balanced_expression(problem_pddl, match.start())
    return problem_pddl[:match.start()] + "(:goal (and))" + \
        problem_pddl[match.start() + len(goal):]


def floor_answers(record: Record, problem_pddl: str) -> dict[str, str]:
    """What each trivial strategy answers for a problem of ``record``: the domain's first store
    problem copied, and the gold's own initial state with an empty goal."""
    first = record.problems[0].pddl if record.problems else ""
    return {"first-problem": f"```pddl\n{first}\n```", "empty-goal":
            f"```pddl\n{empty_goal(problem_pddl)}\n```"}


def score_floors(record: Record, problem_pddl: str) -> dict[str, dict]:
    """The verdicts of the trivial answers on one item (a pool job)."""
    out = {}
    for name, answer in floor_answers(record, problem_pddl).items():
        verdict = problem_round_verdict(record.domain, problem_pddl, answer)
        out[name] = {key: verdict.get(key) for key in (*METRICS, "rule")}
    return out


class ProblemTask:
    """Problems from text with EC_k (``engine.task.Task``)."""

    kind = KIND
    command = "t2w eval --task problem"
    uses_cpu_pool = True

    def __init__(self, options: ProblemOptions) -> None:
        self.options = options
        self.dataset: Dataset | None = None

    def check(self) -> None:
        options = self.options
        if options.ec < 0:
            raise ProblemTaskError("--ec must be 0 or more")
        if options.style not in STYLES:
            raise ProblemTaskError(f"--task problem: unknown description style "
                                   f"{options.style!r}; choose explicit or abstract")
        if options.size not in SIZES:
            raise ProblemTaskError(f"--task problem: unknown size {options.size!r}; choose "
                                   + ", ".join(SIZES))

    def load(self) -> list[Sample]:
        from text2world.tasks.wm.generators import GeneratorError, sized_records

        options = self.options
        try:
            self.dataset = load_dataset(options.dataset)
        except DatasetError as err:
            raise ProblemTaskError(str(err)) from None
        wanted = list(options.domains or [])
        domains = sorted({w.split(":", 1)[0] for w in wanted}) or None
        try:
            records = self.dataset.select(options.split, domains)
        except DatasetError as err:
            raise ProblemTaskError(str(err)) from None
        samples = []
        for size in (("easy", "hard") if options.size == "both" else (options.size,)):
            try:
                sized = records if size == "easy" else sized_records(records, "hard",
                                                                     options.seed)
            except GeneratorError as err:
                raise ProblemTaskError(str(err)) from None
            for record, original in zip(sized, records):
                if size == "hard" and record.meta.get("generator_error"):
                    continue  # no generated problems: its own are the easy ones
                for problem in record.problems:
                    samples.append(Sample(f"{record.id}:{problem.name}", {
                        "record": original, "problem": problem.pddl, "name": problem.name,
                        "size": size}))
        if wanted:
            exact = {w for w in wanted if ":" in w}
            unknown = sorted(exact - {s.id for s in samples})
            if unknown:
                raise ProblemTaskError(f"--domains: no problem item {', '.join(unknown[:5])} "
                                       f"(items are DOMAIN:PROBLEM, e.g. "
                                       f"{samples[0].id if samples else 'blocksworld/p01'})")
            samples = [s for s in samples
                       if s.id in exact or s.id.split(":", 1)[0] in wanted]
        samples.sort(key=lambda s: (s.data["size"] != "easy", s.id))
        samples = samples[:options.limit] if options.limit is not None else samples
        if not samples:
            raise ProblemTaskError(f"no problem to describe in the selection of dataset "
                                   f"{self.dataset.name!r}")
        return samples

    def selection_ids(self, samples: list[Sample]) -> list[str]:
        return [sample.id for sample in samples]

    def configure(self, spec: ModelSpec, generation: dict) -> ProblemConfig:
        dataset = self.dataset
        assert dataset is not None
        return {"dataset": dataset.name, "dataset_source": dataset.source,
                "dataset_hash": dataset.content_hash, "split": self.options.split,
                "description": self.options.style, "size": self.options.size,
                "prompt": "problem", "prompt_hash": PROMPT_HASH, "ec": self.options.ec}

    def run_id(self, config: RunConfig) -> str:
        size = problem_config(config)["size"]
        digest = text_hash(f"{identity_hash(config)}:problem:{size}")
        return make_run_id(("problem", config["model"], config["dataset"],
                            config["description"], size, f"ec{config['ec']}"),
                           digest)

    def before_run(self, pending: list[Sample], executor: Executor | None) -> None:
        pass

    def after_run(self) -> None:
        pass

    async def solve(self, sample: Sample, context: SampleContext) -> ProblemItem:
        data = sample.data
        record: Record = data["record"]
        gold = data["problem"]
        options = self.options
        epoch = getattr(context, "epoch", 0)
        description = await context.cpu(True, describe, record, gold, options.style)
        domain = parse_domain(record.domain)
        messages = problem_messages(record.domain, domain.name, description)
        reference_context = {"task": KIND, "item": sample.id, "domain": record.domain,
                             "problem": gold, "seed": options.seed + 1000 * epoch}
        rounds: list[ProblemRound] = []
        for round_index in range(options.ec + 1):
            if rounds:
                messages = correction_messages(messages, rounds[-1]["response"],
                                               rounds[-1]["feedback"])
            completion = await context.complete(messages, round_index, {
                **reference_context, "round": round_index,
                "feedback": {"unsolvable": bool(rounds) and
                             rounds[-1]["verdict"].get("solvable") is False}})
            verdict = await context.cpu(True, problem_round_verdict, record.domain, gold,
                                        completion.content)
            found = findings(verdict, domain)
            rounds.append({
                "round": round_index, "messages": messages, "response": completion.content,
                "reasoning": completion.reasoning, "problem": verdict.pop("problem", ""),
                "verdict": verdict, "findings": found, "feedback": feedback_text(found),
                "prompt_tokens": completion.prompt_tokens,
                "completion_tokens": completion.completion_tokens, "cost": completion.cost,
                "latency": completion.latency, "attempts": completion.attempts,
                "cached": completion.cached, "finish_reason": completion.finish_reason})
            if not found:
                break
        floors = (await context.cpu(False, score_floors, record, gold)) if epoch == 0 else {}
        return self._record(sample, description, rounds, floors)

    def _record(self, sample: Sample, description: str, rounds: list[ProblemRound],
                floors: dict) -> ProblemItem:
        data, ec = sample.data, self.options.ec
        series = {metric: [metric_value(rounds[min(i, len(rounds) - 1)]["verdict"], metric)
                           for i in range(ec + 1)] for metric in METRICS}
        last = rounds[-1]["verdict"]
        valid = [r["round"] for r in rounds if not r["findings"]]
        return {
            "item": sample.id, "domain": data["record"].id, "problem": data["name"],
            "size": data["size"], "style": self.options.style, "description": description,
            "ec": series, "rule": last.get("rule"), "counterexample": last.get("counterexample"),
            "equivalent_open": last.get("parseable") is True and last.get("equivalent") is None,
            "floors": floors, "valid_round": valid[0] if valid else None,
            "rounds_used": len(rounds),
            **call_totals(rounds),  # usage, cost, latency
            "rounds": rounds,
        }

    def summarize(self, config: RunConfig, items: Sequence[ItemRecord],
                  open_errors: Sequence[ErrorRecord]) -> RunSummary:
        return summarize_problems(config, items)

    def headline(self, summary: RunSummary) -> dict[str, float | None]:
        return problem_headline(summary)

    def finish(self, run: Run, summary: RunSummary) -> RunSummary:
        return summary


# --------------------------------------------------------------------------------------------
# The entry points the CLI and the library use


def plan_problems(options: ProblemOptions) -> TaskPlan:
    """Check everything before any call (``ProblemTaskError`` for bad input)."""
    return plan_task(ProblemTask(options), ProblemTaskError)


def run_problems(options: ProblemOptions, observer: Any = None,
                 problem_plan: TaskPlan | None = None) -> RunResult:
    """Run the task; ``engine.runner.execute`` says what it raises and what a stopped run
    keeps."""
    return execute((problem_plan or plan_problems(options)).prepared, observer)


def problem_options_from_run(path: Any, runs_root: Any = None,
                             **overrides: Any) -> ProblemOptions:
    """The options a problem run was made with (``--resume RUN``)."""
    return resume_options(ProblemOptions, KIND, "t2w eval --task problem", path, runs_root,
                          **overrides)


def default_task() -> ProblemTask:
    """The task with default options (``tasks.registry.task_for_kind``)."""
    return ProblemTask(ProblemOptions())


def task_from_run(run: Run) -> ProblemTask:
    return ProblemTask(ProblemOptions.from_config(run.config, run.path))

