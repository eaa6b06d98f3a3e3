"""The run store: ``runs/<run-id>/`` holds one run of one task, and ``Run`` is the only code
that reads or writes it (the records' types, names and checks: ``engine.run_records``; the
kinds and a run's identity: ``engine.kinds``; both re-exported here). The viewer,
``t2w report``, the API and ``t2w score-run`` read runs through it.

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
without ``kind`` is of the default kind (``kinds.kind_of``), records without ``epoch`` are
epoch 0 (``run_records.migrate_config``, ``check_config``, ``check_record``).

Nothing written holds a credential: configs and error records pass through
``credentials.redact`` here, the one place they are written.

One writer per run: ``Run.lock`` takes an ``flock`` on ``.lock``, which the kernel releases when
the holder dies, whatever kills it. Child processes never hold it: the descriptor is
close-on-exec and every forked child closes it (``engine.process``), so a pool worker that
outlives its parent cannot keep a run locked.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, cast

from text2world.engine.kinds import default_kind as default_kind
from text2world.engine.kinds import (
    identity_hash,
    identity_keys,
    kind_names,
    kind_of,
    kind_spec,
    make_run_id,
    run_kind,
    spec_of,
    text_hash,
)
from text2world.engine.process import Stopped, follow_parent, forget_fd, register_fd, run_stoppable
from text2world.engine.run_records import (
    CONFIG_FILE,
    ERRORS_FILE,
    FORMAT_VERSION,
    LOCK_FILE,
    LOG_FILE,
    MAX_CONFIG_BYTES,
    PAID_FILE,
    SCORES_FILE,
    SENT_FILE,
    SUMMARY_FILE,
    ErrorInfo,
    ErrorRecord,
    ItemRecord,
    ModelCall,
    PaidCall,
    RecordT,
    RunConfig,
    RunError,
    RunSummary,
    RunWriteError,
    ScoresRecord,
    SentCall,
    Usage,
    check_config,
    read_jsonl,
    run_epochs,
    run_label,
    run_version,
    sample_key,
    slug,
    utc_now,
)
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

__all__ = ["CONFIG_FILE", "ERRORS_FILE", "FORMAT_VERSION", "LOG_FILE", "PAID_FILE",
           "SCORES_FILE", "SENT_FILE", "SUMMARY_FILE", "ErrorInfo", "ErrorRecord", "ItemRecord",
           "ModelCall", "PaidCall", "Run", "RunConfig", "RunError", "RunSummary", "RunWriteError",
           "ScoresRecord", "SentCall", "Stopped", "Usage", "drop_torn_tail", "follow_parent",
           "identity_hash", "kind_names", "kind_of", "make_run_id", "read_jsonl", "run_epochs",
           "run_kind", "run_label", "run_stoppable", "run_version", "runs_dir", "sample_key",
           "slug", "text_hash", "utc_now"]


def runs_dir() -> Path:
    """Where runs are written and read: ``--runs-dir``, else ``$T2W_RUNS_DIR``, else ./runs."""
    return Path(os.environ.get("T2W_RUNS_DIR") or "runs")


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
        return run_version(self.config)

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
        config = redact({"kind": default_kind(), **config, "version": FORMAT_VERSION})
        if (path / CONFIG_FILE).is_file():
            run = cls.open(path)
            if run.kind != config["kind"]:
                raise RunError(f"{path} is a {run.kind} run, not a {config['kind']} run; "
                               "choose another --run-id")
            differences = [key for key in identity_keys(config["kind"])
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
        # the keys every reader relies on checked, older formats migrated; a task's own keys
        # are its readers' to check
        return cls(path, cast(RunConfig, check_config(config, config_path)))

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
        lines = read_jsonl(self.log_path, check=True, record_check=spec_of(self.kind).item_check())
        for record in _records(ItemRecord, lines):
            by_key[sample_key(record)] = record
        return list(by_key.values())

    def scored_items(self) -> list[ItemRecord]:
        """The finished samples with the scores of ``scores.jsonl`` over their own when the run
        was scored again (``t2w score-run``): what every reader of a run's scores uses (a run
        never scored again: ``items()``)."""
        items = self.items()
        if self.scores_path.is_file():
            rescored = {str(r["item"]): r for r in _records(
                ScoresRecord, read_jsonl(self.scores_path, check=True))}
            spec = spec_of(self.kind)
            none: ScoresRecord = {}
            items = [spec.with_rescored(item, rescored.get(str(item["item"]), none))
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
        return {sample_key(r) for r in _records(ItemRecord, read_jsonl(self.log_path, check=True))}

    def finished_ids(self) -> set[str]:
        """Items with at least one finished sample."""
        return {key[0] for key in self.finished_keys()}

    def open_errors(self) -> list[ErrorRecord]:
        """Infrastructure errors of samples that have not finished since."""
        finished = self.finished_keys()
        latest: dict[tuple[str, int], ErrorRecord] = {}
        for record in _records(ErrorRecord, read_jsonl(self.errors_path, check=True)):
            latest[sample_key(record)] = record
        return [r for key, r in latest.items() if key not in finished]

    def paid_calls(self) -> list[PaidCall] | None:
        """Every call this run paid for, in any attempt; None for a run made before the
        ledger existed (its ``cost_paid`` is then counted from the logged calls)."""
        return (_records(PaidCall, read_jsonl(self.paid_path, check=True)) if self.paid_path.is_file()
                else None)

    def sent_calls(self) -> list[SentCall] | None:
        """Every request this run sent to a model; None for a run made before the record."""
        return (_records(SentCall, read_jsonl(self.sent_path, check=True)) if self.sent_path.is_file()
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
    return kind_spec(kind).command if kind in kind_names() else "t2w command"


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

