"""Batch scoring: many answers against store or PDDL golds, with every score, verdict and reason
per line (``t2w score-batch``, ``POST /v1/score/batch``).

Input lines are ``{"id", "gold_id" or "gold_pddl", "response"}`` (optionally ``"dataset"``);
output lines are ``{"id", "gold", "metric", "reward", "executable", "verdict", "reason",
"scores"}`` (``text2world.rewards.reward_for`` with every metric), in the input's order.
A line with ``"gold_problem"`` (a problem name of the gold domain, or problem PDDL) holds a
problem answer: its metric is ``problem`` (``rewards.problem_reward_for``) whatever ``--metric``.

Lines are scored in chunks (``score_chunk``: plain data in and out, so a chunk runs the same in
this process, in a process pool, on Ray or in the API's scoring processes). Chunks are cut after
sorting the lines by gold, so that a worker prepares a gold once for all of its lines (the gold
caches are per process). Pool processes (a local pool's, Ray's workers: ``pool_scoring`` over a
``CallRunner``) cut each answer's semantic comparison per gold problem (``split_scoring``). A
run is resumable: lines whose id is already in the output are not scored again; the output is
rewritten in the input's order once every line is there, so a run on Ray and a run here write
the same file.
"""

from __future__ import annotations

import json
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from text2world.errors import Text2WorldError
from text2world.files import (
    InputFileError,
    LineAppender,
    atomic_write_text,
    check_output_file,
    read_input_text,
)
from text2world.rewards import (
    DEFAULT_LIMIT,
    DEFAULT_METRIC,
    PROBLEM_METRIC,
    Gold,
    RewardDetail,
    RewardInputError,
    SemanticPending,
    check_metric,
    guarded_before_semantic,
    problem_reward_for,
    resolve_gold,
    resolve_problem_gold,
    reward_after_semantic,
    reward_for,
    semantic_reward,
    semantic_settings,
)
from text2world.store.datasets import BUILTIN, portable_reference

CHUNK_LINES = 16  # lines per task: small enough to balance two workers on 400 lines
MAX_ID_CHARS = 200
MAX_BATCH_BYTES = 1024 * 1024 * 1024  # a batch input, read whole (1 GiB)


class BatchInputError(Text2WorldError, ValueError):
    """An input file or line that cannot be scored; the message names the file and line."""


@dataclass(frozen=True)
class BatchLine:
    """One line to score: ``gold`` is the store id or the gold PDDL; ``problem`` the gold
    problem of a problem answer (None: the answer is a domain)."""

    id: str
    gold: str
    response: str
    dataset: str = "text2world"
    problem: str | None = None

    def task(self) -> dict[str, str]:
        task = {"id": self.id, "gold": self.gold, "response": self.response, "dataset": self.dataset}
        return task if self.problem is None else {**task, "problem": self.problem}


def parse_line(raw: Any, where: str, dataset: str = BUILTIN) -> BatchLine:
    """A batch line from its JSON value; ``BatchInputError`` says what is wrong and ``where``.
    ``dataset``: the dataset of a line that names none (a name or a path: a generated
    folder's ``gold_id`` is scored against that folder)."""
    if not isinstance(raw, dict):
        raise BatchInputError(f"{where}: a line must be a JSON object, not {type(raw).__name__}")
    unknown = set(raw) - {"id", "gold_id", "gold_pddl", "response", "dataset", "gold_problem"}
    if unknown:
        raise BatchInputError(f"{where}: unknown field(s) {', '.join(sorted(unknown))} "
                              "(a line has id, gold_id or gold_pddl, response, dataset, "
                              "gold_problem)")
    item = raw.get("id")
    if isinstance(item, int) and not isinstance(item, bool):
        item = str(item)
    if not isinstance(item, str) or not item or len(item) > MAX_ID_CHARS:
        raise BatchInputError(f"{where}: 'id' must be a non-empty string of at most "
                              f"{MAX_ID_CHARS} characters")
    if ("gold_id" in raw) == ("gold_pddl" in raw):
        raise BatchInputError(f"{where} (id {item!r}): give exactly one of 'gold_id' and 'gold_pddl'")
    gold, response, dataset = (raw.get("gold_id", raw.get("gold_pddl")), raw.get("response"),
                               raw.get("dataset", dataset))
    problem = raw.get("gold_problem")
    for name, value in (("gold", gold), ("response", response), ("dataset", dataset),
                        ("gold_problem", "" if problem is None else problem)):
        if not isinstance(value, str):
            raise BatchInputError(f"{where} (id {item!r}): {name!r} must be a string")
    assert isinstance(gold, str) and isinstance(response, str) and isinstance(dataset, str)
    try:
        resolve_gold(gold, dataset) if problem is None else resolve_problem_gold(gold, problem, dataset)
    except RewardInputError as err:
        raise BatchInputError(f"{where} (id {item!r}): {err}") from None
    return BatchLine(item, gold, response, portable_reference(dataset), problem)


def read_batch(path: Path, dataset: str = BUILTIN) -> list[BatchLine]:
    """Every line of a JSONL file, checked before anything is scored (ids unique); ``dataset``
    for the lines that name none."""
    try:
        text = read_input_text(path, "batch input", MAX_BATCH_BYTES)
    except InputFileError as err:
        raise BatchInputError(str(err)) from None
    lines, seen = [], set()
    for number, row in enumerate(text.splitlines(), 1):
        if not row.strip():
            continue
        where = f"{path} line {number}"
        try:
            raw = json.loads(row)
        except ValueError as err:
            raise BatchInputError(f"{where}: not JSON ({err})") from None
        line = parse_line(raw, where, dataset)
        if line.id in seen:
            raise BatchInputError(f"{where}: id {line.id!r} appears twice (ids name the lines "
                                  "for resuming)")
        seen.add(line.id)
        lines.append(line)
    return lines


def score_task(task: dict[str, str], metric: str = DEFAULT_METRIC, limit: float = DEFAULT_LIMIT) -> dict:
    """The output line of one task (``BatchLine.task``); never raises for the response."""
    gold: Any
    if task.get("problem") is not None:
        gold = resolve_problem_gold(task["gold"], task["problem"], task.get("dataset", "text2world"))
        detail = problem_reward_for(gold, task["response"], limit)
    else:
        gold = resolve_gold(task["gold"], task.get("dataset", "text2world"))
        detail = reward_for(gold, task["response"], metric, limit, every_score=True)
    return output_line(task, gold.id, detail)


def output_line(task: dict[str, str], gold_id: str, detail: RewardDetail) -> dict:
    """The output line of ``task`` scored against the gold ``gold_id``."""
    return {"id": task["id"], "gold": gold_id, "metric": detail.metric, "reward": detail.reward,
            "executable": detail.executable, "verdict": detail.verdict, "reason": detail.reason,
            "scores": detail.scores}


def score_chunk(tasks: list[dict[str, str]], metric: str = DEFAULT_METRIC,
                limit: float = DEFAULT_LIMIT) -> list[dict]:
    """Output lines of a chunk of tasks (run in any process: plain data in and out)."""
    return [score_task(task, metric, limit) for task in tasks]


def chunks(lines: list[BatchLine], size: int = CHUNK_LINES) -> list[list[dict[str, str]]]:
    """Tasks cut into chunks after grouping them by gold (stable within a gold)."""
    ordered = sorted(lines, key=lambda line: (line.dataset, line.gold, line.problem or ""))
    return [[line.task() for line in ordered[start:start + size]]
            for start in range(0, len(ordered), size)]


ChunkRunner = Callable[[list[list[dict[str, str]]], str, float], Iterator[list[dict]]]


def run_here(parts: list[list[dict[str, str]]], metric: str, limit: float,
             workers: int = 1) -> Iterator[list[dict]]:
    """Chunks scored in this process (``workers`` 1) or in a local process pool, as they end.

    In this process each answer is scored in a reward worker (``text2world.bounded``). A pool
    process scores its answers itself instead (a reward worker of its own would double the
    processes), under the same bounds: the reward worker's memory (``RLIMIT_AS``) and, as a
    backstop to the scoring's own CPU clocks, its chunk's CPU budget (``RLIMIT_CPU``). A pool
    process past a bound dies; the chunks it leaves unscored are scored here, in reward
    workers, whose answer for the line at fault is the usual "timeout" or "limit"."""
    if workers <= 1:
        for part in parts:
            yield score_chunk(part, metric, limit)
        return
    from text2world.bounded import memory_limit_mb

    with ProcessPoolExecutor(workers, initializer=pool_process_init,
                             initargs=(memory_limit_mb(),)) as pool:
        yield from pool_scoring(parts, metric, limit, pool_calls(pool))


class ProcessLost(Text2WorldError, RuntimeError):
    """The process running a call died (killed past a bound, or by the system), or the
    pool could no longer take it: what it was given is scored elsewhere."""


Call = tuple[Callable, tuple, Any]  # (function, arguments, the caller's key)
Outcome = tuple[Any, Any, BaseException | None]  # (key, result, None) or (key, None, error)
# Runs calls in other processes (a local pool's, Ray's) and answers each as it ends; the
# error ``ProcessLost`` where the process died. What ``pool_scoring`` needs of an engine.
CallRunner = Callable[[list[Call]], Iterator[Outcome]]


def pool_calls(pool: ProcessPoolExecutor) -> CallRunner:
    """A ``CallRunner`` on a local process pool (a call the broken pool cannot take: lost)."""
    from concurrent.futures import as_completed
    from concurrent.futures.process import BrokenProcessPool

    def run(calls: list[Call]) -> Iterator[Outcome]:
        futures: dict[Future, Any] = {}
        refused: list[Any] = []
        for function, args, key in calls:
            if not refused:
                try:
                    futures[pool.submit(function, *args)] = key
                    continue
                except BrokenProcessPool:
                    pass
            refused.append(key)
        for future in as_completed(futures):
            try:
                yield futures[future], future.result(), None
            except BrokenProcessPool as err:
                yield futures[future], None, ProcessLost(f"a pool process died: {err}")
            except Exception as err:  # noqa: BLE001 - the caller decides
                yield futures[future], None, err
        for key in refused:
            yield key, None, ProcessLost("the pool is broken (a process died)")

    return run


def pool_scoring(parts: list[list[dict[str, str]]], metric: str, limit: float,
                 run_calls: CallRunner) -> Iterator[list[dict]]:
    """Chunks scored by pool processes (the local pool's, Ray's workers) set up by
    ``pool_process_init``: each answer's semantic comparison cut per gold problem
    (``split_scoring``), a problem answer's batch chunk by chunk; what a dead process left
    unscored is scored here, in reward workers."""
    if metric != PROBLEM_METRIC:
        yield from split_scoring(parts, metric, limit, run_calls)
        return
    unscored: list[list[dict[str, str]]] = []
    for part, result, error in run_calls([(score_chunk_in_pool, (part, metric, limit), part)
                                          for part in parts]):
        if isinstance(error, ProcessLost):
            unscored.append(part)
        elif error is not None:
            raise error
        else:
            yield result
    for part in unscored:
        yield score_chunk(part, metric, limit)


def pool_process_init(memory_mb: int) -> None:
    """A score-batch pool process: answers scored in it (no reward worker of its own), its
    memory bounded as a reward worker's is: ``memory_mb`` beyond what it holds at its start.
    A forked process starts with its parent's address space (a long-lived caller's modules,
    threads' malloc arenas): a bound counted from zero left it none to score with."""
    import os

    from text2world.bounded import address_space_mb, limit_memory
    from text2world.rewards import WORKERS_VARIABLE

    os.environ[WORKERS_VARIABLE] = "0"
    limit_memory(memory_mb + address_space_mb())


def score_chunk_in_pool(tasks: list[dict[str, str]], metric: str = DEFAULT_METRIC,
                        limit: float = DEFAULT_LIMIT, clocked: Sequence = ()) -> list[dict]:
    """``score_chunk`` in a pool process: past the chunk's CPU budget (each answer's limit
    and margin, and a gold's preparation) the process ends (SIGXCPU). ``clocked``: planner
    answers Fast Downward's CPU limit shaped in another process of this batch
    (``planning.front.remember_clocked``)."""
    from text2world.bounded import CPU_MARGIN, PREPARE_CPU_LIMIT, limit_own_cpu
    from text2world.planning.front import remember_clocked

    limit_own_cpu(PREPARE_CPU_LIMIT + len(tasks) * (limit + CPU_MARGIN))
    remember_clocked(clocked)
    return score_chunk(tasks, metric, limit)


# --------------------------------------------------------------------------------------------
# Pool processes' semantic scoring cut per gold problem (issue 51): a line's problems are
# independent, so the pool scores them as tasks of their own, the batch's longest expected
# first (``scoring.semantic_tasks``), and the batch's tail is one problem, not one answer.


@dataclass
class _Pending:
    """A line scored but for its semantic comparison, in the parent (plain data)."""

    task: dict[str, str]
    gold: Gold
    started: SemanticPending
    costs: list[float]             # each gold problem's preparation CPU (expected task cost)
    parts: dict = field(default_factory=dict)  # problem index -> ProblemPart


def split_scoring(parts: list[list[dict[str, str]]], metric: str, limit: float,
                  run_calls: CallRunner) -> Iterator[list[dict]]:
    """Pool processes' scoring with each answer's semantic comparison cut per gold problem:
    the chunks are scored up to the comparison (``start_chunk_in_pool``, which prepares the
    golds and measures their problems), then every problem of every line is a call, longest
    expected first over the whole batch (``lpt_order``), and a line is merged and finished
    (``rewards.reward_after_semantic``) once its problems are in: the lines ``score_chunk``
    writes, but for what a clock decides.

    A clock (``limit``: the CPU of the whole answer) bounds each problem instead of the
    answer: a line whose problems took over half the limit in all, or that a clock shaped,
    is scored again whole, in a pool process (else here), so its line is the unsplit one; the
    planner answers Fast Downward's CPU limit shaped in its tasks go with it
    (``planning.front.recording_clocked``), so that the rescoring is charged their CPU, as the
    unsplit scoring would be, without spending it again. So is a line whose call a dead
    process lost (``ProcessLost``), here in reward workers, as ``score_chunk`` does."""
    from text2world.scoring.semantic_tasks import ProblemTask, lpt_order, merge_parts, task_sizes

    settings = semantic_settings(limit, None)
    whole: list[dict[str, str]] = []  # lines to score again unsplit
    pending: list[_Pending] = []
    for part, started, error in run_calls([(start_chunk_in_pool, (part, metric, limit), part)
                                           for part in parts]):
        if isinstance(error, ProcessLost):
            whole += part
            continue
        if error is not None:
            raise error
        if done := [line for line in started if isinstance(line, dict)]:
            yield done
        pending += [line for line in started if isinstance(line, _Pending)]
    tasks = [ProblemTask(number, index, line.gold.domain, line.started.domain,
                         line.gold.problems, settings)
             for number, line in enumerate(pending)
             for index in range(len(line.gold.problems))]
    costs = [pending[task.pair].costs[task.index] for task in tasks]
    unsplit: set[int] = set()
    for task, found, error in run_calls([(score_problem_in_pool, (tasks[i], limit), tasks[i])
                                         for i in lpt_order(costs, task_sizes(tasks))]):
        line = pending[task.pair]
        if error is not None:  # a dead process, an unexpected error: whole
            unsplit.add(task.pair)
            continue
        line.parts[task.index] = found
        if task.pair in unsplit or len(line.parts) < len(line.gold.problems):
            continue
        score = merge_parts(list(line.parts.values()))
        if score.timeouts or sum(p.clock for p in line.parts.values()) > limit / 2:
            unsplit.add(task.pair)
            continue
        detail = reward_after_semantic(line.started, semantic_reward(score, limit))
        yield [output_line(line.task, line.gold.id, detail)]
    # A line scored again whole takes the planner answers a clock shaped in its problems'
    # tasks with it: charged what they cost, not planned a second time.
    again = [(task, []) for task in whole] + [
        (pending[pair].task, [answer for part in pending[pair].parts.values()
                              for answer in part.clocked]) for pair in sorted(unsplit)]
    left: list[dict[str, str]] = []
    for task, result, error in run_calls(
            [(score_chunk_in_pool, ([task], metric, limit, clocked), task)
             for task, clocked in again]):
        if isinstance(error, ProcessLost):
            left.append(task)
            continue
        if error is not None:
            raise error
        yield result
    for task in left:  # what no pool process could score: here, in reward workers (fresh
        yield score_chunk([task], metric, limit)  # processes: they plan again)


def start_chunk_in_pool(tasks: list[dict[str, str]], metric: str,
                        limit: float) -> list[dict | _Pending]:
    """In a pool process, each task's output line, or where it needs a semantic comparison
    what the parent finishes (``_Pending``, with its gold's problems prepared here and their
    costs measured). Past the chunk's CPU budget the process ends, as in
    ``score_chunk_in_pool``."""
    from text2world.bounded import CPU_MARGIN, PREPARE_CPU_LIMIT, limit_own_cpu
    from text2world.scoring.semantic import prepare_gold

    limit_own_cpu(PREPARE_CPU_LIMIT + len(tasks) * (limit + CPU_MARGIN))
    found: list[dict | _Pending] = []
    for task in tasks:
        if task.get("problem") is not None:
            found.append(score_task(task, metric, limit))
            continue
        gold = resolve_gold(task["gold"], task.get("dataset", "text2world"))
        started = guarded_before_semantic(gold, task["response"], metric, limit)
        if isinstance(started, RewardDetail):
            found.append(output_line(task, gold.id, started))
            continue
        try:
            costs = [problem.cost for problem in
                     prepare_gold(gold.domain, gold.problems, semantic_settings(limit, None)).problems]
        except Exception:  # noqa: BLE001 - the tasks report the gold's error
            costs = [0.0] * len(gold.problems)
        started.predicted = None  # the domain's text goes back: the tasks parse it
        found.append(_Pending(task, gold, started, costs))
    return found


def score_problem_in_pool(task: Any, limit: float) -> Any:
    """``semantic_tasks.score_problem`` in a pool process, within one answer's CPU budget."""
    from text2world.bounded import CPU_MARGIN, PREPARE_CPU_LIMIT, limit_own_cpu
    from text2world.planning.front import recording_clocked
    from text2world.scoring.semantic_tasks import score_problem

    limit_own_cpu(PREPARE_CPU_LIMIT + limit + CPU_MARGIN)
    with recording_clocked() as clocked:
        part = score_problem(task)
    part.clocked = clocked
    return part


ENGINES = ("auto", "local", "ray")
# What ``choose_engine`` weighs (docs/benchmarks-speed.md): Ray took about 15 s to start and
# was slower than the local pool on a 48-line batch; a line costs about half a CPU second.
RAY_STARTUP_SECONDS = 15.0
LINE_CPU_SECONDS = 0.5


@dataclass(frozen=True)
class EngineChoice:
    """Where a batch is scored: ``engine`` "local" (``workers`` processes; 1: this process)
    or "ray" (the cluster at ``address``, or a local Ray of ``workers`` CPUs), and why."""

    engine: str
    workers: int
    address: str | None
    why: str

    def line(self) -> str:
        """The one line ``t2w score-batch`` prints (which engine and why)."""
        if self.engine == "ray":
            where = f"the Ray cluster at {self.address}" if self.address else \
                f"a local Ray of {self.workers} CPUs"
        elif self.workers > 1:
            where = f"a local pool of {self.workers} processes"
        else:
            where = "this process"
        return f"engine: {where} ({self.why})"


def choose_engine(engine: str, lines: int, workers: int | None = None,
                  ray_address: str | None = None, cores: int | None = None) -> EngineChoice:
    """Where to score ``lines`` lines: ``engine`` "local" or "ray" as told, or "auto": Ray
    when a cluster is running (``ray_address`` or ``RAY_ADDRESS``) and the batch would take
    the local pool longer than twice Ray's start-up, else the local pool (a Ray started here
    would use the same cores and pay its start-up). ``workers``: the local processes (default:
    the cores, at most one per chunk)."""
    import os

    if engine not in ENGINES:
        raise BatchInputError(f"--engine {engine!r}: choose one of {', '.join(ENGINES)}")
    cores = cores or os.cpu_count() or 1
    chunked = max(1, -(-lines // CHUNK_LINES))
    local = workers or min(cores, chunked)
    address = ray_address or os.environ.get("RAY_ADDRESS") or None
    if engine == "ray":
        return EngineChoice("ray", workers or cores, address, "as told")
    if engine == "local":
        return EngineChoice("local", local, None, "as told")
    estimate = lines * LINE_CPU_SECONDS / local
    if address is None:
        return EngineChoice("local", local, None, "auto: no Ray cluster, RAY_ADDRESS unset")
    from importlib.util import find_spec

    if find_spec("ray") is None:
        return EngineChoice("local", local, None, "auto: Ray is not installed")
    if estimate <= 2 * RAY_STARTUP_SECONDS:
        return EngineChoice("local", local, None, f"auto: ~{estimate:.0f} s here, under "
                            f"twice Ray's start-up")
    return EngineChoice("ray", local, address, f"auto: ~{estimate:.0f} s here, over twice "
                        f"Ray's start-up")


def done_ids(out: Path) -> dict[str, dict]:
    """Lines already in an output file, by id (a torn last line is dropped)."""
    if not check_output_file(out, "--out").is_file():
        return {}
    found: dict[str, dict] = {}
    with out.open(encoding="utf-8", errors="replace") as stream:  # a regular file: checked
        for row in stream:
            try:
                record = json.loads(row)
            except ValueError:
                continue  # a line cut by a kill: scored again
            if isinstance(record, dict) and isinstance(record.get("id"), str):
                found[record["id"]] = record
    return found


def score_batch(lines: list[BatchLine], out: Path, metric: str = DEFAULT_METRIC,
                limit: float = DEFAULT_LIMIT, runner: ChunkRunner | None = None,
                progress: Callable[[int, int], None] | None = None) -> dict[str, int]:
    """Score ``lines`` into ``out`` (JSONL), resuming: ids already there are kept. Returns
    ``{"lines", "scored", "resumed"}``."""
    if check_metric(metric) == PROBLEM_METRIC and any(line.problem is None for line in lines):
        first = next(line.id for line in lines if line.problem is None)
        raise BatchInputError(f"--metric problem: line {first!r} has no 'gold_problem' (a domain "
                              "answer: choose a domain metric)")
    previous = done_ids(out)
    wanted = {line.id for line in lines}
    if previous and not set(previous) & wanted:
        raise BatchInputError(f"{out} holds {len(previous)} lines of another input (no id in "
                              "common): choose another --out, or delete it to start again")
    pending = [line for line in lines if line.id not in previous]
    total, done = len(lines), len(lines) - len(pending)
    if progress is not None:
        progress(done, total)
    with LineAppender(out, "--out") as stream:  # whole lines only, a full disk included
        for part in (runner or run_here)(chunks(pending), metric, limit):
            stream.write_lines([json.dumps(record, ensure_ascii=False) for record in part])
            for record in part:
                previous[record["id"]] = record
            done += len(part)
            if progress is not None:
                progress(done, total)
    _write_in_order(out, [line.id for line in lines], previous)
    return {"lines": total, "scored": len(pending), "resumed": total - len(pending)}


def _write_in_order(out: Path, order: Iterable[str], records: dict[str, dict]) -> None:
    """The output in the input's order (lines of ids not in the input last), atomically."""
    order = list(order)
    known = set(order)
    rows = [records[item] for item in order if item in records]
    rows += [record for item, record in records.items() if item not in known]
    atomic_write_text(out, "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                      what="--out")


__all__ = ["BatchInputError", "BatchLine", "CHUNK_LINES", "ENGINES", "EngineChoice", "chunks",
           "choose_engine", "done_ids", "output_line", "parse_line", "pool_process_init", "read_batch",
           "run_here", "split_scoring", "score_problem_in_pool", "start_chunk_in_pool",
           "Call", "CallRunner", "Outcome", "ProcessLost", "pool_calls", "pool_scoring",
           "score_batch", "score_chunk", "score_chunk_in_pool", "score_task"]
