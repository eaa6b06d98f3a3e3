"""Configuration of the REST service, from environment variables (``t2w serve`` flags set them).

Every setting has an environment variable so that ``uvicorn --workers N`` child processes, which
import ``api.app:app`` on their own, see the same configuration as the command that started them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping

DEFAULT_MAX_BODY = 1024 * 1024  # bytes
DEFAULT_SCORE_TIMEOUT = 10.0  # seconds
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
}


class SettingsError(ValueError):
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
    """process: scoring in a child process pool that is killed on timeout; thread: scoring in
    threads (lighter, but a timed-out job cannot be stopped: it holds its slot until it ends)."""
    score_processes: int | None = None
    """Scoring processes (or threads) per server worker; None: enough for every core (see
    ``processes``)."""
    workers: int = 1
    """Server worker processes started by ``t2w serve --workers`` (sizes the default pools)."""
    warm: bool = False
    """Parse every gold domain of the built-in store when a scoring process starts."""
    runs_dir: Path = field(default_factory=_default_runs_dir)

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

    @property
    def processes(self) -> int:
        """Scoring processes per worker. By default each worker may use every core: uvicorn
        workers do not share connections evenly (a keep-alive connection stays on the worker
        that accepted it), so a worker limited to its share of cores would leave cores idle
        while another worker queues. Total processes stay at most about twice the cores."""
        if self.score_processes is not None:
            return self.score_processes
        cores = os.cpu_count() or 1
        return max(1, min(cores, -(-2 * cores // self.workers)))

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
        }


_EXPECTED = {
    "max_body": "expected a whole number of bytes, e.g. 1048576",
    "score_timeout": "expected a number of seconds, e.g. 10",
    "executor": f"expected one of {', '.join(EXECUTORS)}",
    "score_processes": "expected a whole number, e.g. 1",
    "workers": "expected a whole number, e.g. 2",
    "warm": "expected 1/0, true/false or yes/no",
    "runs_dir": "expected a folder path",
}


def _convert(name: str, raw: str):
    if name in ("max_body", "score_processes", "workers"):
        return int(raw)
    if name == "score_timeout":
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
    return raw
