"""Reading a corpus for the contamination checks (``t2w contamination --corpus``, the API):
a folder of text files, a JSONL file streamed line by line, a JSON list of records, or one text
file, each read with a size limit and clear errors naming the file and line."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Iterable, Iterator

from text2world.errors import Text2WorldError
from text2world.files import InputFileError, open_input, read_input_bytes


class CorpusError(Text2WorldError, ValueError):
    """A corpus that cannot be read; the message names the file and line."""


MAX_CORPUS_FILE_BYTES = 64 * 1024 * 1024


def read_corpus(path: str | os.PathLike, text_field: str = "text") -> tuple[list[tuple[str, str]],
                                                                          list[str]]:
    """The (name, text) items of a corpus as a list, and notes on what was skipped
    (``iter_corpus`` streams them instead)."""
    skipped: list[str] = []
    items = list(iter_corpus(path, text_field, skipped))
    return items, skipped


def iter_corpus(path: str | os.PathLike, text_field: str = "text",
                skipped: list[str] | None = None) -> Iterator[tuple[str, str]]:
    """Stream the (name, text) items of a corpus; notes on skipped files go to ``skipped``.

    ``path`` may be a folder (every non-hidden file below it, each one item; files that are not
    UTF-8 text are skipped and noted), a JSONL file (read line by line, any size) or a JSON
    list of records (each record's ``text_field`` is one item, named by its
    ``name``/``file_name``/``id`` and its line or position), or any other text file (one item).
    Raises ``CorpusError`` naming the file and line of anything unreadable.
    """
    root = Path(path)
    if not root.exists():
        raise CorpusError(f"{root}: no such file or folder")
    notes = skipped if skipped is not None else []
    if root.is_dir():
        count = 0
        for file in sorted(p for p in root.rglob("*") if p.is_file()):
            relative = file.relative_to(root)
            if any(part.startswith(".") for part in relative.parts):
                continue
            text = _read_corpus_file(file, notes)
            if text is not None:
                count += 1
                yield str(relative), text
        if not count:
            raise CorpusError(f"{root}: no readable text files in this folder")
        return
    if root.suffix.lower() == ".jsonl":
        yield from _record_items(root, _jsonl_records(root), text_field)
        return
    text = _read_corpus_file(root, None)
    assert text is not None  # with no skipped list, an unreadable file raises
    if root.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except ValueError as err:
            raise CorpusError(f"{root}: not valid JSON ({err})") from None
        if not isinstance(data, list):
            raise CorpusError(f"{root}: expected a JSON list of records (or use a .jsonl file)")
        yield from _record_items(root, ((f"record {i}", r) for i, r in enumerate(data)),
                                 text_field)
        return
    yield root.name, text


def _jsonl_records(path: Path) -> Iterator[tuple[str, object]]:
    try:
        stream = open_input(path, "corpus")
    except InputFileError as err:
        raise CorpusError(str(err)) from None
    with stream:
        for number, raw in enumerate(stream, 1):
            if not raw.strip():
                continue
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
                yield f"line {number}", json.loads(line)
            except UnicodeDecodeError as err:
                raise CorpusError(f"{path}: line {number} is not UTF-8 text (byte "
                                  f"{err.start})") from None
            except ValueError as err:
                raise CorpusError(f"{path}: line {number} is not valid JSON ({err})") from None


def _read_corpus_file(file: Path, skipped: list[str] | None) -> str | None:
    def problem(message: str) -> None:
        if skipped is None:
            raise CorpusError(f"{file}: {message}")
        skipped.append(f"{file}: {message}")

    try:
        size = file.stat().st_size
        if size > MAX_CORPUS_FILE_BYTES:
            problem(f"{size:,} bytes, larger than the {MAX_CORPUS_FILE_BYTES:,}-byte limit")
            return None
        data = read_input_bytes(file, "corpus file", MAX_CORPUS_FILE_BYTES)
    except OSError as err:
        problem(f"cannot be read ({err.strerror})")
        return None
    except InputFileError as err:  # a device or a FIFO: refused, never read
        problem(str(err).split(": ", 1)[-1])
        return None
    if b"\x00" in data[:8192]:
        problem("binary file, not text")
        return None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        problem(f"not UTF-8 text (byte offset {err.start})")
        return None


def _record_items(path: Path, records: Iterable[tuple[str, object]],
                  text_field: str) -> Iterator[tuple[str, str]]:
    count = 0
    for where, record in records:
        if not isinstance(record, dict):
            raise CorpusError(f"{path}: {where} is not a JSON object")
        text = record.get(text_field)
        if not isinstance(text, str):
            fields = ", ".join(sorted(k for k, v in record.items() if isinstance(v, str)))
            raise CorpusError(f"{path}: {where} has no text field {text_field!r} (text fields "
                              f"there: {fields or 'none'}); choose one with --text-field")
        label = next((str(record[key]) for key in ("name", "file_name", "id")
                      if isinstance(record.get(key), (str, int))), None)
        count += 1
        yield (f"{where} ({label})" if label else where), text
    if not count:
        raise CorpusError(f"{path}: no records")
