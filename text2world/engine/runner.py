"""The engine: runs any task (``engine.task``) over its samples, for every task alike.

``prepare`` checks everything that can be wrong before any call (options, credentials lost
on resume, the model and its key, the samples) and builds the run config; ``execute`` runs it:

* the run folder is created or resumed (``run_store``); a larger selection or more epochs
  extend it, so ``--resume`` finishes everything the run was ever asked for;
* the CPU pool (tasks that validate and score in processes) is forked **before** the run lock
  is taken, so no worker ever holds it, and its workers die with this process;
* samples run concurrently (asyncio, at most ``max_concurrency`` in flight); a solver may
  hand back its scoring as an awaitable, which finishes while the next sample's calls start;
* every paid call goes to the ledger as soon as it is answered; infrastructure errors go to
  ``errors.jsonl`` (retried on resume); a fatal model error stops the run;
* SIGTERM and SIGHUP stop the run as Ctrl-C does (``process.run_stoppable``); whatever stops
  it, the samples whose calls are done are logged and the summary is written.

``epochs`` (``--epochs N``) runs every sample N times; epoch e's calls are cached apart
(epoch 0 keeps the cache keys calls always had) and the summary gives the task's headline
values per epoch with their spread.
"""

from __future__ import annotations

import asyncio
import threading
import time
import uuid
from collections.abc import Awaitable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Protocol, TypeVar, cast

from text2world.engine.kinds import kind_names, kind_spec
from text2world.engine.options import OptionsError, RunOptions
from text2world.engine.pool import CpuQueue, make_executor
from text2world.engine.process import run_stoppable
from text2world.engine.run_store import (
    CONFIG_FILE,
    ErrorInfo,
    ErrorRecord,
    ItemRecord,
    PaidCall,
    Run,
    RunConfig,
    RunError,
    RunSummary,
    RunWriteError,
    SentCall,
    code_version,
    runs_dir,
    sample_key,
    utc_now,
)
from text2world.engine.summary import common_summary, spread, summarize  # noqa: F401 (their old home)
from text2world.engine.task import Sample, Task
from text2world.model.client import (
    Completion,
    FatalModelError,
    InfrastructureError,
    LLMClient,
    ModelConfigError,
    ModelSpec,
    ResponseCache,
    RetryPolicy,
    api_key_for,
    resolve_model,
)
from text2world.model.credentials import lost_credentials_message
from text2world.model.environment import REFERENCE_JUDGES


class Observer(Protocol):
    """Progress of a run (the CLI's progress bar or lines)."""

    def start(self, total: int, done: int, run: Run) -> None: ...
    def call_done(self, completion: Completion) -> None: ...
    def item_done(self, record: ItemRecord) -> None: ...
    def item_failed(self, item: str, error: InfrastructureError) -> None: ...


class NullObserver:
    def start(self, total: int, done: int, run: Run) -> None:
        pass

    def call_done(self, completion: Completion) -> None:
        pass

    def item_done(self, record: ItemRecord) -> None:
        pass

    def item_failed(self, item: str, error: InfrastructureError) -> None:
        pass


@dataclass
class Prepared:
    """A run ready to start: nothing has been called or written yet."""

    task: Task
    spec: ModelSpec
    api_key: str | None
    samples: list[Sample]
    config: RunConfig
    run_path: Path


@dataclass
class TaskPlan:
    """A task with its prepared run (what ``plan`` returns for every task)."""

    task: Task
    prepared: Prepared

    @property
    def options(self) -> Any:
        return self.task.options

    @property
    def spec(self) -> ModelSpec:
        return self.prepared.spec

    @property
    def config(self) -> RunConfig:
        return self.prepared.config

    @property
    def run_path(self) -> Path:
        return self.prepared.run_path


@dataclass
class RunResult:
    run: Run
    summary: RunSummary  # the task's own summary type (``tasks/<kind>/records.py``)
    resumed: bool
    new_items: int
    failed_items: int
    wall_time: float
    stats: dict = field(default_factory=dict)  # the task's own counters


def prepare(task: Task) -> Prepared:
    """Check everything before any call and build the run's config and folder path.

    Raises the task's error class (or ``OptionsError``/``RunError``) with a clear message."""
    options = task.options
    if options.max_concurrency < 1:
        raise OptionsError("--max-concurrency must be at least 1")
    if options.epochs < 1:
        raise OptionsError("--epochs must be at least 1")
    task.check()
    lost = lost_credentials_message(options.api_base, options.model_args, task.command,
                                    options.resume)
    if lost:
        raise OptionsError(lost)
    samples = task.load()
    try:
        spec = resolve_model(options.model, options.api_base, options.model_args)
        api_key = api_key_for(spec)
        check_reference_role(spec, task)
    except ModelConfigError:
        task.after_run()
        raise
    generation = LLMClient(spec, temperature=options.temperature,
                           max_tokens=options.max_tokens, api_key=api_key or "").settings
    config: RunConfig = {
        "kind": task.kind,
        "model": spec.name,
        "litellm_model": spec.litellm_model,
        "api_base": spec.api_base,
        "api_key_env": spec.api_key_env,
        "model_spec": spec.to_config(),
        "reference_model": spec.is_reference,
        **task.configure(spec, generation),
        "generation": generation,
        "seed": options.seed,
        "timeout": options.timeout,
        "max_retries": options.max_retries,
        "selection": options.selection_flags(),
        "selected": task.selection_ids(samples),
        "epochs": options.epochs,
        "planned_items": len(samples),
        **({"label": options.label.strip()} if options.label and options.label.strip() else {}),
        "code_version": code_version(),
    }
    return Prepared(task, spec, api_key, samples, config, run_path(options, task, config))


PlanT = TypeVar("PlanT", bound="TaskPlan")


def plan_task(task: Task, error: Callable[[str], Exception],
              plan_class: type[PlanT] = TaskPlan) -> PlanT:  # type: ignore[assignment]
    """``prepare(task)`` as a plan (``plan_class``: a task's own subclass), a model that cannot
    be used reported as the task's ``error`` (its commands print it as a clear message)."""
    try:
        return plan_class(task, prepare(task))
    except ModelConfigError as err:
        raise error(str(err)) from None


def check_reference_role(spec: ModelSpec, task: Task) -> None:
    """The reference judges answer only ``t2w judge``, and only they answer it offline."""
    if not spec.is_reference:
        return
    judge = spec.litellm_model.split("/", 1)[-1] in REFERENCE_JUDGES
    judging = kind_spec(task.kind).judges
    if judge and not judging:
        judged_by = " or ".join(kind_spec(kind).command for kind in kind_names()
                                if kind_spec(kind).judges)
        raise ModelConfigError(f"{spec.name} is a reference judge: it answers only inside "
                               f"{judged_by}")
    if judging and not judge:
        raise ModelConfigError(f"{spec.name} cannot judge: the reference judges are "
                               + ", ".join(f"reference/{m}" for m in REFERENCE_JUDGES))


def run_path(options: RunOptions, task: Task, config: RunConfig) -> Path:
    """The folder of a run: ``--resume`` (a folder, or a run id in the runs folder), else the
    runs folder / (``--run-id`` or the task's deterministic id)."""
    root = options.runs_root or runs_dir()
    if options.resume is not None:
        path = Path(options.resume)
        if not (path / CONFIG_FILE).is_file() and (root / path).is_dir():
            path = root / path  # a run id instead of a folder
        return path
    return root / (options.run_id or task.run_id(config))


def open_for_resume(path: Path | str, kind: str, command: str, root: Path | None = None) -> Run:
    """The run ``--resume`` names (a folder or a run id), which must be a run of ``kind``."""
    path = Path(path)
    root = root or runs_dir()
    if not (path / CONFIG_FILE).is_file() and (root / path / CONFIG_FILE).is_file():
        path = root / path
    run = Run.open(path)
    if run.kind != kind:
        raise RunError(f"{path} is a {run.kind} run, not a {kind} run: resume it with the "
                       f"command that made it, not {command}")
    return run


def options_from_run(options_class: type[RunOptions], kind: str, command: str, path: Path | str,
                     runs_root: Path | None = None, **overrides: Any) -> Any:
    """The options the run at ``path`` (a folder or a run id) was made with, for ``--resume``:
    ``options_class.from_config`` of its config, with ``overrides`` that are not None
    (``model_args`` merged: credentials are given again, never recorded)."""
    run = open_for_resume(path, kind, command, runs_root)
    options = options_class.from_config(run.config, run.path)
    options.runs_root = runs_root
    return options.with_overrides(**overrides)


class _Context:
    """``task.SampleContext`` for one sample of one epoch."""

    def __init__(self, engine: "_Engine", sample: Sample, epoch: int) -> None:
        self.engine = engine
        self.item = sample.id
        self.epoch = epoch
        self.run = engine.run
        self.spec = engine.prepared.spec

    async def complete(self, messages: list[dict], round_index: int = 0,
                       reference_context: dict | None = None,
                       tools: list[dict] | None = None) -> Completion:
        engine = self.engine
        calls: list[str] = []

        def sending(attempt: int) -> None:  # before each request goes out
            call = uuid.uuid4().hex
            calls.append(call)
            engine.run.append_sent(self.item, round_index, self.epoch, attempt, call)
            engine.sent.append({"call": call})

        completion = await engine.client.complete(messages, round_index, reference_context,
                                                   epoch=self.epoch, on_send=sending, tools=tools)
        if not completion.cached:  # paid: into the ledger before anything else can fail
            call = calls[-1] if calls else None
            engine.run.append_paid(self.item, round_index, completion, self.epoch, call)
            engine.paid.append({"cost": completion.cost, "call": call})
        engine.observer.call_done(completion)
        return completion

    async def cpu(self, urgent: bool, function: Callable, *args: Any,
                  affinity: str | None = None) -> Any:
        """``function(*args)`` in the pool (validations first: ``urgent``); jobs of one
        ``affinity`` key go to one worker where it can (``pool.CpuQueue``)."""
        if self.engine.cpu is None:
            return function(*args)
        return await self.engine.cpu.submit(urgent, function, *args, affinity=affinity)


class _Engine:
    def __init__(self, prepared: Prepared, run: Run, client: LLMClient, observer: Observer,
                 executor: Executor | None) -> None:
        self.prepared = prepared
        self.task = prepared.task
        self.run = run
        self.client = client
        self.observer = observer
        self.cpu = CpuQueue(executor) if executor is not None else None
        self.logging: set[asyncio.Task] = set()  # samples whose calls are done, being scored
        self.new_items = 0
        self.failed_items = 0
        self.fatal: FatalModelError | None = None
        self._last_summary = 0.0
        # Kept in memory: checkpoints must not re-read a growing log.
        self.finished: dict[tuple[str, int], ItemRecord] = {sample_key(r): r
                                                            for r in run.items()}
        self.errors: dict[tuple[str, int], ErrorRecord] = {sample_key(e): e
                                                           for e in run.open_errors()}
        self.paid: list[PaidCall] = run.paid_calls() or []
        # a run begun before sent.jsonl existed counts the requests of this attempt on
        self.sent: list[SentCall] = run.sent_calls() or []
        self.failures: list[BaseException] = []  # of logging samples

    async def worker(self, queue: asyncio.Queue) -> None:
        while not self.failures:  # a sample that cannot be logged (a full disk) stops the run
            try:
                sample, epoch = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                outcome = await self.task.solve(sample, _Context(self, sample, epoch))
            except InfrastructureError as error:
                self.failed_items += 1
                record: ErrorRecord = {"item": sample.id, "epoch": epoch,
                                       "error": cast(ErrorInfo, error.to_dict()),
                                       "at": utc_now()}
                self.run.append_error(record)
                self.errors[(sample.id, epoch)] = record
                self.observer.item_failed(sample.id, error)
                continue
            except FatalModelError as error:
                self.fatal = error
                raise
            # The calls are done: take the next sample while this one's scoring finishes.
            task = asyncio.ensure_future(self._log(sample, epoch, outcome))
            self.logging.add(task)
            task.add_done_callback(self._logged)

    def _logged(self, task: asyncio.Task) -> None:
        self.logging.discard(task)
        if not task.cancelled() and task.exception() is not None:  # retrieved: told once, by _run_all
            self.failures.append(task.exception())  # type: ignore[arg-type]

    async def _log(self, sample: Sample, epoch: int,
                   outcome: ItemRecord | Awaitable[ItemRecord]) -> None:
        solved = await outcome if isinstance(outcome, Awaitable) else outcome
        record: ItemRecord = {"item": sample.id, **solved, "epoch": epoch}
        record.setdefault("finished", utc_now())
        self.run.append_item(record)
        self.finished[(sample.id, epoch)] = record
        self.new_items += 1
        self.observer.item_done(record)
        self.checkpoint()

    def checkpoint(self, force: bool = False) -> RunSummary | None:
        if not force and time.monotonic() - self._last_summary < 2.0:
            return None
        self._last_summary = time.monotonic()
        errors = [e for key, e in self.errors.items() if key not in self.finished]
        summary = summarize(self.task, self.run, list(self.finished.values()), errors,
                            self.paid, self.sent)
        self.run.write_summary(summary)
        return summary


async def _run_all(engine: _Engine, pending: list[tuple[Sample, int]]) -> None:
    queue: asyncio.Queue = asyncio.Queue()
    for entry in pending:
        queue.put_nowait(entry)
    workers = [asyncio.create_task(engine.worker(queue))
               for _ in range(min(engine.task.options.max_concurrency, len(pending)) or 1)]
    stopping = False
    try:
        await asyncio.gather(*workers)
    except FatalModelError:
        for task in workers:
            task.cancel()
        await asyncio.gather(*workers, return_exceptions=True)
    except BaseException:
        stopping = True
        raise
    finally:
        for task in workers:
            task.cancel()
        # Every worker's outcome is retrieved: a full disk fails them all, and one error is told.
        await asyncio.gather(*workers, return_exceptions=True)
        # Samples whose calls all finished are logged even when the run stops.
        while engine.logging:
            await asyncio.gather(*list(engine.logging), return_exceptions=True)  # failures: _logged
        if engine.failures and not stopping:
            raise engine.failures[0]


def _write_summary_after_failure(task: Task, run: Run) -> None:
    """The summary of a run that stopped; a folder that cannot be written any more (the
    failure may be a full disk) must not hide why it stopped."""
    try:
        run.write_summary(task.finish(run, summarize(task, run)))
    except RunWriteError:
        pass


def execute(prepared: Prepared, observer: Observer | None = None) -> RunResult:
    """Run (or resume) a prepared run; returns the run and its summary.

    Raises ``RunError`` for a run folder that cannot be used, ``FatalModelError`` when the
    model cannot be called at all (bad key, unknown model, no server at the api base),
    KeyboardInterrupt on Ctrl-C and ``process.Stopped`` on SIGTERM or SIGHUP (in every case
    the finished samples are kept, the summary is written and the pool is shut down)."""
    started = time.monotonic()
    try:
        return _execute(prepared, observer or NullObserver(), started)
    finally:
        prepared.task.after_run()


def _execute(prepared: Prepared, observer: Observer, started: float) -> RunResult:
    task, options = prepared.task, prepared.task.options
    run, resumed = Run.create_or_resume(prepared.run_path, prepared.config)
    epochs = options.epochs
    # The pool is forked before the lock is taken, so no worker ever holds it (forked
    # children also close run descriptors: engine.process). The log is read again under the
    # lock below.
    unfinished = len(prepared.samples) * epochs - len(run.finished_keys())
    executor = make_executor(getattr(options, "workers", None), unfinished) \
        if task.uses_cpu_pool and unfinished > 0 else None
    try:
        run.lock()
    except BaseException:
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)
        raise
    try:
        run.extend(prepared.config["selected"], epochs, prepared.config["selection"],
                   prepared.config.get("label"))
        finished = run.finished_keys()
        pending = [(sample, epoch) for epoch in range(epochs) for sample in prepared.samples
                   if (sample.id, epoch) not in finished]
        task.before_run([sample for sample, _ in pending], executor)
        total = len(prepared.samples) * epochs
        observer.start(total, total - len(pending), run)
        client = LLMClient(prepared.spec, temperature=options.temperature,
                           max_tokens=options.max_tokens, timeout=options.timeout,
                           retry=RetryPolicy(options.max_retries, options.retry_base_delay),
                           cache=ResponseCache(), read_cache=options.use_cache,
                           api_key=prepared.api_key or "")
        engine = _Engine(prepared, run, client, observer, executor)
        try:
            if pending:
                run_stoppable(lambda: _run_all(engine, pending))
        except BaseException:
            _write_summary_after_failure(task, run)
            raise
        finally:
            if executor is not None:
                executor.shutdown(wait=False, cancel_futures=True)
        summary = task.finish(run, summarize(task, run))
        run.write_summary(summary)
        if engine.fatal is not None:
            raise engine.fatal
        return RunResult(run, summary, resumed, engine.new_items, engine.failed_items,
                         time.monotonic() - started)
    finally:
        run.close()


def warm_up_in_background(function: Callable[[], Any]) -> None:
    """Import what scoring needs in a thread while the first calls wait for the model."""
    threading.Thread(target=function, name="t2w-warm-up", daemon=True).start()
