"""The built-in reference models (``reference/oracle``, ``reference/noisy-oracle``): offline,
deterministic, no key. They answer through litellm (a custom provider) so that they take the
same client path as hosted models, and they need the item's gold domain, which ``t2w eval``
passes in the call's metadata."""

from __future__ import annotations

import random
from functools import lru_cache
from typing import Any

from text2world.model.environment import (
    REFERENCE_JUDGES,
    REFERENCE_MODELS,
    REFERENCE_PROVIDER,
    prepare_litellm_environment,
)


def reference_answer(model: str, gold: str, item: str, round_index: int, seed: int = 0) -> str:
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


@lru_cache(maxsize=1)
def reference_handler():
    """A litellm CustomLLM so reference models take the same client path as hosted ones."""
    prepare_litellm_environment()
    import litellm
    from litellm import CustomLLM
    from litellm.llms.custom_llm import CustomLLMError

    from text2world.store.tokens import count_gpt2_tokens

    def answer(model: str, messages: list, litellm_params: dict | None) -> Any:
        context = ((litellm_params or {}).get("metadata") or {}).get("t2w")
        judging = bool(context) and context.get("task") == "judge"
        if judging != (model in REFERENCE_JUDGES):
            raise CustomLLMError(status_code=400, message=(
                f"reference/{model} answers only inside t2w judge" if not judging else
                f"reference/{model} cannot judge: the reference judges are "
                + ", ".join(f"reference/{m}" for m in REFERENCE_JUDGES)))
        if judging:
            from text2world.tasks.judge.agreement import reference_judge_answer
            context = {**context, "wm_answer": reference_judge_answer(model, context)}
        elif context and context.get("task") == "wm" and model in REFERENCE_MODELS:
            from text2world.tasks.wm.reference import reference_wm_answer  # the world-model tasks
            context = {**context, "wm_answer": reference_wm_answer(model, context,
                                                                   int(context.get("round", 0)))}
        if not context or ("gold" not in context and "wm_answer" not in context):
            raise CustomLLMError(status_code=400, message=(
                "reference models answer only inside t2w eval or t2w wm (they need the item's "
                "gold domain or world)"))
        if model not in REFERENCE_MODELS:
            raise CustomLLMError(status_code=404, message=f"unknown reference model {model!r}")
        text = context.get("wm_answer") or reference_answer(
            model, context["gold"], str(context.get("item", "")),
            int(context.get("round", 0)), int(context.get("seed", 0)))
        prompt_tokens = sum(count_gpt2_tokens(str(m.get("content", ""))) for m in messages)
        completion_tokens = count_gpt2_tokens(text)
        return litellm.ModelResponse(
            model=f"{REFERENCE_PROVIDER}/{model}",
            choices=[{"index": 0, "finish_reason": "stop",
                      "message": {"role": "assistant", "content": text}}],
            usage={"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                   "total_tokens": prompt_tokens + completion_tokens})

    class ReferenceLLM(CustomLLM):
        def completion(self, model, messages, *args, litellm_params=None, **kwargs):
            return answer(model, messages, litellm_params)

        async def acompletion(self, model, messages, *args, litellm_params=None, **kwargs):
            return answer(model, messages, litellm_params)

    return ReferenceLLM()
