"""``t2w validate`` and ``t2w score``."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from ..extract import NoDomainFound, extract_domain, looks_like_response
from ..metrics import MODES, ScoringError, score
from ..pddl import DomainInputError
from ..validation import validate
from .common import Mode, console, fail, mode_option, print_json, read_text_file


def _domain_text(path: Path, what: str) -> str:
    """A domain file as is, or the domain extracted from an LLM answer."""
    text = read_text_file(path, what)
    if looks_like_response(text):
        try:
            return extract_domain(text)
        except NoDomainFound as err:
            fail(f"{what} {path}: {err}")
    return text


def validate_command(
    path: Path = typer.Argument(..., help="PDDL domain file (or an LLM answer holding one); - for stdin"),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    exact_case: bool = typer.Option(False, "--exact-case",
                                    help="Parse the text exactly as written, as the paper's evaluator did."),
) -> None:
    """Check that a domain parses (executability); list errors and warnings. Exit 1 if invalid."""
    text = _domain_text(path, "domain")
    result = validate(text, fold_case=not exact_case)
    if as_json:
        print_json(result.to_dict())
    else:
        if result.ok:
            console.print(f"[green]valid[/]: {path}")
        for issue in result.errors:
            console.print(f"[red]error[/] {issue}", highlight=False)
        for issue in result.warnings:
            console.print(f"[yellow]warning[/] {issue}", highlight=False)
    raise typer.Exit(0 if result.ok else 1)


def score_command(
    gold: Path = typer.Argument(..., help="Gold PDDL domain file."),
    predicted: Path = typer.Argument(..., help="Generated domain file, or a raw LLM answer."),
    mode: Mode = mode_option("paper", "-m"),
    as_json: bool = typer.Option(False, "--json", help="Print the scores as JSON."),
) -> None:
    """Score a generated domain against a gold domain. Exit 1 when it is not executable."""
    if mode not in MODES:
        fail(f"unknown mode {mode!r}; choose one of: {', '.join(MODES)}")
    gold_text = read_text_file(gold, "gold domain")
    predicted_text = _domain_text(predicted, "predicted domain")
    try:
        result = score(gold_text, predicted_text, mode=mode)
    except (ScoringError, DomainInputError) as err:
        fail(str(err))
    if as_json:
        print_json(result.to_dict())
        raise typer.Exit(0 if result.executable else 1)
    table = Table(title=f"{predicted.name} vs {gold.name} ({mode} mode)")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in result.to_dict().items():
        if key in ("mode", "errors"):
            continue
        table.add_row(key, str(value) if isinstance(value, bool) else f"{value:.4f}")
    console.print(table)
    for issue in result.errors:
        console.print(f"[red]error[/] {issue}", highlight=False)
    raise typer.Exit(0 if result.executable else 1)
