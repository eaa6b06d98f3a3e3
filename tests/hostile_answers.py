"""Hostile answers for the limits' tests: the blocksworld gold with one more action whose
precondition is a ``forall``/``exists`` over ``variables + 1`` blocks and whose effect is a
``forall``/``when`` over ``variables`` blocks (issue 46: such answers escaped every bound).

On blocksworld's problems (3 to 5 blocks) up to 4 variables are grounded; 10 variables pass
the grounding cap on the first problem (3 blocks: 3^11 = 177,147 combinations) and cost Fast
Downward's translator and the relaxation many CPU seconds; from 11 on, every problem is
refused before grounding.
"""

from __future__ import annotations

from text2world.store.datasets import load_dataset

GOLD = "blocksworld"
UNDER_THE_CAP = 10  # variables: grounded on the first problem, costly


def hostile_domain(variables: int) -> str:
    gold = load_dataset().get(GOLD).domain.rstrip()
    names = " ".join(f"?v{i}" for i in range(variables))
    chain = " ".join(f"(on ?v{i} ?v{i + 1})" for i in range(variables - 1))
    action = f"""
  (:action shuffle
    :parameters (?x - block)
    :precondition (and (clear ?x)
      (forall ({names} - block)
        (exists (?w - block) (or (on ?v0 ?w) (on-table ?v0) (clear ?v{variables - 1})))))
    :effect (forall ({names} - block)
      (when (and {chain})
            (and (on ?v1 ?v0) (not (on ?v0 ?v1)) (clear ?v{variables - 1})))))
"""
    closing = gold.rfind(")")
    return gold[:closing] + action + ")"


def hostile_answer(variables: int) -> str:
    """A model's answer holding ``hostile_domain(variables)``."""
    return f"Here is the domain.\n\n```pddl\n{hostile_domain(variables)}\n```\n"
