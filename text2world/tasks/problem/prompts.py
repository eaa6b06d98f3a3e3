"""The prompts of the problem task: the gold domain and a description of one problem, then
(``--ec K``) the validator's findings on the model's last problem."""

from __future__ import annotations

from text2world.engine.run_store import text_hash
from text2world.model.environment import SYSTEM_MESSAGE

PROBLEM_PROMPT = """Here is a PDDL domain:

```pddl
{domain}
```

Write the PDDL problem of this domain that the following text describes. Declare the domain \
as (:domain {name}), every object the text mentions in :objects with its type (not the \
domain's constants), the initial state in :init and the goal in :goal.

{description}

Answer with the whole problem, (define (problem ...) ...), in one ```pddl block."""

CORRECTION_PROMPT = """The problem you wrote has errors:
{error}

Write the whole corrected problem in one ```pddl block."""

PROMPT_HASH = text_hash(PROBLEM_PROMPT + CORRECTION_PROMPT)


def problem_messages(domain: str, domain_name: str, description: str) -> list[dict]:
    text = PROBLEM_PROMPT.format(domain=domain.strip(), name=domain_name,
                                 description=description.strip())
    return [{"role": "system", "content": SYSTEM_MESSAGE}, {"role": "user", "content": text}]


def correction_messages(previous: list[dict], answer: str, error: str) -> list[dict]:
    """The conversation so far, the model's last answer and the findings on it."""
    return [*previous, {"role": "assistant", "content": answer},
            {"role": "user", "content": CORRECTION_PROMPT.format(error=error)}]
