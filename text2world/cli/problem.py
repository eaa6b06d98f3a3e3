"""``t2w eval --task problem`` (PDDL problems from text) and its part of ``t2w report``: the
tables of a problem run (parseable / solvable / equivalent per correction round with 95%
intervals, and the floors of trivial answers)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

import typer
from rich.table import Table

from text2world.cli.common import console, fail, print_json, say
from text2world.cli.runs import (
    ProgressObserver,
    explicit_flags,
    infrastructure_note,
    reference_notice,
    resumed_options,
    run_guarded,
    spread_table,
)
from text2world.errors import Text2WorldError
from text2world.reports.rendering import print_table

if TYPE_CHECKING:
    from text2world.cli.report import ReportOptions

TASKS = ("generation", "problem")
# flags of the generation loop that mean nothing to the problem task
GENERATION_ONLY = ("prompt", "correction_prompt", "mystery", "semantic", "feedback", "agent",
                   "tool_budget", "allow_exemplar_items")
LEGEND = ("EC_0: the first answer; EC_k: after up to k corrections. Parse: the problem parses "
          "against the gold domain; Solv: a plan reaches its goal; Equiv: the gold's task up "
          "to renaming (scoring.problem_equivalence); Sim: Levenshtein ratio to the gold's "
          "text; F1 init, goal: facts after the best object matching.")
MEANING = {"parseable": "Parse", "solvable": "Solv", "equivalent": "Equiv"}
LOOSER = {"similarity": "Sim", "init_f1": "F1 init", "goal_f1": "F1 goal"}
FLOOR_ROWS = {"first-problem": "copy 1st", "empty-goal": "no goal"}  # short, for 80 columns
FLOOR_LEGEND = ("Floors: copy 1st answers the domain's first store problem; no goal answers "
                "the gold's initial state with an empty goal.")


def check_task(ctx: typer.Context, task: str) -> None:
    """Reject an unknown task, and flags of the other task."""
    if task not in TASKS:
        fail(f"unknown --task {task!r}; choose {' or '.join(TASKS)}")
    given = explicit_flags(ctx)
    if task == "generation" and "size" in given:
        fail("--size is for --task problem (the problems described: easy, hard or both)")
    if task == "problem":
        wrong = [given[name] for name in GENERATION_ONLY if name in given]
        if wrong:
            fail(f"{', '.join(wrong)}: not an option of --task problem (it writes problems "
                 "from text; see docs/tasks/problems.md)")


def problem_tables(summary: dict) -> list[Table]:
    """The tables of a problem run's summary: parseable / solvable / equivalent per round
    with their intervals, the same for the trivial answers (the floors), then the looser
    metrics' means of both."""
    from text2world.engine.summary import items_phrase
    from text2world.stats import format_interval

    def cells(row: dict, columns: dict, intervals: bool) -> list[str]:
        return [(format_interval(row[m]) if intervals else
                 f"{100 * row[m]['mean']:.1f}" if row[m].get("mean") is not None else "-")
                if isinstance(row.get(m), dict) else "-" for m in columns]

    items = items_phrase(summary.get("finished_items") or 0, summary.get("epochs") or 1)
    rounds = Table(title=f"{summary.get('model')}: problems from {summary.get('style')} text, "
                         f"{summary.get('size')} ({items}, %, mean [95% interval])")
    floors = Table(title="Floors: trivial answers on the same items (%, mean [95% interval])")
    looser = Table(title="Looser metrics (%, mean)")
    for table, columns in ((rounds, MEANING), (floors, MEANING), (looser, LOOSER)):
        table.add_column("answer" if table is floors else "round", no_wrap=True)
        for header in columns.values():
            table.add_column(header, justify="right")
    for row in summary.get("per_round") or []:
        rounds.add_row(f"EC_{row['round']}", *cells(row, MEANING, True))
        looser.add_row(f"EC_{row['round']}", *cells(row, LOOSER, False))
    for name, row in (summary.get("floors") or {}).items():
        floors.add_row(FLOOR_ROWS.get(name, name), *cells(row, MEANING, True))
        looser.add_row(FLOOR_ROWS.get(name, name), *cells(row, LOOSER, False))
    return [rounds, floors, looser]


def print_problem_summary(summary: dict) -> None:
    for table in problem_tables(summary):
        print_table(console, table)
    say(LEGEND)
    say(FLOOR_LEGEND)
    spread = spread_table(str(summary.get("model") or "run"), summary)
    if spread is not None:
        print_table(console, spread)
    rules = ", ".join(f"{rule} {count}" for rule, count in
                      sorted((summary.get("rules") or {}).items()))
    say(f"decided by: {rules or '-'}; left open by a bound: {summary.get('undecided', 0)}")
    failures = summary.get("failures") or []
    if failures:  # the gap between solvable and equivalent, with what tells them apart
        first = failures[0]
        say(f"solvable but not the described task: {summary.get('solvable_not_equivalent')}; "
            f"e.g. {first['item']}: {first.get('counterexample') or first.get('rule')}")


def problem_eval(ctx: typer.Context, values: dict[str, Any], resume: Path | None,
                 quiet: bool, no_progress: bool) -> None:
    """Run the problem task with the command line's ``values`` (ProblemOptions' fields)."""
    from text2world.engine.summary import done_phrase
    from text2world.tasks.problem.task import (
        ProblemOptions,
        plan_problems,
        problem_options_from_run,
        run_problems,
    )

    flags = explicit_flags(ctx)
    if "description" in flags:  # --description: the problem task's style field
        flags["style"] = flags.pop("description")
    if "style" not in flags:
        values.pop("style")  # the task's default (explicit), not generation's
    if values.get("size") is None:
        values.pop("size")
    given = ProblemOptions(**values)
    try:
        if resume is not None:
            options = resumed_options(problem_options_from_run(resume, given.runs_root),
                                      given, flags)
        else:
            if not given.model:
                fail("no model given: pass --model ALIAS (see --list-models), or --resume RUN")
            options = given
        plan = plan_problems(options)
    except Text2WorldError as err:
        fail(str(err))
    reference_notice(plan.spec)
    observer = ProgressObserver("eval", quiet=quiet, progress=not no_progress)
    result = run_guarded("t2w eval --task problem", plan.run_path, observer,
                         lambda: run_problems(options, observer, plan))
    summary = dict(result.summary)
    print_problem_summary(summary)
    say(f"run: {result.run.path}  ({done_phrase(result.summary, result.new_items)}, "
        f"{summary['calls']} calls, {summary['cached_calls']} from cache, "
        f"${summary['cost_paid']:.4f} paid, {result.wall_time:.1f}s)")
    infrastructure_note(result, "t2w eval --task problem")
    say(f"report: t2w report {result.run.path}")


def problem_report(runs: Sequence[Path], options: "ReportOptions") -> None:
    """``t2w report`` of problem runs (``ProblemKind.report``): each run's tables (or its
    summary as JSON, ``options.as_json``)."""
    from text2world.engine.run_reader import open_run
    from text2world.tasks.registry import summarize_run

    for path in runs:
        summary = dict(summarize_run(open_run(path)))
        if options.as_json:
            print_json(summary)
        else:
            print_problem_summary(summary)
