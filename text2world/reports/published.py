"""Published result tables, and a run's figures beside them (``t2w report RUN --against NAME``).

A table is one JSON file (``text2world/reports/published/NAME.json`` in the package, or
``$T2W_HOME/published/NAME.json``, or any path), documented in the README:

    {"name": ..., "family": "paper"?, "title": ...,
     "source": {"paper", "arxiv", "version"?, "table", "url"},
     "conditions": {"mode": "paper", "description": "abstract", "prompt": "zero-shot"},
     "scale": "percent" | "fraction",
     "settings": {"EC_0": 0, "EC_3": 3},        # setting -> correction round of a run
     "rows": [{"model", "setting", "metric", "value", "source"?}, ...]}

The package ships the Text2World paper's tables (arXiv 2502.13092: Table 1, abstract zero-shot;
Table 6, concrete; Table 2's in-context rows, 2-shot), all of family ``paper``. Asked for a
family (``--against paper``), the table whose conditions (description, prompt) are the run's
is used, and the result says which and why.

A row is matched to a run through the model aliases: the run's ``--model`` (an alias such as
``deepseek-r1``) or its litellm model is the row's model or resolves to the same litellm
model. Reference models are never matched. Each published value is set beside our mean at the
same round, with our 95% interval; a value outside the interval is flagged.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Mapping

from text2world.engine.kinds import kind_names, kind_spec, spec_of
from text2world.engine.run_reader import open_run
from text2world.engine.run_store import RunError, kind_of
from text2world.errors import PublishedError  # its home is below the error-code table; found here too
from text2world.stats import bootstrap_mean
from text2world.tasks.generation.intervals import generation_samples
from text2world.tasks.generation.records import config_ec, generation_items

PACKAGE_TABLES = Path(__file__).resolve().parent / "published"
ROW_KEYS = ("model", "setting", "metric", "value")


def user_tables_dir() -> Path:
    from text2world.store.datasets import home_dir

    return home_dir() / "published"


def _table_paths() -> dict[str, Path]:
    """Every table file by name; the user's folder hides a package table of the same name."""
    paths = {p.stem: p for p in PACKAGE_TABLES.glob("*.json")}
    if user_tables_dir().is_dir():
        paths.update({p.stem: p for p in user_tables_dir().glob("*.json")})
    return dict(sorted(paths.items()))


def table_names() -> list[str]:
    return list(_table_paths())


def family_names() -> list[str]:
    """The families of the tables (``paper``), each a name ``--against`` accepts."""
    return sorted({str(t["family"]) for t in list_tables() if t.get("family")})


def list_tables() -> list[dict]:
    """Every table, without its rows: name, family, title, source, conditions, settings,
    metrics, the models it has rows for and its row count (``GET /v1/published``)."""
    listed = []
    for name in table_names():
        table = load_table(name)
        listed.append({**{key: table.get(key) for key in (
            "name", "family", "title", "source", "conditions", "scale", "settings", "metrics")},
            "models": list(dict.fromkeys(row["model"] for row in table["rows"])),
            "rows": len(table["rows"])})
    return listed


def published_index() -> dict:
    """The families and every table without its rows (``GET /v1/published``, MCP)."""
    return {"families": family_names(), "tables": list_tables()}


def choose_table(name: str, config: Mapping[str, Any]) -> tuple[dict, str]:
    """The table ``name`` names for a run of ``config``, and a line saying which and why.
    ``config``: a ``RunConfig``, or any JSON object (the API passes a listed run's config as
    read, unchecked; a table's conditions name any of its keys).

    ``name`` is a table, a path, or a family: of a family's tables, the one whose conditions
    (description, prompt) are all the run's; else the one with most of them, the family's
    first by name on a tie (Text2World's Table 1)."""
    if name.endswith(".json") or name in _table_paths():
        table = load_table(name)
        return table, f"{table.get('name') or name}, as asked"
    members = [load_table(n) for n in table_names()
               if not n.endswith(".json") and load_table(n).get("family") == name]
    if not members:
        return load_table(name), ""  # raises: no such table or family

    def agreeing(table: dict) -> list[str]:
        return [f"{key}={value}" for key, value in (table.get("conditions") or {}).items()
                if key != "mode" and run_condition(config, key) == value]

    best = max(members, key=lambda t: len(agreeing(t)))  # max keeps the first on a tie
    wanted = [k for k in (best.get("conditions") or {}) if k != "mode"]
    source = best.get("source") or {}
    how = (f"the run's {', '.join(agreeing(best))}" if len(agreeing(best)) == len(wanted)
           else "no table of the family has the run's conditions: the closest")
    return best, f"{source.get('table') or best.get('name')} ({best.get('name')}): {how}"


def run_condition(config: Mapping[str, Any], key: str) -> object:
    """A run's value of a table condition; runs made before prompts were recorded were
    zero-shot on abstract descriptions."""
    return config.get(key) or {"description": "abstract", "prompt": "zero-shot"}.get(key)


def load_table(name_or_path: str) -> dict:
    """A table by name (the user's folder first, then the package) or by path, checked."""
    candidates = [Path(name_or_path)] if name_or_path.endswith(".json") else [
        user_tables_dir() / f"{name_or_path}.json", PACKAGE_TABLES / f"{name_or_path}.json"]
    path = next((c for c in candidates if c.is_file()), None)
    if path is None:
        raise PublishedError(f"no published table {name_or_path!r} (known: "
                             f"{', '.join(family_names() + table_names()) or 'none'}; add one as "
                             f"{user_tables_dir()}/NAME.json)")
    try:
        table = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise PublishedError(f"{path}: not a readable JSON table ({err})") from None
    if not isinstance(table, dict) or not isinstance(table.get("rows"), list):
        raise PublishedError(f"{path}: a table is an object with a list of rows")
    settings = table.get("settings") or {"EC_0": 0}
    for number, row in enumerate(table["rows"], 1):
        missing = [key for key in ROW_KEYS if key not in row]
        if missing:
            raise PublishedError(f"{path}: row {number} lacks {', '.join(missing)} "
                                 f"(a row is {{{', '.join(ROW_KEYS)}, source}})")
        if row["setting"] not in settings:
            raise PublishedError(f"{path}: row {number}: setting {row['setting']!r} is not one "
                                 f"of the table's settings ({', '.join(settings)})")
        if not isinstance(row["value"], (int, float)):
            raise PublishedError(f"{path}: row {number}: value {row['value']!r} is not a number")
    return {**table, "settings": settings, "path": str(path)}


def _litellm_of(name: str) -> str | None:
    from text2world.model.client import load_model_aliases

    try:
        spec = load_model_aliases().get(name)
    except Exception:  # noqa: BLE001 - a broken user models.toml only stops alias matching
        return None
    return spec.get("model") if isinstance(spec, dict) else None


def matching_model(config: Mapping[str, Any], table: dict) -> str | None:
    """The table's model that the run's model is (through the aliases); None if none, and
    always None for a reference model."""
    model = str(config.get("model") or "")
    if config.get("reference_model") or model.startswith("reference/"):
        return None
    ours = {model, str(config.get("litellm_model") or ""), _litellm_of(model) or ""} - {""}
    for name in dict.fromkeys(row["model"] for row in table["rows"]):
        if name in ours or (_litellm_of(name) or name) in ours:
            return name
    return None


def against(path: Path, name: str = "paper") -> dict:
    """The run's figures beside the published row of its model."""
    try:
        run = open_run(path)
        items = generation_items(run.scored_items())
    except RunError as err:
        raise PublishedError(str(err)) from None
    table, chosen = choose_table(name, run.config)
    if not spec_of(run.kind).published_tables:
        raise PublishedError(f"{path} is a {run.kind} run; published tables hold "
                             f"{_published_kinds()} figures")
    conditions = table.get("conditions") or {}
    mode = conditions.get("mode", "paper")
    notes = [f"{key}: the table's is {value!r}, the run's {run.config.get(key)!r}"
             for key, value in conditions.items()
             if key != "mode" and run_condition(run.config, key) != value]
    scale = 100.0 if table.get("scale", "percent") == "percent" else 1.0
    model = matching_model(run.config, table)
    result = {"table": {k: table.get(k) for k in ("name", "family", "title", "source",
                                                  "conditions", "missing", "path")},
              "asked": name, "chosen": chosen, "run_id": run.run_id, "model": run.config.get("model"), "matched": model,
              "mode": mode, "notes": notes, "rows": []}
    if model is None:
        result["reason"] = ("reference models are never matched to a published row"
                            if run.config.get("reference_model") else
                            f"{(table.get('source') or {}).get('table') or table.get('name')} "
                            f"has no row for {run.config.get('model')!r}"
                            + (f" ({len(table['rows'])} rows)" if table["rows"] else
                               " (it holds no published value yet: "
                               + str(table.get("missing") or "") + ")"))
        return result
    ec = config_ec(run.config)
    for row in (r for r in table["rows"] if r["model"] == model):
        round_index = table["settings"][row["setting"]]
        entry = {"setting": row["setting"], "metric": row["metric"],
                 "published": float(row["value"]) / scale, "source": row.get("source")}
        if round_index > ec:
            entry.update(status="not run", note=f"the run has rounds up to EC_{ec}")
        else:
            values = list(generation_samples(items, mode, round_index, row["metric"]).values())
            interval = bootstrap_mean(values)
            entry["ours"] = interval.as_dict()
            entry["status"] = ("no figure" if interval.mean is None else
                               "outside" if interval.excludes(entry["published"]) else "within")
        result["rows"].append(entry)
    result["outside"] = sum(1 for r in result["rows"] if r["status"] == "outside")
    return result


def _published_kinds() -> str:
    """The kinds whose runs published tables hold figures of, as messages name them."""
    return " and ".join(kind_spec(kind).title or kind for kind in kind_names()
                        if kind_spec(kind).published_tables)


def published_row(config: Mapping[str, Any], name: str = "paper") -> dict | None:
    """The published figures of a generation run's model (no scores read: what a run's JSON
    carries): the table chosen for its conditions, and its rows of the run's model, or why
    there are none. None for runs of other tasks."""
    if not spec_of(kind_of(config)).published_tables:
        return None
    table, chosen = choose_table(name, config)
    source = table.get("source") or {}
    model = matching_model(config, table)
    result: dict = {"table": table.get("name"), "source": source, "chosen": chosen,
                    "matched": model}
    if model is None:
        result["reason"] = ("reference models are never matched to a published row"
                            if config.get("reference_model") else
                            f"{source.get('table') or table.get('name')} has no row for "
                            f"{config.get('model')!r}")
        return result
    scale = 100.0 if table.get("scale", "percent") == "percent" else 1.0
    result["rows"] = [{"setting": r["setting"], "metric": r["metric"],
                       "published": float(r["value"]) / scale}
                      for r in table["rows"] if r["model"] == model]
    return result
