"""Running an engine task (``engine.task.Task``) as an Inspect task.

The engine's tasks are shaped like Inspect's (samples, a solver that asks the model round by
round through ``SampleContext.complete``, a scorer inside the solver, a summary), so the
Inspect tasks of text2world are the engine's tasks themselves: ``InspectContext`` is a
``SampleContext`` whose ``complete`` calls Inspect's model, ``engine_solver`` runs
``task.solve`` for the sample and keeps the log record it returns, and the scorer turns that
record into Inspect's score (a value per metric, the record in the metadata). Prompts,
correction rounds, parsing and scoring are therefore exactly those of ``t2w eval`` and
``t2w wm``.
"""

from __future__ import annotations

import asyncio
import inspect as pyinspect
import json
import math
import time
from types import SimpleNamespace
from typing import Any, Callable, TypeVar

from inspect_ai.model import (
    ChatMessageAssistant,
    ChatMessageSystem,
    ChatMessageTool,
    ChatMessageUser,
    GenerateConfig,
    get_model,
)
from inspect_ai.scorer import Score, Target, mean, scorer
from inspect_ai.solver import Generate, TaskState, solver
from inspect_ai.tool import ToolCall, ToolInfo

from text2world.engine.run_store import ItemRecord
from text2world.engine.task import Sample as EngineSample
from text2world.integrations.inspect_reference import is_reference, reference_config
from text2world.model.cache import Completion

RECORD_KEY = "t2w_record"  # the sample's log record, in the sample's store
ITEM_KEY = "t2w_item"  # the log record, in the score's metadata (what import-inspect reads)
CONFIG_KEY = "text2world"  # the run config's task part, in the Inspect task's metadata


def chat_messages(messages: list[dict]) -> list:
    """The engine's (OpenAI-style) messages as Inspect's, tool calls and answers included."""
    kinds = {"system": ChatMessageSystem, "user": ChatMessageUser}
    chat: list = []
    for m in messages:
        if m["role"] == "assistant":
            chat.append(ChatMessageAssistant(content=m.get("content") or "", tool_calls=[
                ToolCall(id=c["id"], function=c["function"]["name"],
                         arguments=_arguments(c["function"]["arguments"]))
                for c in m.get("tool_calls") or []] or None))
        elif m["role"] == "tool":
            chat.append(ChatMessageTool(content=m["content"], tool_call_id=m["tool_call_id"]))
        else:
            chat.append(kinds[m["role"]](content=m["content"]))
    return chat


def _arguments(text: str) -> dict:
    try:
        value = json.loads(text or "{}")
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def nan_if_none(value: Any) -> float:
    return math.nan if value is None else float(value)


class InspectContext:
    """``engine.task.SampleContext`` for one Inspect sample: calls go to Inspect's model."""

    def __init__(self, state: TaskState) -> None:
        self.item = str(state.sample_id)
        self.epoch = 0
        self.run = None  # the Inspect log is the run
        self.model_name = str(state.model)
        self.spec = SimpleNamespace(name=self.model_name, is_reference=is_reference(state.model))
        self.last_messages: list = []
        self.last_output: Any = None

    async def complete(self, messages: list[dict], round_index: int = 0,
                       reference_context: dict | None = None,
                       tools: list[dict] | None = None) -> Completion:
        chat = chat_messages(messages)
        started = time.monotonic()
        infos = [ToolInfo.model_validate(spec["function"]) for spec in tools or []]
        output = await get_model().generate(chat, tools=infos, config=GenerateConfig(
            **reference_config(self.model_name, reference_context or {}, round_index)))
        calls = [{"id": call.id, "name": call.function,
                  "arguments": json.dumps(call.arguments)}
                 for call in output.message.tool_calls or []] if output.choices else []
        usage = output.usage
        self.last_messages, self.last_output = [*chat, output.message], output
        return Completion(
            content=output.completion, reasoning=None,
            prompt_tokens=usage.input_tokens if usage else 0,
            completion_tokens=usage.output_tokens if usage else 0,
            cost=usage.total_cost if usage else None,
            latency=round(output.time if output.time is not None
                          else time.monotonic() - started, 4),
            finish_reason=output.stop_reason if output.choices else None, model=output.model,
            tool_calls=calls or None)

    async def cpu(self, urgent: bool, function: Callable, *args: Any,
                  affinity: str | None = None) -> Any:
        return await asyncio.to_thread(function, *args)


@solver
def engine_solver(task: Any, samples: dict[str, EngineSample]):
    """Run ``task.solve`` on the sample (its calls through Inspect's model)."""

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        context = InspectContext(state)
        result = await task.solve(samples[str(state.sample_id)], context)
        record = await result if pyinspect.isawaitable(result) else result
        state.store.set(RECORD_KEY, record)
        if context.last_output is not None:
            state.messages = context.last_messages
            state.output = context.last_output
        return state

    return solve


RecordT = TypeVar("RecordT", bound=ItemRecord)


@scorer(metrics={"*": [mean()]})
def engine_scorer(value: Callable[[RecordT], dict[str, float]],
                  explain: Callable[[RecordT], str] = lambda record: ""):
    """The solver's log record (its task's record type) as Inspect's score: ``value(record)``
    (NaN where the record does not count, as the engine's summaries leave it out) and the
    record as metadata."""

    async def score(state: TaskState, target: Target) -> Score:
        record = state.store.get(RECORD_KEY)
        if record is None:
            return Score(value=math.nan, explanation="the solver did not finish the sample")
        return Score(value=value(record), explanation=explain(record),
                     metadata={ITEM_KEY: record})

    return score


def load_samples(task: Any) -> list[EngineSample]:
    """The engine task's samples, its errors (bad options, unknown ids) as ``ValueError``,
    which Inspect reports as the task's error."""
    from text2world.errors import Text2WorldError

    try:
        task.check()
        return task.load()
    except Text2WorldError as err:
        raise ValueError(str(err)) from None


def task_metadata(task: Any, samples: list[EngineSample]) -> dict:
    """What ``t2w import-inspect`` needs to write the run config as the engine would."""
    options = task.options
    return {CONFIG_KEY: {"kind": task.kind, **task.configure(None, {}),
                         "seed": options.seed, "selection": options.selection_flags(),
                         "selected": task.selection_ids(samples), "epochs": 1,
                         "planned_items": len(samples)}}
