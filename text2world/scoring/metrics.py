"""Scoring a generated domain against a gold domain.

Two modes:

* ``paper`` reproduces the released Text2World evaluator (``utils/evaluator.py``, ``utils/pddl.py``
  and the comment stripping of ``scripts/generate.py``) number for number, quirks included. Each
  quirk is marked ``QUIRK`` where it is reproduced.
* ``canonical`` scores what the paper means to score: it is invariant to the prediction's
  vocabulary (names are aligned with the gold's first, ``text2world.scoring.alignment``), to variable
  renaming, to conjunct order, duplicates and ``and`` nesting; scores every gold action on its own; lets
  extra predicted actions lower precision; compares predicates and parameters with their types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Hashable, Literal, Protocol, Sequence

import Levenshtein

from text2world.errors import Text2WorldError
from text2world.pddl.bounds import MAX_DOMAIN_CHARS, line_column
from text2world.pddl.extract import NoDomainFound, dropped_definitions, extract_domain
from text2world.pddl.model import (
    AddEffect,
    And,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    Domain,
    DomainInputError,
    ForallEffect,
    Formula,
    FunctionEffect,
    Not,
    Or,
    Predicate,
    Quantified,
    Truth,
    TypedName,
    parse_domain,
    strip_comments,
    strip_comments_released,
    tarski_parse,
)
from text2world.pddl.validation import Issue, classify_error
from text2world.scoring.alignment import UNMAPPED_PREFIX, Alignment, align
from text2world.scoring.caching import gold_cache

Mode = Literal["paper", "canonical"]
MODES: tuple[str, ...] = ("paper", "canonical")


class ScoringError(Text2WorldError, ValueError):
    """The pair cannot be scored (for instance a gold domain that has no actions)."""


@dataclass(frozen=True)
class Score:
    """The scores of one prediction against one gold domain.

    ``gold_executable`` is False when the gold itself does not parse (every F1 is then 0 and
    says nothing about the prediction); ``gold_errors`` says why, and also holds the released
    quirk that zeroes the action F1s of a parsable gold in paper mode. ``per_action`` maps each action
    name to ``{"status": "matched" | "missing" | "extra", "predicted", "parameters",
    "preconditions", "effects"}`` (``predicted``: the predicted action it was matched with, by
    name in paper mode, through the alignment in canonical mode; then that action's F1s; in
    paper mode the released per-action values, extra actions are listed but do not count).
    """

    mode: str
    executable: bool
    similarity: float
    f1_predicates: float
    f1_parameters: float
    f1_preconditions: float
    f1_effects: float
    errors: tuple[Issue, ...] = ()
    f1_types: float | None = None  # canonical mode only
    per_action: dict = field(default_factory=dict, compare=False)
    gold_executable: bool = True
    gold_errors: tuple[Issue, ...] = ()
    alignment: Alignment | None = field(default=None, compare=False)  # canonical mode only

    def to_dict(self, details: bool = False) -> dict:
        """The documented score keys; with ``details``, also ``gold_executable``,
        ``gold_errors`` and ``per_action`` (what ``t2w score --json`` and the API return)."""
        result = {
            "mode": self.mode,
            "executable": self.executable,
            "similarity": self.similarity,
            "f1_predicates": self.f1_predicates,
            "f1_parameters": self.f1_parameters,
            "f1_preconditions": self.f1_preconditions,
            "f1_effects": self.f1_effects,
            "errors": [e.to_dict() for e in self.errors],
        }
        if self.mode == "canonical":
            result["f1_types"] = self.f1_types
        if details:
            result["gold_executable"] = self.gold_executable
            result["gold_errors"] = [e.to_dict() for e in self.gold_errors]
            result["per_action"] = {name: dict(values) for name, values in self.per_action.items()}
            if self.alignment is not None:
                result["alignment"] = self.alignment.to_dict()
        return result


def score(gold: str, predicted: str, mode: Mode = "paper") -> Score:
    """Score a predicted domain text against a gold domain text."""
    for role, text in (("gold", gold), ("predicted", predicted)):
        if not isinstance(text, str):
            raise DomainInputError(f"the {role} domain must be text, not {type(text).__name__}")
    if mode == "paper":
        return with_truncation(_score_paper(gold, predicted), predicted, predicted)
    if mode == "canonical":
        gold_view = _canonical_gold_view(gold)  # looked up once: the caches count their hits
        result = _score_canonical_views(gold_view, _canonical_view(predicted, prepared=False))
        if gold_view.error is not None:
            result = replace(result, gold_executable=False, gold_errors=(gold_view.error,))
        return with_truncation(result, predicted, predicted)
    raise ValueError(f"unknown scoring mode {mode!r}; choose one of {', '.join(MODES)}")


def truncation_issue(source: str, domain: str) -> Issue | None:
    """An ``Issue`` (kind ``DroppedDefinitions``) when definitions after the domain's closing
    parenthesis in ``source`` were dropped (``extract.dropped_definitions``)."""
    found = dropped_definitions(source, domain)
    if found is None:
        return None
    message, end = found
    line, column = line_column(source, max(0, end - 1))
    return Issue("IncorrectParentheses", message, line, column, "DroppedDefinitions")


def with_truncation(result: Score, source: str, domain: str) -> Score:
    """The score with a ``truncation_issue`` among its errors, once (``source``: the answer or
    file the scored ``domain`` was extracted from)."""
    issue = truncation_issue(source, domain)
    if issue is None or any(e.kind == issue.kind for e in result.errors):
        return result
    return replace(result, errors=result.errors + (issue,))


def score_answer(gold: str, answer: str, mode: Mode = "paper") -> Score:
    """Score a raw model answer (prose, fences, ``<think>`` blocks) against a gold domain: the
    domain is extracted as the CLI and the API do (``extract_domain`` with this mode). An answer
    holding no PDDL scores as not executable, with a ``NoDomainFound`` error and similarity 0."""
    if not isinstance(answer, str):
        raise DomainInputError(f"the answer must be text, not {type(answer).__name__}")
    if mode not in MODES:
        raise ValueError(f"unknown scoring mode {mode!r}; choose one of {', '.join(MODES)}")
    try:
        predicted = extract_domain(answer, mode)
    except NoDomainFound as err:
        reference = score(gold, gold, mode)  # the gold's own status, from the cache
        return Score(mode, False, 0.0, 0.0, 0.0, 0.0, 0.0,
                     (Issue("UndefinedDomainName", str(err), kind="NoDomainFound"),),
                     f1_types=0.0 if mode == "canonical" else None,
                     gold_executable=reference.gold_executable,
                     gold_errors=reference.gold_errors)
    return with_truncation(score(gold, predicted, mode), answer, predicted)


def _set_f1(predicted, reference) -> float:
    """F1 of two collections compared as sets; two empty collections score 1, as released."""
    predicted, reference = set(predicted), set(reference)
    if not predicted and not reference:
        return 1.0
    true_positives = len(predicted & reference)
    if true_positives == 0:
        return 0.0
    precision = true_positives / len(predicted)
    recall = true_positives / len(reference)
    return 2 * precision * recall / (precision + recall)


def remove_whitespace(text: str) -> str:
    """The released ``re.sub(r"\\s+", "", text)``; str.split uses the same Unicode whitespace
    test as ``\\s`` and is many times faster on large inputs."""
    return "".join(text.split())


def _ratio_without_whitespace(a: str, b: str) -> float:
    # Levenshtein is quadratic: a text past the size limit (already an input error) gets 0.
    if len(a) > MAX_DOMAIN_CHARS or len(b) > MAX_DOMAIN_CHARS:
        return 0.0
    return Levenshtein.ratio(remove_whitespace(a), remove_whitespace(b))


# --------------------------------------------------------------------------------------------
# paper mode


@dataclass(frozen=True)
class _PaperView:
    """What the released evaluator extracts from one domain text."""

    parse_error: Issue | None  # parsing the text exactly as given (executability)
    f1_parsed: bool  # parsing ``text.strip()`` (what the F1 functions do) succeeded
    predicates: frozenset[str]  # "name_arity"
    actions: dict | None  # name -> (params, preconds, effects); None when F1 parsing fails
    action_error: bool  # the released _preprocess raised on this domain


def _paper_preprocess(items) -> list[str]:
    """The released ``_preprocess``: sort; inside items that start with '(' and contain ' or ',
    sort the disjuncts."""
    items = sorted(map(str, items))
    for index, item in enumerate(items):
        # QUIRK: an empty string (from the 'and' splitting below) raises IndexError in the
        # released code, which zeroes all three action F1s of the domain.
        if item[0] == "(" and " or " in item:
            parts = sorted(p.strip() for p in item[1:-1].strip().split(" or "))
            items[index] = "(" + " or ".join(parts) + ")"
    return sorted(items)


def _paper_ends_in_comment(text: str) -> bool:
    """tarski's lexer needs a newline after a ';' comment: a stripped text whose last line
    holds a comment does not parse."""
    stripped = text.strip()
    return ";" in stripped[stripped.rfind("\n") + 1:]


def _paper_view(text: str) -> _PaperView:
    try:
        reader = tarski_parse(text)
    except ImportError:
        raise
    except Exception as error:  # noqa: BLE001 - tarski raises many unrelated classes
        return _PaperView(classify_error(text, error), False, frozenset(), None, False)
    # QUIRK: the released F1 code parses ``text.strip()`` while executability parses the text
    # as is. Stripping changes the parse only when it leaves a ';' comment on the last line,
    # which then lacks its newline: executable, yet every F1 is 0.
    if _paper_ends_in_comment(text):
        return _PaperView(None, False, frozenset(), None, False)
    language = reader.problem.language
    predicates = frozenset(f"{p.symbol}_{p.arity}" for p in language.predicates
                           if str(p.symbol) not in ("=", "!="))
    actions = {}
    try:
        for name, action in reader.problem.actions.items():
            actions[name] = (
                _paper_preprocess(f"{p.symbol}" for p in action.parameters),
                # QUIRK: preconditions are split on the substring 'and' of tarski's printed
                # formula after dropping its first and last character, so predicate names that
                # contain 'and' are cut, a single-atom precondition loses its first letter and
                # last parenthesis, and nested conjunctions are split too.
                _paper_preprocess(x.strip() for x in str(action.precondition)[1:-1].split("and")),
                _paper_preprocess(str(e) for e in action.effects),
            )
    except IndexError:
        return _PaperView(None, True, predicates, None, True)
    return _PaperView(None, True, predicates, actions, False)


@gold_cache
def _paper_gold_view(gold: str) -> _PaperView:
    # QUIRK: the released pipeline strips comments from the gold domain only, with a regex that
    # keeps a comment on a last line without newline (generate.py).
    return _paper_view(strip_comments_released(gold))


def _paper_action_f1(gold: _PaperView, predicted: _PaperView) -> tuple[float, float, float]:
    if gold.actions is None or predicted.actions is None:
        return 0.0, 0.0, 0.0
    totals = [0.0, 0.0, 0.0]
    for name, gold_parts in gold.actions.items():
        predicted_parts = predicted.actions.get(name)
        if predicted_parts is None:
            # QUIRK: one gold action missing from the prediction raises KeyError in the released
            # code and zeroes all three action F1s for the whole domain.
            return 0.0, 0.0, 0.0
        for i in range(3):
            totals[i] += _set_f1(predicted_parts[i], gold_parts[i])
    if not gold.actions:
        # The released code divides by zero here and records no result for the item.
        raise ScoringError("the gold domain has no actions: the paper's action F1 is undefined")
    count = len(gold.actions)
    return totals[0] / count, totals[1] / count, totals[2] / count


def _paper_per_action(gold: _PaperView, predicted: _PaperView) -> dict:
    """Each action's released per-action F1s (what the released code averages), with its status.
    Empty when either side has no action view (not parsable, or the released code raised)."""
    if gold.actions is None or predicted.actions is None:
        return {}
    per_action = {}
    names = list(gold.actions) + [n for n in predicted.actions if n not in gold.actions]
    for name in names:
        gold_parts, predicted_parts = gold.actions.get(name), predicted.actions.get(name)
        if gold_parts is not None and predicted_parts is not None:
            values = [_set_f1(predicted_parts[i], gold_parts[i]) for i in range(3)]
            status = "matched"
        else:
            values, status = [0.0, 0.0, 0.0], "missing" if predicted_parts is None else "extra"
        # Paper mode matches actions by name as written: the predicted name is the gold's.
        per_action[name] = {"status": status,
                            "predicted": None if predicted_parts is None else name,
                            "parameters": values[0], "preconditions": values[1],
                            "effects": values[2]}
    return per_action


def _paper_gold_errors(gold: _PaperView) -> tuple[Issue, ...]:
    """Why the gold cannot be scored in paper mode: it does not parse, or a released quirk
    zeroes the action F1s of every prediction against it. (A gold whose last line is a comment
    does not parse at all: tarski's lexer needs the newline.)"""
    if gold.parse_error is not None:
        return (gold.parse_error,)
    if gold.action_error:
        return (Issue("Other", "a precondition of the gold splits into an empty piece on 'and': "
                      "the released _preprocess raises, so every action F1 is 0", None, None,
                      "ReleasedQuirk"),)
    return ()


def _score_paper(gold: str, predicted: str) -> Score:
    # A gold past the size limit is never cached (it would pin megabytes per entry).
    gold_view = (_paper_gold_view(gold) if len(gold) <= MAX_DOMAIN_CHARS
                 else _paper_view(strip_comments_released(gold)))
    predicted_view = _paper_view(predicted)
    parameters, preconditions, effects = _paper_action_f1(gold_view, predicted_view)
    # QUIRK: extra predicted actions are ignored; predicates compare "name_arity" strings, which
    # include tarski's built-in comparison predicates (<, <=, >, >=) when :action-costs is
    # declared.
    if gold_view.f1_parsed and predicted_view.f1_parsed:
        predicates = _set_f1(predicted_view.predicates, gold_view.predicates)
    else:
        predicates = 0.0
    # QUIRK: Levenshtein.ratio (InDel based, not distance / longer length as the paper's text
    # says) on comment-free text with all whitespace removed.
    # (The released evaluator strips comments again from the already stripped gold: a no-op.)
    similarity = _ratio_without_whitespace(strip_comments_released(gold),
                                           strip_comments_released(predicted))
    errors = (predicted_view.parse_error,) if predicted_view.parse_error else ()
    return Score("paper", predicted_view.parse_error is None, similarity, predicates, parameters,
                 preconditions, effects, errors,
                 per_action=_paper_per_action(gold_view, predicted_view),
                 gold_executable=gold_view.parse_error is None,
                 gold_errors=_paper_gold_errors(gold_view))


# --------------------------------------------------------------------------------------------
# canonical mode


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


def _bind(variables: tuple[TypedName, ...], names: dict[str, str], depth: int):
    inner = dict(names)
    rendered = []
    for index, variable in enumerate(variables):
        inner[variable.name] = f"?q{depth}_{index}"
        rendered.append(f"?q{depth}_{index} - {variable.type}")
    return inner, " ".join(rendered)


def _rename_effect(effect, names: dict[str, str], depth: int = 0) -> str:
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


class _Printable(Protocol):
    def to_pddl(self) -> str: ...


def _action_items(action) -> dict[str, list[tuple[str, _Printable]]]:
    """Per component, (canonical key, declaration) of each item canonical mode compares."""
    names = {p.name: f"?{i}" for i, p in enumerate(action.parameters)}
    # Lower-cased: a domain parsed as written (see tarski_parse) may keep upper-case names.
    return {
        "parameters": [(f"{i}:{p.type}".lower(), p) for i, p in enumerate(action.parameters)],
        "preconditions": [(_rename_formula(f, names).lower(), f)
                          for f in _flatten(action.precondition)],
        "effects": [(_rename_effect(e, names).lower(), e) for e in action.effects],
    }


def _canonical_action(action) -> _CanonicalAction:
    items = _action_items(action)
    return _CanonicalAction(*(frozenset(key for key, _ in items[component])
                              for component in ACTION_COMPONENTS))


@dataclass(frozen=True)
class _CanonicalView:
    error: Issue | None
    domain: Domain | None
    text: str  # comment-free, lower-case
    actions: dict | None = None
    printed: str = ""


def _canonical_view(text: str, prepared: bool = True) -> _CanonicalView:
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
def _canonical_gold_view(gold: str) -> _CanonicalView:
    return _canonical_view(gold)


def _type_items(domain: Domain) -> set[tuple[str, str]]:
    return {(t.name.lower(), t.type.lower()) for t in domain.types}


def _predicate_items(domain: Domain) -> set[tuple[str, tuple[str, ...]]]:
    return {(p.name.lower(), tuple(x.type.lower() for x in p.parameters))
            for p in domain.predicates}


def _micro_f1(true_positives: int, false_positives: int, false_negatives: int) -> float:
    if true_positives == false_positives == false_negatives == 0:
        return 1.0
    return 2 * true_positives / (2 * true_positives + false_positives + false_negatives)


def _score_canonical_views(gold_view: _CanonicalView, predicted_view: _CanonicalView) -> Score:
    """Canonical scores of a prediction (parsed, not yet prepared: it is translated into the
    gold's vocabulary first) against the cached, prepared gold view."""
    if gold_view.domain is None or predicted_view.domain is None:
        # Nothing to compare component-wise (a gold that does not parse, like released id 187,
        # gives every prediction 0 F1, as in paper mode).
        similarity = _ratio_without_whitespace(gold_view.text, predicted_view.text)
        errors = (predicted_view.error,) if predicted_view.error else ()
        return Score("canonical", predicted_view.domain is not None, similarity, 0.0, 0.0, 0.0,
                     0.0, errors, f1_types=0.0)
    # Score through the alignment: the prediction is renamed into the gold's vocabulary first,
    # so `pick-up` for `pickup` or consistently renamed predicates cost nothing.
    gold_domain, written = gold_view.domain, predicted_view.domain
    alignment = align(gold_domain, written)
    predicted_domain = alignment.translate(written)
    predicted_view = _prepared_view(predicted_domain, predicted_view.text)
    similarity = _ratio_without_whitespace(gold_view.printed, predicted_view.printed)
    # Types added to an untyped gold all map to `object` for the other F1s; they still cost
    # here, where types are scored.
    types = _set_f1(_type_items(written if alignment.gold_untyped else predicted_domain),
                    _type_items(gold_domain))
    predicates = _set_f1(_predicate_items(predicted_domain), _predicate_items(gold_domain))
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


# --------------------------------------------------------------------------------------------
# Per-action diff (what canonical mode matched, for a person to read)


def _diff_rows(gold_items: Sequence[tuple[Hashable, _Printable]],
               predicted_items: Sequence[tuple[Hashable, _Printable]]) -> list[dict]:
    """Gold items in their order (matched or missing), then the predicted ones the gold lacks
    (extra); each side printed with its own names."""
    predicted: dict[Hashable, _Printable] = {}
    for key, item in predicted_items:
        predicted.setdefault(key, item)
    rows, seen = [], set()
    for key, item in gold_items:
        if key in seen:
            continue
        seen.add(key)
        other = predicted.get(key)
        rows.append({"status": "matched" if other is not None else "missing",
                     "gold": item.to_pddl(),
                     "predicted": None if other is None else other.to_pddl()})
    for key, item in predicted.items():
        if key not in seen:
            rows.append({"status": "extra", "gold": None, "predicted": item.to_pddl()})
    return rows


_UNMAPPED_SHOWN = re.compile(r"(?<=[\s(])" + re.escape(UNMAPPED_PREFIX))


def action_diff(gold: str, predicted: str) -> dict:
    """Gold vs predicted domain, action by action, as canonical mode compares them.

    Actions are matched by name (case folded); inside an action, parameters by position and
    type, preconditions and effects after renaming variables to their parameter position, so
    ``(on ?x ?y)`` in the gold matches ``(on ?a ?b)`` in the prediction. Each row says whether
    the item is matched, missing (gold only) or extra (prediction only) and prints each side
    with its own names. The F1s are canonical mode's ``per_action`` scores.

    Returns ``{"ok": False, "reason": ...}`` when either domain does not parse.
    """
    gold_view = _canonical_gold_view(gold)
    if gold_view.domain is None:
        return {"ok": False, "reason": f"the gold domain does not parse ({gold_view.error})",
                "actions": [], "predicates": []}
    predicted_view = _canonical_view(predicted, prepared=False)
    if predicted_view.domain is None:
        return {"ok": False,
                "reason": f"the generated domain does not parse ({predicted_view.error})",
                "actions": [], "predicates": []}
    score = _score_canonical_views(gold_view, predicted_view)
    alignment = score.alignment
    assert alignment is not None  # canonical scores of two parsed domains carry their alignment
    # Matched through the alignment, as canonical mode scores: the prediction's side is its
    # translation into the gold's vocabulary (variables keep the prediction's own names).
    translated = alignment.translate(predicted_view.domain)
    gold_actions = {a.name.lower(): a for a in gold_view.domain.actions}
    predicted_actions = {a.name.lower(): a for a in translated.actions}
    per_action = {(alignment.rename("actions", scores["predicted"]).lower()
                   if scores["status"] == "extra" else name): scores
                  for name, scores in score.per_action.items()}
    actions = []
    for name in list(gold_actions) + [n for n in predicted_actions if n not in gold_actions]:
        gold_action, predicted_action = gold_actions.get(name), predicted_actions.get(name)
        gold_items = _action_items(gold_action) if gold_action else {}
        predicted_items = _action_items(predicted_action) if predicted_action else {}
        scores = per_action[name]
        entry = {"name": gold_action.name if gold_action else scores["predicted"],
                 "status": scores["status"],
                 "predicted_name": scores.get("predicted"),
                 "f1": {component: scores[component] for component in ACTION_COMPONENTS}}
        for component in ACTION_COMPONENTS:
            entry[component] = _diff_rows(gold_items.get(component, []),
                                          predicted_items.get(component, []))
        actions.append(entry)

    def predicate_items(domain: Domain) -> list[tuple[tuple[str, tuple[str, ...]], Predicate]]:
        return [((p.name.lower(), tuple(x.type.lower() for x in p.parameters)), p)
                for p in domain.predicates]

    predicates = _diff_rows(predicate_items(gold_view.domain), predicate_items(translated))
    # A person reads the prediction's own names where nothing was mapped, not the prefix that
    # keeps them apart from the gold's.
    for row in [r for a in actions for c in ACTION_COMPONENTS for r in a[c]] + predicates:
        if row["predicted"] is not None:
            row["predicted"] = _UNMAPPED_SHOWN.sub("", row["predicted"])
    return {"ok": True, "reason": None, "actions": actions, "predicates": predicates,
            "alignment": alignment.to_dict()}
