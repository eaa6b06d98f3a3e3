"""``canonical`` mode: what the paper means to score, invariant to the prediction's vocabulary
(aligned first, ``text2world.scoring.alignment``), variable names, conjunct order, duplicates and
``and`` nesting; every gold action scored on its own; extra predicted actions lower precision."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol

from text2world.pddl.model import (
    Action,
    AddEffect,
    And,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    Domain,
    Effect,
    ForallEffect,
    Formula,
    FunctionEffect,
    Not,
    Or,
    Quantified,
    Truth,
    TypedName,
    parse_domain,
    strip_comments,
)
from text2world.pddl.validation import Issue, classify_error
from text2world.scoring.alignment import align
from text2world.scoring.caching import gold_cache
from text2world.scoring.score_base import Score, ratio_without_whitespace, set_f1

__all__ = [
    "ACTION_COMPONENTS", "Printable", "action_items", "canonical_view", "canonical_gold_view",
    "score_canonical_views",
]


def _flatten(formula: Formula) -> list[Formula]:
    if isinstance(formula, And):
        return [item for part in formula.parts for item in _flatten(part)]
    if isinstance(formula, Truth):
        return []
    return [formula]


_VARIABLE = re.compile(r"\?[^\s(),]+")


def _rename_variables(term: str, names: dict[str, str]) -> str:
    """Rename the variables inside a term (which may be a function term like '(loc ?b)')."""
    return _VARIABLE.sub(lambda m: names.get(m.group(0), m.group(0)), term)


def _rename_formula(formula: Formula, names: dict[str, str], depth: int = 0) -> str:
    """A canonical string: variables renamed by position, commutative parts sorted."""
    if isinstance(formula, Atom):
        return "(" + " ".join((formula.predicate,
                               *(_rename_variables(a, names) for a in formula.args))) + ")"
    if isinstance(formula, Not):
        return f"(not {_rename_formula(formula.formula, names, depth)})"
    if isinstance(formula, Truth):
        return "(and)"
    if isinstance(formula, (And, Or)):
        parts = formula.parts if isinstance(formula, Or) else tuple(_flatten(formula))
        rendered = sorted({_rename_formula(p, names, depth) for p in parts})
        if isinstance(formula, And) and len(rendered) == 1:
            return rendered[0]
        return f"({'or' if isinstance(formula, Or) else 'and'} " + " ".join(rendered) + ")"
    if isinstance(formula, Quantified):
        inner, variables = _bind(formula.variables, names, depth)
        return (f"({formula.quantifier} ({variables}) "
                f"{_rename_formula(formula.body, inner, depth + 1)})")
    raise TypeError(f"unexpected formula {formula!r}")


def _bind(variables: tuple[TypedName, ...], names: dict[str, str],
          depth: int) -> tuple[dict[str, str], str]:
    inner = dict(names)
    rendered = []
    for index, variable in enumerate(variables):
        inner[variable.name] = f"?q{depth}_{index}"
        rendered.append(f"?q{depth}_{index} - {variable.type}")
    return inner, " ".join(rendered)


def _rename_effect(effect: Effect, names: dict[str, str], depth: int = 0) -> str:
    if isinstance(effect, AddEffect):
        return _rename_formula(effect.atom, names, depth)
    if isinstance(effect, DeleteEffect):
        return f"(not {_rename_formula(effect.atom, names, depth)})"
    if isinstance(effect, ConditionalEffect):
        return (f"(when {_rename_formula(effect.condition, names, depth)} "
                f"{_rename_effect(effect.effect, names, depth)})")
    if isinstance(effect, ForallEffect):
        inner, variables = _bind(effect.variables, names, depth)
        body = sorted({_rename_effect(e, inner, depth + 1) for e in effect.effects})
        return f"(forall ({variables}) (and {' '.join(body)}))"
    if isinstance(effect, FunctionEffect):
        return (f"({effect.operation} {_rename_variables(effect.term, names)} "
                f"{_rename_variables(effect.value, names)})")
    raise TypeError(f"unexpected effect {effect!r}")


ACTION_COMPONENTS = ("parameters", "preconditions", "effects")


@dataclass(frozen=True)
class _CanonicalAction:
    parameters: frozenset[str]
    preconditions: frozenset[str]
    effects: frozenset[str]


class Printable(Protocol):
    def to_pddl(self) -> str: ...


def action_items(action: Action) -> dict[str, list[tuple[str, Printable]]]:
    """Per component, (canonical key, declaration) of each item canonical mode compares."""
    names = {p.name: f"?{i}" for i, p in enumerate(action.parameters)}
    # Lower-cased: a domain parsed as written (see tarski_parse) may keep upper-case names.
    return {
        "parameters": [(f"{i}:{p.type}".lower(), p) for i, p in enumerate(action.parameters)],
        "preconditions": [(_rename_formula(f, names).lower(), f)
                          for f in _flatten(action.precondition)],
        "effects": [(_rename_effect(e, names).lower(), e) for e in action.effects],
    }


def _canonical_action(action: Action) -> _CanonicalAction:
    items = action_items(action)
    return _CanonicalAction(*(frozenset(key for key, _ in items[component])
                              for component in ACTION_COMPONENTS))


@dataclass(frozen=True)
class _CanonicalView:
    error: Issue | None
    domain: Domain | None
    text: str  # comment-free, lower-case
    actions: dict | None = None
    printed: str = ""


def canonical_view(text: str, prepared: bool = True) -> _CanonicalView:
    """Parse a domain for canonical scoring; ``prepared`` also computes its canonical actions
    and printed form (the gold's, cached; a prediction is first translated by the alignment)."""
    cleaned = strip_comments(text)
    try:
        domain = parse_domain(cleaned)
    except ImportError:
        raise
    except Exception as error:  # noqa: BLE001 - tarski raises many unrelated classes
        return _CanonicalView(classify_error(text, error), None, cleaned.lower())
    if not prepared:
        return _CanonicalView(None, domain, cleaned.lower())
    return _prepared_view(domain, cleaned.lower())


def _prepared_view(domain: Domain, text: str) -> _CanonicalView:
    actions = {a.name.lower(): _canonical_action(a) for a in domain.actions}
    return _CanonicalView(None, domain, text, actions, _canonical_text(domain, actions))


def _canonical_text(domain: Domain, actions: dict) -> str:
    """The domain printed with sorted declarations and position-renamed variables, for the
    similarity of canonical mode (insensitive to order, layout and variable names)."""
    parts = [" ".join(sorted(domain.requirements)),
             " ".join(sorted(t.to_pddl() for t in domain.types)),
             " ".join(sorted(c.to_pddl() for c in domain.constants)),
             " ".join(sorted(p.to_pddl() for p in domain.predicates))]
    for name in sorted(actions):
        action = actions[name]
        parts.append(f"(:action {name} (" + " ".join(sorted(action.parameters)) + ") "
                     + " ".join(sorted(action.preconditions)) + " => "
                     + " ".join(sorted(action.effects)) + ")")
    return "\n".join(parts)


@gold_cache
def canonical_gold_view(gold: str) -> _CanonicalView:
    return canonical_view(gold)


def _type_items(domain: Domain) -> set[tuple[str, str]]:
    return {(t.name.lower(), t.type.lower()) for t in domain.types}


def _predicate_items(domain: Domain) -> set[tuple[str, tuple[str, ...]]]:
    return {(p.name.lower(), tuple(x.type.lower() for x in p.parameters))
            for p in domain.predicates}


def _micro_f1(true_positives: int, false_positives: int, false_negatives: int) -> float:
    if true_positives == false_positives == false_negatives == 0:
        return 1.0
    return 2 * true_positives / (2 * true_positives + false_positives + false_negatives)


def score_canonical_views(gold_view: _CanonicalView, predicted_view: _CanonicalView) -> Score:
    """Canonical scores of a prediction (parsed, not yet prepared: it is translated into the
    gold's vocabulary first) against the cached, prepared gold view."""
    if gold_view.domain is None or predicted_view.domain is None:
        # Nothing to compare component-wise (a gold that does not parse, like released id 187,
        # gives every prediction 0 F1, as in paper mode).
        similarity = ratio_without_whitespace(gold_view.text, predicted_view.text)
        errors = (predicted_view.error,) if predicted_view.error else ()
        return Score("canonical", predicted_view.domain is not None, similarity, 0.0, 0.0, 0.0,
                     0.0, errors, f1_types=0.0)
    # Score through the alignment: the prediction is renamed into the gold's vocabulary first,
    # so `pick-up` for `pickup` or consistently renamed predicates cost nothing.
    gold_domain, written = gold_view.domain, predicted_view.domain
    alignment = align(gold_domain, written)
    predicted_domain = alignment.translate(written)
    predicted_view = _prepared_view(predicted_domain, predicted_view.text)
    similarity = ratio_without_whitespace(gold_view.printed, predicted_view.printed)
    # Types added to an untyped gold all map to `object` for the other F1s; they still cost
    # here, where types are scored.
    types = set_f1(_type_items(written if alignment.gold_untyped else predicted_domain),
                    _type_items(gold_domain))
    predicates = set_f1(_predicate_items(predicted_domain), _predicate_items(gold_domain))
    counts = {"parameters": [0, 0, 0], "preconditions": [0, 0, 0], "effects": [0, 0, 0]}
    per_action = {}
    empty = _CanonicalAction(frozenset(), frozenset(), frozenset())
    # translated action name -> the name the prediction wrote
    written_names = {alignment.rename("actions", a.name).lower(): a.name for a in written.actions}
    gold_actions, predicted_actions = gold_view.actions, predicted_view.actions
    assert gold_actions is not None and predicted_actions is not None  # both views are prepared
    for name in list(gold_actions) + [n for n in predicted_actions if n not in gold_actions]:
        gold_action = gold_actions.get(name, empty)
        predicted_action = predicted_actions.get(name, empty)
        scores = {}
        for component in counts:
            gold_items = getattr(gold_action, component)
            predicted_items = getattr(predicted_action, component)
            tp = len(gold_items & predicted_items)
            fp = len(predicted_items - gold_items)
            fn = len(gold_items - predicted_items)
            for i, value in enumerate((tp, fp, fn)):
                counts[component][i] += value
            scores[component] = _micro_f1(tp, fp, fn)
        status = ("matched" if name in gold_actions and name in predicted_actions
                  else "missing" if name in gold_actions else "extra")
        # An extra action is listed under the name the prediction gave it.
        key = written_names.get(name, name) if status == "extra" else name
        per_action[key] = {"status": status, "predicted": written_names.get(name), **scores}
    return Score("canonical", True, similarity, predicates,
                 _micro_f1(*counts["parameters"]), _micro_f1(*counts["preconditions"]),
                 _micro_f1(*counts["effects"]), (), f1_types=types, per_action=per_action,
                 alignment=alignment)
