"""Feedback protocols of the generation loop (``t2w eval --feedback KIND``): what the model is
told between rounds.

* ``syntax`` (the paper's EC_k): the validator's errors; the loop stops once the domain
  validates.
* ``plans``: syntax, then, for a domain that validates, the planner on the item's problems under
  the model's own domain: the problems it cannot parse, makes unsolvable or times out on, and
  the plan it finds for each other one. Nothing of the gold is revealed: a user could run the
  same planner on the same problems.
* ``behavior``: syntax, then an *oracle* tester's report from the semantic comparison with the
  gold: the first counterexamples (the gold's plan step the domain rejects, the domain's plan
  that fails in the gold, an action's precondition or effect that differs), at most
  ``MAX_COUNTEREXAMPLES`` a round. It reveals the gold's behaviour: an upper bound on what any
  testing agent could report.

A report with nothing in it (``findings`` empty) ends the loop, as does a domain the model
resubmits unchanged after its report (it stands by it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from text2world.tasks.generation.prompts import EvalError
from text2world.tasks.generation.records import generation_config

if TYPE_CHECKING:
    from text2world.engine.run_store import RunConfig
    from text2world.tasks.generation.records import GenerationRound

PROTOCOLS = ("syntax", "plans", "behavior")
ORACLE_PROTOCOLS = frozenset({"behavior"})  # they reveal the gold's behaviour
MAX_COUNTEREXAMPLES = 3  # counterexamples of one behaviour report
MAX_PLAN_STEPS = 30  # steps of one plan quoted in a plans report
PLAN_FEEDBACK_TIMEOUT = 10.0  # seconds of Fast Downward per problem (the MCP tool's bound is 20)

ORACLE_LABEL = ("ORACLE FEEDBACK (from a comparison with the reference domain: it reveals the "
                "reference's behaviour)")


def check_protocol(kind: str) -> str:
    if kind not in PROTOCOLS:
        raise EvalError(f"unknown feedback kind {kind!r}; choose one of {', '.join(PROTOCOLS)}")
    return kind


def protocol_name(feedback: str, agent: bool) -> str:
    """The protocol as run ids, titles and tables name it."""
    return "agent" if agent else feedback


def config_protocol(config: RunConfig) -> str:
    """The protocol of a run config; runs made before protocols existed are ``syntax``."""
    return protocol_name(str(config.get("feedback") or "syntax"), bool(config.get("agent")))


def is_oracle(protocol: str) -> bool:
    return protocol in ORACLE_PROTOCOLS


def protocol_label(config: RunConfig) -> str:
    """The protocol as the viewer and comparisons label it: oracle feedback said, the agent's budget."""
    protocol, own = config_protocol(config), generation_config(config)
    if is_oracle(protocol) or own.get("oracle_feedback"):
        return f"{protocol} (oracle feedback)"
    if protocol == "agent" and own.get("tool_budget") is not None:
        return f"agent ({own['tool_budget']} tool calls)"
    return protocol


# --------------------------------------------------------------------------------------------
# plans: the planner under the model's own domain


async def plans_report(tools: Any, domain: str, problems: tuple) -> dict:
    """The planner on each of the item's problems under ``domain`` (through ``tools``: the
    service's ``plan``, as ``t2w mcp`` serves it, same checks and limits). ``findings``: one per
    problem."""
    from text2world.errors import ApiError

    findings = []
    for name, problem in problems:
        try:
            answer = await tools.plan(domain, problem, PLAN_FEEDBACK_TIMEOUT)
        except ApiError as err:
            findings.append({"problem": name, "status": err.code, "solved": False,
                             "message": err.message[:400]})
            continue
        finding = {"problem": name, "status": answer["status"], "solved": answer["solved"],
                   "message": (answer.get("message") or "")[:400]}
        if answer["solved"]:
            finding["plan"] = list(answer["plan"])
        findings.append(finding)
    return {"kind": "plans", "oracle": False, "findings": findings,
            "open": sum(1 for f in findings if not f["solved"]),
            "text": plans_text(findings)}


def plans_text(findings: list[dict]) -> str:
    lines = ["Your domain validates. The planner, run on this domain's problems under your "
             "domain, reports:"]
    for finding in findings:
        name = finding["problem"]
        if finding["solved"]:
            plan = finding.get("plan") or []
            shown = " ".join(plan[:MAX_PLAN_STEPS]) + (" ..." if len(plan) > MAX_PLAN_STEPS else "")
            lines.append(f"- problem {name}: solved in {len(plan)} step(s): {shown or '(empty plan)'}")
        elif finding["status"] == "Timeout":
            lines.append(f"- problem {name}: no plan within {PLAN_FEEDBACK_TIMEOUT:g} s (timeout)")
        elif finding["status"] in ("invalid_problem", "unsupported", "invalid_domain"):
            lines.append(f"- problem {name}: cannot be read under your domain: {finding['message']}")
        else:
            lines.append(f"- problem {name}: {finding['status']} (no plan exists under your "
                         f"domain){': ' + finding['message'] if finding['message'] else ''}")
    lines.append("If a plan does not do what the description asks, or a problem should be "
                 "solvable, fix the domain; otherwise answer the same domain again.")
    return "\n".join(lines)


# --------------------------------------------------------------------------------------------
# behavior: the oracle tester


def behavior_report(semantic: dict | None) -> dict:
    """The oracle's report from a round's semantic comparison (``semantic_summary``): nothing
    to report when the domain behaves as the gold on its problems."""
    findings: list[dict] = []
    if semantic is None or semantic.get("verdict") == "not_simulated":
        reason = (semantic or {}).get("reason") or "the domain could not be simulated"
        findings.append({"kind": "not-simulated", "message": reason[:400]})
    elif semantic.get("verdict") != "equivalent":
        for problem in semantic.get("problems") or []:
            if problem.get("gold_plan_accepted") is False:
                findings.append({"kind": "reference-plan-rejected", "problem": problem["name"],
                                 "message": f"on problem {problem['name']}, a correct plan fails "
                                            f"in your domain at {problem['gold_plan_reason']}"})
            if problem.get("plan_valid") is False:
                findings.append({"kind": "own-plan-wrong", "problem": problem["name"],
                                 "message": f"on problem {problem['name']}, your domain's "
                                            f"behaviour is wrong: {problem['plan_reason']}"})
        for diagnosis in semantic.get("diagnoses") or []:
            findings.append({"kind": diagnosis.get("kind"), "action": diagnosis.get("action"),
                             "message": diagnosis.get("message", "")})
        if not findings:
            findings.append({"kind": semantic.get("verdict") or "different",
                             "message": semantic.get("reason") or
                             "the domain does not behave as the reference on its problems"})
    # the shortest first: the simplest counterexamples to act on
    findings.sort(key=lambda f: len(f["message"]))
    findings = findings[:MAX_COUNTEREXAMPLES]
    return {"kind": "behavior", "oracle": True, "findings": findings, "open": len(findings),
            "text": behavior_text(findings)}


def behavior_text(findings: list[dict]) -> str:
    lines = [ORACLE_LABEL + ". Your domain validates, but a tester found behaviour that "
             "differs from the intended one:"]
    lines += [f"- {finding['message']}" for finding in findings]
    lines.append("Fix the domain so that it behaves as described.")
    return "\n".join(lines)


def loop_ends(report: dict, domain: str, previous: GenerationRound | None) -> bool:
    """Whether a valid round ends the loop: nothing to report, or the model resubmitted the
    domain it was given a report on."""
    if report["kind"] == "plans":
        nothing = not report["findings"]
    else:
        nothing = report["open"] == 0
    resubmitted = (previous is not None and previous.get("feedback") is not None
                   and previous["domain"].strip() == domain.strip())
    return nothing or resubmitted
