"""Satisficing plans for semantic scoring: the in-process search first, Fast Downward after it.

``plan_problem`` runs greedy best-first search with h_FF on the compiled simulator
(``text2world.simulation.search``): no process, no translation, a few milliseconds on the
store's problems. When that search reaches one of its bounds (``FRONT_LIMITS`` on a gold's
problem, the lower ``PREDICTION_LIMITS`` on a prediction's), or the
problem uses PDDL the simulator does not implement, Fast Downward (``lama-first``, through
``planning.fast_downward_with_prover``) answers exactly as it did before the front existed, with
breadth-first search taking a turn when lama-first's search has not answered in 0.2 s (``PROVER_SEARCH``:
a complete search that proves in seconds problems unsolvable by counting, where lama-first's
heuristic search times out); the prover's proof ends the run, and its plan is taken when
lama-first runs out of time. Between
the two, a search stopped by its work bounds asks h^2 reachability (``simulation.mutex``)
whether the goal is unreachable: a proof in milliseconds where Fast Downward would exhaust the
reachable space (a broken domain whose deletes rule the goal out), else Fast Downward answers. A plan
found in-process is validated by the simulator before it is returned. ``PlanResult.planner``
names what answered.

Answers are memoised in memory and on disk (``planning.PlanCache``) under a key naming the whole
front configuration (search, bounds, fallback), so equal predictions, repeated runs and
re-scoring plan once, and answers of other configurations never mix in. The search is
deterministic (work bounds, stable tie-breaking), and so is Fast Downward's lama-first on the
same texts. Clocks remain as safety nets only: the search's CPU seconds (far above what its work
bounds allow), Fast Downward's CPU seconds (``timeout``) and its wall clock. An answer either of them shaped
is not deterministic: it is never written to disk, and ``timeout_of`` says what expired, so that a
score resting on it can say so. One such answer is remembered, in this process's memory only:
Fast Downward's CPU limit reached after the in-process search stopped on its work bounds (no
clock of its own, nor the wall clock). It is what a rerun on the same texts gives on this
machine, after ``timeout`` more CPU seconds each time (an answer that repeats in a training run
paid them on every pass); it is remembered with the CPU seconds it cost (``planned``), so that
a limit counting the planner's CPU fires on it as it did. Batch scoring hands such answers to
another process of the same machine that scores the same answer again
(``recording_clocked``, ``remember_clocked``), so that it is charged them without planning.
"""

from __future__ import annotations

import functools
import json
import resource
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from text2world.files import data_dir
from text2world.planning.fast_downward import PlanCache, PlanResult, cpu_limit_message, fast_downward_with_prover
from text2world.simulation import SimulationError, Simulator, mutex, simulator_from_text
from text2world.simulation.search import BOUND, SOLVED, TIMEOUT, UNSOLVABLE, SearchLimits, greedy_search

FALLBACK = "fast-downward lama-first"
# The prover's CPU limit, as a share of lama-first's: it takes its turn when lama-first's search
# has not answered in its first 0.2 s (``PROVER_AFTER``; the CPU seconds of every run count),
# and its proof ends the run; otherwise lama-first runs again with its whole limit, so its
# answers are what they were without the prover. Half: a problem neither answers costs 1.5
# times lama-first's limit and its turn; the proofs lama-first cannot give in 10 CPU-s that the
# prover gives, it gives in 0.6 to 3 (bench/reward_bench.py's answers).
PROVER_SHARE = 0.5
PROVER = "fast-downward breadth-first(limited stubborn sets)"
# Measured on the store (bench/planner_bench.py): greedy search solves every problem within a
# few thousand expansions; the work bounds keep a hopeless search (a mutant with a huge
# reachable space and no plan) to about a second before Fast Downward takes over (the store's
# largest search visits 1.4M relaxed actions). They alone decide: the CPU-seconds bound was 0.5 s
# once, and the store's largest searches (0.5 to 0.8 CPU-s on a loaded machine) went to Fast
# Downward or not by the machine's load, changing the gold's plan and so the semantic scores.
FRONT_LIMITS = SearchLimits(max_expanded=1_500, max_evaluated=6_000, max_relaxed_work=2_000_000,
                            max_seconds=5.0)
# The bounds of a prediction's search (semantic scoring's plan of the prediction's problem,
# unless the prediction is the gold): a fifth of the gold's. The gold's problems are solvable by
# design and planned once (their answers ship with the store); a prediction's are planned for
# every answer scored, and most searches past a few hundred expansions end at the bounds and go
# to Fast Downward anyway. Measured on bench/reward_bench.py's 358 answers not seen before: of
# 701 searches, the solved ones needed at most 956 expansions (99 % at most 305), and the 15
# that reached the gold's bounds cost 5 CPU-s before Fast Downward answered them; with these
# bounds every reward there is the same, and the answers' in-process CPU is about a quarter
# less (with a third of the gold's bounds, 0.9 CPU-s more, for a few Fast Downward runs fewer).
PREDICTION_LIMITS = SearchLimits(max_expanded=300, max_evaluated=1_200, max_relaxed_work=400_000,
                                 max_seconds=5.0)
PROOF = "in-process h^2 reachability"
# Who answers "unsolvable" among lama-first and the prover depends on the machine's load:
# lama-first's turn before the prover's is wall-clock time, so on a loaded machine the prover
# proves what lama-first, unhurried, proves itself. The answer is the same; its record names
# both searches and says what was proved, never which proved it, so that a score does not
# depend on the load (bench/scaling_bench.py found 1 score of 197 differing between a run on
# one worker and on two before this).
FD_UNSOLVABLE = f"{FALLBACK} or, in its turn, {PROVER}"
UNSOLVABLE_STATUSES = ("UNSOLVABLE_PROVEN", "UNSOLVABLE_INCOMPLETELY")


@functools.lru_cache(maxsize=8)
def front_name(limits: SearchLimits = FRONT_LIMITS) -> str:
    """The cache key's name of the front whose search has ``limits`` (every bound that can
    change an answer): another front's answers never mix in."""
    return (f"front-3 gbfs(ff)[{limits.describe()}] then "
            f"h2[atoms<={mutex.MAX_ATOMS},actions<={mutex.MAX_ACTIONS},work<={mutex.MAX_WORK}] "
            f"then {FALLBACK} beside {PROVER}[cpu<={PROVER_SHARE:.0%}]")


FRONT = front_name(FRONT_LIMITS)  # the gold's front (its answers ship with the store)

_MEMORY: OrderedDict[str, PlanResult] = OrderedDict()
_MEMORY_SIZE = 1024
# Answers Fast Downward's CPU limit shaped (``_remembered_timeout``), in memory only, with the
# CPU seconds of the planner's processes they cost: key (``PlanCache.key``) and timeout ->
_CLOCKED: OrderedDict[tuple[str, float], tuple[PlanResult, float]] = OrderedDict()
_CLOCKED_SIZE = 256
_LOCK = threading.Lock()
# One such answer as another process of the same machine hands it on (``recording_clocked``,
# ``remember_clocked``): ((cache key, timeout), (answer, CPU seconds it cost)).
ClockedAnswer = tuple[tuple[str, float], tuple[PlanResult, float]]
_RECORDING = threading.local()  # .found: the list a ``recording_clocked`` block fills


def clear_memory() -> None:
    """Forget the in-memory answers (the disk cache stays)."""
    with _LOCK:
        _MEMORY.clear()
        _CLOCKED.clear()


@contextmanager
def recording_clocked() -> Iterator[list[ClockedAnswer]]:
    """Within the block, every answer Fast Downward's CPU limit shaped that this thread's
    planning returns (found now or remembered) is added to the list yielded: what another
    process needs to give the same answers, charged the same CPU, without planning again
    (``remember_clocked``). Semantic batch scoring scores a problem in one process and, when
    a clock shaped the answer, the whole answer again in another."""
    found: list[ClockedAnswer] = []
    outer = getattr(_RECORDING, "found", None)
    _RECORDING.found = found
    try:
        yield found
    finally:
        _RECORDING.found = outer
        if outer is not None:
            outer.extend(found)


def remember_clocked(answers: Iterable[ClockedAnswer]) -> None:
    """Remember answers another process of this machine found under Fast Downward's CPU limit
    (``recording_clocked``), as if found here: a rerun on their texts is given them and charged
    the CPU seconds they cost there (memory only, as this process's own)."""
    with _LOCK:
        for key, answer in answers:
            _CLOCKED[key] = answer
            _CLOCKED.move_to_end(key)
        while len(_CLOCKED) > _CLOCKED_SIZE:
            _CLOCKED.popitem(last=False)


def _record(key: tuple[str, float], answer: tuple[PlanResult, float]) -> None:
    found = getattr(_RECORDING, "found", None)
    if found is not None:
        found.append((key, answer))


def timeout_of(result: PlanResult) -> str:
    """What time-based safety net shaped ``result`` ("" when none did): Fast Downward's
    wall-clock timeout, or the in-process search's CPU seconds before Fast Downward answered,
    or lama-first's CPU limit when the plan is the prover's (an unsolvability proof is not
    clock-shaped: lama-first, given its time, could only agree)."""
    if result.status == "Timeout":
        return f"Fast Downward: {result.message or 'out of time'}"
    if f"({TIMEOUT}:" in result.planner:
        return "the in-process search stopped on its CPU-time safety net"
    if result.solved and result.planner.startswith(PROVER):
        return f"Fast Downward: {FALLBACK} ran out of time; the plan is the prover's"
    return ""


def search_plan(simulator: Simulator, limits: SearchLimits = FRONT_LIMITS
                ) -> tuple[PlanResult | None, str]:
    """The in-process answer, or ``(None, why it gave up)`` when Fast Downward must answer."""
    found = greedy_search(simulator, limits=limits)
    planner = f"in-process {found.algorithm}"
    if found.status == SOLVED:
        check = simulator.validate_plan(found.plan or ())
        if not check.valid:  # never expected: the search runs on this very simulator
            return None, f"{planner}: its plan fails in the simulator: {check.reason}"
        steps = found.steps()
        return PlanResult(True, "SOLVED_SATISFICING", len(steps), plan=steps,
                          planner=planner), ""
    if found.status == UNSOLVABLE:
        return PlanResult(False, "UNSOLVABLE_PROVEN", message=f"{planner}: {found.message}",
                          planner=planner), ""
    why = f"{planner}: {found.status} ({found.message})"
    if found.status == BOUND and found.bound != "seconds" and found.relaxed is not None:
        # a search past its work bounds often means a goal its deletes make unreachable (a
        # broken domain's problem): h^2 proves many such in milliseconds, where Fast Downward
        # would search the whole reachable space (no relaxation: it was past its own bounds)
        proof = mutex.goal_unreachable(found.relaxed)
        if proof:
            return PlanResult(False, "UNSOLVABLE_PROVEN", message=f"{PROOF}: {proof}",
                              planner=PROOF), ""
    return None, why


def plan_problem(domain_text: str, problem_text: str, timeout: float = 10.0, *,
                 simulator: Simulator | None = None,
                 limits: SearchLimits = FRONT_LIMITS) -> PlanResult:
    """A plan of (domain, problem): in-process first (within ``limits``), then Fast Downward
    (``timeout`` bounds its CPU seconds). ``simulator``, when given, must simulate these texts
    (saves parsing them)."""
    if simulator is None:
        try:
            simulator = simulator_from_text(domain_text, problem_text, max_work=200_000)
        except Exception as err:  # noqa: BLE001 - tarski raises many classes
            reason = err.reason if isinstance(err, SimulationError) else \
                f"{type(err).__name__}: {err}"
            simulator, why = None, f"in-process search not possible: {reason}"
    if simulator is not None:
        result, why = search_plan(simulator, limits)
        if result is not None:
            return result
    return _fast_downward(domain_text, problem_text, timeout, why)


def _fast_downward(domain_text: str, problem_text: str, timeout: float, why: str) -> PlanResult:
    """lama-first within ``timeout`` CPU seconds, with the prover's turn within
    ``PROVER_SHARE`` of them (``fast_downward_with_prover``)."""
    result, proved = fast_downward_with_prover(domain_text, problem_text, timeout,
                                               prover_timeout=timeout * PROVER_SHARE)
    planner = (f"{PROVER} beside {FALLBACK}" if proved else FALLBACK) + f" (after {why})"
    return _load_free(PlanResult(result.solved, result.status, result.plan_length,
                                 "; ".join(m for m in (result.message, why) if m), result.plan,
                                 planner=planner))


def _load_free(result: PlanResult) -> PlanResult:
    """Fast Downward's unsolvability answer (a fresh one, or one cached before) as the same
    record whichever search gave it (``FD_UNSOLVABLE``, then what its planner name says it
    came after); any other answer as it is (a plan is lama-first's unless lama-first ran out of
    CPU time, which its record says: not a matter of load)."""
    if result.status not in UNSOLVABLE_STATUSES:
        return result
    why = result.planner.partition(" (after ")[2].removesuffix(")")
    return PlanResult(False, result.status, None,
                      "; ".join(m for m in ("Fast Downward: the problem is unsolvable", why) if m),
                      (), planner=f"{FD_UNSOLVABLE} (after {why})")


GOLD_FRONT_FILE = "gold-front.json"
_gold_front: dict[tuple[str, int], dict] = {}


def gold_front_answer(key: str, root: Path | None = None) -> dict | None:
    """The shipped planner-front answer of a gold problem under its cache key, or None
    (``data/plans/gold-front.json``, written by ``store.plans.write_gold_front``)."""
    path = (root or data_dir()) / "plans" / GOLD_FRONT_FILE
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return None
    if (str(path), stamp) not in _gold_front:
        try:
            answers = json.loads(path.read_text(encoding="utf-8")).get("answers")
        except (OSError, ValueError, AttributeError):
            answers = None
        _gold_front[(str(path), stamp)] = answers if isinstance(answers, dict) else {}
    answer = _gold_front[(str(path), stamp)].get(key)
    return answer if isinstance(answer, dict) else None


def _children_cpu() -> float:
    """CPU seconds of this process's finished child processes (Fast Downward's runs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _remembered_timeout(result: PlanResult, timeout: float) -> bool:
    """An answer shaped by Fast Downward's CPU limit alone (the in-process search stopped on its
    work bounds, not on its clock; not the wall clock, which the machine's load decides): a rerun
    on the same texts in this process gives it again, after as many CPU seconds."""
    return (result.status == "Timeout" and result.message.startswith(cpu_limit_message(timeout))
            and f"({TIMEOUT}:" not in result.planner)


def cached_plan(domain_text: str, problem_text: str, timeout: float = 10.0, *,
                simulator: Simulator | None = None,
                limits: SearchLimits = FRONT_LIMITS) -> PlanResult:
    """``plan_problem``, memoised in memory and on disk; an answer a clock shaped
    (``timeout_of``) is not kept on disk: it may not repeat with more time (one is kept in
    memory: see the module's docstring)."""
    return planned(domain_text, problem_text, timeout, simulator=simulator, limits=limits)[0]


def planned(domain_text: str, problem_text: str, timeout: float = 10.0, *,
            simulator: Simulator | None = None, limit_in_key: bool = False,
            limits: SearchLimits = FRONT_LIMITS) -> tuple[PlanResult, float]:
    """``cached_plan``'s answer and the CPU seconds of the planner's processes it is charged:
    those spent now (0 for an answer from a cache), or, for an answer Fast Downward's CPU limit
    shaped that this process remembers, what it cost when it was found, so that a limit counting
    the planner's CPU (``SemanticSettings.cpu_clock``) fires as it did then. ``limit_in_key``:
    the answer is cached under a key naming ``timeout`` too, so that only answers found within
    it are used (an option's lower limit: the answers of the usual one, the store's shipped
    answers among them, are keyed without it and may rest on more CPU seconds). ``limits``: the
    in-process search's bounds (``FRONT_LIMITS``, the gold's; ``PREDICTION_LIMITS``), named in
    the key."""
    front = front_name(limits)
    name = f"{front} fd-cpu<={timeout:g}" if limit_in_key else front
    key = PlanCache.key(name, domain_text, problem_text)
    with _LOCK:
        if key in _MEMORY:
            _MEMORY.move_to_end(key)
            return _MEMORY[key], 0.0
        clocked = _CLOCKED.get((key, timeout))
        if clocked is not None:
            _CLOCKED.move_to_end((key, timeout))
    if clocked is not None:
        _record((key, timeout), clocked)
        return clocked
    cache = PlanCache()
    data = cache.get(key)
    if data is None:  # the golds' answers ship with the store
        data = gold_front_answer(key)
    try:
        result = PlanResult(bool(data["solved"]), str(data["status"]), data.get("plan_length"),
                            str(data.get("message", "")), tuple(data.get("plan") or ()),
                            str(data.get("planner", ""))) if data is not None else None
    except (KeyError, TypeError):
        result = None
    if result is not None and result.planner.startswith(("fast-downward", PROVER)):
        result = _load_free(result)
    spent = 0.0
    if result is None:
        children = _children_cpu()
        result = plan_problem(domain_text, problem_text, timeout, simulator=simulator,
                              limits=limits)
        spent = _children_cpu() - children
        if timeout_of(result):
            if _remembered_timeout(result, timeout):
                remember_clocked([((key, timeout), (result, spent))])
                _record((key, timeout), (result, spent))
            return result, spent
        cache.put(key, asdict(result))
    with _LOCK:
        _MEMORY[key] = result
        while len(_MEMORY) > _MEMORY_SIZE:
            _MEMORY.popitem(last=False)
    return result, spent


__all__ = ["FALLBACK", "FRONT", "FRONT_LIMITS", "GOLD_FRONT_FILE", "PREDICTION_LIMITS", "PROVER",
           "PROVER_SHARE", "ClockedAnswer", "cached_plan", "clear_memory", "front_name",
           "gold_front_answer", "plan_problem", "planned", "recording_clocked",
           "remember_clocked", "search_plan", "timeout_of"]
