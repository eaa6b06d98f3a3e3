"""Inspect model provider ``t2w``: text2world's offline reference models in Inspect.

    inspect eval text2world/generation --model t2w/noisy-oracle --limit 5

``t2w/oracle`` and ``t2w/noisy-oracle`` answer as ``reference/oracle`` and
``reference/noisy-oracle`` do in ``t2w eval`` and ``t2w wm`` (``model.reference``,
``wm.reference``): they need the item's truth, which text2world's own solvers pass in the call's
``extra_body`` (key ``t2w``) only when the model is one of these, so they answer only inside
text2world's tasks. Token counts are GPT-2 counts, offline, as in ``t2w eval``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from inspect_ai.model import ChatMessage, GenerateConfig, ModelAPI, ModelOutput, ModelUsage, modelapi
from inspect_ai.tool import ToolChoice, ToolInfo

from text2world.model.environment import REFERENCE_MODELS

PROVIDER = "t2w"
CONTEXT_KEY = "t2w"


def is_reference(model: object) -> bool:
    """Whether ``model`` (a model name) is one of this provider's reference models."""
    return str(model).startswith(f"{PROVIDER}/")


def reference_config(model: object, context: dict, round_index: int) -> dict[str, Any]:
    """Generate settings that hand ``context`` to a reference model (none for other models:
    a hosted API must never receive the item's gold)."""
    if not is_reference(model):
        return {}
    return {"extra_body": {CONTEXT_KEY: {**context, "round": round_index}}}


class ReferenceModelAPI(ModelAPI):
    def __init__(self, model_name: str, base_url: str | None = None, api_key: str | None = None,
                 config: GenerateConfig = GenerateConfig(), **model_args: Any) -> None:
        super().__init__(model_name, base_url, api_key, [], config)
        if model_name not in REFERENCE_MODELS:
            raise ValueError(f"unknown text2world reference model {model_name!r}; choose "
                             + ", ".join(f"{PROVIDER}/{m}" for m in REFERENCE_MODELS))

    async def generate(self, input: list[ChatMessage], tools: list[ToolInfo],
                       tool_choice: ToolChoice, config: GenerateConfig) -> ModelOutput:
        from text2world.model.reference import reference_answer
        from text2world.store.tokens import count_gpt2_tokens

        context = (config.extra_body or {}).get(CONTEXT_KEY)
        if not isinstance(context, dict):
            raise ValueError("text2world reference models answer only text2world's tasks "
                             "(text2world/generation, next_state, verify, propose, plan, problem): they "
                             "need the item's gold")
        round_index = int(context.get("round", 0))
        if context.get("agent"):  # the agent protocol: a validate_domain call, or the answer
            from text2world.model.reference import reference_agent_step

            results = [m.text for m in input if m.role == "tool"]
            text, arguments = reference_agent_step(self.model_name, context, results)
            if arguments is not None:
                return ModelOutput.for_tool_call(f"{PROVIDER}/{self.model_name}",
                                                 "validate_domain", arguments,
                                                 tool_call_id=f"call_{len(results)}")
        elif context.get("task"):  # a kind whose task answers its own calls (generation's don't)
            text = _task_answer(self.model_name, str(context["task"]), context)
        else:
            text = reference_answer(self.model_name, context["gold"], str(context.get("item", "")),
                                    round_index, int(context.get("seed", 0)))
        prompt_tokens = sum(count_gpt2_tokens(message.text) for message in input)
        completion_tokens = count_gpt2_tokens(text)
        output = ModelOutput.from_content(model=f"{PROVIDER}/{self.model_name}", content=text)
        output.usage = ModelUsage(input_tokens=prompt_tokens, output_tokens=completion_tokens,
                                  total_tokens=prompt_tokens + completion_tokens,
                                  total_cost=0.0)  # offline, as in t2w eval
        return output


def _task_answer(model: str, task: str, context: dict[str, Any]) -> str:
    """A reference model's answer to a call of a registered kind: its task answers it (the
    kind's task module registers the answerer when imported: ``model.reference``)."""
    from text2world.engine.kinds import kind_spec
    from text2world.model.reference import REFERENCE_ANSWERERS, task_reference_answer

    if task not in REFERENCE_ANSWERERS:
        import_module(kind_spec(task).task_module)
    return task_reference_answer(task, model, context)


@modelapi(name=PROVIDER)
def reference_provider() -> type[ModelAPI]:
    return ReferenceModelAPI
