"""The world-model tasks (next-state, verify, propose, plan) as tasks of the engine: build the
items, ask the model, score the answers with the simulator and the planner; the engine logs
each item to the run store (resume, paid ledger, infrastructure errors kept apart, epochs).

Reference models get each call's truth in their reference context.
"""

from __future__ import annotations

import asyncio
import json
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from text2world.engine.options import RunOptions
from text2world.engine.run_store import Run, make_run_id, text_hash
from text2world.engine.runner import Prepared, RunResult, execute, open_for_resume, prepare
from text2world.engine.task import Sample, SampleContext
from text2world.errors import Text2WorldError
from text2world.model.client import ModelConfigError, ModelSpec
from text2world.simulation import GroundAction, SimulationError
from text2world.store.datasets import BUILTIN, Dataset, DatasetError, Record, first, load_dataset
from text2world.tasks.wm import prompts
from text2world.tasks.wm.items import (OFF_PLAN_SHARE, RHOS, TASKS, BuildResult, ItemError, atoms,
                                       build_items)
from text2world.tasks.wm.metrics import (PROPOSE_KS, score_next_state, score_verify,
                                         summarize_items)
from text2world.tasks.wm.parse import (AnswerError, parse_actions, parse_next_state,
                                       parse_plan_step, parse_plan_step_done, parse_verify)
from text2world.tasks.wm.planner import optimal_plan
from text2world.tasks.wm.world import World, world_for

KIND = "wm"


class WmError(Text2WorldError, ValueError):
    """Bad input to a world-model run: a clear message."""


@dataclass
class WmOptions(RunOptions):
    """``t2w wm TASK``: the shared run options plus the tasks' own."""

    dataset: str = BUILTIN
    task: str = "next-state"
    rules: str = "pddl"  # pddl, concrete, abstract, none
    render: str = "atoms"  # atoms, text
    form: str = "full"  # next-state: full state or diff
    rhos: tuple[float, ...] = RHOS
    k: int | None = None  # propose: actions asked for (10); plan: candidates per step (1: the
    # model's own proposal; K > 1: it proposes K, then checks them and picks one)
    slack: float = 1.0  # propose: extra cost allowed over the optimum
    illegal_share: float = 0.25
    off_plan_share: float = OFF_PLAN_SHARE  # next-state: share of states off the plan
    problems_per_domain: int | None = None
    planner_timeout: float = 20.0

    FIELDS: ClassVar[dict] = {
        "task": ("task", str), "rules": ("rules", str), "render": ("render", str),
        "form": ("form", str), "rhos": ("rhos", tuple), "k": ("k", int),
        "slack": ("slack", float), "illegal_share": ("illegal_share", float),
        "problems_per_domain": ("problems_per_domain", lambda value: value),
        # runs from before off-plan items had none
        "off_plan_share": ("off_plan_share", float)}

    @classmethod
    def from_config(cls, config: dict, path: Path):
        options = super().from_config(config, path)
        if "off_plan_share" not in config:
            options.off_plan_share = 0.0
        return options


def _check(options: WmOptions) -> None:
    if options.task not in TASKS:
        raise WmError(f"unknown task {options.task!r}; choose one of {', '.join(TASKS)}")
    for name, value, allowed in (("rules", options.rules, prompts.RULES),
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
        return dataset, first(records, options.limit)
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
                            problems_per_domain=options.problems_per_domain,
                            planner_timeout=options.planner_timeout)
    except ItemError as err:
        raise WmError(str(err)) from None
    return dataset, records, built


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

    @property
    def command(self) -> str:
        return f"t2w wm {self.options.task}"

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

    def configure(self, spec: ModelSpec, generation: dict) -> dict:
        options, dataset, built = self.options, self.dataset, self.built
        assert dataset is not None and built is not None
        task_settings = {"task": options.task, "rules": options.rules, "render": options.render,
                         "form": options.form, "rhos": list(options.rhos), "k": options.k,
                         "slack": options.slack, "illegal_share": options.illegal_share,
                         "problems_per_domain": options.problems_per_domain}
        if options.task == "next-state":  # only its items depend on it (other runs keep ids)
            task_settings["off_plan_share"] = options.off_plan_share
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

    def run_id(self, config: dict) -> str:
        # The names runs always had: the same command finds the runs made before the engine.
        digest = text_hash(json.dumps(config["prompt_hash"] + config["model"]))
        return make_run_id((f"wm-{self.options.task}", config["model"], config["dataset"],
                            self.options.rules), digest)

    def before_run(self, pending: list[Sample], executor: Executor | None) -> None:
        pass

    def after_run(self) -> None:
        pass

    async def solve(self, sample: Sample, context: SampleContext) -> dict:
        item = sample.data
        record = self.records[item["domain"]]
        solver = _Solver(self, context)
        handler = {"next-state": solver.next_state, "verify": solver.verify,
                   "propose": solver.propose, "plan": solver.plan_task}[item["task"]]
        outcome = await handler(item, record, solver.calls)
        calls = solver.calls
        return {"item": item["id"], "task": item["task"], "domain": item["domain"],
                "problem": item["problem"], "rho": item["rho"], "prefix": item["prefix"],
                "plan_length": item["plan_length"],
                **({"origin": item["origin"]} if "origin" in item else {}), **outcome,
                "usage": {"prompt_tokens": sum(c["prompt_tokens"] for c in calls),
                          "completion_tokens": sum(c["completion_tokens"] for c in calls)},
                "cost": sum(c["cost"] or 0.0 for c in calls),
                "latency": round(sum(c["latency"] for c in calls), 4),
                "calls": calls}

    def summarize(self, config: dict, items: list[dict], open_errors: list[dict]) -> dict:
        return {"kind": KIND, "task": config.get("task"), "rules": config.get("rules"),
                "form": config.get("form"), "render": config.get("render"),
                "metrics": summarize_items(config.get("task", ""), items)}

    def headline(self, summary: dict) -> dict[str, float | None]:
        overall = ((summary.get("metrics") or {}).get("all") or {}).get("all") or {}
        return {key: value for key, value in overall.items()
                if isinstance(value, float) or (value is None and key not in ("items",))}

    def finish(self, run: Run, summary: dict) -> dict:
        return summary


class _Solver:
    """The calls and scoring of one item (one epoch)."""

    def __init__(self, task: WmTask, context: SampleContext) -> None:
        self.task = task
        self.options = task.options
        self.context = context
        self.spec = context.spec
        self.calls: list[dict] = []

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

    async def cost_to_go(self, world: World, state: frozenset) -> float | None:
        known, cost = world.known_cost(state)
        if known:
            return cost
        self.task.stats["planner_calls"] += 1
        result = await asyncio.to_thread(optimal_plan, world.record.domain,
                                         world.cost_problem(state),
                                         timeout=self.options.planner_timeout,
                                         models=(world.domain, world.simulator.problem),
                                         start=state)
        return world.record_cost(state, result)

    async def next_state(self, item: dict, record: Record, calls: list) -> dict:
        prompt = prompts.next_state_prompt(item, record, self.options.rules,
                                           self.options.render, self.options.form)
        text = await self.call(item, prompt, calls, 0, {"phase": "next-state",
                                                         "form": self.options.form})
        try:
            answer, error = parse_next_state(text, self.options.form), None
        except AnswerError as err:
            answer, error = None, str(err)
        return {"answer": _jsonable(answer), "format_error": error,
                "metrics": score_next_state(item, answer, self.options.form)}

    async def verify(self, item: dict, record: Record, calls: list) -> dict:
        prompt = prompts.verify_prompt(item, record, self.options.rules, self.options.render)
        text = await self.call(item, prompt, calls, 0, {"phase": "verify"})
        try:
            answer, error = parse_verify(text), None
        except AnswerError as err:
            answer, error = None, str(err)
        return {"answer": answer, "format_error": error, "metrics": score_verify(item, answer)}

    def _distractors(self, item: dict, world: World) -> list[str]:
        """Wrong-looking actions for the noisy reference: other steps of the plan."""
        good = item["plan_action"]
        return [a for a in dict.fromkeys(item["prefix_plan"] + item["remaining_plan"][1:])
                if a != good][:9]

    async def propose(self, item: dict, record: Record, calls: list) -> dict:
        k = max(PROPOSE_KS) if self.options.k > max(PROPOSE_KS) else self.options.k
        world = self.world(item)
        prompt = prompts.propose_prompt(item, record, self.options.rules, self.options.render, k)
        truth = {"phase": "propose", "k": k, "good_action": item["plan_action"]}
        if self.spec.is_reference:
            truth["distractors"] = self._distractors(item, world)
        text = await self.call(item, prompt, calls, 0, truth)
        try:
            proposals, error = parse_actions(text)[:k], None
        except AnswerError as err:
            proposals, error = [], str(err)
        metrics = await self.check_proposals(item, world, proposals)
        return {"answer": {"actions": proposals}, "format_error": error, "metrics": metrics}

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
                first_applicable = first_applicable or rank
                to_go = await self.cost_to_go(world, successor)
                entry["cost_to_go"] = to_go
                if to_go is None and not world.known_cost(successor)[0]:
                    unchecked = True  # the planner gave no answer in time
                entry["hit"] = to_go is not None and cost + to_go <= budget
                if entry["hit"]:
                    first_hit = rank
                    checked.append(entry)
                    break
            checked.append(entry)
        return {"first_hit": first_hit, "first_applicable": first_applicable,
                "proposals": len(proposals), "checked": checked, "unchecked": unchecked}

    async def plan_task(self, item: dict, record: Record, calls: list) -> dict:
        options = self.options
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
                        {**item, "state": believed}, record, options.rules, options.render,
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


@dataclass
class WmPlan:
    """A planned world-model run (``plan``)."""

    task: WmTask
    prepared: Prepared

    @property
    def options(self) -> WmOptions:
        return self.task.options

    @property
    def spec(self) -> ModelSpec:
        return self.prepared.spec

    @property
    def built(self) -> BuildResult:
        assert self.task.built is not None
        return self.task.built

    @property
    def config(self) -> dict:
        return self.prepared.config

    @property
    def run_path(self) -> Path:
        return self.prepared.run_path


def plan(options: WmOptions) -> WmPlan:
    """Check everything, then build the items, before any call is made."""
    task = WmTask(options)
    try:
        return WmPlan(task, prepare(task))
    except ModelConfigError as err:
        raise WmError(str(err)) from None


def run_wm(options: WmOptions, observer=None, wm_plan: WmPlan | None = None) -> RunResult:
    """Run (or resume) a world-model task; returns the run and its summary (``result.stats``:
    the simulator's CPU seconds in this process and the planner calls)."""
    wm_plan = wm_plan or plan(options)
    result = execute(wm_plan.prepared, observer)
    result.stats = dict(wm_plan.task.stats)
    return result


def options_from_run(path: Path, runs_root: Path | None = None, **overrides: Any) -> WmOptions:
    """The options a world-model run was made with (for ``--resume``)."""
    run = open_for_resume(path, KIND, "t2w wm", runs_root)
    options = WmOptions.from_config(run.config, run.path)
    options.runs_root = runs_root
    return options.with_overrides(**overrides)


def task_from_run(run: Run) -> WmTask:
    return WmTask(WmOptions.from_config(run.config, run.path))


WmResult = RunResult
