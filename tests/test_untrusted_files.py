"""Every path a user names is read through one bounded reader (issue 31, item 1), through the CLI process."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from text2world.files import MAX_INPUT_FILE_BYTES, InputFileError, read_input_bytes, read_input_text

GOOD = ("(define (domain d) (:predicates (p ?x))\n"
        "(:action a :parameters (?x) :precondition (and (p ?x)) :effect (and (not (p ?x)))))\n")


def run_cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "text2world.cli", *args], capture_output=True, text=True,
                          timeout=120, cwd=cwd, env={**os.environ, "COLUMNS": "200"})


@pytest.fixture
def fifo(tmp_path) -> Path:
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    path = tmp_path / "pipe.pddl"
    os.mkfifo(path)
    return path


def _devices() -> list[str]:
    found = [d for d in ("/dev/zero", "/dev/urandom") if os.path.exists(d)]
    return found or ["/dev/null"]


@pytest.mark.parametrize("device", _devices())
def test_devices_are_refused_not_read(device: str) -> None:
    for args in (("validate", device), ("score", "--json", device, device)):
        result = run_cli(*args)
        assert result.returncode == 1, result.stderr
        assert "is a device, not a regular file" in result.stderr
        assert "Traceback" not in result.stderr


def test_a_fifo_without_writer_is_refused_not_waited_on(fifo: Path) -> None:
    result = run_cli("validate", str(fifo))
    assert result.returncode == 1
    assert "FIFO" in result.stderr and str(fifo) in result.stderr and "Traceback" not in result.stderr


def test_a_fifo_among_semantic_problems_is_refused(fifo: Path, tmp_path: Path) -> None:
    domain = tmp_path / "d.pddl"
    domain.write_text(GOOD)
    result = run_cli("score", "--semantic", "--problems", str(tmp_path), str(domain), str(domain))
    assert result.returncode == 1
    assert f"problem file {fifo}: is a FIFO" in result.stderr and "Traceback" not in result.stderr


def test_reader_bounds_what_it_reads(tmp_path: Path) -> None:
    big = tmp_path / "big.pddl"
    big.write_bytes(b"a" * (MAX_INPUT_FILE_BYTES + 1))
    with pytest.raises(InputFileError, match="larger than 4,194,304 bytes"):
        read_input_bytes(big, "domain")
    assert read_input_bytes(big, "domain", limit=MAX_INPUT_FILE_BYTES + 1).startswith(b"aaa")
    (tmp_path / "latin1.pddl").write_bytes("caf\xe9".encode("latin-1"))
    with pytest.raises(InputFileError, match="not UTF-8"):
        read_input_text(tmp_path / "latin1.pddl", "domain")
    with pytest.raises(InputFileError, match="no such file"):
        read_input_text(tmp_path / "missing.pddl", "domain")
    with pytest.raises(InputFileError, match="is a folder"):
        read_input_text(tmp_path, "domain")
    assert stat.S_ISREG(os.stat(big).st_mode)


def _chain(arity: int) -> tuple[str, str]:
    params = " ".join(f"?x{i} - n" for i in range(arity))
    links = " ".join(f"(next ?x{i} ?x{i + 1})" for i in range(arity - 1))
    domain = ("(define (domain chain) (:requirements :strips :typing) (:types n)"
              " (:predicates (next ?a - n ?b - n) (mark ?a - n))"
              f" (:action walk :parameters ({params}) :precondition (and {links}) :effect (mark ?x{arity - 1})))")
    nodes = " ".join(f"n{i}" for i in range(5))
    init = " ".join(f"(next n{i} n{(i + 1) % 5})" for i in range(5))
    problem = f"(define (problem c) (:domain chain) (:objects {nodes} - n) (:init {init}) (:goal (mark n0)))"
    return domain, problem


def test_semantic_score_of_a_thirty_parameter_action_is_simulated(tmp_path: Path) -> None:
    """Issue 31, item 2 through the CLI: no traceback, and the action is simulated (the same
    domain as gold and prediction agrees with itself)."""
    domain, problem = _chain(30)
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "p1.pddl").write_text(problem)
    (tmp_path / "wide.pddl").write_text(domain)
    result = run_cli("score", "--json", "--semantic", "--problems", str(tmp_path / "problems"),
                     str(tmp_path / "wide.pddl"), str(tmp_path / "wide.pddl"))
    assert "Traceback" not in result.stderr
    assert result.returncode == 0, result.stderr
    assert "not_simulated" not in result.stdout and "SyntaxError" not in result.stdout
