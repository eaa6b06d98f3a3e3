"""``t2w contamination``: probe a model for memorised domains, or check a corpus for leakage."""

from __future__ import annotations

import json
import time
from pathlib import Path

import typer
from rich.markup import escape
from rich.table import Table

from ..contamination import (
    DEFAULT_CONCURRENCY,
    DEFAULT_MAX_MISMATCHES,
    DEFAULT_N,
    CorpusError,
    ProbeError,
    compare_corpus,
    probe_model,
    read_corpus,
)
from ..store import DatasetError, load_dataset
from .common import console, err_console, fail, print_json

SPLITS = ("all", "test", "train")


def _shorten(text: str, limit: int = 400) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 3] + "..."


def contamination_command(
    model: str = typer.Option(None, "--model", help="Probe this model (as in t2w eval)."),
    compare: Path = typer.Option(None, "--compare",
                                 help="Corpus to check against the store: a folder of files, a "
                                      "JSONL file or JSON list of records, or one text file."),
    dataset: str = typer.Option("text2world", "--dataset", "-d",
                                help="Gold domains: built-in store, imported name or path."),
    split: str = typer.Option("all", "--split", help="Which gold domains: all, test or train."),
    text_field: str = typer.Option("text", "--text-field",
                                   help="--compare: the record field holding the text (JSONL/JSON)."),
    top: int = typer.Option(20, "--top", help="How many overlaps / domains to list."),
    show_spans: int = typer.Option(3, "--spans",
                                   help="Show the matching spans of this many top results."),
    n: int = typer.Option(DEFAULT_N, "--n", help="n-gram length in GPT-2 tokens."),
    max_mismatches: int = typer.Option(DEFAULT_MAX_MISMATCHES, "--max-mismatches",
                                       help="Mismatched tokens allowed per n-gram."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as JSON."),
    output: Path = typer.Option(None, "--output", "-o",
                                help="Also write the full result (JSON) to this file."),
    # Probe options (same meaning as in t2w eval).
    prompt_tokens: int = typer.Option(20, "--prompt-tokens",
                                      help="Probe: GPT-2 tokens of each gold domain given to the model."),
    limit: int = typer.Option(None, "--limit", help="Probe: only the first N gold domains."),
    concurrency: int = typer.Option(None, "--concurrency", "-j",
                                    help="Probe: parallel model requests."),
    run_id: str = typer.Option(None, "--run-id", help="Probe: name of the run folder."),
    resume: str = typer.Option(None, "--resume", help="Probe: resume this run id."),
    api_base: str = typer.Option(None, "--api-base", help="Probe: OpenAI-compatible base URL."),
    no_cache: bool = typer.Option(False, "--no-cache", help="Probe: do not use the response cache."),
    temperature: float = typer.Option(None, "--temperature", help="Probe: sampling temperature."),
    max_tokens: int = typer.Option(None, "--max-tokens", help="Probe: longest continuation."),
) -> None:
    """Token n-gram contamination (paper section 3.4).

    --model probes a model: it continues each gold domain from its first 20 GPT-2 tokens and
    the continuation is compared with the gold. --compare scores every file or record of a
    corpus against every gold domain and lists the top overlaps (benchmark leakage check).
    """
    if (model is None) == (compare is None):
        fail("give exactly one of --model MODEL (probe a model) or --compare PATH (check a corpus)")
    if split not in SPLITS:
        fail(f"unknown split {split!r}; choose one of: {', '.join(SPLITS)}")
    if n < 1:
        fail(f"--n must be at least 1, not {n}")
    if max_mismatches < 0:
        fail(f"--max-mismatches must be 0 or more, not {max_mismatches}")
    if top < 0 or show_spans < 0:
        fail("--top and --spans must be 0 or more")
    try:
        gold = load_dataset(dataset)
    except DatasetError as err:
        fail(str(err))
    records = gold.split(split)
    if not records:
        fail(f"dataset {gold.name!r} has no {split} domains")
    if compare is not None:
        _compare(compare, gold.name, records, text_field, top, show_spans, n, max_mismatches,
                 as_json, output)
        return
    _probe(model=model, dataset=gold, records=records, split=split, top=top, show_spans=show_spans,
           n=n, max_mismatches=max_mismatches, as_json=as_json, output=output,
           prompt_tokens=prompt_tokens, limit=limit, concurrency=concurrency, run_id=run_id,
           resume=resume, api_base=api_base, no_cache=no_cache, temperature=temperature,
           max_tokens=max_tokens)


def _probe(*, model: str, dataset, records, split: str, top: int, show_spans: int, n: int,
           max_mismatches: int, as_json: bool, output: Path | None, prompt_tokens: int,
           limit: int | None, concurrency: int | None, run_id: str | None, resume: str | None,
           api_base: str | None, no_cache: bool, temperature: float | None,
           max_tokens: int | None) -> None:
    if limit is not None and limit < 1:
        fail(f"--limit must be at least 1, not {limit}")
    if run_id and resume and run_id != resume:
        fail("give either --run-id or --resume, not both")
    shown = {"last": -1}

    def progress(done: int, total: int) -> None:
        # A line every ~10% keeps logs readable for long runs.
        step = max(1, total // 10)
        if done == total or done // step != shown["last"] // step:
            err_console.print(f"probe: {done}/{total} domains", highlight=False)
        shown["last"] = done

    try:
        result = probe_model(
            model, dataset, records, run_id=run_id, resume=resume,
            concurrency=concurrency or DEFAULT_CONCURRENCY, api_base=api_base,
            read_cache=not no_cache, temperature=0.0 if temperature is None else temperature,
            max_tokens=max_tokens, prompt_tokens=prompt_tokens, n=n,
            max_mismatches=max_mismatches, limit=limit, top=max(top, show_spans), split=split,
            progress=None if as_json else progress)
    except ProbeError as err:
        fail(str(err))
    summary = result.summary
    if output is not None:
        _write_json(output, summary)
    if as_json:
        print_json({**summary, "run_path": str(result.run_path),
                    "histogram_path": str(result.histogram) if result.histogram else None})
        return
    table = Table(title=f"Contamination of {summary['model']} on {summary['dataset']} "
                        f"(first {prompt_tokens} tokens given; {n}-grams, "
                        f"<= {max_mismatches} mismatches)")
    for column, justify in (("#", "right"), ("domain", "left"), ("name", "left"),
                            ("rate", "right"), ("tokens", "right")):
        table.add_column(column, justify=justify)
    for rank, row in enumerate(summary["per_domain"][:top], 1):
        table.add_row(str(rank), escape(row["item"]), escape(row["name"]), f"{row['rate']:.3f}",
                      f"{row['contaminated']}/{row['counted']}")
    if top:
        console.print(table)
    mean = summary["mean_rate"]
    console.print(f"mean contamination rate: {mean:.3f} over {summary['finished_items']} of "
                  f"{summary['planned_items']} domains" if mean is not None else
                  "no domain finished", highlight=False)
    console.print(f"run: {result.run_path}" + (" (resumed)" if result.resumed else ""),
                  highlight=False, soft_wrap=True)
    if result.histogram:
        console.print(f"histogram: {result.histogram}", highlight=False, soft_wrap=True)
    if result.errors:
        console.print(f"[yellow]{len(result.errors)} domains failed for infrastructure "
                      f"reasons[/] ({', '.join(summary['infrastructure_error_items'][:10])}); "
                      f"retry them with: t2w contamination --model {model} --resume "
                      f"{result.run_path.name}", highlight=False)
    for row in summary["most_contaminated"][:show_spans]:
        _print_spans(f"{row['item']} ({row['name']})", result.results[row["item"]])
    if result.errors:
        raise typer.Exit(2)


def _compare(path: Path, dataset_name: str, records, text_field: str, top: int,
             show_spans: int, n: int, max_mismatches: int, as_json: bool,
             output: Path | None) -> None:
    try:
        corpus, skipped = read_corpus(path, text_field)
    except CorpusError as err:
        fail(str(err))
    for note in skipped:
        err_console.print(f"[yellow]skipped[/] {note}", highlight=False)
    references = [(record.id, record.domain) for record in records]
    started = time.perf_counter()
    comparison = compare_corpus(corpus, references, n=n, max_mismatches=max_mismatches,
                                spans_for_top=max(top, show_spans))
    seconds = time.perf_counter() - started
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
    table = Table(title=f"Top overlaps of {path} with {dataset_name} "
                        f"({n}-grams, <= {max_mismatches} mismatches)")
    for column, justify in (("#", "right"), ("corpus item", "left"), ("gold domain", "left"),
                            ("rate", "right"), ("tokens", "right")):
        table.add_column(column, justify=justify)
    for rank, overlap in enumerate(listed, 1):
        result = overlap.result
        table.add_row(str(rank), escape(overlap.item), escape(overlap.domain), f"{result.rate:.3f}",
                      f"{result.contaminated}/{result.counted}")
    if listed:
        console.print(table)
    console.print(f"{len(corpus)} corpus items x {len(references)} gold domains = "
                  f"{comparison.pairs:,} pairs in {seconds:.2f}s; {len(best)} items overlap "
                  f"some domain" + ("" if listed else " (no overlaps found)"), highlight=False)
    for overlap in listed[:show_spans]:
        _print_spans(f"{overlap.item} vs {overlap.domain}", overlap.result)


def _print_spans(title: str, result, spans: int = 3) -> None:
    console.print(f"\n[bold]{escape(title)}[/]: rate {result.rate:.3f} "
                  f"({result.contaminated}/{result.counted} tokens)", highlight=False)
    for span in result.spans[:spans]:
        console.print(f"  [cyan]gold[/]      {escape(_shorten(span.reference_text))}", highlight=False,
                      markup=True, soft_wrap=True)
        console.print(f"  [magenta]candidate[/] {escape(_shorten(span.candidate_text))}",
                      highlight=False, soft_wrap=True)
    if len(result.spans) > spans:
        console.print(f"  ... {len(result.spans) - spans} more spans", highlight=False)


def _write_json(path: Path, data: dict) -> None:
    from ..store import atomic_write_text

    try:
        atomic_write_text(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    except OSError as err:
        fail(f"cannot write {path}: {err.strerror}")
