"""``t2w eval`` as a task of the engine: generate -> extract -> validate -> correct, up to
``ec`` correction rounds.

Every round records its prompt, raw answer, extracted domain, validation (with the paper's
error category), tokens, cost and latency, and is scored in both modes, so one run yields
EC_0 .. EC_k: the score after i corrections is the score of the last round <= i (an item that
became valid keeps its domain, as in the released code).

Validation and scoring are CPU-bound: they run in the engine's process pool (``engine.pool``:
started only for more than a few items; validation ahead of scoring, and a round's scoring
overlaps the next call). A smaller run prepares the golds of its semantic scoring in a
background thread from the moment its items are known (``pool.GoldPrefetch``). What a round's
validation and scores are: ``scoring``. Both are kept on disk (``caching.ResultCache``), so
that a later run over the same texts, with the same code, takes them instead.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Awaitable, Callable, ClassVar, Sequence

from text2world.engine.options import RunOptions
from text2world.engine.pool import GoldPrefetch, pool_workers, start_gold_prefetch, warm_up
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
from text2world.engine.runner import RunResult, TaskPlan, execute, prepare, warm_up_in_background
from text2world.engine.runner import options_from_run as resume_options
from text2world.engine.summary import call_totals
from text2world.engine.task import Sample, SampleContext
from text2world.model.client import ModelConfigError, ModelSpec
from text2world.scoring.caching import ResultCache
from text2world.scoring.score_base import MODES
from text2world.store.datasets import BUILTIN, Dataset, DatasetError, Record, first, load_dataset
from text2world.tasks.generation.agent import DEFAULT_TOOL_BUDGET, run_agent
from text2world.tasks.generation.exemplars import evaluated_exemplars, exemplar_overlap_message
from text2world.tasks.generation.feedback import (
    behavior_report,
    check_protocol,
    is_oracle,
    loop_ends,
    plans_report,
    protocol_name,
)
from text2world.tasks.generation.kind import GenerationKind
from text2world.tasks.generation.prompts import (
    BUILTIN_PROMPTS,
    DESCRIPTIONS,
    EvalError,
    Prompts,
    description_text,
    few_shot_examples,
    load_template,
    prompt_for,
)
from text2world.tasks.generation.records import (
    GenerationConfig,
    GenerationItem,
    GenerationRound,
    GenerationSummary,
    generation_config,
    generation_items,
    generation_summary,
)
from text2world.tasks.generation.scoring import (
    compact_score,
    error_text,
    extract_round_domain,
    score_round_repeats,
    validate_round_repeats,
)
from text2world.tasks.generation.summary import summarize as summarize_items

KIND = GenerationKind.name


@dataclass
class EvalOptions(RunOptions):
    """``t2w eval``: the shared run options plus the generation loop's own."""

    dataset: str = BUILTIN
    ec: int = 3
    prompt: str = "zero-shot"  # a built-in name or a template file
    correction_prompt: str | None = None  # a template file; None: the built-in one
    description: str = "abstract"
    workers: int | None = None  # processes for validation/scoring; 0: in the event loop thread
    semantic: bool | None = None  # semantic scoring per round; None: on when items have problems
    mystery: bool = False  # obfuscated copies of the domains (tasks/wm/mystery.py)
    allow_exemplar_items: bool = False  # evaluate few-shot exemplars too (their gold in the prompt)
    feedback: str = "syntax"  # what the model is told between rounds (tasks/generation/feedback.py)
    agent: bool = False  # one round written with tools (tasks/generation/agent.py)
    tool_budget: int = DEFAULT_TOOL_BUDGET  # tool calls of one agent episode

    FIELDS: ClassVar[dict] = {
        "exemplars_evaluated": ("allow_exemplar_items", bool),
        "ec": ("ec", int), "prompt": ("prompt", str), "description": ("description", str),
        "correction_prompt": ("correction_prompt",
                              lambda value: None if value == "correction" else value),
        "semantic": ("semantic", bool), "mystery": ("mystery", bool),
        # runs made before protocols have none of these: the paper's protocol (syntax)
        "feedback": ("feedback", str), "agent": ("agent", bool), "tool_budget": ("tool_budget", int)}


class GenerationTask:
    """The Text2World generation loop with EC_k (``engine.task.Task``)."""

    kind = KIND
    command = GenerationKind.command
    uses_cpu_pool = True

    def __init__(self, options: EvalOptions, prefetch: bool = False) -> None:
        self.options = options
        self.prefetch_at_load = prefetch
        self.prefetch: GoldPrefetch | None = None
        self.dataset: Dataset | None = None
        self.skipped: list[str] = []
        self.prompts: Prompts | None = None
        self.examples: list[Record] = []
        self.exemplars_evaluated: list[str] = []
        self.semantic = False
        self.memo: dict[str, dict] = {}
        self.results: ResultCache | None = None  # results kept on disk, opened on first use
        self.split_workers = 0  # the pool's workers (past 1: semantic scores cut per problem)
        self.problem_costs: dict[tuple[str, int], float] = {}  # (gold, problem) -> gold CPU-s
        self.tools: Any = None  # the service's tools (plans feedback, agent), started on first use

    @property
    def protocol(self) -> str:
        return protocol_name(self.options.feedback, self.options.agent)

    # ---- before any call

    def check(self) -> None:
        options = self.options
        if options.ec < 0:
            raise EvalError("--ec must be 0 or more")
        if options.description not in DESCRIPTIONS:
            raise EvalError(f"unknown description kind {options.description!r}; choose "
                            f"{', '.join(DESCRIPTIONS)}")
        options.prompt = prompt_for(options.description, options.prompt, options.mystery)
        check_protocol(options.feedback)
        if options.agent:
            if options.feedback != "syntax":
                raise EvalError("--agent is a protocol of its own: give it without --feedback")
            if options.tool_budget < 0:
                raise EvalError("--tool-budget must be 0 or more")
            options.ec = 0  # one episode: its final domain is the only round
        if options.feedback == "behavior" and options.semantic is False:
            raise EvalError("--feedback behavior reports the semantic comparison: it needs "
                            "semantic scoring (drop --no-semantic)")

    def load(self) -> list[Sample]:
        options = self.options
        try:
            self.dataset = load_dataset(options.dataset)
        except DatasetError as err:
            raise EvalError(str(err)) from None
        selection = self._select(self.dataset)
        generation = load_template(options.prompt, ("description",), "prompt")
        correction = load_template(options.correction_prompt or "correction",
                                   ("domain", "error"), "correction prompt")
        if "{examples}" in generation.text:
            self.examples = _few_shot(self.dataset, options.description)
        overlap = evaluated_exemplars((r.id for r in selection), (r.id for r in self.examples))
        if overlap and not options.allow_exemplar_items:
            raise EvalError(exemplar_overlap_message(overlap))
        self.exemplars_evaluated = overlap
        self.prompts = Prompts(generation, correction,
                               few_shot_examples(self.examples, options.description))
        self.semantic = (options.semantic if options.semantic is not None
                         else any(r.problems for r in selection))
        if options.feedback == "behavior" and not self.semantic:
            raise EvalError("--feedback behavior needs items with problems (the semantic "
                            f"comparison runs on them); dataset {self.dataset.name!r} has none")
        # Golds prepared from the moment the items are known, before the model is resolved
        # (which may import litellm, seconds of CPU).
        if self.prefetch_at_load and options.resume is None:
            self.prefetch = start_gold_prefetch(selection, self.semantic, options.workers)
        return [Sample(record.id, record) for record in selection]

    def _select(self, dataset: Dataset) -> list[Record]:
        """The items to run (and ``skipped``: ids without the chosen description)."""
        options = self.options
        try:
            records = dataset.select(options.split, options.domains)
        except DatasetError as err:
            raise EvalError(str(err)) from None
        self.skipped = [r.id for r in records
                        if not (description_text(r, options.description) or "").strip()]
        records = [r for r in records if r.id not in self.skipped]
        if not records:
            raise EvalError(f"no selected item of dataset {dataset.name!r} has a "
                            f"{options.description} description")
        records = first(records, options.limit)
        if options.mystery:  # every name a seeded nonsense word: gold, description, problems
            from text2world.tasks.wm.mystery import mystery_records

            records = mystery_records(records, options.seed)
        return records

    def selection_ids(self, samples: list[Sample]) -> list[str]:
        return [sample.id for sample in samples]

    def configure(self, spec: ModelSpec, generation: dict) -> GenerationConfig:
        options, prompts, dataset = self.options, self.prompts, self.dataset
        assert prompts is not None and dataset is not None
        return {
            "dataset": dataset.name,
            "dataset_source": dataset.source,
            # a mystery run measures other texts: its own identity
            "dataset_hash": dataset.content_hash + (f"+mystery:{options.seed}"
                                                    if options.mystery else ""),
            "mystery": options.mystery,
            "split": options.split,
            "description": options.description,
            "prompt": (options.prompt if options.prompt in BUILTIN_PROMPTS
                       else prompts.generation.name),
            "prompt_hash": prompts.generation.hash,
            "correction_prompt": prompts.correction.name,
            "correction_prompt_hash": prompts.correction.hash,
            "few_shot_examples": [r.id for r in self.examples],
            "exemplars_evaluated": self.exemplars_evaluated,
            "ec": options.ec,
            "semantic": self.semantic,
            "skipped_items": self.skipped,
            # the protocol (tasks/generation/feedback.py): part of the run's identity
            "protocol": self.protocol,
            "feedback": options.feedback,
            "oracle_feedback": is_oracle(self.protocol),
            "agent": options.agent,
            **({"tool_budget": options.tool_budget} if options.agent else {}),
        }

    def run_id(self, config: RunConfig) -> str:
        # The names runs always had: the same command finds the runs made before the engine.
        prompt = "-".join(part for part in
                          "".join(c if c.isalnum() else " " for c in str(config["prompt"])).split())
        digest = identity_hash(config)
        protocol = str(config.get("protocol") or "syntax")
        parts = [config["model"], config["dataset"], config["description"], prompt,
                 f"ec{config['ec']}"]
        if protocol != "syntax":  # the paper's protocol keeps the names its runs always had
            budget = generation_config(config).get("tool_budget")
            tag = protocol + (f"{budget}" if config.get("agent") else "")
            parts.append(tag)
            digest = text_hash(f"{digest}:{tag}")
        return make_run_id(parts, digest)

    def before_run(self, pending: list[Sample], executor: Executor | None) -> None:
        self.split_workers = pool_workers(executor)
        if executor is not None or not pending:
            return
        if self.prefetch is None:
            self.prefetch = start_gold_prefetch([s.data for s in pending], self.semantic,
                                                self.options.workers)
        if self.prefetch is None:
            # Scoring runs in this process: import its modules while the first calls wait.
            warm_up_in_background(warm_up)

    def after_run(self) -> None:
        if self.prefetch is not None:  # nothing more to prepare for this run
            self.prefetch.cancel()
        if self.tools is not None:
            self.tools.close()
            self.tools = None

    def _tools(self, context: SampleContext) -> Any:
        """The service's tools (``service.tools``: those ``t2w mcp`` serves, same checks and
        limits), started on first use: one scoring process for an engine run; threads under
        Inspect (no run, so no ``after_run`` to stop a process)."""
        if self.tools is None:
            from text2world.service.tools import McpSettings, Tools

            kind = "process" if getattr(context, "run", None) is not None else "thread"
            self.tools = Tools(McpSettings(processes=1, executor=kind))
        return self.tools

    # ---- the solver and scorer

    async def _memo(self, key: str, compute: Callable[[], Awaitable[tuple[dict, bool]]]
                    ) -> dict:
        """What ``compute()`` answers (result, whether it repeats; jobs of the pool): from
        this run's memory, else from the results earlier runs kept on disk
        (``caching.ResultCache``, keyed by the inputs and the code), else computed (and kept
        on disk when it repeats)."""
        if key in self.memo:  # models often repeat a domain verbatim across rounds
            return self.memo[key]
        if self.results is None:
            self.results = ResultCache()
        stored_key = self.results.key("t2w eval round", key)  # key: "v" or "s" + inputs
        result = self.results.get(stored_key)
        if result is None:
            result, repeats = await compute()
            if repeats:
                self.results.put(stored_key, result)
        if len(self.memo) < 4096:
            self.memo[key] = result
        return result

    async def _validate(self, context: SampleContext, gold: str, text: str,
                        extraction_error: str | None) -> dict:
        key = "v" + hashlib.sha256(json.dumps([text, extraction_error]).encode()).hexdigest()
        # preferably where the round is scored: that worker then finds the answer parsed
        return await self._memo(key, lambda: context.cpu(
            True, validate_round_repeats, text, extraction_error, affinity=_gold_key(gold)))

    async def _score(self, context: SampleContext, gold: str, text: str, problems: tuple,
                     response: str | None) -> dict:
        key = "s" + hashlib.sha256(json.dumps([gold, text, problems, response]).encode()).hexdigest()
        if problems and self.split_workers > 1:
            return await self._memo(key, lambda: self._score_split(context, gold, text,
                                                                   problems, response))
        # the rounds of one gold are scored by one worker: its gold side is prepared once
        return await self._memo(key, lambda: context.cpu(
            False, score_round_repeats, gold, text, MODES, problems, response,
            affinity=_gold_key(gold)))

    async def _score_split(self, context: SampleContext, gold: str, text: str,
                           problems: tuple, response: str | None) -> tuple[dict, bool]:
        """``score_round_repeats`` cut for a pool of several workers: the semantic score as
        one job per gold problem (``scoring.semantic_tasks``), submitted longest expected
        first (by the CPU each gold problem's preparation took, measured by the worker that
        prepared it; a problem not yet measured first, its preparation still to pay, larger
        problems first), merged to the unsplit result but for the wall-clock ``seconds``.
        Each problem's jobs go to one worker (its gold problem is prepared once); the other
        modes' scores are one job beside them, where the round was validated."""
        from text2world.scoring.semantic_tasks import (
            lpt_order,
            problem_tasks,
            round_of_parts,
            score_problem,
            task_sizes,
        )

        home = _gold_key(gold)
        tasks = problem_tasks([(gold, text, problems)])
        known = self.problem_costs
        order = lpt_order([known.get((home, task.index)) for task in tasks], task_sizes(tasks))
        tasks = [tasks[index] for index in order]
        jobs = [context.cpu(False, score_problem, task, affinity=f"{home}#{task.index}")
                for task in tasks]
        jobs.append(context.cpu(False, score_round_repeats, gold, text, MODES, (),
                                response, affinity=home))
        *found, modes = await asyncio.gather(*jobs, return_exceptions=True)
        if isinstance(modes, BaseException):  # the gold cannot be scored: as unsplit
            raise modes
        for answer in found:  # the pool is gone, the run cancelled: as unsplit
            if isinstance(answer, BrokenExecutor) or not isinstance(answer, Exception) and \
                    isinstance(answer, BaseException):
                raise answer
        parts = [part for _, part in sorted(zip((t.index for t in tasks), found),
                                            key=lambda pair: pair[0])]
        for part in parts:
            if not isinstance(part, BaseException):
                known[(home, part.index)] = part.gold_cost
        analysis, repeats = modes
        analysis["semantic"], semantic_repeats = round_of_parts(parts)
        return analysis, repeats and semantic_repeats

    async def solve(self, sample: Sample, context: SampleContext) -> Awaitable[GenerationItem]:
        """Make the item's calls; returns what yields its log record once scoring is done."""
        record: Record = sample.data
        options, prompts = self.options, self.prompts
        assert prompts is not None
        gold = record.domain
        # later epochs are other samples of a reference model too (epoch 0 as always)
        reference = {"gold": gold, "item": record.id,
                     "seed": options.seed + 1000 * getattr(context, "epoch", 0)}
        rounds: list[GenerationRound] = []
        scoring: list[asyncio.Future] = []
        history: list[tuple[str, str]] = []
        messages = prompts.generation_messages(description_text(record, options.description) or "")
        problems = tuple((p.name, p.pddl) for p in record.problems) if self.semantic else ()
        try:
            if options.agent:
                episode = await run_agent(context, self._tools(context), messages,
                                          tuple((p.name, p.pddl) for p in record.problems),
                                          options.tool_budget, reference)
                rnd = await self._round(context, 0, episode["transcript"][:len(messages)],
                                        episode["completion"], gold, problems, scoring)
                rnd.update({"kind": "agent", "tool_calls": episode["tool_calls"],
                            "turns": episode["turns"],
                            "transcript": episode["transcript"][len(messages):],
                            "prompt_tokens": episode["prompt_tokens"],
                            "completion_tokens": episode["completion_tokens"],
                            "cost": episode["cost"], "latency": episode["latency"],
                            "attempts": episode["attempts"], "cached": episode["cached"]})
                rounds.append(rnd)
                return self._record(record, rounds, scoring)
            for round_index in range(options.ec + 1):
                context_now = reference
                if round_index > 0:
                    previous = rounds[-1]
                    messages = prompts.correction_messages(history, previous["domain"],
                                                           previous["error_text"], round_index)
                    history.append((previous["domain"], previous["error_text"]))
                    if previous.get("feedback"):  # what a reference model may act on
                        context_now = {**reference, "feedback": {
                            "kind": previous["feedback"]["kind"],
                            "open": previous["feedback"]["open"]}}
                completion = await context.complete(messages, round_index, context_now)
                rnd = await self._round(context, round_index, messages, completion, gold,
                                        problems, scoring)
                previous_round = rounds[-1] if rounds else None
                rounds.append(rnd)
                if not rnd["valid"]:
                    continue
                if options.feedback == "syntax" or round_index == options.ec:
                    break
                report = await self._feedback(context, rnd, scoring[-1], record)
                if loop_ends(report, rnd["domain"], previous_round):
                    rnd["feedback_end"] = {"kind": report["kind"], "open": report["open"],
                                           "findings": report["findings"]}
                    break
                rnd["feedback"] = report
                rnd["error_text"] = report["text"]
        except BaseException:
            for future in scoring:
                future.cancel()
            raise
        return self._record(record, rounds, scoring)

    async def _round(self, context: SampleContext, round_index: int, messages: list[dict],
                     completion: Any, gold: str, problems: tuple,
                     scoring: list) -> GenerationRound:
        """One answered round: its domain validated; its scoring started (into ``scoring``),
        to finish beside the next call."""
        domain, extraction_error = extract_round_domain(completion.content)
        scoring.append(asyncio.ensure_future(self._score(
            context, gold, domain, problems, completion.content)))
        validation = await self._validate(context, gold, domain, extraction_error)
        errors = validation.get("errors", [])
        return {
            "round": round_index,
            "kind": "generate" if round_index == 0 else "correct",
            "messages": messages,
            "response": completion.content,
            "reasoning": completion.reasoning,
            "domain": domain,
            "extracted": extraction_error is None,
            "valid": bool(validation.get("ok")),
            "validation": validation,
            "category": errors[0]["category"] if errors else None,
            "error_text": "" if validation.get("ok") else error_text(validation),
            "scores": None,
            "score_errors": None,
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "cost": completion.cost,
            "latency": completion.latency,
            "attempts": completion.attempts,
            "cached": completion.cached,
            "finish_reason": completion.finish_reason,
        }

    async def _feedback(self, context: SampleContext, rnd: GenerationRound, scored: asyncio.Future,
                        record: Record) -> dict:
        """The protocol's report on a valid round (``feedback``)."""
        if self.options.feedback == "plans":
            return await plans_report(self._tools(context), rnd["domain"],
                                      tuple((p.name, p.pddl) for p in record.problems))
        # the oracle: the round's own semantic comparison with the gold
        result = await asyncio.shield(scored)
        return behavior_report(result.get("semantic"))

    async def _record(self, record: Record, rounds: list[GenerationRound],
                      scoring: list) -> GenerationItem:
        """The item's log record, once the scoring of its rounds is done."""
        ec = self.options.ec
        for rnd, result in zip(rounds, await asyncio.gather(*scoring)):
            rnd["scores"] = result["scores"]
            rnd["score_errors"] = result["score_errors"]
            if "semantic" in result:
                rnd["semantic"] = result["semantic"]
        # valid from this round on (a feedback round may break a domain that validated)
        valid_round = None
        for rnd in reversed(rounds):
            if not rnd["valid"]:
                break
            valid_round = rnd["round"]
        ec_scores: dict[str, Any] = {
            mode: [compact_score((rounds[min(i, len(rounds) - 1)]["scores"] or {}).get(mode))
                   for i in range(ec + 1)] for mode in MODES}
        from text2world.scoring.semantic_record import ec_semantic
        semantic = ec_semantic(rounds, ec)
        if semantic is not None:
            ec_scores["semantic"] = semantic
        return {
            "item": record.id,
            "name": record.name,
            "protocol": self.protocol,
            "tool_calls": sum(len(r.get("tool_calls") or ()) for r in rounds),
            "split": record.split,
            **({"family": record.family} if record.family else {}),
            "valid": valid_round is not None,
            "valid_round": valid_round,
            "rounds_used": len(rounds),
            "ec": ec_scores,
            **call_totals(rounds),  # usage, cost, latency
            "rounds": rounds,
        }

    # ---- summaries

    def summarize(self, config: RunConfig, items: Sequence[ItemRecord],
                  open_errors: Sequence[ErrorRecord]) -> GenerationSummary:
        return summarize_items(config, generation_items(items), open_errors)

    def headline(self, summary: RunSummary) -> dict[str, float | None]:
        """EC_k (the last round) of each mode: executable and similarity; with semantic
        scores, each semantic metric's headline (a round not simulated counts 0:
        ``scoring.semantic_record``)."""
        from text2world.scoring.semantic import METRICS as SEMANTIC_METRICS

        values: dict[str, float | None] = {}
        summary = generation_summary(summary)
        for mode in MODES:
            rounds = (summary.get("metrics") or {}).get(mode) or []
            if rounds:
                for metric in ("executable", "similarity"):
                    values[f"{mode}.{metric}"] = rounds[-1].get(metric)
        semantic = (summary.get("metrics") or {}).get("semantic") or []
        if semantic:
            for metric in SEMANTIC_METRICS:
                values[f"semantic.{metric}"] = semantic[-1].get(metric)
        return values

    def finish(self, run: Run, summary: RunSummary) -> RunSummary:
        return summary


def _gold_key(gold: str) -> str:
    """The affinity of a gold's jobs in the pool (``pool.CpuQueue``)."""
    return hashlib.sha256(gold.encode()).hexdigest()


def _few_shot(dataset: Dataset, description: str) -> list[Record]:
    """The two train domains of the dataset; a dataset without them (the released test file)
    borrows those of the built-in store."""
    train = dataset.split("train")
    if len(train) < 2 and dataset.name != BUILTIN:
        try:
            train = load_dataset(BUILTIN).split("train")
        except DatasetError:
            train = []
    if len(train) < 2:
        raise EvalError(f"few-shot prompting needs 2 train domains; dataset {dataset.name!r} "
                        f"has {len(train)} (and so does the built-in store)")
    return train[:2]


# --------------------------------------------------------------------------------------------
# The entry points ``t2w eval`` and the library use


class EvalPlan(TaskPlan):
    """A planned evaluation (``plan``): its task, prepared run, config and folder."""

    task: GenerationTask

    @property
    def selection(self) -> list[Record]:
        return [sample.data for sample in self.prepared.samples]

    @property
    def skipped(self) -> list[str]:
        return self.task.skipped

    @property
    def prefetch(self) -> GoldPrefetch | None:
        return self.task.prefetch


def plan(options: EvalOptions, prefetch: bool = False) -> EvalPlan:
    """Check everything that can be wrong before any call is made. With ``prefetch``, a run
    small enough to be scored in this process starts preparing its golds for semantic
    scoring once its items are known."""
    task = GenerationTask(options, prefetch=prefetch)
    try:
        return EvalPlan(task, prepare(task))
    except ModelConfigError as err:
        raise EvalError(str(err)) from None
    except BaseException:
        task.after_run()
        raise


def evaluate(options: EvalOptions, observer=None, evaluation_plan: EvalPlan | None = None
             ) -> RunResult:
    """Run (or resume) an evaluation; returns the run and its summary (``engine.runner``
    says what it raises and what a stopped run keeps)."""
    evaluation_plan = evaluation_plan or plan(options)
    return execute(evaluation_plan.prepared, observer)


def options_from_run(path: Path, runs_root: Path | None = None, **overrides: Any) -> EvalOptions:
    """The options a run was made with (for ``t2w eval --resume``). ``overrides`` that are
    not None replace them; ``model_args`` are merged (credentials must be given again)."""
    return resume_options(EvalOptions, KIND, "t2w eval", path, runs_root, **overrides)


def default_task() -> GenerationTask:
    """The task with default options (``tasks.registry.task_for_kind``)."""
    return GenerationTask(EvalOptions())


def task_from_run(run: Run) -> GenerationTask:
    return GenerationTask(EvalOptions.from_config(run.config, run.path))


EvalResult = RunResult
__all__ = ["EvalError", "EvalOptions", "EvalPlan", "EvalResult", "GenerationTask", "evaluate",
           "options_from_run", "plan"]
