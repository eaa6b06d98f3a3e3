"""``t2w judge RUN --model M``: the paper's LLM-judge baseline against our semantic verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from text2world.cli.common import console, fail, print_json, say
from text2world.cli.run_options import SHARED_FLAGS, RunFlags, with_run_options
from text2world.cli.runs import (
    ProgressObserver,
    explicit_flags,
    infrastructure_note,
    model_option,
    quiet_option,
    resumed_options,
    run_guarded,
    run_paths,
    split_ids,
)
from text2world.errors import Text2WorldError

if TYPE_CHECKING:
    from text2world.tasks.judge.records import JudgeSummary

@with_run_options(seed_help="Seed of the reference judges.")
def judge_command(
    ctx: typer.Context,
    source: Path = typer.Argument(None, metavar="RUN",
                               help="The generation run (t2w eval, with semantic scores) whose "
                                    "final domains are judged: a folder or a run id."),
    model: str = model_option("The judge: an alias, a litellm model string, or a reference "
                              "judge (reference/judge-yes, reference/judge-random, "
                              "reference/judge-oracle)."),
    limit: int = typer.Option(None, "--limit", help="Only the first N judged items."),
    domains: str = typer.Option(None, "--domains", help="Comma-separated item ids."),
    run_flags: RunFlags = SHARED_FLAGS,
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    quiet: bool = quiet_option(),
) -> None:
    """The LLM-judge baseline (paper section 3.6): a judge model rates how closely each final
    domain of RUN matches its gold; its answers are set beside our semantic verdicts (Cohen's
    kappa with a 95% interval, confusion matrix, accuracy, the items where they disagree with
    our counterexample), with the reference judges' floors and ceiling on the same items."""
    from text2world.tasks.judge.task import JudgeOptions, judge, judge_options_from_run, plan_judge

    resume = run_flags["resume"]
    if (source is None) == (resume is None):
        fail("give the run to judge (t2w judge RUN --model M), or --resume JUDGE_RUN")
    if resume is None and not model:
        fail("give the judge with --model (e.g. reference/judge-random, or an LLM alias)")
    given = JudgeOptions(
        model=model or "", limit=limit, domains=split_ids(domains), **run_flags,
        source=run_paths([source], run_flags["runs_root"])[0] if source is not None else None)
    try:
        options = given if resume is None else resumed_options(
            judge_options_from_run(resume, given.runs_root), given, explicit_flags(ctx))
        judge_plan = plan_judge(options)
    except Text2WorldError as err:
        fail(str(err))
    observer = ProgressObserver("judge", quiet=quiet or as_json)
    result = run_guarded("t2w judge", judge_plan.run_path, observer,
                         lambda: judge(options, observer, judge_plan))
    if as_json:
        print_json({**result.summary, "run_path": str(result.run.path)})
    else:
        print_judge(result.summary)
        say(f"run: {result.run.path} ({result.new_items} new" + (", resumed" if result.resumed else "") + ")")
    infrastructure_note(result, "t2w judge")


def print_judge(summary: JudgeSummary) -> None:
    from text2world.reports.judge import judge_tables

    for part in judge_tables(summary):
        if isinstance(part, str):
            say(part)
        else:
            console.print(part)
