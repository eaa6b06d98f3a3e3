"""Run options: one place that builds them from command-line flags and, for ``--resume``,
from a run's config, and that says which flags a resumed run may change.

Every task's options extend ``RunOptions`` (same names, same defaults); a task's own fields
come back from its config through ``RunOptions.from_config`` with the task's ``FIELDS``
(config key -> field, with a conversion).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Callable, ClassVar, Mapping

from text2world.engine.run_store import run_epochs
from text2world.errors import Text2WorldError

BUILTIN_DATASET = "text2world"


class OptionsError(Text2WorldError, ValueError):
    """Options that contradict each other or the run being resumed."""


# Options a resumed run may change: they do not change what the run measures. Credentials
# (--api-base, --model-arg) are never written to a run, so a resuming command gives them again;
# --epochs adds epochs.
RESUME_OVERRIDES = frozenset({
    "max_concurrency", "timeout", "max_retries", "retry_base_delay", "use_cache", "workers",
    "api_base", "model_args", "epochs", "quiet", "runs_root", "progress", "planner_timeout",
    "top", "n", "max_mismatches", "resume", "run_id", "label"})
RESUME_HELP = ("Resume this run (folder or run id). The run's own settings are used; only "
               "--max-concurrency, --timeout, --max-retries, --retry-delay, --no-cache, "
               "--epochs (adds epochs), --label, --runs-dir, --quiet, the probe's --n and --max-mismatches "
               "and the credentials (--api-base, "
               "--model-arg) may be given again; any other flag must match the run's.")


@dataclass
class RunOptions:
    """What every run of a model over a dataset is configured with; each task extends it."""

    model: str = ""
    dataset: str = BUILTIN_DATASET
    split: str = "test"
    limit: int | None = None
    domains: list[str] | None = None
    api_base: str | None = None
    temperature: float | None = 0.0
    max_tokens: int | None = None
    model_args: dict = field(default_factory=dict)
    max_concurrency: int = 4
    timeout: float = 600.0
    max_retries: int = 5
    retry_base_delay: float = 1.0
    use_cache: bool = True
    seed: int = 0
    run_id: str | None = None
    resume: Path | None = None
    epochs: int = 1  # samples per item; each epoch's calls are cached apart
    runs_root: Path | None = None  # --runs-dir; None: $T2W_RUNS_DIR or ./runs
    label: str | None = None  # --label: the run's short name in the viewer, compare, reports

    # A task's own settings as its config records them: config key -> (field, conversion).
    FIELDS: ClassVar[dict[str, tuple[str, Callable[[Any], Any]]]] = {}

    def with_overrides(self, **overrides: Any):
        """These options, as recorded by a run, with what a resuming command gives again:
        values that are not None replace the recorded ones; ``model_args`` are added to them
        (credentials are never recorded, so they come back this way)."""
        options = self
        for key, value in overrides.items():
            if key == "model_args":
                value = {**options.model_args, **value} if value else None
            if value is not None:
                options = replace(options, **{key: value})
        return options

    @classmethod
    def from_config(cls, config: Mapping[str, Any], path: Path):
        """The options a run was made with (``--resume``): the shared settings, its selection
        (every sample id it covers, ``selected``), epochs and the task's ``FIELDS``. ``config``:
        a ``RunConfig``, read by the names in ``FIELDS`` (any JSON object)."""
        generation = dict(config.get("generation") or {})
        temperature = generation.pop("temperature", None)
        max_tokens = generation.pop("max_tokens", None)
        spec_params = (config.get("model_spec") or {}).get("params") or {}
        selection = config.get("selection") or {}
        selected = config.get("selected")
        dataset = config.get("dataset", BUILTIN_DATASET)
        source = config.get("dataset_source") or ""
        if dataset != BUILTIN_DATASET and source and Path(source).exists() and \
                not (Path(source) / "records.jsonl").is_file():
            dataset = source  # a dataset read straight from a path
        values: dict[str, Any] = dict(
            model=config["model"], dataset=dataset, split=config.get("split", "test"),
            limit=None if selected else selection.get("limit"),
            domains=list(selected) if selected else selection.get("domains"),
            api_base=config.get("api_base"), temperature=temperature, max_tokens=max_tokens,
            model_args={k: v for k, v in generation.items() if k not in spec_params},
            # an imported run (t2w import-inspect) records neither: null
            timeout=float(_given(config.get("timeout"), 600.0)),
            max_retries=int(_given(config.get("max_retries"), 5)),
            seed=int(config.get("seed", 0)),
            epochs=run_epochs(config), resume=Path(path))
        for key, (name, convert) in cls.FIELDS.items():
            if key in config:
                values[name] = convert(config[key])
        return cls(**values)

    def selection_flags(self) -> dict:
        return {"limit": self.limit, "domains": self.domains}


def _given(value: Any, default: Any) -> Any:
    return default if value is None else value


def resume_conflicts(resumed: RunOptions, given: RunOptions, flags: dict[str, str]) -> list[str]:
    """Flags given with ``--resume`` that contradict the run: ``flags`` maps each option field
    the command line set explicitly to its flag. Fields in ``RESUME_OVERRIDES`` may change."""
    names = {f.name for f in fields(resumed)}
    problems = []
    for name, flag in flags.items():
        if name in RESUME_OVERRIDES or name not in names:
            continue
        before, now = getattr(resumed, name), getattr(given, name)
        if name == "domains" and before and now and list(now) == list(before):
            continue
        if name == "limit" and now is not None and resumed.domains and \
                not resumed.limit and now >= len(resumed.domains):
            continue  # the run already covers at least that many items
        if _normal(before) != _normal(now):
            problems.append(f"{flag} {_shown(now)} contradicts the run, which was made with "
                            f"{flag} {_shown(before)}")
    return problems


def check_resume(resumed: RunOptions, given: RunOptions, flags: dict[str, str]) -> None:
    problems = resume_conflicts(resumed, given, flags)
    if problems:
        raise OptionsError(f"--resume {resumed.resume}: " + "; ".join(problems)
                           + ". Resume without those flags (a resumed run keeps its settings), "
                             "or start a new run without --resume.")


def _normal(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if isinstance(value, Path):
        return str(value)
    return value


def _shown(value: Any) -> str:
    if value is None:
        return "(not set)"
    if isinstance(value, (list, tuple)):
        text = ",".join(str(v) for v in value)
        return text if len(text) <= 60 else text[:57] + "..."
    return str(value)
