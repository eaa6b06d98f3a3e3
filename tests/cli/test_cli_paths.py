"""Every path a user names on the command line is guarded (issue 46, item 2): the test walks
the ``t2w`` app, and each option or argument that takes a path (typed ``Path``, or named as
one) gets a device (``/dev/zero``), a FIFO with no writer, a link to a device, the wrong kind
of entry (a folder where a file is read or written, a file where a folder is) and, for
outputs, ``/dev/full``. Each must end with a one-line error naming the path, exit code 1 or
2, no traceback, and never hang: the command lines of one command run in one child process
(under ``RLIMIT_AS``, with a subprocess timeout), each under an alarm that reports it hung. A path option this
table does not list fails the test: a new option must say what it is.

A full disk is simulated with ``RLIMIT_FSIZE`` in the child (``SIGXFSZ`` ignored, so a write
past the limit fails with ``EFBIG`` as one past a full disk fails with ``ENOSPC``)."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
import typer

from text2world.cli.main import app
from text2world.cli.paths import is_path_parameter

GOOD = ("(define (domain d) (:predicates (p ?x))\n"
        "(:action a :parameters (?x) :precondition (and (p ?x)) :effect (and (not (p ?x)))))\n")

# String options that name a file or a folder (a store name or a path; a built-in template
# name or a template file): walked with the Path-typed ones.
PATH_NAMES = ("path", "file", "dir", "out", "output", "dataset", "prompt", "released",
              "compare", "bundle", "resume", "run", "log", "source")


@dataclass(frozen=True)
class Case:
    """How a path parameter is fed: its role and the command line around it ({P}: the path
    fed; {RUN}: a finished run; {RUNS}: its runs folder; {T}: a fresh folder; {GOOD}: a
    domain file; {SRC}: a folder holding it; {BATCH}: a score-batch input)."""

    role: str  # "in-file", "in-folder", "in-either" (file or folder), "out-file", "out-folder"
    argv: tuple[str, ...]


def case(role: str, line: str) -> Case:
    return Case(role, tuple(line.split()))


RUN_OPTS = "-m reference/oracle --limit 1 -q"
WM_RUN = "-m reference/oracle --limit-domains 1 --problems 1 -q"
CASES: dict[tuple[str, str], Case] = {
    ("validate", "path"): case("in-file", "validate {P}"),
    ("score", "gold"): case("in-file", "score {P} {GOOD}"),
    ("score", "predicted"): case("in-file", "score {GOOD} {P}"),
    ("score", "problems"): case("in-folder", "score --semantic --problems {P} {GOOD} {GOOD}"),
    ("serve", "runs_dir"): case("in-folder", "serve --port 9 --runs-dir {P}"),
    ("serve", "data_dir"): case("in-folder", "serve --port 9 --data-dir {P}"),
    ("view", "runs_dir"): case("in-folder", "view --port 9 {P}"),
    ("view", "runs_dir_flag"): case("in-folder", "view --port 9 --runs-dir {P}"),
    ("view", "bundle"): case("out-folder", "view --runs-dir {RUNS} --bundle {P}"),
    ("mcp", "data_dir"): case("in-folder", "mcp --data-dir {P} --call list_domains"),
    ("contamination", "compare"): case("in-either", "contamination --compare {P}"),
    ("contamination", "dataset"): case("in-either", "contamination --compare {GOOD} -d {P}"),
    ("contamination", "output"): case("out-file", "contamination --compare {GOOD} -o {P}"),
    ("contamination", "runs_root"): case("out-folder",
                                        f"contamination {RUN_OPTS} --runs-dir {{P}}"),
    ("contamination", "resume"): case("in-folder", "contamination --resume {P}"),
    ("judge", "source"): case("in-folder", "judge {P} -m reference/judge-oracle"),
    ("judge", "runs_root"): case("out-folder", "judge {RUN} -m reference/judge-oracle "
                                              "--runs-dir {P}"),
    ("judge", "resume"): case("in-folder", "judge --resume {P}"),
    ("eval", "prompt"): case("in-file", f"eval {RUN_OPTS} --runs-dir {{T}} --prompt {{P}}"),
    ("eval", "correction_prompt"): case("in-file", f"eval {RUN_OPTS} --runs-dir {{T}} "
                                                   "--correction-prompt {P}"),
    ("eval", "dataset"): case("in-either", f"eval {RUN_OPTS} --runs-dir {{T}} --dataset {{P}}"),
    ("eval", "runs_root"): case("out-folder", f"eval {RUN_OPTS} --runs-dir {{P}}"),
    ("eval", "resume"): case("in-folder", "eval --resume {P}"),
    ("report", "runs"): case("in-folder", "report {P}"),
    ("report", "out"): case("out-folder", "report {RUN} --out {P}"),
    ("report", "runs_dir"): case("in-folder", "report r1 --runs-dir {P}"),
    ("compare", "run_a"): case("in-folder", "compare {P} {RUN}"),
    ("compare", "run_b"): case("in-folder", "compare {RUN} {P}"),
    ("score-run", "run"): case("in-folder", "score-run {P}"),
    ("score-run", "runs_dir"): case("in-folder", "score-run r1 --runs-dir {P}"),
    ("import-inspect", "log"): case("in-file", "import-inspect {P} --out {T}/imported"),
    ("import-inspect", "out"): case("out-folder", "import-inspect {GOOD} --out {P}"),
    ("score-batch", "source"): case("in-file", "score-batch {P} --out {T}/scores.jsonl"),
    ("score-batch", "out"): case("out-file", "score-batch {BATCH} --out {P}"),
    ("export-trajectories", "runs"): case("in-folder", "export-trajectories {P} --out {T}/t.jsonl"),
    ("export-trajectories", "out"): case("out-file", "export-trajectories {RUN} --out {P}"),
    ("export-trajectories", "runs_dir"): case("in-folder", "export-trajectories r1 --runs-dir {P} "
                                                           "--out {T}/t.jsonl"),
    ("data list", "dataset"): case("in-either", "data list --dataset {P}"),
    ("data show", "dataset"): case("in-either", "data show blocksworld --dataset {P}"),
    ("data stats", "dataset"): case("in-either", "data stats --dataset {P}"),
    ("data stats", "released"): case("in-file", "data stats --released {P}"),
    ("data curate", "source"): case("in-folder", "data curate {P} --out {T}/curated"),
    ("data curate", "out"): case("out-folder", "data curate {SRC} --out {P}"),
    ("data import", "path"): case("in-either", "data import {P} --name probe"),
    ("data export", "out"): case("out-file", "data export text2world --out {P}"),
    ("data lint", "released"): case("in-file", "data lint blocksworld --released {P}"),
    ("wm build", "dataset"): case("in-either", "wm build --limit-domains 1 --problems 1 "
                                               "--out {T}/built --dataset {P}"),
    ("wm build", "out"): case("out-file", "wm build --limit-domains 1 --problems 1 --out {P}"),
    ("wm both-ways", "eval_run"): case("in-folder", "wm both-ways {P} {RUN}"),
    ("wm both-ways", "wm_run"): case("in-folder", "wm both-ways {RUN} {P}"),
    ("wm mystery", "out"): case("out-folder", "wm mystery --domains blocksworld --out {P}"),
    ("score", "dataset"): case("in-either", "score blocksworld {GOOD} --dataset {P}"),
    ("score-batch", "dataset"): case("in-either", "score-batch {BATCH} --out {T}/scores.jsonl --dataset {P}"),
    ("worlds generate", "out"): case("out-folder", "worlds generate --seed 1 --count 1 --out {P}"),
    ("worlds generate", "released"): case("in-folder", "worlds generate --seed 1 --count 1 --out {T}/w "
                                                       "--released {P}"),
}
for _task in ("next-state", "verify", "verify-rollout", "propose", "plan"):
    CASES[(f"wm {_task}", "dataset")] = case("in-either", f"wm {_task} {WM_RUN} --runs-dir {{T}} "
                                                          "--dataset {P}")
    CASES[(f"wm {_task}", "runs_root")] = case("out-folder", f"wm {_task} {WM_RUN} --runs-dir {{P}}")
    CASES[(f"wm {_task}", "resume")] = case("in-folder", f"wm {_task} --resume {{P}}")

# Named like a path but not one: what each is instead.
NOT_PATHS = {
    ("data show", "record_id"), ("serve", "token"), ("serve", "log_level"),
    ("view", "log_level"), ("view", "token"), ("mcp", "token"),
    ("contamination", "prompt_tokens"), ("contamination", "text_field"),
    ("contamination", "run_id"), ("judge", "run_id"), ("eval", "run_id"),
    ("eval", "allow_exemplar_items"), ("view", "run_ids"), ("wm next-state", "run_id"),
    ("wm verify", "run_id"), ("wm verify-rollout", "run_id"), ("wm propose", "run_id"),
    ("wm plan", "run_id"), ("eval", "list_models"), ("judge", "as_json"),
    ("wm next-state", "off_plan_share"), ("wm verify", "off_plan_share"),
    ("wm verify-rollout", "off_plan_share"), ("wm propose", "off_plan_share"),
    ("wm plan", "off_plan_share"), ("wm build", "off_plan_share"),
    ("report", "held_out"), ("compare", "held_out"),  # family names
    ("worlds generate", "resume"),  # a flag: take the journal of an interrupted run
}


def path_parameters() -> list[tuple[str, str]]:
    """(command, parameter name) of every parameter of ``t2w`` that takes a path."""
    found = []

    def walk(command, prefix: str) -> None:
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{prefix} {name}".strip())
        for param in getattr(command, "params", ()):
            named = any(part in PATH_NAMES for part in (param.name or "").split("_"))
            if is_path_parameter(param) or (named and (prefix, param.name) not in NOT_PATHS):
                found.append((prefix, param.name))

    walk(typer.main.get_command(app), "")
    return found


def test_every_path_parameter_has_a_case() -> None:
    found = set(path_parameters())
    missing = sorted(found - set(CASES))
    assert not missing, f"path parameters with no case in CASES (say what they are): {missing}"
    stale = sorted(set(CASES) - found)
    assert not stale, f"cases of parameters that are gone: {stale}"


def _child_limits(fsize: int | None = None):
    def limit() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails: EFBIG
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))  # /dev/zero read whole
        if fsize is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    return limit


def _env(home: Path) -> dict[str, str]:
    return {**os.environ, "COLUMNS": "200", "T2W_HOME": str(home),
            "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def run_cli(argv: list[str], home: Path, cwd: Path, fsize: int | None = None,
            timeout: float = 300) -> subprocess.CompletedProcess:
    """``t2w ARGV`` in its own process (the console script's module)."""
    return subprocess.run([sys.executable, "-m", "text2world.cli", *argv], capture_output=True,
                          text=True, timeout=timeout, cwd=cwd, env=_env(home),
                          stdin=subprocess.DEVNULL, preexec_fn=_child_limits(fsize))


# Runs many command lines of t2w in one child process (the app imported once), each under
# an alarm: a blocked open or read is interrupted and reported as "hung".
DRIVER = """
import json, signal, sys, traceback
from typer.testing import CliRunner
from text2world.cli.main import app

class Hung(BaseException):
    pass

def ring(*_):
    raise Hung()

signal.signal(signal.SIGALRM, ring)
results = []
for argv in json.loads(sys.stdin.read()):
    signal.alarm(60)
    try:
        r = CliRunner().invoke(app, argv)
        failed = r.exception is not None and not isinstance(r.exception, SystemExit)
        results.append({"code": r.exit_code, "stderr": r.stderr + r.stdout,
                        "traceback": "".join(traceback.format_exception(*r.exc_info))
                        if failed else ""})
    except Hung:
        results.append({"code": "hung", "stderr": "", "traceback": ""})
    finally:
        signal.alarm(0)
print(json.dumps(results))
"""


def run_many(lines: list[list[str]], home: Path, cwd: Path) -> list[dict]:
    result = subprocess.run([sys.executable, "-c", DRIVER], input=json.dumps(lines),
                            capture_output=True, text=True, timeout=60 * len(lines) + 120,
                            cwd=cwd, env=_env(home), preexec_fn=_child_limits())
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("paths")
    home, runs = root / "home", root / "runs"
    result = run_cli(["eval", "-m", "reference/oracle", "--limit", "1", "-q", "--runs-dir",
                      str(runs), "--run-id", "r1"], home, root)
    assert result.returncode == 0, result.stderr
    (root / "good.pddl").write_text(GOOD)
    (root / "src").mkdir()
    (root / "src" / "d.pddl").write_text(GOOD)
    batch = [{"id": str(i), "gold_id": "blocksworld", "response": GOOD} for i in range(3)]
    (root / "batch.jsonl").write_text("".join(json.dumps(line) + "\n" for line in batch))
    fifo = root / "pipe"
    os.mkfifo(fifo)
    (root / "zero-link").symlink_to("/dev/zero")
    (root / "a-folder").mkdir()
    (root / "a-file").write_text("text\n")
    return {"root": root, "home": home, "runs": runs, "run": runs / "r1", "fifo": fifo}


def _feeds(role: str, world: dict[str, Path]) -> list[str]:
    root = world["root"]
    feeds = ["/dev/zero", str(world["fifo"]), str(root / "zero-link")]
    if role in ("in-file", "out-file"):
        feeds.append(str(root / "a-folder"))
    if role in ("in-folder", "out-folder"):
        feeds.append(str(root / "a-file"))
    if role.startswith("out"):
        feeds.append("/dev/full")
    return feeds


def _argv(template: Case, fed: str, world: dict[str, Path], scratch: Path) -> list[str]:
    values = {"{P}": fed, "{RUN}": str(world["run"]), "{RUNS}": str(world["runs"]),
              "{T}": str(scratch), "{GOOD}": str(world["root"] / "good.pddl"),
              "{BATCH}": str(world["root"] / "batch.jsonl"), "{SRC}": str(world["root"] / "src")}
    out = []
    for part in template.argv:
        for key, value in values.items():
            part = part.replace(key, value)
        out.append(part)
    return out


def _problem(argv: list[str], fed: str, outcome: dict) -> str | None:
    """None when the command refused ``fed`` as it should; else what went wrong."""
    where = f"t2w {' '.join(argv)} (exit {outcome['code']}): {outcome['stderr'][-600:]!r}"
    if outcome["code"] == "hung":
        return f"t2w {' '.join(argv)}: hung"
    if outcome["traceback"] or "Traceback" in outcome["stderr"]:
        return where + "\n" + outcome["traceback"][-2000:]
    # one error line naming the path (a run's notice, such as the reference model's, may
    # follow it)
    errors = [line for line in outcome["stderr"].splitlines() if line.startswith("error:")]
    if outcome["code"] not in (1, 2) or len(errors) != 1 or fed not in errors[0]:
        return where
    return None


@pytest.mark.parametrize("command", sorted({command for command, _ in CASES}))
def test_each_path_refuses_devices_fifos_and_the_wrong_kind(command: str, world) -> None:
    jobs = []
    for key in CASES:
        if key[0] == command:
            for fed in _feeds(CASES[key].role, world):
                scratch = world["root"] / f"scratch-{len(list(world['root'].iterdir()))}"
                scratch.mkdir()
                jobs.append((_argv(CASES[key], fed, world, scratch), fed))
    outcomes = run_many([argv for argv, _ in jobs], world["home"], world["root"])
    problems = [p for (argv, fed), outcome in zip(jobs, outcomes)
                if (p := _problem(argv, fed, outcome))]
    assert not problems, "\n".join(problems)


# ------------------------------------------------------------------------- full disk, caches


def _lines(path: Path) -> list[dict]:
    data = path.read_bytes()
    assert not data or data.endswith(b"\n"), f"{path} ends in a torn line"
    return [json.loads(line) for line in data.splitlines()]


def test_score_batch_on_a_full_disk_leaves_whole_lines_and_its_rerun_finishes(world) -> None:
    root = world["root"] / "full-disk"
    root.mkdir()
    batch = [{"id": str(i), "gold_id": "blocksworld", "response": GOOD} for i in range(4)]
    (root / "two.jsonl").write_text("".join(json.dumps(line) + "\n" for line in batch[:2]))
    (root / "four.jsonl").write_text("".join(json.dumps(line) + "\n" for line in batch))
    out = root / "scores.jsonl"
    first = run_cli(["score-batch", str(root / "two.jsonl"), "--out", str(out)], world["home"], root)
    assert first.returncode == 0, first.stderr
    before = out.read_bytes()
    # the disk is full past what is there: the next lines cannot be appended
    full = run_cli(["score-batch", str(root / "four.jsonl"), "--out", str(out)], world["home"],
                   root, fsize=len(before) + 40)
    assert full.returncode == 1 and "Traceback" not in full.stderr, full.stderr
    errors = [line for line in full.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and str(out) in errors[0] and "cannot be written" in errors[0], \
        full.stderr
    assert out.read_bytes() == before  # no torn line: cut back to the last whole one
    rerun = run_cli(["score-batch", str(root / "four.jsonl"), "--out", str(out)], world["home"],
                    root)
    assert rerun.returncode == 0, rerun.stderr
    assert [line["id"] for line in _lines(out)] == ["0", "1", "2", "3"]


@pytest.mark.parametrize("command", ["report", "export-trajectories"])
def test_writing_reports_and_trajectories_on_a_full_disk_is_a_clear_error(command: str,
                                                                         world) -> None:
    root = world["root"] / f"full-{command}"
    root.mkdir()
    out = root / ("report" if command == "report" else "t.jsonl")
    result = run_cli([command, str(world["run"]), "--out", str(out)], world["home"], root,
                     fsize=64)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1 and "cannot be written" in errors[0] and str(out) in errors[0], \
        result.stderr
    if command == "export-trajectories":
        assert not out.exists()  # written whole or not at all
    assert not [p for p in root.rglob(".*") if p.is_file()]  # no temporary file left


def test_cache_entries_linked_to_a_device_or_a_fifo_are_misses(tmp_path: Path) -> None:
    from llm_server import Script, ScriptedLLMServer, small_domain

    home, runs = tmp_path / "home", tmp_path / "runs"
    eval_line = ["eval", "-m", "openai/cached-model", "--limit", "2", "--runs-dir", str(runs),
                 "--no-progress"]
    with ScriptedLLMServer({}, default=Script(answers=[small_domain("cached")])) as server:
        line = [*eval_line, "--api-base", server.url]
        first = run_cli([*line, "--run-id", "first"], home, tmp_path)
        assert first.returncode == 0, first.stderr
        entries = sorted((home / "cache").rglob("*.json"))
        entries = [e for e in entries if e.parent.parent == home / "cache"]
        assert len(entries) == 2, entries
        entries[0].unlink()
        entries[0].symlink_to("/dev/zero")
        entries[1].unlink()
        os.mkfifo(entries[1])
        asked = len(server.requests)
        again = run_cli([*line, "--run-id", "again"], home, tmp_path)
        assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr
        assert len(server.requests) == asked + 2  # both entries were misses: asked again
    # the entries were written again, whole, over the link and the FIFO
    assert all(e.is_file() and not e.is_symlink() for e in entries)
    entries[0].unlink()
    entries[0].symlink_to("/dev/zero")
    for command in (["cache", "inspect"], ["cache", "inspect", "--json"],
                    ["cache", "clear", "--yes"]):
        result = run_cli(command, home, tmp_path)
        assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    assert not os.path.lexists(entries[0]) and os.path.exists("/dev/zero")
