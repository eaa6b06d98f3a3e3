"""Loading the built-in store: where it is looked for and when it is read again."""

from __future__ import annotations


def test_missing_builtin_store_is_a_clear_error(tmp_path, monkeypatch):
    import pytest

    from text2world.store.datasets import DatasetError, load_dataset
    monkeypatch.setenv("T2W_DATA_DIR", str(tmp_path / "nowhere"))
    with pytest.raises(DatasetError, match="T2W_DATA_DIR"):
        load_dataset()


def test_builtin_store_cache_sees_a_domain_added_inside_domains(tmp_path, monkeypatch):
    import shutil

    from text2world.store.datasets import data_dir, load_dataset
    root = tmp_path / "data"
    shutil.copytree(data_dir() / "domains", root / "domains")
    monkeypatch.setenv("T2W_DATA_DIR", str(root))
    before = len(load_dataset())
    (root / "domains" / "zz-extra.pddl").write_text(
        (root / "domains" / "gripper.pddl").read_text().replace("gripper", "zz-extra", 1))
    assert len(load_dataset()) == before + 1
