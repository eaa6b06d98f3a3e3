"""``t2w eval``, ``t2w report``, ``t2w score-run`` and ``t2w cache``."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Sequence

import typer
from rich import box
from rich.table import Table
from rich.text import Text

from text2world.cli.common import METRIC_HEADERS, Mode, console, fail, mode_option, print_json, say
from text2world.cli.run_options import SHARED_FLAGS, RunFlags, with_run_options
from text2world.cli.runs import (
    ProgressObserver,
    explicit_flags,
    infrastructure_note,
    quiet_option,
    reference_notice,
    resumed_options,
    run_guarded,
    run_paths,
    runs_dir_option,
    split_ids,
    spread_table,
)
from text2world.errors import Text2WorldError
from text2world.model.client import prepare_litellm_environment
from text2world.reports.rendering import print_table

if TYPE_CHECKING:
    from text2world.tasks.generation.records import GenerationItem, GenerationSummary

prepare_litellm_environment()  # before any command imports litellm

cache_app = typer.Typer(help="Inspect or clear the caches under $T2W_HOME/cache: model "
                        "responses, planner answers (plans/), scores (scores/).",
                        no_args_is_help=True)


# What the table's short headers mean, under it (t2w report's tables say the same).
METRIC_LEGEND = ("EC_0: the first answer; EC_k: after up to k corrections. Exec: the domain "
                 "parses and validates; Sim: its text's similarity to the gold (Levenshtein "
                 "ratio); F1 pred, param, pre, eff, types: F1 of its predicates, parameters, "
                 "preconditions, effects, types against the gold's.")


def summary_table(summary: GenerationSummary, mode: str = "paper",
                  items: Sequence[GenerationItem] | None = None) -> Table | None:
    """Mean scores per round (EC_0 .. EC_k) of one scoring mode, titled with that mode; with the
    run's finished ``items``, each mean with its 95% interval (as ``t2w report`` gives it)."""
    from text2world.scoring.score_base import mode_metrics
    from text2world.stats import format_interval
    from text2world.tasks.generation.intervals import generation_intervals

    rounds = summary["metrics"].get(mode)
    if not rounds or not summary["finished_items"]:
        return None
    metrics = mode_metrics(mode)
    intervals = generation_intervals(items, mode, metrics, len(rounds)) if items else None
    from text2world.engine.summary import items_phrase

    title = (f"{summary['model']} on {summary['dataset']}: {mode} mode "
             f"({items_phrase(summary['finished_items'], summary.get('epochs') or 1)}, %"
             + (", mean [95% interval])" if intervals else ")"))
    table = Table(title=title, min_width=min(len(title), console.width),  # title on one line
                  caption=METRIC_LEGEND, caption_justify="left")
    table.add_column("round", no_wrap=True)
    for name in metrics:
        table.add_column(METRIC_HEADERS[name], justify="right")
    for index, row in enumerate(rounds):
        table.add_row(f"EC_{row['round']}", *(
            format_interval(intervals[index][m]) if intervals and row.get(m) is not None
            else "-" if row.get(m) is None else f"{100 * row[m]:.1f}" for m in metrics))
    return table


def _print_summary(summary: GenerationSummary, mode: str = "paper", with_semantic: bool = True,
                   run: Path | None = None) -> None:
    """The end-of-run tables; with the ``run`` folder, every mean with its 95% interval."""
    items = None
    if run is not None:
        from text2world.engine.run_reader import open_run
        from text2world.tasks.generation.records import generation_items

        items = generation_items(open_run(run).scored_items())
    table = summary_table(summary, mode, items)
    if table is not None:
        print_table(console, table)
    spread = spread_table(str(summary.get("model") or "run"), dict(summary))
    if spread is not None:  # --epochs: the headline values of each epoch and their spread
        print_table(console, spread)
    semantic = with_semantic and (summary.get("metrics") or {}).get("semantic")
    if semantic:  # behaviour on the gold's problems, where the dataset has problems
        from text2world.cli.report import semantic_tables
        from text2world.engine.summary import items_phrase
        from text2world.scoring.semantic import METRICS
        from text2world.tasks.generation.intervals import generation_intervals

        label = summary.get("model") or "run"
        data = {"per_round": {label: semantic}, "counts": {label: items_phrase(
            summary["finished_items"], summary.get("epochs") or 1)}}
        if items:
            data["intervals"] = {label: generation_intervals(items, "semantic", METRICS, len(semantic))}
        for semantic_table in semantic_tables(data):
            print_table(console, semantic_table)


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
        _quick_exit.registered = True  # type: ignore[attr-defined]  # a flag on the function


@with_run_options(seed_help="Seed of the reference models.")
def eval_command(
    ctx: typer.Context,
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
                                    help="abstract or concrete descriptions, or problems "
                                         "(Prob2Domain: problems and plans)."),
    dataset: str = typer.Option("text2world", "--dataset",
                                help="Built-in store (default), an imported dataset or a path."),
    split: str = typer.Option("test", "--split", help="test, train or all."),
    limit: int = typer.Option(None, "--limit", help="Only the first N selected items."),
    domains: str = typer.Option(None, "--domains", help="Comma-separated item ids."),
    run_flags: RunFlags = SHARED_FLAGS,
    workers: int = typer.Option(None, "--workers",
                                help="Processes for validation and scoring (0: none)."),
    mystery: bool = typer.Option(False, "--mystery",
                                 help="Obfuscated copies: every name a seeded nonsense word, "
                                      "descriptions and problems to match."),
    semantic: bool = typer.Option(None, "--semantic/--no-semantic",
                                  help="Score each round's behaviour on the gold's problems "
                                       "(default: on when the dataset has problems)."),
    feedback: str = typer.Option(
        "syntax", "--feedback",
        help="What the model is told between rounds: syntax (the validator's errors, the "
             "paper's EC_k), plans (the planner on the item's problems under its domain) or "
             "behavior (an oracle tester's counterexamples from the gold). See docs/protocols.md."),
    agent: bool = typer.Option(False, "--agent",
                               help="Agent protocol: the model calls validate_domain, plan and "
                                    "simulate on its own domain, then submits it (one round)."),
    tool_budget: int = typer.Option(10, "--tool-budget",
                                    help="With --agent: tool calls per item at most."),
    allow_exemplar_items: bool = typer.Option(
        False, "--allow-exemplar-items",
        help="With few-shot prompts: also evaluate the exemplars (their gold is in the prompt)."),
    no_progress: bool = typer.Option(False, "--no-progress",
                                     help="No progress bar (or lines, without a terminal)."),
    quiet: bool = quiet_option(),
    list_models: bool = typer.Option(False, "--list-models", help="List model aliases."),
    task: str = typer.Option("generation", "--task",
                             help="generation (domains from text) or problem (PDDL problems "
                                  "from text; --description explicit or abstract)."),
    size: str = typer.Option(None, "--size", help="With --task problem: easy (the store's "
                                                  "problems), hard (generated) or both."),
) -> None:
    """Generate PDDL domains with a model, correct them with the validator, score every round."""
    from text2world.engine.summary import done_phrase
    from text2world.model.client import ModelConfigError, load_model_aliases
    from text2world.tasks.generation.task import EvalOptions, evaluate, options_from_run, plan

    if list_models:
        try:
            aliases = load_model_aliases()
        except ModelConfigError as err:
            fail(str(err))
        print_table(console, model_aliases_table(aliases))
        return
    from text2world.cli.problem import check_task, problem_eval

    check_task(ctx, task)
    if task == "problem":
        flags = {name: value for name, value in run_flags.items() if name != "resume"}
        return problem_eval(ctx, dict(
            model=model or "", ec=ec, style=description, size=size, dataset=dataset,
            split=split, limit=limit, domains=split_ids(domains), workers=workers, **flags),
            run_flags["resume"], quiet, no_progress)
    given = EvalOptions(
        model=model or "", ec=ec, prompt=prompt, correction_prompt=correction_prompt,
        description=description, dataset=dataset, split=split, limit=limit,
        domains=split_ids(domains), workers=workers, semantic=semantic, mystery=mystery,
        allow_exemplar_items=allow_exemplar_items, feedback=feedback, agent=agent,
        tool_budget=tool_budget, **run_flags)
    resume = run_flags["resume"]
    try:
        if resume is not None:
            # Credentials are never written to the run: --api-base and --model-arg give
            # them again; any other flag must match the run's.
            options = resumed_options(options_from_run(resume, given.runs_root), given,
                                      explicit_flags(ctx))
        else:
            if not model:
                fail("no model given: pass --model ALIAS (see --list-models), or --resume RUN")
            options = given
        evaluation_plan = plan(options, prefetch=True)
    except Text2WorldError as err:
        fail(str(err))
    reference_notice(evaluation_plan.spec)
    observer = ProgressObserver("eval", quiet=quiet, progress=not no_progress)
    _quick_exit()
    result = run_guarded("t2w eval", evaluation_plan.run_path, observer,
                         lambda: evaluate(options, observer, evaluation_plan))
    summary = result.summary
    _print_summary(summary, run=result.run.path)
    done = done_phrase(summary, result.new_items)
    say(f"run: {result.run.path}  ({done}, "
        f"{summary['calls']} calls, {summary['cached_calls']} from cache, "
        + (f"{summary['tool_calls']} tool calls, " if summary.get("tool_calls") else "")
        + f"protocol {summary.get('protocol', 'syntax')}, "
        f"${summary['cost_paid']:.4f} paid (${summary['cost']:.4f} in all), "
        f"{result.wall_time:.1f}s)")
    infrastructure_note(result, "t2w eval")
    say(f"report: t2w report {result.run.path}")


def score_run_command(
    run: Path = typer.Argument(..., help="A run directory."),
    mode: list[Mode] = mode_option(list(Mode), "-m",  # type: ignore[valid-type]  # typer choices: an enum made at runtime
                                  help="Scoring mode to recompute (repeatable): paper, "
                                       "canonical; default both."),
    as_json: bool = typer.Option(False, "--json", help="Print the new summary as JSON."),
    semantic: bool = typer.Option(False, "--semantic",
                                  help="Also recompute the semantic scores on the gold's problems."),
    runs_dir: Path = runs_dir_option(),
) -> None:
    """Re-score a finished run's rounds without calling any model (writes scores.jsonl)."""
    from text2world.engine.run_store import SCORES_FILE, SUMMARY_FILE, RunError
    from text2world.store.datasets import DatasetError
    from text2world.tasks.generation.rescore import rescore_run

    run = run_paths([run], runs_dir)[0]
    modes = tuple(dict.fromkeys(str(m) for m in mode))  # each once, in the order given
    try:
        summary = rescore_run(run, modes + (("semantic",) if semantic else ()))
    except (RunError, DatasetError) as err:
        fail(str(err))
    if as_json:
        print_json(summary)
        return
    for index, name in enumerate(modes):  # the semantic table once, after the last mode's
        from text2world.tasks.generation.records import generation_summary

        _print_summary(generation_summary(summary), name, with_semantic=index == len(modes) - 1,
                       run=run)
    from text2world.engine.summary import items_phrase

    counted = items_phrase(summary["finished_items"], summary.get("epochs") or 1)
    say(f"re-scored {counted} ({', '.join(modes)}), written to "
        f"{SCORES_FILE} and {SUMMARY_FILE} in {run}")


def _disk_caches() -> dict:
    """The planner's answers and the scores kept on disk (``JsonFileStore``s), by name."""
    from text2world.planning.fast_downward import PlanCache
    from text2world.scoring.caching import ResultCache

    return {"plans": PlanCache(), "scores": ResultCache()}


def _size(count: int, size: int, bound: int | None = None) -> str:
    limit = f" of at most {bound / 2**20:,.0f} MiB" if bound else ""
    return f"{count} entries, {size / 1024:,.1f} KiB{limit}"


@cache_app.command("inspect")
def cache_inspect(as_json: bool = typer.Option(False, "--json")) -> None:
    """Entries, size and cost of the cached responses, per model; entries and size of the
    planner answers and scores kept on disk (each bounded: oldest used go first)."""
    from text2world.model.client import ResponseCache

    stats = ResponseCache().stats()
    disk = {name: store.stats() for name, store in _disk_caches().items()}
    if as_json:
        print_json({**stats, **disk})
        return
    console.print(f"responses: {stats['path']}: {_size(stats['entries'], stats['bytes'])}",
                  highlight=False)
    if stats["models"]:
        table = Table()
        for column in ("model", "entries", "KiB", "cost saved on re-runs ($)"):
            table.add_column(column)
        for name, slot in sorted(stats["models"].items()):
            table.add_row(name, str(slot["entries"]), f"{slot['bytes'] / 1024:.1f}",
                          f"{slot['cost']:.4f}")
        print_table(console, table)
    for name, slot in disk.items():
        what = "planner answers" if name == "plans" else "scores"
        console.print(f"{what}: {slot['path']}: "
                      f"{_size(slot['entries'], slot['bytes'], slot['max_bytes'])}", highlight=False)


@cache_app.command("clear")
def cache_clear(
    model: str = typer.Option(None, "--model", help="Only this litellm model's responses."),
    only: str = typer.Option(None, "--only", help="Only one cache: responses, plans or scores."),
    yes: bool = typer.Option(False, "--yes", "-y", help="Do not ask for confirmation."),
) -> None:
    """Delete cached responses, planner answers and scores (all, one model's responses, or one
    cache). A deleted response is asked, and paid for, again when needed; planner answers and
    scores are computed again."""
    from text2world.model.client import ResponseCache

    if only not in (None, "responses", "plans", "scores"):
        fail(f"--only {only!r}: choose responses, plans or scores")
    if model and only not in (None, "responses"):
        fail("--model selects responses: it cannot go with --only plans or scores")
    cache = ResponseCache()
    clear_disk = model is None and only in (None, "plans", "scores")
    if not yes and os.isatty(0):
        what = (f"the cached responses of {model}" if model else
                f"every cached entry of {only}" if only else
                "every cached response, planner answer and score")
        if not typer.confirm(f"delete {what} in {cache.root}?"):
            raise typer.Exit(1)
    parts = []
    if only in (None, "responses"):
        parts.append(f"{cache.clear(model)} cached responses")
    if clear_disk:
        for name, store in _disk_caches().items():
            if only in (None, name):
                parts.append(f"{store.clear()} {'planner answers' if name == 'plans' else 'scores'}")
    console.print("removed " + ", ".join(parts), highlight=False)

