"""Bad input: a clear error, exit code 1 from the CLI, never a traceback, with bounded work."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from text2world import DomainInputError, score, validate

GOOD = ("(define (domain d) (:predicates (p ?x))\n"
        "(:action a :parameters (?x) :precondition (and (p ?x)) :effect (and (not (p ?x)))))\n")

BAD_TEXTS = {
    "empty": "",
    "garbage": "\x7f\x1b[31m garbage ]]]} ((((( \t",
    "huge": "(define (domain d) (:predicates " + "(p ?x) " * 750_000 + "))",
    "nested": "(" * 100_000 + ")" * 100_000,
    "nested-open": "(define (domain d) " + "(and " * 100_000,
    "nul": "(define (domain d)\x00(:predicates))",
}


@pytest.mark.parametrize("name", sorted(BAD_TEXTS))
def test_library_reports_bad_input_quickly(name, monkeypatch):
    # The work is bounded, not the seconds (a loaded machine breaks wall-clock bounds): tarski
    # and Levenshtein never see a text past the size limit; CPU time only with a wide margin.
    import Levenshtein
    from tarski.io import PDDLReader

    from text2world.pddl.bounds import MAX_DOMAIN_CHARS
    seen: list[int] = []
    parse, ratio = PDDLReader.parse_domain_string, Levenshtein.ratio
    monkeypatch.setattr(PDDLReader, "parse_domain_string",
                        lambda self, source: seen.append(len(source)) or parse(self, source))
    monkeypatch.setattr(Levenshtein, "ratio", lambda a, b: seen.extend((len(a), len(b))) or ratio(a, b))
    text = BAD_TEXTS[name]
    start = time.process_time()
    result = validate(text)
    assert not result.ok and result.errors[0].message
    for mode in ("paper", "canonical"):
        scored = score(GOOD, text, mode=mode)
        assert not scored.executable and scored.errors
        assert scored.f1_effects == 0.0
    assert max(seen, default=0) <= MAX_DOMAIN_CHARS
    assert time.process_time() - start < 20.0


def test_library_rejects_non_text():
    with pytest.raises(DomainInputError, match="must be text"):
        score(GOOD, b"(define)")  # type: ignore[arg-type]


def run_cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "text2world.cli", *args], input=stdin,
                          capture_output=True, timeout=60, env={**os.environ, "COLUMNS": "200"})


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad")
    files = {}
    for name, text in BAD_TEXTS.items():
        files[name] = folder / f"{name}.pddl"
        files[name].write_text(text, encoding="utf-8")
    files["binary"] = folder / "binary.pddl"
    files["binary"].write_bytes(bytes(range(256)) * 40)
    files["latin1"] = folder / "latin1.pddl"
    files["latin1"].write_bytes("(define (domain caf\xe9))".encode("latin-1"))
    files["five-mb"] = folder / "five-mb.pddl"
    files["five-mb"].write_bytes(b"(" + b"a" * 5 * 1024 * 1024 + b")")
    files["good"] = folder / "good.pddl"
    files["good"].write_text(GOOD)
    return files


@pytest.mark.parametrize("name", sorted(list(BAD_TEXTS) + ["binary", "latin1", "five-mb"]))
def test_cli_reports_bad_input_with_exit_1(bad_files, name):
    for args in (["validate", str(bad_files[name])],
                 ["score", str(bad_files["good"]), str(bad_files[name]), "--json"]):
        result = run_cli(*args)
        output = result.stdout.decode() + result.stderr.decode()
        assert result.returncode == 1, (args, output)
        assert "Traceback" not in output
        assert output.strip()


def test_cli_json_output_for_an_invalid_prediction(bad_files):
    result = run_cli("score", str(bad_files["good"]), str(bad_files["nested"]), "--json")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr.decode()


def test_cli_missing_file_and_unknown_mode(bad_files, tmp_path):
    result = run_cli("validate", str(tmp_path / "missing.pddl"))
    assert result.returncode == 1 and b"no such file" in result.stderr
    result = run_cli("score", str(bad_files["good"]), str(bad_files["good"]), "--mode", "fuzzy")
    # a usage error (exit 2, as for any bad option) naming the choices --help lists
    assert result.returncode == 2 and b"'fuzzy' is not one of 'paper', 'canonical'" in result.stderr
