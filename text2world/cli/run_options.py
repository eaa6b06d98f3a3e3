"""The flags every task's run shares (``t2w eval``, ``t2w wm``, ``t2w contamination``,
``t2w judge``), declared once: ``with_run_options`` puts them in a command's signature, each
parameter named as its ``RunOptions`` field (``--retry-delay`` is ``retry_base_delay``,
``--no-cache`` is ``use_cache``, ``--model-arg`` is ``model_args``, ``--runs-dir`` is
``runs_root``), and hands them to the command as one ``RunFlags`` mapping, converted, that
``RunOptions(**flags)`` takes as it is. As the names are the fields', ``explicit_flags`` reads
which fields the command line set (for ``--resume``) with no table between the two.
"""

from __future__ import annotations

import functools
import inspect
from pathlib import Path
from typing import Any, Callable, TypedDict, TypeVar, cast

import typer

from text2world.cli.runs import (
    api_base_option,
    concurrency_option,
    epochs_option,
    label_option,
    max_retries_option,
    max_tokens_option,
    model_arg_option,
    no_cache_option,
    parse_model_args,
    resume_option,
    retry_delay_option,
    run_id_option,
    runs_dir_option,
    temperature_option,
    timeout_option,
)

__all__ = ["RUN_FLAGS", "SHARED_FLAGS", "RunFlags", "with_run_options"]


class RunFlags(TypedDict):
    """The shared flags' values, by ``RunOptions`` field."""

    epochs: int
    api_base: str | None
    temperature: float | None
    max_tokens: int | None
    model_args: dict[str, Any]
    max_concurrency: int
    timeout: float
    max_retries: int
    retry_base_delay: float
    use_cache: bool
    seed: int
    run_id: str | None
    label: str | None
    runs_root: Path | None
    resume: Path | None


RUN_FLAGS: tuple[str, ...] = tuple(RunFlags.__annotations__)

# The default of a command's ``run_flags`` parameter: where the flags go in its ``--help``
# (``with_run_options`` replaces the parameter, so the value is never used).
SHARED_FLAGS = cast(RunFlags, None)

CommandT = TypeVar("CommandT", bound=Callable[..., Any])


def _parameters(seed_help: str, prefix: str, max_concurrency: int) -> list[inspect.Parameter]:
    """The shared flags as keyword parameters, in the order ``--help`` lists them. The values
    typer passes are converted by the wrapper (``--no-cache``, ``--model-arg``)."""
    declared: list[tuple[str, Any, Any]] = [
        ("epochs", int, epochs_option()),
        ("api_base", str, api_base_option(prefix)),
        ("temperature", float, temperature_option(prefix)),
        ("max_tokens", int, max_tokens_option(prefix)),
        ("model_args", list[str], model_arg_option()),
        ("max_concurrency", int, concurrency_option(prefix, max_concurrency)),
        ("timeout", float, timeout_option(prefix)),
        ("max_retries", int, max_retries_option(prefix)),
        ("retry_base_delay", float, retry_delay_option()),
        ("use_cache", bool, no_cache_option(prefix)),  # the flag --no-cache: True when given
        ("seed", int, typer.Option(0, "--seed", help=seed_help)),
        ("run_id", str, run_id_option(prefix)),
        ("label", str, label_option()),
        ("runs_root", Path, runs_dir_option()),
        ("resume", Path, resume_option()),
    ]
    assert tuple(name for name, _, _ in declared) == RUN_FLAGS
    return [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=option,
                              annotation=annotation) for name, annotation, option in declared]


def with_run_options(*, seed_help: str, prefix: str = "",
                     max_concurrency: int = 4) -> Callable[[CommandT], CommandT]:
    """A typer command with the shared run flags in place of its ``run_flags: RunFlags``
    parameter; the command gets them back as ``run_flags``. ``seed_help``: what the seed
    seeds for this command; ``prefix``: put before the help of the flags that only apply to
    part of a command (``"Probe: "``); ``max_concurrency``: its default."""
    def decorate(command: CommandT) -> CommandT:
        signature = inspect.signature(command, eval_str=True)
        own = list(signature.parameters.values())
        names = [parameter.name for parameter in own]
        if "run_flags" not in names:
            raise TypeError(f"{command.__name__} has no run_flags parameter to put the "
                            "run flags in")
        at = names.index("run_flags")
        shared = _parameters(seed_help, prefix, max_concurrency)
        # typer reads keyword-only parameters as options like any other; keep them in order
        parameters = [p.replace(kind=inspect.Parameter.KEYWORD_ONLY)
                      for p in own[:at] + shared + own[at + 1:]]

        @functools.wraps(command)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            flags = {name: kwargs.pop(name) for name in RUN_FLAGS}
            flags["use_cache"] = not flags["use_cache"]  # typer gives whether --no-cache was
            flags["model_args"] = parse_model_args(flags["model_args"] or [])
            return command(*args, run_flags=RunFlags(**flags), **kwargs)  # type: ignore[typeddict-item]

        wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in parameters}
        return wrapper  # type: ignore[return-value]

    return decorate
