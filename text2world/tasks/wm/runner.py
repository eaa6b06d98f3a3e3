"""The run loop of the world-model tasks: build the items, ask the model, score the answers with
the simulator and the planner, log each item to the run store (``runs.py``: append-only
``log.jsonl``, resume, infrastructure errors kept apart).

Same model layer as ``t2w eval``: ``resolve_model``, ``LLMClient`` with its response cache and
retries; reference models get each call's truth in their reference context.
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from text2world.model.client import (FatalModelError, InfrastructureError, LLMClient, ModelConfigError,
                            ModelSpec, ResponseCache, RetryPolicy, RunSettings, api_key_for,
                            resolve_model)
from text2world.engine.run_store import Run, code_version, runs_dir, text_hash, utc_now
from text2world.simulation import GroundAction, SimulationError
from text2world.store.datasets import BUILTIN, Dataset, DatasetError, Record, first, load_dataset
from text2world.tasks.wm import prompts
from text2world.tasks.wm.items import (OFF_PLAN_SHARE, RHOS, TASKS, BuildResult, ItemError, atoms,
                                  build_items)
from text2world.tasks.wm.metrics import (PROPOSE_KS, score_next_state, score_verify,
                                   summarize_items)
from text2world.tasks.wm.parse import (AnswerError, parse_actions, parse_atom, parse_next_state,
                                 parse_plan_step, parse_plan_step_done, parse_verify)
from text2world.tasks.wm.planner import optimal_plan
from text2world.tasks.wm.world import World, world_for

KIND = "wm"


TRUTH_KEYS = ("action", "applicable", "next_state", "added", "removed", "valid",
              "first_failing_step", "reason", "mutation", "plan_action", "remaining_plan")


class WmError(ValueError):
    """Bad input to a world-model run: a clear message."""


@dataclass
class WmOptions(RunSettings):
    """``t2w wm TASK``: the shared run settings plus the tasks' own."""

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
    runs_root: Path | None = None


@dataclass
class WmPlan:
    options: WmOptions
    spec: ModelSpec
    api_key: str | None
    dataset: Dataset
    records: dict[str, Record]
    built: BuildResult
    config: dict
    run_path: Path


@dataclass
class WmResult:
    run: Run
    summary: dict
    resumed: bool
    new_items: int
    failed_items: int
    wall_time: float
    simulator_cpu: float = 0.0  # CPU seconds of simulator work in this process
    planner_calls: int = 0


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
    if options.max_concurrency < 1:
        raise WmError("--max-concurrency must be at least 1")


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


def plan(options: WmOptions) -> WmPlan:
    """Check everything, then build the items, before any call is made."""
    _check(options)
    try:
        spec = resolve_model(options.model, options.api_base, options.model_args)
        api_key = api_key_for(spec)
    except ModelConfigError as err:
        raise WmError(str(err)) from None
    dataset, records, built = build(options)
    if not built.items:
        raise WmError("no item could be built from the selected problems: "
                      + "; ".join(built.skipped[:3]))
    settings = LLMClient(spec, temperature=options.temperature, max_tokens=options.max_tokens,
                         api_key=api_key or "").settings
    task_settings = {"task": options.task, "rules": options.rules, "render": options.render,
                     "form": options.form, "rhos": list(options.rhos), "k": options.k,
                     "slack": options.slack, "illegal_share": options.illegal_share,
                     "problems_per_domain": options.problems_per_domain}
    if options.task == "next-state":  # only its items depend on it (other runs keep their ids)
        task_settings["off_plan_share"] = options.off_plan_share
    items_hash = text_hash(json.dumps(built.items, sort_keys=True))
    config = {
        "kind": KIND, "model": spec.name, "litellm_model": spec.litellm_model,
        "api_base": spec.api_base, "api_key_env": spec.api_key_env,
        "model_spec": spec.to_config(), "reference_model": spec.is_reference,
        "dataset": dataset.name, "dataset_source": dataset.source,
        "dataset_hash": dataset.content_hash, "split": options.split,
        # run identity (runs.IDENTITY_KEYS): the rules are the "description", the task and
        # its settings the "prompt"
        "description": options.rules, "prompt": f"wm-{options.task}",
        "prompt_hash": text_hash(json.dumps(task_settings, sort_keys=True) + items_hash),
        "ec": 0, "generation": settings, "seed": options.seed,
        **task_settings, "items_hash": items_hash,
        "timeout": options.timeout, "max_retries": options.max_retries,
        "selection": {"limit": options.limit, "domains": options.domains},
        "planned_items": len(built.items), "skipped_problems": built.skipped,
        "code_version": code_version(),
    }
    if options.resume is not None:
        run_path = Path(options.resume)
    else:
        slug = re.sub(r"[^A-Za-z0-9.]+", "-", spec.name).strip("-")
        name = (f"wm-{options.task}__{slug}__{dataset.name}__{options.rules}__"
                f"{text_hash(json.dumps(config['prompt_hash'] + config['model']))[:8]}")
        run_path = (options.runs_root or runs_dir()) / (options.run_id or name[:180])
    return WmPlan(options, spec, api_key, dataset, {r.id: r for r in records}, built, config,
                  run_path)


def options_from_run(path: Path, **overrides: Any) -> WmOptions:
    """The options a world-model run was started with (for ``--resume``)."""
    config = Run.open(path).config
    if config.get("kind") != KIND:
        raise WmError(f"{path} is not a world-model run (t2w eval runs resume with t2w eval)")
    generation = dict(config.get("generation") or {})
    selection = config.get("selection") or {}
    options = WmOptions(
        model=config["model"], dataset=config.get("dataset", BUILTIN),
        split=config.get("split", "test"), limit=selection.get("limit"),
        domains=selection.get("domains"), api_base=config.get("api_base"),
        temperature=generation.pop("temperature", None),
        max_tokens=generation.pop("max_tokens", None),
        model_args={k: v for k, v in generation.items()
                    if k not in ((config.get("model_spec") or {}).get("params") or {})},
        seed=int(config.get("seed", 0)), task=config["task"], rules=config["rules"],
        render=config["render"], form=config["form"], rhos=tuple(config["rhos"]),
        k=int(config["k"]), slack=float(config["slack"]),
        illegal_share=float(config["illegal_share"]),
        # runs from before off-plan items had none
        off_plan_share=float(config.get("off_plan_share", 0.0)),
        problems_per_domain=config.get("problems_per_domain"),
        timeout=float(config.get("timeout", 600.0)),
        max_retries=int(config.get("max_retries", 5)), resume=Path(path))
    return options.with_overrides(**overrides)


def _state_set(values) -> frozenset:
    return frozenset(a for a in (parse_atom(v) for v in values) if a is not None)


def _jsonable(value):
    if isinstance(value, (set, frozenset)):
        return sorted("(" + " ".join(a) + ")" for a in value)
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    return value


class _Runner:
    def __init__(self, wm_plan: WmPlan, run: Run, client: LLMClient) -> None:
        self.plan = wm_plan
        self.options = wm_plan.options
        self.run = run
        self.client = client
        self.new_items = 0
        self.failed_items = 0
        self.fatal: FatalModelError | None = None
        self.sim_cpu = 0.0
        self.planner_calls = 0
        self.finished: dict[str, dict] = {str(r["item"]): r for r in run.items()}

    def world(self, item: dict) -> World:
        return world_for(self.plan.records[item["domain"]], item["problem"],
                         self.options.planner_timeout)

    async def call(self, item: dict, prompt: str, calls: list, round_index: int,
                   truth: dict) -> str:
        context = None
        if self.plan.spec.is_reference:
            context = {"task": KIND, "item": item, "seed": self.options.seed, **truth}
        messages = prompts.messages(prompt)
        completion = await self.client.complete(messages, round_index, context)
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
        self.planner_calls += 1
        result = await asyncio.to_thread(optimal_plan, world.record.domain,
                                         world.cost_problem(state),
                                         timeout=self.options.planner_timeout)
        return world.record_cost(state, result)

    # ---- the tasks

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
        if self.plan.spec.is_reference:
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
            self.sim_cpu += time.thread_time() - started
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
            if self.plan.spec.is_reference:
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
            self.sim_cpu += time.thread_time() - started
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

    # ---- the loop

    async def run_item(self, item: dict) -> dict:
        record = self.plan.records[item["domain"]]
        calls: list[dict] = []
        handler = {"next-state": self.next_state, "verify": self.verify,
                   "propose": self.propose, "plan": self.plan_task}[item["task"]]
        outcome = await handler(item, record, calls)
        return {"item": item["id"], "task": item["task"], "domain": item["domain"],
                "problem": item["problem"], "rho": item["rho"], "prefix": item["prefix"],
                "plan_length": item["plan_length"],
                **({"origin": item["origin"]} if "origin" in item else {}), **outcome,
                # what the answer is judged against, for reports and the viewer's item page
                "truth": {key: _jsonable(item[key]) for key in TRUTH_KEYS if key in item},
                "usage": {"prompt_tokens": sum(c["prompt_tokens"] for c in calls),
                          "completion_tokens": sum(c["completion_tokens"] for c in calls)},
                "cost": sum(c["cost"] or 0.0 for c in calls),
                "latency": round(sum(c["latency"] for c in calls), 4),
                "finished": utc_now(), "calls": calls}

    async def worker(self, queue: asyncio.Queue, observer) -> None:
        while True:
            try:
                item = queue.get_nowait()
            except asyncio.QueueEmpty:
                return
            try:
                record = await self.run_item(item)
            except InfrastructureError as error:
                self.failed_items += 1
                self.run.append_error({"item": item["id"], "error": error.to_dict(),
                                       "at": utc_now()})
                if observer:
                    observer(None)
                continue
            except FatalModelError as error:
                self.fatal = error
                raise
            self.run.append_item(record)
            self.finished[item["id"]] = record
            self.new_items += 1
            if observer:
                observer(record)


def summarize_run(config: dict, items: list[dict], open_errors: list[dict]) -> dict:
    from text2world.reports.intervals import wm_intervals

    return {"kind": KIND, "run_id": config.get("run_id"), "model": config.get("model"),
            "task": config.get("task"), "rules": config.get("rules"),
            "form": config.get("form"), "render": config.get("render"),
            "dataset": config.get("dataset"), "planned_items": config.get("planned_items"),
            "finished_items": len(items), "infrastructure_errors": len(open_errors),
            "calls": sum(len(i.get("calls", [])) for i in items),
            "cached_calls": sum(1 for i in items for c in i.get("calls", []) if c.get("cached")),
            "prompt_tokens": sum(i.get("usage", {}).get("prompt_tokens", 0) for i in items),
            "completion_tokens": sum(i.get("usage", {}).get("completion_tokens", 0)
                                     for i in items),
            "cost": sum(i.get("cost") or 0.0 for i in items),
            "metrics": summarize_items(config.get("task", ""), items),
            # 95% intervals of the overall means, domains resampled
            "intervals": wm_intervals(str(config.get("task", "")), items),
            "updated": utc_now()}


def run_wm(options: WmOptions, observer=None, wm_plan: WmPlan | None = None) -> WmResult:
    """Run (or resume) a world-model task; returns the run and its summary.

    Raises WmError for bad input, RunError for an unusable run directory and FatalModelError
    when the model cannot be called at all.
    """
    started = time.monotonic()
    wm_plan = wm_plan or plan(options)
    options = wm_plan.options
    run, resumed = Run.create_or_resume(wm_plan.run_path, wm_plan.config)
    run.lock()
    try:
        finished = run.finished_ids()
        pending = [i for i in wm_plan.built.items if i["id"] not in finished]
        client = LLMClient(wm_plan.spec, temperature=options.temperature,
                           max_tokens=options.max_tokens, timeout=options.timeout,
                           retry=RetryPolicy(options.max_retries, options.retry_base_delay),
                           cache=ResponseCache(), read_cache=options.use_cache,
                           api_key=wm_plan.api_key or "")
        runner = _Runner(wm_plan, run, client)

        async def main() -> None:
            queue: asyncio.Queue = asyncio.Queue()
            for item in pending:
                queue.put_nowait(item)
            workers = [asyncio.create_task(runner.worker(queue, observer))
                       for _ in range(min(options.max_concurrency, len(pending)) or 1)]
            try:
                await asyncio.gather(*workers)
            except FatalModelError:
                pass
            finally:
                for task in workers:
                    task.cancel()
                await asyncio.gather(*workers, return_exceptions=True)

        try:
            asyncio.run(main())
        finally:
            summary = summarize_run(run.config, run.items(), run.open_errors())
            summary["planned_items"] = len(wm_plan.built.items)
            run.write_summary(summary)
        if runner.fatal is not None:
            raise runner.fatal
        return WmResult(run, summary, resumed, runner.new_items, runner.failed_items,
                        time.monotonic() - started, runner.sim_cpu, runner.planner_calls)
    finally:
        run.close()
