"""Offline reference models for the world-model tasks, behind the project's reference provider
(``reference/oracle``, ``reference/noisy-oracle``): they take the same client path as hosted
models (answered by the client itself, without litellm: ``model.reference``) and answer in the
same text format the prompts ask for.

The run loop passes each call's truth in the reference context (``{"task": "wm", ...}``),
computed with the simulator and the planner: the oracle answers it; the noisy reference
answers it with seeded errors (per seed, item and call), so its scores fall in between.
"""

from __future__ import annotations

import json
import random

from text2world.model.reference import register_reference_answerer

NOISE = 0.35


def _fenced(data: dict, rng: random.Random | None = None) -> str:
    text = f"```json\n{json.dumps(data)}\n```\n"
    if rng is not None and rng.random() < 0.2:
        text = "<think>\nCheck the preconditions, then apply the effects.\n</think>\n" + text
    return text


def _spurious(atoms: list[str], rng: random.Random) -> str:
    """A plausible wrong fact: a true atom with its arguments reversed, or a made-up one."""
    if atoms:
        words = atoms[rng.randrange(len(atoms))].strip("()").split()
        if len(words) > 2:
            return "(" + " ".join([words[0], *reversed(words[1:])]) + ")"
        return "(" + " ".join(words) + "-x)" if len(words) == 1 else f"(not-{words[0]} {words[1]})"
    return "(spurious-fact)"


def reference_wm_answer(model: str, context: dict, round_index: int) -> str:
    """The answer of ``model`` (oracle or noisy-oracle) to one world-model call."""
    item = context["item"]
    phase = context["phase"]
    oracle = model == "oracle"
    rng = random.Random(f"{context.get('seed', 0)}:{item['id']}:{phase}:{round_index}")
    noisy = not oracle and rng.random() < NOISE
    if phase == "next-state":
        return _next_state(item, context["form"], noisy, rng, oracle)
    if phase == "verify":
        reaches = item["valid"] != noisy
        data: dict = {"reaches_goal": reaches}
        if not reaches:
            step = item.get("first_failing_step")
            data["first_failing_step"] = step if (oracle or rng.random() < 0.7) else \
                (step or 1) + 1
        return _fenced(data, None if oracle else rng)
    if phase == "propose":
        good = context["good_action"]
        others = list(context.get("distractors", []))
        rng.shuffle(others)
        k = int(context.get("k", 10))
        if oracle or not noisy:
            ranked = [good] + others
        elif rng.random() < 0.3:
            ranked = others  # the good action is missing
        else:
            cut = rng.randint(1, 4)
            ranked = others[:cut] + [good] + others[cut:]
        return _fenced({"actions": list(dict.fromkeys(ranked))[:k]}, None if oracle else rng)
    if phase == "rollout-step":  # the true outcome of the step from the true state
        truth = context["truth"]
        if noisy and truth["applicable"] and rng.random() < 0.5:
            state = list(truth["state"]) + [_spurious(truth["state"], rng)]
            return _fenced({"applicable": True, "state": state}, rng)
        if noisy:
            return _fenced({"applicable": not truth["applicable"], "state": context["state"]},
                           rng)
        return _fenced({"applicable": True, "state": truth["state"]} if truth["applicable"]
                       else {"applicable": False}, None if oracle else rng)
    if phase == "rollout-goal":
        return _fenced({"goal_holds": context["truth"] != noisy}, None if oracle else rng)
    if phase in ("plan-step", "plan-choose", "plan-propose"):
        return _plan(context, phase, oracle, rng)
    raise ValueError(f"unknown world-model phase {phase!r}")


def _next_state(item: dict, form: str, noisy: bool, rng: random.Random, oracle: bool) -> str:
    if not item["applicable"]:
        if noisy:  # believes the illegal action works and changes nothing
            return _fenced({"applicable": True, "state": item["state"]} if form == "full"
                           else {"applicable": True, "added": [], "removed": []}, rng)
        return _fenced({"applicable": False}, None if oracle else rng)
    added, removed = list(item["added"]), list(item["removed"])
    if noisy:
        roll = rng.random()
        if roll < 0.1:
            return "The action changes the state of the world in several ways."
        if roll < 0.2:
            return _fenced({"applicable": False}, rng)
        if roll < 0.6 and (added or removed):
            target = added if (added and (not removed or rng.random() < 0.5)) else removed
            target.pop(rng.randrange(len(target)))
        else:
            added.append(_spurious(item["state"], rng))
    if form == "full":
        state = sorted((set(item["state"]) - set(removed)) | set(added))
        return _fenced({"applicable": True, "state": state}, None if oracle else rng)
    return _fenced({"applicable": True, "added": added, "removed": removed},
                   None if oracle else rng)


def _plan(context: dict, phase: str, oracle: bool, rng: random.Random) -> str:
    """The plan task: ``context["truth"]`` is the next step of an optimal plan from the true
    state (``{"done": true}`` at the goal; None once the model has left the plan)."""
    truth = context.get("truth")
    item = context["item"]
    failing = random.Random(f"{context.get('seed', 0)}:{item['id']}:plan")
    fails = not oracle and failing.random() < NOISE
    fail_at = failing.randrange(max(1, len(item["remaining_plan"])))
    wrong = fails and context.get("step", 0) == fail_at
    later = item["remaining_plan"][fail_at + 1:] or item["prefix_plan"] or ["(noop)"]
    if truth is None or (wrong and rng.random() < 0.3):
        return _fenced({"done": True})
    if phase == "plan-propose":
        good = [truth["action"]] if not truth.get("done") else []
        candidates = ([later[0]] + good) if wrong else good + later[:2]
        return _fenced({"actions": candidates or ["(noop)"]})
    if truth.get("done"):
        return _fenced({"done": True})
    if wrong:
        return _fenced({"done": False, "action": later[0], "next_state": context["state"]})
    return _fenced({"done": False, "action": truth["action"], "next_state": truth["next_state"]},
                   None if oracle else rng)


register_reference_answerer(
    "wm", lambda model, context: reference_wm_answer(model, context, int(context.get("round", 0))))
