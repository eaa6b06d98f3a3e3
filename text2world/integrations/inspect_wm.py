"""The Inspect tasks of the world-model benchmark: ``text2world/next_state``, ``verify``,
``propose`` and ``plan`` (``t2w wm TASK`` as Inspect tasks).

    inspect eval text2world/verify --model openai/gpt-4o -T rules=concrete -T domains=blocksworld

Samples are ``t2w wm``'s items (``wm.items.build_items``: the same seed, rhos and shares give the
same items). The solver is ``t2w wm``'s own item loop (``wm.runner._Runner``) with its model
call made through Inspect's model, so prompts (``wm.prompts``), answer parsing (``wm.parse``),
simulator and planner checks and per-item metrics (``wm.metrics``) are the ones ``t2w wm``
uses. The score's value holds each metric of ``wm.metrics.aggregate`` as one number per item
(NaN where the item does not count, as ``aggregate`` leaves it out), so Inspect's means are
``t2w wm``'s overall figures; the metadata holds the item's whole log record.
"""

from __future__ import annotations

import math
import time
from types import SimpleNamespace
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig, get_model
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver

from text2world.integrations.inspect_generation import ITEM_KEY, chat_messages
from text2world.integrations.inspect_reference import reference_config
from text2world.store import BUILTIN
from text2world.wm import prompts
from text2world.wm.items import RHOS
from text2world.wm.metrics import PROPOSE_KS
from text2world.wm.runner import KIND, WmError, WmOptions, _Runner, build, call_record

RECORD_KEY = "t2w_wm_record"  # the item's log record, in the sample's store
CONFIG_KEY = "text2world_wm"  # the run's settings, in the task's metadata


class InspectRunner(_Runner):
    """``t2w wm``'s item loop for one sample, its calls made through Inspect's model."""

    def __init__(self, options: WmOptions, records: dict, model_name: str) -> None:
        # The run store and the litellm client of _Runner are not used here.
        self.plan = SimpleNamespace(records=records, spec=SimpleNamespace(  # type: ignore[assignment]
            is_reference=bool(reference_config(model_name, {}, 0))))
        self.options = options
        self.model_name = model_name
        self.new_items = self.failed_items = self.planner_calls = 0
        self.fatal = None
        self.sim_cpu = 0.0
        self.finished: dict[str, dict] = {}
        self.last_messages: list = []

    async def call(self, item: dict, prompt: str, calls: list, round_index: int,
                   truth: dict) -> str:
        context = {"task": KIND, "item": item, "seed": self.options.seed, **truth}
        messages = chat_messages(prompts.messages(prompt))
        started = time.monotonic()
        output = await get_model().generate(messages, config=GenerateConfig(
            **reference_config(self.model_name, context, round_index)))
        usage = output.usage
        calls.append(call_record(
            calls, round_index, prompt, output.completion,
            prompt_tokens=usage.input_tokens if usage else 0,
            completion_tokens=usage.output_tokens if usage else 0,
            cost=usage.total_cost if usage else None,
            latency=round(output.time if output.time is not None
                          else time.monotonic() - started, 4)))
        self.last_messages = [*messages, output.message]
        self.last_output = output
        return output.completion


@solver
def world_model_item(options: WmOptions, records: dict):
    """Ask the model as ``t2w wm`` does and score the answer with the simulator and planner."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        runner = InspectRunner(options, records, str(state.model))
        record = await runner.run_item(state.metadata["item"])
        state.store.set(RECORD_KEY, record)
        state.messages = runner.last_messages
        state.output = runner.last_output
        return state

    return solve


def _number(value: Any) -> float:
    return math.nan if value is None else float(value)


def item_value(task_name: str, record: dict) -> dict[str, float]:
    """One item's share of each overall metric of ``wm.metrics.aggregate`` (NaN: not counted)."""
    m = record["metrics"]
    nan = math.nan
    value = {"format_error": 1.0 if record.get("format_error") else 0.0}
    if task_name == "next-state":
        legal = m["kind"] == "legal"
        value.update(accuracy=float(m["correct"]),
                     exact_legal=float(m["exact"]) if legal else nan,
                     illegal_share=0.0 if legal else 1.0,
                     illegal_accuracy=nan if legal else float(m["correct"]))
        for part in ("state", "dynamic", "static"):
            for key in ("precision", "recall", "f1"):
                value[f"{part}_{key}"] = float(m[part][key]) if legal else nan
    elif task_name == "verify":
        positive = m["positive"]
        value.update(accuracy=float(m["correct"]),
                     false_positive_rate=nan if positive else float(m["predicted"] is True),
                     false_negative_rate=float(m["predicted"] is not True) if positive else nan,
                     step_accuracy=nan if positive else _number(m["step_correct"]))
    elif task_name == "propose":
        for k in PROPOSE_KS:
            value[f"hit_at_{k}"] = float(m["first_hit"] is not None and m["first_hit"] <= k)
        value["applicable_at_1"] = float(m["first_applicable"] == 1)
    else:
        value.update(success=float(m["success"]), declared_done=float(m["declared_done"]),
                     state_accuracy=_number(m["state_accuracy"]), mean_steps=float(m["steps"]),
                     cost_ratio=_number(m["cost_ratio"]) if m["success"] else nan)
    return value


@scorer(metrics={"*": [mean()]})
def world_model_scorer(task_name: str):
    """The item's metrics (already computed by the solver, as ``t2w wm`` computes them)."""

    async def score(state: TaskState, target: Target) -> Score:
        record = state.store.get(RECORD_KEY)
        if record is None:
            return Score(value=math.nan, explanation="the solver did not finish the item")
        return Score(value=item_value(task_name, record), answer=str(record.get("answer")),
                     explanation=record.get("format_error") or "", metadata={ITEM_KEY: record})

    return score


def _first_prompt(options: WmOptions, item: dict, record) -> str:
    if item["task"] == "next-state":
        return prompts.next_state_prompt(item, record, options.rules, options.render, options.form)
    if item["task"] == "verify":
        return prompts.verify_prompt(item, record, options.rules, options.render)
    k = options.k or 1  # set by build() (wm.runner._check)
    if item["task"] == "propose" or k > 1:
        return prompts.propose_prompt(item, record, options.rules, options.render, k)
    return prompts.plan_step_prompt(item, record, options.rules, options.render,
                                    list(item["state"]), [], None)


def _rhos(value: str | float | list) -> tuple[float, ...]:
    if isinstance(value, (int, float)):
        return (float(value),)
    if isinstance(value, str):
        try:
            return tuple(float(part) for part in value.split(",") if part.strip())
        except ValueError:
            raise ValueError(f"rhos must be numbers separated by commas, not {value!r}") from None
    return tuple(float(v) for v in value)


def world_model_task(task_name: str, *, rules: str = "pddl", render: str = "atoms",
                     form: str = "full", rhos: Any = RHOS, k: int | None = None,
                     slack: float = 1.0, illegal_share: float = 0.25,
                     problems_per_domain: int | None = None, planner_timeout: float = 20.0,
                     seed: int = 0, dataset: str = BUILTIN, split: str = "test",
                     domains: str | None = None) -> Task:
    """The task ``task_name`` over ``t2w wm``'s items for these settings (its options)."""
    options = WmOptions(model="inspect", dataset=dataset, split=split,
                        domains=[d.strip() for d in domains.split(",") if d.strip()]
                        if domains else None, seed=seed, task=task_name, rules=rules,
                        render=render, form=form, rhos=_rhos(rhos), k=k, slack=slack,
                        illegal_share=illegal_share, problems_per_domain=problems_per_domain,
                        planner_timeout=planner_timeout)
    try:
        data, records, built = build(options)
    except WmError as err:
        raise ValueError(str(err)) from None
    if not built.items:
        raise ValueError("no item could be built from the selected problems: "
                         + "; ".join(built.skipped[:3]))
    by_id = {r.id: r for r in records}
    samples = [Sample(id=item["id"], input=_first_prompt(options, item, by_id[item["domain"]]),
                      metadata={"item": item, "domain": item["domain"], "rho": item["rho"]})
               for item in built.items]
    config = {"kind": KIND, "task": task_name, "dataset": data.name,
              "dataset_source": data.source, "dataset_hash": data.content_hash, "split": split,
              "rules": rules, "render": render, "form": form, "rhos": list(options.rhos),
              "k": options.k, "slack": slack, "illegal_share": illegal_share,
              "off_plan_share": options.off_plan_share,
              "problems_per_domain": problems_per_domain, "seed": seed,
              "planned_items": len(built.items), "skipped_problems": built.skipped,
              "selection": {"limit": None, "domains": options.domains}}
    return Task(dataset=MemoryDataset(samples, name=data.name),
                solver=world_model_item(options, by_id), scorer=world_model_scorer(task_name),
                config=GenerateConfig(temperature=0.0), metadata={CONFIG_KEY: config}, version=1)


_RHOS = ",".join(f"{r:g}" for r in RHOS)


# Each task passes its own arguments (its locals, read first thing) through.


@task
def next_state(rules: str = "pddl", render: str = "atoms", form: str = "full", rhos: str = _RHOS,
               illegal_share: float = 0.25, problems_per_domain: int | None = None,
               planner_timeout: float = 20.0, seed: int = 0, dataset: str = BUILTIN,
               split: str = "test", domains: str | None = None) -> Task:
    """Predict the state after an action (or that it is not applicable)."""
    return world_model_task("next-state", **locals())


@task
def verify(rules: str = "pddl", render: str = "atoms", rhos: str = _RHOS,
           problems_per_domain: int | None = None, planner_timeout: float = 20.0, seed: int = 0,
           dataset: str = BUILTIN, split: str = "test", domains: str | None = None) -> Task:
    """Does the rest of a plan reach the goal? If not, which step fails first?"""
    return world_model_task("verify", **locals())


@task
def propose(rules: str = "pddl", render: str = "atoms", rhos: str = _RHOS, k: int = 10,
            slack: float = 1.0, problems_per_domain: int | None = None,
            planner_timeout: float = 20.0, seed: int = 0, dataset: str = BUILTIN,
            split: str = "test", domains: str | None = None) -> Task:
    """Rank the K best next actions (hit@K: applicable and the goal still reachable in time)."""
    return world_model_task("propose", **locals())


@task
def plan(rules: str = "pddl", render: str = "atoms", rhos: str = _RHOS, k: int = 1,
         problems_per_domain: int | None = None, planner_timeout: float = 20.0, seed: int = 0,
         dataset: str = BUILTIN, split: str = "test", domains: str | None = None) -> Task:
    """Plan step by step: one action and its predicted state per call until done."""
    return world_model_task("plan", **locals())
