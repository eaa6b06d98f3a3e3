"""``t2w judge RUN --model M``: the paper's LLM-judge baseline against our semantic verdicts."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from text2world.cli.common import console, fail, print_json, say
from text2world.cli.runs import (
    ProgressObserver,
    api_base_option,
    concurrency_option,
    epochs_option,
    explicit_flags,
    infrastructure_note,
    label_option,
    max_retries_option,
    max_tokens_option,
    model_arg_option,
    model_option,
    no_cache_option,
    parse_model_args,
    quiet_option,
    resume_option,
    resumed_options,
    retry_delay_option,
    run_guarded,
    run_id_option,
    run_paths,
    runs_dir_option,
    split_ids,
    temperature_option,
    timeout_option,
)
from text2world.errors import Text2WorldError

if TYPE_CHECKING:
    from text2world.tasks.judge.records import JudgeSummary

JUDGE_FIELDS = {"retry_delay": "retry_base_delay", "no_cache": "use_cache",
                "model_arg": "model_args", "runs_dir": "runs_root", "run": "source"}


def judge_command(
    ctx: typer.Context,
    run: Path = typer.Argument(None, metavar="RUN",
                               help="The generation run (t2w eval, with semantic scores) whose "
                                    "final domains are judged: a folder or a run id."),
    model: str = model_option("The judge: an alias, a litellm model string, or a reference "
                              "judge (reference/judge-yes, reference/judge-random, "
                              "reference/judge-oracle)."),
    limit: int = typer.Option(None, "--limit", help="Only the first N judged items."),
    domains: str = typer.Option(None, "--domains", help="Comma-separated item ids."),
    epochs: int = epochs_option(),
    api_base: str = api_base_option(),
    temperature: float = temperature_option(),
    max_tokens: int = max_tokens_option(),
    model_arg: list[str] = model_arg_option(),
    max_concurrency: int = concurrency_option(),
    timeout: float = timeout_option(),
    max_retries: int = max_retries_option(),
    retry_delay: float = retry_delay_option(),
    no_cache: bool = no_cache_option(),
    seed: int = typer.Option(0, "--seed", help="Seed of the reference judges."),
    run_id: str = run_id_option(),
    label: str = label_option(),
    runs_dir: Path = runs_dir_option(),
    resume: Path = resume_option(),
    as_json: bool = typer.Option(False, "--json", help="Print the summary as JSON."),
    quiet: bool = quiet_option(),
) -> None:
    """The LLM-judge baseline (paper section 3.6): a judge model rates how closely each final
    domain of RUN matches its gold; its answers are set beside our semantic verdicts (Cohen's
    kappa with a 95% interval, confusion matrix, accuracy, the items where they disagree with
    our counterexample), with the reference judges' floors and ceiling on the same items."""
    from text2world.tasks.judge.task import JudgeOptions, judge, judge_options_from_run, plan_judge

    if (run is None) == (resume is None):
        fail("give the run to judge (t2w judge RUN --model M), or --resume JUDGE_RUN")
    if resume is None and not model:
        fail("give the judge with --model (e.g. reference/judge-random, or an LLM alias)")
    given = JudgeOptions(
        model=model or "", source=run_paths([run], runs_dir)[0] if run is not None else None,
        limit=limit, domains=split_ids(domains), epochs=epochs, api_base=api_base,
        temperature=temperature, max_tokens=max_tokens, model_args=parse_model_args(model_arg),
        max_concurrency=max_concurrency, timeout=timeout, max_retries=max_retries,
        retry_base_delay=retry_delay, use_cache=not no_cache, seed=seed, run_id=run_id, label=label,
        runs_root=runs_dir)
    try:
        options = given if resume is None else resumed_options(
            judge_options_from_run(resume, runs_dir), given, explicit_flags(ctx, JUDGE_FIELDS))
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
