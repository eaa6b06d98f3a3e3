"""The world-model tasks (next-state, verify, verify-rollout, propose, plan) as tasks of the
engine: build the items, ask the model, score the answers with the simulator and the planner
(with the trivial baselines on the same items); the engine logs each item to the run store
(resume, paid ledger, infrastructure errors kept apart, epochs).

Reference models get each call's truth in their reference context.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, Mapping, Sequence

from text2world.engine.options import RunOptions
from text2world.engine.run_store import (
    ErrorRecord,
    ItemRecord,
    Run,
    RunConfig,
    RunSummary,
    make_run_id,
    text_hash,
)
from text2world.engine.runner import RunResult, TaskPlan, execute, plan_task
from text2world.engine.runner import options_from_run as resume_options
from text2world.engine.task import Sample, SampleContext
from text2world.errors import Text2WorldError
from text2world.model.client import ModelSpec
from text2world.simulation import GroundAction, SimulationError
from text2world.simulation.problem import parse_atom
from text2world.store.datasets import BUILTIN, Dataset, DatasetError, Record, first, load_dataset
from text2world.tasks.wm import baselines, prompts
from text2world.tasks.wm import reference as reference_answers  # noqa: F401 - registers them
from text2world.tasks.wm.generators import SIZES, sized_records
from text2world.tasks.wm.items import (
    OFF_PLAN_SHARE,
    RHOS,
    STATIC_SHARE,
    TASKS,
    BuildResult,
    ItemError,
    atoms,
    build_items,
    train_examples,
)
from text2world.tasks.wm.kind import WmKind
from text2world.tasks.wm.metrics import PROPOSE_KS, protocol_label, score_next_state, score_verify, summarize_items
from text2world.tasks.wm.mystery import mystery_records
from text2world.tasks.wm.parse import (
    AnswerError,
    parse_actions,
    parse_goal_check,
    parse_next_state,
    parse_plan_step,
    parse_plan_step_done,
    parse_verify,
)
from text2world.tasks.wm.planner import optimal_plan
from text2world.tasks.wm.records import (
    WmCall,
    WmConfig,
    WmItem,
    WmSummary,
    wm_config,
    wm_items,
    wm_summary,
)
from text2world.tasks.wm.world import World, world_for

KIND = WmKind.name
# What an answer is judged against, kept in each log record for reports and the viewer.
TRUTH_KEYS = ("action", "applicable", "next_state", "added", "removed", "valid",
              "first_failing_step", "reason", "mutation", "plan_action", "remaining_plan")


class WmError(Text2WorldError, ValueError):
    """Bad input to a world-model run: a clear message."""


@dataclass
class WmOptions(RunOptions):
    """``t2w wm TASK``: the shared run options plus the tasks' own."""

    dataset: str = BUILTIN
    task: str = "next-state"
    size: str = "hard"  # hard: generated problems (generators.py); easy: the store's own
    mystery: bool = False  # obfuscated names (mystery.py)
    rules: str = "pddl"  # pddl, concrete, abstract, none
    render: str = "atoms"  # atoms, text
    form: str = "full"  # next-state: full state or diff
    rhos: tuple[float, ...] = RHOS
    k: int | None = None  # propose: actions asked for (10); plan: candidates per step (1: the
    # model's own proposal; K > 1: it proposes K, then checks them and picks one)
    slack: float = 0.0  # propose: extra cost allowed over the optimum (0: optimal actions)
    per_k: bool = False  # propose: a separate query per K in PROPOSE_KS (up to k)
    illegal_share: float = 0.25
    off_plan_share: float = OFF_PLAN_SHARE  # next-state: share of states off the plan
    static_share: float = STATIC_SHARE  # next-state: share of actions that change nothing
    examples: int = 0  # next-state: worked examples from the train split in each prompt
    problems_per_domain: int | None = None
    planner_timeout: float = 20.0

    FIELDS: ClassVar[dict] = {
        "task": ("task", str), "rules": ("rules", str), "render": ("render", str),
        "form": ("form", str), "rhos": ("rhos", tuple), "k": ("k", int),
        "slack": ("slack", float), "illegal_share": ("illegal_share", float),
        "problems_per_domain": ("problems_per_domain", lambda value: value),
        # runs from before off-plan items had none
        "off_plan_share": ("off_plan_share", float),
        "size": ("size", str), "mystery": ("mystery", bool), "per_k": ("per_k", bool),
        "static_share": ("static_share", float), "examples": ("examples", int)}

    @classmethod
    def from_config(cls, config: Mapping[str, Any], path: Path):
        options = super().from_config(config, path)
        # runs from before these options had none of what they add
        for key, old in (("off_plan_share", 0.0), ("static_share", 0.0), ("size", "easy")):
            if key not in config:
                setattr(options, key, old)
        return options


def _check(options: WmOptions) -> None:
    if options.task not in TASKS:
        raise WmError(f"unknown task {options.task!r}; choose one of {', '.join(TASKS)}")
    for name, value, allowed in (("size", options.size, SIZES),
                                 ("rules", options.rules, prompts.RULES),
                                 ("render", options.render, prompts.RENDERS),
                                 ("form", options.form, prompts.FORMS)):
        if value not in allowed:
            raise WmError(f"--{name} {value!r}: choose one of {', '.join(allowed)}")
    if options.k is None:
        options.k = 1 if options.task == "plan" else 10
    if not 1 <= options.k <= 20:
        raise WmError(f"-k must be between 1 and 20, not {options.k}")
    if options.slack < 0:
        raise WmError("--slack must be 0 or more")
    if not 0 <= options.examples <= 8:
        raise WmError(f"--examples must be between 0 and 8, not {options.examples}")


def select_records(options: WmOptions) -> tuple[Dataset, list[Record]]:
    try:
        dataset = load_dataset(options.dataset)
        records = dataset.select(options.split, options.domains)
        records = [r for r in records if r.problems]
        if not records:
            raise WmError(f"no selected domain of dataset {dataset.name!r} has problems; the "
                          "world-model tasks need problems to plan on")
        if options.rules in ("abstract", "concrete"):
            records = [r for r in records if (r.description(options.rules) or "").strip()]
        records = sized_records(first(records, options.limit), options.size, options.seed)
        return dataset, mystery_records(records, options.seed) if options.mystery else records
    except DatasetError as err:
        raise WmError(str(err)) from None


def build(options: WmOptions) -> tuple[Dataset, list[Record], BuildResult]:
    """The items of a run (deterministic for the seed)."""
    _check(options)
    dataset, records = select_records(options)
    try:
        built = build_items(options.task, records, seed=options.seed, rhos=options.rhos,
                            illegal_share=options.illegal_share,
                            off_plan_share=options.off_plan_share,
                            static_share=options.static_share,
                            problems_per_domain=options.problems_per_domain,
                            planner_timeout=options.planner_timeout)
    except ItemError as err:
        raise WmError(str(err)) from None
    return dataset, records, built


def _state_set(values) -> frozenset:
    return frozenset(a for a in (parse_atom(v) for v in values) if a is not None)


def _jsonable(value):
    if isinstance(value, (set, frozenset)):
        return sorted("(" + " ".join(a) + ")" for a in value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


class WmTask:
    """One world-model task (``engine.task.Task``); its samples are the built items."""

    kind = KIND
    uses_cpu_pool = False  # the simulator is cheap; the planner runs in threads

    def __init__(self, options: WmOptions) -> None:
        self.options = options
        self.dataset: Dataset | None = None
        self.records: dict[str, Record] = {}
        self.built: BuildResult | None = None
        self.stats = {"simulator_cpu": 0.0, "planner_calls": 0}
        self.examples: dict[str, str] = {}  # --examples: the worked examples per domain

    @property
    def command(self) -> str:
        return f"{WmKind.command} {self.options.task}"

    def check(self) -> None:
        _check(self.options)

    def load(self) -> list[Sample]:
        self.dataset, records, self.built = build(self.options)
        if not self.built.items:
            raise WmError("no item could be built from the selected problems: "
                          + "; ".join(self.built.skipped[:3]))
        self.records = {r.id: r for r in records}
        return [Sample(item["id"], item) for item in self.built.items]

    def selection_ids(self, samples: list[Sample]) -> list[str]:
        """What a resumed run selects again: the domains its items were built from."""
        return list(self.records)

    def configure(self, spec: ModelSpec, generation: dict) -> WmConfig:
        options, dataset, built = self.options, self.dataset, self.built
        assert dataset is not None and built is not None
        task_settings: WmConfig = {"task": options.task, "size": options.size,
                         "mystery": options.mystery, "rules": options.rules,
                         "render": options.render, "form": options.form,
                         "rhos": list(options.rhos), "k": options.k, "slack": options.slack,
                         "per_k": options.per_k, "illegal_share": options.illegal_share,
                         "problems_per_domain": options.problems_per_domain}
        if options.task == "next-state":  # only its items depend on these
            task_settings.update({"off_plan_share": options.off_plan_share,
                                  "static_share": options.static_share,
                                  "examples": options.examples})
        items_hash = text_hash(json.dumps(built.items, sort_keys=True))
        return {
            "dataset": dataset.name, "dataset_source": dataset.source,
            "dataset_hash": dataset.content_hash, "split": options.split,
            # run identity (run_store.IDENTITY_KEYS): the rules are the "description", the
            # task and its settings the "prompt"
            "description": options.rules, "prompt": f"wm-{options.task}",
            "prompt_hash": text_hash(json.dumps(task_settings, sort_keys=True) + items_hash),
            "ec": 0, **task_settings, "items_hash": items_hash,
            "skipped_problems": built.skipped,
        }

    def run_id(self, config: RunConfig) -> str:
        # The names runs always had: the same command finds the runs made before the engine.
        digest = text_hash(json.dumps(config["prompt_hash"] + config["model"]))
        return make_run_id((f"wm-{self.options.task}", config["model"], config["dataset"],
                            self.options.rules), digest)

    def before_run(self, pending: list[Sample], executor: Executor | None) -> None:
        pass

    def after_run(self) -> None:
        pass

    async def solve(self, sample: Sample, context: SampleContext) -> WmItem:
        item = sample.data
        record = self.records[item["domain"]]
        solver = _Solver(self, context)
        handler = {"next-state": solver.next_state, "verify": solver.verify,
                   "verify-rollout": solver.verify_rollout, "propose": solver.propose,
                   "plan": solver.plan_task}[item["task"]]
        outcome: WmItem = await handler(item, record, solver.calls)  # answer, format_error, metrics
        outcome["baselines"] = await solver.baselines(item)
        calls = solver.calls
        origin: WmItem = {"origin": item["origin"]} if "origin" in item else {}
        family: WmItem = {"family": record.family} if record.family else {}
        return {"item": item["id"], "task": item["task"], "domain": item["domain"], **family,
                "problem": item["problem"], "rho": item["rho"], "prefix": item["prefix"],
                "plan_length": item["plan_length"], **origin, **outcome,
                "truth": {key: _jsonable(item[key]) for key in TRUTH_KEYS if key in item},
                "usage": {"prompt_tokens": sum(c["prompt_tokens"] for c in calls),
                          "completion_tokens": sum(c["completion_tokens"] for c in calls)},
                "cost": sum(c["cost"] or 0.0 for c in calls),
                "latency": round(sum(c["latency"] for c in calls), 4),
                "calls": calls}

    def summarize(self, config: RunConfig, items: Sequence[ItemRecord],
                  open_errors: Sequence[ErrorRecord]) -> WmSummary:
        from text2world.tasks.wm.intervals import wm_intervals

        records, own = wm_items(items), wm_config(config)
        return {"kind": KIND, "task": own.get("task"), "protocol": protocol_label(config),
                "size": own.get("size"), "mystery": own.get("mystery", False),
                "rules": own.get("rules"),
                "form": own.get("form"), "render": own.get("render"),
                "metrics": summarize_items(own.get("task", ""), records),
                # 95% intervals of the overall means, domains resampled
                "intervals": wm_intervals(own.get("task", ""), records)}

    def headline(self, summary: RunSummary) -> dict[str, float | None]:
        overall = ((wm_summary(summary).get("metrics") or {}).get("all") or {}).get("all") or {}
        return {key: value for key, value in overall.items()
                if isinstance(value, float) or (value is None and key not in ("items",))}

    def finish(self, run: Run, summary: RunSummary) -> RunSummary:
        return summary


class _Solver:
    """The calls and scoring of one item (one epoch)."""

    def __init__(self, task: WmTask, context: SampleContext) -> None:
        self.task = task
        self.options = task.options
        self.context = context
        self.spec = context.spec
        self.calls: list[WmCall] = []

    def examples_text(self, item: dict) -> str:
        """``--examples N``: N solved items of the train split (other domains than the
        item's), the same for every item of a domain."""
        if not self.options.examples:
            return ""
        if item["domain"] not in self.task.examples:
            train = load_dataset(self.options.dataset).split("train")
            chosen = train_examples(train, self.options.examples, self.options.seed,
                                    exclude=[item["domain"]])
            self.task.examples[item["domain"]] = prompts.worked_examples(
                chosen, self.options.rules, self.options.render, self.options.form)
        return self.task.examples[item["domain"]]

    def world(self, item: dict) -> World:
        return world_for(self.task.records[item["domain"]], item["problem"],
                         self.options.planner_timeout)

    async def call(self, item: dict, prompt: str, calls: list, round_index: int,
                   truth: dict) -> str:
        context = None
        if self.spec.is_reference:
            context = {"task": KIND, "item": item, "seed": self.options.seed, **truth}
        messages = prompts.messages(prompt)
        completion = await self.context.complete(messages, round_index, context)
        # Later calls of an item repeat the rules: keep their changing part only.
        shown = {"messages": messages} if not calls else \
            {"prompt_tail": prompt[max(0, prompt.find("## Current state")):]}
        calls.append({"round": round_index, **shown,
                      "response": completion.content, "reasoning": completion.reasoning,
                      "prompt_tokens": completion.prompt_tokens,
                      "completion_tokens": completion.completion_tokens,
                      "cost": completion.cost, "latency": completion.latency,
                      "cached": completion.cached, "attempts": completion.attempts})
        return completion.content

    async def cost_to_go(self, world: World, state: frozenset, action: GroundAction,
                         successor: frozenset) -> float | None:
        """The optimal cost from ``successor`` (``action`` taken in ``state``): known to the
        world, in the shipped answer key, else the planner's answer."""
        known, cost = world.known_cost(successor)
        if not known:
            known, cost = world.keyed_cost(state, action, successor)
        if known:
            return cost
        self.task.stats["planner_calls"] += 1
        result = await asyncio.to_thread(optimal_plan, world.record.domain,
                                         world.cost_problem(successor),
                                         timeout=self.options.planner_timeout,
                                         models=(world.domain, world.simulator.problem),
                                         start=successor)
        return world.record_cost(successor, result)

    async def next_state(self, item: dict, record: Record, calls: list) -> WmItem:
        prompt = self.examples_text(item) + prompts.next_state_prompt(
            item, record, self.options.rules, self.options.render, self.options.form)
        text = await self.call(item, prompt, calls, 0, {"phase": "next-state",
                                                         "form": self.options.form})
        try:
            answer, error = parse_next_state(text, self.options.form), None
        except AnswerError as err:
            answer, error = None, str(err)
        return {"answer": _jsonable(answer), "format_error": error,
                "metrics": score_next_state(item, answer, self.options.form)}

    async def verify(self, item: dict, record: Record, calls: list) -> WmItem:
        prompt = prompts.verify_prompt(item, record, self.options.rules, self.options.render)
        text = await self.call(item, prompt, calls, 0, {"phase": "verify"})
        try:
            answer, error = parse_verify(text), None
        except AnswerError as err:
            answer, error = None, str(err)
        return {"answer": answer, "format_error": error, "metrics": score_verify(item, answer)}

    async def verify_rollout(self, item: dict, record: Record, calls: list) -> WmItem:
        """Yang et al.'s protocol: the model predicts the state after each remaining step from
        its own last prediction (or says the step cannot be applied: the plan fails there),
        then whether the goal holds in its final state."""
        options = self.options
        sim = self.world(item).simulator
        true_state, true_ok = self.world(item).states[item["prefix"]], True
        believed, matches = list(item["state"]), []
        answer: dict[str, Any] | None = None
        error: str | None = None
        for number, step in enumerate(item["plan"], 1):
            truth: dict = {"applicable": False}
            if true_ok:  # the true execution, for the state check and the reference models
                try:
                    action = GroundAction.parse(step)
                    true_ok = sim.is_applicable(true_state, action)
                except (ValueError, SimulationError):
                    true_ok = False
                if true_ok:
                    true_state = sim.successor(true_state, action, check=False)
                    truth = {"applicable": True, "state": atoms(true_state)}
            prompt = prompts.next_state_prompt({**item, "state": believed, "action": step},
                                               record, options.rules, options.render, "full")
            text = await self.call(item, prompt, calls, number - 1,
                                   {"phase": "rollout-step", "truth": truth, "state": believed})
            try:
                predicted = parse_next_state(text, "full")
            except AnswerError as err:
                error = f"step {number}: {err}"
                break
            if not predicted["applicable"]:
                answer = {"reaches_goal": False, "first_failing_step": number}
                break
            if truth["applicable"]:
                matches.append(set(predicted["state"]) == set(_state_set(truth["state"])))
            believed = _jsonable(predicted["state"])
        else:
            text = await self.call(item, prompts.goal_check_prompt(
                item, record, options.rules, options.render, believed), calls,
                len(item["plan"]), {"phase": "rollout-goal", "truth": item["valid"]})
            try:
                answer = {"reaches_goal": parse_goal_check(text), "first_failing_step": None}
            except AnswerError as err:
                error = f"goal check: {err}"
        metrics = {**score_verify(item, answer),
                   "state_accuracy": sum(matches) / len(matches) if matches else None}
        return {"answer": answer, "format_error": error, "metrics": metrics}

    def _distractors(self, item: dict, world: World) -> list[str]:
        """Wrong-looking actions for the noisy reference: other steps of the plan."""
        good = item["plan_action"]
        return [a for a in dict.fromkeys(item["prefix_plan"] + item["remaining_plan"][1:])
                if a != good][:9]

    async def propose(self, item: dict, record: Record, calls: list) -> WmItem:
        """One query for the top K; with ``per_k`` one query per K of ``PROPOSE_KS`` up to
        the K asked, hit@K read from the K-query's answer (the papers' protocol)."""
        assert self.options.k is not None  # resolved by _check
        k = max(PROPOSE_KS) if self.options.k > max(PROPOSE_KS) else self.options.k
        world = self.world(item)
        asks = [q for q in PROPOSE_KS if q <= k] if self.options.per_k else [k]
        answers, per_k, error = {}, {}, None
        for index, asked in enumerate(asks):
            prompt = prompts.propose_prompt(item, record, self.options.rules,
                                            self.options.render, asked)
            truth = {"phase": "propose", "k": asked, "good_action": item["plan_action"]}
            if self.spec.is_reference:
                truth["distractors"] = self._distractors(item, world)
            text = await self.call(item, prompt, calls, index, truth)
            try:
                proposals = parse_actions(text)[:asked]
            except AnswerError as err:
                proposals, error = [], error or f"K={asked}: {err}"
            answers[str(asked)] = proposals
            per_k[str(asked)] = await self.check_proposals(item, world, proposals)
        metrics = {**per_k[str(k)], "k": k}
        if self.options.per_k:
            metrics["per_k"] = per_k
        return {"answer": {"actions": answers[str(k)], **({"per_k": answers}
                                                           if self.options.per_k else {})},
                "format_error": error, "metrics": metrics}

    async def check_proposals(self, item: dict, world: World, proposals: list[str]) -> dict:
        """Check in rank order until the first hit: applicable, and the goal reachable from
        the successor within the optimal remaining cost plus the slack (Fast Downward)."""
        state = world.states[item["prefix"]]
        budget = item["optimal_remaining"] + self.options.slack + 1e-9
        checked, first_hit, first_applicable, unchecked = [], None, None, False
        for rank, text in enumerate(proposals, 1):
            started = time.thread_time()
            try:
                action = GroundAction.parse(text)
                applicable = world.simulator.is_applicable(state, action)
                successor, cost = world.step_cost(state, action) if applicable else (None, 0.0)
            except (ValueError, SimulationError):
                applicable, successor, cost = False, None, 0.0
            self.task.stats["simulator_cpu"] += time.thread_time() - started
            entry = {"action": text, "applicable": applicable}
            if applicable:
                assert successor is not None  # an applicable action has a successor
                first_applicable = first_applicable or rank
                to_go = await self.cost_to_go(world, state, action, successor)
                entry["cost_to_go"] = to_go
                if to_go is None and not world.known_cost(successor)[0]:
                    unchecked = True  # the planner gave no answer in time
                entry["hit"] = to_go is not None and cost + to_go <= budget
                if entry["hit"]:
                    first_hit = rank
                    checked.append(entry)
                    break
            checked.append(entry)
        # the papers' strict hit: the reference plan's own next action
        strict = next((rank for rank, text in enumerate(proposals, 1)
                       if " ".join(text.lower().split()) == item["plan_action"].lower()), None)
        return {"first_hit": first_hit, "first_strict_hit": strict,
                "first_applicable": first_applicable, "proposals": len(proposals),
                "checked": checked, "unchecked": unchecked}

    async def baselines(self, item: dict) -> dict:
        """The trivial strategies' metrics on this item (``baselines.py``)."""
        task = item["task"]
        if task == "next-state":
            return baselines.next_state_baselines(item, self.options.form)
        if task in ("verify", "verify-rollout"):
            return baselines.verify_baselines(item)
        world = self.world(item)
        if task == "propose":
            assert self.options.k is not None  # resolved by _check
            k = min(self.options.k, max(PROPOSE_KS))
            return await baselines.propose_baselines(item, world, k, self.check_proposals)
        return {"random-walk": baselines.random_walk_baseline(item, world)}

    async def plan_task(self, item: dict, record: Record, calls: list) -> WmItem:
        options = self.options
        assert options.k is not None  # resolved by _check
        world = self.world(item)
        sim = world.simulator
        true_state = world.states[item["prefix"]]
        believed = list(item["state"])
        history: list[str] = []
        remaining = item["remaining_plan"]
        matches: list[bool] = []
        cost, failed_step, error, declared_done, stop = 0.0, None, None, False, "step limit"
        for step in range(item["step_limit"]):
            truth: dict = {"step": step, "state": believed}
            if self.spec.is_reference:
                truth["truth"] = self._plan_truth(world, true_state, history, remaining)
            candidates = None
            try:
                if options.k > 1:
                    text = await self.call(item, prompts.propose_prompt(
                        {**item, "state": believed, "prefix_plan": history}, record,
                        options.rules, options.render,
                        options.k), calls, 2 * step, {**truth, "phase": "plan-propose"})
                    if parse_plan_step_done(text):
                        declared_done, stop = True, "declared done"
                        break
                    candidates = parse_actions(text)[:options.k]
                text = await self.call(item, prompts.plan_step_prompt(
                    item, record, options.rules, options.render, believed, history, candidates),
                    calls, 2 * step + 1, {**truth, "phase": "plan-choose" if candidates
                                          is not None else "plan-step"})
                answer = parse_plan_step(text)
            except AnswerError as err:
                error, stop = f"step {step + 1}: {err}", "format error"
                break
            if answer["done"]:
                declared_done, stop = True, "declared done"
                break
            started = time.thread_time()
            try:
                action = GroundAction.parse(answer["action"])
                applicable = sim.is_applicable(true_state, action)
                if applicable:
                    true_state, step_cost = world.step_cost(true_state, action)
            except (ValueError, SimulationError):
                applicable = False
            self.task.stats["simulator_cpu"] += time.thread_time() - started
            history.append(answer["action"])
            if not applicable:
                # the executed plan fails here whatever comes next: stop asking
                failed_step, stop = len(history), "inapplicable action"
                break
            cost += step_cost
            predicted = answer["next_state"]
            matches.append(predicted is not None and set(predicted) == set(true_state))
            believed = (_jsonable(set(predicted)) if predicted is not None else believed)
        success = failed_step is None and sim.goal_reached(true_state)
        optimal = item["optimal_remaining"]
        return {"answer": {"plan": history}, "format_error": error, "metrics": {
            "success": success, "declared_done": declared_done, "steps": len(history),
            "failed_step": failed_step, "stop": stop, "cost": cost,
            "cost_ratio": (cost / optimal) if success and optimal else None,
            "state_accuracy": (sum(matches) / len(matches)) if matches else None}}

    @staticmethod
    def _plan_truth(world: World, state: frozenset, history: list[str],
                    remaining: list[str]) -> dict | None:
        """The reference models' next step while the model follows the optimal plan."""
        if history != remaining[:len(history)]:
            return None
        if len(history) == len(remaining):
            return {"done": True}
        action = GroundAction.parse(remaining[len(history)])
        return {"action": remaining[len(history)],
                "next_state": atoms(world.simulator.successor(state, action))}



# --------------------------------------------------------------------------------------------
# The entry points ``t2w wm`` and the library use


class WmPlan(TaskPlan):
    """A planned world-model run (``plan``)."""

    task: WmTask

    @property
    def built(self) -> BuildResult:
        assert self.task.built is not None
        return self.task.built


def plan(options: WmOptions) -> WmPlan:
    """Check everything, then build the items, before any call is made."""
    return plan_task(WmTask(options), WmError, WmPlan)


def run_wm(options: WmOptions, observer=None, wm_plan: WmPlan | None = None) -> RunResult:
    """Run (or resume) a world-model task; returns the run and its summary (``result.stats``:
    the simulator's CPU seconds in this process and the planner calls)."""
    wm_plan = wm_plan or plan(options)
    result = execute(wm_plan.prepared, observer)
    result.stats = dict(wm_plan.task.stats)
    return result


def options_from_run(path: Path, runs_root: Path | None = None, **overrides: Any) -> WmOptions:
    """The options a world-model run was made with (for ``--resume``)."""
    return resume_options(WmOptions, KIND, "t2w wm", path, runs_root, **overrides)


def default_task() -> WmTask:
    """The task with default options (``tasks.registry.task_for_kind``)."""
    return WmTask(WmOptions())


def task_from_run(run: Run) -> WmTask:
    return WmTask(WmOptions.from_config(run.config, run.path))


WmResult = RunResult
