"""Prose from predicate glosses: one fact, one predicate line, one action, a whole description.

The one renderer of glosses into English: the descriptions of generated worlds (abstract and
concrete, in the store's format: General, Types, Predicates, Actions) are written with it, and
so can a problem's description (``render_facts``/``render_ground``: the facts of an initial
state or a goal). The store's own domains keep their glosses in their descriptions' predicate
lines (``render_predicate``'s format), read back by ``glosses_from_description``.

A gloss is a template over a predicate's variables (``"{d} is at {l}"``); a fact fills it with
objects, a literal of an action with ``?``-variables.
"""

from __future__ import annotations

import re
from typing import Iterable, Mapping, Sequence

from text2world.worlds.plan import ActionSpec, Literal, PredicateSpec, When, WorldPlan

__all__ = [
    "fill", "sentence", "render_fact", "render_facts", "render_predicate", "action_signature",
    "render_action", "render_description",
]

_SLOT = re.compile(r"\{(\w+)\}")


def fill(template: str, binding: Mapping[str, str]) -> str:
    """``template`` with each ``{name}`` replaced by ``binding[name]``."""
    return _SLOT.sub(lambda m: binding[m.group(1)], template)


def sentence(text: str) -> str:
    """A sentence: first letter upper case (a leading ``?x`` stays), a full stop at the end."""
    text = text.strip()
    if text and text[0].isalpha():
        text = text[0].upper() + text[1:]
    return text if text.endswith(".") else text + "."


def join_clauses(clauses: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b, and c``."""
    clauses = list(clauses)
    if len(clauses) <= 2:
        return " and ".join(clauses)
    return ", ".join(clauses[:-1]) + ", and " + clauses[-1]


def render_fact(predicate: PredicateSpec, args: Sequence[str], positive: bool = True,
                variables: bool = False) -> str:
    """One fact (objects) or literal (``variables``: each argument written as ``?arg``)."""
    names = [f"?{a}" if variables else a for a in args]
    binding = dict(zip(predicate.variables, names))
    return fill(predicate.gloss if positive else predicate.negated, binding)


def render_literal(plan: WorldPlan, lit: Literal, variables: bool = True) -> str:
    return render_fact(plan.predicate(lit.predicate), lit.args, lit.positive, variables)


def render_facts(plan: WorldPlan, facts: Iterable[Literal]) -> str:
    """Ground facts as one sentence (a problem's initial state or goal)."""
    return render_ground({p.name: p for p in plan.predicates}, facts)


def render_ground(predicates: Mapping[str, PredicateSpec], facts: Iterable[Literal]) -> str:
    """Ground facts as one sentence, each by its predicate's gloss in ``predicates``."""
    return sentence(join_clauses([render_fact(predicates[f.predicate], f.args, f.positive)
                                  for f in facts]))


_PREDICATE_LINE = re.compile(r"^\s*-\s*\*\*\(\s*([^\s()]+)([^)]*)\)\*\*\s*:\s*(.+?)\s*$",
                             re.MULTILINE)


def _signature_params(text: str) -> list[tuple[str, str]]:
    """``?a ?b - t ?c`` as [(a, t), (b, t), (c, object)]."""
    params: list[tuple[str, str]] = []
    pending: list[str] = []
    tokens = text.split()
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token == "-" and index + 1 < len(tokens):
            params += [(v, tokens[index + 1].lower()) for v in pending]
            pending, index = [], index + 2
            continue
        if token.startswith("?"):
            pending.append(token[1:].lower())
        index += 1
    return params + [(v, "object") for v in pending]


def gloss_spec(name: str, params: Sequence[tuple[str, str]], text: str) -> PredicateSpec:
    """A predicate's gloss from a description's sentence over its ``?``-variables
    (``"Block ?top sits on block ?below."``); a variable the sentence leaves out is named
    after it, so every argument of a fact is rendered."""
    slots = {v: re.sub(r"\W", "_", v) for v, _ in params}
    gloss = text.strip().rstrip(".")
    for variable in sorted(slots, key=len, reverse=True):
        gloss = re.sub(r"\?" + re.escape(variable) + r"(?![\w-])",
                       "{" + slots[variable] + "}", gloss, flags=re.IGNORECASE)
    missing = [v for v in slots if "{" + slots[v] + "}" not in gloss]
    if missing:
        gloss += " (" + ", ".join(f"{v}: {{{slots[v]}}}" for v in missing) + ")"
    if gloss[:1].isupper() and not gloss[1:2].isupper():
        gloss = gloss[0].lower() + gloss[1:]
    return PredicateSpec(name.lower(), tuple((slots[v], t) for v, t in params), gloss,
                         "it is not the case that " + gloss)


def glosses_from_description(text: str) -> dict[str, PredicateSpec]:
    """The predicate glosses of a description in the store's format: each predicate line
    (``- **(on ?top - block ?below - block)**: Block ?top sits on block ?below.``) as a
    ``PredicateSpec`` (the first line of a name wins)."""
    specs: dict[str, PredicateSpec] = {}
    for match in _PREDICATE_LINE.finditer(text or ""):
        name = match.group(1).lower()
        if name not in specs:
            specs[name] = gloss_spec(name, _signature_params(match.group(2)), match.group(3))
    return specs


def predicate_signature(predicate: PredicateSpec) -> str:
    return "(" + " ".join([predicate.name, *(f"?{v} - {t}" for v, t in predicate.params)]) + ")"


def render_predicate(predicate: PredicateSpec) -> str:
    """The description's line of a predicate: its signature and its gloss over ``?``-names."""
    gloss = render_fact(predicate, predicate.variables, variables=True)
    return f"- **{predicate_signature(predicate)}**: {sentence(gloss)}"


def action_signature(action: ActionSpec) -> str:
    return " ".join([action.name, *(f"<?{v}>" for v, _ in action.params)])


def _effect_clause(plan: WorldPlan, lit: Literal) -> str:
    """An added fact by its gloss; a deleted one by its denial ``... not ... any more``; when
    the gloss itself says ``not`` (``has not started``), by its denial (``has started``); else
    (``is busy`` for ``(idle ?m)``: a word of its own) as no longer the case."""
    if lit.positive:
        return render_literal(plan, lit)
    denied = render_literal(plan, lit)
    if " not " in f" {denied} ":
        return f"{denied} any more"
    positive = render_literal(plan, Literal(lit.predicate, lit.args))
    if " not " in f" {positive} ":  # (pending ?t) "has not started": deleted, "has started"
        return denied
    return f"it is no longer the case that {positive}"


def _when_clause(plan: WorldPlan, when: When) -> str:
    condition = join_clauses([render_literal(plan, c) for c in when.condition])
    effects = join_clauses([_effect_clause(plan, e) for e in when.effects])
    return f"when {condition}, {effects}"


def render_action(plan: WorldPlan, action: ActionSpec, concrete: bool) -> str:
    """The description's bullet of an action: its purpose; ``concrete`` adds its
    preconditions and effects, each literal by its gloss."""
    purpose = sentence(fill(action.purpose, {v: f"?{v}" for v, _ in action.params}))
    lines = [f"- **{action_signature(action)}**: {purpose}"]
    if concrete:
        pre = [render_literal(plan, lit) for lit in action.pre]
        lines.append(f"  - Preconditions: {sentence(join_clauses(pre))}")
        added = [_effect_clause(plan, e) for e in action.effects if e.positive]
        removed = [_effect_clause(plan, e) for e in action.effects if not e.positive]
        parts = [join_clauses(added)] if added else []
        if removed:
            parts.append(join_clauses(removed))
        parts += [_when_clause(plan, w) for w in action.when]
        if plan.costs and action.cost is not None:
            parts.append(f"the total cost grows by {action.cost}")
        lines.append(f"  - Effects: {sentence('; '.join(parts))}")
    return "\n".join(lines)


def render_description(plan: WorldPlan, kind: str) -> str:
    """The abstract or concrete description of a world, in the store's format."""
    concrete = kind == "concrete"
    general = plan.general
    if concrete and plan.rules:
        general = general + " " + " ".join(sentence(r) for r in plan.rules)
    parts = ["### General", general, "", "### Types"]
    parts += [f"- **{t.name}**: {sentence(t.gloss)}" for t in plan.types]
    parts += ["", "### Predicates"]
    parts += [render_predicate(p) for p in plan.predicates]
    parts += ["", "### Actions"]
    parts += [render_action(plan, a, concrete) for a in plan.actions]
    return "\n".join(parts) + "\n"
