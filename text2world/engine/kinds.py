"""The kinds of run, and what a run of each measures (its identity).

A kind is described once, by its task: a ``KindSpec`` subclass in ``tasks/<kind>/kind.py``
(its name, the command that makes its runs, its identity keys, its task, run page, report and
compare columns, and what the viewer offers for it), registered with ONE line in
``tasks/registry.py``: ``add_kind(name, "module:Class")``, imported the first time something
asks for it (as unified-planning's engine factory maps engine names to classes). The engine,
the reports, the API, the bundle and the CLI ask ``kind_spec(run.kind)`` and never name a kind;
the registry module is imported by the package's facade (``text2world/__init__.py``), so every
process that imports anything of ``text2world`` has the kinds registered, and the engine
imports no task.

``kind_of``/``run_kind`` are the one rule mapping a config to its kind (configs written before
kinds existed, with no ``kind`` or an alias such as ``eval``: the default kind's runs).
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from importlib import import_module
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence

from text2world.engine.run_records import RunError, slug
from text2world.model.credentials import redact

if TYPE_CHECKING:
    from text2world.engine.run_records import ItemRecord, RunConfig, RunSummary, ScoresRecord

# ``engine.run_store.Run`` and ``engine.task.Task``, not imported here: both import this module
# (a descriptor types its own methods with them).
Run = Any
Task = Any

# Every kind's identity starts and ends with the engine's settings (``runner.prepare``); the
# kind's own keys go between (the order the resume message lists differences in).
ENGINE_IDENTITY_HEAD = ("model", "litellm_model", "api_base")
ENGINE_IDENTITY_TAIL = ("generation", "seed")
# The keys every task's ``configure`` writes (``Task``): a kind's identity keys start with them.
TASK_IDENTITY_KEYS = ("dataset", "dataset_hash", "split", "description", "prompt", "prompt_hash")

Columns = dict[str, dict[str, float]]  # column -> item -> value (``t2w compare``'s pairs)


class KindSpec:
    """What the engine, the reports, the API, the bundle and the CLI know of one kind of run.
    A task's ``tasks/<kind>/kind.py`` subclasses it; the defaults are a kind that is listed,
    run, summarised, reported and viewed through the generic paths and is not compared."""

    name: str = ""  # the config's ``kind``
    command: str = "t2w command"  # the command that makes runs of this kind
    title: str = ""  # how messages listing the kinds name it (default: its name)
    # Settings that define what a run measures: resuming with other values would mix two runs;
    # the run id's digest hashes them (changing them renames the kind's runs).
    identity_keys: tuple[str, ...] = TASK_IDENTITY_KEYS
    task_module: str = ""  # defines ``task_from_run(run)`` and ``default_task()``
    page_module: str = ""  # the viewer's run page: ``overview(run, items)``
    # "module:TypedDict" of its log lines (``tasks/<kind>/records.py``): the types it declares
    # are checked where its runs' items are read (``engine.record_checks``); "": the engine's
    # ``ItemRecord``.
    item_record: str = ""
    # ``t2w report`` of runs of this kind: "module:function" taking (runs, options), where the
    # options are the command's (``cli.report.ReportOptions``); "" reports each run's summary.
    report: str = ""
    judges: bool = False  # its model is a judge: only the reference judges answer it offline
    score_modes: tuple[str, ...] = ()  # scoring modes its items carry (``--mode``)
    compared: bool = False  # ``t2w compare`` pairs its runs (``compare_columns``)
    clustered_by_domain: bool = False  # its items share domains: intervals resample domains
    round_diffs: bool = False  # the viewer shows a per-action diff of each logged round
    published_tables: bool = False  # published tables hold figures of its runs (``--against``)
    epoch_curves: bool = False  # a run of several epochs has test-time scaling curves
    inspect_import: bool = False  # ``t2w import-inspect`` converts Inspect logs of its tasks
    _headline_task: Task = None

    # ---- the task and its page
    def task_from_run(self, run: Run) -> Task:
        """The task of ``run``, with the options it was made with."""
        return import_module(self.task_module).task_from_run(run)

    def default_task(self) -> Task:
        """A task with default options: for ``summarize``/``headline`` of records."""
        return import_module(self.task_module).default_task()

    def item_check(self) -> "Callable[[Any], str | None]":
        """What is wrong with one of its log lines (naming the field), or None."""
        from text2world.engine.record_checks import record_check
        from text2world.engine.run_records import ItemRecord

        if not self.item_record:
            return record_check(ItemRecord)
        module, _, name = self.item_record.partition(":")
        return record_check(getattr(import_module(module), name))

    def label(self) -> str:
        """How the viewer titles runs of this kind: its title, else its name and command."""
        return self.title or f"{self.name} ({self.command})"

    def headline(self, summary: "RunSummary") -> dict[str, float | None]:
        """A run's main values (its task's ``headline`` of its summary), as numbers: the
        columns the viewer's leaderboard shows for a kind it has no table of its own for."""
        if self._headline_task is None:  # pure functions of the records: one task serves all
            self._headline_task = self.default_task()
        values = self._headline_task.headline(summary)
        return {str(name): score_number(value) for name, value in values.items()}

    def page(self, run: Run, items: "Sequence[ItemRecord]") -> dict:
        """What the viewer's run page shows of ``run`` and its finished ``items``."""
        return import_module(self.page_module).overview(run, items)

    def item_page(self, run: Run, item: "ItemRecord") -> dict:
        """What the viewer's item page adds to the logged record of one item."""
        return {"task": run.config.get("task") or item.get("task")}

    def with_rescored(self, item: "ItemRecord", scores: "ScoresRecord") -> "ItemRecord":
        """A logged item with its scores of ``scores.jsonl`` (``t2w score-run``) over its own:
        a kind that is never scored again keeps its item."""
        return item

    # ---- t2w compare (and t2w report --by family)
    def compare_columns(self, run: Run, items: "Sequence[ItemRecord]",
                        mode: str) -> tuple[Columns, str]:
        """The run's per-item values (column -> item -> value) and the headline column the
        per-domain tallies use; ``ValueError`` saying why when it has none in ``mode``."""
        raise ValueError(f"runs of kind {self.name!r} cannot be compared")

    def item_domains(self, items: "Sequence[ItemRecord]") -> dict[str, str]:
        """item -> its domain (one item per domain unless the kind says otherwise)."""
        return {str(i["item"]): str(i["item"]) for i in items}

    def check_comparable(self, a: "RunConfig", b: "RunConfig") -> None:
        """``ValueError`` saying why two runs of this kind measure different things."""

    def pairing_notes(self, a: "RunConfig", b: "RunConfig") -> list[str]:
        """Notes on how the columns of ``a`` and ``b`` pair up (before the items' note)."""
        return []

    def settings_notes(self, a: "RunConfig", b: "RunConfig") -> list[str]:
        """Notes on settings that differ between ``a`` and ``b`` (after the items' note)."""
        return []

    def protocol(self, config: "RunConfig") -> tuple[str, str]:
        """A run's protocol and its label as comparisons show them ("-": none)."""
        return "-", "-"

    def family_columns(self, columns: Columns, headline: str, config: "RunConfig",
                       items: "Sequence[ItemRecord]", mode: str) -> Columns:
        """The columns ``t2w report --by family`` shows: the headline."""
        return {headline: columns.get(headline, {})}

    # ---- export
    def trajectory_scores(self, item: Mapping[str, Any]) -> tuple[dict[str, float | None], str]:
        """A logged sample's scores and verdict (``t2w export-trajectories``): its metrics,
        ``correct``/``wrong`` where they say it."""
        metrics: dict = item["metrics"] if isinstance(item.get("metrics"), dict) else {}
        scores = {name: score_number(value) for name, value in metrics.items()
                  if score_number(value) is not None or value is None}
        if "correct" in metrics:
            return scores, "correct" if metrics.get("correct") else "wrong"
        return scores, ""


def score_number(value: Any) -> float | None:
    """A logged score as a number (a bool as 0/1), None when it is none."""
    if isinstance(value, bool):
        return float(value)
    return float(value) if isinstance(value, (int, float)) else None


@dataclass(frozen=True)
class _Entry:
    reference: str  # "module:Class"
    aliases: tuple[str, ...]  # what older configs called the kind


_REGISTERED: dict[str, _Entry] = {}
_LOADED: dict[str, KindSpec] = {}
_ALIASES: dict[str, str] = {}  # an older name (or "" for none) -> the kind


def add_kind(name: str, reference: str, aliases: Iterable[str] = ()) -> None:
    """Register the kind ``name``, described by the ``KindSpec`` subclass ``reference``
    ("module:Class", imported on first use). ``aliases``: what older configs call it; "" makes
    it the kind of configs with no ``kind``. Registering a name again replaces it."""
    if ":" not in reference:
        raise ValueError(f"a kind's reference is 'module:Class', not {reference!r}")
    _REGISTERED[name] = _Entry(reference, tuple(aliases))
    _LOADED.pop(name, None)
    for alias in aliases:
        _ALIASES[alias] = name


def remove_kind(name: str) -> None:
    """Forget the kind ``name`` (a test's own kind, once it is done)."""
    entry = _REGISTERED.pop(name, None)
    _LOADED.pop(name, None)
    for alias in entry.aliases if entry else ():
        _ALIASES.pop(alias, None)


def kind_names() -> tuple[str, ...]:
    """Every registered kind, in the order registered."""
    return tuple(_REGISTERED)


def kind_spec(kind: str) -> KindSpec:
    """The descriptor of ``kind`` (imported on first use); ``RunError`` for a kind no task
    registered."""
    spec = _LOADED.get(kind)
    if spec is not None:
        return spec
    entry = _REGISTERED.get(kind)
    if entry is None:
        raise RunError(f"a run of unknown kind {kind!r} (known: {', '.join(kind_names())})")
    module, _, name = entry.reference.partition(":")
    spec = getattr(import_module(module), name)()
    if spec.name != kind:
        raise RunError(f"{entry.reference} describes the kind {spec.name!r}, not {kind!r}")
    _LOADED[kind] = spec
    return spec


def spec_of(kind: str) -> KindSpec:
    """The descriptor of ``kind``; for a kind no task registers, a plain ``KindSpec`` (its
    records read as any kind's: listed, exported, not compared)."""
    return kind_spec(kind) if kind in _REGISTERED else KindSpec()


def kind_of(config: Mapping[str, Any]) -> str:
    """The kind of a run config as a string, an unknown one included (for messages and for
    listing it); configs written before kinds existed (no ``kind``, or an alias such as
    ``eval``) are of the kind registered with that alias. Any JSON object: a listed folder's
    config is read before it is known to be a run's (``run_reader.RunInfo``)."""
    kind = config.get("kind")
    if kind is None or isinstance(kind, str):
        return _ALIASES.get(kind or "", kind or "")
    return str(kind)


def default_kind() -> str:
    """The kind of a config that names none."""
    return _ALIASES.get("", "")


def run_kind(config: Mapping[str, Any]) -> KindSpec:
    """The descriptor of a run config's kind (``kind_of``'s rule); ``RunError`` for a kind no
    task makes."""
    return kind_spec(kind_of(config))


def identity_keys(kind: str) -> tuple[str, ...]:
    """The settings that define what a run of ``kind`` measures (``KindSpec.identity_keys``
    between the engine's)."""
    own = kind_spec(kind).identity_keys if kind in _REGISTERED else TASK_IDENTITY_KEYS
    return ENGINE_IDENTITY_HEAD + own + ENGINE_IDENTITY_TAIL


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def identity_hash(config: "RunConfig") -> str:
    """The hash of what a run measures; credentials are not part of it (``redact``)."""
    keys = identity_keys(kind_of(config) or default_kind())
    identity = redact({key: config.get(key) for key in keys})
    return text_hash(json.dumps(identity, sort_keys=True))


def make_run_id(parts: Iterable[Any], digest: str) -> str:
    """Readable and deterministic: the same command maps to the same run, so re-running it
    resumes instead of starting over (and a larger selection extends it). ``digest``: a hash
    of what the run measures (``identity_hash``)."""
    return ("__".join(slug(part) for part in parts) + f"__{digest[:8]}")[:180]
