"""The records of a run folder (``runs/<run-id>/``, written by ``engine.run_store.Run``): the
files' names, the typed records each file holds, and reading them back as they were written,
checked where they are read (``check_config``, ``check_record``: a corrupt record is a
``RunError`` naming the file, the line and the field) and migrated from the formats older
versions wrote (``migrate_config``). ``engine.run_store`` re-exports every name here.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, TypedDict, TypeVar

from text2world.errors import Text2WorldError

if TYPE_CHECKING:
    from typing_extensions import ReadOnly

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
    """``config.json`` as the engine reads it, before the kind is known (resume, identity,
    listing, labels): the engine's keys and those every task writes. A task's own keys are
    typed in its ``tasks/<kind>/records.py`` (``GenerationConfig``, ``WmConfig``, ...), which
    the task reads its runs' configs as (``generation_config(run.config)``, ...)."""

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

def read_jsonl(path: Path, check: bool = False,
               record_check: Callable[[Any], str | None] | None = None) -> list[dict[str, Any]]:
    """Records of a JSONL file; a torn last line (a killed writer) is ignored. Any JSON object:
    the ``Run`` methods that read a run file say which record type its lines are, and read
    them ``check``ed (``check_record``), and with ``record_check`` (a kind's record type:
    ``KindSpec.item_check``) as well."""
    if not path.is_file():
        return []
    records = []
    with path.open("rb") as stream:
        for number, line in enumerate(stream, 1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                if not line.endswith(b"\n"):
                    break  # unfinished last line
                raise RunError(f"{path}: line {number} is not valid JSON") from None
            if check:
                check_record(record, path, number)
            problem = record_check(record) if record_check else None
            if problem:
                raise RunError(f"{path}: line {number}: corrupt record: {problem}")
            records.append(record)
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


def slug(value: Any) -> str:
    """A value as a readable part of a run id."""
    return re.sub(r"[^A-Za-z0-9.]+", "-", str(value)).strip("-")


def run_version(config: Mapping[str, Any]) -> int:
    """The format version a run was written in (1: before records carried it)."""
    return int(config.get("version") or 1)


# --------------------------------------------------------------------------------------------
# Checked where read: what every reader relies on, checked once here, so that a hand-edited or
# corrupt file is named with the field at fault instead of failing deep inside a report.

# config.json's keys every reader relies on -> (the JSON types allowed, what it must be)
_CONFIG_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "kind": ((str,), "a string"),
    "version": ((int,), "a whole number"),
    "run_id": ((str,), "a string"),
    "model": ((str,), "a string"),
    "label": ((str,), "a string"),
    "epochs": ((int,), "a whole number"),
    "seed": ((int,), "a whole number"),
    "planned_items": ((int,), "a whole number"),
    "selected": ((list,), "a list of item ids"),
    "selection": ((dict,), "an object"),
    "generation": ((dict,), "an object"),
}

# the keys of a line of any run file (log, errors, paid, sent, scores) its readers rely on
_RECORD_FIELDS: dict[str, tuple[tuple[type, ...], str]] = {
    "item": ((str,), "a string"),
    "epoch": ((int,), "a whole number"),
}


def _field_problem(record: Mapping[str, Any],
                   fields: Mapping[str, tuple[tuple[type, ...], str]]) -> str | None:
    for key, (types, what) in fields.items():
        value = record.get(key)
        if value is None:
            continue  # absent (or null) in a record an older version wrote: the readers' default
        if isinstance(value, bool) or not isinstance(value, types):
            return f"field {key!r} is {json.dumps(value)[:60]}, not {what}"
    return None


def migrate_config(config: dict[str, Any]) -> dict[str, Any]:
    """A config as the current version reads it. What older versions wrote and still open: no
    ``kind`` or ``kind: "eval"`` (generation runs: ``kinds.kind_of``), no ``version`` (1), no
    ``epochs`` (one epoch: ``run_epochs``) are read by the accessors' defaults; an ``epochs``
    or ``seed`` written as a whole float (``2.0``) is read as the number it is."""
    migrated = dict(config)
    for key in ("epochs", "seed", "version", "planned_items"):
        value = migrated.get(key)
        if isinstance(value, float) and value.is_integer():
            migrated[key] = int(value)
    return migrated


def check_config(config: Any, path: Path) -> dict[str, Any]:
    """``config.json`` read back (``path``: for the message), migrated from older formats;
    ``RunError`` naming the file and the field when it is not one a run could have written."""
    if not isinstance(config, dict):
        raise RunError(f"{path}: not a JSON object")
    config = migrate_config(config)
    problem = _field_problem(config, _CONFIG_FIELDS)
    if problem is None and "selected" in config and not all(
            isinstance(item, str) for item in config["selected"] or []):
        problem = "field 'selected' holds an item id that is not a string"
    if problem is None and isinstance(config.get("epochs"), int) and config["epochs"] < 1:
        problem = f"field 'epochs' is {config['epochs']}, not 1 or more"
    if problem:
        raise RunError(f"{path}: corrupt run config: {problem}")
    return config


def check_record(record: Any, path: Path, line: int) -> dict[str, Any]:
    """A line of a run file; ``RunError`` naming the file, the line and the field when it is not
    a record a run could have written."""
    if not isinstance(record, dict):
        raise RunError(f"{path}: line {line} is not a JSON object")
    problem = _field_problem(record, _RECORD_FIELDS)
    if problem:
        raise RunError(f"{path}: line {line}: corrupt record: {problem}")
    return record
