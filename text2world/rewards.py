"""Verifiable rewards for reinforcement learning: a generated domain in, a number in [0, 1] out.

Two contracts of the training ecosystem, both thin over ``reward_for`` (one answer, one gold):

* ``domain_reward(completions, gold_id, **kwargs) -> list[float]``: a reward function for TRL's
  ``GRPOTrainer(reward_funcs=...)``. TRL calls it as ``reward_func(prompts=..., completions=...,
  completion_ids=..., **reward_kwargs)`` where every other dataset column arrives as a keyword
  list aligned with ``completions`` (and ``trainer_state``); completions are strings, or, for a
  conversational dataset, lists of chat messages (``[{"role": "assistant", "content": ...}]``)
  (https://huggingface.co/docs/trl/grpo_trainer, "Using a custom reward function").
* ``compute_score(data_source, solution_str, ground_truth, extra_info=None) -> float``: veRL's
  custom reward function (``custom_reward_function.path`` / ``.name``; the reward manager calls
  it with those keywords, https://verl.readthedocs.io/en/latest/preparation/reward_function.html),
  the signature verifiers-style rubrics wrap too. ``ground_truth`` is a store id or gold PDDL.

Metrics (``METRICS``): ``executable`` (1 when the extracted domain validates), ``paper_f1`` and
``canonical_f1`` (the mean of the four component F1s of that scoring mode), ``semantic`` (the
default): 1.0 exactly for the verdict ``equivalent``; otherwise the mean of the four semantic
metrics (plan validity, gold plan acceptance, applicability F1, transition accuracy), at most
``NOT_EQUIVALENT_CAP``, so that only an equivalent domain earns the full reward. Every metric is
0 for an answer that does not validate. ``problem`` (``PROBLEM_METRIC``) rewards a problem answer
instead: the gold is a domain and one of its problems (``gold_problem``: a store problem name or
problem PDDL), the reward 1 for a problem equivalent to the gold problem, else 0
(``scoring.problem_answer``, which says why there is no partial credit).

Guarantees: deterministic (seeded sampling and work bounds, never a clock: the same answer and
gold give the same reward in any process, under any load and ``PYTHONHASHSEED``), bounded
(``limit`` CPU seconds per answer, the planner's included: a safety net; past it the reward is
0 and ``RewardDetail.reason`` says "timeout:", as it does whenever a planner's clock shaped the
reward, the one case where a reward may not repeat: ``RewardDetail.timed_out``; Fast Downward's
own limit is ``DEFAULT_PLANNER_LIMIT`` CPU seconds per run, and ``planner_limit`` lowers it on
the answer's plans, an option that trades rewards for CPU: see ``reward_for``), safe on any
text (model output never raises: a reward of 0 with a reason), and importable without the
API's extras (no FastAPI, uvicorn or MCP).
The reasons are the side channel: ``domain_reward.last_details`` holds a ``RewardDetail`` per
completion of the latest call; ``reward_for`` returns one.
"""

# No ``from __future__ import annotations`` here: veRL loads this file by path
# (``spec_from_file_location`` + ``exec_module``, no ``sys.modules`` entry), and dataclasses
# with string annotations look their module up in ``sys.modules`` and fail there.
import functools
import os
import threading
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from text2world.errors import Text2WorldError
from text2world.scoring.caching import TextCache
from text2world.simulation.collector import collector_paused

METRICS = ("executable", "paper_f1", "canonical_f1", "semantic")  # of a domain answer
PROBLEM_METRIC = "problem"  # of a problem answer (``problem_reward_for``)
DEFAULT_METRIC = "semantic"
DEFAULT_LIMIT = 10.0  # CPU seconds per answer (real answers take well under one)
DEFAULT_PLANNER_LIMIT = 10.0  # CPU seconds per Fast Downward run (at most ``limit``)
NOT_EQUIVALENT_CAP = 0.99  # the most a domain that is not equivalent can earn (semantic)
TIMEOUT = "timeout"  # starts the part of a reason where a clock (a safety net) fired
LIMIT = "limit"  # starts the part of a reason where a bound on the work or memory refused it
_F1S = ("f1_predicates", "f1_parameters", "f1_preconditions", "f1_effects")


class RewardInputError(Text2WorldError, ValueError):
    """A gold or option the reward cannot use (unknown store id, unknown metric): the caller's
    configuration, never the model's output, so it is raised rather than scored 0."""


@dataclass(frozen=True)
class Gold:
    """A gold domain with the problems semantic scoring runs on (``id``: the store id, or
    ``"pddl:<hash>"`` for a gold given as text)."""

    id: str
    domain: str
    problems: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class RewardDetail:
    """One answer's reward and why: ``scores`` holds every metric computed (the chosen one and
    what it rests on), ``verdict`` the semantic verdict when it was computed, ``reason`` why the
    reward is below 1 (empty when it is 1)."""

    reward: float
    metric: str
    executable: bool
    verdict: str | None = None
    reason: str = ""
    scores: dict[str, Any] = field(default_factory=dict)

    @property
    def timed_out(self) -> bool:
        """A time-based safety net fired: this reward may not repeat (``reason`` says which)."""
        return f"{TIMEOUT}:" in self.reason

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# --------------------------------------------------------------------------------------------
# Golds


@functools.lru_cache(maxsize=16)
def _store(dataset: str):
    from text2world.store.datasets import DatasetError, load_dataset

    if in_workers():  # the first gold resolved: a worker starts while the store loads
        _workers().prestart()
    try:
        return load_dataset(dataset)
    except DatasetError as err:
        raise RewardInputError(f"dataset {dataset!r}: {err}") from None


@functools.lru_cache(maxsize=4096)
def resolve_gold(reference: str, dataset: str = "text2world") -> Gold:
    """A gold from a store id of ``dataset`` or from gold PDDL text (``(define ...``). A PDDL
    gold that is a store gold, byte for byte, gets that record's problems; another has none
    (then ``semantic`` falls back to ``canonical_f1``, with a note)."""
    if not isinstance(reference, str) or not reference.strip():
        raise RewardInputError(f"the gold must be a store id or PDDL text, not {reference!r:.80}")
    store = _store(dataset)
    if "(define" in reference.lower():
        import hashlib

        text = reference.strip()
        for record in store:
            if record.domain.strip() == text:
                return _gold_of(record)
        return Gold("pddl:" + hashlib.sha256(text.encode()).hexdigest()[:12], reference)
    try:
        return _gold_of(store.get(reference.strip()))
    except KeyError:
        raise RewardInputError(f"{reference!r:.80} is neither PDDL text nor a domain id of dataset "
                               f"{dataset!r} (t2w data list shows the ids)") from None


def _gold_of(record) -> Gold:
    return Gold(record.id, record.domain, tuple((p.name, p.pddl) for p in record.problems))


def check_planner_limit(planner_limit: Any) -> float | None:
    """``planner_limit`` as a number of CPU seconds (> 0), or None (the default limit)."""
    if planner_limit is None:
        return None
    try:
        value = float(planner_limit)
    except (TypeError, ValueError):
        value = float("nan")
    if not value > 0:
        raise RewardInputError(f"planner_limit must be a number of CPU seconds > 0, not {planner_limit!r:.80}")
    return value


def check_metric(metric: str) -> str:
    if metric not in METRICS and metric != PROBLEM_METRIC:
        raise RewardInputError(f"unknown reward metric {metric!r}; choose one of "
                               f"{', '.join(METRICS)}, {PROBLEM_METRIC}")
    return metric


@dataclass(frozen=True)
class ProblemGold:
    """A gold problem of a gold domain (``id``: ``<domain id>/<problem name>``, the problem's
    name being ``pddl:<hash>`` for a problem given as text)."""

    id: str
    domain: str
    problem: str


@functools.lru_cache(maxsize=4096)
def resolve_problem_gold(domain: str, problem: str, dataset: str = "text2world") -> ProblemGold:
    """A gold problem: ``domain`` as ``resolve_gold`` reads it, ``problem`` a problem name of that
    store domain or problem PDDL text; both must parse (``RewardInputError`` says why not)."""
    from text2world.scoring.problem_answer import ProblemComparisonError, check_problem_gold

    gold = resolve_gold(domain, dataset)
    if not isinstance(problem, str) or not problem.strip():
        raise RewardInputError(f"the gold problem must be a problem name of {gold.id!r} or "
                               f"problem PDDL text, not {problem!r:.80}")
    if "(define" in problem.lower():
        import hashlib

        name, text = "pddl:" + hashlib.sha256(problem.strip().encode()).hexdigest()[:12], problem
    else:
        name, text = problem.strip(), dict(gold.problems).get(problem.strip(), "")
        if not text:
            known = ", ".join(n for n, _ in gold.problems) or "none"
            raise RewardInputError(f"{problem!r:.80} is neither problem PDDL text nor a problem "
                                   f"of {gold.id!r} (its problems: {known})")
    try:
        check_problem_gold(gold.domain, text)
    except ProblemComparisonError as err:
        raise RewardInputError(f"gold {gold.id}/{name}: {err}") from None
    return ProblemGold(f"{gold.id}/{name}", gold.domain, text)


# --------------------------------------------------------------------------------------------
# One answer


def answer_text(completion: Any) -> str:
    """The text of a completion: a string, or the content of the last assistant message of a
    chat completion (content given as text parts is joined). Anything else is no text."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, (list, tuple)):
        for message in reversed(completion):
            if isinstance(message, dict) and message.get("role", "assistant") == "assistant":
                content = message.get("content")
                if isinstance(content, list):
                    return "".join(part.get("text", "") for part in content
                                   if isinstance(part, dict) and isinstance(part.get("text"), str))
                return content if isinstance(content, str) else ""
    return ""


def reward_for(gold: Gold, answer: Any, metric: str = DEFAULT_METRIC,
               limit: float = DEFAULT_LIMIT, every_score: bool = False,
               planner_limit: float | None = None) -> RewardDetail:
    """The reward of one answer (a string or chat messages) against ``gold``; never raises for
    the answer. ``every_score`` computes all metrics (what batch scoring writes), not only the
    one rewarded.

    The answer is scored in a warm worker process (``text2world.bounded``, kept between
    answers with its caches) whose limits the operating system enforces: ``limit`` CPU seconds
    for the answer, its planner processes included (past ``limit + bounded.CPU_MARGIN`` the
    worker is killed and replaced: reward 0, reason "timeout:"), and ``T2W_WORKER_MEMORY_MB``
    of memory (reason "limit:"). The gold is prepared there first, outside the answer's
    budget. ``T2W_REWARD_WORKERS=0`` scores in this process instead (the clocks inside the
    scoring only).

    ``planner_limit`` (an option; None: ``DEFAULT_PLANNER_LIMIT``, at most ``limit``) lowers
    Fast Downward's CPU seconds per run on the answer's own plans (the gold's plans keep the
    default). Fast Downward runs only where the in-process search gives up and h^2 proves
    nothing (17 runs for the 770 answers of ``bench/reward_bench.py``), but such runs are most
    of the CPU new answers cost, and one that finds nothing costs the whole limit: a lower
    limit saves that time, and gives 0 (a ``timeout:`` reason) to an answer whose plan, or
    proof of none, Fast Downward needs more seconds for. So it changes rewards, and the
    rewards of one limit are not comparable with another's; its plans are cached apart from
    the default's."""
    if check_metric(metric) == PROBLEM_METRIC:
        raise RewardInputError("metric 'problem' scores a problem answer: problem_reward_for")
    planner_limit = check_planner_limit(planner_limit)
    text = answer_text(answer)
    if not in_workers():
        return _reward_here(gold, text, metric, limit, every_score, planner_limit)
    workers = _workers()
    golden = (gold.id, gold.domain, gold.problems)
    prepare = None
    if gold.problems and (every_score or metric == "semantic"):
        prepare = (_MODULE, "_prepare_in_worker",
                   (golden, limit, planner_limit))
    outcome, value = workers.run((_MODULE, "_reward_in_worker",
                                  (golden, text, metric, limit, every_score, planner_limit)),
                                 limit, prepare)
    if outcome == "ok":
        return RewardDetail(**value)
    zeros = dict.fromkeys(METRICS if every_score else ("executable", metric), 0.0)
    return RewardDetail(0.0, metric, False, reason=_failure(outcome, value, limit), scores=zeros)


def problem_reward_for(gold: ProblemGold, answer: Any, limit: float = DEFAULT_LIMIT) -> RewardDetail:
    """The reward of one problem answer against ``gold`` (metric ``problem``), in a worker
    process under the same limits as ``reward_for`` (``T2W_REWARD_WORKERS=0``: here); never
    raises for the answer. ``executable``: the problem parses; ``verdict``: ``equivalent``,
    ``different`` or ``open`` (a bound stopped the check); ``scores``: the reward beside what
    it does not pay for (solvable, similarity, init_f1, goal_f1)."""
    text = answer_text(answer)
    job = (_MODULE, "_problem_reward_in_worker", ((gold.id, gold.domain, gold.problem), text, limit))
    if not in_workers():
        return RewardDetail(**_problem_reward_in_worker(*job[2]))
    prepare = (_MODULE, "_prepare_problem_in_worker", (job[2][0],))
    outcome, value = _workers().run(job, limit, prepare)
    if outcome == "ok":
        return RewardDetail(**value)
    return RewardDetail(0.0, PROBLEM_METRIC, False, reason=_failure(outcome, value, limit),
                        scores={PROBLEM_METRIC: 0.0})


def _prepare_problem_in_worker(golden: tuple) -> None:
    """In a worker, before the answer's budget: the scoring imported, the gold parsed."""
    from text2world.scoring.problem_answer import check_problem_gold

    try:
        with collector_paused():
            check_problem_gold(golden[1], golden[2])
    except Exception:  # noqa: BLE001 - checked by resolve_problem_gold already
        pass


def _problem_reward_in_worker(golden: tuple, text: str, limit: float) -> dict:
    return _guarded(PROBLEM_METRIC, _problem_reward, golden, text, limit).to_dict()


def _problem_reward(golden: tuple, text: str, limit: float) -> RewardDetail:
    from text2world.scoring.problem_answer import score_problem_answer
    from text2world.scoring.problem_equivalence import PLAN_TIMEOUT

    scored = score_problem_answer(golden[1], golden[2], text, plan_timeout=min(PLAN_TIMEOUT, limit))
    scores: dict[str, Any] = {PROBLEM_METRIC: scored.reward}
    verdict, found = None, scored.verdict
    if found is not None and found.parseable:
        verdict = {True: "equivalent", False: "different", None: "open"}[found.equivalent]
        if found.solvable is not None:
            scores["solvable"] = float(found.solvable)
        scores.update(similarity=found.similarity, init_f1=found.init_f1, goal_f1=found.goal_f1)
    return RewardDetail(scored.reward, PROBLEM_METRIC, verdict is not None, verdict, scored.reason,
                        scores)


def _failure(outcome: str, value: Any, limit: float) -> str:
    """The reason of a worker that did not answer (``bounded.Workers.run``'s outcome)."""
    from text2world import bounded

    if outcome == "timeout":
        reason = (f"{TIMEOUT}: the answer's scoring {value}: its worker process was killed (the "
                  f"limit: {limit:g} CPU seconds per answer, planner processes included)")
    elif outcome in ("memory", "died"):
        reason = (f"{LIMIT}: the answer's scoring needed more than the "
                  f"{_workers().memory_mb or bounded.memory_limit_mb()} MiB of memory its worker "
                  f"process has ({value})")
    else:
        reason = f"scoring failed: {value}"
    return reason[:1000]


def _reward_here(gold: Gold, text: str, metric: str, limit: float, every_score: bool,
                 planner_limit: float | None) -> RewardDetail:
    return _guarded(metric, _reward, gold, text, metric, limit, every_score, planner_limit)


def _guarded(metric: str, score: Any, *args: Any) -> RewardDetail:
    """``score(*args)``, a reward of 0 with the reason for anything the answer makes it raise."""
    try:
        # the answer's parse allocates as scoring does (see simulation/collector.py): paused,
        # its temporaries are not promoted to the oldest generation by young collections, and
        # the full collections they would cause (over every prepared gold) are fewer
        with collector_paused():
            return score(*args)
    except MemoryError:
        return RewardDetail(0.0, metric, False, reason=f"{LIMIT}: the answer's scoring ran out "
                                                       "of memory")
    except Exception as err:  # noqa: BLE001 - no model output may stop a training step
        return RewardDetail(0.0, metric, False, reason=f"scoring failed: {type(err).__name__}: {err}"[:500])


# The worker processes of this process's rewards (``text2world.bounded``), made at first use.
_MODULE = "text2world.rewards"  # by name: veRL loads this file by path, the workers import it
WORKERS_VARIABLE = "T2W_REWARD_WORKERS"
_WORKERS: list = []
_WORKERS_LOCK = threading.Lock()


def in_workers() -> bool:
    """Whether rewards are scored in worker processes (``T2W_REWARD_WORKERS``, default on)."""
    value = os.environ.get(WORKERS_VARIABLE, "1").strip().lower()
    return value not in ("0", "false", "no", "off")


def _workers():
    from text2world.bounded import Workers

    with _WORKERS_LOCK:
        if not _WORKERS:
            _WORKERS.append(Workers())
        return _WORKERS[0]


def reward_workers():
    """The ``bounded.Workers`` this process's rewards run in (their PIDs, their CPU)."""
    return _workers()


def forget_answers() -> None:
    """Empty what this process and its reward workers keep of the answers they scored (their
    parses, the planner's answers in memory; the golds stay prepared): a benchmark's next
    pass pays for every answer as new."""
    from text2world.pddl import tarski_cache
    from text2world.planning import front

    for cache in (_VALIDATED, _PARSED):
        cache.cache_clear()
    tarski_cache.clear()
    front.clear_memory()
    if _WORKERS:
        _WORKERS[0].run_on_idle((_MODULE, "forget_answers", ()))


def _prepare_in_worker(golden: tuple, limit: float, planner_limit: float | None) -> None:
    """In a worker, before the answer's budget: the gold prepared as ``_semantic`` needs it."""
    from text2world.scoring.semantic import prepare_gold

    _, domain, problems = golden
    try:
        with collector_paused():
            prepare_gold(domain, problems, settings=semantic_settings(limit, planner_limit))
    except Exception:  # noqa: BLE001 - the answer's scoring meets it again and says why
        pass


def _reward_in_worker(golden: tuple, text: str, metric: str, limit: float, every_score: bool,
                      planner_limit: float | None) -> dict:
    return _reward_here(Gold(*golden), text, metric, limit, every_score, planner_limit).to_dict()


def _validate(domain: str):
    from text2world.pddl.validation import Validation, validate

    # a reward reads whether it validates and its first error: what is kept of it is that
    # alone (its model is _PARSED's), so fewer long-lived objects for the garbage collector
    checked = validate(domain, first_error_only=True)
    return Validation(checked.ok, checked.errors)


def _parse(domain: str):
    from text2world.pddl.model import parse_domain

    return parse_domain(domain)


# An answer's domain met again (a GRPO group's equal completions, an answer that repeats over
# steps, a batch scored twice) is not parsed again: its validation and its parsed domain (both
# immutable, pure functions of the text) are kept by content, within ``T2W_GOLD_CACHE_BYTES``
# each (``scoring.caching``). A parse that raises is not kept.
_VALIDATED = TextCache(_validate)
_PARSED = TextCache(_parse)


def _reward(gold: Gold, text: str, metric: str, limit: float, every_score: bool,
            planner_limit: float | None = None) -> RewardDetail:
    started = reward_before_semantic(gold, text, metric, limit, every_score, planner_limit)
    if isinstance(started, RewardDetail):
        return started
    semantic = _semantic(gold, started.predicted, limit, planner_limit)
    return reward_after_semantic(started, semantic)


@dataclass
class SemanticPending:
    """An answer scored but for its semantic comparison (``reward_before_semantic``): plain
    data, so that the comparison may run elsewhere, cut per gold problem (``score-batch``'s
    pool: ``batch_split``), and ``reward_after_semantic`` finish it."""

    metric: str
    domain: str              # the answer's domain, validated
    predicted: Any           # its model (or the text, where the parse failed): this process's
    scores: dict[str, Any]
    reasons: list[str]
    chosen: str


def reward_before_semantic(gold: Gold, text: str, metric: str, limit: float,
                           every_score: bool, planner_limit: float | None = None
                           ) -> RewardDetail | SemanticPending:
    """``_reward`` up to the semantic comparison: the reward itself where none is needed
    (or the answer has no valid domain), else what the comparison finishes."""
    from text2world.pddl import tarski_cache
    from text2world.pddl.extract import NoDomainFound, extract_domain

    zeros = dict.fromkeys(METRICS if every_score else ("executable", metric), 0.0)
    try:
        domain = extract_domain(text, "canonical")
    except NoDomainFound as err:
        return RewardDetail(0.0, metric, False, reason=f"no domain: {err}", scores=zeros)
    wanted = METRICS if every_score else (metric,)
    simulated = "semantic" in wanted and bool(gold.problems)
    with tarski_cache.transient():  # the answer's parse tree serves both, then is dropped
        checked = _VALIDATED(domain)
        predicted = _parsed(domain) if checked.ok and simulated else None
    if not checked.ok:
        first = checked.errors[0]
        where = f" (line {first.line})" if first.line is not None else ""
        return RewardDetail(0.0, metric, False, reason=f"does not validate{where}: {first.message}"[:500],
                            scores=zeros)
    scores: dict[str, Any] = {"executable": 1.0}
    reasons: list[str] = []
    if "semantic" in wanted and not gold.problems:
        reasons.append("the gold has no problems: semantic scoring is replaced by canonical_f1")
        wanted = tuple(dict.fromkeys([*wanted, "canonical_f1"]))
    for mode in ("paper", "canonical"):
        if f"{mode}_f1" in wanted:
            scores[f"{mode}_f1"], why = _f1(gold.domain, domain, mode)
            if why:
                reasons.append(why)
    chosen = metric if metric != "semantic" or gold.problems else "canonical_f1"
    pending = SemanticPending(metric, domain, predicted, scores, reasons, chosen)
    return pending if simulated else reward_after_semantic(pending, None)


def guarded_before_semantic(gold: Gold, answer: Any, metric: str, limit: float
                            ) -> RewardDetail | SemanticPending:
    """``reward_before_semantic`` of an answer scored in this process (every score), under
    the guard ``reward_for`` scores it under there (what it makes raise is a reward of 0)."""
    if check_metric(metric) == PROBLEM_METRIC:
        raise RewardInputError("metric 'problem' scores a problem answer: problem_reward_for")
    return _guarded(metric, reward_before_semantic, gold, answer_text(answer), metric, limit,
                    True, None)


def reward_after_semantic(pending: SemanticPending,
                          semantic: tuple[float, str, str] | None) -> RewardDetail:
    """The reward of ``pending`` given its semantic comparison (``(value, verdict, reason)``
    as ``semantic_reward`` gives it; None: none was needed)."""
    scores, reasons, verdict = dict(pending.scores), list(pending.reasons), None
    if semantic is not None:
        scores["semantic"], verdict, why = semantic
        if why:
            reasons.append(why)
    reward = float(scores[pending.chosen])
    if reward < 1.0 and not reasons:
        reasons.append(f"{pending.chosen} {reward:.4f}")
    # a reward of 1 has no reason, unless a clock shaped it (then it may not repeat)
    shown = reasons if reward < 1.0 else [r for r in reasons if r.startswith(TIMEOUT)]
    return RewardDetail(reward, pending.metric, True, verdict, "; ".join(shown)[:1000], scores)


def _f1(gold: str, domain: str, mode: str) -> tuple[float, str]:
    from text2world.scoring.metrics import ScoringError
    from text2world.scoring.score_domain import score_domain

    try:  # the domain is extracted and validated already (``_reward``)
        result = score_domain(gold, domain, mode=mode, validation=False).score
    except ScoringError as err:
        return 0.0, f"{mode} scoring: {err}"
    if not result.gold_executable:
        return 0.0, f"the gold does not parse in {mode} mode"
    return sum(getattr(result, name) for name in _F1S) / len(_F1S), ""


def _parsed(domain: str) -> Any:
    """The answer's model, or its text where the parse fails (semantic scoring parses it
    again and says why)."""
    try:
        return _PARSED(domain)
    except Exception:  # noqa: BLE001
        return domain


def semantic_settings(limit: float, planner_limit: float | None):
    from text2world.scoring.semantic import SemanticSettings

    planner = min(DEFAULT_PLANNER_LIMIT, limit)
    lower = planner_limit if planner_limit is not None and planner_limit < planner else None
    return SemanticSettings(time_limit=limit, planner_timeout=planner, cpu_clock=True,
                            prediction_planner_timeout=lower)


def _semantic(gold: Gold, predicted: Any, limit: float,
              planner_limit: float | None = None) -> tuple[float, str, str]:
    from text2world.scoring.semantic import semantic_score

    settings = semantic_settings(limit, planner_limit)
    result = semantic_score(gold.domain, predicted, gold.problems, settings=settings)
    return semantic_reward(result, limit, planner_limit)


def semantic_reward(result: Any, limit: float,
                    planner_limit: float | None = None) -> tuple[float, str, str]:
    """(semantic reward, verdict, reason) of a ``SemanticScore`` scored under
    ``semantic_settings(limit, planner_limit)``."""
    settings = semantic_settings(limit, planner_limit)
    planner = settings.planner_timeout
    lower = settings.prediction_planner_timeout
    # a clock that fired (a safety net) makes the reward one that may not repeat: say so first;
    # on the answer's side the reward is 0, whichever clock fired (the planner's or the pair's,
    # which fire together on a hopeless search), so that only the reason tells them apart
    timeouts = f"{TIMEOUT}: " + "; ".join(result.timeouts[:2]) if result.timeouts else ""
    if result.prediction_timed_out:
        return 0.0, result.verdict, (f"{timeouts} (the limits: {limit:g} CPU seconds per answer, "
                                     f"{lower or planner:g} per planner run)")
    if not result.ok:
        reason = f"{timeouts}; {result.reason}" if timeouts else result.reason
        return 0.0, result.verdict, reason
    if result.verdict == "equivalent":
        return 1.0, result.verdict, timeouts
    values = [value for value in result.metrics().values() if value is not None]
    value = min(NOT_EQUIVALENT_CAP, sum(values) / len(values)) if values else 0.0
    why = "; ".join([*result.unmatched[:3], *(d.message for d in result.diagnoses[:2])])
    verdict = f"semantic verdict {result.verdict}" + (f": {why}" if why else "")
    return value, result.verdict, f"{timeouts}; {verdict}" if timeouts else verdict


# --------------------------------------------------------------------------------------------
# The ecosystem's contracts


def _column(value: Any, size: int, name: str) -> list:
    """A dataset column as TRL passes it (a list aligned with the completions), or one value
    for every completion."""
    if isinstance(value, (list, tuple)):
        if len(value) != size:
            raise RewardInputError(f"{name} has {len(value)} values for {size} completions; "
                                   "TRL passes one per completion")
        return list(value)
    return [value] * size


class DomainReward:
    """``domain_reward``: TRL's reward function contract (see the module docstring).

    ``gold_id`` (a store id or gold PDDL per completion; ``gold_pddl`` is accepted as the column
    name too), ``metric`` (one of ``METRICS``, a string or a column), ``dataset``, ``limit``
    (CPU seconds per answer) and ``planner_limit`` (an option that changes rewards: see
    ``reward_for``). With ``metric="problem"`` a completion is a problem answer and
    ``gold_problem`` (a column: a problem name of the gold domain, or problem PDDL) its gold
    (``problem_reward_for``). Every other keyword (``prompts``, ``completion_ids``,
    ``trainer_state``, other columns) is accepted and ignored. ``last_details``: the
    ``RewardDetail`` of each completion of the latest call (the reasons)."""

    def __init__(self, metric: str = DEFAULT_METRIC, limit: float = DEFAULT_LIMIT,
                 name: str = "domain_reward", planner_limit: float | None = None) -> None:
        self.metric = check_metric(metric)
        self.limit = limit
        self.planner_limit = check_planner_limit(planner_limit)
        self.__name__ = name  # TRL names each reward function's logged column by __name__
        self.last_details: list[RewardDetail] = []

    def __call__(self, completions: Sequence[Any], gold_id: Any = None, *, metric: Any = None,
                 gold_pddl: Any = None, dataset: Any = None, limit: float | None = None,
                 planner_limit: float | None = None, gold_problem: Any = None,
                 **kwargs: Any) -> list[float]:
        size = len(completions)
        golds = gold_id if gold_id is not None else gold_pddl
        if golds is None:
            raise RewardInputError("domain_reward needs a 'gold_id' (or 'gold_pddl') dataset column: "
                                   "the store id or gold PDDL of each prompt")
        metrics = _column(metric if metric is not None else self.metric, size, "metric")
        datasets = _column(dataset if dataset is not None else "text2world", size, "dataset")
        planner = self.planner_limit if planner_limit is None else check_planner_limit(planner_limit)
        seconds = self.limit if limit is None else limit
        problems = _column(gold_problem, size, "gold_problem")
        details = [_one_reward(completion, reference, problem, check_metric(chosen), data,
                               seconds, planner)
                   for completion, reference, problem, chosen, data in
                   zip(completions, _column(golds, size, "gold_id"), problems, metrics, datasets)]
        self.last_details = details
        return [detail.reward for detail in details]


def _one_reward(completion: Any, reference: Any, problem: Any, metric: str, dataset: str,
                limit: float, planner_limit: float | None) -> RewardDetail:
    if metric != PROBLEM_METRIC:
        return reward_for(resolve_gold(reference, dataset), completion, metric, limit,
                          planner_limit=planner_limit)
    if problem is None:
        raise RewardInputError("metric 'problem' needs a 'gold_problem' (TRL: a dataset column; "
                               "veRL: extra_info): a problem name of the gold domain or "
                               "problem PDDL")
    return problem_reward_for(resolve_problem_gold(reference, problem, dataset), completion, limit)


domain_reward = DomainReward()


def compute_score(data_source: str, solution_str: str, ground_truth: str,
                  extra_info: dict | None = None, **kwargs: Any) -> float:
    """veRL's reward contract: the reward of ``solution_str`` against ``ground_truth`` (a store
    id or gold PDDL). ``extra_info`` may set ``metric``, ``dataset``, ``limit`` and
    ``planner_limit`` (see ``reward_for``), and for ``metric="problem"`` must set
    ``gold_problem`` (a problem name of the gold domain, or problem PDDL); ``data_source`` is
    not used (veRL routes by it before calling). Every other keyword is accepted and ignored: veRL's reward loop passes
    ``reward_router_address`` and ``reward_model_tokenizer`` to every custom function."""
    info = extra_info if isinstance(extra_info, dict) else {}
    return _one_reward(solution_str, ground_truth, info.get("gold_problem"),
                       check_metric(info.get("metric") or DEFAULT_METRIC),
                       info.get("dataset") or "text2world",
                       float(info.get("limit") or DEFAULT_LIMIT),
                       check_planner_limit(info.get("planner_limit"))).reward


__all__ = ["DEFAULT_LIMIT", "DEFAULT_METRIC", "DEFAULT_PLANNER_LIMIT", "METRICS", "NOT_EQUIVALENT_CAP",
           "PROBLEM_METRIC", "DomainReward", "Gold", "ProblemGold", "problem_reward_for",
           "resolve_problem_gold", "RewardDetail", "RewardInputError", "answer_text", "check_metric",
           "check_planner_limit", "compute_score", "domain_reward", "forget_answers", "in_workers", "resolve_gold",
           "guarded_before_semantic", "reward_after_semantic", "reward_before_semantic", "reward_for", "reward_workers",
           "SemanticPending", "semantic_reward", "semantic_settings"]
