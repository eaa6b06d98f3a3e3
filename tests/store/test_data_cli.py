"""``t2w data``: import (released JSON, JSONL, Hugging Face folder), export, list, show, stats,
manifest; malformed input fails cleanly and leaves nothing behind."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from repo_paths import OFFICIAL_DIR as OFFICIAL
from typer.testing import CliRunner

from text2world.cli.main import app
from text2world.store.datasets import data_dir, home_dir, imported_dir, load_dataset, load_store_dir
from text2world.store.manifest import build_manifest, domain_facts

runner = CliRunner()
# Tests that read OFFICIAL ask for the official_dir (or official_test) fixture: skipped
# without ../shared, failed in CI


def _data(*args: str):
    result = runner.invoke(app, ["data", *args])
    assert "Traceback" not in result.output, result.output
    return result


def _import(path: Path, name: str):
    result = _data("import", str(path), "--name", name)
    assert result.exit_code == 0, result.output
    return load_dataset(name)


def _assert_identical(dataset, raws: list[dict]) -> None:
    assert len(dataset) == len(raws)
    for record, raw in zip(dataset.records, raws):
        assert record.meta == raw  # kept verbatim
        assert record.id == str(raw.get("id", raw.get("example_idx")))
        assert record.domain == raw["pddl_domain"]
        assert record.abstract == raw.get("corrected_description", raw.get("description"))
        assert record.concrete is None


# --------------------------------------------------------------------------------------------
# Import


def test_import_released_json_gives_the_files_records(official_test):
    dataset = _import(OFFICIAL / "test.json", "official")
    _assert_identical(dataset, official_test)
    assert len(dataset) == 101
    # stored in the user data directory, not in the repository
    assert imported_dir("official").is_relative_to(home_dir())
    assert not imported_dir("official").is_relative_to(data_dir().parent)


def test_import_released_train_json(official_dir):
    raws = json.loads((OFFICIAL / "train.json").read_text(encoding="utf-8"))
    dataset = _import(OFFICIAL / "train.json", "official-train")
    _assert_identical(dataset, raws)
    assert len(dataset) == 2 and {r.split for r in dataset} == {"train"}


def test_import_jsonl_gives_the_same_records(official_test, tmp_path):
    path = tmp_path / "released.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in official_test), encoding="utf-8")
    _assert_identical(_import(path, "official-jsonl"), official_test)


def test_import_hugging_face_folder_gives_the_same_records(official_test, tmp_path):
    datasets = pytest.importorskip("datasets")
    folder = tmp_path / "hf"
    datasets.Dataset.from_list(official_test).save_to_disk(str(folder))
    _assert_identical(_import(folder, "official-hf"), official_test)
    split_folder = tmp_path / "hf-dict"
    datasets.DatasetDict({"test": datasets.Dataset.from_list(official_test[:3])}).save_to_disk(
        str(split_folder))
    dataset = _import(split_folder, "official-hf-dict")
    assert [r.id for r in dataset] == [str(r["id"]) for r in official_test[:3]]
    assert {r.split for r in dataset} == {"test"}


def _write(path: Path, content) -> Path:
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


GOOD = {"id": 1, "file_name": "a", "pddl_domain": "(define (domain a))"}


@pytest.mark.parametrize("file_name, content, message", [
    ("bad.json", "[{\"id\": 1,", "not valid JSON"),
    ("missing.json", json.dumps([GOOD, {"id": 2, "file_name": "b"}]),
     "record 1 has no 'pddl_domain'"),
    ("notlist.json", "42", "expected a JSON list"),
    ("empty.json", "[]", "no records"),
    ("duplicate.json", json.dumps([GOOD, GOOD]), "two records have id '1'"),
    ("nonobject.json", json.dumps([GOOD, "text"]), "record 1 is not a JSON object"),
    ("bad.jsonl", json.dumps(GOOD) + "\n{oops\n", "line 2 is not valid JSON"),
    ("binary.json", b"\xff\xfe[]", "not UTF-8"),
])
def test_malformed_import_fails_naming_file_and_record(tmp_path, file_name, content, message):
    path = _write(tmp_path / file_name, content)
    result = _data("import", str(path), "--name", "broken")
    assert result.exit_code == 1
    assert message in " ".join(result.output.split()) and file_name in result.output
    assert not imported_dir("broken").exists()


def test_broken_hugging_face_folder_fails_cleanly(tmp_path):
    folder = tmp_path / "hf"
    folder.mkdir()
    (folder / "dataset_info.json").write_text("{not json")
    result = _data("import", str(folder), "--name", "broken")
    assert result.exit_code == 1 and str(folder) in result.output
    assert not imported_dir("broken").exists()


def test_failed_reimport_keeps_the_previous_dataset(tmp_path):
    good = _write(tmp_path / "good.json", json.dumps([GOOD]))
    _import(good, "mine")
    bad = _write(tmp_path / "bad.json", json.dumps([GOOD, {"id": 5}]))
    assert _data("import", str(bad), "--name", "mine").exit_code == 1
    assert [r.id for r in load_dataset("mine")] == ["1"]


@pytest.mark.parametrize("args, message", [
    (["MISSING", "--name", "x"], "no such file"),
    (["GOOD", "--name", "../escape"], "invalid dataset name"),
    (["GOOD", "--name", "text2world"], "built-in store"),
])
def test_import_argument_errors(tmp_path, args, message):
    good = _write(tmp_path / "good.json", json.dumps([GOOD]))
    args = [str(tmp_path / "missing.json") if a == "MISSING" else str(good) if a == "GOOD"
            else a for a in args]
    result = _data("import", *args)
    assert result.exit_code == 1 and message in " ".join(result.output.split())
    assert not (home_dir() / "datasets").exists() or not any((home_dir() / "datasets").iterdir())


# --------------------------------------------------------------------------------------------
# Export


def test_export_imported_dataset_as_jsonl(official_test, tmp_path):
    _import(OFFICIAL / "test.json", "official")
    result = _data("export", "official", "--format", "jsonl")
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line["domain"] for line in lines] == [r["pddl_domain"] for r in official_test]
    assert [line["id"] for line in lines] == [str(r["id"]) for r in official_test]


def test_export_store_round_trips_through_import(tmp_path):
    store = load_dataset()
    out = tmp_path / "store.jsonl"
    result = _data("export", "text2world", "--format", "jsonl", "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [line["id"] for line in lines] == [r.id for r in store]
    assert lines[0]["problems"] and lines[0]["concrete"] == store.records[0].concrete
    released = tmp_path / "store-released.jsonl"
    assert _data("export", "text2world", "--format", "released", "--out",
                 str(released)).exit_code == 0
    again = _import(released, "store-copy")
    assert [(r.id, r.name, r.split, r.domain, r.abstract, r.concrete) for r in again] == \
        [(r.id, r.name, r.split, r.domain, r.abstract, r.concrete) for r in store]


@pytest.mark.parametrize("args, message", [
    (["text2world", "--format", "csv"], "unknown format"),
    (["no-such-dataset"], "unknown dataset"),
])
def test_export_errors(args, message):
    result = _data("export", *args)
    assert result.exit_code == 1 and message in " ".join(result.output.split())


# --------------------------------------------------------------------------------------------
# List, show, stats


def test_list_the_store_train_first():
    result = _data("list", "--json")
    assert result.exit_code == 0
    rows = json.loads(result.output)
    store = load_dataset()
    assert [r["id"] for r in rows] == [r.id for r in store]
    assert [r["split"] for r in rows[:2]] == ["train", "train"]
    assert all(r["predicates"] and r["actions"] for r in rows)
    train = json.loads(_data("list", "--split", "train", "--json").output)
    assert {r["id"] for r in train} == {"blocksworld", "gripper"}
    table = _data("list")
    assert table.exit_code == 0 and "gripper" in table.output


def test_list_an_imported_dataset(official_dir):
    _import(OFFICIAL / "train.json", "few")
    rows = json.loads(_data("list", "--dataset", "few", "--json").output)
    assert len(rows) == 2 and all(r["predicates"] for r in rows)


def test_show_abstract_and_concrete():
    gripper = load_dataset().get("gripper")
    abstract = _data("show", "gripper", "--json")
    assert abstract.exit_code == 0
    shown = json.loads(abstract.output)
    assert shown["description"] == gripper.abstract and shown["domain"] == gripper.domain
    concrete = json.loads(_data("show", "gripper", "--concrete", "--json").output)
    assert concrete["description"] == gripper.concrete != gripper.abstract
    plain = _data("show", "gripper", "--concrete")
    assert plain.exit_code == 0 and "Preconditions" in plain.output and "(:action" in plain.output


def test_show_errors():
    assert "no domain with id" in _data("show", "no-such-id").output


def test_show_errors_of_an_imported_dataset(official_dir):
    _import(OFFICIAL / "train.json", "few")
    first = load_dataset("few").records[0].id
    result = _data("show", first, "--concrete", "--dataset", "few")
    assert result.exit_code == 1 and "no concrete description" in result.output


def test_stats_of_the_store():
    result = _data("stats", "--json")
    assert result.exit_code == 0
    stats = json.loads(result.output)
    store = load_dataset()
    assert stats["domains"] == len(store)
    assert stats["splits"]["train"] == 2
    assert stats["requirements"][":typing"] == sum(
        ":typing" in domain_facts(r.domain).get("requirements", ()) for r in store)
    assert 0 < stats["sizes"]["predicates"]["min"] <= stats["sizes"]["predicates"]["max"] <= 40
    assert stats["tokens"]["domain"]["max"] <= 5000
    assert stats["problems"] == sum(len(r.problems) for r in store)
    table = _data("stats")
    assert "requirements" in table.output and ":negative-preconditions" in table.output


def test_stats_of_an_imported_dataset_with_a_broken_domain(tmp_path):
    gripper = load_dataset().get("gripper").domain
    path = _write(tmp_path / "two.json", json.dumps([
        {"id": 1, "file_name": "ok", "pddl_domain": gripper},
        {"id": 2, "file_name": "broken", "pddl_domain": gripper[:-3]}]))
    _import(path, "two")
    stats = json.loads(_data("stats", "--dataset", "two", "--json").output)
    assert stats["domains"] == 2 and stats["unparsable"] == ["2"]
    assert stats["requirements"] == {":strips": 1, ":typing": 1}


# --------------------------------------------------------------------------------------------
# Manifest


@pytest.fixture
def small_store(tmp_path, monkeypatch) -> Path:
    """A copy of two store domains with a catalog file, as T2W_DATA_DIR."""
    root = tmp_path / "data"
    for record_id in ("gripper", "blocksworld"):
        (root / "domains").mkdir(parents=True, exist_ok=True)
        shutil.copy(data_dir() / "domains" / f"{record_id}.pddl", root / "domains")
        shutil.copytree(data_dir() / "descriptions" / record_id, root / "descriptions" / record_id)
        shutil.copytree(data_dir() / "problems" / record_id, root / "problems" / record_id)
    (root / "catalog").mkdir()
    (root / "catalog" / "batch-x.json").write_text(json.dumps([
        {"id": "gripper", "name": "Gripper", "split": "train", "category": "logistics",
         "provenance": "written here"},
        {"id": "blocksworld", "name": "Blocks", "split": "train", "category": "manipulation",
         "provenance": "written here"}]))
    monkeypatch.setenv("T2W_DATA_DIR", str(root))
    return root


def test_manifest_command_builds_checks_and_keeps_metadata(small_store):
    assert _data("manifest", "--check").exit_code == 1  # no manifest yet
    result = _data("manifest")
    assert result.exit_code == 0, result.output
    manifest = json.loads((small_store / "manifest.json").read_text())
    assert [e["id"] for e in manifest["domains"]] == ["blocksworld", "gripper"]
    assert manifest["domains"][0]["name"] == "Blocks"
    assert manifest["domains"][1]["problems"] == sorted(
        p.stem for p in (small_store / "problems" / "gripper").glob("*.pddl"))
    assert _data("manifest", "--check").exit_code == 0
    assert {r.split for r in load_store_dir(small_store)} == {"train"}
    # the catalog is merged: once deleted, the manifest keeps its metadata
    shutil.rmtree(small_store / "catalog")
    assert _data("manifest").exit_code == 0
    assert json.loads((small_store / "manifest.json").read_text()) == manifest
    # an edited domain makes the manifest stale, and --check names it
    domain = small_store / "domains" / "gripper.pddl"
    domain.write_text(domain.read_text().replace("(free ?g - gripper)",
                                                 "(free ?g - gripper) (spare ?g - gripper)"))
    stale = _data("manifest", "--check")
    assert stale.exit_code == 1 and "gripper: predicates is 4, files say 5" in " ".join(stale.output.split())


def test_manifest_command_reports_a_malformed_catalog(small_store):
    (small_store / "catalog" / "batch-y.json").write_text("[{\"id\": ")
    result = _data("manifest")
    assert result.exit_code == 1 and "batch-y.json" in result.output
    assert not (small_store / "manifest.json").exists()


def test_manifest_warns_about_missing_metadata(small_store):
    (small_store / "catalog" / "batch-x.json").write_text(json.dumps([
        {"id": "gripper", "name": "Gripper", "split": "train"}]))
    manifest, warnings = build_manifest(small_store)
    assert any(w.startswith("gripper: no category, provenance") for w in warnings)
    assert any(w.startswith("blocksworld: no name, split") for w in warnings)
