"""Prompts of the world-model tasks: the domain's rules in one of four settings, states and
actions as PDDL atoms or in plain language, and the answer format each task expects.

Rules settings: ``pddl`` (the gold domain), ``concrete`` (the description stating every
precondition and effect), ``abstract`` (the description without them) and ``none`` (only the
signatures of predicates and actions). Plain language uses the description's predicate
sentences (``- **(on ?top - block ?below - block)**: Block ?top sits on ...``) with the
objects put in for the variables; answers are always asked for as PDDL atoms.
"""

from __future__ import annotations

import re
from functools import lru_cache

from text2world.model.client import SYSTEM_MESSAGE
from text2world.pddl.model import Domain, parse_domain
from text2world.store.datasets import Record

RULES = ("pddl", "concrete", "abstract", "none")
RENDERS = ("atoms", "text")
FORMS = ("full", "diff")
_SENTENCE = re.compile(r"^\s*-\s*\*\*\((\S+)([^)]*)\)\*\*\s*:\s*(.+?)\s*$", re.MULTILINE)
_VARIABLE = re.compile(r"\?[A-Za-z0-9_-]+")


@lru_cache(maxsize=256)
def _domain(text: str) -> Domain:
    return parse_domain(text)


@lru_cache(maxsize=256)
def predicate_sentences(description: str) -> dict[str, tuple[tuple[str, ...], str]]:
    """Predicate name -> (its variables in order, its sentence) from a description."""
    found = {}
    for match in _SENTENCE.finditer(description or ""):
        variables = tuple(v.lower() for v in _VARIABLE.findall(match.group(2)))
        found[match.group(1).lower()] = (variables, match.group(3))
    return found


def atom_sentence(atom: str, sentences: dict) -> str:
    """``(on a b)`` in words, or the atom itself when the description has no sentence."""
    words = atom.strip("() ").split()
    entry = sentences.get(words[0]) if words else None
    if entry is None or len(entry[0]) != len(words) - 1:
        return atom
    mapping = dict(zip(entry[0], words[1:]))
    return _VARIABLE.sub(lambda m: mapping.get(m.group(0).lower(), m.group(0)), entry[1])


def signatures(domain: Domain) -> str:
    predicates = "\n".join(f"- {p.to_pddl()}" for p in domain.predicates)
    actions = "\n".join("- (" + " ".join([a.name, *(f"{p.name} - {p.type}"
                                                     for p in a.parameters)]) + ")"
                        for a in domain.actions)
    return f"Predicates:\n{predicates}\n\nActions:\n{actions}"


def rules_text(record: Record, rules: str) -> str:
    if rules not in RULES:
        raise ValueError(f"unknown rules setting {rules!r}; choose one of {', '.join(RULES)}")
    domain = _domain(record.domain)
    if rules == "pddl":
        return f"The domain in PDDL:\n```pddl\n{record.domain.strip()}\n```"
    if rules == "none":
        return ("Only the vocabulary of the domain is given; infer what the actions do.\n\n"
                + signatures(domain))
    text = record.description(rules) or ""
    return f"{text.strip()}\n\n{signatures(domain)}"


def state_text(state: list[str], record: Record, render: str) -> str:
    if render == "atoms":
        return "\n".join(state) if state else "(no atom is true)"
    sentences = predicate_sentences(record.concrete or record.abstract or "")
    return "\n".join(f"- {atom_sentence(a, sentences)}" for a in state) or \
        "- Nothing holds."


def objects_text(item: dict) -> str:
    by_type: dict[str, list[str]] = {}
    for name, kind in item["objects"]:
        by_type.setdefault(kind, []).append(name)
    return "\n".join(f"- {kind}: {', '.join(names)}" for kind, names in sorted(by_type.items()))


def _context(item: dict, record: Record, rules: str, render: str, state_title: str) -> str:
    shown = "PDDL atoms" if render == "atoms" else "sentences"
    return (f"You are the world model of a planning domain: you know how actions change the "
            f"world.\n\n## Rules\n{rules_text(record, rules)}\n\n## Objects\n"
            f"{objects_text(item)}\n\n## Goal (PDDL)\n{item['goal']}\n\n"
            f"## {state_title} (every fact that holds, as {shown}; any other fact is false)\n"
            f"{state_text(item['state'], record, render)}\n")


_JSON_ONLY = "Answer with one ```json fenced block and nothing after it."


def true_next_state_answer(item: dict, form: str) -> dict:
    """The right answer to a next-state item, in the form asked (for worked examples)."""
    if not item["applicable"]:
        return {"applicable": False}
    if form == "full":
        return {"applicable": True, "state": item["next_state"]}
    return {"applicable": True, "added": item["added"], "removed": item["removed"]}


def worked_examples(examples: list[tuple[dict, Record]], rules: str, render: str,
                    form: str) -> str:
    """In-context examples (Wang et al. 2024): whole solved next-state questions of other
    domains, each with its right answer, before the question asked."""
    import json

    parts = []
    for number, (item, record) in enumerate(examples, 1):
        answer = json.dumps(true_next_state_answer(item, form))
        parts.append(f"# Worked example {number} (domain {record.id})\n\n"
                     + next_state_prompt(item, record, rules, render, form)
                     + f"\n\nRight answer:\n```json\n{answer}\n```\n")
    return "\n".join(parts) + "\n# Your question\n\n" if parts else ""


def next_state_prompt(item: dict, record: Record, rules: str, render: str, form: str) -> str:
    if form == "full":
        shape = ('{"applicable": true, "state": ["(atom ...)", ...]} listing every fact that '
                 "holds after the action")
    else:
        shape = ('{"applicable": true, "added": ["(atom ...)", ...], "removed": '
                 '["(atom ...)", ...]} listing the facts that become true and those that '
                 "become false")
    return (_context(item, record, rules, render, "Current state")
            + f"\n## Action\n{item['action']}\n\n## Question\nIf the action can be applied in "
            f"the current state, give the next state as {shape}. If it cannot be applied, "
            f'answer {{"applicable": false}}. Write facts as PDDL atoms such as (pred obj1 '
            f"obj2). {_JSON_ONLY}")


def verify_prompt(item: dict, record: Record, rules: str, render: str) -> str:
    steps = "\n".join(f"{n}. {s}" for n, s in enumerate(item["plan"], 1)) or "(no steps)"
    return (_context(item, record, rules, render, "Current state")
            + f"\n## Plan\n{steps}\n\n## Question\nExecuted from the current state, does this "
            "plan reach the goal (every step applicable when it is taken, and the goal true "
            'after the last step)? Answer {"reaches_goal": true} or {"reaches_goal": false, '
            '"first_failing_step": N} where N is the number of the first step that cannot be '
            "applied (null when every step applies but the goal is not reached). "
            + _JSON_ONLY)


def goal_check_prompt(item: dict, record: Record, rules: str, render: str,
                      state: list[str]) -> str:
    """verify-rollout's last question: does the goal hold in the state the model predicted?"""
    return (_context({**item, "state": state}, record, rules, render,
                     "Current state (as you predicted it)")
            + '\n## Question\nDoes the goal hold in the current state? Answer {"goal_holds": '
            'true} or {"goal_holds": false}. ' + _JSON_ONLY)


def history_text(steps: list[str]) -> str:
    return "\n".join(f"{n}. {s}" for n, s in enumerate(steps, 1)) or "(none yet)"


def propose_prompt(item: dict, record: Record, rules: str, render: str, k: int) -> str:
    """The state and the actions taken to reach it (as the action-proposal papers give them),
    then the question for the ``k`` best next actions."""
    return (_context(item, record, rules, render, "Current state")
            + f"\n## Actions taken so far\n{history_text(item.get('prefix_plan') or [])}\n"
            + f"\n## Question\nPropose the {k} best next "
            + ("action" if k == 1 else "actions")
            + ' toward the goal, best first, as ground PDDL actions: {"actions": '
            '["(action obj ...)", ...]}. ' + _JSON_ONLY)


def plan_step_prompt(item: dict, record: Record, rules: str, render: str, state: list[str],
                     history: list[str], candidates: list[str] | None = None) -> str:
    view = {**item, "state": state}
    done = history_text(history)
    if candidates is None:
        ask = ("Choose the next action toward the goal")
    else:
        listed = "\n".join(f"- {c}" for c in candidates) or "- (none)"
        ask = ("Candidate actions proposed earlier:\n" + listed + "\nCheck each candidate "
               "against the rules (is it applicable, does it bring the goal closer) and "
               "choose the best one (or another action if none is right)")
    return (_context(view, record, rules, render, "Current state (as you predicted it)")
            + f"\n## Actions taken so far\n{done}\n\n## Question\n{ask}, and predict the state "
            'after it: {"done": false, "action": "(action obj ...)", "next_state": '
            '["(atom ...)", ...]}. If the goal already holds in the current state, answer '
            '{"done": true}. ' + _JSON_ONLY)


def messages(prompt: str) -> list[dict]:
    return [{"role": "system", "content": SYSTEM_MESSAGE}, {"role": "user", "content": prompt}]
