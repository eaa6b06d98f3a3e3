"""``t2w contamination``: probe a model for memorised domains, or check a corpus for leakage."""

from __future__ import annotations

import json
import textwrap
import time
from pathlib import Path
from typing import TYPE_CHECKING, cast

import typer
from rich.console import JustifyMethod
from rich.markup import escape
from rich.table import Table

from text2world.cli.common import ExitCode, console, err_console, fail, print_json, say
from text2world.cli.run_options import SHARED_FLAGS, RunFlags, with_run_options
from text2world.cli.runs import (
    ProgressObserver,
    explicit_flags,
    quiet_option,
    reference_notice,
    resumed_options,
    run_guarded,
    split_ids,
)
from text2world.errors import Text2WorldError
from text2world.reports.rendering import count_of, print_table
from text2world.store.datasets import SPLITS, DatasetError, load_dataset
from text2world.tasks.contamination.corpus import CorpusError, iter_corpus

if TYPE_CHECKING:
    from text2world.tasks.contamination.records import ProbeSummary
from text2world.tasks.contamination.overlap import (
    DEFAULT_MAX_MISMATCHES,
    DEFAULT_N,
    ComparisonTooLarge,
    compare_corpus,
)
from text2world.tasks.contamination.probe import DEFAULT_CONCURRENCY, DEFAULT_PROMPT_TOKENS
from text2world.tasks.contamination.task import ProbeOptions, probe, probe_options_from_run


def _excerpt(text: str, lines: int = 4) -> str:
    """A span's text wrapped to the terminal under its 12-character label (at most ``lines``
    lines), so excerpts stay readable at 80 columns."""
    width = max(40, console.width - 12)
    wrapped = textwrap.wrap(" ".join(text.split()), width=width, max_lines=lines,
                            placeholder=" ...", break_on_hyphens=False)
    return ("\n" + " " * 12).join(wrapped)


@with_run_options(seed_help="Probe: seed of the reference models.", prefix="Probe: ",
                  max_concurrency=DEFAULT_CONCURRENCY)
def contamination_command(
    ctx: typer.Context,
    model: str = typer.Option(None, "--model", "-m",
                              help="Probe this model: an alias (t2w eval --list-models) or a "
                                   "litellm model string, e.g. reference/oracle, openai/my-model."),
    compare: Path = typer.Option(None, "--compare",
                                 help="Corpus to check against the store: a folder of files, a "
                                      "JSONL file or JSON list of records, or one text file."),
    dataset: str = typer.Option("text2world", "--dataset", "-d",
                                help="Gold domains: built-in store, imported name or path."),
    split: str = typer.Option(None, "--split",
                              help="Gold domains used: test, train or all (default: test for "
                                   "--model, as in t2w eval; all for --compare)."),
    text_field: str = typer.Option("text", "--text-field",
                                   help="--compare: record field with the text (JSONL/JSON)."),
    top: int = typer.Option(20, "--top", help="How many overlaps / domains to list."),
    show_spans: int = typer.Option(3, "--spans",
                                   help="Show the matching spans of this many top results."),
    n: int = typer.Option(DEFAULT_N, "--n", help="n-gram length in GPT-2 tokens."),
    max_mismatches: int = typer.Option(DEFAULT_MAX_MISMATCHES, "--max-mismatches",
                                       help="Mismatched tokens allowed per n-gram."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    output: Path = typer.Option(None, "--output", "-o",
                                help="Also write the full result (JSON) to this file."),
    # Probe options: the same names and meaning as in t2w eval.
    prompt_tokens: int = typer.Option(DEFAULT_PROMPT_TOKENS, "--prompt-tokens",
                                      help="Probe: GPT-2 tokens of each gold domain given."),
    # The old name, kept working but hidden: two long names of one option are one unbreakable
    # word that rich cuts in an 80-column help.
    prefix_tokens: int = typer.Option(None, "--prefix-tokens", hidden=True,
                                      help="Old name of --prompt-tokens."),
    limit: int = typer.Option(None, "--limit", help="Probe: only the first N gold domains."),
    domains: str = typer.Option(None, "--domains", help="Probe: comma-separated domain ids."),
    run_flags: RunFlags = SHARED_FLAGS,
    quiet: bool = quiet_option(),
) -> None:
    """Token n-gram contamination (paper section 3.4).

    --model probes a model: it continues each gold domain from its first 20 GPT-2 tokens and
    the continuation is compared with the gold. --compare scores every file or record of a
    corpus against every gold domain and lists the top overlaps (benchmark leakage check).
    """
    resume = run_flags["resume"]
    if sum(x is not None for x in (model, compare, resume)) == 0 or \
            (compare is not None and (model is not None or resume is not None)):
        fail("give exactly one of --model MODEL (probe a model, or --resume RUN) or "
             "--compare PATH (check a corpus)")
    if split is not None and split not in SPLITS:
        fail(f"unknown split {split!r}; choose one of: {', '.join(SPLITS)}")
    if n < 1:
        fail(f"--n must be at least 1, not {n}")
    if max_mismatches < 0:
        fail(f"--max-mismatches must be 0 or more, not {max_mismatches}")
    if top < 0 or show_spans < 0:
        fail("--top and --spans must be 0 or more")
    if prefix_tokens is not None:
        if "prompt_tokens" in explicit_flags(ctx) and prompt_tokens != prefix_tokens:
            fail(f"--prompt-tokens {prompt_tokens} and --prefix-tokens {prefix_tokens} (its old "
                 "name) disagree; give one")
        prompt_tokens = prefix_tokens
    if output is not None:
        from text2world.files import check_output_file

        check_output_file(output, "--output")  # before the corpus is read or a model called
    if compare is not None:
        try:
            gold = load_dataset(dataset)
        except DatasetError as err:
            fail(str(err))
        records = gold.split(split or "all")
        if not records:
            fail(f"dataset {gold.name!r} has no {split or 'all'} domains")
        _compare(compare, gold.name, records, text_field, top, show_spans, n, max_mismatches,
                 as_json, output)
        return
    given = ProbeOptions(
        model=model or "", dataset=dataset, split=split or "test", limit=limit,
        domains=split_ids(domains), prompt_tokens=prompt_tokens, n=n,
        max_mismatches=max_mismatches, top=max(top, show_spans), **run_flags)
    try:
        if resume is not None:
            # Credentials are never written to the run: --api-base and --model-arg give
            # them again; n and max-mismatches may change (rates are recomputed).
            flags = explicit_flags(ctx)
            if "prefix_tokens" in flags:  # the old name of --prompt-tokens
                flags["prompt_tokens"] = flags.pop("prefix_tokens")
            options = resumed_options(probe_options_from_run(resume, given.runs_root), given,
                                      flags)
            options.n, options.max_mismatches = n, max_mismatches
            options.top = max(top, show_spans)
        else:
            options = given
    except Text2WorldError as err:
        fail(str(err))
    _probe(options, top, show_spans, as_json, output, quiet)


def _probe(options: ProbeOptions, top: int, show_spans: int, as_json: bool,
           output: Path | None, quiet: bool = False) -> None:
    from text2world.tasks.contamination.task import plan_probe

    try:
        probe_plan = plan_probe(options)
    except Text2WorldError as err:
        fail(str(err))
    if not as_json:
        reference_notice(probe_plan.prepared.spec)
    observer = ProgressObserver("probe", quiet=quiet or as_json)
    result = run_guarded("t2w contamination", probe_plan.run_path, observer,
                         lambda: probe(options, observer, probe_plan))
    summary = result.summary
    if output is not None:
        _write_json(output, summary)
    if as_json:
        print_json({**summary, "run_path": str(result.run_path), "resumed": result.resumed,
                    "new_items": result.new_items,
                    "histogram_path": str(result.histogram) if result.histogram else None})
    else:
        _print_probe(result, options, top, show_spans)
    if result.errors:
        raise typer.Exit(ExitCode.INFRASTRUCTURE)


CONTENT_TOKENS = ("content tokens: contaminated/counted GPT-2 tokens of the gold domain's names "
                  "and words; keywords (define, :action, and, ...), ?variables, parentheses "
                  "and separators are not counted")


def rates_table(summary: ProbeSummary, top: int) -> None:
    """The most contaminated domains of a probe's summary, and its mean rate."""
    table = Table(title=f"Contamination of {escape(str(summary['model']))} on "
                        f"{escape(str(summary['dataset']))} "
                        f"(first {summary.get('prefix_tokens', summary.get('prompt_tokens'))} "
                        f"tokens given; {summary['n']}-grams, "
                        f"<= {summary['max_mismatches']} mismatches)",
                  caption=CONTENT_TOKENS, caption_justify="left")
    for column, justify in (("#", "right"), ("domain", "left"), ("name", "left"),
                            ("rate", "right"), ("content tokens", "right")):
        table.add_column(column, justify=cast(JustifyMethod, justify))
    for rank, row in enumerate(summary["per_domain"][:top], 1):
        table.add_row(str(rank), escape(row["item"]), escape(row["name"]), f"{row['rate']:.3f}",
                      f"{row['contaminated']}/{row['counted']}")
    if top and summary["per_domain"]:
        print_table(console, table, keep=2)
    mean = summary["mean_rate"]
    say(f"mean contamination rate: {mean:.3f} over {summary['finished_items']} of "
        f"{count_of(summary['planned_items'] or 0, 'domain')}" if mean is not None else "no domain finished")


def _print_probe(result, options: ProbeOptions, top: int, show_spans: int) -> None:
    summary = result.summary
    rates_table(summary, top)
    say(f"run: {result.run_path} ({result.new_items} new, "
        f"{summary['cached_calls']} answered from cache" + (", resumed" if result.resumed else "") + ")")
    if result.histogram:
        say(f"histogram: {result.histogram}")
    if result.errors:
        say(f"{count_of(len(result.errors), 'domain')} failed with infrastructure errors "
            f"({', '.join(summary['infrastructure_error_items'][:10])}); "
            f"retry them with: t2w contamination --resume {result.run_path}", to=err_console)
    for row in summary["most_contaminated"][:show_spans]:
        _print_spans(f"{row['item']} ({row['name']})", result.results[row["item"]])


def _compare(path: Path, dataset_name: str, records, text_field: str, top: int,
             show_spans: int, n: int, max_mismatches: int, as_json: bool,
             output: Path | None) -> None:
    references = [(record.id, record.domain) for record in records]
    skipped: list[str] = []
    started = time.perf_counter()
    try:
        # The corpus is streamed: a large JSONL training set is never held in memory.
        comparison = compare_corpus(iter_corpus(path, text_field, skipped), references, n=n,
                                    max_mismatches=max_mismatches,
                                    spans_for_top=max(top, show_spans))
    except (CorpusError, ComparisonTooLarge) as err:
        fail(str(err))
    seconds = time.perf_counter() - started
    for note in skipped:
        err_console.print(f"[yellow]skipped[/] {note}", highlight=False)
    corpus = comparison.items
    best = comparison.best_per_item()
    listed = comparison.overlaps[:top]
    data = {
        "corpus": str(path), "dataset": dataset_name, "items": len(corpus),
        "domains": len(references), "pairs": comparison.pairs, "n": n,
        "max_mismatches": max_mismatches, "seconds": round(seconds, 3),
        "items_with_overlap": len(best),
        "max_rate_per_item": {item: {"domain": o.domain, "rate": o.result.rate}
                              for item, o in best.items()},
        "top_overlaps": [o.to_dict(spans=rank < show_spans) for rank, o in enumerate(listed)],
        "skipped": skipped,
    }
    if output is not None:
        _write_json(output, {**data, "overlaps": [o.to_dict(spans=False)
                                                  for o in comparison.overlaps]})
    if as_json:
        print_json(data)
        return
    table = Table(title=f"Top overlaps of {escape(str(path))} with {escape(dataset_name)} "
                        f"({n}-grams, <= {max_mismatches} mismatches)",
                  caption=CONTENT_TOKENS, caption_justify="left")
    for column, justify in (("#", "right"), ("corpus item", "left"), ("gold domain", "left"),
                            ("rate", "right"), ("content tokens", "right")):
        table.add_column(column, justify=cast(JustifyMethod, justify))
    for rank, overlap in enumerate(listed, 1):
        result = overlap.result
        table.add_row(str(rank), escape(overlap.item), escape(overlap.domain),
                      f"{result.rate:.3f}", f"{result.contaminated}/{result.counted}")
    if listed:
        print_table(console, table, keep=2)
    say(f"{count_of(len(corpus), 'corpus item')} x {count_of(len(references), 'gold domain')} = "
        f"{count_of(comparison.pairs, 'pair')} in {seconds:.2f}s; {count_of(len(best), 'item')} "
        f"{'overlaps' if len(best) == 1 else 'overlap'} some domain" + ("" if listed else " (no overlaps found)"))
    for overlap in listed[:show_spans]:
        _print_spans(f"{overlap.item} vs {overlap.domain}", overlap.result)


def _print_spans(title: str, result, spans: int = 3) -> None:
    console.print(f"\n[bold]{escape(title)}[/]: rate {result.rate:.3f} "
                  f"({result.contaminated}/{result.counted} content tokens)", highlight=False)
    for span in result.spans[:spans]:
        for label, colour, text in (("gold", "cyan", span.reference_text),
                                    ("candidate", "magenta", span.candidate_text)):
            console.print(f"  [{colour}]{label:<9}[/] {escape(_excerpt(text))}",
                          highlight=False, soft_wrap=True)
    if len(result.spans) > spans:
        console.print(f"  ... {len(result.spans) - spans} more spans", highlight=False)


def _write_json(path: Path, data: dict) -> None:
    from text2world.files import atomic_write_text

    try:
        atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                          what="--output")
    except OSError as err:
        fail(str(err))
