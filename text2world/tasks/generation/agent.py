"""The agent protocol (``t2w eval --agent``): the model writes its domain with tools.

The model may call ``validate_domain``, ``plan`` (one of the item's problems, by name) and
``simulate`` (an action in a state of one of those problems) on its own domain, by function
calling through litellm, at most ``budget`` times; then it answers with its final domain, which
is scored like a final round. The tools are those ``t2w mcp`` serves (``service.tools.Tools``:
the same checks, size limits and time limits). Every call and answer is logged
in the round's ``tool_calls``.
"""

from __future__ import annotations

import json
from typing import Any

from text2world.errors import ApiError

DEFAULT_TOOL_BUDGET = 10
MAX_TOOL_ANSWER = 6000  # characters of one tool answer shown to the model (the log keeps more)
MAX_LOGGED_ANSWER = 20000

_DOMAIN = {"pddl": {"type": "string", "description": "the domain, PDDL text"}}
_PROBLEM = {"problem": {"type": "string", "description": "a problem name of this task"}}


def _function(name: str, description: str, properties: dict) -> dict:
    """An OpenAI function definition; every parameter but a state is required."""
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": properties,
                       "required": [key for key in properties if key != "state"]}}}


TOOL_SPECS: list[dict] = [
    _function("validate_domain", "Validate a PDDL domain: ok, and every error and warning with "
              "its category, line and column.", _DOMAIN),
    _function("plan", "Run the planner on one of this task's problems under a domain: the plan, "
              "or why there is none (unsolvable, timeout, the problem does not parse under the "
              "domain).", {**_DOMAIN, **_PROBLEM}),
    _function("simulate", "Apply one ground action, such as \"(stack a b)\", in a state of one "
              "of this task's problems (default: its initial state) under a domain: applicable, "
              "unsatisfied preconditions, the next state.",
              {**_DOMAIN, **_PROBLEM,
               "action": {"type": "string", "description": "a ground action, \"(name arg ...)\""},
               "state": {"type": "array", "items": {"type": "string"},
                         "description": "ground atoms such as \"(on a b)\"; default: the "
                                        "problem's initial state"}}),
]
TOOL_NAMES = tuple(spec["function"]["name"] for spec in TOOL_SPECS)


def agent_instructions(problem_names: list[str], budget: int) -> str:
    problems = ", ".join(problem_names) if problem_names else "(this task has no problems)"
    return (f"You may check your domain with tools before answering, at most {budget} tool "
            f"calls in all: validate_domain, plan and simulate (problems of this task: "
            f"{problems}). When you are done, answer with the final domain in a ```pddl block, "
            "without calling a tool.")


async def call_tool(tools: Any, name: str, arguments_text: str, problems: dict[str, str]) -> dict:
    """One tool call: ``{"ok": True, "result": ...}`` or ``{"ok": False, "error": text}``
    (bad arguments and the tools' own errors are answers the model can act on)."""
    try:
        arguments = json.loads(arguments_text or "{}")
        if not isinstance(arguments, dict):
            raise ValueError("not an object")
    except ValueError as err:
        return {"ok": False, "error": f"invalid_arguments: the arguments are not a JSON object "
                                      f"({err})"}
    if name not in TOOL_NAMES:
        return {"ok": False, "error": f"unknown_tool: {name!r}; tools: {', '.join(TOOL_NAMES)}"}
    pddl = arguments.get("pddl")
    if not isinstance(pddl, str):
        return {"ok": False, "error": "invalid_arguments: 'pddl' (the domain text) is required"}
    try:
        if name == "validate_domain":
            return {"ok": True, "result": await tools.validate_domain(pddl=pddl)}
        problem = problems.get(str(arguments.get("problem")))
        if problem is None:
            return {"ok": False, "error": f"unknown_problem: {arguments.get('problem')!r}; "
                                          f"problems: {', '.join(problems) or '(none)'}"}
        if name == "plan":
            return {"ok": True, "result": await tools.plan(pddl, problem)}
        action, state = arguments.get("action"), arguments.get("state")
        if not isinstance(action, str) or not (state is None or (
                isinstance(state, list) and all(isinstance(a, str) for a in state))):
            return {"ok": False, "error": "invalid_arguments: 'action' must be text and "
                                          "'state' a list of atoms"}
        return {"ok": True, "result": await tools.simulate(pddl, problem, action, state)}
    except ApiError as err:
        return {"ok": False, "error": f"{err.code}: {err.message}"}


def _shown(answer: dict, limit: int) -> str:
    text = json.dumps(answer.get("result") if answer["ok"] else {"error": answer["error"]},
                      ensure_ascii=False)
    return text if len(text) <= limit else text[:limit] + " ... (cut)"


async def run_agent(context: Any, tools: Any, messages: list[dict], problems: tuple,
                    budget: int, reference: dict) -> dict:
    """The agent's episode: the final completion's fields (summed over its turns) and the
    log of its tool calls."""
    problem_texts = {name: text for name, text in problems}
    transcript = [*messages[:-1], {**messages[-1], "content": messages[-1]["content"] + "\n\n"
                                   + agent_instructions(list(problem_texts), budget)}]
    log: list[dict] = []
    totals = {"prompt_tokens": 0, "completion_tokens": 0, "cost": 0.0, "latency": 0.0,
              "attempts": 0}
    cost_known, cached, turn = True, True, 0
    while True:
        offer = TOOL_SPECS if len(log) < budget else None
        completion = await context.complete(
            transcript, turn, {**reference, "agent": True, "tools_offered": offer is not None},
            tools=offer)
        for key in ("prompt_tokens", "completion_tokens", "attempts"):
            totals[key] += getattr(completion, key)
        totals["latency"] += completion.latency
        cost_known = cost_known and completion.cost is not None
        totals["cost"] += completion.cost or 0.0
        cached = cached and completion.cached
        calls = completion.tool_calls or []
        if not calls or offer is None:
            break
        transcript.append({"role": "assistant", "content": completion.content or None,
                           "tool_calls": [{"id": c["id"], "type": "function",
                                           "function": {"name": c["name"],
                                                        "arguments": c["arguments"]}}
                                          for c in calls]})
        for call in calls:
            if len(log) < budget:
                answer = await call_tool(tools, call["name"], call["arguments"], problem_texts)
            else:
                answer = {"ok": False, "error": "tool_budget_spent: answer with your final domain"}
            log.append({"turn": turn, "name": call["name"], "arguments": call["arguments"],
                        "ok": answer["ok"], "answer": _shown(answer, MAX_LOGGED_ANSWER)})
            transcript.append({"role": "tool", "tool_call_id": call["id"],
                               "content": _shown(answer, MAX_TOOL_ANSWER)})
        turn += 1
    return {"completion": completion, "tool_calls": log, "turns": turn + 1,
            "transcript": transcript, "cached": cached,
            "cost": totals["cost"] if cost_known else None,
            **{k: totals[k] for k in ("prompt_tokens", "completion_tokens", "attempts")},
            "latency": round(totals["latency"], 4)}
