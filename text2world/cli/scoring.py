"""``t2w validate`` and ``t2w score``."""

from __future__ import annotations

from pathlib import Path

import typer
from rich.table import Table

from ..extract import NoDomainFound, extract_domain, looks_like_response
from ..metrics import MODES, ScoringError, score
from ..pddl import DomainInputError
from ..validation import validate
from .common import console, fail, print_json, read_text_file


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
    mode: str = typer.Option("paper", "--mode", "-m",
                             help="paper: the released evaluator exactly; canonical: rename-invariant, per action."),
    as_json: bool = typer.Option(False, "--json", help="Print the scores as JSON."),
    semantic: bool = typer.Option(False, "--semantic",
                                  help="Also score behaviour on the gold's problems (GOLD may be a store id)."),
    problems: Path | None = typer.Option(None, "--problems", help="Folder of problem files for --semantic."),
) -> None:
    """Score a generated domain against a gold domain. Exit 1 when it is not executable."""
    if mode not in MODES:
        fail(f"unknown mode {mode!r}; choose one of: {', '.join(MODES)}")
    semantic_result = None
    if semantic:
        from ..semantic import SemanticInputError, resolve_gold
        try:
            gold_text, problem_list = resolve_gold(str(gold), problems)
        except SemanticInputError as err:
            fail(str(err))
    else:
        gold_text = read_text_file(gold, "gold domain")
    predicted_text = _domain_text(predicted, "predicted domain")
    try:
        result = score(gold_text, predicted_text, mode=mode)
    except (ScoringError, DomainInputError) as err:
        fail(str(err))
    if semantic:
        from ..semantic import semantic_score
        semantic_result = semantic_score(gold_text, predicted_text, problem_list)
    if as_json:
        data = result.to_dict()
        if semantic_result is not None:
            data["semantic"] = semantic_result.to_dict()
        print_json(data)
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
    if semantic_result is not None:
        from ..semantic import print_semantic
        print_semantic(semantic_result, console)
    raise typer.Exit(0 if result.executable else 1)
