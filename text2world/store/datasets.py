"""Datasets: the built-in store, imported datasets and datasets read straight from a path.

A dataset is a list of ``Record``: a gold domain with its descriptions and problems. The
built-in store lives in the repository's ``data/`` folder; imported datasets live in the user
data directory (``$T2W_HOME``, default ``~/.local/share/text2world``), never in the repository.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from text2world.errors import Text2WorldError
from text2world.files import InputFileError, atomic_write_text, data_dir, home_dir, read_input_text

__all__ = [
    "BUILTIN", "FAMILY", "NO_FAMILY", "SPLITS", "DatasetError", "Problem", "Record", "Dataset",
    "first", "imported_dir", "check_dataset_name", "list_datasets", "UnknownDataset",
    "DatasetUnavailable", "UnknownDomain", "named_dataset", "named_record", "StoreGold",
    "gold_from_store", "load_dataset", "dataset_of_run", "portable_reference",
    "MAX_DATASET_FILE_BYTES", "load_store_dir", "import_dataset", "export_jsonl",
    "store_problems", "resolve_gold", "atomic_write_text", "data_dir", "home_dir",
]

BUILTIN = "text2world"
# A generated world's structural family (its manifest entry's ``family``); a record without one
# (the store's own domains) is reported under ``NO_FAMILY``.
FAMILY = "family"
NO_FAMILY = "store"
SPLITS = ("test", "train", "all")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class DatasetError(Text2WorldError, ValueError):
    """A dataset that cannot be found or read; the message names the file and record."""


@dataclass(frozen=True)
class Problem:
    name: str
    pddl: str


@dataclass(frozen=True)
class Record:
    id: str
    name: str
    split: str
    domain: str  # the gold PDDL domain
    abstract: str | None = None
    concrete: str | None = None
    problems: tuple[Problem, ...] = ()
    meta: dict = field(default_factory=dict, compare=False, hash=False)
    # the store folder it was read from ("" for a file or an imported dataset): its shipped
    # plans and answer keys are looked for there first (a generated folder ships its own)
    folder: str = field(default="", compare=False, hash=False)

    def description(self, kind: str = "abstract") -> str | None:
        if kind not in ("abstract", "concrete"):
            raise ValueError(f"description kind must be 'abstract' or 'concrete', not {kind!r}")
        return self.abstract if kind == "abstract" else self.concrete

    @property
    def family(self) -> str | None:
        """The structural family of a generated world (from its manifest entry), else None."""
        value = self.meta.get(FAMILY) if isinstance(self.meta, dict) else None
        return value if isinstance(value, str) and value else None

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "split": self.split, "domain": self.domain,
                "abstract": self.abstract, "concrete": self.concrete,
                "problems": [{"name": p.name, "pddl": p.pddl} for p in self.problems],
                "meta": self.meta}


@dataclass(frozen=True)
class Dataset:
    name: str
    records: tuple[Record, ...]
    source: str = ""

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def get(self, record_id: str) -> Record:
        for record in self.records:
            if record.id == str(record_id):
                return record
        raise KeyError(f"dataset {self.name!r} has no domain with id {record_id!r}")

    def split(self, split: str) -> list[Record]:
        if split == "all":
            return list(self.records)
        return [r for r in self.records if r.split == split]

    def select(self, split: str = "test", domains: list[str] | None = None) -> list[Record]:
        """The records a run covers: the named domains (in the order given, whatever their
        split) or else a split. Raises ``DatasetError`` naming what is unknown."""
        if split not in SPLITS:
            raise DatasetError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
        if not domains:
            records = self.split(split)
            if not records:
                raise DatasetError(f"dataset {self.name!r} has no {split!r} items")
            return records
        known = {r.id for r in self.records}
        unknown = [d for d in domains if d not in known]
        if unknown:
            sample = ", ".join(sorted(known)[:8])
            raise DatasetError(f"dataset {self.name!r} has no domain with id(s) "
                               f"{', '.join(map(repr, unknown))} (ids look like: {sample}, ...)")
        return [self.get(d) for d in dict.fromkeys(domains)]

    @property
    def content_hash(self) -> str:
        """A hash of everything a run depends on, recorded in run configs."""
        digest = hashlib.sha256()
        for record in self.records:
            digest.update(json.dumps(record.to_dict(), sort_keys=True).encode())
        return digest.hexdigest()[:16]


def first(records: list[Record], limit: int | None) -> list[Record]:
    """``--limit``: the first ``limit`` records (all of them when None)."""
    if limit is None:
        return records
    if limit < 1:
        raise DatasetError(f"--limit must be at least 1, not {limit}")
    return records[:limit]


# --------------------------------------------------------------------------------------------
# Locations


def imported_dir(name: str) -> Path:
    check_dataset_name(name)
    return home_dir() / "datasets" / name


def check_dataset_name(name: str) -> None:
    if not _NAME.match(name or ""):
        raise DatasetError(f"invalid dataset name {name!r}: use letters, digits, '.', '_' and "
                           "'-' (at most 64 characters)")


def list_datasets() -> list[dict[str, Any]]:
    """The built-in store and every imported dataset, with their sizes."""
    found: list[dict[str, Any]] = [{"name": BUILTIN, "kind": "built-in", "path": str(data_dir())}]
    root = home_dir() / "datasets"
    if root.is_dir():
        for folder in sorted(root.iterdir()):
            if (folder / "records.jsonl").is_file():
                found.append({"name": folder.name, "kind": "imported", "path": str(folder)})
    return found


class UnknownDataset(Text2WorldError, LookupError):
    """A dataset name that is neither the built-in store nor an imported dataset."""

    def __init__(self, name: str, known: list[str]) -> None:
        self.name, self.known = name, known
        super().__init__(f"dataset {name!r} does not exist; known datasets: {', '.join(known)}")


class DatasetUnavailable(DatasetError):
    """A known dataset whose files cannot be read (``reason``: the ``DatasetError``)."""

    def __init__(self, name: str, reason: DatasetError) -> None:
        self.name, self.reason = name, reason
        super().__init__(f"dataset {name!r} cannot be read: {reason}")


class UnknownDomain(Text2WorldError, LookupError):
    """A domain id that a dataset does not hold."""

    def __init__(self, dataset: str, record_id: str) -> None:
        self.dataset, self.record_id = dataset, record_id
        super().__init__(f"dataset {dataset!r} has no domain with id {record_id!r}")


def named_dataset(name: str) -> Dataset:
    """A dataset by name only (the built-in store or an imported dataset, never a path), for
    the services: ``UnknownDataset`` or ``DatasetUnavailable`` when there is none."""
    known = [entry["name"] for entry in list_datasets()]
    if name not in known:
        raise UnknownDataset(name, known)
    try:
        return load_dataset(name)
    except DatasetError as err:
        raise DatasetUnavailable(name, err) from None


def named_record(dataset: str, record_id: str) -> Record:
    """A gold by store id (``named_dataset``'s errors, or ``UnknownDomain``): the one lookup of
    a ``gold_id`` the REST API and the MCP tools make."""
    try:
        return named_dataset(dataset).get(record_id)
    except KeyError:
        raise UnknownDomain(dataset, record_id) from None


@dataclass(frozen=True)
class StoreGold:
    """A gold found by store id: its text and problems, and the reference answers carry."""

    dataset: str
    id: str
    domain: str
    problems: tuple[tuple[str, str], ...]

    def ref(self) -> dict[str, str]:
        return {"dataset": self.dataset, "id": self.id}


def gold_from_store(dataset: str, gold_id: str) -> StoreGold:
    """The gold of a store id (``UnknownDataset``, ``DatasetUnavailable`` or ``UnknownDomain``
    when there is none): the gold-id prologue of the REST API and the MCP tool."""
    record = named_record(dataset, gold_id)
    return StoreGold(dataset, record.id, record.domain,
                     tuple((p.name, p.pddl) for p in record.problems))



# --------------------------------------------------------------------------------------------
# Loading


_cache: dict[tuple[str, tuple[int, ...]], Dataset] = {}


def load_dataset(name_or_path: str | os.PathLike = BUILTIN) -> Dataset:
    """Load the built-in store (default), an imported dataset by name, or a path.

    A path may be a store folder (``domains/``, ``descriptions/``, ``problems/``), a released
    Text2World JSON file, a JSONL file of such records, or a Hugging Face dataset folder.
    """
    key = str(name_or_path)
    if key == BUILTIN:
        root = data_dir()
        if not (root / "domains").is_dir():
            raise DatasetError(
                f"the built-in store is not at {root}: it lives in the data/ folder of a "
                "text2world clone (install with 'pip install -e .' from the clone, or set "
                "T2W_DATA_DIR to that folder)")
        return _cached(root, lambda: load_store_dir(root, name=BUILTIN),
                       *(root / part for part in ("domains", "descriptions", "problems",
                                                  "manifest.json")))
    if _is_imported(key):
        folder = imported_dir(key)
        return _cached(folder / "records.jsonl", lambda: _load_imported(folder, key))
    path = Path(key)
    if path.exists():
        return read_path(path)
    known = ", ".join(d["name"] for d in list_datasets())
    raise DatasetError(f"unknown dataset {key!r}: not a path and not imported (known: {known}). "
                       f"Import it with: t2w data import PATH --name {key}")


def dataset_of_run(name: str | None, source: str | None) -> Dataset:
    """The dataset a run was made on (its config's ``dataset`` and ``dataset_source``): the
    path it was read from while that still exists, else its name (``DatasetError``)."""
    if name != BUILTIN and source and Path(source).exists() and \
            not (Path(source) / "records.jsonl").is_file():
        return load_dataset(source)
    return load_dataset(name or BUILTIN)


def _is_imported(name: str) -> bool:
    return bool(_NAME.match(name)) and (imported_dir(name) / "records.jsonl").is_file()


def portable_reference(name_or_path: str) -> str:
    """A dataset named as ``load_dataset`` reads it from any folder or process: a path made
    absolute (a worker of ``score-batch`` may run elsewhere), a name as it is."""
    if name_or_path == BUILTIN or _is_imported(name_or_path):
        return name_or_path
    path = Path(name_or_path)
    return str(path.absolute()) if path.exists() else name_or_path


def _cached(path: Path, load: Callable[[], Dataset], *watched: Path) -> Dataset:
    """Load once per change of ``path`` or ``watched``: their modification times are the key
    (a store folder's own time does not change when a domain is added inside domains/)."""
    stamps = []
    for item in (path, *watched):
        try:
            stamps.append(item.stat().st_mtime_ns)
        except OSError:
            stamps.append(0)
    key = (str(path), tuple(stamps))
    if key not in _cache:
        _cache[key] = load()
    return _cache[key]


MAX_DATASET_FILE_BYTES = 512 * 1024 * 1024  # a released JSON or JSONL file read whole


def _read_text(path: Path) -> str:
    """A store's or a dataset's file through the guarded reader: a device, a FIFO or a
    folder named in its place is refused, never read or waited on."""
    try:
        return read_input_text(path, "dataset file", MAX_DATASET_FILE_BYTES)
    except InputFileError as err:
        raise DatasetError(str(err)) from None


def load_store_dir(root: Path, name: str | None = None) -> Dataset:
    """Read a folder in the store layout; splits and names come from ``manifest.json``."""
    domains = root / "domains"
    if not domains.is_dir():
        raise DatasetError(f"{root}: not a store folder (no domains/ inside)")
    manifest_path = root / "manifest.json"
    manifest = {}
    if manifest_path.is_file():
        try:
            manifest = {d["id"]: d for d in json.loads(_read_text(manifest_path))["domains"]}
        except (ValueError, KeyError, TypeError) as err:
            raise DatasetError(f"{manifest_path}: malformed manifest ({err})") from None
    records = []
    for domain_path in sorted(domains.glob("*.pddl")):
        record_id = domain_path.stem
        entry = manifest.get(record_id, {})
        descriptions = root / "descriptions" / record_id
        abstract = descriptions / "abstract.md"
        concrete = descriptions / "concrete.md"
        problems = tuple(Problem(p.stem, _read_text(p))
                         for p in sorted((root / "problems" / record_id).glob("*.pddl")))
        records.append(Record(
            id=record_id, name=entry.get("name", record_id), split=entry.get("split", "test"),
            domain=_read_text(domain_path),
            abstract=_read_text(abstract) if abstract.is_file() else None,
            concrete=_read_text(concrete) if concrete.is_file() else None,
            problems=problems, meta=entry, folder=str(root)))
    # Train exemplars first, then test, each by id: a stable order for runs and reports.
    records.sort(key=lambda r: (r.split != "train", r.id))
    return Dataset(name or root.name, tuple(records), str(root))


def record_from_raw(raw: dict, index: int, where: str) -> Record:
    """Map one released Text2World record (test or train layout) to a ``Record``."""
    if not isinstance(raw, dict):
        raise DatasetError(f"{where}: record {index} is not a JSON object")
    domain = raw.get("pddl_domain")
    if not isinstance(domain, str) or not domain.strip():
        raise DatasetError(f"{where}: record {index} has no 'pddl_domain' text")
    record_id = raw.get("id", raw.get("example_idx", index))
    name = raw.get("file_name") or raw.get("domain_name") or f"domain-{record_id}"
    abstract = raw.get("corrected_description", raw.get("description"))
    concrete = raw.get("concrete_description")
    for field_name, value in (("description", abstract), ("concrete", concrete)):
        if value is not None and not isinstance(value, str):
            raise DatasetError(f"{where}: record {index} has a non-text {field_name}")
    return Record(id=str(record_id), name=str(name), split=str(raw.get("split", "test")),
                  domain=domain, abstract=abstract, concrete=concrete, meta=raw)


def read_raw_records(path: Path) -> list[dict]:
    """The records of a released JSON file, a JSONL file or a Hugging Face dataset folder."""
    if path.is_dir():
        if (path / "dataset_info.json").is_file() or (path / "dataset_dict.json").is_file():
            return _read_hf_dir(path)
        raise DatasetError(f"{path}: a folder that is neither a store nor a Hugging Face dataset")
    text = _read_text(path)
    if path.suffix == ".jsonl":
        records = []
        for number, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except ValueError as err:
                raise DatasetError(f"{path}: line {number} is not valid JSON ({err})") from None
        return records
    try:
        data = json.loads(text)
    except ValueError as err:
        raise DatasetError(f"{path}: not valid JSON ({err})") from None
    if isinstance(data, dict):
        data = list(data.values())
    if not isinstance(data, list):
        raise DatasetError(f"{path}: expected a JSON list of records")
    return data


def _read_hf_dir(path: Path) -> list[dict]:
    try:
        import datasets
    except ImportError:
        raise DatasetError("reading a Hugging Face dataset folder needs the 'datasets' package "
                           "(pip install datasets)") from None
    try:
        loaded = datasets.load_from_disk(str(path))
    except Exception as err:  # noqa: BLE001 - datasets raises many classes
        raise DatasetError(f"{path}: cannot read the Hugging Face dataset ({err})") from None
    if isinstance(loaded, datasets.DatasetDict):
        rows: list[dict] = []
        for split_name, split in loaded.items():
            rows.extend({"split": split_name, **row} if "split" not in row else row
                        for row in split)
        return rows
    return [dict(row) for row in loaded]


def read_path(path: Path) -> Dataset:
    # absolute: a run records it as its dataset_source, read again from any folder (links
    # kept as given, so an error names the path the user named)
    path = path.absolute()
    if path.is_dir() and (path / "domains").is_dir():
        return load_store_dir(path)
    raws = read_raw_records(path)
    records = tuple(record_from_raw(raw, i, str(path)) for i, raw in enumerate(raws))
    _check_unique(records, str(path))
    return Dataset(path.stem, records, str(path))


def _check_unique(records: Iterable[Record], where: str) -> None:
    seen: set[str] = set()
    for record in records:
        if record.id in seen:
            raise DatasetError(f"{where}: two records have id {record.id!r}")
        seen.add(record.id)


def _load_imported(folder: Path, name: str) -> Dataset:
    raws = read_raw_records(folder / "records.jsonl")
    records = tuple(record_from_raw(raw, i, str(folder)) for i, raw in enumerate(raws))
    return Dataset(name, records, str(folder))


# --------------------------------------------------------------------------------------------
# Import and export


def import_dataset(path: str | os.PathLike, name: str) -> Dataset:
    """Validate every record of ``path`` and keep them, verbatim, as dataset ``name``."""
    check_dataset_name(name)
    if name == BUILTIN:
        raise DatasetError(f"{BUILTIN!r} is the built-in store; choose another name")
    source = Path(path)
    if not source.exists():
        raise DatasetError(f"{source}: no such file or folder")
    raws = read_raw_records(source)
    if not raws:
        raise DatasetError(f"{source}: no records")
    records = tuple(record_from_raw(raw, i, str(source)) for i, raw in enumerate(raws))
    _check_unique(records, str(source))
    folder = imported_dir(name)
    lines = "".join(json.dumps(raw, ensure_ascii=False) + "\n" for raw in raws)
    atomic_write_text(folder / "records.jsonl", lines)
    atomic_write_text(folder / "meta.json", json.dumps(
        {"name": name, "source": str(source.resolve()), "records": len(records)}, indent=2))
    return Dataset(name, records, str(folder))


def export_jsonl(dataset: Dataset) -> str:
    """One JSON object per record: id, name, split, domain, descriptions, problems."""
    return "".join(json.dumps({k: v for k, v in r.to_dict().items() if k != "meta"},
                              ensure_ascii=False) + "\n" for r in dataset.records)


# --------------------------------------------------------------------------------------------
# A gold and its problems, for semantic scoring


def store_problems(gold_id: str, dataset: str = "text2world") -> tuple[str, list[tuple[str, str]]]:
    """The gold domain text and ``(name, text)`` problems of a dataset record."""
    record = load_dataset(dataset).get(gold_id)
    return record.domain, [(p.name, p.pddl) for p in record.problems]


def resolve_gold(gold: str, problems_dir: str | Path | None = None, dataset: str = "text2world"
                 ) -> tuple[str, list[tuple[str, str]]]:
    """The gold text and problems for ``t2w score --semantic`` (``SemanticInputError`` when
    there are none): ``gold`` is a domain file (then
    ``problems_dir`` is needed) or a store id (its problems are used unless a folder is given)."""
    from text2world.scoring.semantic import SemanticInputError, problems_from_dir

    path = Path(gold)
    if path.is_file():
        try:
            text = read_input_text(path, "gold domain")
        except InputFileError as err:
            raise SemanticInputError(str(err)) from None
        if problems_dir is None:
            raise SemanticInputError(
                f"semantic scoring of {path} needs problems: pass --problems DIR, or give "
                "a store id instead of a file (its problems are used)")
        return text, problems_from_dir(problems_dir)
    try:
        text, problems = store_problems(gold, dataset)
    except KeyError:
        raise SemanticInputError(f"{gold}: neither a file nor a domain id of dataset "
                                 f"{dataset!r}") from None
    if problems_dir is not None:
        problems = problems_from_dir(problems_dir)
    if not problems:
        raise SemanticInputError(f"{gold} has no problems in dataset {dataset!r}; "
                                 "pass --problems DIR")
    return text, problems
