"""Reading the models' answers: fenced JSON first, then a bare JSON object, then atom lists
and yes/no phrases. An answer none of these can read is a format error (``AnswerError``),
scored as wrong and recorded apart, as the world-model papers report.

Work is linear in the answer's length before any JSON parsing, and answers are cut at
``MAX_ANSWER_CHARS``.
"""

from __future__ import annotations

from text2world.errors import Text2WorldError

import json
import re

from text2world.pddl.extract import strip_reasoning

MAX_ANSWER_CHARS = 200_000
MAX_JSON_CANDIDATES = 32
_FENCE = re.compile(r"```[ \t]*([A-Za-z]*)[^\n`]*\r?\n(.*?)```", re.DOTALL)
_ATOM = re.compile(r"\(\s*([A-Za-z][\w-]*)((?:\s+[\w-]+)*)\s*\)")
_CALL = re.compile(r"^\s*([A-Za-z][\w-]*)\s*\(\s*([\w\s,-]*)\)\s*$")


class AnswerError(Text2WorldError, ValueError):
    """The answer cannot be read in the task's format; the message says what was missing."""


def clean(text: str | None) -> str:
    return strip_reasoning((text or "")[:MAX_ANSWER_CHARS])


def json_object(text: str) -> dict | None:
    """The last JSON object of the answer: fenced blocks first (last to first), then the last
    balanced ``{...}`` outside fences."""
    for _, body in reversed(_FENCE.findall(text)):
        try:
            value = json.loads(body.strip())
        except ValueError:
            continue
        if isinstance(value, dict):
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
        try:
            value = json.loads(text[start:end + 1])
            if isinstance(value, dict):
                return value
        except ValueError:
            pass
        end = text.rfind("}", 0, start)
    return None


def parse_atom(value) -> tuple[str, ...] | None:
    """``(on a b)``, ``on(a, b)`` or ``on a b`` as a ground atom, lower-cased; None if not."""
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return tuple(v.strip().lower() for v in value)
    if not isinstance(value, str):
        return None
    text = value.strip()
    match = _ATOM.fullmatch(text)
    if match:
        return (match.group(1).lower(), *match.group(2).lower().split())
    match = _CALL.match(text)
    if match:
        args = [a for a in re.split(r"[\s,]+", match.group(2).lower()) if a]
        return (match.group(1).lower(), *args)
    words = text.lower().split()
    if words and all(re.fullmatch(r"[\w-]+", w) for w in words):
        return tuple(words)
    return None


def atom_list(value, what: str) -> set[tuple[str, ...]]:
    if not isinstance(value, list):
        raise AnswerError(f"{what!r} must be a list of atoms, not {type(value).__name__}")
    found = set()
    for entry in value:
        atom = parse_atom(entry)
        if atom is None:
            raise AnswerError(f"{what!r}: {str(entry)[:60]!r} is not an atom")
        found.add(atom)
    return found


def atoms_in(text: str) -> list[tuple[str, ...]]:
    return [(m.group(1).lower(), *m.group(2).lower().split()) for m in _ATOM.finditer(text)]


def _flag(data: dict, *names: str) -> bool | None:
    for name in names:
        value = data.get(name)
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.strip().lower() in ("true", "yes", "false", "no"):
            return value.strip().lower() in ("true", "yes")
    return None


_NOT_APPLICABLE = re.compile(r"\b(not applicable|inapplicable|cannot be applied|can't be "
                             r"applied|is not possible)\b", re.IGNORECASE)


def parse_next_state(response: str, form: str) -> dict:
    """``{"applicable": bool, "state": set | None, "added": set, "removed": set}``."""
    text = clean(response)
    data = json_object(text)
    if data is None:
        if _NOT_APPLICABLE.search(text) and not atoms_in(text):
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
    return {"applicable": True, "state": None, "added": atom_list(data.get("added", []), "added"),
            "removed": atom_list(data.get("removed", []), "removed")}


def _sections(text: str, form: str) -> dict:
    """Atom lists under ``added:`` / ``removed:`` (diff) or after ``state:`` (full)."""
    lowered = text.lower()
    if form == "diff":
        added_at, removed_at = lowered.rfind("added"), lowered.rfind("removed")
        if added_at == -1 and removed_at == -1:
            raise AnswerError("no JSON object and no 'added'/'removed' lists in the answer")
        cuts = sorted(p for p in (added_at, removed_at) if p != -1) + [len(text)]
        parts = {lowered[cuts[i]:cuts[i] + 5]: set(atoms_in(text[cuts[i]:cuts[i + 1]]))
                 for i in range(len(cuts) - 1)}
        return {"applicable": True, "state": None, "added": parts.get("added", set()),
                "removed": parts.get("remov", set())}
    start = lowered.rfind("state")
    found = atoms_in(text[start:] if start != -1 else text)
    if not found:
        raise AnswerError("no JSON object and no atoms in the answer")
    return {"applicable": True, "state": set(found), "added": set(), "removed": set()}


def parse_verify(response: str) -> dict:
    """``{"reaches_goal": bool, "first_failing_step": int | None}``."""
    text = clean(response)
    data = json_object(text)
    if data is None:
        match = re.search(r"reaches[_ ]goal\W+(true|false|yes|no)", text, re.IGNORECASE)
        if not match:
            raise AnswerError('no JSON object and no "reaches_goal" answer')
        data = {"reaches_goal": match.group(1).lower() in ("true", "yes")}
        step = re.search(r"first[_ ]failing[_ ]step\W+(\d+)", text, re.IGNORECASE)
        data["first_failing_step"] = int(step.group(1)) if step else None
    reaches = _flag(data, "reaches_goal", "valid", "success")
    if reaches is None:
        raise AnswerError('the JSON answer has no true/false "reaches_goal"')
    step = data.get("first_failing_step")
    if isinstance(step, str) and step.strip().isdigit():
        step = int(step)
    if not isinstance(step, int) or isinstance(step, bool):
        step = None
    return {"reaches_goal": reaches, "first_failing_step": None if reaches else step}


def _action_text(value) -> str | None:
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
        actions = [_action_text(v) for v in values]
        if any(a is None for a in actions):
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
    state = data.get("next_state")
    return {"done": False, "action": action,
            "next_state": atom_list(state, "next_state") if state is not None else None}


def parse_plan_step_done(response: str) -> bool:
    """Whether an answer declares the goal reached (``{"done": true}``)."""
    data = json_object(clean(response))
    return data is not None and _flag(data, "done", "goal_reached") is True
