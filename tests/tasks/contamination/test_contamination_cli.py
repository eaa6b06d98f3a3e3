"""``t2w contamination --compare`` and corpus reading."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from text2world.cli.main import app
from text2world.store.datasets import load_dataset
from text2world.tasks.contamination.corpus import CorpusError, read_corpus

runner = CliRunner()


@pytest.fixture(scope="module")
def store_domains():
    records = load_dataset("text2world").split("all")
    assert len(records) >= 2, "the built-in store needs at least two domains"
    return records


def _invoke(*args: str):
    result = runner.invoke(app, ["contamination", *args])
    assert "Traceback" not in result.output
    return result


def test_compare_folder_finds_the_leaked_domain(tmp_path, store_domains):
    leaked = store_domains[-1]
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "sub" / "leak.txt").write_text("Training sample:\n" + leaked.domain)
    (corpus / "story.md").write_text("Once upon a time a small boat sailed to a quiet harbour "
                                     "and nobody planned anything at all. " * 5)
    (corpus / "blob.bin").write_bytes(b"\x00\x01\x02" * 10)
    (corpus / ".hidden").write_text(leaked.domain)
    result = _invoke("--compare", str(corpus), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["items"] == 2 and data["domains"] == len(store_domains)
    assert data["pairs"] == 2 * len(store_domains)
    top = data["top_overlaps"][0]
    assert top["item"] == "sub/leak.txt" and top["rate"] == 1.0 and top["spans"]
    # (Another store domain could tie at 1.0 only if it duplicated the leaked one.)
    assert {"item": "sub/leak.txt", "domain": leaked.id, "rate": 1.0} in [
        {k: o[k] for k in ("item", "domain", "rate")} for o in data["top_overlaps"]]
    assert "story.md" not in data["max_rate_per_item"]
    assert any("blob.bin" in note for note in data["skipped"])


def test_compare_jsonl_with_text_field_and_table_output(tmp_path, store_domains):
    leaked = store_domains[0]
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"id": "a", "content": "nothing related here"}) + "\n\n"
                      + json.dumps({"id": "b", "content": leaked.domain}) + "\n")
    result = _invoke("--compare", str(corpus), "--text-field", "content", "--top", "3")
    assert result.exit_code == 0, result.output
    assert "line 3 (b)" in result.output and leaked.id in result.output
    assert "1.000" in result.output and "gold" in result.output
    # The token counts say which tokens they count: content tokens, not every GPT-2 token.
    assert "content tokens" in result.output and "keywords" in result.output
    assert "tokens)" not in result.output.replace("content tokens)", "")
    output = tmp_path / "out" / "result.json"
    result = _invoke("--compare", str(corpus), "--text-field", "content", "--output",
                     str(output))
    assert result.exit_code == 0
    saved = json.loads(output.read_text())
    assert saved["overlaps"][0]["item"] == "line 3 (b)"


def test_compare_missing_text_field_is_a_clear_error(tmp_path):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(json.dumps({"id": "a", "body": "x"}) + "\n")
    result = _invoke("--compare", str(corpus))
    assert result.exit_code == 1
    assert "line 1 has no text field 'text'" in " ".join(result.output.split()) and "body" in result.output


@pytest.mark.parametrize("content, message", [
    ("{not json\n", "line 1 is not valid JSON"),
    ("[1, 2]\n", "line 1 is not a JSON object"),
])
def test_compare_bad_jsonl(tmp_path, content, message):
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(content)
    result = _invoke("--compare", str(corpus))
    assert result.exit_code == 1 and message in " ".join(result.output.split())


def test_compare_argument_errors(tmp_path):
    assert "no such file" in " ".join(_invoke("--compare", str(tmp_path / "missing")).output.split())
    both = _invoke("--compare", str(tmp_path), "--model", "reference/oracle")
    assert both.exit_code == 1 and "exactly one" in both.output
    neither = _invoke()
    assert neither.exit_code == 1 and "exactly one" in neither.output
    (tmp_path / "a.txt").write_text("x")
    assert "--n must be" in _invoke("--compare", str(tmp_path), "--n", "0").output
    assert "unknown split" in _invoke("--compare", str(tmp_path), "--split", "dev").output
    unknown = _invoke("--compare", str(tmp_path), "--dataset", "no-such-dataset")
    assert unknown.exit_code == 1 and "unknown dataset" in unknown.output
    empty = tmp_path / "empty"
    empty.mkdir()
    assert "no readable text files" in " ".join(_invoke("--compare", str(empty)).output.split())


def test_read_corpus_json_list_and_single_file(tmp_path):
    records = tmp_path / "records.json"
    records.write_text(json.dumps([{"file_name": "x.pddl", "pddl": "(define (domain x))"}]))
    items, skipped = read_corpus(records, "pddl")
    assert items == [("record 0 (x.pddl)", "(define (domain x))")] and skipped == []
    with pytest.raises(CorpusError, match="JSON list"):
        (tmp_path / "obj.json").write_text("{}")
        read_corpus(tmp_path / "obj.json")
    single = tmp_path / "one.pddl"
    single.write_text("(define (domain one))")
    assert read_corpus(single)[0] == [("one.pddl", "(define (domain one))")]
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00abc")
    with pytest.raises(CorpusError, match="binary"):
        read_corpus(binary)


def test_iter_corpus_streams_jsonl_and_names_the_bad_line(tmp_path):
    from text2world.tasks.contamination.corpus import iter_corpus

    corpus = tmp_path / "big.jsonl"
    good = "".join(json.dumps({"id": i, "text": f"text {i}"}) + "\n" for i in range(3))
    corpus.write_bytes(good.encode() + b'{"id": 9, "text": "caf\xe9"}\n')
    items = iter_corpus(corpus)
    assert next(items) == ("line 1 (0)", "text 0")  # yielded before the bad line is read
    with pytest.raises(CorpusError, match="line 4 is not UTF-8"):
        list(items)
    result = _invoke("--compare", str(corpus))
    assert result.exit_code == 1 and "line 4 is not UTF-8" in " ".join(result.output.split())
    empty = tmp_path / "empty.jsonl"
    empty.write_text("\n\n")
    assert "no records" in " ".join(_invoke("--compare", str(empty)).output.split())
