"""``t2w eval``, ``t2w report``, ``t2w score-run`` and ``t2w cache``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import typer
from rich import box
from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                           TimeElapsedColumn, TimeRemainingColumn)
from rich.table import Table
from rich.text import Text

from text2world.model.client import prepare_litellm_environment
from text2world.cli.common import (METRIC_HEADERS, Mode, console, err_console, fail, mode_option,
                     print_json)

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


def summary_table(summary: dict, mode: str = "paper") -> Table | None:
    """Mean scores per round (EC_0 .. EC_k) of one scoring mode, titled with that mode."""
    from text2world.engine.run_store import mode_metrics

    rounds = summary["metrics"].get(mode)
    if not rounds or not summary["finished_items"]:
        return None
    metrics = mode_metrics(mode)
    title = (f"{summary['model']} on {summary['dataset']}: {mode} mode "
             f"({summary['finished_items']} items, %)")
    table = Table(title=title, min_width=min(len(title), console.width))  # title on one line
    table.add_column("round", no_wrap=True)
    for name in metrics:
        table.add_column(METRIC_HEADERS[name], justify="right")
    for row in rounds:
        table.add_row(f"EC_{row['round']}", *("-" if row.get(m) is None else
                                             f"{100 * row[m]:.1f}" for m in metrics))
    return table


def _print_summary(summary: dict, mode: str = "paper", with_semantic: bool = True) -> None:
    table = summary_table(summary, mode)
    if table is not None:
        console.print(table)
    semantic = with_semantic and (summary.get("metrics") or {}).get("semantic")
    if semantic:  # behaviour on the gold's problems, where the dataset has problems
        from text2world.cli.report import semantic_tables
        for semantic_table in semantic_tables({"per_round": {summary.get("model") or "run": semantic}}):
            console.print(semantic_table)


def model_aliases_table(aliases: dict[str, dict]) -> Table:
    """Aliases as two columns, readable at 80: the alias (never cut) and what it calls: the
    litellm model, where (the api base, for local servers) and with which key, then the note."""
    from text2world.model.client import REFERENCE_PROVIDER

    table = Table(title="model aliases (add your own in $T2W_HOME/models.toml)",
                  box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, title_justify="left")
    table.add_column("alias", no_wrap=True)
    table.add_column("litellm model; endpoint · key; note", overflow="fold")
    for name, entry in aliases.items():
        if entry["model"].startswith(REFERENCE_PROVIDER + "/"):
            where = "built in, offline"
        elif entry.get("api_base"):
            where = f"api base {entry['api_base']}"
        else:
            where = "the provider's endpoint"
        key = (f"key ${entry['api_key_env']}" if entry.get("api_key_env") else "no key")
        lines = [Text(entry["model"], style="bold"), Text(f"{where} · {key}")]
        if entry.get("note"):
            lines.append(Text(entry["note"], style="dim"))
        table.add_row(name, Text("\n").join(lines))
    return table


def _quick_exit() -> None:
    """Freeze the heap at interpreter exit: the collections run while the interpreter tears
    down its modules would walk every object litellm and the run created (a few tenths of a
    second of CPU at the end of every run); frozen, they are only freed. Registered once,
    run at exit only (an in-process caller keeps its normal collections until then)."""
    import atexit
    import gc

    if not getattr(_quick_exit, "registered", False):
        atexit.register(gc.freeze)
        _quick_exit.registered = True


def eval_command(
    model: str = typer.Option(None, "--model", "-m",
                              help="Alias (see --list-models) or litellm model string, e.g. "
                                   "deepseek-r1, openai/my-model, or a reference model "
                                   "(reference/oracle)."),
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
    semantic: bool = typer.Option(None, "--semantic/--no-semantic",
                                  help="Score each round's behaviour on the gold's problems "
                                       "(default: on when the dataset has problems)."),
    allow_exemplar_items: bool = typer.Option(
        False, "--allow-exemplar-items",
        help="With few-shot prompts: also evaluate the exemplars (their gold is in the prompt)."),
    resume: Path = typer.Option(None, "--resume", help="Resume this run directory."),
    no_progress: bool = typer.Option(False, "--no-progress", help="No progress bar."),
    list_models: bool = typer.Option(False, "--list-models", help="List model aliases."),
) -> None:
    """Generate PDDL domains with a model, correct them with the validator, score every round."""
    from text2world.tasks.generation.evaluation import EvalError, EvalOptions, evaluate, options_from_run, plan
    from text2world.model.client import FatalModelError, ModelConfigError, load_model_aliases
    from text2world.engine.run_store import RunError, Stopped

    if list_models:
        try:
            aliases = load_model_aliases()
        except ModelConfigError as err:
            fail(str(err))
        console.print(model_aliases_table(aliases))
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
                workers=workers, run_id=run_id, semantic=semantic,
                allow_exemplar_items=allow_exemplar_items)
        evaluation_plan = plan(options, prefetch=True)
    except (EvalError, RunError) as err:
        fail(str(err))
    spec = evaluation_plan.spec
    if spec.is_reference:
        console.print(f"[yellow]{spec.name} is a REFERENCE MODEL[/] (offline, built from the "
                      "gold domains): it checks the pipeline, it is not an LLM result.")
    observer = ProgressObserver(enabled=not no_progress and console.is_terminal)
    _quick_exit()
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
    finished, planned = summary["finished_items"], summary["planned_items"]
    # A run folder is shared by --limit/--domains selections of the same settings: say when it
    # holds more than this command selected, rather than "101/5 done".
    if finished <= planned:
        done = f"{finished}/{planned} done"
    else:
        selected = {record.id for record in evaluation_plan.selection}
        done = (f"{len(selected & result.run.finished_ids())}/{planned} selected done, "
                f"{finished} in the run")
    console.print(f"run: {result.run.path}  ({result.new_items} new items, {done}, "
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


def score_run_command(
    run: Path = typer.Argument(..., help="A run directory."),
    mode: list[Mode] = mode_option(list(Mode), "-m",
                                  help="Scoring mode to recompute (repeatable): paper, "
                                       "canonical; default both."),
    as_json: bool = typer.Option(False, "--json", help="Print the new summary as JSON."),
    semantic: bool = typer.Option(False, "--semantic",
                                  help="Also recompute the semantic scores on the gold's problems."),
) -> None:
    """Re-score a finished run's rounds without calling any model (writes scores.jsonl)."""
    from text2world.tasks.generation.rounds import rescore_run
    from text2world.engine.run_store import RunError
    from text2world.store.datasets import DatasetError

    modes = tuple(dict.fromkeys(str(m) for m in mode))  # each once, in the order given
    try:
        summary = rescore_run(run, modes + (("semantic",) if semantic else ()))
    except (RunError, DatasetError) as err:
        fail(str(err))
    if as_json:
        print_json(summary)
        return
    for index, name in enumerate(modes):  # the semantic table once, after the last mode's
        _print_summary(summary, name, with_semantic=index == len(modes) - 1)
    console.print(f"re-scored {summary['finished_items']} items ({', '.join(modes)}): "
                  f"{run}/scores.jsonl, summary.json", highlight=False, soft_wrap=True)


@cache_app.command("inspect")
def cache_inspect(as_json: bool = typer.Option(False, "--json")) -> None:
    """Entries, size and cost of the cached responses, per model."""
    from text2world.model.client import ResponseCache

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
    from text2world.model.client import ResponseCache

    cache = ResponseCache()
    if not yes and os.isatty(0):
        what = f"the cached responses of {model}" if model else "every cached response"
        if not typer.confirm(f"delete {what} in {cache.root}?"):
            raise typer.Exit(1)
    removed = cache.clear(model)
    console.print(f"removed {removed} cached responses", highlight=False)
