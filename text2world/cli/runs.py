"""What every command that runs a task shares: the run options (same flags, same help), the
check of flags given with ``--resume``, progress (a bar on a terminal, plain lines at a
bounded rate elsewhere, nothing with ``--quiet``) and how a stopped run ends (one line with
the resume command; exit 130 on Ctrl-C, 143 on SIGTERM)."""

from __future__ import annotations

import json
import math
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, NoReturn, TypeVar

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from text2world.cli.common import ExitCode, console, err_console, fail, say, warn
from text2world.engine.options import RESUME_HELP, OptionsError, RunOptions, check_resume
from text2world.engine.process import Stopped
from text2world.errors import Text2WorldError
from text2world.model.client import FatalModelError
from text2world.reports.rendering import count_of

if TYPE_CHECKING:
    from text2world.engine.run_store import ItemRecord

PROGRESS_SECONDS = 10.0  # without a terminal: a line at most this often ...
PROGRESS_SHARE = 0.1  # ... or when another tenth of the samples is done


# --------------------------------------------------------------------------------------------
# Shared options (typer reads each default as the option's declaration)


def model_option(help_text: str = "Alias (see t2w eval --list-models) or litellm model "
                                  "string, e.g. reference/noisy-oracle, openai/my-model."):
    return typer.Option(None, "--model", "-m", help=help_text)


def runs_dir_option():
    return typer.Option(None, "--runs-dir", envvar="T2W_RUNS_DIR", show_default="./runs",
                        help="Folder of runs (also $T2W_RUNS_DIR).")


def resume_option():
    return typer.Option(None, "--resume", help=RESUME_HELP)


def epochs_option():
    return typer.Option(1, "--epochs", help="Samples per item (each epoch's calls are cached "
                                            "apart; the summary gives the spread).")


def quiet_option():
    return typer.Option(False, "--quiet", "-q", help="No progress output.")


def model_arg_option():
    return typer.Option([], "--model-arg", help="Extra litellm argument KEY=VALUE (repeatable; "
                                                "VALUE may be JSON).")


def retry_delay_option():
    return typer.Option(1.0, "--retry-delay", help="First back-off delay in seconds (doubles).")


def api_base_option(prefix: str = ""):
    return typer.Option(None, "--api-base", help=f"{prefix}OpenAI-compatible endpoint.")


def temperature_option(prefix: str = ""):
    return typer.Option(0.0, "--temperature", help=f"{prefix}Sampling temperature.")


def max_tokens_option(prefix: str = ""):
    return typer.Option(None, "--max-tokens", help=f"{prefix}Longest answer, in tokens.")


def concurrency_option(prefix: str = "", default: int = 4):
    return typer.Option(default, "--max-concurrency", "-j",
                        help=f"{prefix}Items in flight at once.")


def timeout_option(prefix: str = ""):
    return typer.Option(600.0, "--timeout", help=f"{prefix}Seconds per call.")


def max_retries_option(prefix: str = ""):
    return typer.Option(5, "--max-retries",
                        help=f"{prefix}Retries on rate limits, server errors and timeouts.")


def no_cache_option(prefix: str = ""):
    return typer.Option(False, "--no-cache", help=f"{prefix}Do not answer from the response cache.")


def run_id_option(prefix: str = ""):
    return typer.Option(None, "--run-id", help=f"{prefix}Name of the run directory.")


def label_option():
    return typer.Option(None, "--label",
                        help="A short name for the run, shown in the viewer, t2w compare and "
                             "reports (default: what its run id says beyond the model).")


def spread_table(title: str, spread: dict[str, Any]) -> Table | None:
    """A run of several epochs (``--epochs``): each headline value per epoch, then their mean,
    standard deviation, min and max (the summary's ``per_epoch`` and ``spread``, given as
    ``{"per_epoch": ..., "spread": ...}``); None for a run of one epoch."""
    per_epoch, spreads = spread.get("per_epoch") or [], spread.get("spread") or {}
    if not per_epoch or not spreads:
        return None

    def pct(value: Any) -> str:
        return f"{100 * value:.1f}" if isinstance(value, (int, float)) else "-"

    table = Table(title=f"{title}: per epoch (0 .. {len(per_epoch) - 1}), %, then their mean, "
                        "standard deviation, min and max")
    table.add_column("value")
    for row in per_epoch:
        table.add_column(str(row["epoch"]), justify="right")
    for name in ("mean", "std", "min", "max"):
        table.add_column(name, justify="right")
    for key, values in spreads.items():
        table.add_row(key, *(pct(row.get(key)) for row in per_epoch),
                      *(pct(values[name]) for name in ("mean", "std", "min", "max")))
    return table


def parse_model_args(values: list[str]) -> dict:
    parsed = {}
    for value in values:
        if "=" not in value:
            fail(f"--model-arg {value!r}: expected KEY=VALUE (VALUE may be JSON, e.g. top_p=0.9)")
        key, raw = value.split("=", 1)
        try:
            parsed[key.strip()] = json.loads(raw)
        except ValueError:
            parsed[key.strip()] = raw
    return parsed


def split_ids(text: str | None) -> list[str] | None:
    return [d.strip() for d in text.split(",") if d.strip()] if text else None


# --------------------------------------------------------------------------------------------
# --resume


def explicit_flags(ctx: typer.Context) -> dict[str, str]:
    """Option field -> flag, for each option the command line set explicitly (not a default
    or an environment variable). A task command names its parameters as its options' fields
    (cli/run_options.py), so a parameter's name is its field."""
    found = {}
    for param in ctx.command.params:
        source = ctx.get_parameter_source(param.name) if param.name else None
        # compared by name: typer may bring its own copy of click's enum
        if getattr(source, "name", None) == "COMMANDLINE":
            flag = max((o for o in param.opts if o.startswith("--")), key=len,
                       default=param.opts[0] if param.opts else param.name)
            found[param.name] = flag
    return found


OptionsT = TypeVar("OptionsT", bound=RunOptions)


def resumed_options(resumed: OptionsT, given: OptionsT, flags: dict[str, str]) -> OptionsT:
    """The run's options with the overrides the command line gave; a flag that contradicts
    the run is an error that names it and both values."""
    try:
        check_resume(resumed, given, flags)
    except OptionsError as err:
        fail(str(err))
    overrides = {name: getattr(given, name) for name in flags
                 if hasattr(given, name) and name not in ("resume",)}
    overrides.pop("model_args", None)
    options: OptionsT = resumed.with_overrides(**overrides, model_args=given.model_args)
    options.use_cache = given.use_cache
    options.runs_root = given.runs_root
    return options


# --------------------------------------------------------------------------------------------
# Progress


class ProgressObserver:
    """Progress of a run: a rich bar on a terminal; elsewhere (CI, nohup, a pipe) a plain line
    on stderr at most every ``PROGRESS_SECONDS`` or each tenth of the samples; nothing when
    ``quiet`` (and with ``progress`` False, only the line that says a run is resumed)."""

    def __init__(self, label: str, quiet: bool = False, progress: bool = True) -> None:
        self.label = label
        self.quiet = quiet
        self.show = progress and not quiet
        self.bar = console.is_terminal
        self.progress: Progress | None = None
        self.task: TaskID | None = None
        self.total = 0
        self.done = 0
        self.calls = 0
        self.tokens = 0
        self.cost = 0.0
        self.failed = 0
        self._line_at = 0.0
        self._line_done = 0
        self.unit = "items"

    def start(self, total: int, done: int, run) -> None:
        from text2world.engine.run_store import run_epochs
        from text2world.engine.summary import items_phrase

        self.total, self.done = total, done
        epochs = run_epochs(getattr(run, "config", None) or {})
        # --epochs asks each item several times: the samples are counted, never as items
        self.unit = "items" if epochs == 1 else \
            f"samples ({items_phrase(total // epochs, epochs)})"
        for note in getattr(run, "notes", ()):  # repairs made on opening it (a torn last line)
            warn(note)
        if done and not self.quiet:
            # A run covers every item it was ever asked for: say so when this selection is a
            # part of it (never "3/1 done").
            covered = len((getattr(run, "config", None) or {}).get("selected") or ())
            finished = len(run.finished_ids()) if covered > total else done
            extra = (f"; the run covers {covered} items, {finished}/{covered} done"
                     if covered > total else "")
            counted = count_of(total, "item") if self.unit == "items" else f"{total} {self.unit}"
            say(f"resuming {run.path} ({done} of {counted} already done{extra})")
        if not self.show or total == done:
            return
        if self.bar:
            self.progress = Progress(
                TextColumn(f"[bold]{self.label}[/]"), BarColumn(), MofNCompleteColumn(),
                TextColumn(self.unit.split(" ")[0]),  # items, or samples with epochs
                TextColumn("· {task.fields[calls]} calls · {task.fields[tokens]:,} tokens · "
                           "${task.fields[cost]:.4f} · {task.fields[failed]} infra errors"),
                TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                console=console, transient=False)
            self.progress.start()
            self.task = self.progress.add_task(self.label, total=total, completed=done,
                                               calls=0, tokens=0, cost=0.0, failed=0)
        else:
            self._line_at = time.monotonic()
            self._line_done = done

    def _update(self, advance: int = 0) -> None:
        self.done += advance
        if self.progress is not None and self.task is not None:
            self.progress.update(self.task, advance=advance, calls=self.calls,
                                 tokens=self.tokens, cost=self.cost, failed=self.failed)
        elif self.show and not self.bar and advance:
            step = max(1, math.ceil(self.total * PROGRESS_SHARE))
            now = time.monotonic()
            if (self.done == self.total or now - self._line_at >= PROGRESS_SECONDS
                    or self.done - self._line_done >= step):
                self._line_at, self._line_done = now, self.done
                print(f"{self.label}: {self.done}/{self.total} {self.unit}, {self.calls} calls, "
                      f"${self.cost:.4f} paid, {self.failed} infrastructure errors",
                      file=sys.stderr, flush=True)

    def call_done(self, completion) -> None:
        self.calls += 1
        self.tokens += completion.prompt_tokens + completion.completion_tokens
        self.cost += 0.0 if completion.cached else (completion.cost or 0.0)
        self._update()

    def item_done(self, record: ItemRecord) -> None:
        self._update(advance=1)

    def item_failed(self, item: str, error) -> None:
        self.failed += 1
        self._update(advance=1)

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


# --------------------------------------------------------------------------------------------
# Running


def run_guarded(resume_command: str, run_path: Path, observer: ProgressObserver | None,
                action: Callable[[], Any]) -> Any:
    """``action()`` (a run), ending the command the same way for every task when it stops:
    a fatal model error, Ctrl-C (exit 130) or SIGTERM/SIGHUP (exit 128 + signal) print one
    line with the resume command; any other library error is printed as it is."""
    resume = f"{resume_command} --resume {run_path}"
    try:
        return action()
    except FatalModelError as err:
        _stop(observer)
        fail(f"the model cannot be called: {err}. Finished items are kept; fix the cause and "
             f"resume with: {resume}", ExitCode.INFRASTRUCTURE)
    except KeyboardInterrupt:
        _stop(observer)
        _stopped(f"interrupted; finished items are kept. Resume with: {resume}", ExitCode.INTERRUPTED)
    except Stopped as stop:
        _stop(observer)
        _stopped(f"stopped by {stop.name}; finished items are kept. Resume with: {resume}",
                 stop.code)
    except Text2WorldError as err:
        _stop(observer)
        fail(str(err))
    finally:
        _stop(observer)


def _stop(observer: ProgressObserver | None) -> None:
    if observer is not None:
        observer.stop()


def _stopped(message: str, code: int) -> NoReturn:
    say(message, to=err_console)
    raise typer.Exit(code)


def reference_notice(spec, stream=None) -> None:
    if spec.is_reference:
        (stream or console).print(
            f"[yellow]{spec.name} is a REFERENCE MODEL[/] (offline, built from the gold "
            "domains): it checks the pipeline, it is not an LLM result.")


def infrastructure_note(result, resume_command: str) -> None:
    """The open infrastructure errors of a finished run, with the command that retries them;
    exits ``ExitCode.INFRASTRUCTURE`` when there are any."""
    count = result.summary.get("infrastructure_errors") or 0
    if not count:
        return
    errors = result.run.open_errors()
    first = (errors[0].get("error") or {}) if errors else {}
    message = str(first.get("message", "?"))
    base = result.run.config.get("api_base")  # written without credentials
    where = "" if base and base in message else f" (api base {base or 'the provider default'})"
    say(f"{count_of(count, 'item')} failed with infrastructure errors and are not "
        f"scored; the first: {first.get('kind', '?')}: {message}{where}, after "
        f"{first.get('attempts', '?')} attempts. Retry them with: "
        f"{resume_command} --resume {result.run.path}", to=err_console)
    raise typer.Exit(ExitCode.INFRASTRUCTURE)


def run_paths(paths: list[Path], root: Path | None) -> list[Path]:
    """Run folders given as paths or as run ids of the runs folder (``--runs-dir``)."""
    from text2world.engine.run_store import runs_dir
    from text2world.files import check_folder

    base = Path(root) if root else runs_dir()
    if root and base.exists():
        check_folder(base, "--runs-dir")  # a file or a device there: said, not "no such run"
    return [path if path.exists() or not (base / path).is_dir() else base / path
            for path in paths]
