"""``t2w score-batch`` picks its engine (``--engine local|ray|auto``) and says which and why in
one line; a pool process scores its answers itself, under a reward worker's memory bound,
instead of starting a reward worker of its own."""

from __future__ import annotations

import json
import mmap
import multiprocessing
import os
import resource
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest
from typer.testing import CliRunner

from text2world.batch_scoring import (
    BatchInputError,
    choose_engine,
    parse_line,
    pool_process_init,
    score_chunk_in_pool,
    score_task,
)
from text2world.cli import app as cli
from text2world.store.datasets import load_dataset


def _lines() -> list[dict]:
    store = load_dataset()
    lines = []
    for gold in ("gripper", "blocksworld"):
        domain = store.get(gold).domain
        lines.append({"id": f"{gold}-self", "gold_id": gold, "response": domain})
        lines.append({"id": f"{gold}-broken", "gold_id": gold, "response": domain[:-40]})
    return lines


def test_auto_is_local_without_a_cluster_and_ray_on_a_big_batch_with_one(monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    small = choose_engine("auto", 48, cores=2)
    assert (small.engine, small.workers) == ("local", 2)
    assert small.line() == "engine: a local pool of 2 processes (auto: no Ray cluster, " \
                           "RAY_ADDRESS unset)"
    assert choose_engine("auto", 5, cores=16).line().startswith("engine: this process")
    assert choose_engine("local", 10_000, workers=3).workers == 3
    told = choose_engine("ray", 4, workers=2)
    assert (told.engine, told.address, told.workers) == ("ray", None, 2)
    monkeypatch.setenv("RAY_ADDRESS", "10.0.0.1:6379")
    assert choose_engine("ray", 4).address == "10.0.0.1:6379"  # the cluster's CPUs
    pytest.importorskip("ray")
    assert choose_engine("auto", 48, cores=2).engine == "local"  # ~12 s: under 2 x 15 s
    big = choose_engine("auto", 4000, cores=16)
    assert (big.engine, big.address) == ("ray", "10.0.0.1:6379")
    assert "over twice Ray's start-up" in big.line()
    with pytest.raises(BatchInputError, match="--engine 'spark'"):
        choose_engine("spark", 1)


def test_the_command_names_its_engine_and_scores_the_same_lines(tmp_path, monkeypatch):
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    source = tmp_path / "in.jsonl"
    source.write_text("".join(json.dumps(line) + "\n" for line in _lines()), encoding="utf-8")
    expected = [score_task(parse_line(line, "test").task()) for line in _lines()]
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(cli, ["score-batch", str(source), "--out", str(out),
                                      "--engine", "local", "--workers", "2"])
    assert result.exit_code == 0, result.output
    assert "engine: a local pool of 2 processes (as told)" in result.output
    assert [json.loads(row) for row in out.read_text().splitlines()] == expected
    bad = CliRunner().invoke(cli, ["score-batch", str(source), "--out", str(out),
                                   "--engine", "spark"])
    assert bad.exit_code != 0 and "--engine 'spark': choose one of auto, local, ray" in bad.output


def _bounded_children() -> list[int]:
    """This process's children that are reward workers (``python -m text2world.bounded``)."""
    found = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        for pid in (task / "children").read_text().split():
            if b"text2world.bounded" in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
    return found


def _score_in_pool_process(tasks: list[dict]) -> tuple[list[dict], list[int], int]:
    lines = score_chunk_in_pool(tasks)
    return lines, _bounded_children(), resource.getrlimit(resource.RLIMIT_AS)[0]


def _start_address_space() -> int:
    """The pool process's address space at its start (before it scored), from its bound."""
    return resource.getrlimit(resource.RLIMIT_AS)[0] // (1024 * 1024)


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_a_pool_process_scores_in_itself_under_the_memory_bound(monkeypatch):
    monkeypatch.setenv("T2W_WORKER_MEMORY_MB", "3000")
    tasks = [parse_line(line, "test").task() for line in _lines()]
    context = multiprocessing.get_context("spawn")  # as fresh as a pool process can be
    with ProcessPoolExecutor(1, mp_context=context, initializer=pool_process_init,
                             initargs=(3000,)) as pool:
        lines, bounded, memory = pool.submit(_score_in_pool_process, tasks).result()
    assert bounded == []  # no reward worker of its own: the answers were scored in it
    # 3000 MiB beyond the interpreter it started as (tens to a few hundred MiB)
    assert 3000 * 1024 * 1024 < memory < 4000 * 1024 * 1024
    assert lines == [score_task(task) for task in tasks]


@pytest.mark.skipif(not Path("/proc/self/statm").is_file(), reason="reads /proc (Linux)")
def test_a_forked_pool_process_has_its_bound_beyond_its_parents_address_space():
    """CI, 2026-12-07: forked from a test process that had grown past the bound, a pool
    process could allocate nothing and scored a correct domain 0 ("error return without
    exception set"). The bound counts from what the process holds at its start."""
    tasks = [parse_line(line, "test").task() for line in _lines()]
    expected = [score_task(task) for task in tasks]
    reserved = mmap.mmap(-1, 3 << 30)  # 3 GiB of address space, never touched
    try:
        context = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(1, mp_context=context, initializer=pool_process_init,
                                 initargs=(1000,)) as pool:
            start = pool.submit(_start_address_space).result() - 1000
            lines = pool.submit(score_chunk_in_pool, tasks).result()
    finally:
        reserved.close()
    assert lines == expected
    assert start > 3 * 1024  # the parent's reservation came with the fork
