"""Semantic scoring: does the predicted domain behave like the gold one on the gold's problems?

For each problem of the gold, the prediction (renamed into the gold's vocabulary by the
alignment) is simulated beside the gold:

- ``plan_validity``: the prediction's own plan is valid in the gold;
- ``gold_plan_acceptance``: the gold's plan is valid in the prediction;
- ``applicability_f1``: on states sampled along the gold plan and by seeded random walks in the
  gold (every reachable state when a problem has at most ``exhaustive_states``), F1 of the
  prediction's applicable ground actions against the gold's (pooled);
- ``transition_accuracy``: for the ground actions applicable in both, the share whose
  successors agree (on the gold's predicates).

Each disagreement is traced to a lifted precondition literal or effect of an action and
reported as a diagnosis with its count. The prediction runs on the gold's problems: objects keep
their names, an object's type becomes its nearest ancestor the prediction declares, atoms of
predicates the prediction lacks are dropped (and counted). Predicates only the prediction has
evolve in lockstep along each sampled trajectory.

The gold side (parsed problems, gold plans, sampled trajectories, applicable sets, successor
changes) is computed once per gold and cached, so scoring many predictions against one gold is
cheap; a prediction that, aligned, is the gold itself (a copy, a faithful renaming) is simulated
by those cached answers instead of a simulator of its own. Sample sizes and seeds are fixed by
``SemanticSettings`` and reported with every score. A prediction that cannot be simulated gets
``ok=False`` and a reason, never a zero.

Plans (the gold's and the prediction's own) come from ``planner_front``: greedy best-first
search in-process on the compiled simulator, Fast Downward when that search reaches its bounds
(the gold's, or a fifth of them for a prediction that is not the gold: ``PREDICTION_LIMITS``);
each problem's score names the planner that produced each plan.

Deterministic: every number rests on seeded sampling and work bounds (search nodes, the
simulator's ``max_work``), never on a clock. The clocks (``time_limit``, ``planner_timeout``,
the in-process search's CPU seconds) are safety nets; when one fires, the score's ``timeouts``
says which, since that score may not repeat.
"""

from __future__ import annotations

import hashlib
import os
import random
import threading
import time
from collections import Counter, OrderedDict
from dataclasses import asdict, dataclass, field, replace
from typing import TYPE_CHECKING, Sequence

from text2world.errors import Text2WorldError
from text2world.files import InputFileError, read_input_text
from text2world.pddl.model import Domain, Formula, iter_atoms, parse_domain
from text2world.planning.front import FRONT_LIMITS, PREDICTION_LIMITS, cached_plan, planned, timeout_of
from text2world.scoring.caching import PREPARED_GOLDS_MAX_BYTES, deep_size, default_max_bytes
from text2world.scoring.diagnosis import Diagnoser, Diagnosis, lift
from text2world.scoring.semantic_alignment import (
    align_prediction,
    aligned_prediction,
    project_problem,
    without_unused_constants,
)
from text2world.scoring.verdict import Verdict, decide, qualify, uncertain_pairs, unmatched_parts
from text2world.simulation import GroundAction, PlanningProblem, SimulationError, Simulator, parse_plan, parse_problem
from text2world.simulation.collector import collector_paused

if TYPE_CHECKING:
    from text2world.scoring.alignment import Alignment

METRICS = ("plan_validity", "gold_plan_acceptance", "applicability_f1", "transition_accuracy")


class SemanticTimeout(SimulationError):
    """Scoring one pair went past ``SemanticSettings.time_limit`` (a safety net: its reason
    starts with "timeout")."""


class GoldNotSimulated(SimulationError):
    """The gold side cannot be simulated (it does not parse, uses PDDL the simulator does not
    implement, a problem does not fit it, no problems): ``reason`` says which part and why.
    ``semantic_score`` turns it into the verdict ``not_simulated`` with that reason."""


@dataclass(frozen=True)
class SemanticSettings:
    """Sample sizes, seeds and bounds; part of every result so a score is reproducible."""

    walks: int = 6             # seeded random walks per problem
    walk_length: int = 20      # steps per walk
    seed: int = 0
    max_transitions: int = 25  # successors compared per state (seeded sample of common actions)
    planner_timeout: float = 10.0   # seconds per Fast Downward run, a safety net (the
    #                                 in-process search's bounds are planning.front's
    #                                 FRONT_LIMITS on the gold, PREDICTION_LIMITS on a prediction)
    time_limit: float = 60.0        # seconds per (gold, prediction) pair, planner included
    max_work: int = 200_000         # search nodes per simulator call
    exhaustive_states: int = 200    # a problem with at most this many reachable states is
    #                                 compared on all of them (breadth-first) instead of walks
    cpu_clock: bool = False         # time_limit counts the scoring thread's CPU seconds (plus the
    #                                 planner's) instead of wall seconds: what rewards use, so a
    #                                 loaded machine does not turn answers into timeouts
    prediction_planner_timeout: float | None = None  # an option (rewards' planner_limit): a
    #                                 lower CPU limit per Fast Downward run on the prediction's
    #                                 own plan only (the gold's keeps planner_timeout); its
    #                                 answers are cached under a key naming it


@dataclass(frozen=True)
class ProblemScore:
    name: str
    states: int                      # sampled gold states
    plan_valid: bool | None          # None: no plan of the prediction to check (see reason)
    plan_reason: str
    gold_plan_accepted: bool | None  # None: the gold has no plan for this problem
    gold_plan_reason: str
    true_positive: int
    false_positive: int
    false_negative: int
    transitions: int
    transitions_agreeing: int
    dropped_atoms: int = 0           # initial atoms of predicates the prediction lacks
    planner: str = ""                # what found (or ruled out) the prediction's own plan
    gold_planner: str = ""           # what found the gold's plan


VERDICTS = tuple(verdict.value for verdict in Verdict)  # as plain strings


@dataclass(frozen=True)
class SemanticScore:
    """``verdict`` (one of ``VERDICTS``) is the answer: ``equivalent`` (every sampled state
    and plan behaves as in the gold), ``different`` (see ``diagnoses``), ``incomplete`` (a
    part of the gold has no counterpart: ``unmatched`` lists them; the metrics are then only
    partial), ``not_simulated`` (``reason`` says why; no metrics). ``ok`` is False exactly
    for ``not_simulated``. ``uncertain`` names mapped pairs the alignment was unsure of."""

    ok: bool
    reason: str = ""                 # why the prediction could not be simulated (ok=False)
    plan_validity: float | None = None
    gold_plan_acceptance: float | None = None
    applicability_f1: float | None = None
    transition_accuracy: float | None = None
    problems: tuple[ProblemScore, ...] = ()
    diagnoses: tuple[Diagnosis, ...] = ()
    settings: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    alignment: dict | None = None
    seconds: float = 0.0
    planner_seconds: float = 0.0
    verdict: str = "not_simulated"
    unmatched: tuple[str, ...] = ()  # gold parts without a counterpart (verdict incomplete)
    uncertain: tuple[str, ...] = ()  # mapped pairs of low confidence, in words
    timeouts: tuple[str, ...] = ()   # safety nets (clocks) that fired: this score may not repeat

    def metrics(self) -> dict[str, float | None]:
        return {name: getattr(self, name) for name in METRICS}

    @property
    def prediction_timed_out(self) -> bool:
        """A clock fired on the prediction's side (its plan, or the pair's time limit), not
        only on the gold's plan."""
        return any(not note.startswith(_GOLD_SIDE) for note in self.timeouts)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["diagnoses"] = [d.to_dict() for d in self.diagnoses]
        return data


# --------------------------------------------------------------------------------------------
# The gold side, computed once


@dataclass
class _Trajectory:
    """Gold states to compare on, each reached from an earlier one: a path (the gold plan, a
    random walk) or the breadth-first tree of a small reachable space. ``parents[i]`` is the
    index of the state ``states[i]`` is reached from by ``actions[i]`` (None for the first)."""

    states: tuple[frozenset, ...]
    actions: tuple[GroundAction | None, ...]
    parents: tuple[int | None, ...]

    @classmethod
    def path(cls, states, actions) -> "_Trajectory":
        """``actions[i]`` leads from ``states[i]`` to ``states[i + 1]``."""
        return cls(tuple(states), (None, *actions), (None, *range(len(states) - 1)))


@dataclass
class GoldProblem:
    name: str
    problem: PlanningProblem
    simulator: Simulator
    plan: tuple[GroundAction, ...] | None
    plan_note: str
    trajectories: tuple[_Trajectory, ...]
    planner: str = ""                                # what found the plan
    timeout: str = ""                                # a clock that shaped the plan (timeout_of)
    applicable: dict = field(default_factory=dict)  # state -> tuple of ground actions
    changes: dict = field(default_factory=dict)     # (state, action) -> (added, deleted)

    def applicable_in(self, state: frozenset) -> tuple[GroundAction, ...]:
        found = self.applicable.get(state)
        if found is None:
            found = self.applicable[state] = self.simulator.applicable(state)
        return found

    def change(self, state: frozenset, action: GroundAction) -> tuple[frozenset, frozenset]:
        key = (state, action)
        found = self.changes.get(key)
        if found is None:
            after = self.simulator.successor(state, action, check=False)
            found = self.changes[key] = (after - state, state - after)
        return found


@dataclass
class GoldCache:
    """Everything about one gold that does not depend on the prediction."""

    domain: Domain
    problems: tuple[GoldProblem, ...]
    settings: SemanticSettings
    notes: tuple[str, ...]
    planner_seconds: float


_GOLD_SIDE = "the gold's plan"  # starts a timeout of the gold's side (SemanticScore.timeouts)
# Prepared golds, least recently used first, bounded in bytes (``T2W_GOLD_CACHE_BYTES``, else
# ``PREPARED_GOLDS_MAX_BYTES``, 128 MiB: the store's golds take about 76 MB, median 0.7 MB).
# A count bound of 32 made a batch over more golds than that (a GRPO step's prompts, the
# store) prepare every gold again on each pass.
_GOLD_CACHE: OrderedDict[str, tuple[GoldCache, int]] = OrderedDict()  # (gold, bytes when cached)
# ``t2w eval`` prepares golds in a background thread (``scoring_pool.GoldPrefetch``) while
# scoring may ask for the same gold: one builds it, the other waits for it.
_CACHE_LOCK = threading.Lock()
_GOLD_BUILDING: dict[str, threading.Lock] = {}


def _reset_locks() -> None:  # a forked child never inherits a lock held by another thread
    global _CACHE_LOCK
    _CACHE_LOCK = threading.Lock()
    _GOLD_BUILDING.clear()


os.register_at_fork(after_in_child=_reset_locks)


def prepare_gold(gold: str | Domain, problems: Sequence[tuple[str, str]],
                 settings: SemanticSettings = SemanticSettings()) -> GoldCache:
    """Parse the gold's problems, plan them (``planner_front``) and sample trajectories.

    ``problems`` are ``(name, PDDL text)`` pairs. Cached per (gold, problems, settings);
    thread-safe: a gold another thread is building is waited for, not built twice.
    Raises ``GoldNotSimulated`` (a ``SimulationError``) with the reason when the gold itself
    cannot be simulated; ``semantic_score`` reports that as the verdict ``not_simulated``.
    """
    gold_text = gold if isinstance(gold, str) else gold.to_pddl()
    settings = replace(settings, prediction_planner_timeout=None)  # not the gold side's
    key = hashlib.sha256(repr((gold_text, tuple(problems), settings)).encode()).hexdigest()
    with _CACHE_LOCK:
        if key in _GOLD_CACHE:
            _GOLD_CACHE.move_to_end(key)
            return _GOLD_CACHE[key][0]
        building = _GOLD_BUILDING.setdefault(key, threading.Lock())
    with building:
        with _CACHE_LOCK:
            if key in _GOLD_CACHE:  # built by the thread this one waited for
                _GOLD_CACHE.move_to_end(key)
                return _GOLD_CACHE[key][0]
        try:
            with collector_paused():
                cache = _build_gold(gold, gold_text, problems, settings)
        finally:
            with _CACHE_LOCK:
                _GOLD_BUILDING.pop(key, None)
        size, bound = deep_size(cache), default_max_bytes(PREPARED_GOLDS_MAX_BYTES)
        with _CACHE_LOCK:
            if size <= bound:
                _GOLD_CACHE[key] = (cache, size)
            total = sum(cached for _, cached in _GOLD_CACHE.values())
            while total > bound:
                total -= _GOLD_CACHE.popitem(last=False)[1][1]
    return cache


def _build_gold(gold: str | Domain, gold_text: str, problems: Sequence[tuple[str, str]],
                settings: SemanticSettings) -> GoldCache:
    try:
        domain = gold if isinstance(gold, Domain) else parse_domain(gold)
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        raise GoldNotSimulated(_unparsed("the gold", gold, err)) from None
    if not problems:
        raise GoldNotSimulated("the gold has no problems to simulate on (pass problems)")
    prepared, notes, planner = [], [], 0.0
    interned: dict[frozenset, frozenset] = {}  # one object per distinct state of the gold
    for index, (name, text) in enumerate(problems):
        try:
            gold_problem, seconds = _gold_problem(domain, gold_text, index, name, text, settings,
                                                  interned)
        except GoldNotSimulated:
            raise
        except SimulationError as err:  # unsupported PDDL, a problem that does not fit
            raise GoldNotSimulated(f"problem {name}: {err.reason}") from None
        planner += seconds
        if gold_problem.plan_note:
            notes.append(gold_problem.plan_note)
        prepared.append(gold_problem)
    return GoldCache(domain, tuple(prepared), settings, tuple(notes), planner)


def _gold_problem(domain: Domain, gold_text: str, index: int, name: str, text: str,
                  settings: SemanticSettings,
                  interned: dict[frozenset, frozenset] | None = None) -> tuple[GoldProblem, float]:
    """One problem of the gold: parsed, planned, sampled; and the planner's seconds. A state
    met before (walks revisit states and cross the plan's) is kept as the object ``interned``
    holds for it: a third of the store golds' sampled states are repeats, and these sets are
    most of a prepared gold's bytes (``_GOLD_CACHE`` is bounded in bytes)."""
    seen: dict[frozenset, frozenset] = {} if interned is None else interned
    problem = parse_problem(gold_text, text)
    simulator = Simulator(domain, problem, max_work=settings.max_work)
    start = time.perf_counter()
    # planned from the same printed texts a prediction equal to the gold produces, so
    # that such a prediction finds its plan in the planner cache
    result = cached_plan(*planner_inputs(domain, problem), settings.planner_timeout,
                         simulator=simulator)
    seconds = time.perf_counter() - start
    plan, plan_note = None, ""
    trajectories = []
    if result.solved:
        plan = tuple(parse_plan(result.plan))
        check = simulator.validate_plan(plan)
        if not check.valid:  # never expected: the planner and the simulator disagree
            raise GoldNotSimulated(f"problem {name}: the gold's own plan fails in the "
                                   f"simulator: {check.reason}")
        states = [simulator.initial_state]
        for action in plan:
            states.append(simulator.successor(states[-1], action, check=False))
        trajectories.append(_Trajectory.path(states, plan))
    else:
        plan_note = f"problem {name}: no gold plan ({result.status}: {result.message})"
    found: dict = {}  # state -> its applicable actions, as sampling computed them
    space = _reachable_tree(simulator, settings.exhaustive_states, found)
    if space is not None:  # every reachable state: no sampling needed, none missed
        trajectories.append(space)
    for walk in range(settings.walks if space is None else 0):
        seed = settings.seed * 1_000_003 + index * 1000 + walk
        w = simulator.random_walk(settings.walk_length, seed, applicable=found)
        trajectories.append(_Trajectory.path(w.states, w.actions))
    trajectories = [replace(t, states=tuple(seen.setdefault(state, state) for state in t.states))
                    for t in trajectories]
    # every pair asks for the applicable actions of each sampled state (``applicable_in``):
    # those sampling computed are kept, the others are computed by the first pair
    applicable = {state: found[state] for trajectory in trajectories
                  for state in trajectory.states if state in found}
    return GoldProblem(name, problem, simulator, plan, plan_note, tuple(trajectories),
                       planner=result.planner, timeout=timeout_of(result),
                       applicable=applicable), seconds


def _reachable_tree(simulator: Simulator, limit: int,
                    applicable: dict | None = None) -> _Trajectory | None:
    """The breadth-first tree of every state reachable from the initial one, or None when
    there are more than ``limit`` (0: never). ``applicable``: a dict that receives each
    expanded state's applicable actions."""
    if limit <= 0:
        return None
    states = [simulator.initial_state]
    actions: list[GroundAction | None] = [None]
    parents: list[int | None] = [None]
    index = {simulator.initial_state: 0}
    for position, state in enumerate(states):  # grows while it is read
        options = simulator.applicable(state)
        if applicable is not None:
            applicable[state] = options
        for action in options:
            after = simulator.successor(state, action, check=False)
            if after not in index:
                if len(states) >= limit:
                    return None
                index[after] = len(states)
                states.append(after)
                actions.append(action)
                parents.append(position)
    return _Trajectory(tuple(states), tuple(actions), tuple(parents))


def _goal_predicates(formula: Formula) -> set[str]:
    return {atom.predicate for atom in iter_atoms(formula)} - {"="}


# --------------------------------------------------------------------------------------------
# Scoring


def semantic_score(gold: str | Domain, predicted: str | Domain,
                   problems: Sequence[tuple[str, str]] | None = None, *,
                   gold_cache: GoldCache | None = None,
                   settings: SemanticSettings = SemanticSettings()) -> SemanticScore:
    """Score ``predicted`` against ``gold`` by behaviour on ``problems`` (``(name, text)``).

    Pass ``gold_cache`` (from ``prepare_gold``) to reuse the gold side; otherwise it is built
    (and cached) from ``gold`` and ``problems``. Never raises for a bad prediction: the score
    has ``ok=False`` and a reason.
    """
    with collector_paused():  # a pair allocates ~1M short-lived objects: see collector.py
        return _semantic_score(gold, predicted, problems, gold_cache, settings)


def _semantic_score(gold: str | Domain, predicted: str | Domain,
                    problems: Sequence[tuple[str, str]] | None, gold_cache: GoldCache | None,
                    settings: SemanticSettings) -> SemanticScore:
    started = time.perf_counter()
    report = {"walks": settings.walks, "walk_length": settings.walk_length,
              "seed": settings.seed, "max_transitions": settings.max_transitions,
              "planner_timeout": settings.planner_timeout, "time_limit": settings.time_limit,
              "exhaustive_states": settings.exhaustive_states}
    if settings.prediction_planner_timeout is not None:
        report["prediction_planner_timeout"] = settings.prediction_planner_timeout
    prediction_timeout = settings.prediction_planner_timeout
    try:
        cache = gold_cache or prepare_gold(gold, problems or (), settings)
    except Exception as err:  # noqa: BLE001 - the gold side: report, do not crash
        return SemanticScore(False, f"the gold cannot be simulated: {_why(err)}",
                             settings=report, seconds=time.perf_counter() - started)
    settings = cache.settings
    try:
        domain = predicted if isinstance(predicted, Domain) else parse_domain(predicted)
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        return SemanticScore(False, _unparsed("the prediction", predicted, err),
                             settings=report, seconds=time.perf_counter() - started)
    try:
        translated, alignment = aligned_prediction(cache.domain, domain)
        translated, unused = without_unused_constants(translated)
        mapping, note = alignment.to_dict(), ""
        if unused:
            note = "constants no action of the prediction uses are ignored: " + ", ".join(unused)
    except Exception as err:  # noqa: BLE001
        return SemanticScore(False, f"no alignment of the prediction onto the gold: {_why(err)}",
                             settings=report, seconds=time.perf_counter() - started)
    gold_actions = {a.name for a in cache.domain.actions}
    if not gold_actions & {a.name for a in translated.actions}:
        return SemanticScore(False, "no alignment: none of the prediction's actions maps onto "
                             "an action of the gold", settings=report, alignment=mapping,
                             seconds=time.perf_counter() - started)
    scorer = _PairScorer(cache, translated, started, alignment, prediction_timeout)
    try:
        results = [scorer.problem(gold_problem) for gold_problem in cache.problems]
    except SimulationError as err:
        if isinstance(err, SemanticTimeout):
            scorer.timeouts.append(err.reason.removeprefix("timeout: "))
        return SemanticScore(False, f"the prediction cannot be simulated: {err.reason}",
                             settings=report, alignment=mapping,
                             seconds=time.perf_counter() - started,
                             planner_seconds=scorer.planner_seconds,
                             timeouts=tuple(scorer.timeouts))
    score = _aggregate(results, scorer, report, mapping,
                       tuple(n for n in (note, *cache.notes, *scorer.notes) if n),
                       time.perf_counter() - started)
    return with_verdict(score, alignment, cache.domain, domain)


def with_verdict(score: SemanticScore, alignment: Alignment, gold: Domain,
                 predicted: Domain) -> SemanticScore:
    """The verdict, the unmatched parts, and diagnoses qualified by the mapping's certainty."""
    unmatched = unmatched_parts(alignment, gold, predicted)
    uncertain = uncertain_pairs(alignment)
    diagnoses = qualify(score.diagnoses, uncertain)
    notes = score.notes
    if unmatched:
        notes += ("incomplete: parts of the gold have no counterpart in the prediction, so "
                  "the metrics cover only what could be matched",)
    return replace(score, diagnoses=diagnoses, notes=notes,
                   verdict=decide(score.metrics(), diagnoses, unmatched),
                   unmatched=unmatched, uncertain=tuple(sorted(uncertain.values())))


def _unparsed(what: str, text: str | Domain, err: Exception) -> str:
    """Why a domain text does not parse, in the validator's words (no domain at all, a stray
    parenthesis, an undeclared name, with the line)."""
    from text2world.pddl.validation import classify_error

    try:
        issue = classify_error(text if isinstance(text, str) else "", err)
    except Exception:  # noqa: BLE001 - the raw error still says something
        return f"{what} does not parse: {_why(err)}"
    if issue.kind == "NoDomainFound":
        return f"{what} has no PDDL domain: {issue.message.removeprefix('no PDDL domain: ')}"
    where = f" (line {issue.line})" if issue.line is not None else ""
    return f"{what} does not parse{where}: {issue.message}"


def _why(err: Exception) -> str:
    reason = getattr(err, "reason", None) or getattr(err, "message", None) or str(err)
    return f"{type(err).__name__}: {reason}" if not isinstance(err, SimulationError) else reason


def _aggregate(results: list[ProblemScore], scorer: "_PairScorer", report: dict,
               mapping: dict | None, notes: tuple[str, ...], seconds: float) -> SemanticScore:
    def mean(values):
        values = [1.0 if v else 0.0 for v in values if v is not None]
        return sum(values) / len(values) if values else None

    tp = sum(r.true_positive for r in results)
    fp = sum(r.false_positive for r in results)
    fn = sum(r.false_negative for r in results)
    f1 = 1.0 if tp + fp + fn == 0 else 2 * tp / (2 * tp + fp + fn)
    compared = sum(r.transitions for r in results)
    agreeing = sum(r.transitions_agreeing for r in results)
    report = dict(report, states=sum(r.states for r in results), transitions=compared,
                  problems=len(results))
    extra: tuple[str, ...] = ()
    if compared == 0:
        extra = ("transition_accuracy: no sampled action is applicable in both",)
    return SemanticScore(
        True, "", mean(r.plan_valid for r in results),
        mean(r.gold_plan_accepted for r in results), f1,
        agreeing / compared if compared else None, tuple(results),
        scorer.diagnoser.diagnoses(), report, notes + extra, mapping, seconds,
        scorer.planner_seconds, timeouts=tuple(scorer.timeouts))


class _PairScorer:
    """Scores one translated prediction against a cached gold, problem by problem."""

    def __init__(self, cache: GoldCache, predicted: Domain, started: float,
                 alignment=None, prediction_timeout: float | None = None) -> None:
        self.cache = cache
        self.predicted = predicted
        self.typing = ((alignment.typing_types(), alignment.typing_predicates())
                       if alignment is not None else ({}, {}))
        self.settings = cache.settings
        # Fast Downward's CPU limit on the prediction's plan (SemanticSettings), and whether
        # it is an option's, whose answers are cached under a key naming it
        self.prediction_timeout = prediction_timeout or self.settings.planner_timeout
        self.limit_in_key = prediction_timeout is not None
        self.started = started
        self.cpu_started = time.thread_time()
        self.planner_seconds = 0.0  # wall seconds in the planners (reported)
        self.planner_cpu = 0.0      # CPU seconds of Fast Downward's processes (cpu_clock)
        self.notes: list[str] = []
        self.timeouts: list[str] = [f"{_GOLD_SIDE} of problem {p.name}: {p.timeout}"
                                    for p in cache.problems if p.timeout]
        self.gold_predicates = {p.name for p in cache.domain.predicates}
        self.extra_predicates = {p.name for p in predicted.predicates} - self.gold_predicates
        self.diagnoser = Diagnoser(cache.domain, predicted)
        # the domain as the planners read it: neither its name nor its variables' names are
        # simulated, so a copy under other such names is the gold too
        self.planned_domain = planner_domain(predicted)
        self.itself = self.planned_domain == planner_domain(cache.domain)
        self.kept = None if self.itself else _kept_actions(cache.domain, predicted)

    def _elapsed(self) -> float:
        if self.settings.cpu_clock:  # the in-process search runs in this thread
            return time.thread_time() - self.cpu_started + self.planner_cpu
        return time.perf_counter() - self.started

    def _clock(self) -> None:
        if self._elapsed() > self.settings.time_limit:
            raise SemanticTimeout(f"timeout: scoring took more than {self.settings.time_limit:g}s "
                                  f"(time limit per pair)")

    def problem(self, gold: GoldProblem) -> ProblemScore:
        self._clock()
        problem, dropped, notes = project_problem(self.cache.domain, self.predicted, gold.problem,
                                                  *self.typing)
        self.notes += notes
        # A prediction that, aligned, is the gold itself on this problem (a copy, a faithful
        # renaming) simulates as the gold does: the gold's simulator and its cached answers
        # serve it (``_gold_answers_trajectory``), with the counts the comparison would make.
        # (the projection names the prediction's domain)
        same_problem = replace(problem, domain_name=gold.problem.domain_name) == gold.problem
        itself = self.itself and same_problem
        simulator = gold.simulator if itself else \
            Simulator(self.predicted, problem, max_work=self.settings.max_work)
        # the gold with actions left out, on the gold's problem, each kept action compiled as
        # the gold's (the same join order, and so the same work counted: which predicates are
        # static orders the joins): ``_gold_answers_trajectory`` too
        kept = self.kept if same_problem else None
        restricted = kept is not None and simulator.compiled_like(gold.simulator, kept)
        accepted: bool | None = None
        accepted_reason = gold.plan_note or "the gold has no plan"
        if gold.plan is not None:
            check = simulator.validate_plan(gold.plan)
            accepted, accepted_reason = check.valid, check.reason
        if accepted and kept is not None:
            # the gold with actions left out, the gold's plan among its plans: every plan of
            # it is a plan of the gold (its transitions are the gold's, fewer), so whichever
            # plan a planner found would be valid in the gold; none is searched for
            plan_valid: bool | None = True
            plan_reason, planner = _KEPT_PLAN_REASON, _KEPT_PLAN
        else:
            plan_valid, plan_reason, planner = self._plan_validity(gold, problem, simulator,
                                                                   itself)
        counts: Counter = Counter()
        rng = random.Random(self.settings.seed)
        for trajectory in gold.trajectories:
            self._clock()
            if itself or restricted:
                self._gold_answers_trajectory(gold, simulator, trajectory, counts, rng,
                                              None if itself else kept)
            else:
                self._trajectory(gold, simulator, trajectory, counts, rng)
        return ProblemScore(gold.name, counts["states"], plan_valid, plan_reason, accepted,
                            accepted_reason, counts["tp"], counts["fp"], counts["fn"],
                            counts["compared"], counts["agree"], dropped, planner,
                            gold.planner)

    def _plan_validity(self, gold: GoldProblem, problem: PlanningProblem, simulator: Simulator,
                       itself: bool = False) -> tuple[bool | None, str, str]:
        """(valid in the gold, why, the planner that answered). The prediction's search has
        ``PREDICTION_LIMITS``; a prediction that is the gold on this problem (``itself``: up to
        names, as the planners read it) is planned as the gold was (``FRONT_LIMITS``), so that
        it finds the gold's answer."""
        missing = _goal_predicates(problem.goal) - {p.name for p in self.predicted.predicates}
        if missing:
            return False, ("the prediction cannot state the goal: no predicate "
                           + ", ".join(sorted(missing))), ""
        # the same planner timeout for every pair: cut to what is left of the pair's time, it
        # made the answer depend on how fast the earlier problems went
        start = time.perf_counter()
        # the planner's CPU as this answer was found (a remembered timeout is charged what it
        # cost then: the pair's limit fires on it as it would on a rerun)
        result, charged = planned(*planner_inputs(self.predicted, problem, self.planned_domain),
                                  self.prediction_timeout, simulator=simulator,
                                  limit_in_key=self.limit_in_key,
                                  limits=FRONT_LIMITS if itself else PREDICTION_LIMITS)
        self.planner_seconds += time.perf_counter() - start
        self.planner_cpu += charged
        timeout = timeout_of(result)
        if timeout:
            self.timeouts.append(f"the prediction's plan of problem {gold.name}: {timeout}")
        if not result.solved:
            if result.status in ("UNSOLVABLE_PROVEN", "UNSOLVABLE_INCOMPLETELY"):
                if gold.plan is None and "UNSOLVABLE" in gold.plan_note:
                    return (None, "no plan in either domain: the gold's problem is unsolvable too",
                            result.planner)
                return False, "the prediction makes the problem unsolvable", result.planner
            if result.status == "Timeout":
                if gold.plan is None:  # nor on the gold: nothing to compare
                    return None, "no plan in time in either domain", result.planner
                return (False, "timeout: Fast Downward found no plan on the prediction in "
                        f"{self.prediction_timeout:g}s", result.planner)
            return (False, f"Fast Downward fails on the prediction: {result.message[:300]}",
                    result.planner)
        check = gold.simulator.validate_plan(parse_plan(result.plan))
        return (check.valid, check.reason or "the prediction's plan is valid in the gold",
                result.planner)

    def _gold_answers_trajectory(self, gold: GoldProblem, simulator: Simulator,
                                 trajectory: _Trajectory, counts: Counter, rng: random.Random,
                                 kept: frozenset[str] | None) -> None:
        """``_trajectory`` for a prediction that is the gold (``kept`` None: same domain and
        problem) or the gold with actions left out (``kept``: the actions ``_kept_actions``
        found), on the gold's problem, computed from the gold's own answers. Each kept action
        is the gold's, on the same predicates and objects, so in every state its ground
        actions applicable in the prediction are the gold's and their successors agree; the
        prediction's applicable actions are the gold's of the kept actions (in the gold's
        order, which is the sorted order ``Simulator.applicable`` gives) and its counts,
        diagnoses and seeded sample (``rng`` moves as ``_trajectory`` moves it) are what the
        comparison makes. The gold's side is computed as ``_trajectory`` computes it (what it
        raises, a work limit, is raised alike); the prediction's states are the gold's (no
        predicate of its own) and its work never passes the gold's (each kept action compiled
        as the gold's), so it raises nothing the gold does not."""
        limit = self.settings.max_transitions
        for gold_state in trajectory.states:
            gold_actions = gold.applicable_in(gold_state)
            counts["states"] += 1
            if kept is None:
                common = list(gold_actions)
            else:
                common = [a for a in gold_actions if a.name in kept]
                for action in gold_actions:
                    if action.name not in kept:
                        counts["fn"] += 1
                        self.diagnoser.too_strong(action, simulator, gold_state)
            counts["tp"] += len(common)
            sample = common if len(common) <= limit else rng.sample(common, limit)
            for action in sample:
                gold.change(gold_state, action)
            counts["compared"] += len(sample)
            counts["agree"] += len(sample)

    def _trajectory(self, gold: GoldProblem, simulator: Simulator, trajectory: _Trajectory,
                    counts: Counter, rng: random.Random) -> None:
        # atoms of prediction-only predicates, from the projected initial state (typing
        # written as predicates), evolved in lockstep along the path to each state
        extras: list[frozenset] = []
        steps: list[tuple[frozenset, set]] = []  # each state as the prediction sees it
        for index, gold_state in enumerate(trajectory.states):
            parent = trajectory.parents[index]
            if parent is None:
                extra = frozenset(a for a in simulator.initial_state
                                  if a[0] in self.extra_predicates)
            else:
                extra = extras[parent]
                step = trajectory.actions[index]
                before, applicable = steps[parent]
                if self.extra_predicates and step is not None and step in applicable:
                    after = simulator.successor(before, step, check=False)
                    extra = frozenset(a for a in after if a[0] in self.extra_predicates)
            state = frozenset(a for a in gold_state if a[0] in simulator.predicate_arity) | extra
            gold_actions = gold.applicable_in(gold_state)
            predicted = simulator.applicable(state)
            counts["states"] += 1
            gold_set, predicted_set = set(gold_actions), set(predicted)
            extras.append(extra)
            steps.append((state, predicted_set) if self.extra_predicates else (state, set()))
            common = [a for a in gold_actions if a in predicted_set]
            counts["tp"] += len(common)
            for action in predicted:
                if action not in gold_set:
                    counts["fp"] += 1
                    self.diagnoser.too_weak(action, gold.simulator, gold_state)
            for action in gold_actions:
                if action not in predicted_set:
                    counts["fn"] += 1
                    self.diagnoser.too_strong(action, simulator, state)
            sample = common if len(common) <= self.settings.max_transitions else \
                rng.sample(common, self.settings.max_transitions)
            for action in sample:
                added, deleted = gold.change(gold_state, action)
                after = simulator.successor(state, action, check=False)
                p_added = frozenset(a for a in after - state if a[0] in self.gold_predicates)
                p_deleted = frozenset(a for a in state - after if a[0] in self.gold_predicates)
                counts["compared"] += 1
                if p_added == added and p_deleted == deleted:
                    counts["agree"] += 1
                else:
                    self.diagnoser.effects(action, added, deleted, p_added, p_deleted)


_KEPT_PLAN = "the gold's plan (the prediction keeps its actions)"
_KEPT_PLAN_REASON = ("the prediction's plans are valid in the gold: it is the gold with actions "
                     "left out, and the gold's plan, which keeps to its actions, is one")


def _kept_actions(gold: Domain, predicted: Domain) -> frozenset[str] | None:
    """The names of the prediction's actions where it is the gold with actions left out (every
    one of its actions the gold's action of that name, its requirements, types, constants,
    predicates and functions the gold's), else None."""
    if (predicted.requirements, predicted.types, predicted.constants, predicted.predicates,
            predicted.functions) != (gold.requirements, gold.types, gold.constants,
                                     gold.predicates, gold.functions):
        return None
    if any(gold.action(action.name) != action for action in predicted.actions):
        return None
    return frozenset(action.name for action in predicted.actions)


_PLANNED = "planned"  # the domain name in the planners' inputs


def planner_inputs(domain: Domain, problem: PlanningProblem,
                   domain_text: str | None = None) -> tuple[str, str]:
    """Domain and problem texts for the planners (and the planner cache's key), printed from
    the models with a fixed domain name and canonical variable names: neither changes the
    planning problem, and a prediction equal to the gold up to them plans once (a faithful
    answer with its own variable names finds the gold's plans in the cache). ``domain_text``:
    ``planner_domain(domain)``, printed already."""
    typed = bool(domain.types) or ":typing" in domain.requirements
    return (domain_text if domain_text is not None else planner_domain(domain),
            problem.to_pddl(_PLANNED, typed=typed, exclude=[c.name for c in domain.constants]))


def planner_domain(domain: Domain) -> str:
    """The domain text of ``planner_inputs``."""
    return replace(domain, name=_PLANNED).to_pddl(canonical_variables=True)


# --------------------------------------------------------------------------------------------
# Helpers for the command line, the evaluation loop and the API


class SemanticInputError(Text2WorldError, ValueError):
    """A gold or problem set the semantic scorer cannot be given (clear message)."""


def problems_from_dir(path) -> list[tuple[str, str]]:
    """``(name, text)`` for every ``*.pddl`` file of a folder, sorted by name."""
    from pathlib import Path
    folder = Path(path)
    if not folder.is_dir():
        raise SemanticInputError(f"--problems {folder}: not a folder")
    files = sorted(folder.glob("*.pddl"))
    if not files:
        raise SemanticInputError(f"--problems {folder}: no *.pddl problem files")
    problems = []
    for file in files:
        try:
            problems.append((file.stem, read_input_text(file, "problem file")))
        except InputFileError as err:
            raise SemanticInputError(str(err)) from None
    return problems


def semantic_summary(score: SemanticScore, max_diagnoses: int = 10) -> dict:
    """The compact form kept per round in run logs and returned by default over the API."""
    return {"ok": score.ok, "verdict": score.verdict, "reason": score.reason,
            **score.metrics(), "unmatched": list(score.unmatched),
            "uncertain": list(score.uncertain),
            "diagnoses": [d.to_dict() for d in score.diagnoses[:max_diagnoses]],
            # Per problem: is the prediction's plan valid in the gold (else the failing step),
            # and does the prediction accept the gold's plan: what the viewer's item page shows.
            "problems": [{"name": p.name, "plan_valid": p.plan_valid,
                          "plan_reason": p.plan_reason[:500],
                          "gold_plan_accepted": p.gold_plan_accepted,
                          "gold_plan_reason": p.gold_plan_reason[:500]}
                         for p in score.problems],
            "settings": score.settings, "seconds": round(score.seconds, 3)}


def semantic_round(gold: str, text: str, problems: Sequence[tuple[str, str]]) -> dict:
    """``semantic_summary`` of one round's domain (picklable, for the evaluation's pool).
    Never raises: an unexpected failure is a round that could not be simulated."""
    return semantic_round_repeats(gold, text, problems)[0]


def semantic_round_repeats(gold: str, text: str,
                           problems: Sequence[tuple[str, str]]) -> tuple[dict, bool]:
    """``semantic_round``, and whether the same inputs give it again: not when a clock shaped
    the score (its ``timeouts``) or scoring failed unexpectedly (the evaluation keeps only
    results that repeat on disk: ``caching.ResultCache``)."""
    try:
        # tuple(p): problems that came through JSON as lists; each is still a (problem, plan) pair
        score = semantic_score(gold, text, [tuple(p) for p in problems])  # type: ignore[misc]
        return semantic_summary(score), not score.timeouts
    except Exception as err:  # noqa: BLE001 - one round must not stop a run
        return {"ok": False, "verdict": "not_simulated",
                "reason": f"semantic scoring failed: {type(err).__name__}: {err}",
                **dict.fromkeys(METRICS), "unmatched": [], "uncertain": [], "diagnoses": [],
                "settings": {}, "seconds": 0.0}, False


__all__ = ["GoldCache", "GoldNotSimulated", "METRICS", "VERDICTS", "ProblemScore",
           "SemanticInputError", "SemanticScore",
           "SemanticSettings", "SemanticTimeout", "align_prediction", "lift", "prepare_gold",
           "planner_inputs", "problems_from_dir", "project_problem", "semantic_round",
           "semantic_round_repeats", "semantic_score", "semantic_summary"]
