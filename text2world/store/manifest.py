"""``data/manifest.json``: the one place for the store's per-domain metadata.

Two kinds of fields per domain:

* written by people: ``name``, ``split``, ``category``, ``provenance``. They are kept from the
  existing manifest; while the per-batch catalog files ``data/catalog/*.json`` exist, their
  entries are merged in (and win): contributors add a batch of domains with one catalog file
  and `t2w data manifest`, then delete the file.
* written by people when needed: ``optional_actions`` ({action: why no problem needs it}; see
  text2world/necessity.py).
* computed from the files: ``requirements``, numbers of ``types``/``predicates``/``functions``/
  ``actions``, the stratification fields ``size_band`` (small/medium/large by actions +
  predicates) and ``features`` (constants, untyped, adl, conditional-effects, quantifiers,
  action-costs, comments, mixed-case, successor-counter), GPT-2 ``tokens`` of the domain,
  description token counts and ``problems``.

``build_manifest`` is deterministic (no dates), so a test can check that the committed manifest
equals a fresh build. Regenerate it with ``t2w data manifest``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from text2world.store.audit import domain_features, size_band
from text2world.store.curation import cached_validate
from text2world.store.datasets import DatasetError, atomic_write_text
from text2world.store.tokens import count_gpt2_tokens

__all__ = [
    "MANIFEST_NAME", "SPLITS", "domain_facts", "build_manifest", "write_manifest",
    "manifest_differences",
]

MANIFEST_NAME = "manifest.json"
VERSION = 1
PEOPLE_FIELDS = ("name", "split", "category", "provenance", "optional_actions")
REQUIRED_PEOPLE_FIELDS = ("name", "split", "category", "provenance")
SPLITS = ("train", "test")


def domain_facts(text: str) -> dict:
    """What the manifest computes from a domain's text; ``parses`` is False when tarski fails."""
    result = cached_validate(text)
    facts: dict = {"parses": result.ok, "tokens": count_gpt2_tokens(text)}
    if result.ok and result.domain is not None:
        domain = result.domain
        facts.update(requirements=sorted(domain.requirements), types=len(domain.types),
                     predicates=len(domain.predicates), functions=len(domain.functions),
                     actions=len(domain.actions), size_band=size_band(domain),
                     features=domain_features(text, domain))
    return facts


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as err:
        raise DatasetError(f"{path}: not UTF-8 text (byte offset {err.start})") from None
    except ValueError as err:
        raise DatasetError(f"{path}: not valid JSON ({err})") from None


def read_metadata(root: Path) -> tuple[dict[str, dict], list[str]]:
    """People-written fields per id: the existing manifest, then the catalog files over it."""
    metadata: dict[str, dict] = {}
    warnings: list[str] = []
    manifest_path = root / MANIFEST_NAME
    if manifest_path.is_file():
        data = _read_json(manifest_path)
        entries = data.get("domains") if isinstance(data, dict) else None
        if not isinstance(entries, list):
            raise DatasetError(f"{manifest_path}: expected an object with a 'domains' list")
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
                raise DatasetError(f"{manifest_path}: domain entry {index} has no text 'id'")
            metadata[entry["id"]] = {k: entry[k] for k in PEOPLE_FIELDS if entry.get(k)}
    for catalog in sorted((root / "catalog").glob("*.json")):
        entries = _read_json(catalog)
        if not isinstance(entries, list):
            raise DatasetError(f"{catalog}: expected a JSON list of domain entries")
        for index, entry in enumerate(entries):
            if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
                raise DatasetError(f"{catalog}: entry {index} has no text 'id'")
            metadata.setdefault(entry["id"], {}).update(
                {k: entry[k] for k in PEOPLE_FIELDS if entry.get(k)})
    return metadata, warnings


def _token_count(path: Path) -> int | None:
    return count_gpt2_tokens(path.read_text(encoding="utf-8")) if path.is_file() else None


def build_manifest(root: Path) -> tuple[dict, list[str]]:
    """The manifest for the store folder ``root``, and warnings about incomplete entries."""
    metadata, warnings = read_metadata(root)
    domains_dir = root / "domains"
    if not domains_dir.is_dir():
        raise DatasetError(f"{root}: not a store folder (no domains/ inside)")
    ids = sorted(p.stem for p in domains_dir.glob("*.pddl"))
    for orphan in sorted(set(metadata) - set(ids)):
        warnings.append(f"{orphan}: has metadata but no domains/{orphan}.pddl (left out)")
    entries = []
    for record_id in ids:
        path = domains_dir / f"{record_id}.pddl"
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as err:
            raise DatasetError(f"{path}: not UTF-8 text (byte offset {err.start})") from None
        people = metadata.get(record_id, {})
        missing = [k for k in REQUIRED_PEOPLE_FIELDS if not people.get(k)]
        if missing:
            warnings.append(f"{record_id}: no {', '.join(missing)} (add them to the manifest)")
        split = people.get("split", "test")
        if split not in SPLITS:
            warnings.append(f"{record_id}: split {split!r} is neither train nor test")
        facts = domain_facts(text)
        if not facts["parses"]:
            warnings.append(f"{record_id}: tarski cannot parse domains/{record_id}.pddl")
        descriptions = root / "descriptions" / record_id
        entry = {
            "id": record_id,
            "name": people.get("name", record_id),
            "split": split,
            "category": people.get("category"),
            "provenance": people.get("provenance"),
            **{k: v for k, v in facts.items() if k != "parses"},
            "description_tokens": {kind: _token_count(descriptions / f"{kind}.md")
                                   for kind in ("abstract", "concrete")},
            "problems": sorted(p.stem for p in (root / "problems" / record_id).glob("*.pddl")),
        }
        if people.get("optional_actions"):
            entry["optional_actions"] = people["optional_actions"]
        entries.append(entry)
    return {"version": VERSION, "domains": entries}, warnings


def manifest_text(manifest: dict) -> str:
    return json.dumps(manifest, indent=2, ensure_ascii=False) + "\n"


def write_manifest(root: Path) -> tuple[Path, dict, list[str]]:
    """Regenerate ``root/manifest.json`` atomically; returns its path, content and warnings."""
    manifest, warnings = build_manifest(root)
    path = root / MANIFEST_NAME
    atomic_write_text(path, manifest_text(manifest))
    return path, manifest, warnings


def manifest_differences(root: Path) -> list[str]:
    """How the committed manifest differs from a fresh build (empty when up to date)."""
    path = root / MANIFEST_NAME
    if not path.is_file():
        return [f"{path} is missing"]
    fresh, _ = build_manifest(root)
    current = _read_json(path)
    if current == fresh:
        return []
    current_by_id = {str(e.get("id")): e for e in current.get("domains", []) if isinstance(e, dict)}
    fresh_by_id = {e["id"]: e for e in fresh["domains"]}
    differences = [f"{i}: in the manifest but has no domain file"
                   for i in sorted(set(current_by_id) - set(fresh_by_id))]
    differences += [f"{i}: domain file not in the manifest"
                    for i in sorted(set(fresh_by_id) - set(current_by_id))]
    for record_id in sorted(set(current_by_id) & set(fresh_by_id)):
        old, new = current_by_id[record_id], fresh_by_id[record_id]
        for key in sorted(set(old) | set(new)):
            if old.get(key) != new.get(key):
                differences.append(f"{record_id}: {key} is {old.get(key)!r}, files say "
                                   f"{new.get(key)!r}")
    if not differences:
        differences.append("manifest layout differs from a fresh build")
    return differences
