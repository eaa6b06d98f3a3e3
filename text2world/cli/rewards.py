"""``t2w score-batch`` and ``t2w export-trajectories``: the training side (rewards in bulk,
conversations for fine-tuning). The logic is in ``batch_scoring`` and ``engine.trajectories``."""

from __future__ import annotations

import time
from pathlib import Path

import typer

from text2world.cli.common import ExitCode, choices, err_console, fail, say
from text2world.cli.runs import run_paths, runs_dir_option
from text2world.reports.rendering import count_of
from text2world.rewards import DEFAULT_LIMIT, DEFAULT_METRIC, METRICS, PROBLEM_METRIC

Metric = choices("Metric", (*METRICS, PROBLEM_METRIC))


def score_batch_command(
    source: Path = typer.Argument(..., help='JSONL input: lines {"id", "gold_id" or "gold_pddl", "response"}'
                                 ' (and "gold_problem" for a problem answer).'),
    out: Path = typer.Option(..., "--out", "-o", help="JSONL output (resumed when it exists)."),
    metric: Metric = typer.Option(DEFAULT_METRIC, "--metric",  # type: ignore[valid-type]
                                  help="The metric in each line's 'reward' (every score is written)."),
    limit: float = typer.Option(DEFAULT_LIMIT, "--limit", min=0.1,
                                help="CPU seconds per answer; past it the reward is 0, with the reason."),
    workers: int | None = typer.Option(None, "--workers", "-j", min=1,
                                       help="Local worker processes (default: the cores, at "
                                            "most one per 16 lines; with --ray: the local "
                                            "Ray's CPUs)."),
    engine: str = typer.Option("auto", "--engine",
                               help="local (a process pool here), ray, or auto: Ray when a "
                                    "cluster runs (RAY_ADDRESS) and the batch is big enough "
                                    "to pay its start-up."),
    ray: bool = typer.Option(False, "--ray", help="Run on Ray (a local cluster unless --ray-address); --engine ray."),
    ray_address: str | None = typer.Option(None, "--ray-address",
                                           help="Address of a running Ray cluster (implies --ray)."),
    dataset: str = typer.Option("text2world", "--dataset",
                                help="The dataset of the gold_ids of lines without a 'dataset' "
                                     "field: built-in store, imported name or a path (a "
                                     "generated worlds folder)."),
) -> None:
    """Score many answers: every score, verdict and reason per line, resumable by id."""
    from text2world.batch_scoring import BatchInputError, choose_engine, read_batch, run_here, score_batch
    from text2world.integrations.ray_batch import RayUnavailable, run_on_ray

    try:
        lines = read_batch(source, dataset)
    except BatchInputError as err:
        fail(str(err))
    last = [0.0]

    def progress(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last[0] >= 2.0:
            last[0] = now
            say(f"scored {done}/{count_of(total, 'line')}", to=err_console)

    try:
        choice = choose_engine("ray" if ray or ray_address else engine, len(lines), workers,
                               ray_address)
    except BatchInputError as err:
        fail(str(err))
    say(choice.line(), to=err_console)
    if choice.engine == "ray":
        runner = run_on_ray(choice.address, None if choice.address else choice.workers)
    else:
        def runner(parts, chosen, seconds):
            return run_here(parts, chosen, seconds, choice.workers)
    try:
        result = score_batch(lines, out, str(metric), limit, runner, progress)
    except BatchInputError as err:
        fail(str(err))
    except RayUnavailable as err:
        fail(str(err), ExitCode.INFRASTRUCTURE)
    say(f"{out}: {count_of(result['lines'], 'line')} ({result['scored']} scored, "
        f"{result['resumed']} already there)")


def export_trajectories_command(
    runs: list[Path] = typer.Argument(..., help="Run folders, or run ids of the runs folder."),
    out: Path = typer.Option(..., "--out", "-o", help="JSONL output (chat messages + scores)."),
    where: str | None = typer.Option(
        None, "--where", help="Keep only: semantic_equivalent, valid, correct, or a score "
                              "comparison such as 'canonical.similarity>=0.9'."),
    runs_dir: Path = runs_dir_option(),
) -> None:
    """Write each logged sample's conversation with its scores, for SFT (TRL, datasets)."""
    from text2world.engine.run_store import RunError
    from text2world.engine.trajectories import TrajectoryError, export_trajectories

    try:
        count = export_trajectories(run_paths(runs, runs_dir), out, where)
    except (RunError, TrajectoryError) as err:
        fail(str(err))
    say(f"{out}: {count_of(count, 'trajectory', 'trajectories')}")
