"""``t2w validate`` and ``t2w score``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from text2world.cli.common import (
    Mode,
    console,
    err_console,
    fail,
    json_failures,
    mode_option,
    print_json,
    read_text_file,
    say,
    warn,
)
from text2world.pddl.extract import NoDomainFound, domain_from_answer
from text2world.pddl.model import DomainInputError
from text2world.pddl.validation import validate
from text2world.reports.rendering import print_table
from text2world.scoring.metrics import Score, ScoringError, truncation_issue
from text2world.scoring.score_domain import score_domain

if TYPE_CHECKING:
    from rich.console import Console

    from text2world.scoring.semantic import SemanticScore


def _domain_text(path: Path, what: str, mode: str = "canonical", source: str | None = None
                 ) -> str:
    """A domain file as is, or the domain extracted from an LLM answer (as ``score_answer``)."""
    text = read_text_file(path, what) if source is None else source
    try:
        return domain_from_answer(text, mode)
    except NoDomainFound as err:
        fail(f"{what} {path}: {err}")


def _gold_text(gold: Path, dataset: str = "text2world") -> str:
    """A gold domain file, or the gold domain of an id of ``dataset`` (``blocksworld``; a
    generated world's id with its folder), as --semantic."""
    if str(gold) != "-" and not gold.exists():
        from text2world.store.datasets import BUILTIN, DatasetError, load_dataset
        where = "the store" if dataset == BUILTIN else f"dataset {dataset!r}"
        try:
            return load_dataset(dataset).get(str(gold)).domain
        except DatasetError as err:
            fail(f"gold domain {gold}: no such file, and {where} cannot be read: {err}")
        except KeyError:
            fail(f"gold domain {gold}: no such file, and not a domain id of {where} "
                 f"(t2w data list{'' if dataset == BUILTIN else ' --dataset ' + dataset} "
                 "shows the ids)")
    return read_text_file(gold, "gold domain")


def _report_gold(result: Score, gold: Path) -> None:
    """A gold that cannot be scored makes every F1 meaningless: say so on stderr."""
    if result.gold_executable and not result.gold_errors:
        return
    what = "does not parse" if not result.gold_executable else "cannot be scored as released"
    warn(f"the gold domain {gold} {what}: its F1s are 0 whatever the prediction")
    for issue in result.gold_errors:
        say(f"  gold {issue}", to=err_console)


def validate_command(
    path: Path = typer.Argument(..., help="PDDL domain file (or an LLM answer holding one); - for stdin"),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    exact_case: bool = typer.Option(False, "--exact-case",
                                    help="Parse the text exactly as written, as the paper's evaluator did."),
) -> None:
    """Check that a domain parses (executability); list errors and warnings. Exit 1 if invalid."""
    with json_failures(as_json):
        source = read_text_file(path, "domain")
        text = _domain_text(path, "domain", source=source)
    result = validate(text, fold_case=not exact_case)
    dropped = truncation_issue(source, text) if source != text else None
    if dropped is not None:  # cut off by the extraction (a domain file's own is a warning)
        result = replace(result, warnings=(dropped,) + result.warnings)
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
    gold: Path = typer.Argument(..., help="Gold PDDL domain file, or a store id (e.g. blocksworld)."),
    predicted: Path = typer.Argument(..., help="Generated domain file, or a raw LLM answer."),
    mode: Mode = mode_option("paper", "-m"),  # type: ignore[valid-type]  # typer choices: an enum made at runtime
    as_json: bool = typer.Option(False, "--json", help="Print the scores as JSON."),
    semantic: bool = typer.Option(False, "--semantic",
                                  help="Also score behaviour on the gold's problems (GOLD may be a store id)."),
    problems: Path | None = typer.Option(None, "--problems", help="Folder of problem files for --semantic."),
    dataset: str = typer.Option("text2world", "--dataset",
                                help="The dataset of a GOLD id: built-in store, imported name or "
                                     "a path (a generated worlds folder)."),
) -> None:
    """Score a generated domain against a gold domain. Exit 1 when it is not executable."""
    with json_failures(as_json):
        _score(gold, predicted, mode, as_json, semantic, problems, dataset)


def _score(gold: Path, predicted: Path, mode: str, as_json: bool, semantic: bool,
           problems: Path | None, dataset: str = "text2world") -> None:
    problem_list: list[tuple[str, str]] = []
    if semantic:
        from text2world.scoring.semantic import SemanticInputError
        from text2world.store.datasets import resolve_gold
        try:
            gold_text, problem_list = resolve_gold(str(gold), problems, dataset)
        except SemanticInputError as err:
            fail(str(err))
    else:
        gold_text = _gold_text(gold, dataset)
    source = read_text_file(predicted, "predicted domain")
    try:
        scored = score_domain(gold_text, source, mode=mode, answer="either", validation=False,
                              semantic=semantic, problems=problem_list)
    except NoDomainFound as err:
        fail(f"predicted domain {predicted}: {err}")
    except (ScoringError, DomainInputError) as err:
        fail(str(err))
    result, semantic_result = scored.score, scored.semantic
    _report_gold(result, gold)
    if as_json:
        data = result.to_dict(details=True)
        if semantic_result is not None:
            data["semantic"] = semantic_result.to_dict()
        print_json(data)
        raise typer.Exit(0 if result.executable else 1)
    title = f"{predicted.name} vs {gold.name} ({mode} mode)"
    table = Table(title=title, min_width=min(len(title), console.width))  # title on one line
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key, value in result.to_dict().items():
        if key in ("mode", "errors"):
            continue
        table.add_row(key, str(value) if isinstance(value, bool) else f"{value:.4f}")
    print_table(console, table)
    if result.per_action:
        actions = Table(title="per action" + (" (extra actions do not count in paper mode)"
                                              if mode == "paper" else ""))
        for column in ("action", "status", "parameters", "preconditions", "effects"):
            actions.add_column(column, justify="left" if column in ("action", "status")
                               else "right")
        for name, values in result.per_action.items():
            written = values.get("predicted")  # canonical: matched through the alignment
            label = name if written in (None, name) else f"{name} (as {written})"
            actions.add_row(label, values["status"], *(f"{values[k]:.4f}" for k in
                                                       ("parameters", "preconditions", "effects")))
        print_table(console, actions)
        if result.alignment is not None and not result.alignment.is_identity:
            renamed = [f"{kind[:-1]} {p} -> {g}" for kind in ("types", "predicates", "actions",
                                                               "constants")
                       for p, g in result.alignment.mapping(kind).items() if p != g]
            if renamed:
                console.print("aligned names: " + ", ".join(renamed), highlight=False)
    for issue in result.errors:
        console.print(f"[red]error[/] {issue}", highlight=False)
    if semantic_result is not None:
        print_semantic(semantic_result, console)
    raise typer.Exit(0 if result.executable else 1)


def print_semantic(score: SemanticScore, console: Console, max_diagnoses: int = 15) -> None:
    """The semantic scores, per problem, and the diagnoses, as rich tables (CLI output)."""
    from rich.table import Table

    from text2world.reports.rendering import print_table

    if not score.ok:
        console.print(f"semantic verdict: [red]not_simulated[/]: {score.reason}",
                      highlight=False)
        return
    colour = {"equivalent": "green", "different": "yellow", "incomplete": "red"}[score.verdict]
    console.print(f"semantic verdict: [{colour}]{score.verdict}[/]", highlight=False)
    for part in score.unmatched:
        console.print(f"  unmatched: {part}", highlight=False)
    for pair in score.uncertain:
        console.print(f"  uncertain mapping: {pair}", highlight=False)
    table = Table(title=f"semantic (seed {score.settings['seed']}, "
                        f"{score.settings['states']} states, "
                        f"{score.settings['transitions']} transitions)")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for name, value in score.metrics().items():
        table.add_row(name, "n/a" if value is None else f"{value:.4f}")
    print_table(console, table)
    problems = Table(title="per problem")
    for column in ("problem", "own plan valid in gold", "gold plan accepted", "states"):
        problems.add_column(column)
    for p in score.problems:
        problems.add_row(p.name, f"{p.plan_valid} {'' if p.plan_valid else p.plan_reason}",
                         f"{p.gold_plan_accepted} "
                         f"{'' if p.gold_plan_accepted else p.gold_plan_reason}", str(p.states))
    print_table(console, problems)
    for diagnosis in score.diagnoses[:max_diagnoses]:
        console.print(f"[yellow]diagnosis[/] {diagnosis.message}", highlight=False)
    for note in score.notes:
        console.print(f"note: {note}", highlight=False)
