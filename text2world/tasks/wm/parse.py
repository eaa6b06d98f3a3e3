"""Reading the models' answers: fenced JSON first, then a bare JSON object, then atom lists
and yes/no phrases. An answer none of these can read is a format error (``AnswerError``),
scored as wrong and recorded apart, as the world-model papers report.

Work is linear in the answer's length before any JSON parsing, and answers are cut at
``MAX_ANSWER_CHARS``.
"""

from __future__ import annotations

import ast
import json
import re

from text2world.errors import Text2WorldError
from text2world.pddl.extract import strip_reasoning
from text2world.simulation.problem import parse_atom

MAX_ANSWER_CHARS = 200_000
MAX_JSON_CANDIDATES = 32
_FENCE = re.compile(r"```[ \t]*([A-Za-z]*)[^\n`]*\r?\n(.*?)```", re.DOTALL)
# an atom, or a negated one ``(not (at f t))``: a fact that becomes (or is) false
_SIGNED = re.compile(r"\(\s*not\s*\(\s*([A-Za-z][\w-]*)((?:\s+[\w-]+)*)\s*\)\s*\)"
                     r"|\(\s*([A-Za-z][\w-]*)((?:\s+[\w-]+)*)\s*\)", re.IGNORECASE)


class AnswerError(Text2WorldError, ValueError):
    """The answer cannot be read in the task's format; the message says what was missing."""


def clean(text: str | None) -> str:
    return strip_reasoning((text or "")[:MAX_ANSWER_CHARS])


def _load_object(text: str) -> dict | None:
    """``text`` as a JSON object, or as a Python dict literal (``{'done': False}``, as models
    trained on Python often write); None when it is neither."""
    try:
        value = json.loads(text)
    except ValueError:
        try:  # literals only: never evaluates code; bounded by MAX_ANSWER_CHARS
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return value if isinstance(value, dict) else None


def json_object(text: str) -> dict | None:
    """The last JSON object of the answer: fenced blocks first (last to first), then the last
    balanced ``{...}`` outside fences. Python dict syntax is read too."""
    for _, body in reversed(_FENCE.findall(text)):
        value = _load_object(body.strip())
        if value is not None:
            return value
    end = text.rfind("}")
    attempts = 0
    while end != -1 and attempts < MAX_JSON_CANDIDATES:  # bounded: each try is linear
        attempts += 1
        depth, start = 0, -1
        for index in range(end, -1, -1):  # one backward scan for this closing brace
            char = text[index]
            if char == "}":
                depth += 1
            elif char == "{":
                depth -= 1
                if depth == 0:
                    start = index
                    break
        if start == -1:
            return None
        value = _load_object(text[start:end + 1])
        if value is not None:
            return value
        end = text.rfind("}", 0, start)
    return None


def negated_atom(value) -> tuple[str, ...] | None:
    """``(not (at f t))`` as the atom it negates; None for anything else."""
    if not isinstance(value, str):
        return None
    match = _SIGNED.fullmatch(value.strip())
    if match is None or match.group(1) is None:
        return None
    return (match.group(1).lower(), *match.group(2).lower().split())


def signed_atom_list(value, what: str) -> tuple[set, set]:
    """(atoms, negated atoms) of a JSON list; anything else in it is a format error."""
    if not isinstance(value, list):
        raise AnswerError(f"{what!r} must be a list of atoms, not {type(value).__name__}")
    found, negated = set(), set()
    for entry in value:
        atom = negated_atom(entry)
        if atom is not None:
            negated.add(atom)
            continue
        atom = parse_atom(entry)
        if atom is None:
            raise AnswerError(f"{what!r}: {str(entry)[:60]!r} is not an atom")
        found.add(atom)
    return found, negated


def atom_list(value, what: str) -> set[tuple[str, ...]]:
    """The atoms of a JSON list of facts that hold; ``(not ...)`` entries state facts that do
    not hold, which a closed-world state leaves out anyway."""
    return signed_atom_list(value, what)[0]


def signed_atoms_in(text: str) -> tuple[list, list]:
    """(atoms, negated atoms) written in ``text``; a negated atom's inner atom is not counted
    as an atom."""
    found, negated = [], []
    for match in _SIGNED.finditer(text):
        if match.group(1) is not None:
            negated.append((match.group(1).lower(), *match.group(2).lower().split()))
        else:
            found.append((match.group(3).lower(), *match.group(4).lower().split()))
    return found, negated


def atoms_in(text: str) -> list[tuple[str, ...]]:
    return signed_atoms_in(text)[0]


def _flag(data: dict, *names: str) -> bool | None:
    for name in names:
        value = data.get(name)
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "false", "no"):
            return value.strip().lower() in ("true", "yes")
    return None


_NOT_APPLICABLE = re.compile(r"\b(not applicable|inapplicable|cannot be applied|can't be "
                             r"applied|cannot be executed|can't be executed|is not possible)\b",
                             re.IGNORECASE)
# words that introduce a predicted state or change list in prose
_STATE_SECTION = re.compile(r"\b(added|removed|next[ _]state|new state|resulting state|"
                            r"state after|state:)", re.IGNORECASE)


def said_not_applicable(text: str) -> bool:
    """Prose that calls the action inapplicable and predicts no state ("cannot be applied
    because (x) does not hold"): the atoms it names are its reasons, not a next state."""
    return bool(_NOT_APPLICABLE.search(text)) and not _STATE_SECTION.search(text)


def parse_next_state(response: str, form: str) -> dict:
    """``{"applicable": bool, "state": set | None, "added": set, "removed": set}``."""
    text = clean(response)
    data = json_object(text)
    if data is None:
        if said_not_applicable(text):
            return {"applicable": False, "state": None, "added": set(), "removed": set()}
        return _sections(text, form)
    applicable = _flag(data, "applicable", "is_applicable")
    if applicable is False:
        return {"applicable": False, "state": None, "added": set(), "removed": set()}
    if form == "full":
        key = next((k for k in ("state", "next_state", "facts") if k in data), None)
        if key is None:
            raise AnswerError('the JSON answer has no "state" list')
        return {"applicable": True, "state": atom_list(data[key], key), "added": set(),
                "removed": set()}
    if "added" not in data and "removed" not in data:
        raise AnswerError('the JSON answer has neither "added" nor "removed"')
    added, negated_added = signed_atom_list(data.get("added", []), "added")
    removed, negated_removed = signed_atom_list(data.get("removed", []), "removed")
    # "(not X)" in either list says X becomes false
    return {"applicable": True, "state": None, "added": added,
            "removed": removed | negated_added | negated_removed}


def _sections(text: str, form: str) -> dict:
    """Atom lists under ``added:`` / ``removed:`` (diff) or after ``state:`` (full)."""
    lowered = text.lower()
    if form == "diff":
        added_at, removed_at = lowered.rfind("added"), lowered.rfind("removed")
        if added_at == -1 and removed_at == -1:
            raise AnswerError("no JSON object and no 'added'/'removed' lists in the answer")
        cuts = sorted(p for p in (added_at, removed_at) if p != -1) + [len(text)]
        parts = {lowered[cuts[i]:cuts[i] + 5]: signed_atoms_in(text[cuts[i]:cuts[i + 1]])
                 for i in range(len(cuts) - 1)}
        added, negated_added = parts.get("added", ([], []))
        removed, negated_removed = parts.get("remov", ([], []))
        return {"applicable": True, "state": None, "added": set(added),
                "removed": set(removed) | set(negated_added) | set(negated_removed)}
    start = lowered.rfind("state")
    found = atoms_in(text[start:] if start != -1 else text)
    if not found:
        raise AnswerError("no JSON object and no atoms in the answer")
    return {"applicable": True, "state": set(found), "added": set(), "removed": set()}


def _flag_answer(text: str, label: str, keys: tuple[str, ...]) -> tuple[bool, dict | None]:
    """A true/false answer under one of ``keys`` of the JSON object, else on a ``label: yes``
    line (then no object: None)."""
    data = json_object(text)
    if data is None:
        match = re.search(label + r"\W+(true|false|yes|no)", text, re.IGNORECASE)
        if not match:
            raise AnswerError(f'no JSON object and no "{keys[0]}" answer')
        return match.group(1).lower() in ("true", "yes"), None
    value = _flag(data, *keys)
    if value is None:
        raise AnswerError(f'the JSON answer has no true/false "{keys[0]}"')
    return value, data


def parse_verify(response: str) -> dict:
    """``{"reaches_goal": bool, "first_failing_step": int | None}``."""
    text = clean(response)
    reaches, data = _flag_answer(text, r"reaches[_ ]goal", ("reaches_goal", "valid", "success"))
    if data is None:
        found = re.search(r"first[_ ]failing[_ ]step\W+(\d+)", text, re.IGNORECASE)
        step = int(found.group(1)) if found else None
    else:
        step = data.get("first_failing_step")
    if isinstance(step, str) and step.strip().isdigit():
        step = int(step)
    if not isinstance(step, int) or isinstance(step, bool):
        step = None
    return {"reaches_goal": reaches, "first_failing_step": None if reaches else step}


_ACTION_KEYS = ("action", "name", "step", "move")


def parse_goal_check(response: str) -> bool:
    """``{"goal_holds": bool}`` (or a "goal holds: yes/no" line)."""
    return _flag_answer(clean(response), r"goal[_ ]holds",
                        ("goal_holds", "holds", "reaches_goal", "goal_reached"))[0]


def _action_text(value) -> str | None:
    """A ground action from a string, a list, or an object naming it under ``action`` (as in
    ``{"action": "(pick a)", "reason": "..."}``)."""
    if isinstance(value, dict):
        value = next((value[k] for k in _ACTION_KEYS if k in value), None)
    atom = parse_atom(value)
    return "(" + " ".join(atom) + ")" if atom else None


def parse_actions(response: str) -> list[str]:
    """Ranked ground actions as ``(name arg ...)`` strings, duplicates dropped."""
    text = clean(response)
    data = json_object(text)
    if data is not None:
        values = data.get("actions", data.get("proposals"))
        if not isinstance(values, list):
            raise AnswerError('the JSON answer has no "actions" list')
        found = [_action_text(v) for v in values]
        actions = [a for a in found if a is not None]
        if len(actions) != len(found):
            raise AnswerError('"actions" holds an entry that is not a ground action')
    else:
        actions = ["(" + " ".join(a) + ")" for a in atoms_in(text)]
        if not actions:
            raise AnswerError("no JSON object and no ground actions in the answer")
    return list(dict.fromkeys(actions))


def parse_plan_step(response: str) -> dict:
    """``{"done": bool, "action": str | None, "next_state": set | None}``."""
    text = clean(response)
    data = json_object(text)
    if data is None:
        raise AnswerError("no JSON object in the answer")
    if _flag(data, "done", "goal_reached") is True:
        return {"done": True, "action": None, "next_state": None}
    action = _action_text(data.get("action"))
    if action is None:
        raise AnswerError('the JSON answer has no ground "action" (and is not "done")')
    # the predicted state is asked for: a missing one is a format error, never the old state
    key = next((k for k in ("next_state", "state", "next state", "nextState") if k in data),
               None)
    if key is None:
        raise AnswerError('the JSON answer has no "next_state" list')
    return {"done": False, "action": action, "next_state": atom_list(data[key], key)}


def parse_plan_step_done(response: str) -> bool:
    """Whether an answer declares the goal reached (``{"done": true}``)."""
    data = json_object(clean(response))
    return data is not None and _flag(data, "done", "goal_reached") is True
