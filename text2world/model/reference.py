"""The built-in reference models (``reference/oracle``, ``reference/noisy-oracle``): offline,
deterministic, no key. They take the client's path as hosted models do (``LLMClient.complete``:
the run's sent and paid records, token counts, the answer as a ``Completion``), but the client
answers them itself (``reference_reply``) instead of through litellm: importing litellm costs
about two CPU-seconds, more than the rest of the eval process's work on the README's first
command. litellm still knows them (a custom provider, ``reference_handler``, the same replies)
for calls made through it, and answers the calls they refuse, with its errors. They need the item's gold
domain, which ``t2w eval`` passes in the call's metadata."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from text2world.errors import Text2WorldError
from text2world.model.environment import (
    REFERENCE_JUDGES,
    REFERENCE_MODELS,
    REFERENCE_PROVIDER,
    prepare_litellm_environment,
)

__all__ = [
    "register_reference_answerer", "reference_answer", "reference_agent_step",
    "reference_reply", "reference_handler",
]

# The world-model and judge tasks answer their own prompts for the reference models: they hold
# the call's truth (the simulator's state, the semantic verdict). Each registers its answerer
# here when its module is imported, since the model layer sits below the tasks.
ReferenceAnswerer = Callable[[str, dict], str]  # (model, the call's reference context) -> text
REFERENCE_ANSWERERS: dict[str, ReferenceAnswerer] = {}
JUDGING_TASKS: set[str] = set()  # tasks whose calls the reference judges answer (and only they)


def register_reference_answerer(task: str, answerer: ReferenceAnswerer,
                                judging: bool = False) -> None:
    """Let the reference models answer calls whose reference context says ``task``; a
    ``judging`` task's calls are answered by the reference judges, and only by them."""
    REFERENCE_ANSWERERS[task] = answerer
    if judging:
        JUDGING_TASKS.add(task)


def task_reference_answer(task: str, model: str, context: dict[str, Any]) -> str:
    """The registered answer of a reference model to a call of ``task``."""
    answerer = REFERENCE_ANSWERERS.get(task)
    if answerer is None:
        raise LookupError(f"no reference answerer for {task!r} calls: import its task first")
    return answerer(model, context)


def reference_answer(model: str, gold: str, item: str, round_index: int, seed: int = 0,
                     feedback: dict | None = None) -> str:
    """The answer of a reference model for one round of one item.

    ``oracle`` answers the gold domain. ``noisy-oracle`` draws, per (seed, item), how many
    correction rounds the item needs (0 to 4) and whether its final answer loses an action;
    until then it answers the final domain broken by a text2world.pddl.perturb error (or, once in a
    while, no PDDL at all), sometimes wrapped in a <think> block as reasoning models do.
    """
    from text2world.pddl import perturb

    if model == "oracle":
        return f"The domain, as described:\n\n```pddl\n{gold.strip()}\n```\n"
    rng = random.Random(f"{seed}:{item}")
    needed = rng.choices([0, 1, 2, 3, 4], weights=[35, 25, 20, 10, 10])[0]
    final = gold
    if rng.random() < 0.3 and len(perturb.action_spans(gold)) > 1:
        final = perturb.drop_action(gold, seed=rng.randrange(1000))
    think = rng.random() < 0.3
    if feedback and feedback.get("open"):
        uses = feedback.get("kind") == "behavior" or \
            random.Random(f"{seed}:{item}:plans").random() < 0.5
        if uses:
            final = gold
    if round_index >= needed:
        body = final
        preface = "I fixed the errors." if round_index else "Here is the domain."
    else:
        round_rng = random.Random(f"{seed}:{item}:{round_index}")
        if round_index == 0 and round_rng.random() < 0.1:
            return "I am not sure how to write this domain in PDDL."
        breakers = [perturb.break_parenthesis, perturb.undefine_predicate]
        round_rng.shuffle(breakers)
        body = final
        for breaker in breakers:
            body = breaker(final, seed=round_rng.randrange(1000))
            if body != final:
                break
        preface = "Let me write the domain step by step."
    text = f"{preface}\n\n```pddl\n{body.strip()}\n```\n"
    if think:
        text = f"<think>\nTypes first, then predicates, then actions.\n</think>\n{text}"
    return text


def reference_agent_step(model: str, context: dict[str, Any], tool_results: list[str]
                         ) -> tuple[str, dict | None]:
    """The agent protocol (``t2w eval --agent``): (final answer, None), or (``""``, the
    arguments of a ``validate_domain`` call). A reference model validates round i's domain with
    its i-th call until one validates (or no tool is offered any more), then submits it."""
    last_ok = bool(tool_results) and '"ok": true' in tool_results[-1]
    offered = bool(context.get("tools_offered"))
    round_index = len(tool_results) - 1 if (last_ok or not offered) and tool_results \
        else len(tool_results)
    text = reference_answer(model, context["gold"], str(context.get("item", "")), round_index,
                            int(context.get("seed", 0)))
    if last_ok or not offered:
        return text, None
    from text2world.pddl.extract import NoDomainFound, extract_domain

    try:
        domain = extract_domain(text)
    except NoDomainFound:
        domain = text
    return "", {"pddl": domain}


class ReferenceCallError(Text2WorldError):
    """A call a reference model does not answer, with the HTTP status an API would give."""

    def __init__(self, status_code: int, message: str) -> None:
        super().__init__(message)
        self.status_code = status_code
        self.message = message


@dataclass(frozen=True)
class ReferenceReply:
    """A reference model's reply to one call: a text, or (agent protocol) one tool call
    (OpenAI format), with GPT-2 token counts of the messages and of the reply."""

    text: str | None
    tool_call: dict | None
    prompt_tokens: int
    completion_tokens: int


def reference_reply(model: str, messages: list, context: dict[str, Any]) -> ReferenceReply:
    """What ``reference/<model>`` replies to ``messages``, given the call's ``context`` (what
    the tasks pass as the ``t2w`` metadata of the call: the item's gold or world, the round,
    the seed...). Raises ``ReferenceCallError`` for a call it does not answer. Offline and
    without litellm: ``LLMClient`` answers with it directly, litellm's provider
    (``reference_handler``) wraps it."""
    judging = bool(context) and context.get("task") in JUDGING_TASKS
    if judging != (model in REFERENCE_JUDGES):
        raise ReferenceCallError(400, (
            f"reference/{model} answers only inside t2w judge" if not judging else
            f"reference/{model} cannot judge: the reference judges are "
            + ", ".join(f"reference/{m}" for m in REFERENCE_JUDGES)))
    task = str(context.get("task") or "")
    if judging or (task in REFERENCE_ANSWERERS and model in REFERENCE_MODELS):
        context = {**context, "wm_answer": task_reference_answer(task, model, context)}
    if not context or ("gold" not in context and "wm_answer" not in context):
        raise ReferenceCallError(400, (
            "reference models answer only inside t2w eval or t2w wm (they need the item's "
            "gold domain or world)"))
    if model not in REFERENCE_MODELS:
        raise ReferenceCallError(404, f"unknown reference model {model!r}")
    if context.get("agent"):
        results = [str(m.get("content") or "") for m in messages if m.get("role") == "tool"]
        text, arguments = reference_agent_step(model, context, results)
        if arguments is not None:
            return _reply(messages, None, {
                "id": f"call_{len(results)}", "type": "function",
                "function": {"name": "validate_domain", "arguments": json.dumps(arguments)}})
        return _reply(messages, text)
    text = context.get("wm_answer") or reference_answer(
        model, context["gold"], str(context.get("item", "")),
        int(context.get("round", 0)), int(context.get("seed", 0)), context.get("feedback"))
    return _reply(messages, text)


def _reply(messages: list, text: str | None, tool_call: dict | None = None) -> ReferenceReply:
    from text2world.store.tokens import count_gpt2_tokens

    prompt_tokens = sum(count_gpt2_tokens(str(m.get("content") or "")) for m in messages)
    completion_tokens = count_gpt2_tokens(text or json.dumps(tool_call))
    return ReferenceReply(text, tool_call, prompt_tokens, completion_tokens)


@lru_cache(maxsize=1)
def reference_handler() -> Any:
    """A litellm CustomLLM answering as ``reference_reply`` does, for calls made through
    litellm itself (``LLMClient`` answers the reference models without it)."""
    prepare_litellm_environment()
    import litellm
    from litellm import CustomLLM
    from litellm.llms.custom_llm import CustomLLMError

    def answer(model: str, messages: list, litellm_params: dict | None) -> Any:
        context: dict = ((litellm_params or {}).get("metadata") or {}).get("t2w") or {}
        try:
            reply = reference_reply(model, messages, context)
        except ReferenceCallError as error:
            raise CustomLLMError(status_code=error.status_code, message=error.message) from None
        message: dict[str, Any] = {"role": "assistant", "content": reply.text}
        if reply.tool_call is not None:
            message["tool_calls"] = [reply.tool_call]
        return litellm.ModelResponse(
            model=f"{REFERENCE_PROVIDER}/{model}",
            choices=[{"index": 0, "finish_reason": "tool_calls" if reply.tool_call else "stop",
                      "message": message}],
            usage={"prompt_tokens": reply.prompt_tokens,
                   "completion_tokens": reply.completion_tokens,
                   "total_tokens": reply.prompt_tokens + reply.completion_tokens})

    class ReferenceLLM(CustomLLM):
        def completion(self, model: str, messages: list, *args: Any, litellm_params: dict | None = None,
                       **kwargs: Any) -> Any:
            return answer(model, messages, litellm_params)

        async def acompletion(self, model: str, messages: list, *args: Any,
                              litellm_params: dict | None = None, **kwargs: Any) -> Any:
            return answer(model, messages, litellm_params)

    return ReferenceLLM()
