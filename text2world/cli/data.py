"""``t2w data``: list, show, stats, curate, import, export datasets and regenerate the manifest."""

from __future__ import annotations

import json
import statistics
from collections import Counter
from pathlib import Path

import typer
from rich import box
from rich.table import Table

from text2world.cli.common import console, err_console, fail, print_json, say, warn
from text2world.files import InputFileError, read_input_text
from text2world.reports.rendering import count_of, print_table
from text2world.store.curation import CurationError, CurationReport, curate_dir
from text2world.store.datasets import (
    BUILTIN,
    MAX_DATASET_FILE_BYTES,
    Dataset,
    DatasetError,
    Record,
    atomic_write_text,
    data_dir,
    export_jsonl,
    import_dataset,
    load_dataset,
)
from text2world.store.manifest import build_manifest, domain_facts, manifest_differences, write_manifest

app = typer.Typer(help="The datasets: the built-in store, imported datasets, curation.",
                  no_args_is_help=True)

DATASET_OPTION = typer.Option(BUILTIN, "--dataset", "-d",
                              help="Built-in store (text2world), an imported name, or a path.")
EXPORT_FORMATS = ("jsonl", "released", "hf")


def _load(name: str) -> Dataset:
    try:
        return load_dataset(name)
    except DatasetError as err:
        fail(str(err))


def _facts(record: Record) -> dict:
    """Sizes of a record's domain: from the store manifest when there, else parsed now."""
    if "predicates" in record.meta and "tokens" in record.meta:
        return {**record.meta, "parses": True}
    return domain_facts(record.domain)


@app.command("list")
def list_command(
    dataset: str = DATASET_OPTION,
    split: str = typer.Option("all", "--split", help="train, test or all."),
    as_json: bool = typer.Option(False, "--json", help="Print the list as JSON."),
) -> None:
    """List the domains of a dataset with their sizes."""
    if split not in ("train", "test", "all"):
        fail(f"unknown split {split!r}; choose train, test or all")
    data = _load(dataset)
    rows = []
    for record in data.split(split):
        facts = _facts(record)
        rows.append({"id": record.id, "name": record.name, "split": record.split,
                     "category": record.meta.get("category"), "family": record.family,
                     "predicates": facts.get("predicates"), "actions": facts.get("actions"),
                     "tokens": facts.get("tokens"), "problems": len(record.problems),
                     "concrete": record.concrete is not None})
    if as_json:
        print_json(rows)
        return
    print_table(console, _list_table(f"{data.name}: {count_of(len(rows), 'domain')} ({split})", rows,
                              console.width))
    console.print("preds: predicates, acts: actions, probs: problems; t2w data show ID for one "
                  "domain", highlight=False)


def _list_table(title: str, rows: list[dict], width: int) -> Table:
    """The domain list, readable at 80 columns: ids never wrap or shrink (every command takes
    them); a long category folds; the name (a title; --json has it) only where it fits.
    Generated worlds show their family where the store shows its category."""
    group = "family" if any(row["family"] for row in rows) else "category"
    cells = [[row["id"], row["split"], row[group] or "", _cell(row["predicates"]),
              _cell(row["actions"]), _cell(row["tokens"]), str(row["problems"])]
             for row in rows]
    headers = ["id", "split", group, "preds", "acts", "tokens", "probs"]
    widths = [max([len(header)] + [len(cell[i]) for cell in cells])
              for i, header in enumerate(headers)]
    show_name = width - (sum(widths) + 2 * len(widths)) >= 16
    table = Table(title=title, box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False,
                  padding=(0, 1), collapse_padding=True, title_justify="left")
    table.add_column("id", no_wrap=True, min_width=widths[0])
    table.add_column("split", no_wrap=True)
    table.add_column(group, overflow="fold", min_width=10)
    for header in headers[3:]:
        table.add_column(header, justify="right", overflow="fold")
    if show_name:
        table.add_column("name", overflow="fold")
    for row, cell in zip(rows, cells):
        table.add_row(*cell, *([row["name"]] if show_name else []))
    return table


def _cell(value) -> str:
    return "-" if value is None else str(value)


@app.command("show")
def show_command(
    record_id: str = typer.Argument(..., metavar="ID", help="Domain id (see t2w data list)."),
    concrete: bool = typer.Option(False, "--concrete", help="Show the concrete description."),
    dataset: str = DATASET_OPTION,
    as_json: bool = typer.Option(False, "--json", help="Print the record as JSON."),
) -> None:
    """Show one domain: its description (abstract unless --concrete) and gold PDDL."""
    data = _load(dataset)
    try:
        record = data.get(record_id)
    except KeyError as err:
        fail(err.args[0])
    kind = "concrete" if concrete else "abstract"
    description = record.description(kind)
    if description is None:
        fail(f"dataset {data.name!r}: domain {record.id!r} has no {kind} description")
    if as_json:
        print_json({"id": record.id, "name": record.name, "split": record.split,
                    "description_kind": kind, "description": description,
                    "domain": record.domain, "problems": [p.name for p in record.problems]})
        return
    console.rule(f"{record.id}: {record.name} ({record.split})")
    console.print(f"[bold]{kind} description[/]")
    console.print(description, markup=False, highlight=False)
    console.print("[bold]gold domain[/]")
    console.print(record.domain, markup=False, highlight=False)
    if record.problems:
        console.print("[bold]problems[/]: " + ", ".join(p.name for p in record.problems))


def _summary(values: list[int]) -> dict:
    if not values:
        return {"min": None, "mean": None, "median": None, "max": None}
    return {"min": min(values), "mean": round(statistics.mean(values), 1),
            "median": statistics.median(values), "max": max(values)}


def _spread(values: list[int]) -> tuple[str, ...]:
    return tuple("-" if v is None else f"{v:g}" for v in _summary(values).values())


def dataset_stats(data: Dataset) -> dict:
    """Counts, requirement distribution, sizes and token lengths of a dataset."""
    from text2world.store.tokens import count_gpt2_tokens
    facts = [_facts(r) for r in data.records]
    parsed = [f for f in facts if f.get("parses")]
    requirements = Counter(req for f in parsed for req in f.get("requirements", []))
    sizes = {key: [f[key] for f in parsed] for key in ("types", "predicates", "actions")}
    tokens = {"domain": [f["tokens"] for f in facts]}
    for kind in ("abstract", "concrete"):
        tokens[kind] = [count_gpt2_tokens(text) for r in data.records
                        if (text := r.description(kind)) is not None]
    return {
        "dataset": data.name, "domains": len(data.records),
        "splits": dict(Counter(r.split for r in data.records)),
        "categories": dict(Counter(r.meta.get("category") or "-" for r in data.records)),
        "unparsable": [r.id for r, f in zip(data.records, facts) if not f.get("parses")],
        "problems": sum(len(r.problems) for r in data.records),
        "requirements": dict(requirements.most_common()),
        "sizes": sizes, "tokens": tokens,
    }


@app.command("stats")
def stats_command(
    dataset: str = DATASET_OPTION,
    as_json: bool = typer.Option(False, "--json", help="Print the statistics as JSON."),
    audit: bool = typer.Option(False, "--audit", help="Store audit: lint, actions needed by no "
                               "problem, write-only predicates, sizes and features vs --released."),
    released: Path | None = typer.Option(None, "--released", help="Released Text2World JSON "
                                         "to compare with (with --audit)."),
    solve: bool = typer.Option(False, "--solve", help="With --audit: solve what the necessity "
                               "cache lacks with Fast Downward (slow)."),
) -> None:
    """Counts, requirement distribution, sizes and token lengths of a dataset."""
    if released is not None and not audit:
        fail(f"--released {released}: compared with by --audit only; add --audit")
    if audit:
        _audit(dataset, released, solve, as_json)
        return
    data = _load(dataset)
    stats = dataset_stats(data)
    if as_json:
        summary = dict(stats)
        summary["sizes"] = {k: _summary(v) for k, v in stats["sizes"].items()}
        summary["tokens"] = {k: _summary(v) for k, v in stats["tokens"].items()}
        print_json(summary)
        return
    counts = Table(title=f"{data.name}: counts")
    counts.add_column("what")
    counts.add_column("number", justify="right")
    counts.add_row("domains", str(stats["domains"]))
    for split, number in sorted(stats["splits"].items()):
        counts.add_row(f"split {split}", str(number))
    counts.add_row("problems", str(stats["problems"]))
    counts.add_row("not parsable by tarski", str(len(stats["unparsable"])))
    print_table(console, counts)
    if any(k != "-" for k in stats["categories"]):
        categories = Table(title="categories")
        categories.add_column("category")
        categories.add_column("domains", justify="right")
        for name, number in sorted(stats["categories"].items(), key=lambda kv: -kv[1]):
            categories.add_row(name, str(number))
        print_table(console, categories)
    parsed = stats["domains"] - len(stats["unparsable"])
    requirements = Table(title="requirements")
    requirements.add_column("requirement")
    requirements.add_column("domains", justify="right")
    requirements.add_column("share", justify="right")
    for name, number in stats["requirements"].items():
        requirements.add_row(name, str(number), f"{number / max(parsed, 1):.0%}")
    print_table(console, requirements)
    sizes = Table(title="sizes and GPT-2 token lengths")
    for column in ("", "min", "mean", "median", "max"):
        sizes.add_column(column, justify="right" if column else "left")
    for key, values in stats["sizes"].items():
        sizes.add_row(key, *_spread(values))
    for key, values in stats["tokens"].items():
        sizes.add_row(f"tokens {key}", *_spread(values))
    print_table(console, sizes)


def _audit(dataset: str, released: Path | None, solve: bool, as_json: bool) -> None:
    from text2world.store.audit import audit_lines, store_audit
    root = data_dir() if dataset == BUILTIN else Path(dataset)
    if not (root / "domains").is_dir():
        fail(f"--audit needs a store folder (domains/, problems/, descriptions/): {root}")
    try:
        result = store_audit(root, released, solve=solve)
    except DatasetError as err:
        fail(str(err))
    if as_json:
        print_json(result)
        return
    for line in audit_lines(result):
        typer.echo(line)
    for record_id, names in result["store"]["write_only"].items():
        typer.echo(f"write-only in {record_id}: {', '.join(names)}")


def print_curation_report(report: CurationReport) -> None:
    table = Table(title=f"curation of {report.source}: {len(report.kept)} of {report.files} "
                        "files kept")
    table.add_column("file")
    table.add_column("dropped by")
    table.add_column("why")
    for item in report.dropped:
        table.add_row(item.file, item.step, item.reason)
    counts = ", ".join(f"{step} {number}" for step, number in report.counts().items())
    if report.dropped:
        print_table(console, table)
    else:
        console.print(f"curation of {report.source}: all {report.files} files kept")
    console.print(f"dropped per step: {counts}", highlight=False)


@app.command("curate")
def curate_command(
    source: Path = typer.Argument(..., metavar="SRC_DIR", help="Folder of raw .pddl domain files."),
    out: Path = typer.Option(..., "--out", "-o", help="Folder for the survivors and the report."),
    force: bool = typer.Option(False, "--force", help="Replace a non-empty --out folder."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
) -> None:
    """Curation pipeline: tarski validation, TF-IDF dedup, complexity, token length."""
    try:
        report = curate_dir(source, out, force=force)
    except (CurationError, DatasetError) as err:
        fail(str(err))
    except OSError as err:
        fail(f"cannot write {out}: {err.strerror or err}")
    if as_json:
        print_json(report.to_dict())
    else:
        print_curation_report(report)
        console.print(f"survivors and curation-report.json written to {out}", highlight=False)


@app.command("import")
def import_command(
    path: Path = typer.Argument(..., help="Released Text2World JSON, JSONL, or a Hugging Face "
                                          "dataset folder saved with `datasets`."),
    name: str = typer.Option(..., "--name", "-n", help="Name to use with --dataset."),
) -> None:
    """Import a dataset into the user data directory (never into the repository)."""
    try:
        data = import_dataset(path, name)
    except DatasetError as err:
        fail(str(err))
    except OSError as err:
        fail(f"{path}: cannot be read ({err.strerror or err})")
    splits = Counter(r.split for r in data.records)
    console.print(f"imported {len(data)} records as {name!r} "
                  f"({', '.join(f'{k} {v}' for k, v in sorted(splits.items()))}) into {data.source}",
                  highlight=False)


def released_jsonl(data: Dataset) -> str:
    """Records in the released Text2World field names; ``t2w data import`` reads them back."""
    lines = []
    for record in data.records:
        raw = {"id": record.id, "file_name": record.name, "split": record.split,
               "pddl_domain": record.domain, "corrected_description": record.abstract}
        if record.concrete is not None:
            raw["concrete_description"] = record.concrete
        lines.append(json.dumps(raw, ensure_ascii=False) + "\n")
    return "".join(lines)


@app.command("export")
def export_command(
    names: list[str] = typer.Argument(None, metavar="[NAME] [DIR]",
                                      help="Dataset name or path (default: the built-in store); "
                                           "with --format hf, then the folder to write."),
    fmt: str = typer.Option("jsonl", "--format", "-f",
                            help="jsonl: id, name, split, domain, descriptions, problems; "
                                 "released: the released Text2World field names (re-importable); "
                                 "hf: a dataset folder for datasets.load_from_disk and "
                                 "load_dataset('parquet', ...), with the datasheet as its card."),
    out: Path | None = typer.Option(None, "--out", "-o", help="File (folder for hf) to write "
                                    "(default stdout)."),
    plans: bool = typer.Option(False, "--plans", help="hf: add each problem's reference plan "
                               "(the store's shipped plans; Fast Downward for any other "
                               "problem, cached on disk)."),
    overwrite: bool = typer.Option(False, "--overwrite", help="hf: replace an earlier export."),
) -> None:
    """Export a dataset as JSON lines, or (--format hf DIR) as a Hugging Face dataset folder."""
    if fmt not in EXPORT_FORMATS:
        fail(f"unknown format {fmt!r}; choose one of: {', '.join(EXPORT_FORMATS)}")
    names = list(names or [])
    if fmt == "hf":
        if out is None and names:
            out = Path(names.pop())
        if out is None:
            fail("--format hf writes a folder: give it, as in t2w data export --format hf DIR")
    if len(names) > 1:
        fail(f"one dataset at a time, not {len(names)}: {' '.join(names)}")
    data = _load(names[0] if names else BUILTIN)
    if fmt == "hf":
        from text2world.integrations.hf_export import ExportError, export_hf

        assert out is not None  # required for --format hf above
        try:
            result = export_hf(data, out, plans=plans, overwrite=overwrite)
        except ExportError as err:
            fail(str(err))
        except OSError as err:
            fail(f"cannot write {out}: {err.strerror or err}")
        splits = ", ".join(f"{split} {rows}" for split, rows in result.splits.items())
        err_console.print(f"{len(data)} records ({splits}) written to {out}"
                          + (f"; {result.plans} reference plans" if plans else ""),
                          highlight=False)
        return
    text = export_jsonl(data) if fmt == "jsonl" else released_jsonl(data)
    if out is None:
        typer.echo(text, nl=False)
        return
    try:
        atomic_write_text(out, text, what="--out")
    except OSError as err:
        fail(str(err))
    err_console.print(f"{len(data)} records written to {out}", highlight=False)


@app.command("manifest")
def manifest_command(
    check: bool = typer.Option(False, "--check",
                               help="Only report whether data/manifest.json is up to date."),
) -> None:
    """(Maintainers) regenerate data/manifest.json from the store files and catalog."""
    root = data_dir()
    try:
        if check:
            differences = manifest_differences(root)
            for line in differences:
                console.print(line, markup=False, highlight=False)
            if differences:
                fail(f"{root / 'manifest.json'} is out of date: run t2w data manifest")
            console.print("manifest is up to date")
            return
        path, manifest, warnings = write_manifest(root)
    except DatasetError as err:
        fail(str(err))
    for warning in warnings:
        warn(warning)
    say(f"{path}: {count_of(len(manifest['domains']), 'domain')}")


@app.command("lint")
def lint_command(
    ids: list[str] = typer.Argument(None, metavar="[ID]...",
                                    help="Store ids to lint (default: all)."),
    released: Path | None = typer.Option(
        None, "--released", help="Instead, measure a released Text2World JSON file "
                                 "(its corrected_description fields) with the same phrases."),
    show_all: bool = typer.Option(False, "--all", help="Print every finding, also of passing "
                                                       "files."),
    as_json: bool = typer.Option(False, "--json", help="Print results and figures as JSON."),
) -> None:
    """Abstract descriptions that state rules, effects or counter transitions (exit 1 if any)."""
    from text2world.store.lint import corpus_figures, lint_records, lint_store
    if released is not None:
        try:
            raw = json.loads(read_input_text(released, "--released", MAX_DATASET_FILE_BYTES))
        except InputFileError as err:
            fail(str(err))
        except ValueError as err:
            fail(f"{released}: cannot read a released JSON list ({err})")
        if not isinstance(raw, list) or not all(isinstance(r, dict) for r in raw):
            fail(f"{released}: expected a JSON list of records")
        results = lint_records((f"{released.name}#{r.get('id', i)}",
                                str(r.get("corrected_description") or ""))
                               for i, r in enumerate(raw))
    else:
        root = data_dir()
        known = {p.stem for p in (root / "domains").glob("*.pddl")}
        unknown = [i for i in ids or [] if i not in known]
        if unknown:
            fail(f"unknown store id(s): {', '.join(unknown)} (see t2w data list)")
        results = lint_store(root, ids or None)
    figures = corpus_figures(results)
    if as_json:
        print_json({"figures": figures, "files": [
            {"path": r.path, "ok": r.ok, "failures": r.failures,
             "findings": [vars(f) for f in r.findings]} for r in results]})
    else:
        for result in results:
            if result.ok and not show_all:
                continue
            status = "ok" if result.ok else "FAIL " + "; ".join(result.failures)
            typer.echo(f"{result.path}: {status}")  # unwrapped: one finding per line
            for finding in (result.findings if show_all else result.offending()):
                typer.echo(f"  {finding}")
        say("figures: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in figures.items()))
    if released is None and figures["failing"]:
        raise typer.Exit(1)


__all__ = ["app", "build_manifest", "dataset_stats", "released_jsonl"]
