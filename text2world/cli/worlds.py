"""``t2w worlds``: fresh worlds on demand (``generate``: a verified dataset folder from a
seed; ``families``: the structural families)."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

import typer

from text2world.cli.common import err_console, fail
from text2world.errors import Text2WorldError

app = typer.Typer(help="Fresh worlds on demand: verified domains, descriptions, problems "
                       "and plans from structural families.", no_args_is_help=True)


def _names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


@app.command("generate")
def generate_command(
    seed: int = typer.Option(..., "--seed", help="The seed: same seed and version, same bytes."),
    count: int = typer.Option(12, "--count", help="How many worlds."),
    families: str = typer.Option("", "--families",
                                 help="Comma-separated families (default: all of them)."),
    out: Path = typer.Option(None, "--out",
                             help="The dataset folder to write (default: ./worlds-s<seed>)."),
    train_families: str = typer.Option(
        "", "--train-families", help="Families whose worlds get split 'train' (held in)."),
    workers: int = typer.Option(0, "--workers",
                                help="Processes of the local pool (default: the CPUs, at most 8)."),
    released: Path = typer.Option(
        None, "--released", help="The released Text2World folder to check novelty against "
                                 "(default: ../shared/text2world-official when present)."),
    force: bool = typer.Option(False, "--force", help="Replace a non-empty --out folder."),
    resume: bool = typer.Option(
        False, "--resume", help="Take the worlds an interrupted run of the same settings "
                                "journaled (OUT.journal.jsonl) and build the rest."),
    ray: bool = typer.Option(False, "--ray", help="Build the worlds on Ray (a local cluster "
                                                  "unless --ray-address)."),
    ray_address: str = typer.Option(None, "--ray-address",
                                    help="Address of a running Ray cluster (implies --ray)."),
    keys: bool = typer.Option(
        False, "--keys", help="Also build the world-model tasks' answer keys (keys/<id>.json, "
                              "as data/keys/: optimal plans, seconds a world)."),
    quiet: bool = typer.Option(False, "--quiet", help="No progress lines."),
) -> None:
    """Generate COUNT worlds from SEED into a dataset folder (the store's layout)."""
    from text2world.worlds.generate import (
        Settings,
        WorldsError,
        check_families,
        check_output,
        generate,
        write_dataset,
    )
    from text2world.worlds.novelty import default_released

    target = out or Path(f"worlds-s{seed}")
    try:
        chosen = check_families(_names(families))
        held = check_families(_names(train_families)) if train_families else ()
        if released is not None and not released.is_dir():
            raise WorldsError(f"--released {released}: no such folder")
        settings = Settings(seed, count, chosen, held, released or default_released())
        progress = None if quiet else (lambda line: err_console.print(line, highlight=False))
        pool = workers or min(8, os.cpu_count() or 1)
        runner = None
        if ray or ray_address:
            from text2world.integrations.ray_worlds import run_on_ray

            runner = run_on_ray(ray_address, pool)
        check_output(target, force)
        journal = target.with_name(f"{target.name}.journal.jsonl")
        generated = generate(settings, workers=pool, progress=progress, runner=runner,
                             journal=journal, resume=resume)
        write_dataset(generated, settings, target, force=force)
        journal.unlink(missing_ok=True)
    except Text2WorldError as err:  # WorldsError, RayUnavailable
        fail(str(err))
    if keys:
        _write_keys(target, pool)
    families_line = ", ".join(f"{k} {v}" for k, v in generated.by_family().items())
    typer.echo(f"{len(generated.worlds)} worlds written to {target}")
    typer.echo(textwrap.fill(f"families: {families_line}", width=78, subsequent_indent="  "))
    typer.echo(f"draws dropped (failed a check or repeated a world): {len(generated.dropped)}")


def _write_keys(target: Path, workers: int) -> None:
    """The answer keys of every world, into ``target/keys/`` (the store's layout)."""
    from text2world.store.datasets import load_dataset
    from text2world.tasks.wm.answer_keys import write_keys

    records = [(record, False) for record in load_dataset(target)]
    write_keys(records, root=target, jobs=workers)
    typer.echo(f"answer keys written to {target / 'keys'}")


@app.command("families")
def families_command() -> None:
    """List the structural families with their lexicons."""
    from text2world.worlds.families import FAMILIES

    for family in FAMILIES.values():
        typer.echo(textwrap.fill(f"{family.name} ({len(family.lexicons)} lexicons): "
                                 f"{family.summary}", width=78, subsequent_indent="  "))
