"""``t2w data export --format hf DIR``: a dataset as a folder other tools load directly.

The folder holds the same rows twice, in the two forms the ``datasets`` library opens:

* ``dataset_dict.json`` and one Arrow folder per split (``datasets.load_from_disk(DIR)``);
* ``data/<split>-00000-of-00001.parquet`` (``load_dataset("parquet", data_dir=DIR + "/data")``,
  or ``load_dataset(DIR)``, which reads the ``configs`` of the card's YAML header);

and ``README.md``, the dataset card: a YAML header (licence, splits, features) followed by the
datasheet (``data/DATASHEET.md`` for the built-in store) and a table of the fields.

One row per domain, split by the record's split. Reference plans are included when asked for
(``plans=True``): the plans shipped with the store (``data/plans``, ``store.plans``) where one
matches the domain and problem texts, else Fast Downward through
``text2world.tasks.wm.planner.optimal_plan`` (cached on disk by content, so a second export
plans nothing); otherwise each ``reference_plan`` is null.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from text2world.errors import Text2WorldError
from text2world.store.datasets import BUILTIN, Dataset, Problem, Record, data_dir

BUILTIN_LICENSE = "mit"
# Manifest fields that become columns of their own (strata for analyses); the whole manifest
# entry (or an imported record's raw fields) is kept as JSON in ``meta``.
STRATA = ("category", "size_band", "features", "requirements", "tokens", "provenance",
          "family")


class ExportError(Text2WorldError, ValueError):
    """The export cannot be written; the message says why and what to do."""


@dataclass(frozen=True)
class HfExport:
    path: Path
    splits: dict[str, int]  # split -> rows
    plans: int  # problems with a reference plan


def features():
    """The ``datasets.Features`` of a row (one domain)."""
    from datasets import Features, Value

    try:
        from datasets import List
    except ImportError:  # datasets < 4
        from datasets import Sequence as List

    return Features({
        "id": Value("string"), "name": Value("string"), "domain": Value("string"),
        "abstract_description": Value("string"), "concrete_description": Value("string"),
        "problems": List({"name": Value("string"), "pddl": Value("string"),
                          "reference_plan": List(Value("string")),
                          "plan_cost": Value("float64"), "plan_status": Value("string")}),
        "category": Value("string"), "size_band": Value("string"),
        "features": List(Value("string")), "requirements": List(Value("string")),
        "tokens": Value("int64"), "provenance": Value("string"), "family": Value("string"),
        "meta": Value("string"),
    })


def _list_of_text(value: Any) -> list[str] | None:
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return list(value)
    return None


def _strata(record: Record) -> dict:
    meta = record.meta if isinstance(record.meta, dict) else {}
    tokens = meta.get("tokens")
    return {
        "category": meta.get("category") if isinstance(meta.get("category"), str) else None,
        "size_band": meta.get("size_band") if isinstance(meta.get("size_band"), str) else None,
        "features": _list_of_text(meta.get("features")),
        "requirements": _list_of_text(meta.get("requirements")),
        "tokens": tokens if isinstance(tokens, int) and not isinstance(tokens, bool) else None,
        "provenance": meta.get("provenance") if isinstance(meta.get("provenance"), str) else None,
        "family": record.family,
    }


# (record, problem) -> (status, plan steps or None, cost)
PlanFunction = Callable[[Record, Problem], tuple[str, list[str] | None, float | None]]


def row(record: Record, plan: PlanFunction | None = None) -> dict:
    """One domain as a row of ``features()``."""
    problems = []
    for problem in record.problems:
        entry: dict[str, Any] = {"name": problem.name, "pddl": problem.pddl, "reference_plan": None,
                 "plan_cost": None, "plan_status": None}
        if plan is not None:
            status, steps, cost = plan(record, problem)
            entry.update(plan_status=status, reference_plan=steps, plan_cost=cost)
        problems.append(entry)
    return {"id": record.id, "name": record.name, "domain": record.domain,
            "abstract_description": record.abstract, "concrete_description": record.concrete,
            "problems": problems, **_strata(record),
            "meta": json.dumps(record.meta, ensure_ascii=False, sort_keys=True, default=str)}


def _card(dataset: Dataset, splits: dict[str, int], plans: bool) -> str:
    builtin = dataset.name == BUILTIN
    license_id = BUILTIN_LICENSE if builtin else "other"
    header = ["---", f"license: {license_id}", f"pretty_name: text2world ({dataset.name})",
              "tags:", "- pddl", "- planning", "- world-models", "configs:",
              "- config_name: default", "  data_files:"]
    for split in splits:
        header += [f"  - split: {split}", f"    path: data/{split}-*.parquet"]
    header.append("---")
    if builtin:
        sheet = (data_dir() / "DATASHEET.md")
        body = sheet.read_text(encoding="utf-8") if sheet.is_file() else "# text2world store\n"
        licence = ("MIT, as the text2world repository (see the datasheet's Licence section).")
    else:
        body = (f"# {dataset.name}\n\nImported into text2world from `{dataset.source}`.\n")
        licence = ("The records keep the licence of their source (`" + dataset.source + "`); "
                   "text2world adds none. Check it before redistributing this folder.")
    counts = ", ".join(f"{split}: {rows}" for split, rows in splits.items())
    fields = [
        "", "## This export", "",
        f"Exported by `t2w data export --format hf` from dataset `{dataset.name}` "
        f"(content hash `{dataset.content_hash}`). Rows (one per domain): {counts}.", "",
        f"**Licence:** {licence}", "",
        "| field | meaning |", "| --- | --- |",
        "| `id`, `name` | the domain's id and name |",
        "| `domain` | the gold PDDL domain |",
        "| `abstract_description`, `concrete_description` | the descriptions (null when absent) |",
        "| `problems` | name and PDDL of each problem; `reference_plan` (steps), `plan_cost`, "
        "`plan_status`: the plans shipped with the store, from Fast Downward (optimal search, "
        "LAMA past its bound)"
        + ("" if plans else ": null in this export (export with `--plans`)") + " |",
        "| `category`, `size_band`, `features`, `requirements`, `tokens`, `provenance` | the "
        "manifest's strata (null for datasets without a manifest) |",
        "| `family` | a generated world's structural family (null for the store's domains): "
        "hold families out of training with `filter` on it |",
        "| `meta` | the whole manifest entry (or the imported record's own fields) as JSON |", "",
        "Load: `datasets.load_from_disk(DIR)`, `datasets.load_dataset(\"parquet\", "
        "data_dir=DIR + \"/data\")` or `datasets.load_dataset(DIR)`.", ""]
    return "\n".join(header) + "\n" + body.rstrip() + "\n" + "\n".join(fields)


def _reference_plans(timeout: float) -> PlanFunction:
    """Each problem's shipped plan (``data/plans``, or the dataset folder's ``plans/``) where
    one matches the texts, else Fast Downward's, as the world-model tasks plan: optimal first,
    LAMA past the bound."""
    from text2world.store.plans import shipped_plan

    def plan(record: Record, problem: Problem) -> tuple[str, list[str] | None, float | None]:
        shipped = shipped_plan(record, problem.name, problem.pddl)  # its folder's plans first
        if shipped is not None:
            return (shipped.status, list(shipped.plan) if shipped.status == "solved" else None,
                    shipped.cost)
        from text2world.tasks.wm.planner import optimal_plan

        found = optimal_plan(record.domain, problem.pddl, timeout=timeout)
        if found.status == "timeout":
            found = optimal_plan(record.domain, problem.pddl, timeout=timeout, optimal=False)
        return found.status, list(found.plan) if found.plan is not None else None, found.cost

    return plan


def export_hf(dataset: Dataset, out: Path, *, plans: bool = False, plan_timeout: float = 30.0,
              overwrite: bool = False, progress: Callable[[str], None] | None = None) -> HfExport:
    """Write ``dataset`` to the folder ``out`` (see the module docstring). ``out`` must not
    exist, be empty, or (with ``overwrite``) be an earlier export; it is replaced atomically."""
    try:
        import datasets
    except ImportError:
        raise ExportError("exporting a Hugging Face dataset folder needs the 'datasets' package: "
                          "pip install 'text2world[hf]'") from None
    datasets.disable_progress_bars()
    out = Path(out)
    if out.exists():
        if not out.is_dir():
            raise ExportError(f"{out} exists and is not a folder")
        earlier = (out / "dataset_dict.json").is_file()
        if any(out.iterdir()) and not (overwrite and earlier):
            raise ExportError(f"{out} is not empty" + (
                "; pass --overwrite to replace this earlier export" if earlier else
                "; choose a new or empty folder"))
    plan = _reference_plans(plan_timeout) if plans else None
    rows: dict[str, list[dict]] = {}
    for record in dataset.records:
        if progress is not None:
            progress(record.id)
        rows.setdefault(record.split, []).append(row(record, plan))
    order = sorted(rows, key=lambda s: (s != "train", s != "test", s))
    schema = features()
    parent = out.resolve().parent
    parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=parent))
    try:
        splits = datasets.DatasetDict({
            split: datasets.Dataset.from_list(rows[split], features=schema) for split in order})
        splits.save_to_disk(str(staging))
        (staging / "data").mkdir()
        for split in order:
            splits[split].to_parquet(str(staging / "data" / f"{split}-00000-of-00001.parquet"))
        counts = {split: len(rows[split]) for split in order}
        (staging / "README.md").write_text(_card(dataset, counts, plans), encoding="utf-8")
        if out.exists():
            shutil.rmtree(out)
        os.replace(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    with_plan = sum(p["reference_plan"] is not None for split in rows.values() for r in split
                    for p in r["problems"])
    return HfExport(out, counts, with_plan)
