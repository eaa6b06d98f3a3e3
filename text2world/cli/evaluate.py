"""``t2w eval``, ``t2w report``, ``t2w score-run`` and ``t2w cache``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table

from ..llm import prepare_litellm_environment
from .common import console, err_console, fail, print_json

prepare_litellm_environment()  # before any command imports litellm

cache_app = typer.Typer(help="Inspect or clear the response cache ($T2W_HOME/cache).",
                        no_args_is_help=True)


def _parse_model_args(values: list[str]) -> dict:
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


class ProgressObserver:
    """A rich progress bar: items, rounds, tokens, cost and ETA."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.progress: Progress | None = None
        self.task = None
        self.rounds = 0
        self.tokens = 0
        self.cost = 0.0
        self.failed = 0

    def start(self, total: int, done: int, run) -> None:
        if done:
            console.print(f"resuming {run.path}: {done} of {total} items already done",
                          highlight=False, soft_wrap=True)
        if not self.enabled or total == done:
            return
        self.progress = Progress(
            TextColumn("[bold]eval[/]"), BarColumn(), MofNCompleteColumn(),
            TextColumn("items · {task.fields[rounds]} rounds · {task.fields[tokens]:,} tokens · "
                       "${task.fields[cost]:.4f} · {task.fields[failed]} infra errors"),
            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
            console=console, transient=False)
        self.progress.start()
        self.task = self.progress.add_task("eval", total=total, completed=done, rounds=0,
                                           tokens=0, cost=0.0, failed=0)

    def _update(self, advance: int = 0) -> None:
        if self.progress is not None:
            self.progress.update(self.task, advance=advance, rounds=self.rounds,
                                 tokens=self.tokens, cost=self.cost, failed=self.failed)

    def round_done(self, completion) -> None:
        self.rounds += 1
        self.tokens += completion.prompt_tokens + completion.completion_tokens
        self.cost += 0.0 if completion.cached else (completion.cost or 0.0)
        self._update()

    def item_done(self, record: dict) -> None:
        self._update(advance=1)

    def item_failed(self, item: str, error) -> None:
        self.failed += 1
        self._update(advance=1)

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()


def _print_summary(summary: dict) -> None:
    rounds = summary["metrics"]["paper"]
    if not rounds or not summary["finished_items"]:
        return
    table = Table(title=f"{summary['model']} on {summary['dataset']} "
                        f"({summary['finished_items']} items, paper mode, %)")
    table.add_column("round")
    for name in ("Exec", "Sim", "F1 pred", "F1 param", "F1 precond", "F1 eff"):
        table.add_column(name, justify="right")
    for row in rounds:
        values = [row.get(m) for m in ("executable", "similarity", "f1_predicates",
                                       "f1_parameters", "f1_preconditions", "f1_effects")]
        table.add_row(f"EC_{row['round']}", *("-" if v is None else f"{100 * v:.1f}"
                                             for v in values))
    console.print(table)


def eval_command(
    model: str = typer.Option(None, "--model", "-m",
                              help="Alias (see --list-models) or litellm model string, e.g. "
                                   "reference/noisy-oracle, deepseek-r1, openai/my-model."),
    ec: int = typer.Option(3, "--ec", help="Maximum number of error-correction rounds."),
    prompt: str = typer.Option("zero-shot", "--prompt",
                               help="zero-shot (CoT, default), few-shot, or a template file "
                                    "with {description} (and {examples})."),
    correction_prompt: str = typer.Option(None, "--correction-prompt",
                                          help="Template file with {domain}, {error}, "
                                               "{history}, {round}."),
    description: str = typer.Option("abstract", "--description",
                                    help="abstract or concrete descriptions."),
    dataset: str = typer.Option("text2world", "--dataset",
                                help="Built-in store (default), an imported dataset or a path."),
    split: str = typer.Option("test", "--split", help="test, train or all."),
    limit: int = typer.Option(None, "--limit", help="Only the first N selected items."),
    domains: str = typer.Option(None, "--domains", help="Comma-separated item ids."),
    api_base: str = typer.Option(None, "--api-base", help="OpenAI-compatible endpoint."),
    temperature: float = typer.Option(0.0, "--temperature"),
    max_tokens: int = typer.Option(None, "--max-tokens"),
    model_arg: list[str] = typer.Option([], "--model-arg",
                                        help="Extra litellm argument KEY=VALUE (repeatable)."),
    max_concurrency: int = typer.Option(4, "--max-concurrency", "-j",
                                        help="Items in flight at once."),
    timeout: float = typer.Option(600.0, "--timeout", help="Seconds per call."),
    max_retries: int = typer.Option(5, "--max-retries",
                                    help="Retries on rate limits, server errors and timeouts."),
    retry_delay: float = typer.Option(1.0, "--retry-delay",
                                      help="First back-off delay in seconds (doubles)."),
    no_cache: bool = typer.Option(False, "--no-cache",
                                  help="Do not answer from the response cache."),
    seed: int = typer.Option(0, "--seed", help="Seed of the reference models."),
    workers: int = typer.Option(None, "--workers",
                                help="Processes for validation and scoring (0: none)."),
    run_id: str = typer.Option(None, "--run-id", help="Name of the run directory."),
    resume: Path = typer.Option(None, "--resume", help="Resume this run directory."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
    list_models: bool = typer.Option(False, "--list-models", help="List model aliases."),
) -> None:
    """Generate PDDL domains with a model, correct them with the validator, score every round."""
    from ..evaluation import EvalError, EvalOptions, evaluate, options_from_run, plan
    from ..llm import FatalModelError, ModelConfigError, load_model_aliases
    from ..runs import RunError, Stopped

    if list_models:
        try:
            aliases = load_model_aliases()
        except ModelConfigError as err:
            fail(str(err))
        table = Table(title="model aliases")
        for column in ("alias", "litellm model", "key variable", "note"):
            table.add_column(column)
        for name, entry in aliases.items():
            table.add_row(name, entry["model"], entry.get("api_key_env") or "-",
                          entry.get("note", ""))
        console.print(table)
        return
    domain_ids = [d.strip() for d in domains.split(",") if d.strip()] if domains else None
    try:
        if resume is not None:
            # Credentials are never written to the run: --api-base and --model-arg give
            # them again (the run's identity must match).
            options = options_from_run(
                resume, max_concurrency=max_concurrency, timeout=timeout,
                max_retries=max_retries, retry_base_delay=retry_delay, workers=workers,
                api_base=api_base, model_args=_parse_model_args(model_arg))
            options.use_cache = not no_cache
        else:
            if not model:
                fail("no model given: pass --model ALIAS (see --list-models), or --resume RUN")
            options = EvalOptions(
                model=model, ec=ec, prompt=prompt, correction_prompt=correction_prompt,
                description=description, dataset=dataset, split=split, limit=limit,
                domains=domain_ids, api_base=api_base, temperature=temperature,
                max_tokens=max_tokens, model_args=_parse_model_args(model_arg),
                max_concurrency=max_concurrency, timeout=timeout, max_retries=max_retries,
                retry_base_delay=retry_delay, use_cache=not no_cache, seed=seed,
                workers=workers, run_id=run_id)
        evaluation_plan = plan(options)
    except (EvalError, RunError) as err:
        fail(str(err))
    spec = evaluation_plan.spec
    if spec.is_reference:
        console.print(f"[yellow]{spec.name} is a REFERENCE MODEL[/] (offline, built from the "
                      "gold domains): it checks the pipeline, it is not an LLM result.")
    observer = ProgressObserver(enabled=not no_progress and console.is_terminal)
    try:
        result = evaluate(options, observer, evaluation_plan)
    except (EvalError, RunError) as err:
        observer.stop()
        fail(str(err))
    except FatalModelError as err:
        observer.stop()
        fail(f"the model cannot be called: {err}. Finished items are kept; fix the cause and "
             f"resume with: t2w eval --resume {evaluation_plan.run_path}")
    except KeyboardInterrupt:
        observer.stop()
        err_console.print(f"interrupted; finished items are kept. Resume with: t2w eval "
                          f"--resume {evaluation_plan.run_path}", highlight=False,
                          soft_wrap=True)
        raise typer.Exit(130)
    except Stopped as stop:
        observer.stop()
        err_console.print(f"stopped by {stop.name}; finished items are kept. Resume with: "
                          f"t2w eval --resume {evaluation_plan.run_path}", highlight=False,
                          soft_wrap=True)
        raise typer.Exit(stop.code)
    observer.stop()
    summary = result.summary
    _print_summary(summary)
    console.print(f"run: {result.run.path}  ({result.new_items} new items, "
                  f"{summary['finished_items']}/{summary['planned_items']} done, "
                  f"{summary['calls']} calls, {summary['cached_calls']} from cache, "
                  f"${summary['cost_paid']:.4f} paid (${summary['cost']:.4f} in all), "
                  f"{result.wall_time:.1f}s)", highlight=False,
                  soft_wrap=True)
    if summary["infrastructure_errors"]:
        errors = result.run.open_errors()
        first = (errors[0].get("error") or {}) if errors else {}
        message = str(first.get("message", "?"))
        base = result.run.config.get("api_base")  # written without credentials
        where = "" if base and base in message else \
            f" (api base {base or 'the provider default'})"
        err_console.print(f"[yellow]{summary['infrastructure_errors']} items failed with "
                          "infrastructure errors[/] and are not scored; the first: "
                          f"{first.get('kind', '?')}: {message}{where}, after "
                          f"{first.get('attempts', '?')} attempts. Retry them with: "
                          f"t2w eval --resume {result.run.path}", highlight=False,
                          soft_wrap=True)
        raise typer.Exit(2)
    console.print(f"report: t2w report {result.run.path}", highlight=False, soft_wrap=True)


def report_command(
    runs: list[Path] = typer.Argument(..., help="Run directories."),
    out: Path = typer.Option(None, "--out", "-o",
                             help="Folder for the report files (default: RUN/report for one "
                                  "run, runs/report-<hash> for several)."),
    mode: str = typer.Option("paper", "--mode", help="paper or canonical scores."),
    as_json: bool = typer.Option(False, "--json", help="Print the report JSON."),
) -> None:
    """Table 1, per-round curves, abstract vs concrete, error categories, per-domain, ANOVA."""
    from ..report import ReportError, build_report

    try:
        report = build_report(runs, out_dir=out, mode=mode)
    except ReportError as err:
        fail(str(err))
    if as_json:
        print_json(report.data)
        return
    typer.echo(report.markdown)  # plain markdown: no wrapping, pipes cleanly
    typer.echo(f"written to {report.out_dir}: " + ", ".join(sorted(p.name for p in report.files)))


def score_run_command(
    run: Path = typer.Argument(..., help="A run directory."),
    mode: list[str] = typer.Option(["paper", "canonical"], "--mode", "-m",
                                   help="Scoring mode(s) to recompute."),
    as_json: bool = typer.Option(False, "--json", help="Print the new summary as JSON."),
) -> None:
    """Re-score a finished run's rounds without calling any model (writes scores.jsonl)."""
    from ..evaluation import rescore_run
    from ..metrics import MODES
    from ..runs import RunError
    from ..store import DatasetError

    for name in mode:
        if name not in MODES:
            fail(f"unknown mode {name!r}; choose one of: {', '.join(MODES)}")
    try:
        summary = rescore_run(run, tuple(mode))
    except (RunError, DatasetError) as err:
        fail(str(err))
    if as_json:
        print_json(summary)
        return
    for name in mode:
        summary_mode = {**summary, "metrics": {"paper": summary["metrics"][name]}}
        summary_mode["model"] = f"{summary['model']} [{name}]"
        _print_summary(summary_mode)
    console.print(f"re-scored {summary['finished_items']} items; wrote {run / 'scores.jsonl'} "
                  f"and {run / 'summary.json'}", highlight=False, soft_wrap=True)


@cache_app.command("inspect")
def cache_inspect(as_json: bool = typer.Option(False, "--json")) -> None:
    """Entries, size and cost of the cached responses, per model."""
    from ..llm import ResponseCache

    stats = ResponseCache().stats()
    if as_json:
        print_json(stats)
        return
    console.print(f"cache: {stats['path']}: {stats['entries']} entries, "
                  f"{stats['bytes'] / 1024:.1f} KiB", highlight=False)
    if stats["models"]:
        table = Table()
        for column in ("model", "entries", "KiB", "cost saved on re-runs ($)"):
            table.add_column(column)
        for name, slot in sorted(stats["models"].items()):
            table.add_row(name, str(slot["entries"]), f"{slot['bytes'] / 1024:.1f}",
                          f"{slot['cost']:.4f}")
        console.print(table)


@cache_app.command("clear")
def cache_clear(
    model: str = typer.Option(None, "--model", help="Only this litellm model's entries."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Delete cached responses (all, or one model's)."""
    from ..llm import ResponseCache

    cache = ResponseCache()
    if not yes and os.isatty(0):
        what = f"the cached responses of {model}" if model else "every cached response"
        if not typer.confirm(f"delete {what} in {cache.root}?"):
            raise typer.Exit(1)
    removed = cache.clear(model)
    console.print(f"removed {removed} cached responses", highlight=False)
