"""One (translated) prediction scored against a prepared gold, problem by problem
(``PairScorer``): its plan checked in the gold, the gold's plan in it, and both simulated on the
gold's sampled states, each disagreement traced to a diagnosis."""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from text2world.pddl.model import Domain, Formula, iter_atoms
from text2world.planning.front import FRONT_LIMITS, PREDICTION_LIMITS, planned, timeout_of
from text2world.scoring.diagnosis import Diagnoser
from text2world.scoring.semantic_alignment import project_problem
from text2world.scoring.semantic_gold import GoldCache, GoldProblem, Trajectory, planner_domain, planner_inputs
from text2world.scoring.semantic_results import GOLD_SIDE, ProblemScore, SemanticTimeout
from text2world.simulation import PlanningProblem, Simulator, parse_plan

if TYPE_CHECKING:
    from text2world.scoring.alignment import Alignment


class PairScorer:
    """Scores one translated prediction against a cached gold, problem by problem."""

    def __init__(self, cache: GoldCache, predicted: Domain, started: float,
                 alignment: Alignment | None = None,
                 prediction_timeout: float | None = None) -> None:
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
        self.timeouts: list[str] = [f"{GOLD_SIDE} of problem {p.name}: {p.timeout}"
                                    for p in cache.problems if p.timeout]
        self.gold_predicates = {p.name for p in cache.domain.predicates}
        self.extra_predicates = {p.name for p in predicted.predicates} - self.gold_predicates
        self.diagnoser = Diagnoser(cache.domain, predicted)
        # the domain as the planners read it: neither its name nor its variables' names are
        # simulated, so a copy under other such names is the gold too
        self.planned_domain = planner_domain(predicted)
        self.itself = self.planned_domain == planner_domain(cache.domain)
        self.kept = None if self.itself else kept_actions(cache.domain, predicted)

    def elapsed(self) -> float:
        """What the pair's clock counted so far (CPU or wall seconds: ``cpu_clock``)."""
        if self.settings.cpu_clock:  # the in-process search runs in this thread
            return time.thread_time() - self.cpu_started + self.planner_cpu
        return time.perf_counter() - self.started

    def _clock(self) -> None:
        if self.elapsed() > self.settings.time_limit:
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
            plan_reason, planner = KEPT_PLAN_REASON, KEPT_PLAN
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
        missing = goal_predicates(problem.goal) - {p.name for p in self.predicted.predicates}
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
                                 trajectory: Trajectory, counts: Counter, rng: random.Random,
                                 kept: frozenset[str] | None) -> None:
        """``_trajectory`` for a prediction that is the gold (``kept`` None: same domain and
        problem) or the gold with actions left out (``kept``: the actions ``kept_actions``
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

    def _trajectory(self, gold: GoldProblem, simulator: Simulator, trajectory: Trajectory,
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


KEPT_PLAN = "the gold's plan (the prediction keeps its actions)"
KEPT_PLAN_REASON = ("the prediction's plans are valid in the gold: it is the gold with actions "
                     "left out, and the gold's plan, which keeps to its actions, is one")


def kept_actions(gold: Domain, predicted: Domain) -> frozenset[str] | None:
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


def goal_predicates(formula: Formula) -> set[str]:
    return {atom.predicate for atom in iter_atoms(formula)} - {"="}


__all__ = ["KEPT_PLAN", "PairScorer", "kept_actions"]
