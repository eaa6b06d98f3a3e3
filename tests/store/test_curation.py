"""The curation pipeline (paper section 3.2) on crafted inputs, on the store, and its CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from repo_paths import OFFICIAL_DIR
from typer.testing import CliRunner

import text2world.store.curation as curation
from text2world.cli.main import app
from text2world.store.curation import (
    REPORT_NAME,
    CurationError,
    cross_similarity,
    curate_dir,
    curate_texts,
    similar_pairs,
    similarity_matrix,
)
from text2world.store.datasets import data_dir
from text2world.store.tokens import count_gpt2_tokens

runner = CliRunner()
DATA = data_dir()


def _store_texts() -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted((DATA / "domains").glob("*.pddl"))}


def _generated(word: str, predicates: int, actions: int, atoms_per_action: int = 1) -> str:
    """A valid typed domain whose names all derive from ``word`` (distinct vocabularies keep
    generated domains apart under TF-IDF)."""
    preds = " ".join(f"({word}-p{i} ?x - {word}-thing)" for i in range(predicates))
    blocks = []
    for a in range(actions):
        atoms = " ".join(f"({word}-p{(a + k) % predicates} ?x)" for k in range(atoms_per_action))
        blocks.append(f"(:action {word}-act{a} :parameters (?x - {word}-thing) "
                      f":precondition (and {atoms}) :effect (and (not ({word}-p{a % predicates} ?x))))")
    return (f"(define (domain {word})\n (:requirements :strips :typing :negative-preconditions)\n"
            f" (:types {word}-thing)\n (:predicates {preds})\n " + "\n ".join(blocks) + ")\n")


@pytest.fixture
def raw_dir(tmp_path) -> Path:
    """A folder with one file for each way of being dropped, and two survivors."""
    src = tmp_path / "raw"
    src.mkdir()
    gripper = (DATA / "domains" / "gripper.pddl").read_text()
    (src / "a-gripper.pddl").write_text(gripper)
    (src / "b-blocks.pddl").write_text((DATA / "domains" / "blocksworld.pddl").read_text())
    # a near copy: renamed domain and one variable
    (src / "c-gripper-copy.pddl").write_text(
        gripper.replace("(domain gripper)", "(domain gripper-two)"))
    (src / "d-broken.pddl").write_text(gripper.rstrip().rstrip(")"))
    (src / "e-binary.pddl").write_bytes(b"(define \xff\xfe\x00")
    (src / "f-wide.pddl").write_text(_generated("wide", predicates=41, actions=3))
    (src / "g-busy.pddl").write_text(_generated("busy", predicates=5, actions=21))
    (src / "h-long.pddl").write_text(_generated("lengthy", predicates=20, actions=20,
                                                atoms_per_action=40))
    (src / "notes.txt").write_text("not a domain")
    return src


def test_each_step_drops_what_it_should_and_says_why(raw_dir, tmp_path):
    assert count_gpt2_tokens((raw_dir / "h-long.pddl").read_text()) > 5000
    out = tmp_path / "out"
    report = curate_dir(raw_dir, out)
    by_file = {d.file: d for d in report.dropped}
    assert report.files == 8  # notes.txt is not a .pddl file
    assert report.kept == ["a-gripper.pddl", "b-blocks.pddl"]
    assert {name: d.step for name, d in by_file.items()} == {
        "c-gripper-copy.pddl": "dedup", "d-broken.pddl": "validation",
        "e-binary.pddl": "validation", "f-wide.pddl": "complexity",
        "g-busy.pddl": "complexity", "h-long.pddl": "tokens"}
    copy = by_file["c-gripper-copy.pddl"]
    assert copy.twin == "a-gripper.pddl" and 0.9 < copy.similarity <= 1.0
    assert "IncorrectParentheses" in by_file["d-broken.pddl"].reason
    assert "UTF-8" in by_file["e-binary.pddl"].reason
    assert "41 predicates > 40" in by_file["f-wide.pddl"].reason
    assert "21 actions > 20" in by_file["g-busy.pddl"].reason
    assert "GPT-2 tokens > 5000" in by_file["h-long.pddl"].reason
    assert report.counts() == {"validation": 2, "dedup": 1, "complexity": 2, "tokens": 1}
    # survivors are written verbatim, with the report beside them
    assert sorted(p.name for p in out.iterdir()) == ["a-gripper.pddl", "b-blocks.pddl",
                                                     REPORT_NAME]
    assert (out / "a-gripper.pddl").read_text() == (raw_dir / "a-gripper.pddl").read_text()
    written = json.loads((out / REPORT_NAME).read_text())
    assert written == report.to_dict()
    assert written["dropped_per_step"]["dedup"] == 1


def test_steps_run_in_order():
    """A file both broken and oversized is dropped by validation, the first step."""
    oversized_and_broken = _generated("both", predicates=45, actions=2).rstrip().rstrip(")")
    report = curate_texts({"x.pddl": oversized_and_broken})
    assert [(d.file, d.step) for d in report.dropped] == [("x.pddl", "validation")]
    # a copy of an oversized domain is dropped as a duplicate before complexity looks at it
    wide = _generated("wide", predicates=41, actions=2)
    report = curate_texts({"a.pddl": wide, "b.pddl": wide})
    assert [(d.file, d.step) for d in report.dropped] == [("b.pddl", "dedup"),
                                                          ("a.pddl", "complexity")]


def test_limits_are_strictly_greater_than():
    exactly = _generated("edge", predicates=40, actions=20)
    assert curate_texts({"e.pddl": exactly}).kept == ["e.pddl"]


def test_output_is_never_half_written(raw_dir, tmp_path, monkeypatch):
    out = tmp_path / "out"

    def broken_rename(staging, target):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(curation, "replace_dir", broken_rename)
    with pytest.raises(OSError):
        curate_dir(raw_dir, out)
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["raw"]  # no staging folder left


def test_output_folder_rules(raw_dir, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "old.pddl").write_text("old")
    with pytest.raises(CurationError, match="not empty"):
        curate_dir(raw_dir, out)
    assert (out / "old.pddl").exists()
    curate_dir(raw_dir, out, force=True)
    assert not (out / "old.pddl").exists() and (out / REPORT_NAME).exists()
    with pytest.raises(CurationError, match="outside the source"):
        curate_dir(raw_dir, raw_dir / "curated")
    with pytest.raises(CurationError, match="no such folder"):
        curate_dir(tmp_path / "missing", tmp_path / "o2")
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(CurationError, match="no .pddl files"):
        curate_dir(empty, tmp_path / "o3")


def test_cli_curate_prints_the_report(raw_dir, tmp_path):
    out = tmp_path / "curated"
    result = runner.invoke(app, ["data", "curate", str(raw_dir), "--out", str(out)])
    assert result.exit_code == 0, result.output
    for name, step in (("c-gripper-copy.pddl", "dedup"), ("d-broken.pddl", "validation"),
                       ("g-busy.pddl", "complexity"), ("h-long.pddl", "tokens")):
        line = next(line for line in result.output.splitlines() if name in line)
        assert step in line
    assert (out / "a-gripper.pddl").exists()
    as_json = runner.invoke(app, ["data", "curate", str(raw_dir), "--out", str(out), "--force",
                                  "--json"])
    assert as_json.exit_code == 0
    assert json.loads(as_json.output)["kept"] == ["a-gripper.pddl", "b-blocks.pddl"]


@pytest.mark.parametrize("args, message", [
    (["missing-folder"], "no such folder"),
    (["RAW", "--out", "RAW/inner"], "outside the source"),
])
def test_cli_curate_errors_are_clean(raw_dir, tmp_path, args, message):
    args = [a.replace("RAW", str(raw_dir)) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "o")]
    result = runner.invoke(app, ["data", "curate", *args])
    assert result.exit_code == 1
    assert message in result.output and "Traceback" not in result.output


# --------------------------------------------------------------------------------------------
# The store against the pipeline and the released data


def test_store_passes_its_own_curation_pipeline():
    texts = _store_texts()
    report = curate_texts(texts, source=str(DATA / "domains"))
    print(json.dumps(report.to_dict()["dropped_per_step"]), f"{len(report.kept)} kept")
    assert report.dropped == [], "\n".join(f"{d.file}: {d.step}: {d.reason}"
                                           for d in report.dropped)
    assert report.kept == sorted(texts)


def test_no_two_store_domains_are_near_duplicates():
    pairs = similar_pairs(_store_texts(), threshold=0.9)
    assert pairs == [], pairs


def test_similarity_detects_a_lightly_edited_copy():
    """The measure behind the two tests above: a renamed copy is far above 0.9."""
    texts = _store_texts()
    edited = texts["blocksworld.pddl"].replace("blocksworld", "towers").replace("?b ", "?x ")
    pairs = similar_pairs({**texts, "towers.pddl": edited}, threshold=0.9)
    assert [(a, b) for a, b, _ in pairs] == [("blocksworld.pddl", "towers.pddl")]
    sims = similarity_matrix([texts["blocksworld.pddl"], edited, texts["gripper.pddl"]])
    assert sims[0, 1] > 0.9 > sims[0, 2]


def test_no_store_domain_copies_a_released_domain(official_test):
    train_path = OFFICIAL_DIR / "train.json"
    released = [r["pddl_domain"] for r in official_test]
    if train_path.is_file():
        released += [r["pddl_domain"] for r in json.loads(train_path.read_text())]
    texts = _store_texts()
    names = sorted(texts)
    sims = cross_similarity([texts[n] for n in names], released)
    too_close = [(names[i], int(j), round(float(sims[i, j]), 3))
                 for i in range(len(names)) for j in range(len(released)) if sims[i, j] > 0.9]
    assert too_close == []
    # the check can fire: a released domain itself is found
    assert cross_similarity([released[0]], released).max() > 0.99


def test_gpt2_tokens_are_gpt2s():
    """The offline encoding gives GPT-2's token ids (bytes mapped as GPT-2's vocabulary does)."""
    from text2world.store.tokens import gpt2_encoding, gpt2_tokens

    assert gpt2_tokens("Hello, world!") == [15496, 11, 995, 0]
    assert gpt2_tokens("hello world (define (domain x))") == [31373, 995, 357, 13086, 357,
                                                             27830, 2124, 4008]
    text = "naïve — ünïcödé ;; (:action go)\n\t"
    assert gpt2_encoding().decode(gpt2_tokens(text)) == text
