"""``t2w data export --format hf DIR``: the store and an imported dataset as a folder that
``datasets.load_from_disk`` and ``load_dataset("parquet", ...)`` open, every field compared."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

datasets = pytest.importorskip("datasets")

from text2world.cli import app as cli  # noqa: E402
from text2world.integrations.hf_export import export_hf  # noqa: E402
from text2world.simulation import simulator_from_text  # noqa: E402
from text2world.store.datasets import Dataset, import_dataset, load_dataset  # noqa: E402

STRATA = ("category", "size_band", "features", "requirements", "tokens", "provenance")


@pytest.fixture(autouse=True)
def _hf_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_CACHE", str(tmp_path / "hf-cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")


def _export(*args: str):
    return CliRunner().invoke(cli, ["data", "export", *args])


def _rows_by_id(loaded) -> dict[str, tuple[str, dict]]:
    return {row["id"]: (split, row) for split in loaded for row in loaded[split]}


def _assert_same(loaded, dataset: Dataset) -> None:
    rows = _rows_by_id(loaded)
    assert len(rows) == len(dataset)
    for record in dataset:
        split, row = rows[record.id]
        assert split == record.split
        assert (row["name"], row["domain"]) == (record.name, record.domain)
        assert row["abstract_description"] == record.abstract
        assert row["concrete_description"] == record.concrete
        assert [(p["name"], p["pddl"]) for p in row["problems"]] == \
            [(p.name, p.pddl) for p in record.problems]
        for field in STRATA:
            expected = record.meta.get(field) if field in record.meta else None
            assert row[field] == expected, (record.id, field)
        assert json.loads(row["meta"]) == json.loads(json.dumps(record.meta, default=str))


def test_store_exports_and_loads_back_both_ways(tmp_path):
    out = tmp_path / "store-hf"
    result = _export("--format", "hf", str(out))
    assert result.exit_code == 0, result.output
    store = load_dataset()
    from_disk = datasets.load_from_disk(str(out))
    assert list(from_disk) == ["train", "test"]
    _assert_same(from_disk, store)
    from_parquet = datasets.load_dataset("parquet", data_dir=str(out / "data"))
    _assert_same(from_parquet, store)
    assert from_parquet["test"].features == from_disk["test"].features
    by_card = datasets.load_dataset(str(out))  # the card's YAML configs name the parquet files
    _assert_same(by_card, store)
    card = (out / "README.md").read_text()
    assert card.startswith("---\nlicense: mit\n")
    assert "# Datasheet: the text2world store" in card and "**Licence:** MIT" in card
    assert all(p["reference_plan"] is None for row in from_disk["test"] for p in row["problems"])


def test_an_export_is_not_written_over_by_accident(tmp_path):
    out = tmp_path / "store-hf"
    assert _export("--format", "hf", str(out)).exit_code == 0
    again = _export("--format", "hf", str(out))
    assert again.exit_code == 1 and "--overwrite" in again.output
    assert _export("--format", "hf", str(out), "--overwrite").exit_code == 0
    other = tmp_path / "other"
    other.mkdir()
    (other / "notes.txt").write_text("mine")
    refused = _export("--format", "hf", str(other), "--overwrite")
    assert refused.exit_code == 1 and "not empty" in refused.output
    assert (other / "notes.txt").read_text() == "mine"
    missing = _export("--format", "hf")
    assert missing.exit_code == 1 and "writes a folder" in missing.output


def test_imported_dataset_keeps_its_source_licence(tmp_path):
    store = load_dataset()
    source = tmp_path / "few.jsonl"
    source.write_text("".join(json.dumps({"id": r.id, "file_name": r.name, "pddl_domain": r.domain,
                                          "corrected_description": r.abstract}) + "\n"
                              for r in store.records[:3]))
    imported = import_dataset(source, "few")
    out = tmp_path / "few-hf"
    result = _export("few", "--format", "hf", "--out", str(out))
    assert result.exit_code == 0, result.output
    loaded = datasets.load_from_disk(str(out))
    assert list(loaded) == ["test"]
    _assert_same(loaded, imported)
    card = (out / "README.md").read_text()
    assert card.startswith("---\nlicense: other\n") and "keep the licence of their source" in card


def test_reference_plans_are_the_shipped_valid_plans(tmp_path, monkeypatch):
    from text2world.store.plans import shipped_plan
    from text2world.tasks.wm import planner

    def no_planning(*args, **kwargs):
        raise AssertionError("the store ships these plans: nothing is planned")

    monkeypatch.setattr(planner, "optimal_plan", no_planning)
    store = load_dataset()
    subset = Dataset("text2world", tuple(store.get(i) for i in ("blocksworld", "gripper")),
                     store.source)
    result = export_hf(subset, tmp_path / "plans", plans=True)
    assert result.plans == sum(len(r.problems) for r in subset)
    loaded = datasets.load_from_disk(str(tmp_path / "plans"))
    for row in loaded["train"]:
        for problem in row["problems"]:
            assert problem["plan_status"] == "solved"
            verdict = simulator_from_text(row["domain"], problem["pddl"]).validate_plan(
                problem["reference_plan"])
            assert verdict.valid, (row["id"], problem["name"], verdict.reason)
            assert problem["plan_cost"] == len(problem["reference_plan"])
            shipped = shipped_plan(store.get(row["id"]), problem["name"], problem["pddl"])
            assert shipped is not None and problem["reference_plan"] == list(shipped.plan)


def test_a_problem_without_a_shipped_plan_is_planned(tmp_path):
    import dataclasses

    record = load_dataset().get("blocksworld")
    changed = dataclasses.replace(record.problems[0], pddl=record.problems[0].pddl + "\n\n")
    subset = Dataset("text2world", (dataclasses.replace(record, problems=(changed,)),), "")
    result = export_hf(subset, tmp_path / "planned", plans=True)
    problem = datasets.load_from_disk(str(tmp_path / "planned"))["train"][0]["problems"][0]
    assert result.plans == 1 and problem["plan_status"] == "solved"
    assert simulator_from_text(record.domain, changed.pddl).validate_plan(
        problem["reference_plan"]).valid
