"""The Inspect task ``text2world/generation``: ``t2w eval``'s generation loop as an Inspect task.

    inspect eval text2world/generation --model openai/gpt-4o -T ec=3 -T description=abstract \
        -T mode=canonical -T prompt=zero-shot

Samples are the dataset's items (the built-in store by default: ``-T dataset=NAME`` for an
imported one), each prompted exactly as ``t2w eval`` prompts it (``evaluation.Prompts``: the
same templates, system message and few-shot examples). The solver runs the EC_k loop of
``evaluation``: an answer whose domain does not validate is answered by the correction prompt
(the validator's errors, with the earlier attempts) as the next user turn, up to ``ec`` times.
The scorer scores every round as ``t2w eval`` does (``rounds.score_round``: paper and canonical
mode, semantic scores when the items have problems) and builds the same item record
(``rounds.item_record``). The score's value holds the EC_k metrics of ``mode`` (and the semantic
ones), NaN where ``t2w eval`` has none (Inspect leaves NaN out of its means, as ``runs.summarize``
leaves None out); its metadata holds the whole item record (every round, both modes), which
``t2w import-inspect`` turns into a run folder.
"""

from __future__ import annotations

import asyncio
import math
from typing import Any

from inspect_ai import Task, task
from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageSystem, ChatMessageUser, GenerateConfig
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver

from text2world.evaluation import (BUILTIN_PROMPTS, DESCRIPTIONS, EvalError, Prompts,
                                   make_prompts)
from text2world.integrations.inspect_reference import reference_config
from text2world.metrics import MODES
from text2world.rounds import (extract_round_domain, item_record, round_record, score_round,
                               validate_round)
from text2world.runs import SCORE_MODES, mode_metrics
from text2world.semantic import METRICS as SEMANTIC_METRICS
from text2world.store import BUILTIN, DatasetError, Record, load_dataset

ROUNDS_KEY = "t2w_rounds"  # the solver's rounds, in the sample's store
ITEM_KEY = "t2w_item"  # the item record, in the score's metadata
CONFIG_KEY = "text2world"  # the run's settings, in the task's metadata


def chat_messages(messages: list[dict]) -> list:
    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser}
    return [kinds[m["role"]](content=m["content"]) for m in messages]


def select_records(dataset_name: str, split: str, domains: str | list[str] | None,
                   description: str) -> tuple[Any, list[Record], list[str]]:
    """The dataset, its selected items with the description, and the ids skipped without it."""
    try:
        dataset = load_dataset(dataset_name)
        if isinstance(domains, str):
            domains = [d.strip() for d in domains.split(",") if d.strip()]
        records = dataset.select(split, domains or None)
    except DatasetError as err:
        raise ValueError(str(err)) from None
    skipped = [r.id for r in records if not (r.description(description) or "").strip()]
    chosen = [r for r in records if r.id not in skipped]
    if not chosen:
        raise ValueError(f"no selected item of dataset {dataset.name!r} has a {description} "
                         "description")
    return dataset, chosen, skipped


@solver
def correction_loop(prompts: Prompts, ec: int = 3):
    """Generate, validate, and send the correction prompt until the domain validates or ``ec``
    corrections were made (``t2w eval``'s loop; the rounds go to the sample's store)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        rounds: list[dict] = []
        history: list[tuple[str, str]] = []
        messages = [{"role": m.role, "content": m.text} for m in state.messages]
        for round_index in range(ec + 1):
            if round_index > 0:
                previous = rounds[-1]
                messages = prompts.correction_messages(history, previous["domain"],
                                                       previous["error_text"], round_index)
                history.append((previous["domain"], previous["error_text"]))
                state.messages = chat_messages(messages)
            state = await generate(state, **reference_config(
                state.model, {"gold": state.target.text, "item": str(state.sample_id)},
                round_index))
            output = state.output
            response = output.completion
            domain, extraction_error = extract_round_domain(response)
            validation = await asyncio.to_thread(validate_round, domain, extraction_error)
            usage = output.usage
            rounds.append(round_record(
                round_index, messages, response, domain, extraction_error, validation,
                prompt_tokens=usage.input_tokens if usage else 0,
                completion_tokens=usage.output_tokens if usage else 0,
                cost=usage.total_cost if usage else None, latency=round(output.time or 0.0, 4),
                finish_reason=output.stop_reason if output.choices else None))
            if validation.get("ok"):
                break
        state.store.set(ROUNDS_KEY, rounds)
        return state

    return solve


def _nan(value: Any) -> float:
    return math.nan if value is None else float(value)


def score_value(item: dict, mode: str, ec: int) -> dict[str, float]:
    """EC_k of ``mode`` (and of the semantic scores) from an item record, NaN for None."""
    final = (item["ec"].get(mode) or [None] * (ec + 1))[ec]
    value = {metric: _nan(final.get(metric) if final else None) for metric in mode_metrics(mode)}
    value["valid"] = 1.0 if item["valid"] else 0.0
    semantic = item["ec"].get("semantic")
    if semantic is not None:
        cell = semantic[ec]
        value["semantic_simulable"] = math.nan if cell is None else float(bool(cell.get("ok")))
        for metric in SEMANTIC_METRICS:
            ok = cell is not None and cell.get("ok")
            value[f"semantic_{metric}"] = _nan(cell.get(metric)) if ok else math.nan
    return value


@scorer(metrics={"*": [mean()]})
def generation_scorer(records: dict[str, Record], mode: str = "canonical", ec: int = 3,
                      semantic: bool = True):
    """Every round scored as ``t2w eval`` scores it; the value: EC_k of ``mode``."""

    async def score(state: TaskState, target: Target) -> Score:
        record = records[str(state.sample_id)]
        rounds = state.store.get(ROUNDS_KEY) or []
        if not rounds:
            return Score(value=math.nan, explanation="the solver made no round")
        problems = tuple((p.name, p.pddl) for p in record.problems) if semantic else ()
        results = [await asyncio.to_thread(score_round, record.domain, r["domain"], SCORE_MODES,
                                           problems, r["response"]) for r in rounds]
        item = item_record(record, rounds, results, ec)
        last = rounds[-1]
        explanation = (f"valid at EC_{item['valid_round']}" if item["valid"] else
                       f"not valid after {len(rounds)} round(s): {last['error_text'][:500]}")
        return Score(value=score_value(item, mode, ec), answer=last["domain"],
                     explanation=explanation, metadata={ITEM_KEY: item})

    return score


def _check(ec: int, description: str, mode: str) -> None:
    if not isinstance(ec, int) or ec < 0:
        raise ValueError(f"ec must be 0 or more corrections, not {ec!r}")
    if description not in DESCRIPTIONS:
        raise ValueError(f"description must be one of {', '.join(DESCRIPTIONS)}, "
                         f"not {description!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")


@task
def generation(ec: int = 3, description: str = "abstract", mode: str = "canonical",
               prompt: str = "zero-shot", correction_prompt: str | None = None,
               dataset: str = BUILTIN, split: str = "test", domains: str | None = None,
               semantic: bool | None = None) -> Task:
    """Write a PDDL domain from its description, with up to ``ec`` validator-driven corrections
    (text2world's Table 1: paper or canonical ``mode``; semantic scores on the items' problems)."""
    _check(ec, description, mode)
    data, records, skipped = select_records(dataset, split, domains, description)
    try:
        prompts, examples = make_prompts(data, prompt, correction_prompt, description)
    except EvalError as err:
        raise ValueError(str(err)) from None
    semantic = any(r.problems for r in records) if semantic is None else bool(semantic)
    samples = [Sample(id=r.id, input=chat_messages(
                          prompts.generation_messages(r.description(description) or "")),
                      target=r.domain, metadata={"name": r.name, "split": r.split})
               for r in records]
    config = {"dataset": data.name, "dataset_source": data.source,
              "dataset_hash": data.content_hash, "split": split, "description": description,
              "prompt": prompt if prompt in BUILTIN_PROMPTS else prompts.generation.name,
              "prompt_hash": prompts.generation.hash,
              "correction_prompt": prompts.correction.name,
              "correction_prompt_hash": prompts.correction.hash,
              "few_shot_examples": [r.id for r in examples], "ec": ec, "mode": mode,
              "semantic": semantic, "planned_items": len(records), "skipped_items": skipped,
              "selection": {"limit": None, "domains": domains}}
    return Task(dataset=MemoryDataset(samples, name=data.name),
                solver=correction_loop(prompts, ec),
                scorer=generation_scorer({r.id: r for r in records}, mode, ec, semantic),
                config=GenerateConfig(temperature=0.0), metadata={CONFIG_KEY: config},
                version=1)
