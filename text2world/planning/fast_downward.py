"""Solving PDDL problems offline with Fast Downward through unified-planning.

Fast Downward (``up-fast-downward``) writes its translator output and plan files into the
current working directory, so concurrent runs in one folder overwrite each other. Every solve
therefore runs in a worker process that moves into a fresh temporary folder first, or calls
the driver directly in one (``fast_downward_folder``, ``run_fast_downward``; the world-model
planner in ``text2world.tasks.wm.planner`` uses these too).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence

from text2world import children
from text2world.errors import Text2WorldError
from text2world.files import JsonFileStore

if TYPE_CHECKING:
    import subprocess  # imported where a planner starts: it is slow to import

__all__ = [
    "PlanResult", "tarski_problem_error", "solve_problem", "PlanCache", "PlannerMissing",
    "fast_downward_driver", "fast_downward_folder", "run_fast_downward", "TURN_OVER",
    "run_fast_downward_direct", "read_plan_file", "cpu_limit_message", "PROVER_SEARCH",
    "fast_downward_plan", "PROVER_AFTER", "fast_downward_with_prover", "solve_many",
]

PLANNER = "fast-downward"


@dataclass(frozen=True)
class PlanResult:
    solved: bool
    status: str  # the unified-planning status name, or "ParseError" / "Error" / "Timeout"
    plan_length: int | None = None
    message: str = ""
    plan: tuple[str, ...] = ()  # the steps, "(action arg ...)", when solved
    planner: str = ""  # what answered (set by ``planner_front``: in-process or Fast Downward)

    @property
    def actions(self) -> tuple[str, ...]:
        """The plan's action names in order (lower case)."""
        return tuple(step[1:-1].split()[0].lower() for step in self.plan)


def tarski_problem_error(domain_text: str, problem_text: str) -> str | None:
    """Why tarski (the benchmark's parser) rejects the problem against its domain, or None."""
    from tarski.io import PDDLReader as TarskiReader
    reader = TarskiReader(raise_on_error=True)
    try:
        reader.parse_domain_string(domain_text.lower())
        reader.parse_instance_string(problem_text.lower())
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        return f"tarski: {type(err).__name__}: {err}"
    return None


def solve_problem(domain_text: str, problem_text: str, timeout: float = 30.0,
                  tarski_check: bool = False) -> PlanResult:
    """Parse with unified-planning and solve with Fast Downward, inside a temporary folder.

    With ``tarski_check`` the problem must first parse with tarski too (status "ParseError").
    """
    if tarski_check:
        error = tarski_problem_error(domain_text, problem_text)
        if error:
            return PlanResult(False, "ParseError", message=error)
    previous = os.getcwd()
    workdir = tempfile.mkdtemp(prefix="t2w-fd-")
    try:
        os.chdir(workdir)
        from unified_planning.io import PDDLReader
        from unified_planning.shortcuts import OneshotPlanner, get_environment
        get_environment().credits_stream = None
        try:
            problem = PDDLReader().parse_problem_string(domain_text, problem_text)
        except Exception as err:  # noqa: BLE001 - the UP parser raises many classes
            return PlanResult(False, "ParseError", message=f"{type(err).__name__}: {err}")
        try:
            with OneshotPlanner(name=PLANNER) as planner:
                result = planner.solve(problem, timeout=timeout)
        except Exception as err:  # noqa: BLE001
            return PlanResult(False, "Error", message=f"{type(err).__name__}: {err}")
        status = result.status.name
        if result.plan is None:
            return PlanResult(False, status, message="no plan found")
        steps = tuple("(" + " ".join((a.action.name, *(str(p) for p in a.actual_parameters)))
                      + ")" for a in result.plan.actions)
        return PlanResult(True, status, len(result.plan.actions), plan=steps)
    finally:
        os.chdir(previous)
        shutil.rmtree(workdir, ignore_errors=True)


class PlanCache(JsonFileStore):
    """Planner answers on disk, one JSON file per key (``$T2W_HOME/cache/plans/``), the one
    home of every cached Fast Downward answer (semantic scoring, world-model tasks); the key
    names the planner configuration, so answers of different configurations never mix. Writes
    are atomic; an unreadable entry is a miss; a read-only home only costs the cache. Bounded
    by ``T2W_PLAN_CACHE_BYTES`` (default 1 GiB, 0: no bound; ``JsonFileStore``)."""

    touch_on_hit = True  # pruning keeps the answers in use
    DEFAULT_MAX_BYTES = 1024 * 1024 * 1024

    def __init__(self, root: Path | None = None, max_bytes: int | None = None) -> None:
        from text2world.files import disk_cache_bytes, home_dir

        super().__init__(root or home_dir() / "cache" / "plans",
                         max_bytes if max_bytes is not None else
                         disk_cache_bytes("T2W_PLAN_CACHE_BYTES", self.DEFAULT_MAX_BYTES))

    @staticmethod
    def key(planner: str, domain_text: str, problem_text: str) -> str:
        digest = hashlib.sha256(planner.encode("utf-8"))
        for text in (domain_text, problem_text):
            digest.update(b"\0" + text.encode("utf-8"))
        return digest.hexdigest()

    def get(self, key: str) -> dict | None:
        return self.read(key)

    def put(self, key: str, data: dict) -> None:
        self.write(key, json.dumps(data))


class PlannerMissing(Text2WorldError, RuntimeError):
    """Fast Downward (the ``up-fast-downward`` package) is not installed where expected."""


def fast_downward_driver() -> str:
    """The Fast Downward driver script shipped by ``up-fast-downward``.

    Found without importing the package: its ``__init__`` imports unified-planning (and with
    it ConfigSpace and scipy, about a second of CPU), which running the driver never needs."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("up_fast_downward")
    except (ImportError, ValueError):
        spec = None
    for folder in (spec.submodule_search_locations or []) if spec is not None else []:
        driver = Path(folder) / "downward" / "fast-downward.py"
        if driver.is_file():
            return str(driver)
    where = f" (looked in {', '.join(spec.submodule_search_locations or [])})" \
        if spec is not None else ""
    raise PlannerMissing("Fast Downward's driver (downward/fast-downward.py of the "
                         f"up-fast-downward package) is not installed{where}; install it "
                         "with: pip install up-fast-downward")


@contextmanager
def fast_downward_folder(domain_text: str, problem_text: str,
                         prefix: str = "t2w-fd-") -> Iterator[Path]:
    """A fresh temporary folder holding ``domain.pddl`` and ``problem.pddl``, removed on exit
    (the driver writes its translator output and plan into its working folder)."""
    workdir = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        (workdir / "domain.pddl").write_text(domain_text, encoding="utf-8")
        (workdir / "problem.pddl").write_text(problem_text, encoding="utf-8")
        yield workdir
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


# A launcher runs in its own process group (``start_new_session``), which it kills whole
# (driver, translator, search) when the process that started it goes away, however it died: a
# killed run leaves no planner behind (``children.die_with_parent``: PR_SET_PDEATHSIG says so
# at once, as SIGTERM, a thread watching the parent's PID covers other systems). The launcher
# runs with ``-S -I`` (no text2world to import), so it carries that module's source. Every
# launcher starts with this; its first argument is the parent's PID.
_FOLLOW_PARENT = children.source() + """
parent = int(sys.argv[1])
def stop(*_):
    os.killpg(0, signal.SIGKILL)
signal.signal(signal.SIGTERM, stop)
die_with_parent(parent, signal.SIGTERM, stop, poll=0.2)
"""

# The driver, run as its own script would be. Arguments: parent PID, driver, its arguments.
_LAUNCHER = _FOLLOW_PARENT + """
import runpy
driver = sys.argv[2]
sys.argv = [driver, *sys.argv[3:]]
sys.path.insert(0, os.path.dirname(driver))
runpy.run_path(driver, run_name="__main__")
"""


def _start_launcher(launcher: str, options: Sequence[str], arguments: Sequence[str],
                    workdir: Path, stdout: Any) -> subprocess.Popen[bytes]:
    """Start ``launcher`` (Python source) with the interpreter ``options`` and ``arguments``
    after the parent's PID, in ``workdir``, in its own process group, its output (stdout and
    stderr) to ``stdout``."""
    import subprocess
    import sys

    return subprocess.Popen([sys.executable, *options, "-c", launcher, str(os.getpid()),
                             *arguments], cwd=workdir, stdout=stdout,
                            stderr=subprocess.STDOUT, start_new_session=True,
                            env={**os.environ, "PYTHONHASHSEED": "0"})


def _run_launcher(launcher: str, options: Sequence[str], arguments: Sequence[str],
                  workdir: Path, timeout: float) -> tuple[int | None, str]:
    """Run ``launcher`` as ``_start_launcher`` starts it: past ``timeout`` seconds
    the whole group is killed and the exit code is None. Returns the exit code (negative for
    a launcher killed by a signal) and the combined output."""
    import signal
    import subprocess

    process = _start_launcher(launcher, options, arguments, workdir, subprocess.PIPE)
    try:
        output, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.communicate()
        return None, ""
    return process.returncode, output.decode("utf-8", "replace")


class _Launched:
    """A launcher (``_start_launcher``), its output in a file of its folder (read once it has
    ended), that can be stopped with its search's CPU seconds counted (``stop``), which
    ``_run_launcher``'s kill does not."""

    def __init__(self, launcher: str, options: Sequence[str], arguments: Sequence[str],
                 workdir: Path) -> None:
        self.log = workdir / "launcher.log"
        with open(self.log, "wb") as log:
            self.process = _start_launcher(launcher, options, arguments, workdir, log)

    def wait(self, seconds: float) -> bool:
        """Whether the run ended within ``seconds`` (wall clock)."""
        import subprocess

        try:
            self.process.wait(timeout=max(0.0, seconds))
        except subprocess.TimeoutExpired:
            return False
        return True

    def code(self) -> int:
        """The exit code as ``run_fast_downward_direct`` gives it."""
        return (self.process.returncode or 0) & 0xFF

    def output(self) -> str:
        return self.log.read_bytes().decode("utf-8", "replace")

    def stop(self) -> None:
        """End the run if it still runs, and reap the launcher. A direct launcher is asked
        first (SIGUSR1: it kills and reaps its search, whose CPU seconds then count as this
        process's children's); then whatever is left in its group is killed (a launcher past
        5 s, a search it was starting as it was asked)."""
        import signal
        import subprocess

        if self.process.poll() is None:
            try:
                self.process.send_signal(signal.SIGUSR1)
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        self.process.wait()


def run_fast_downward(workdir: Path, arguments: Sequence[str],
                      timeout: float) -> tuple[int | None, str]:
    """Run the driver with ``arguments`` in ``workdir`` (from ``fast_downward_folder``), in its
    own process group: past ``timeout`` seconds the whole group (driver, translator, search)
    is killed, so no search outlives its bound, and the exit code is None; the group is killed
    as well when this process dies (``_FOLLOW_PARENT``). Returns the exit code and the combined
    output."""
    return _run_launcher(_LAUNCHER, (), (fast_downward_driver(), *arguments), workdir, timeout)


# The driver's pipeline without the driver: the translator runs inside this process (started
# with ``-S -I``: no site-packages, nothing but the standard library, which is all the
# translator needs) and the search binary reads its output, with the same inputs, options, CPU
# limits and exit codes as the driver gives them (``driver/run_components.py``, ``limits.py``).
# Two Python start-ups fewer: a small problem costs ~0.05 CPU-s instead of ~0.11. Arguments:
# parent PID, downward folder, plan file, the overall CPU limit in seconds ("" for none), an
# alias ("" for none), the search's turn in wall-clock seconds ("" for none: past it the search
# is killed and reaped and the launcher exits with ``TURN_OVER``), then search options. A
# translation finished in the folder by an earlier run (``translated``: its CPU seconds,
# written once ``output.sas`` is whole) is not repeated: the search gets what the limit leaves
# after those seconds, as after its own translation.
# The direct launcher's exit code when the search's turn is over (no code of Fast Downward's).
TURN_OVER = 97
_DIRECT_LAUNCHER = _FOLLOW_PARENT + f"TURN_OVER = {TURN_OVER}\n" + """
import runpy, subprocess, traceback
downward_dir, plan_file, limit, alias, turn = sys.argv[2:7]
search = sys.argv[7:]
searching = None
translated = None
if os.path.exists("translated"):
    with open("translated") as marker:
        translated = float(marker.read())
def abandon(*_):  # SIGUSR1 (``_Launched.stop``): the search is killed and reaped, so that its
    # CPU seconds count among the parent's children's, as a search that ends does
    if searching is not None:
        try:
            os.kill(searching.pid, signal.SIGKILL)
            os.waitpid(searching.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
    os._exit(1)
signal.signal(signal.SIGUSR1, abandon)
def used():  # CPU seconds of the translation (this process's, or the earlier run's)
    return sum(os.times()[:4]) if translated is None else translated
def left():  # the driver's: what is left of the overall CPU limit, in whole seconds
    return int(max(0.0, float(limit) - used()) + 0.001)
def out_of_time(*_):
    os._exit(21)  # the driver's TRANSLATE_OUT_OF_TIME
if limit and not left():
    os._exit(232)  # as the driver's translator under a limit of 0 s: killed by SIGXCPU
bin_dir = os.path.join(downward_dir, "builds", "release", "bin")
sys.path[:0] = [bin_dir, downward_dir]
if alias:
    from driver.aliases import ALIASES
    search = list(ALIASES[alias])
if translated is None:
    if limit:  # a CPU timer, not RLIMIT_CPU: an rlimit of this process would pass to the search
        signal.signal(signal.SIGPROF, out_of_time)
        signal.setitimer(signal.ITIMER_PROF, max(left(), 0.001))
    sys.argv = ["translate", "domain.pddl", "problem.pddl", "--sas-file", "output.sas"]
    code = 0
    try:
        runpy.run_module("fast_downward.translate", run_name="__main__", alter_sys=True)
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else (0 if done.code is None else 1)
    except BaseException:
        traceback.print_exc(file=sys.stdout)
        code = 1
    if limit:
        signal.setitimer(signal.ITIMER_PROF, 0)
    sys.stdout.flush()
    if code != 0:
        os._exit(30 if code == 1 else code)  # the driver's TRANSLATE_CRITICAL_ERROR for a crash
    with open("translated.part", "w") as marker:
        marker.write(repr(used()))
    os.replace("translated.part", "translated")
search_limit = left() if limit else None
def cpu_limit():  # in the search's process, as the driver sets it
    if search_limit is not None:
        import resource
        try:
            resource.setrlimit(resource.RLIMIT_CPU, (search_limit, search_limit + 1))
        except ValueError:
            resource.setrlimit(resource.RLIMIT_CPU, (search_limit, search_limit))
with open("output.sas", "rb") as sas:
    searching = subprocess.Popen([os.path.join(bin_dir, "downward"), *search,
                                  "--internal-plan-file", plan_file], stdin=sas,
                                 preexec_fn=cpu_limit)
    try:
        code = searching.wait(timeout=float(turn) if turn else None)
    except subprocess.TimeoutExpired:
        searching.kill()
        searching.wait()  # reaped: its CPU seconds count as the parent's children's
        os._exit(TURN_OVER)
os._exit(code & 0xFF)  # a search killed by a signal: 256 - signal, as the driver exits
"""


def run_fast_downward_direct(workdir: Path, timeout: float, *, alias: str = "",
                             search: Sequence[str] = (), cpu_limit: float | None = None,
                             plan_file: str = "plan") -> tuple[int | None, str]:
    """Translate and search ``domain.pddl``/``problem.pddl`` in ``workdir`` as the driver
    does for ``--plan-file plan_file [--overall-time-limit cpu_limit] --alias alias`` (or with
    the search options ``search``): the same exit codes and plan file, at a third of its CPU
    time on small problems. ``timeout`` bounds the wall-clock time as ``run_fast_downward``'s
    does (the process group is killed; the exit code is then None)."""
    if bool(alias) == bool(search):
        raise ValueError("run_fast_downward_direct: give an alias or search options, not both")
    code, output = _run_launcher(_DIRECT_LAUNCHER, ("-S", "-I"),
                                 _direct_arguments(alias, search, cpu_limit, plan_file), workdir,
                                 timeout)
    # the launcher killed by a signal (SIGXCPU while translating): 256 - signal, the exit code
    # the driver gives when its translator is
    return (None if code is None else code & 0xFF), output


def read_plan_file(path: Path) -> tuple[tuple[str, ...], float | None]:
    """The steps (lower case) of a plan file Fast Downward wrote, and its ``; cost = N``."""
    steps, cost = [], None
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line.startswith(";"):
            if "cost =" in line:
                cost = float(line.split("cost =", 1)[1].split()[0])
        elif line.startswith("("):
            steps.append(line.lower())
    return tuple(steps), cost


# Fast Downward's exit codes (https://www.fast-downward.org/ExitCodes); 232 (256 - SIGXCPU): the
# translator stopped by the CPU limit before the search began
_FD_STATUS = {11: "UNSOLVABLE_PROVEN", 12: "UNSOLVABLE_INCOMPLETELY", 21: "Timeout", 22: "MEMOUT",
              23: "Timeout", 24: "Timeout", 232: "Timeout"}
# The wall-clock bound of a run, a safety net only: ``timeout`` CPU seconds take this many times
# longer on a loaded machine (load 16 on 2 cores: about 8), plus the start-up.
WALL_PER_CPU_SECOND = 10.0
WALL_SLACK = 30.0


def cpu_limit_message(timeout: float) -> str:
    """The message of a run that its CPU limit of ``timeout`` seconds ended (status
    ``Timeout``; a run the wall clock ended says so otherwise)."""
    return f"no plan within {timeout:g} CPU seconds"


# A complete search that proves unsolvability where lama-first cannot in its time: breadth-first
# search (eager, a constant heuristic: first in, first out; no duplicate expanded twice) visits
# ~350,000 states a CPU-second, several times what lama-first's heuristics allow, and a
# problem unsolvable by counting (four riders, three bikes) has no shortcut but its reachable
# states. It replaced blind A*, which visits the same states with an f-ordered open list:
# 20 % slower on the bike-sharing proof below (3.5 CPU-s against 2.8), as fast or slower on
# the others. Stubborn sets cut the states of independent parts (a vaccine van whose coolant runs
# out, beside another region's van: 1.1M states to 44k); where they prune under a fifth of
# the successors after 1,000 expansions they are switched off (on a bike-sharing problem they
# tripled the time for 0.1 % fewer states). Measured on the 17 problems of bench/reward_bench.py's
# answers that reach Fast Downward (with blind A*; breadth-first search in brackets):
# lama-first's three timeouts (10 CPU-s) proved in 3.6 and 0.8 CPU-s (2.8 and 0.6; the third,
# print-shop's 6.5M states, in neither's time); the problems lama-first proves unsolvable in 0.1
# to 1.5 CPU-s, it proves in 0.1 to 1.0; the three lama-first solves in 0.1 CPU-s, it does not
# solve in 7 to 10.
PROVER_SEARCH = ("--search", "eager(single(const()),pruning=limited_pruning("
                 "pruning=atom_centric_stubborn_sets(),min_required_pruning_ratio=0.2,"
                 "expansions_before_checking_pruning_ratio=1000))")


def _direct_arguments(alias: str, search: Sequence[str], cpu_limit: float | None,
                      plan_file: str = "plan", turn: float | None = None) -> tuple[str, ...]:
    """The direct launcher's arguments after the parent's PID."""
    downward_dir = str(Path(fast_downward_driver()).parent)
    limit = "" if cpu_limit is None else f"{cpu_limit:g}"
    return (downward_dir, plan_file, limit, alias, "" if turn is None else f"{turn:g}", *search)


def _answer(code: int | None, output: str, workdir: Path, timeout: float,
            wall: float, plan_file: str = "plan") -> PlanResult:
    """The ``PlanResult`` of a direct run's exit code (None: the wall clock ended it)."""
    if code is None:
        return PlanResult(False, "Timeout", message=f"no plan within {wall:g} wall-clock seconds")
    if code == 0 and (workdir / plan_file).is_file():
        steps, _ = read_plan_file(workdir / plan_file)
        return PlanResult(True, "SOLVED_SATISFICING", len(steps), plan=steps)
    status = _FD_STATUS.get(code, "Error")
    if status == "Timeout":
        return PlanResult(False, status, message=cpu_limit_message(timeout))
    tail = output.strip().splitlines()[-3:]
    return PlanResult(False, status, message=f"Fast Downward exit code {code}: "
                      + " | ".join(tail))


def fast_downward_plan(domain_text: str, problem_text: str, timeout: float = 10.0, *,
                       search: Sequence[str] = ()) -> PlanResult:
    """Solve with the same Fast Downward build and configuration (``lama-first``, or the
    search options ``search``, e.g. ``PROVER_SEARCH``) as ``solve_problem``, but straight
    through its driver: no unified-planning parse and print, about half the CPU time. Runs in
    a fresh temporary folder. ``timeout`` bounds the CPU seconds of the run (translator and
    search, as the driver's ``--overall-time-limit``), so that the answer does not depend on
    the machine's load: lama-first on the same texts is deterministic, and only a search that
    needs about ``timeout`` CPU seconds may end either way. The wall clock
    (``WALL_PER_CPU_SECOND`` times as long) is a safety net after which the planner's process
    group is killed. Either bound ends in the status ``Timeout``. The plan's steps are
    lower-case. The driver's pipeline runs without the driver (``run_fast_downward_direct``)."""
    with fast_downward_folder(domain_text, problem_text) as workdir:
        wall = timeout * WALL_PER_CPU_SECOND + WALL_SLACK
        code, output = run_fast_downward_direct(workdir, wall, alias="" if search else "lama-first",
                                                search=search, cpu_limit=timeout)
        return _answer(code, output, workdir, timeout, wall)


# The wall-clock seconds lama-first's search runs alone (after the translation, which the
# prover's run shares) before the prover's turn. Measured on the 23 problems bench/reward_bench.py's
# answers give Fast Downward: the searches lama-first ends in a plan take at most 0.04 CPU-s, its
# proofs 0.01 to 0.33, and the prover proves the ones it needs 0.55 s or more for (or that it
# does not end in 10 CPU-s) in 0.01 to 3.3. A turn started with the search (it was half a second
# from the launch, translation included) and shorter: a proof costs about 0.3 CPU-s less. A
# wall-clock turn: on a loaded machine more problems reach the prover's turn, which changes what
# they cost, never their answer (nor its record: ``planning.front`` records an
# unsolvability proof alike whichever search gave it).
PROVER_AFTER = 0.2


def fast_downward_with_prover(domain_text: str, problem_text: str, timeout: float = 10.0,
                              prover_timeout: float = 5.0,
                              prover_after: float = PROVER_AFTER) -> tuple[PlanResult, bool]:
    """lama-first (as ``fast_downward_plan``, within ``timeout`` CPU seconds) and the prover
    (``PROVER_SEARCH``, within ``prover_timeout``) in turns, each run in its own process group:
    lama-first's search for ``prover_after`` wall-clock seconds after its translation; if it has
    not answered, it is stopped and the prover runs; unless the prover proves the problem
    unsolvable, lama-first runs again from the start of its search with its whole limit
    (deterministic: the answer it would have given; what the first turn spent is lost, at most
    ``prover_after`` seconds on a problem that has cost the prover's turn already). The runs
    share one folder, so the translation the first finished serves the others, each limit
    counting its CPU seconds as if the run had translated (``_DIRECT_LAUNCHER``). The answer is
    lama-first's, as if it ran alone, except for that proof (lama-first, given its time, could
    only agree) and, when lama-first runs out of time, the prover's plan. Returns the answer and
    whether the prover gave it. No run outlives the call, and the CPU seconds of every run count
    as this process's children's."""
    with fast_downward_folder(domain_text, problem_text) as workdir:

        def run(alias: str, search: Sequence[str], limit: float,
                turn: float | None = None) -> PlanResult | None:
            """The run's answer, or None if its search has not ended within its ``turn``."""
            wall = limit * WALL_PER_CPU_SECOND + WALL_SLACK
            plan_file = f"plan-{alias or 'prover'}"
            (workdir / plan_file).unlink(missing_ok=True)  # a stopped turn's, half written
            launched = _Launched(_DIRECT_LAUNCHER, ("-S", "-I"),
                                 _direct_arguments(alias, search, limit, plan_file, turn),
                                 workdir)
            try:
                if not launched.wait(wall):
                    return _answer(None, "", workdir, limit, wall)
                if launched.code() == TURN_OVER:
                    return None
                return _answer(launched.code(), launched.output(), workdir, limit, wall,
                               plan_file)
            finally:
                launched.stop()

        lama = run("lama-first", (), timeout, prover_after)
        if lama is not None and lama.status != "Timeout":
            return lama, False
        prover = run("", PROVER_SEARCH, prover_timeout)
        assert prover is not None
        if prover.status == "UNSOLVABLE_PROVEN":
            return prover, True
        if lama is None:
            lama = run("lama-first", (), timeout)
            assert lama is not None
        if lama.message == cpu_limit_message(timeout) and prover.solved:
            return prover, True
        return lama, False


def _solve_args(args: tuple[str, str, float, bool]) -> PlanResult:
    return solve_problem(*args)


def solve_many(jobs: Iterable[tuple[str, str, str]], *, workers: int = 2,
               timeout: float = 30.0, tarski_check: bool = False) -> dict[str, PlanResult]:
    """Solve ``(key, domain text, problem text)`` jobs in a pool of processes, keyed results."""
    jobs = list(jobs)
    results: dict[str, PlanResult] = {}
    if not jobs:
        return results
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        futures = {key: pool.submit(_solve_args, (domain, problem, timeout, tarski_check))
                   for key, domain, problem in jobs}
        for key, future in futures.items():
            try:
                # the planner's own timeout should fire first; this guards against a hang
                results[key] = future.result(timeout=timeout * len(jobs) + 60)
            except FutureTimeout:
                results[key] = PlanResult(False, "Timeout", message=f"no answer in {timeout}s")
            except Exception as err:  # noqa: BLE001 - a crashed worker is a failed solve
                results[key] = PlanResult(False, "Error", message=f"{type(err).__name__}: {err}")
    return results
