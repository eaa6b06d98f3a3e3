"""Semantic scoring's settings and results: what a score reports and how it was computed.

``SemanticSettings`` fixes sample sizes, seeds and bounds (reported with every score);
``SemanticScore`` holds the four metrics, per-problem counts (``ProblemScore``), diagnoses and
the verdict. The computation is ``semantic`` (the pair), ``semantic_gold`` (the gold side) and
``semantic_pair`` (one prediction against a prepared gold, problem by problem).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from text2world.scoring.diagnosis import Diagnosis
from text2world.scoring.verdict import Verdict
from text2world.simulation import SimulationError

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
        return any(not note.startswith(GOLD_SIDE) for note in self.timeouts)

    def to_dict(self) -> dict:
        data = asdict(self)
        data["diagnoses"] = [d.to_dict() for d in self.diagnoses]
        return data



GOLD_SIDE = "the gold's plan"  # starts a timeout of the gold's side (SemanticScore.timeouts)


__all__ = ["GOLD_SIDE", "GoldNotSimulated", "METRICS", "ProblemScore", "SemanticScore",
           "SemanticSettings", "SemanticTimeout", "VERDICTS"]
