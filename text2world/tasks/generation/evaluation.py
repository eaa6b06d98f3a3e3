"""``t2w eval``: generate -> extract -> validate -> correct, up to ``ec`` correction rounds.

Every round records its prompt, raw answer, extracted domain, validation (with the paper's
error category), tokens, cost and latency, and is scored in both modes, so one run yields
EC_0 .. EC_k: the score after i corrections is the score of the last round <= i (an item that
became valid keeps its domain, as in the released code).

Items run concurrently (asyncio, at most ``max_concurrency`` in flight); the CPU-bound
validation and scoring run in a small process pool so they do not stall the calls of other
items (``scoring_pool``: started only for more than a few items, without waiting for it; its
workers never hold the run lock and die with the eval process, whatever kills it). A smaller
run prepares the golds of its semantic scoring in a background thread from the moment its
items are known (``scoring_pool.GoldPrefetch``). SIGTERM stops a run as Ctrl-C does
(``runs.run_stoppable``). What a round's validation and scores are: ``rounds``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, Awaitable, Protocol

from text2world.model.credentials import lost_credentials_message
from text2world.model.client import (SYSTEM_MESSAGE, Completion, RunSettings, FatalModelError, InfrastructureError,
                  LLMClient, ModelConfigError, ModelSpec, ResponseCache, RetryPolicy,
                  api_key_for, resolve_model)
from text2world.engine.run_store import SCORE_MODES, Run, code_version, make_run_id, \
    run_stoppable, runs_dir, summarize, text_hash, utc_now
from text2world.tasks.generation.rounds import compact_score, error_text, extract_round_domain, score_round, \
    validate_round
from text2world.tasks.generation.exemplars import evaluated_exemplars, exemplar_overlap_message
from text2world.engine.scoring_pool import CpuQueue, GoldPrefetch, make_executor, start_gold_prefetch, warm_up
from text2world.store.datasets import BUILTIN, Dataset, DatasetError, Record, first, load_dataset

BUILTIN_PROMPTS = {"zero-shot": "zero-shot.txt", "few-shot": "few-shot.txt"}
CORRECTION_PROMPT = "correction.txt"
HISTORY_ROUNDS = 5  # earlier rounds shown in a correction prompt, as in the released code
DESCRIPTIONS = ("abstract", "concrete")


class EvalError(ValueError):
    """Bad input to an evaluation (model, dataset, domains, template): a clear message."""


# --------------------------------------------------------------------------------------------
# Options and templates


@dataclass
class EvalOptions(RunSettings):
    """``t2w eval``: the shared run settings plus the generation loop's own."""

    dataset: str = BUILTIN
    ec: int = 3
    prompt: str = "zero-shot"  # a built-in name or a template file
    correction_prompt: str | None = None  # a template file; None: the built-in one
    description: str = "abstract"
    workers: int | None = None  # processes for validation/scoring; 0: in the event loop thread
    runs_root: Path | None = None
    semantic: bool | None = None  # semantic scoring per round; None: on when items have problems
    allow_exemplar_items: bool = False  # evaluate few-shot exemplars too (their gold in the prompt)


@dataclass(frozen=True)
class Template:
    name: str
    text: str

    @property
    def hash(self) -> str:
        return text_hash(self.text)


def load_template(name_or_path: str, required: tuple[str, ...], what: str) -> Template:
    """A built-in template by name, or a template file; it must hold ``required`` fields."""
    builtin = BUILTIN_PROMPTS.get(name_or_path) or (
        CORRECTION_PROMPT if name_or_path == "correction" else None)
    if builtin:
        text = resources.files("text2world").joinpath("prompts", builtin).read_text("utf-8")
        return Template(name_or_path, text)
    path = Path(name_or_path)
    if not path.exists():
        choices = ", ".join(BUILTIN_PROMPTS) if what == "prompt" else "a file"
        raise EvalError(f"{what} template {name_or_path!r}: no such file (built-in choices: "
                        f"{choices})")
    if path.is_dir():
        raise EvalError(f"{what} template {path}: is a folder, not a file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise EvalError(f"{what} template {path}: not UTF-8 text") from None
    except OSError as err:
        raise EvalError(f"{what} template {path}: cannot be read ({err.strerror})") from None
    missing = [f"{{{name}}}" for name in required if f"{{{name}}}" not in text]
    if missing:
        raise EvalError(f"{what} template {path} lacks the placeholder(s) {', '.join(missing)}")
    return Template(str(path), text)


def _fill(template: str, values: dict[str, str]) -> str:
    # Plain replacement: PDDL and descriptions are full of braces that str.format would choke on.
    text = template
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text


def few_shot_examples(records: list[Record], description: str) -> str:
    parts = []
    for number, record in enumerate(records, 1):
        text = record.description(description) or record.abstract or ""
        parts.append(f"Example {number}:\n## Domain description\n{text.strip()}\n\n"
                     f"## PDDL domain\n```pddl\n{record.domain.strip()}\n```")
    return "\n\n".join(parts)


@dataclass(frozen=True)
class Prompts:
    generation: Template
    correction: Template
    examples: str = ""

    def generation_messages(self, description: str) -> list[dict]:
        prompt = _fill(self.generation.text, {"examples": self.examples,
                                               "description": description.strip()})
        return [{"role": "system", "content": SYSTEM_MESSAGE},
                {"role": "user", "content": prompt}]

    def correction_messages(self, history: list[tuple[str, str]], domain: str, error: str,
                            round_index: int) -> list[dict]:
        shown = history[-HISTORY_ROUNDS:]
        first = len(history) - len(shown) + 1
        blocks = [f"Round {first + i}\nDomain with errors:\n{d}\nError message:\n{e}\n"
                  for i, (d, e) in enumerate(shown)]
        history_text = ("Earlier attempts:\n\n" + "\n".join(blocks)) if blocks else ""
        prompt = _fill(self.correction.text, {"history": history_text, "domain": domain,
                                               "error": error, "round": str(round_index)})
        return [{"role": "system", "content": SYSTEM_MESSAGE},
                {"role": "user", "content": prompt}]


# --------------------------------------------------------------------------------------------
# Planning a run


@dataclass
class EvalPlan:
    options: EvalOptions
    spec: ModelSpec
    api_key: str | None
    dataset: Dataset
    selection: list[Record]
    skipped: list[str]
    prompts: Prompts
    config: dict
    run_path: Path
    prefetch: GoldPrefetch | None = None  # golds being prepared for semantic scoring


def _select(dataset: Dataset, options: EvalOptions) -> tuple[list[Record], list[str]]:
    """The items to run and the ids skipped for want of the chosen description."""
    try:
        records = dataset.select(options.split, options.domains)
        skipped = [r.id for r in records
                   if not (r.description(options.description) or "").strip()]
        records = [r for r in records if r.id not in skipped]
        if not records:
            raise EvalError(f"no selected item of dataset {dataset.name!r} has a "
                            f"{options.description} description")
        return first(records, options.limit), skipped
    except DatasetError as err:
        raise EvalError(str(err)) from None


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


def plan(options: EvalOptions, prefetch: bool = False) -> EvalPlan:
    """Check everything that can be wrong before any call is made.

    With ``prefetch``, a run small enough to be scored in this process starts preparing its
    golds for semantic scoring (``scoring_pool.GoldPrefetch``) once its items are known,
    before the model is resolved (which may import litellm, seconds of CPU): ``evaluate``
    then finds them ready. A plan that fails stops it."""
    if options.ec < 0:
        raise EvalError("--ec must be 0 or more")
    if options.max_concurrency < 1:
        raise EvalError("--max-concurrency must be at least 1")
    if options.description not in DESCRIPTIONS:
        raise EvalError(f"unknown description kind {options.description!r}; choose abstract "
                        "or concrete")
    lost = lost_credentials_message(options.api_base, options.model_args, "t2w eval",
                                    options.resume)
    if lost:
        raise EvalError(lost)
    try:
        dataset = load_dataset(options.dataset)
    except DatasetError as err:
        raise EvalError(str(err)) from None
    selection, skipped = _select(dataset, options)
    generation = load_template(options.prompt, ("description",), "prompt")
    correction = load_template(options.correction_prompt or "correction",
                               ("domain", "error"), "correction prompt")
    examples: list[Record] = []
    if "{examples}" in generation.text:
        examples = _few_shot(dataset, options.description)
        overlap = evaluated_exemplars((r.id for r in selection), (r.id for r in examples))
        if overlap and not options.allow_exemplar_items:
            raise EvalError(exemplar_overlap_message(overlap))
    prompts = Prompts(generation, correction, few_shot_examples(examples, options.description))
    semantic = (options.semantic if options.semantic is not None
                else any(r.problems for r in selection))
    prefetcher = start_gold_prefetch(selection, semantic, options.workers) \
        if prefetch and options.resume is None else None
    try:
        return _plan_model(options, dataset, selection, skipped, prompts, examples, semantic,
                           prefetcher)
    except BaseException:
        if prefetcher is not None:
            prefetcher.cancel()
        raise


def _plan_model(options: EvalOptions, dataset: Dataset, selection: list[Record],
                skipped: list[str], prompts: Prompts, examples: list[Record], semantic: bool,
                prefetcher: GoldPrefetch | None) -> EvalPlan:
    try:
        spec = resolve_model(options.model, options.api_base, options.model_args)
    except ModelConfigError as err:
        raise EvalError(str(err)) from None
    try:
        api_key = api_key_for(spec)
    except ModelConfigError as err:
        raise EvalError(str(err)) from None
    generation, correction = prompts.generation, prompts.correction
    settings = LLMClient(spec, temperature=options.temperature, max_tokens=options.max_tokens,
                         api_key=api_key or "").settings
    config = {
        "model": spec.name,
        "litellm_model": spec.litellm_model,
        "api_base": spec.api_base,
        "api_key_env": spec.api_key_env,
        "model_spec": spec.to_config(),
        "reference_model": spec.is_reference,
        "dataset": dataset.name,
        "dataset_source": dataset.source,
        "dataset_hash": dataset.content_hash,
        "split": options.split,
        "description": options.description,
        "prompt": options.prompt if options.prompt in BUILTIN_PROMPTS else generation.name,
        "prompt_hash": generation.hash,
        "correction_prompt": correction.name,
        "correction_prompt_hash": correction.hash,
        "few_shot_examples": [r.id for r in examples],
        "exemplars_evaluated": evaluated_exemplars((r.id for r in selection),
                                                   (r.id for r in examples)),
        "ec": options.ec,
        "generation": settings,
        "seed": options.seed,
        "timeout": options.timeout,
        "max_retries": options.max_retries,
        "selection": {"limit": options.limit, "domains": options.domains},
        "semantic": semantic,
        "planned_items": len(selection),
        "skipped_items": skipped,
        "code_version": code_version(),
    }
    if options.resume is not None:
        run_path = Path(options.resume)
    else:
        run_path = (options.runs_root or runs_dir()) / (options.run_id or make_run_id(config))
    return EvalPlan(options, spec, api_key, dataset, selection, skipped, prompts, config,
                    run_path, prefetcher)


def options_from_run(path: Path, **overrides: Any) -> EvalOptions:
    """The options a run was started with (for ``t2w eval --resume``). ``overrides`` that are
    not None replace them; ``model_args`` are merged (credentials must be given again)."""
    run = Run.open(path)
    config = run.config
    generation = dict(config.get("generation") or {})
    temperature = generation.pop("temperature", None)
    max_tokens = generation.pop("max_tokens", None)
    spec = config.get("model_spec") or {}
    model_args = {k: v for k, v in generation.items() if k not in (spec.get("params") or {})}
    dataset = config.get("dataset", BUILTIN)
    source = config.get("dataset_source") or ""
    if dataset != BUILTIN and source and Path(source).exists() and not \
            (Path(source) / "records.jsonl").is_file():
        dataset = source  # a dataset read straight from a path
    selection = config.get("selection") or {}
    options = EvalOptions(
        model=config["model"], ec=int(config["ec"]), prompt=config.get("prompt", "zero-shot"),
        correction_prompt=(None if config.get("correction_prompt") == "correction"
                           else config.get("correction_prompt")),
        description=config.get("description", "abstract"), dataset=dataset,
        split=config.get("split", "test"), limit=selection.get("limit"),
        domains=selection.get("domains"), api_base=config.get("api_base"),
        temperature=temperature, max_tokens=max_tokens, model_args=model_args,
        timeout=float(config.get("timeout", 600.0)),
        max_retries=int(config.get("max_retries", 5)), seed=int(config.get("seed", 0)),
        resume=Path(path), semantic=bool(config.get("semantic", False)),
        allow_exemplar_items=bool(config.get("exemplars_evaluated")))
    return options.with_overrides(**overrides)


# --------------------------------------------------------------------------------------------
# Running


class Observer(Protocol):
    def start(self, total: int, done: int, run: Run) -> None: ...
    def round_done(self, completion: Completion) -> None: ...
    def item_done(self, record: dict) -> None: ...
    def item_failed(self, item: str, error: InfrastructureError) -> None: ...


class NullObserver:
    def start(self, total: int, done: int, run: Run) -> None:
        pass

    def round_done(self, completion: Completion) -> None:
        pass

    def item_done(self, record: dict) -> None:
        pass

    def item_failed(self, item: str, error: InfrastructureError) -> None:
        pass


@dataclass
class EvalResult:
    run: Run
    summary: dict
    resumed: bool
    new_items: int
    failed_items: int
    wall_time: float


class _Evaluator:
    def __init__(self, evaluation_plan: EvalPlan, run: Run, client: LLMClient,
                 observer: Observer, executor: Executor | None) -> None:
        self.plan = evaluation_plan
        self.run = run
        self.client = client
        self.observer = observer
        self.executor = executor
        self.cpu = CpuQueue(executor) if executor is not None else None
        self.memo: dict[str, dict] = {}
        self.logging: set[asyncio.Task] = set()  # items whose calls are done, being scored
        self.new_items = 0
        self.failed_items = 0
        self.fatal: FatalModelError | None = None
        self._last_summary = 0.0
        # Finished items kept in memory: checkpoints must not re-read a growing log.
        self.finished: dict[str, dict] = {str(item["item"]): item for item in run.items()}
        self.failed_ids: set[str] = {str(e["item"]) for e in run.open_errors()}
        self.paid: list[dict] = run.paid_calls() or []

    async def _in_pool(self, key: str, urgent: bool, function, *args) -> dict:
        if key in self.memo:  # models often repeat a domain verbatim across rounds
            return self.memo[key]
        if self.cpu is None:
            result = function(*args)
        else:
            result = await self.cpu.submit(urgent, function, *args)
        if len(self.memo) < 4096:
            self.memo[key] = result
        return result

    async def validate(self, text: str, extraction_error: str | None) -> dict:
        key = "v" + hashlib.sha256(json.dumps([text, extraction_error]).encode()).hexdigest()
        return await self._in_pool(key, True, validate_round, text, extraction_error)

    async def score(self, gold: str, text: str, problems: tuple = (),
                    response: str | None = None) -> dict:
        key = "s" + hashlib.sha256(json.dumps([gold, text, problems, response]).encode()).hexdigest()
        return await self._in_pool(key, False, score_round, gold, text, SCORE_MODES, problems,
                                   response)

    async def run_item(self, record: Record) -> Awaitable[dict]:
        """Make the item's calls; returns what yields its log record once scoring is done."""
        options = self.plan.options
        prompts = self.plan.prompts
        gold = record.domain
        description = record.description(options.description) or ""
        context = {"gold": gold, "item": record.id, "seed": options.seed}
        rounds: list[dict] = []
        scoring: list[asyncio.Future] = []
        history: list[tuple[str, str]] = []
        messages = prompts.generation_messages(description)
        problems = tuple((p.name, p.pddl) for p in record.problems) \
            if self.plan.config.get("semantic") else ()
        try:
            await self._rounds(gold, context, rounds, scoring, history, messages, problems)
        except BaseException:
            for future in scoring:
                future.cancel()
            raise
        return self._record(record, rounds, scoring)

    async def _rounds(self, gold: str, context: dict, rounds: list[dict], scoring: list,
                      history: list, messages: list[dict], problems: tuple = ()) -> None:
        options = self.plan.options
        prompts = self.plan.prompts
        for round_index in range(options.ec + 1):
            if round_index > 0:
                previous = rounds[-1]
                messages = prompts.correction_messages(history, previous["domain"],
                                                       previous["error_text"], round_index)
                history.append((previous["domain"], previous["error_text"]))
            completion = await self.client.complete(messages, round_index, context)
            if not completion.cached:  # paid: into the ledger before anything else can fail
                self.run.append_paid(context["item"], round_index, completion)
                self.paid.append({"cost": completion.cost})
            self.observer.round_done(completion)
            domain, extraction_error = extract_round_domain(completion.content)
            # Only validation decides the next step; scoring runs beside the next call.
            scoring.append(asyncio.ensure_future(self.score(gold, domain, problems,
                                                            completion.content)))
            validation = await self.validate(domain, extraction_error)
            errors = validation.get("errors", [])
            rounds.append({
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
            })
            if validation.get("ok"):
                break

    async def _record(self, record: Record, rounds: list[dict], scoring: list) -> dict:
        """The item's log record, once the scoring of its rounds is done."""
        options = self.plan.options
        for rnd, result in zip(rounds, await asyncio.gather(*scoring)):
            rnd["scores"] = result["scores"]
            rnd["score_errors"] = result["score_errors"]
            if "semantic" in result:
                rnd["semantic"] = result["semantic"]
        valid_round = next((r["round"] for r in rounds if r["valid"]), None)
        ec_scores = {}
        for mode in SCORE_MODES:
            ec_scores[mode] = [compact_score(rounds[min(i, len(rounds) - 1)]["scores"].get(mode))
                               for i in range(options.ec + 1)]
        from text2world.reports.semantic import ec_semantic
        semantic = ec_semantic(rounds, options.ec)
        if semantic is not None:
            ec_scores["semantic"] = semantic
        return {
            "item": record.id,
            "name": record.name,
            "split": record.split,
            "valid": valid_round is not None,
            "valid_round": valid_round,
            "rounds_used": len(rounds),
            "ec": ec_scores,
            "usage": {"prompt_tokens": sum(r["prompt_tokens"] for r in rounds),
                      "completion_tokens": sum(r["completion_tokens"] for r in rounds)},
            "cost": sum(r["cost"] or 0.0 for r in rounds),
            "latency": round(sum(r["latency"] for r in rounds), 4),
            "finished": utc_now(),
            "rounds": rounds,
        }

    def checkpoint(self, force: bool = False) -> dict | None:
        if not force and time.monotonic() - self._last_summary < 2.0:
            return None
        self._last_summary = time.monotonic()
        open_errors = [{"item": item} for item in sorted(self.failed_ids - set(self.finished))]
        summary = summarize(self.run.config, list(self.finished.values()), open_errors,
                            self.paid)
        summary["planned_items"] = len(self.plan.selection)
        self.run.write_summary(summary)
        return summary

    async def worker(self, queue: asyncio.Queue) -> None:
        while True:
            try:
                record = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                finishing = await self.run_item(record)
            except InfrastructureError as error:
                self.failed_items += 1
                self.failed_ids.add(record.id)
                self.run.append_error({"item": record.id, "error": error.to_dict(),
                                       "at": utc_now()})
                self.observer.item_failed(record.id, error)
                continue
            except FatalModelError as error:
                self.fatal = error
                raise
            # The calls are done: take the next item while this one's scoring finishes.
            task = asyncio.ensure_future(self._log(record, finishing))
            self.logging.add(task)
            task.add_done_callback(self.logging.discard)

    async def _log(self, record: Record, finishing) -> None:
        item = await finishing
        self.run.append_item(item)
        self.finished[record.id] = item
        self.new_items += 1
        self.observer.item_done(item)
        self.checkpoint()


async def _run(evaluation_plan: EvalPlan, run: Run, client: LLMClient, pending: list[Record],
               observer: Observer, executor: Executor | None) -> _Evaluator:
    evaluator = _Evaluator(evaluation_plan, run, client, observer, executor)
    if executor is None and pending and evaluation_plan.prefetch is None:
        # Scoring runs in this process: import its modules in a thread while the first
        # calls wait for the model, not after the first answer (a gold prefetch does it too).
        asyncio.get_running_loop().run_in_executor(None, warm_up, 0)
    queue: asyncio.Queue = asyncio.Queue()
    for record in pending:
        queue.put_nowait(record)
    workers = [asyncio.create_task(evaluator.worker(queue))
               for _ in range(min(evaluation_plan.options.max_concurrency, len(pending)) or 1)]
    try:
        await asyncio.gather(*workers)
    except FatalModelError:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    finally:
        for task in workers:
            task.cancel()
        # Items whose calls all finished are logged even when the run stops.
        while evaluator.logging:
            await asyncio.gather(*list(evaluator.logging))
    return evaluator


def evaluate(options: EvalOptions, observer: Observer | None = None,
             evaluation_plan: EvalPlan | None = None) -> EvalResult:
    """Run (or resume) an evaluation; returns the run and its summary.

    Raises EvalError for bad input, RunError for a run directory that cannot be used,
    FatalModelError when the model cannot be called at all (bad key, unknown model, no server
    at the api base), KeyboardInterrupt on Ctrl-C and ``runs.Stopped`` on SIGTERM or SIGHUP
    (in every case the finished items are kept and the pool is shut down).
    """
    started = time.monotonic()
    evaluation_plan = evaluation_plan or plan(options)
    try:
        return _evaluate(evaluation_plan, observer or NullObserver(), started)
    finally:
        if evaluation_plan.prefetch is not None:  # nothing more to prepare for this run
            evaluation_plan.prefetch.cancel()


def _evaluate(evaluation_plan: EvalPlan, observer: Observer, started: float) -> EvalResult:
    options = evaluation_plan.options
    run, resumed = Run.create_or_resume(evaluation_plan.run_path, evaluation_plan.config)
    # The pool is forked before the lock is taken, so no worker ever holds it (forked
    # children also close run descriptors: runs.register_at_fork). The log is read again
    # under the lock below.
    unfinished = len(evaluation_plan.selection) - len(run.finished_ids())
    executor = make_executor(options.workers, unfinished) if unfinished else None
    try:
        run.lock()
    except BaseException:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        raise
    try:
        finished = run.finished_ids()
        pending = [r for r in evaluation_plan.selection if r.id not in finished]
        if executor is None and evaluation_plan.prefetch is None and pending:
            evaluation_plan.prefetch = start_gold_prefetch(
                pending, bool(evaluation_plan.config.get("semantic")), options.workers)
        observer.start(len(evaluation_plan.selection),
                       len(evaluation_plan.selection) - len(pending), run)
        client = LLMClient(evaluation_plan.spec, temperature=options.temperature,
                           max_tokens=options.max_tokens, timeout=options.timeout,
                           retry=RetryPolicy(options.max_retries, options.retry_base_delay),
                           cache=ResponseCache(), read_cache=options.use_cache,
                           api_key=evaluation_plan.api_key or "")
        try:
            evaluator = run_stoppable(lambda: _run(evaluation_plan, run, client, pending,
                                                   observer, executor))
        finally:
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
            summary = run.summary()
            summary["planned_items"] = len(evaluation_plan.selection)  # may grow on resume
            run.write_summary(summary)
        if evaluator.fatal is not None:
            raise evaluator.fatal
        return EvalResult(run, summary, resumed, evaluator.new_items,
                          evaluator.failed_items, time.monotonic() - started)
    finally:
        run.close()
