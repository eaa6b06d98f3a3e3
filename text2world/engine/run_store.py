"""The run store: ``runs/<run-id>/`` holds one run of one task, and this module is the only
code that reads or writes it. The viewer, ``t2w report``, the API and ``t2w score-run`` read
runs through it.

Files, each holding typed records that carry the task's ``kind`` and the format ``version``:

* ``config.json`` (``RunConfig``) - the task, model, settings, dataset name + content hash,
  prompt hashes, the selection (``selected``: every sample id the run covers, extended when
  the same command is run on a larger selection) and ``epochs``, the code version. Never an
  API key (only the name of the variable it was read from).
* ``log.jsonl`` (``ItemRecord``) - append-only, one record per finished sample (item and
  epoch); each line is one ``os.write`` followed by fsync, so a killed run loses at most the
  samples in flight.
* ``errors.jsonl`` - append-only infrastructure failures (rate limits, server errors,
  connection errors, timeouts after the retries). Kept apart from the log: they are never
  scored as model failures, and resuming retries those samples.
* ``paid.jsonl`` (``PaidCall``) - append-only, one line per call paid for (answered by the
  model, not the cache), written as soon as the answer arrives: ``cost_paid`` counts the
  calls of an attempt that was killed before its sample was logged, and counts each once.
* ``sent.jsonl`` - append-only, one line per request sent to a model (each attempt of a call,
  not cache hits), written before the request goes out; its ``call`` id is on the ``paid.jsonl``
  line of the attempt that was answered. Sent lines without a paid one (``calls_sent_unanswered``
  in the summary: killed in flight, timed out, failed) bound what a provider may bill beyond
  ``cost_paid``.
* ``summary.json`` (``RunSummary``) - the task's summary, rewritten atomically at checkpoints.

Reading (the public interface for reports, the viewer and the API; ``engine.run_reader``,
all re-exported by ``text2world.engine``):

* ``open_run(path) -> Run`` - a run folder of any kind and version (raises ``RunError``
  saying why it cannot be read); ``Run.kind``, ``Run.version``, ``Run.config``,
  ``Run.items()``, ``Run.stored_summary()``, ``Run.paid_calls()``, ``Run.open_errors()``.
* ``list_runs(runs_dir) -> list[RunInfo]`` - every run folder (symlinked ones followed), by
  name; never raises for a run: a damaged or unknown folder is listed with ``problems`` and
  ``error`` saying why (``RunInfo``: ``run_id``, ``kind``, ``version``, ``config``,
  ``summary``, ``finished``, ``run``). ``find_run(runs_dir, run_id)``: one of them.

Folders written before this format (no ``kind``/``version``: version 1) still open: a config
without ``kind`` is a generation (``t2w eval``) run, records without ``epoch`` are epoch 0.

Nothing written holds a credential: configs and error records pass through
``credentials.redact`` here, the one place they are written.

One writer per run: ``Run.lock`` takes an ``flock`` on ``.lock``, which the kernel releases when
the holder dies, whatever kills it. Child processes never hold it: the descriptor is
close-on-exec and every forked child closes it (``engine.process``), so a pool worker that
outlives its parent cannot keep a run locked.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import subprocess
import time
from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence, TypedDict, TypeVar, cast

from text2world.engine.process import Stopped, follow_parent, forget_fd, register_fd, run_stoppable
from text2world.errors import Text2WorldError
from text2world.files import (
    InputFileError,
    atomic_write_text,
    check_folder,
    check_output_folder,
    drop_torn_tail,
    read_input_bytes,
    read_input_text,
)
from text2world.model.credentials import mask_known_secrets, redact

if TYPE_CHECKING:
    from typing_extensions import ReadOnly

__all__ = ["CONFIG_FILE", "ERRORS_FILE", "FORMAT_VERSION", "IDENTITY_KEYS", "KINDS", "LOG_FILE",
           "PAID_FILE", "SCORES_FILE", "SENT_FILE", "SUMMARY_FILE", "ErrorInfo", "ErrorRecord",
           "ItemRecord", "ModelCall", "PaidCall", "Run", "RunConfig", "RunError", "RunKind",
           "RunWriteError", "RunSummary", "ScoresRecord", "SentCall", "Stopped", "Usage",
           "drop_torn_tail", "follow_parent", "kind_of", "read_jsonl", "run_kind",
           "run_epochs", "run_label", "run_stoppable", "runs_dir", "sample_key", "utc_now"]

FORMAT_VERSION = 2  # 1: folders written before records carried kind and version

# The files of a run folder: their names are spelled here only.
CONFIG_FILE = "config.json"
LOG_FILE = "log.jsonl"
ERRORS_FILE = "errors.jsonl"
PAID_FILE = "paid.jsonl"
SENT_FILE = "sent.jsonl"
SUMMARY_FILE = "summary.json"
SCORES_FILE = "scores.jsonl"  # a generation run's rounds scored again (``t2w score-run``)
LOCK_FILE = ".lock"
MAX_CONFIG_BYTES = 64 * 1024 * 1024  # config.json, summary.json: read whole


class RunKind(str, Enum):
    """The kinds of run, one per task (``Run.kind``; ``tasks.registry`` maps each to its
    task). ``kind_of``/``run_kind`` are the only code that reads a config's ``kind``."""

    GENERATION = "generation"
    WM = "wm"
    CONTAMINATION = "contamination"
    JUDGE = "judge"
    PROBLEM = "problem"

    @property
    def command(self) -> str:
        """The command that makes runs of this kind."""
        return {"generation": "t2w eval", "wm": "t2w wm", "contamination": "t2w contamination",
                "judge": "t2w judge", "problem": "t2w eval --task problem"}[self.value]


KINDS = tuple(kind.value for kind in RunKind)  # the tasks (``Run.kind``)
# What configs written before kinds existed (or by the first ``t2w eval``) say: generation.
_LEGACY_KINDS = {None: RunKind.GENERATION, "": RunKind.GENERATION, "eval": RunKind.GENERATION}

# The generation task's score names (here for the modules that have always imported them).
METRICS = ("executable", "similarity", "f1_predicates", "f1_parameters", "f1_preconditions",
           "f1_effects")
SCORE_MODES = ("paper", "canonical")


def mode_metrics(mode: str) -> tuple[str, ...]:
    """The metrics a mode reports per round: canonical mode adds F1 over types."""
    return METRICS + (("f1_types",) if mode == "canonical" else ())


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


# Settings that define what a run measures: resuming with other values would mix two runs.
IDENTITY_KEYS = ("model", "litellm_model", "api_base", "dataset", "dataset_hash", "split",
                 "description", "prompt", "prompt_hash", "correction_prompt_hash", "ec",
                 "generation", "seed")


class RunError(Text2WorldError, ValueError):
    """A run directory that cannot be created, opened or resumed; the message says why."""


class RunWriteError(RunError):
    """A run folder that cannot be written (a full disk, a quota, a file size limit); what was
    written before is kept, without a partial line."""


# --------------------------------------------------------------------------------------------
# Typed records: the lines of the run files, as JSON reads them back (``total=False``: a record
# written by an older version, or by another task, may lack any key). Every record also has
# ``kind`` and ``version`` (``_stamp``). The engine's types say what the engine and the readers
# of any kind read; each task types its own records on them (``tasks/<kind>/records.py``:
# ``GenerationItem``, ``WmItem``, ``ProbeItem``, ``JudgeItem`` and their summaries).


class RunConfig(TypedDict, total=False):
    """``config.json``: one type for every kind, since it is read before the kind is known
    (resume, identity, listing, labels); the tasks' keys never clash."""

    kind: str
    version: int
    run_id: str
    created: str
    # the engine's (``runner.prepare``)
    model: str
    litellm_model: str | None
    api_base: str | None
    api_key_env: str | None  # the name of the variable the key was read from, never the key
    model_spec: dict[str, Any]
    reference_model: bool
    generation: dict[str, Any]  # the call settings: temperature, max_tokens, model args
    seed: int
    timeout: float | None
    max_retries: int | None
    selection: dict[str, Any] | None  # the flags that selected: {"limit": ..., "domains": ...}
    selected: list[str]  # every sample id the run covers, in order
    epochs: int
    planned_items: int
    label: str  # --label: the run's short name (else ``run_label`` derives one from its id)
    code_version: dict[str, str]
    imported_from: dict[str, Any]  # a run imported from an Inspect log (``t2w import-inspect``)
    # every task's (``Task.configure``)
    dataset: str
    dataset_source: str
    dataset_hash: str
    split: str
    description: str  # generation: the description kind; wm: the rules
    prompt: str
    prompt_hash: str
    ec: int  # correction rounds (generation); 0 for the other tasks
    mystery: bool  # generation and wm
    # generation
    correction_prompt: str
    correction_prompt_hash: str
    few_shot_examples: list[str]
    exemplars_evaluated: list[str]  # few-shot exemplars that are also evaluated items
    semantic: bool
    skipped_items: list[str]
    protocol: str
    feedback: str
    oracle_feedback: bool
    agent: bool
    tool_budget: int
    # world models (wm)
    task: str
    size: str
    rules: str
    render: str
    form: str
    rhos: list[float]
    k: int | None
    slack: float
    per_k: bool
    illegal_share: float
    problems_per_domain: int | None
    off_plan_share: float
    static_share: float
    examples: int
    items_hash: str
    skipped_problems: list[str]
    # contamination
    prefix_tokens: int
    prompt_tokens: int  # what runs before format version 2 called ``prefix_tokens``
    n: int
    max_mismatches: int
    # judge
    source_run: str
    source_path: str
    source_model: str | None
    source_description: str | None
    prompt_source: str
    excluded_items: dict[str, str]  # item -> why it was not judged


class ErrorInfo(TypedDict, total=False):
    kind: str  # the error's class of failure (rate limit, timeout, ...; ``inspect_error``)
    message: str
    attempts: int


class ErrorRecord(TypedDict, total=False):
    """A line of ``errors.jsonl``: an infrastructure failure of one sample."""

    kind: str
    version: int
    item: str
    epoch: int
    error: ErrorInfo
    at: str


class Usage(TypedDict, total=False):
    prompt_tokens: int
    completion_tokens: int


class ModelCall(TypedDict, total=False):
    """One model call a sample logs (a generation round, a world-model call, the one call of a
    probe or judge item): what the engine and the readers of any kind read of it."""

    round: int
    messages: list[dict[str, Any]]
    response: str
    reasoning: str | None
    prompt_tokens: int
    completion_tokens: int
    cost: float | None  # None: the price is unknown
    latency: float
    attempts: int
    cached: bool
    finish_reason: str | None
    turns: int  # an agent's round: one request per turn
    tool_calls: list[dict[str, Any]]  # the function calls an answer asked for


class ItemRecord(TypedDict, total=False):
    """A line of ``log.jsonl``: one finished sample (item and epoch), with the keys every task
    writes; each task's record adds its own (``tasks/<kind>/records.py``). ``rounds`` and
    ``calls`` are read-only here so that a task's record may say what its calls hold."""

    kind: str
    version: int
    item: str
    epoch: int
    usage: Usage
    cost: float | None
    latency: float
    finished: str
    rounds: ReadOnly[Sequence[ModelCall]]  # generation, and the one call of a probe or judge item
    calls: ReadOnly[Sequence[ModelCall]]  # world models


class PaidCall(TypedDict, total=False):
    """A line of ``paid.jsonl``: a call the model answered (not the cache)."""

    kind: str
    version: int
    item: str
    epoch: int
    round: int
    cost: float | None
    prompt_tokens: int
    completion_tokens: int
    at: str
    call: str | None  # the id of its sent.jsonl line (runs since sent.jsonl; None in memory)
    from_log: bool  # counted from the log of a run begun before the ledger existed


class SentCall(TypedDict, total=False):
    """A line of ``sent.jsonl``: a request about to go out to the model."""

    kind: str
    version: int
    item: str
    epoch: int
    round: int
    attempt: int
    call: str
    at: str


class RunSummary(TypedDict, total=False):
    """``summary.json``: the counts every task's summary has (``engine.summary``); each task's
    summary adds its own (``tasks/<kind>/records.py``)."""

    kind: str
    version: int
    run_id: str | None
    model: str | None
    dataset: str | None
    planned_items: int | None
    label: str  # the run's short label (``run_label``)
    finished_items: int  # items with a finished sample (not samples: ``finished_samples``)
    finished_samples: int  # finished (item, epoch) samples
    infrastructure_errors: int
    infrastructure_error_items: list[str]
    calls: int
    cached_calls: int
    paid_calls: int
    cost_unknown_calls: int
    prompt_tokens: int  # tokens of the prompts sent, in every task
    completion_tokens: int
    cost: float
    cost_paid: float
    calls_sent: int | None  # requests sent to a model (None: a run made before they were recorded)
    calls_sent_unanswered: int | None  # of them, never answered: in flight at a kill, timed out
    epochs: int
    per_epoch: list[dict[str, Any]]  # {"epoch", "finished_items", headline values}
    spread: dict[str, dict[str, float]]  # headline value -> mean, std, min, max, epochs
    updated: str
    rescored: dict[str, Any]  # when ``t2w score-run`` scored the run again: modes, at


class ScoresRecord(TypedDict, total=False):
    """A line of ``scores.jsonl``: a generation item's rounds scored again (``t2w score-run``)."""

    item: str
    ec: dict[str, Any]  # replaces the logged record's ``ec`` of the modes it has
    rounds: list[dict[str, Any]]  # each round's scores per mode
    semantic: list[Any]  # each round's semantic scores, when scored with ``semantic``


RecordT = TypeVar("RecordT", ItemRecord, ErrorRecord, PaidCall, SentCall, ScoresRecord)


def utc_now() -> str:
    """The time stamps of run logs: UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def runs_dir() -> Path:
    """Where runs are written and read: ``--runs-dir``, else ``$T2W_RUNS_DIR``, else ./runs."""
    return Path(os.environ.get("T2W_RUNS_DIR") or "runs")


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def identity_hash(config: RunConfig) -> str:
    """The hash of what a run measures; credentials are not part of it (``redact``)."""
    identity = redact({key: config.get(key) for key in IDENTITY_KEYS})
    return text_hash(json.dumps(identity, sort_keys=True))


def slug(value: Any) -> str:
    """A value as a readable part of a run id."""
    return re.sub(r"[^A-Za-z0-9.]+", "-", str(value)).strip("-")


def make_run_id(parts: Iterable[Any], digest: str) -> str:
    """Readable and deterministic: the same command maps to the same run, so re-running it
    resumes instead of starting over (and a larger selection extends it). ``digest``: a hash
    of what the run measures (``identity_hash``)."""
    return ("__".join(slug(part) for part in parts) + f"__{digest[:8]}")[:180]


def code_version() -> dict:
    from text2world.version import __version__

    version = {"text2world": __version__}
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=5, cwd=Path(__file__).resolve().parent)
        if commit.returncode == 0:
            version["git_commit"] = commit.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        from importlib.metadata import version as package_version

        version["litellm"] = package_version("litellm")
    except Exception:  # noqa: BLE001
        pass
    return version


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of a JSONL file; a torn last line (a killed writer) is ignored. Any JSON object:
    the ``Run`` methods that read a run file say which record type its lines are."""
    if not path.is_file():
        return []
    records = []
    with path.open("rb") as stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except ValueError:
                if not line.endswith(b"\n"):
                    break  # unfinished last line
                raise RunError(f"{path}: line {number} is not valid JSON") from None
    return records


def sample_key(record: ItemRecord | ErrorRecord | PaidCall | SentCall) -> tuple[str, int]:
    """(item id, epoch) of a logged sample, error or paid call; no epoch: epoch 0."""
    return str(record.get("item")), int(record.get("epoch") or 0)


def run_epochs(config: Mapping[str, Any]) -> int:
    """The epochs a run covers (``--epochs``; a run made before epochs existed has one)."""
    return int(config.get("epochs") or 1)


def run_label(config: Mapping[str, Any], run_id: str | None = None) -> str:
    """A run's short label, which tells two runs of one model apart: the ``--label`` it was
    made with; else an id given with ``--run-id`` as it is; else the generated id's parts
    less the model's (the model is shown beside it), ``mystery`` added for obfuscated worlds
    (their ids differ only in the hash, which closes every label and keeps two apart)."""
    given = config.get("label")
    if isinstance(given, str) and given.strip():
        return given.strip()
    run_id = str(run_id or config.get("run_id") or "")
    parts = run_id.split("__")
    if len(parts) < 3 or not re.fullmatch(r"[0-9a-f]{8}", parts[-1]):
        return run_id  # an id given with --run-id: the user's own words
    model = slug(str(config.get("model") or ""))
    kept = [part for part in parts[:-1] if part != model]
    if config.get("mystery") and "mystery" not in kept:
        kept.append("mystery")
    return "/".join(kept + parts[-1:])


def kind_of(config: Mapping[str, Any]) -> str:
    """The kind of a run config as a string, an unknown one included (for messages and for
    listing it); configs written before kinds existed (no ``kind``, or ``eval``) are
    generation runs. Any JSON object: a listed folder's config is read before it is known to
    be a run's (``run_reader.RunInfo``)."""
    kind = config.get("kind")
    legacy = _LEGACY_KINDS.get(kind) if kind is None or isinstance(kind, str) else None
    return legacy.value if legacy is not None else str(kind)


def run_kind(config: Mapping[str, Any]) -> RunKind:
    """The kind of a run config (``kind_of``'s rule); ``RunError`` for a kind no task makes."""
    kind = kind_of(config)
    try:
        return RunKind(kind)
    except ValueError:
        raise RunError(f"a run of unknown kind {kind!r} (known: {', '.join(KINDS)})") from None


@dataclass
class Run:
    path: Path
    config: RunConfig
    _fds: dict = field(default_factory=dict, repr=False)
    _lock_fd: int | None = field(default=None, repr=False)
    notes: list[str] = field(default_factory=list, repr=False)  # repairs lock() made, to tell the user

    @property
    def run_id(self) -> str:
        return self.path.name

    @property
    def kind(self) -> str:
        return kind_of(self.config)

    @property
    def version(self) -> int:
        return int(self.config.get("version") or 1)

    @property
    def log_path(self) -> Path:
        return self.path / LOG_FILE

    @property
    def errors_path(self) -> Path:
        return self.path / ERRORS_FILE

    @property
    def summary_path(self) -> Path:
        return self.path / SUMMARY_FILE

    @property
    def paid_path(self) -> Path:
        return self.path / PAID_FILE

    @property
    def sent_path(self) -> Path:
        return self.path / SENT_FILE

    @property
    def scores_path(self) -> Path:
        return self.path / SCORES_FILE

    # ---- creation and opening

    @classmethod
    def create_or_resume(cls, path: Path, config: RunConfig) -> tuple["Run", bool]:
        """Open ``path`` if it holds a run of the same kind and identity, else create it.
        Returns the run and whether it was resumed. The config is written, and compared,
        without credentials. A resumed run's selection and epochs grow to cover this
        command's (``extend``), so that ``--resume`` later finishes all of them."""
        config = redact({"kind": "generation", **config, "version": FORMAT_VERSION})
        if (path / CONFIG_FILE).is_file():
            run = cls.open(path)
            if run.kind != config["kind"]:
                raise RunError(f"{path} is a {run.kind} run, not a {config['kind']} run; "
                               "choose another --run-id")
            differences = [key for key in IDENTITY_KEYS
                           if run.config.get(key) != config.get(key)]
            if differences:
                shown = "; ".join(f"{key}: run has {run.config.get(key)!r}, now "
                                  f"{config.get(key)!r}" for key in differences[:4])
                raise RunError(f"{path} is a different run ({shown}); choose another --run-id "
                               "or resume it with --resume")
            return run, True
        check_output_folder(path.parent, "runs folder")  # not a file, a device or a FIFO
        if path.exists() and (not path.is_dir() or any(path.iterdir())):
            raise RunError(f"{path} exists and is not a run directory (no config.json)")
        check_output_folder(path, "run folder")
        config = {**config, "run_id": path.name, "created": utc_now()}
        atomic_write_text(path / CONFIG_FILE, json.dumps(config, indent=2, ensure_ascii=False))
        return cls(path, config), False

    def extend(self, selected: list[str], epochs: int, selection: dict[str, Any] | None,
               label: str | None = None) -> None:
        """Make the run cover ``selected`` samples and ``epochs`` epochs too (under the lock):
        a run first made with ``--limit 5`` and then run without it covers every item, and
        ``--resume`` finishes them all. Nothing is ever removed from a run. ``label``: a new
        ``--label`` for it (a label is a name, not a setting: it may change)."""
        old = list(self.config.get("selected") or [])
        merged = old + [item for item in selected if item not in set(old)]
        new_epochs = max(run_epochs(self.config), epochs)
        relabelled = label is not None and label != "" and label != self.config.get("label")
        if merged == old and new_epochs == run_epochs(self.config) and not relabelled:
            return
        wider = len(merged) > len(old)
        self.config = {**self.config, "selected": merged, "epochs": new_epochs,
                       "planned_items": len(merged),
                       "selection": selection if wider or not old
                       else self.config.get("selection"),
                       **({"label": label} if label and relabelled else {}),
                       "version": FORMAT_VERSION}
        atomic_write_text(self.path / CONFIG_FILE,
                          json.dumps(redact(self.config), indent=2, ensure_ascii=False))

    @classmethod
    def open(cls, path: Path) -> "Run":
        path = Path(path)
        config_path = path / CONFIG_FILE
        try:
            check_folder(path, "run")
        except InputFileError as err:
            raise RunError(str(err).replace("no such folder", "no such run directory")) from None
        if not config_path.is_file():
            raise RunError(f"{path}: not a run directory (no config.json)")
        try:
            config = json.loads(read_input_text(config_path, "run config", MAX_CONFIG_BYTES))
        except (OSError, ValueError) as err:
            raise RunError(f"{config_path}: unreadable ({err})") from None
        if not isinstance(config, dict):
            raise RunError(f"{config_path}: not a JSON object")
        return cls(path, cast(RunConfig, config))  # as written: not checked key by key

    # ---- writing

    def lock(self) -> None:
        """One writer per run: a second command on the same run would log samples twice.

        An flock, released by the kernel when its holder dies however it dies; the descriptor
        is close-on-exec and closed in forked children (see the module)."""
        lock_path = self.path / LOCK_FILE
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            holder = _lock_holder(lock_path)
            raise RunError(f"{self.path} is being written by another "
                           f"{_command(self.kind)}"
                           f"{f' (process {holder})' if holder else ''}; wait for it to finish "
                           "(or stop it) before resuming") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd
        register_fd(fd)
        for path in (self.log_path, self.errors_path, self.paid_path, self.sent_path):
            dropped = drop_torn_tail(path)
            if dropped:
                self.notes.append(f"{path}: dropped an unfinished last line ({dropped:,} bytes) left by "
                                  "an interrupted write")
        if not self.paid_path.is_file():
            # A new run starts an empty ledger; a run begun before the ledger existed starts
            # it with the calls its log records as paid.
            lines = [json.dumps({"item": item.get("item"), "round": rnd.get("round"),
                                 "cost": rnd.get("cost"), "from_log": True})
                     for item in self.items() for rnd in _calls(item)
                     if not rnd.get("cached")]
            atomic_write_text(self.paid_path, "".join(line + "\n" for line in lines))

    def close(self) -> None:
        for fd in self._fds.values():
            forget_fd(fd)
            os.close(fd)
        self._fds.clear()
        if self._lock_fd is not None:
            forget_fd(self._lock_fd)
            os.close(self._lock_fd)  # closing releases the flock
            self._lock_fd = None

    def _stamp(self, record: Mapping[str, Any]) -> dict[str, Any]:
        return {"kind": self.kind, "version": FORMAT_VERSION, **record}

    def _append(self, path: Path, record: Mapping[str, Any], sync: bool = True) -> None:
        # every secret the process knows masked, whatever a provider echoed into the record
        data = (json.dumps(mask_known_secrets(record), ensure_ascii=False) + "\n").encode("utf-8")
        fd = self._fds.get(path)
        if fd is None:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                         0o644)
            self._fds[path] = fd
            register_fd(fd)
        size = os.fstat(fd).st_size
        try:
            written = os.write(fd, data)  # one write: the line lands whole or not at all
            while written < len(data):  # a full disk or a size limit may cut it: finish or fail
                written += os.write(fd, data[written:])
            if sync:
                os.fsync(fd)
        except OSError as err:
            try:
                os.ftruncate(fd, size)  # no partial line (truncating needs no space)
            except OSError:
                pass  # the next lock() drops a torn tail
            raise self._write_failed(path, err) from None

    def append_item(self, record: ItemRecord) -> None:
        self._append(self.log_path, self._stamp(record))

    def append_error(self, record: ErrorRecord) -> None:
        """An infrastructure error; its message may quote a URL or header: redacted."""
        self._append(self.errors_path, redact(self._stamp(record)))

    def append_paid(self, item: str, round_index: int, completion: Any, epoch: int = 0,
                    call: str | None = None) -> None:
        """A call the model answered (not the cache): written on receipt, before the sample is
        logged. Not fsynced: a killed process loses nothing written; only a machine crash
        could drop the line (the cache entry of the call has the same exposure). ``call``: the
        id of its ``sent.jsonl`` line."""
        self._append(self.paid_path, self._stamp({
            "item": item, "epoch": epoch, "round": round_index, "cost": completion.cost,
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "at": utc_now(), **({"call": call} if call else {})}), sync=False)

    def append_sent(self, item: str, round_index: int, epoch: int, attempt: int, call: str) -> None:
        """A request about to go out to the model; written (not fsynced, as ``append_paid``)
        before it is sent, so a kill in flight leaves it recorded."""
        self._append(self.sent_path, self._stamp({
            "item": item, "epoch": epoch, "round": round_index, "attempt": attempt, "call": call,
            "at": utc_now()}), sync=False)

    def write_summary(self, summary: RunSummary) -> None:
        summary = {"kind": self.kind, "version": FORMAT_VERSION, **summary}
        try:
            atomic_write_text(self.summary_path, json.dumps(mask_known_secrets(summary), indent=2,
                                                            ensure_ascii=False))
        except OSError as err:
            raise self._write_failed(self.summary_path, err) from None

    def _write_failed(self, path: Path, err: OSError) -> RunWriteError:
        return RunWriteError(f"cannot write the run folder {self.path} ({path.name}): "
                             f"{err.strerror or err}; finished items are kept: free space, then "
                             "resume")

    # ---- reading

    def items(self) -> list[ItemRecord]:
        """Finished samples, one per (item, epoch) (the last record wins if a log was ever
        merged), as the task wrote them (a task's own record type: ``tasks/<kind>/records.py``)."""
        by_key: dict[tuple[str, int], ItemRecord] = {}
        for record in _records(ItemRecord, read_jsonl(self.log_path)):
            by_key[sample_key(record)] = record
        return list(by_key.values())

    def scored_items(self) -> list[ItemRecord]:
        """The finished samples with the scores of ``scores.jsonl`` over their own when the run
        was scored again (``t2w score-run``): what every reader of a run's scores uses (a run
        never scored again: ``items()``)."""
        items = self.items()
        if self.scores_path.is_file():
            rescored = {str(r["item"]): r for r in _records(ScoresRecord,
                                                            read_jsonl(self.scores_path))}
            # ``ec``: a generation record's scores per mode, which the engine does not type
            items = [cast(ItemRecord, {**item, "ec": {
                **cast("Mapping[str, Any]", item).get("ec", {}),
                **rescored.get(str(item["item"]), {}).get("ec", {})}})
                for item in items]
        return items

    def write_scores(self, records: list[ScoresRecord]) -> None:
        """Replace ``scores.jsonl`` (atomically) with ``records``, one per item."""
        lines = [json.dumps(record, ensure_ascii=False) for record in records]
        try:
            atomic_write_text(self.scores_path, "\n".join(lines) + ("\n" if lines else ""))
        except OSError as err:
            raise self._write_failed(self.scores_path, err) from None

    def finished_keys(self) -> set[tuple[str, int]]:
        return {sample_key(r) for r in _records(ItemRecord, read_jsonl(self.log_path))}

    def finished_ids(self) -> set[str]:
        """Items with at least one finished sample."""
        return {key[0] for key in self.finished_keys()}

    def open_errors(self) -> list[ErrorRecord]:
        """Infrastructure errors of samples that have not finished since."""
        finished = self.finished_keys()
        latest: dict[tuple[str, int], ErrorRecord] = {}
        for record in _records(ErrorRecord, read_jsonl(self.errors_path)):
            latest[sample_key(record)] = record
        return [r for key, r in latest.items() if key not in finished]

    def paid_calls(self) -> list[PaidCall] | None:
        """Every call this run paid for, in any attempt; None for a run made before the
        ledger existed (its ``cost_paid`` is then counted from the logged calls)."""
        return (_records(PaidCall, read_jsonl(self.paid_path)) if self.paid_path.is_file()
                else None)

    def sent_calls(self) -> list[SentCall] | None:
        """Every request this run sent to a model; None for a run made before the record."""
        return (_records(SentCall, read_jsonl(self.sent_path)) if self.sent_path.is_file()
                else None)

    def stored_summary(self) -> RunSummary | None:
        """``summary.json`` as last written, or None if there is none (or it is unreadable);
        a task's own summary type: ``tasks/<kind>/records.py``."""
        try:
            data = json.loads(read_input_text(self.summary_path, "run summary", MAX_CONFIG_BYTES))
        except (OSError, ValueError):
            return None
        return cast(RunSummary, data) if isinstance(data, dict) else None


def _command(kind: str) -> str:
    try:
        return RunKind(kind).command
    except ValueError:
        return "t2w command"


def _records(record_type: type[RecordT], lines: list[dict[str, Any]]) -> list[RecordT]:
    """The lines of a run file as ``record_type``: read back as they were written, not checked
    key by key (a TypedDict is only a type; readers use ``.get`` for what may be missing)."""
    return cast("list[RecordT]", lines)


def _calls(item: ItemRecord) -> list[ModelCall]:
    """The model calls a logged sample records (rounds of a generation item, calls of a
    world-model item, the one call of a probe item)."""
    return list(item.get("rounds") or item.get("calls") or [])


def _lock_holder(path: Path) -> str | None:
    try:
        text = read_input_bytes(path, "lock", 4096).decode("ascii", "replace").strip()
    except (OSError, ValueError):
        return None
    return text if text.isdigit() else None


