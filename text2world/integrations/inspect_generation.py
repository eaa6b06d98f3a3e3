"""The Inspect task ``text2world/generation``: ``t2w eval``'s task on Inspect's harness.

    inspect eval text2world/generation --model anthropic/claude-sonnet-4-0 -T ec=3 \
        -T description=abstract -T mode=paper -T prompt=zero-shot

The engine's ``GenerationTask`` (``tasks.generation.task``) builds the samples, prompts and
corrects (the validator's errors as the next user turn, up to ``ec`` times) and scores every
round as ``t2w eval`` does (``inspect_engine``). The score's value holds the EC_k metrics of
``mode`` (``paper`` by default: ``t2w eval``'s headline, Table 1 as published), ``valid``, and
the semantic metrics (``semantic_*``) when the items have problems, NaN where ``t2w eval`` has
none (Inspect leaves NaN out of its means as the summary leaves None out); its metadata holds
the item's whole log record (every round, both modes).
"""

from __future__ import annotations

import math

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import GenerateConfig

from text2world.integrations.inspect_engine import (
    chat_messages,
    engine_scorer,
    engine_solver,
    load_samples,
    nan_if_none,
    task_metadata,
)
from text2world.scoring.metrics import MODES
from text2world.scoring.score_base import mode_metrics
from text2world.scoring.semantic import METRICS as SEMANTIC_METRICS
from text2world.scoring.semantic_record import headline_value
from text2world.store.datasets import BUILTIN
from text2world.tasks.generation.prompts import description_text
from text2world.tasks.generation.records import GenerationItem
from text2world.tasks.generation.task import EvalOptions, GenerationTask


def score_value(item: GenerationItem, mode: str, ec: int) -> dict[str, float]:
    """EC_k of ``mode`` (and of the semantic scores) from an item record, NaN for None."""
    final = (item["ec"].get(mode) or [None] * (ec + 1))[ec]
    value = {metric: nan_if_none(final.get(metric) if final else None)
             for metric in mode_metrics(mode)}
    value["valid"] = 1.0 if item["valid"] else 0.0
    semantic = item["ec"].get("semantic")
    if semantic is not None:
        cell = semantic[ec]
        value["semantic_simulable"] = math.nan if cell is None else float(bool(cell.get("ok")))
        for metric in SEMANTIC_METRICS:
            # as t2w eval's headline: a round that could not be simulated counts 0
            value[f"semantic_{metric}"] = (math.nan if cell is None
                                           else nan_if_none(headline_value(cell, metric)))
    return value


def _explain(item: GenerationItem) -> str:
    if item["valid"]:
        return f"valid at EC_{item['valid_round']}"
    last = item["rounds"][-1] if item.get("rounds") else {}
    return f"not valid after {item.get('rounds_used')} round(s): {last.get('error_text', '')[:500]}"


@task
def generation(ec: int = 3, description: str = "abstract", mode: str = "paper",
               prompt: str = "zero-shot", correction_prompt: str | None = None,
               dataset: str = BUILTIN, split: str = "test", domains: str | None = None,
               semantic: bool | None = None, mystery: bool = False, feedback: str = "syntax",
               agent: bool = False, tool_budget: int = 10) -> Task:
    """Write a PDDL domain from its description, with up to ``ec`` validator-driven corrections
    (text2world's Table 1: ``mode`` paper, the default and ``t2w eval``'s headline, or
    canonical; semantic scores on the items' problems)."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if not isinstance(ec, int):
        raise ValueError(f"ec must be a whole number of corrections, not {ec!r}")
    engine_task = GenerationTask(EvalOptions(
        model="inspect", dataset=dataset, split=split, ec=ec, prompt=prompt,
        correction_prompt=correction_prompt, description=description, semantic=semantic,
        mystery=mystery, domains=[d.strip() for d in domains.split(",") if d.strip()] if domains else None,
        feedback=feedback, agent=agent, tool_budget=tool_budget))
    samples = load_samples(engine_task)
    prompts = engine_task.prompts
    assert prompts is not None
    inspect_samples = [
        Sample(id=s.id, target=s.data.domain,
               input=chat_messages(prompts.generation_messages(
                   description_text(s.data, description) or "")),
               metadata={"name": s.data.name, "split": s.data.split}) for s in samples]
    metadata = task_metadata(engine_task, samples)
    metadata["text2world"]["mode"] = mode
    return Task(dataset=MemoryDataset(inspect_samples, name=dataset),
                solver=engine_solver(engine_task, {s.id: s for s in samples}),
                scorer=engine_scorer(lambda item: score_value(item, mode, engine_task.options.ec),
                                     _explain),
                config=GenerateConfig(temperature=0.0), metadata=metadata, version=2)
