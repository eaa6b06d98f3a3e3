"""The Inspect tasks of the world-model benchmark: ``text2world/next_state``, ``verify``,
``propose`` and ``plan`` (``t2w wm TASK`` on Inspect's harness).

    inspect eval text2world/verify --model anthropic/claude-sonnet-4-0 -T rules=concrete \
        -T domains=blocksworld

The engine's ``WmTask`` (``tasks.wm.task``) builds the items (the same seed, rhos and shares
give the same items as ``t2w wm``), asks the model and scores the answers with the simulator
and the planner (``inspect_engine``). The score's value holds each overall metric of
``tasks.wm.metrics.aggregate`` as one number per item (NaN where the item does not count, as
``aggregate`` leaves it out), so Inspect's means are ``t2w wm``'s overall figures; the metadata
holds the item's whole log record.
"""

from __future__ import annotations

import math
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from text2world.integrations.inspect_engine import (
    engine_scorer,
    engine_solver,
    load_samples,
    nan_if_none,
    task_metadata,
)
from text2world.store.datasets import BUILTIN
from text2world.tasks.wm import prompts
from text2world.tasks.wm.items import RHOS
from text2world.tasks.wm.metrics import PROPOSE_KS
from text2world.tasks.wm.records import WmItem
from text2world.tasks.wm.task import WmOptions, WmTask


def item_value(task_name: str, record: WmItem) -> dict[str, float]:
    """One item's share of each overall metric of ``tasks.wm.metrics.aggregate`` (NaN: the item
    does not count). The task's headline comes first (Inspect's progress bar shows the first
    metric), ``format_error`` last."""
    m = record["metrics"]
    nan = math.nan
    value: dict[str, float] = {}
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
                     step_accuracy=nan if positive else nan_if_none(m["step_correct"]))
    elif task_name == "propose":
        for k in PROPOSE_KS:
            value[f"hit_at_{k}"] = float(m["first_hit"] is not None and m["first_hit"] <= k)
        value["applicable_at_1"] = float(m["first_applicable"] == 1)
    else:
        value.update(success=float(m["success"]), declared_done=float(m["declared_done"]),
                     state_accuracy=nan_if_none(m["state_accuracy"]), mean_steps=float(m["steps"]),
                     cost_ratio=nan_if_none(m["cost_ratio"]) if m["success"] else nan)
    value["format_error"] = 1.0 if record.get("format_error") else 0.0
    return value


def _explain(record: WmItem) -> str:
    return record.get("format_error") or ""


def _first_prompt(options: WmOptions, item: dict, record) -> str:
    if item["task"] == "next-state":
        return prompts.next_state_prompt(item, record, options.rules, options.render, options.form)
    if item["task"] == "verify":
        return prompts.verify_prompt(item, record, options.rules, options.render)
    k = options.k or 1  # set by build() (tasks.wm.task._check)
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
                     slack: float = 0.0, illegal_share: float = 0.25,
                     problems_per_domain: int | None = None, planner_timeout: float = 20.0,
                     seed: int = 0, dataset: str = BUILTIN, split: str = "test",
                     domains: str | None = None, size: str = "hard",
                     mystery: bool = False) -> Task:
    """The task ``task_name`` over ``t2w wm``'s items for these settings (its options; the
    same defaults: ``--slack 0``, hard worlds; ``mystery`` for the obfuscated copies)."""
    options = WmOptions(model="inspect", dataset=dataset, split=split,
                        domains=[d.strip() for d in domains.split(",") if d.strip()]
                        if domains else None, seed=seed, task=task_name, rules=rules,
                        render=render, form=form, rhos=_rhos(rhos), k=k, slack=slack,
                        illegal_share=illegal_share, problems_per_domain=problems_per_domain,
                        planner_timeout=planner_timeout, size=size, mystery=mystery)
    engine_task = WmTask(options)
    samples = load_samples(engine_task)
    records = engine_task.records
    inspect_samples = [
        Sample(id=s.id, input=_first_prompt(options, s.data, records[s.data["domain"]]),
               metadata={"domain": s.data["domain"], "rho": s.data["rho"]}) for s in samples]
    return Task(dataset=MemoryDataset(inspect_samples, name=dataset),
                solver=engine_solver(engine_task, {s.id: s for s in samples}),
                scorer=engine_scorer(lambda record: item_value(task_name, record), _explain),
                config=GenerateConfig(temperature=0.0),
                metadata=task_metadata(engine_task, samples), version=2)


_RHOS = ",".join(f"{r:g}" for r in RHOS)


# Each task passes its own arguments (its locals, read first thing) through.


@task
def next_state(rules: str = "pddl", render: str = "atoms", form: str = "full", rhos: str = _RHOS,
               illegal_share: float = 0.25, problems_per_domain: int | None = None,
               planner_timeout: float = 20.0, seed: int = 0, dataset: str = BUILTIN,
               split: str = "test", domains: str | None = None,
         size: str = "hard", mystery: bool = False) -> Task:
    """Predict the state after an action (or that it is not applicable)."""
    return world_model_task("next-state", **locals())


@task
def verify(rules: str = "pddl", render: str = "atoms", rhos: str = _RHOS,
           problems_per_domain: int | None = None, planner_timeout: float = 20.0, seed: int = 0,
           dataset: str = BUILTIN, split: str = "test", domains: str | None = None,
         size: str = "hard", mystery: bool = False) -> Task:
    """Does the rest of a plan reach the goal? If not, which step fails first?"""
    return world_model_task("verify", **locals())


@task
def propose(rules: str = "pddl", render: str = "atoms", rhos: str = _RHOS, k: int = 10,
            slack: float = 0.0, problems_per_domain: int | None = None,
            planner_timeout: float = 20.0, seed: int = 0, dataset: str = BUILTIN,
            split: str = "test", domains: str | None = None,
         size: str = "hard", mystery: bool = False) -> Task:
    """Rank the K best next actions (hit@K: applicable and the goal still reachable in time)."""
    return world_model_task("propose", **locals())


@task
def plan(rules: str = "pddl", render: str = "atoms", rhos: str = _RHOS, k: int = 1,
         problems_per_domain: int | None = None, planner_timeout: float = 20.0, seed: int = 0,
         dataset: str = BUILTIN, split: str = "test", domains: str | None = None,
         size: str = "hard", mystery: bool = False) -> Task:
    """Plan step by step: one action and its predicted state per call until done."""
    return world_model_task("plan", **locals())
