"""The run store: ``runs/<run-id>/`` with config.json, log.jsonl, errors.jsonl, summary.json.

* ``config.json`` - model, settings, dataset name + content hash, prompt hashes, code version.
  Never an API key (only the name of the variable it was read from).
* ``log.jsonl`` - append-only, one JSON record per finished item; each line is one
  ``os.write`` followed by fsync, so a killed run loses at most the item in flight.
* ``errors.jsonl`` - append-only infrastructure failures (rate limits, server errors,
  connection errors, timeouts after the retries). Kept apart from the log: they are never
  scored as model failures, and resuming retries those items.
* ``paid.jsonl`` - append-only, one line per call paid for (answered by the model, not the
  cache), written as soon as the answer arrives: ``cost_paid`` counts calls of an attempt that
  was killed before its item was logged, and counts each call once.
* ``summary.json`` - counts and mean metrics per round, rewritten atomically at checkpoints.

Nothing written holds a credential: configs and error records pass through
``credentials.redact`` here, the one place they are written.

One writer per run: ``Run.lock`` takes an ``flock`` on ``.lock``, which the kernel releases when
the holder dies, whatever kills it. Child processes never hold it: the descriptor is
close-on-exec and every forked child closes it (``os.register_at_fork``), so a pool worker that
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
from pathlib import Path
from typing import Any

from text2world.model.credentials import redact
from text2world.store.datasets import atomic_write_text

METRICS = ("executable", "similarity", "f1_predicates", "f1_parameters", "f1_preconditions",
           "f1_effects")
SCORE_MODES = ("paper", "canonical")


def mode_metrics(mode: str) -> tuple[str, ...]:
    """The metrics a mode reports per round: canonical mode adds F1 over types."""
    return METRICS + (("f1_types",) if mode == "canonical" else ())


# Settings that define what a run measures: resuming with other values would mix two runs.
IDENTITY_KEYS = ("model", "litellm_model", "api_base", "dataset", "dataset_hash", "split",
                 "description", "prompt", "prompt_hash", "correction_prompt_hash", "ec",
                 "generation", "seed")


class RunError(ValueError):
    """A run directory that cannot be created, opened or resumed; the message says why."""


# Descriptors of open runs (lock and logs) in this process; a forked child closes its copies
# (closing a copy does not release the parent's flock: that needs every copy closed or LOCK_UN).
_RUN_FDS: set[int] = set()


def _close_run_fds_in_child() -> None:
    for fd in list(_RUN_FDS):
        try:
            os.close(fd)
        except OSError:
            pass
    _RUN_FDS.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_run_fds_in_child)


def follow_parent(parent: int, poll: float = 0.5) -> None:
    """Make this child process (a pool worker) die with its parent ``parent``, whatever kills
    the parent (kill -9 of its PID alone, the OOM killer): on Linux the kernel sends SIGKILL
    (PR_SET_PDEATHSIG), and a daemon thread that watches the parent's PID covers other
    systems. Call it first thing in the child."""
    import sys
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1 = PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:  # the parent died before this process could watch it
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(poll)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="t2w-follow-parent", daemon=True).start()


def utc_now() -> str:
    """The time stamps of run logs: UTC, to the second."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


class Stopped(Exception):
    """A run stopped by a signal (SIGTERM, SIGHUP): finished items are kept. ``code`` is the
    exit status a shell reports for that signal (128 + its number)."""

    def __init__(self, signum: int) -> None:
        import signal

        self.signum = signum
        self.name = signal.Signals(signum).name
        self.code = 128 + signum
        super().__init__(f"stopped by {self.name}")


def run_stoppable(main) -> Any:
    """``asyncio.run(main())`` where SIGTERM and SIGHUP stop the run as Ctrl-C does.

    The signal cancels the main task, so its ``finally`` blocks run (items whose calls are done
    are still logged), then ``Stopped`` is raised. Ctrl-C raises KeyboardInterrupt as
    ``asyncio.run`` does. Off the main thread signals cannot be caught; it is a plain run."""
    import asyncio
    import signal
    import threading

    received: list[int] = []

    async def guarded():
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        installed = []
        if threading.current_thread() is threading.main_thread():
            for signum in (signal.SIGTERM, signal.SIGHUP):
                def stop(signum: int = signum) -> None:
                    if not received:
                        received.append(signum)
                        task.cancel()
                try:
                    loop.add_signal_handler(signum, stop)
                    installed.append(signum)
                except (NotImplementedError, RuntimeError, ValueError):
                    pass
        try:
            return await main()
        finally:
            for signum in installed:
                loop.remove_signal_handler(signum)

    try:
        return asyncio.run(guarded())
    except asyncio.CancelledError:
        if received:
            raise Stopped(received[0]) from None
        raise


def runs_dir() -> Path:
    return Path(os.environ.get("T2W_RUNS_DIR") or "runs")


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def identity_hash(config: dict) -> str:
    """The hash of what a run measures; credentials are not part of it (``redact``)."""
    identity = redact({key: config.get(key) for key in IDENTITY_KEYS})
    return text_hash(json.dumps(identity, sort_keys=True))


def make_run_id(config: dict) -> str:
    """Readable and deterministic: the same command maps to the same run, so re-running it
    resumes instead of starting over."""
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", str(config.get("model", "model"))).strip("-")
    dataset = re.sub(r"[^A-Za-z0-9.]+", "-", str(config.get("dataset", "data"))).strip("-")
    prompt = re.sub(r"[^A-Za-z0-9]+", "-", str(config.get("prompt", "prompt"))).strip("-")
    return (f"{slug}__{dataset}__{config.get('description')}__{prompt}"
            f"__ec{config.get('ec')}__{identity_hash(config)[:8]}")[:180]


def code_version() -> dict:
    from text2world import __version__

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


def read_jsonl(path: Path) -> list[dict]:
    """Records of a JSONL file; a torn last line (a killed writer) is ignored."""
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


@dataclass
class Run:
    path: Path
    config: dict
    _fds: dict = field(default_factory=dict, repr=False)
    _lock_fd: int | None = field(default=None, repr=False)

    @property
    def run_id(self) -> str:
        return self.path.name

    @property
    def log_path(self) -> Path:
        return self.path / "log.jsonl"

    @property
    def errors_path(self) -> Path:
        return self.path / "errors.jsonl"

    @property
    def summary_path(self) -> Path:
        return self.path / "summary.json"

    @property
    def paid_path(self) -> Path:
        return self.path / "paid.jsonl"

    # ---- creation and opening

    @classmethod
    def create_or_resume(cls, path: Path, config: dict) -> tuple["Run", bool]:
        """Open ``path`` if it holds a run of the same identity, else create it.
        Returns the run and whether it was resumed. The config is written, and compared,
        without credentials."""
        config = redact(config)
        if (path / "config.json").is_file():
            run = cls.open(path)
            differences = [key for key in IDENTITY_KEYS
                           if run.config.get(key) != config.get(key)]
            if differences:
                shown = "; ".join(f"{key}: run has {run.config.get(key)!r}, now "
                                  f"{config.get(key)!r}" for key in differences[:4])
                raise RunError(f"{path} is a different run ({shown}); choose another --run-id "
                               "or resume it with --resume")
            return run, True
        if path.exists() and any(path.iterdir()):
            raise RunError(f"{path} exists and is not a run directory (no config.json)")
        path.mkdir(parents=True, exist_ok=True)
        config = {**config, "run_id": path.name, "created": time.strftime(
            "%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
        atomic_write_text(path / "config.json", json.dumps(config, indent=2, ensure_ascii=False))
        return cls(path, config), False

    @classmethod
    def open(cls, path: Path) -> "Run":
        path = Path(path)
        config_path = path / "config.json"
        if not path.is_dir():
            raise RunError(f"{path}: no such run directory")
        if not config_path.is_file():
            raise RunError(f"{path}: not a run directory (no config.json)")
        try:
            config = json.loads(config_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise RunError(f"{config_path}: unreadable ({err})") from None
        if not isinstance(config, dict):
            raise RunError(f"{config_path}: not a JSON object")
        return cls(path, config)

    # ---- writing

    def lock(self) -> None:
        """One writer per run: a second ``t2w eval`` on the same run would log items twice.

        An flock, released by the kernel when its holder dies however it dies; the descriptor
        is close-on-exec and closed in forked children (see the module)."""
        lock_path = self.path / ".lock"
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            holder = _lock_holder(lock_path)
            raise RunError(f"{self.path} is being written by another t2w eval"
                           f"{f' (process {holder})' if holder else ''}; wait for it to finish "
                           "(or stop it) before resuming") from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._lock_fd = fd
        _RUN_FDS.add(fd)
        for path in (self.log_path, self.errors_path, self.paid_path):
            _drop_torn_tail(path)
        if not self.paid_path.is_file():
            # A new run starts an empty ledger; a run begun before the ledger existed starts
            # it with the calls its log records as paid.
            lines = [json.dumps({"item": item.get("item"), "round": rnd.get("round"),
                                 "cost": rnd.get("cost"), "from_log": True})
                     for item in self.items() for rnd in item.get("rounds", [])
                     if not rnd.get("cached")]
            atomic_write_text(self.paid_path, "".join(line + "\n" for line in lines))

    def close(self) -> None:
        for fd in self._fds.values():
            _RUN_FDS.discard(fd)
            os.close(fd)
        self._fds.clear()
        if self._lock_fd is not None:
            _RUN_FDS.discard(self._lock_fd)
            os.close(self._lock_fd)  # closing releases the flock
            self._lock_fd = None

    def _append(self, path: Path, record: dict, sync: bool = True) -> None:
        data = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
        fd = self._fds.get(path)
        if fd is None:
            fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_CLOEXEC", 0),
                         0o644)
            self._fds[path] = fd
            _RUN_FDS.add(fd)
        written = os.write(fd, data)  # one write: the line lands whole or not at all
        while written < len(data):  # regular files write everything; be safe anyway
            written += os.write(fd, data[written:])
        if sync:
            os.fsync(fd)

    def append_item(self, record: dict) -> None:
        self._append(self.log_path, record)

    def append_error(self, record: dict) -> None:
        """An infrastructure error; its message may quote a URL or header: redacted."""
        self._append(self.errors_path, redact(record))

    def append_paid(self, item: str, round_index: int, completion: Any) -> None:
        """A call the model answered (not the cache): written on receipt, before the item is
        logged. Not fsynced: a killed process loses nothing written; only a machine crash
        could drop the line (the cache entry of the call has the same exposure)."""
        self._append(self.paid_path, {
            "item": item, "round": round_index, "cost": completion.cost,
            "prompt_tokens": completion.prompt_tokens,
            "completion_tokens": completion.completion_tokens,
            "at": utc_now()}, sync=False)

    def write_summary(self, summary: dict) -> None:
        atomic_write_text(self.summary_path, json.dumps(summary, indent=2, ensure_ascii=False))

    # ---- reading

    def items(self) -> list[dict]:
        """Finished items, one per id (the last record wins if a log was ever merged)."""
        by_id: dict[str, dict] = {}
        for record in read_jsonl(self.log_path):
            by_id[str(record.get("item"))] = record
        return list(by_id.values())

    def finished_ids(self) -> set[str]:
        return {str(r.get("item")) for r in read_jsonl(self.log_path)}

    def open_errors(self) -> list[dict]:
        """Infrastructure errors of items that have not finished since."""
        finished = self.finished_ids()
        latest: dict[str, dict] = {}
        for record in read_jsonl(self.errors_path):
            latest[str(record.get("item"))] = record
        return [r for item, r in latest.items() if item not in finished]

    def paid_calls(self) -> list[dict] | None:
        """Every call this run paid for, in any attempt; None for a run made before the
        ledger existed (its ``cost_paid`` is then counted from the logged rounds)."""
        return read_jsonl(self.paid_path) if self.paid_path.is_file() else None

    def summary(self) -> dict:
        return summarize(self.config, self.items(), self.open_errors(), self.paid_calls())


def _lock_holder(path: Path) -> str | None:
    try:
        text = path.read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return text if text.isdigit() else None


def _drop_torn_tail(path: Path) -> None:
    """A writer killed mid-line leaves an unfinished last line: cut it before appending."""
    if not path.is_file():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        cut = data.rfind(b"\n") + 1
        with path.open("r+b") as stream:
            stream.truncate(cut)
            stream.flush()
            os.fsync(stream.fileno())


# --------------------------------------------------------------------------------------------
# Summaries


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def summarize(config: dict, items: list[dict], open_errors: list[dict],
              paid: list[dict] | None = None) -> dict:
    """Counts and mean metrics per round (EC_0 .. EC_k) for each scoring mode.

    ``paid``: the run's ledger of paid calls (``Run.paid_calls``); ``cost_paid`` is its sum,
    which includes calls of killed attempts and of items that failed later. Without a ledger
    it is the cost of the logged rounds not answered from the cache."""
    ec = int(config.get("ec", 0))
    per_mode: dict[str, list[dict]] = {}
    for mode in SCORE_MODES:
        rounds = []
        for r in range(ec + 1):
            row: dict[str, float | int | None] = {"round": r}
            scored = [item["ec"][mode][r] for item in items
                      if item.get("ec", {}).get(mode) and len(item["ec"][mode]) > r
                      and item["ec"][mode][r] is not None]
            row["items"] = len(scored)
            for metric in mode_metrics(mode):
                row[metric] = mean([float(s[metric]) for s in scored if s.get(metric) is not None])
            rounds.append(row)
        per_mode[mode] = rounds
    from text2world.reports.semantic import semantic_rounds  # lazy: the simulator is not needed here
    from text2world.reports.intervals import summary_intervals
    semantic = semantic_rounds(items, ec)
    if semantic is not None:
        per_mode["semantic"] = semantic
    valid_at = [sum(1 for item in items if (item.get("valid_round") is not None
                                            and item["valid_round"] <= r))
                for r in range(ec + 1)]
    tokens_in = sum(item.get("usage", {}).get("prompt_tokens", 0) for item in items)
    tokens_out = sum(item.get("usage", {}).get("completion_tokens", 0) for item in items)
    return {
        "run_id": config.get("run_id"),
        "model": config.get("model"),
        "dataset": config.get("dataset"),
        "description": config.get("description"),
        "prompt": config.get("prompt"),
        "ec": ec,
        "planned_items": config.get("planned_items"),
        "finished_items": len(items),
        "infrastructure_errors": len(open_errors),
        "infrastructure_error_items": sorted(str(e.get("item")) for e in open_errors),
        "valid_at_round": valid_at,
        "calls": sum(len(item.get("rounds", [])) for item in items),
        "cached_calls": sum(1 for item in items for rnd in item.get("rounds", [])
                            if rnd.get("cached")),
        "prompt_tokens": tokens_in,
        "completion_tokens": tokens_out,
        "cost": sum(item.get("cost") or 0.0 for item in items),  # as if every call was paid
        "cost_paid": (sum(call.get("cost") or 0.0 for call in paid) if paid is not None else
                      sum(rnd.get("cost") or 0.0 for item in items
                          for rnd in item.get("rounds", []) if not rnd.get("cached"))),
        "paid_calls": (len(paid) if paid is not None else
                       sum(1 for item in items for rnd in item.get("rounds", [])
                           if not rnd.get("cached"))),
        "cost_unknown_calls": sum(1 for item in items for rnd in item.get("rounds", [])
                                  if rnd.get("cost") is None),
        "metrics": per_mode,
        "intervals": summary_intervals(items, ec),  # 95%, [low, high] at EC_0 and EC_k
        "updated": utc_now(),
    }
