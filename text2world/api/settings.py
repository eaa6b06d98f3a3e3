"""Configuration of the REST service, from environment variables (``t2w serve`` flags set them).

Every setting has an environment variable so that ``uvicorn --workers N`` child processes, which
import ``api.app:app`` on their own, see the same configuration as the command that started them.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

from text2world.errors import Text2WorldError
from text2world.service.admission import DEFAULT_QUEUE_TIMEOUT, LIMIT_WAIT, default_client_limit, default_queue_limit
from text2world.service.limits import DEFAULT_MAX_BODY, DEFAULT_SCORE_TIMEOUT

DEFAULT_HEADER_TIMEOUT = 10.0  # seconds
DEFAULT_BODY_TIMEOUT = 30.0  # seconds for a whole request body (gunicorn's worker timeout)
DEFAULT_CLIENT_RATE_PER_PROCESS = 50.0  # requests per second per client, per scoring process
DEFAULT_DEMOTE_AFTER = 0.1  # seconds
MAX_RATE_DELAY = 2.0  # seconds a request over its client's rate may be held before a 429
EXECUTORS = ("process", "thread")

# environment variable -> Settings field
ENV_VARS = {
    "T2W_API_MAX_BODY": "max_body",
    "T2W_API_SCORE_TIMEOUT": "score_timeout",
    "T2W_API_EXECUTOR": "executor",
    "T2W_API_SCORE_PROCESSES": "score_processes",
    "T2W_API_WARM": "warm",
    "T2W_API_WORKERS": "workers",
    "T2W_RUNS_DIR": "runs_dir",
    "T2W_API_CLIENT_CONCURRENCY": "client_concurrency",
    "T2W_API_CLIENT_LIMIT": "client_limit",
    "T2W_API_MAX_QUEUE": "max_queue",
    "T2W_API_QUEUE_TIMEOUT": "queue_timeout",
    "T2W_API_LIMIT_WAIT": "limit_wait",
    "T2W_API_HEADER_TIMEOUT": "header_timeout",
    "T2W_GOLD_CACHE_BYTES": "gold_cache_bytes",
    "T2W_API_CLIENT_RATE": "client_rate",
    "T2W_API_CLIENT_BURST": "client_burst",
    "T2W_API_DEMOTE_AFTER": "demote_after",
    "T2W_API_BODY_TIMEOUT": "body_timeout",
    "T2W_API_ALLOWED_HOSTS": "allowed_hosts",
    "T2W_API_TOKEN": "token",
}


class SettingsError(Text2WorldError, ValueError):
    """A setting with a value that cannot work; the message names the variable."""


def _default_runs_dir() -> Path:
    return Path("runs")


@dataclass(frozen=True)
class Settings:
    max_body: int = DEFAULT_MAX_BODY
    """Largest accepted request body in bytes; larger bodies get 413."""
    score_timeout: float = DEFAULT_SCORE_TIMEOUT
    """Seconds one scoring or validation job may run before it is stopped (422)."""
    executor: str = "process"
    """process: scoring processes, one job each at a time, the one running a job past its
    limit is killed; thread: scoring in threads (lighter, but a timed-out job cannot be
    stopped: it holds its slot until it ends)."""
    score_processes: int | None = None
    """Scoring processes (or threads) per server worker; None: one per core, shared among the
    workers (see ``processes``)."""
    workers: int = 1
    """Server worker processes started by ``t2w serve --workers`` (sizes the default pools)."""
    warm: bool = False
    """Parse every gold domain of the built-in store once, before scoring processes start."""
    runs_dir: Path = field(default_factory=_default_runs_dir)
    client_concurrency: int | None = None
    """Jobs one client (address) may have scoring at once; None: every scoring process (a
    client alone may use them all; competing clients share them, see ``service.admission``)."""
    client_limit: int | None = None
    """Requests one client may have inside the service (scoring or waiting); past it, 429.
    None: 4 per scoring process, at least 8."""
    max_queue: int | None = None
    """Requests waiting for a scoring process in all; past it, 503. None: 16 per scoring
    process, at least 32."""
    queue_timeout: float = DEFAULT_QUEUE_TIMEOUT
    """Seconds a request may wait for a scoring process; past it, 503."""
    limit_wait: float = LIMIT_WAIT
    """Seconds a request past its client's limit or the queue's waits for room before its
    429 or 503 (``service.admission``; at most ``queue_timeout``); 0: refused at once."""
    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    """Seconds a connection may take to send a request's headers (and may stay idle between
    requests); past it, 408 and the connection is closed."""
    gold_cache_bytes: int | None = None
    """Bytes of parsed gold domains each gold cache of a scoring process may hold; None: the
    library default (``text2world.scoring.caching``, 64 MiB)."""
    client_rate: float | None = None
    """Requests per second one client (address) may send while other clients are active;
    faster ones are held until they conform, or answered 429 (``api.limits.ClientRateLimiter``).
    None: 50 per scoring process; 0: no limit."""
    client_burst: int | None = None
    """Requests a client may send at once above its rate. None: one second's worth."""
    demote_after: float = DEFAULT_DEMOTE_AFTER
    """Seconds after which a running scoring job yields to shorter ones: its process runs at a
    lower CPU priority and its slot goes to the next request (``service.executor``); 0: never."""

    body_timeout: float = DEFAULT_BODY_TIMEOUT
    """Seconds a request body may take to arrive once its headers have; past it, 408 and the
    connection is closed (a body that trickles in holds a connection otherwise)."""
    allowed_hosts: tuple[str, ...] | None = None
    """Host header names served (``api.guard``; ``*.example.com`` matches subdomains); others
    get 421, as DNS rebinding sends a foreign name to a loopback service. None: any (``t2w
    serve``/``t2w view`` set the loopback names when they bind to loopback)."""
    token: str | None = None
    """Bearer token every request but the health probes must carry (``Authorization: Bearer``,
    or once ``?token=`` in a browser, kept in a cookie); None: none needed."""

    def __post_init__(self) -> None:
        if self.max_body < 1:
            raise SettingsError("max body size (T2W_API_MAX_BODY, --max-body) must be a "
                                f"positive number of bytes, not {self.max_body}")
        if not self.score_timeout > 0:
            raise SettingsError("score timeout (T2W_API_SCORE_TIMEOUT, --score-timeout) must be "
                                f"positive seconds, not {self.score_timeout}")
        if self.executor not in EXECUTORS:
            raise SettingsError("executor (T2W_API_EXECUTOR, --executor) must be one of "
                                f"{', '.join(EXECUTORS)}, not {self.executor!r}")
        if self.workers < 1:
            raise SettingsError("workers (T2W_API_WORKERS, --workers) must be at least 1, "
                                f"not {self.workers}")
        if self.score_processes is not None and self.score_processes < 1:
            raise SettingsError("score processes (T2W_API_SCORE_PROCESSES, --score-processes) "
                                f"must be at least 1, not {self.score_processes}")
        for name, variable in (("client_concurrency", "T2W_API_CLIENT_CONCURRENCY"),
                               ("client_limit", "T2W_API_CLIENT_LIMIT"),
                               ("max_queue", "T2W_API_MAX_QUEUE")):
            value = getattr(self, name)
            if value is not None and value < (0 if name == "max_queue" else 1):
                raise SettingsError(f"{name.replace('_', ' ')} ({variable}) must be at least "
                                    f"{0 if name == 'max_queue' else 1}, not {value}")
        for name, variable in (("queue_timeout", "T2W_API_QUEUE_TIMEOUT"),
                               ("header_timeout", "T2W_API_HEADER_TIMEOUT"),
                               ("body_timeout", "T2W_API_BODY_TIMEOUT")):
            if not getattr(self, name) > 0:
                raise SettingsError(f"{name.replace('_', ' ')} ({variable}) must be positive "
                                    f"seconds, not {getattr(self, name)}")
        if not self.limit_wait >= 0:
            raise SettingsError("limit wait (T2W_API_LIMIT_WAIT, --limit-wait) must be at "
                                f"least 0 seconds, not {self.limit_wait}")
        if self.client_rate is not None and not self.client_rate >= 0:
            raise SettingsError("client rate (T2W_API_CLIENT_RATE, --client-rate) must be at "
                                f"least 0 requests per second, not {self.client_rate}")
        if self.client_burst is not None and self.client_burst < 1:
            raise SettingsError("client burst (T2W_API_CLIENT_BURST, --client-burst) must be "
                                f"at least 1, not {self.client_burst}")
        if not self.demote_after >= 0:
            raise SettingsError("demote after (T2W_API_DEMOTE_AFTER, --demote-after) must be at "
                                f"least 0 seconds, not {self.demote_after}")
        if self.gold_cache_bytes is not None and self.gold_cache_bytes < 0:
            raise SettingsError("gold cache bytes (T2W_GOLD_CACHE_BYTES) must be at least 0, "
                                f"not {self.gold_cache_bytes}")

    @property
    def processes(self) -> int:
        """Scoring processes per worker. By default one per core in all: one server worker
        (the default) serves every connection and feeds every core, so its admission control
        sees every client; with several workers each gets its share of the cores."""
        if self.score_processes is not None:
            return self.score_processes
        cores = os.cpu_count() or 1
        return max(1, cores // self.workers)

    @property
    def per_client_concurrency(self) -> int:
        return self.client_concurrency or self.processes

    @property
    def per_client_limit(self) -> int:
        return self.client_limit or default_client_limit(self.processes)

    @property
    def per_client_rate(self) -> float:
        """Requests per second per client; 0: unlimited."""
        if self.client_rate is not None:
            return self.client_rate
        return DEFAULT_CLIENT_RATE_PER_PROCESS * self.processes

    @property
    def per_client_burst(self) -> int:
        return self.client_burst or max(1, math.ceil(self.per_client_rate))

    @property
    def queue_limit(self) -> int:
        return self.max_queue if self.max_queue is not None else default_queue_limit(self.processes)

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> "Settings":
        """Settings from ``T2W_*`` variables; unset or empty variables keep the defaults."""
        env = os.environ if environ is None else environ
        values: dict = {}
        for variable, name in ENV_VARS.items():
            raw = env.get(variable, "").strip()
            if not raw:
                continue
            try:
                values[name] = _convert(name, raw)
            except ValueError:
                raise SettingsError(f"{variable}={raw!r}: {_EXPECTED[name]}") from None
        from text2world.files import CacheSettingError, check_cache_settings

        try:  # the disk caches' bounds, which scoring reads in the scoring processes
            check_cache_settings(env)
        except CacheSettingError as err:
            raise SettingsError(str(err)) from None
        return cls(**values)

    def to_env(self) -> dict[str, str]:
        """The environment variables that reproduce these settings in another process."""
        return {
            "T2W_API_MAX_BODY": str(self.max_body),
            "T2W_API_SCORE_TIMEOUT": repr(float(self.score_timeout)),
            "T2W_API_EXECUTOR": self.executor,
            "T2W_API_SCORE_PROCESSES": "" if self.score_processes is None else str(self.score_processes),
            "T2W_API_WORKERS": str(self.workers),
            "T2W_API_WARM": "1" if self.warm else "0",
            "T2W_RUNS_DIR": str(self.runs_dir),
            "T2W_API_CLIENT_CONCURRENCY": _optional(self.client_concurrency),
            "T2W_API_CLIENT_LIMIT": _optional(self.client_limit),
            "T2W_API_MAX_QUEUE": _optional(self.max_queue),
            "T2W_API_QUEUE_TIMEOUT": repr(float(self.queue_timeout)),
            "T2W_API_LIMIT_WAIT": repr(float(self.limit_wait)),
            "T2W_API_HEADER_TIMEOUT": repr(float(self.header_timeout)),
            "T2W_GOLD_CACHE_BYTES": _optional(self.gold_cache_bytes),
            "T2W_API_CLIENT_RATE": "" if self.client_rate is None else repr(float(self.client_rate)),
            "T2W_API_CLIENT_BURST": _optional(self.client_burst),
            "T2W_API_DEMOTE_AFTER": repr(float(self.demote_after)),
            "T2W_API_BODY_TIMEOUT": repr(float(self.body_timeout)),
            "T2W_API_ALLOWED_HOSTS": "" if self.allowed_hosts is None else ",".join(self.allowed_hosts),
            "T2W_API_TOKEN": self.token or "",
        }


def _optional(value: int | None) -> str:
    return "" if value is None else str(value)


_EXPECTED = {
    "max_body": "expected a whole number of bytes, e.g. 1048576",
    "score_timeout": "expected a number of seconds, e.g. 10",
    "executor": f"expected one of {', '.join(EXECUTORS)}",
    "score_processes": "expected a whole number, e.g. 1",
    "workers": "expected a whole number, e.g. 2",
    "warm": "expected 1/0, true/false or yes/no",
    "runs_dir": "expected a folder path",
    "client_concurrency": "expected a whole number, e.g. 2",
    "client_limit": "expected a whole number, e.g. 8",
    "max_queue": "expected a whole number, e.g. 32",
    "queue_timeout": "expected a number of seconds, e.g. 30",
    "limit_wait": "expected a number of seconds, e.g. 5 (0: refuse at once)",
    "header_timeout": "expected a number of seconds, e.g. 10",
    "gold_cache_bytes": "expected a whole number of bytes, e.g. 67108864",
    "client_rate": "expected requests per second, e.g. 100 (0: no limit)",
    "client_burst": "expected a whole number of requests, e.g. 100",
    "demote_after": "expected a number of seconds, e.g. 0.1 (0: never)",
    "body_timeout": "expected a number of seconds, e.g. 30",
    "allowed_hosts": "expected host names separated by commas, e.g. localhost,127.0.0.1",
    "token": "expected a token",
}


def _convert(name: str, raw: str):
    if name in ("max_body", "score_processes", "workers", "client_concurrency", "client_limit",
                "max_queue", "gold_cache_bytes", "client_burst"):
        return int(raw)
    if name in ("score_timeout", "queue_timeout", "limit_wait", "header_timeout", "client_rate",
                "demote_after", "body_timeout"):
        value = float(raw)
        if value != value:  # NaN passes every comparison check otherwise
            raise ValueError(raw)
        return value
    if name == "warm":
        lowered = raw.lower()
        if lowered in ("1", "true", "yes", "on"):
            return True
        if lowered in ("0", "false", "no", "off"):
            return False
        raise ValueError(raw)
    if name == "runs_dir":
        return Path(raw)
    if name == "allowed_hosts":
        return tuple(host.strip().lower() for host in raw.split(",") if host.strip()) or None
    return raw
