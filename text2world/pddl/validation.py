"""Validation of PDDL domains: executability (tarski parses it), classified errors, warnings.

Executability is the paper's definition: tarski parses the domain with ``raise_on_error=True``.
Every error is put into the syntax taxonomy of the Text2World paper (Table 4). Warnings report
what tarski silently accepts; they never change executability.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from text2world.pddl.bounds import MAX_REPORTED_ISSUES, TOKEN
from text2world.pddl.extract import dropped_definitions
from text2world.pddl.issues import Issue, balance_error
from text2world.pddl.model import (
    AddEffect,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    Domain,
    DomainInputError,
    Effect,
    ForallEffect,
    Formula,
    FunctionEffect,
    Not,
    Or,
    Quantified,
    domain_from_tarski,
    iter_effects,
    iter_formula,
    line_column,
    strip_comments,
    tarski_parse,
)

__all__ = ["CATEGORIES", "Validation", "classify_error", "used_features", "validate", "Issue"]

CATEGORIES = (
    "UndefinedDomainName", "IncorrectParentheses", "UndefinedConstant", "MissingRequirements",
    "UndefinedType", "UnsupportedFeature", "TypeMismatch", "UndefinedVariable",
    "DuplicateDefinition", "Other",
)

# tarski exception class name -> taxonomy category
_BY_EXCEPTION = {
    "UndefinedConstant": "UndefinedConstant",
    "UndefinedVariable": "UndefinedVariable",
    "UndefinedSort": "UndefinedType",
    "UndefinedElement": "UndefinedType",  # tarski raises the generic class for unknown types
    "SortMismatch": "TypeMismatch",
    "ArityMismatch": "TypeMismatch",
    "UnsupportedLanguageFeature": "UnsupportedFeature",
    "DuplicateDefinition": "DuplicateDefinition",
    "DuplicatePredicateDefinition": "DuplicateDefinition",
    "DuplicateFunctionDefinition": "DuplicateDefinition",
    "DuplicateSortDefinition": "DuplicateDefinition",
    "DuplicateConstantDefinition": "DuplicateDefinition",
    "DuplicateActionDefinition": "DuplicateDefinition",
    "DuplicateVariableDefinition": "DuplicateDefinition",
}

_UNSUPPORTED_KEYWORDS = (":durative-action", ":derived", ":process", ":event", ":constraints",
                         "either", ":timed-initial-literals", ":preferences")
_DEFINE = re.compile(r"\(\s*define\b", re.IGNORECASE)
_DOMAIN_HEADER = re.compile(r"\(\s*define\s*\(\s*domain\s+[^\s()]+\s*\)", re.IGNORECASE)
_PARSER_POSITION = re.compile(r"line (\d+):(\d+)")
_QUOTED = re.compile(r'element "([^"]+)"')


@dataclass(frozen=True)
class Validation:
    """What ``validate`` found: ``ok`` when there is no error; the errors and warnings, each an
    ``Issue`` (category, message, line, column); the parsed ``Domain`` when the text parses."""

    ok: bool
    errors: tuple[Issue, ...] = ()
    warnings: tuple[Issue, ...] = ()
    domain: Domain | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "errors": [e.to_dict() for e in self.errors],
                "warnings": [w.to_dict() for w in self.warnings]}


@lru_cache(maxsize=8)
def _name_index(text: str) -> tuple[dict[str, list[int]], dict[str, int], int]:
    """One pass over the tokens (comments skipped): where each name occurs (lower-cased), where
    each action starts, where the first action starts (-1 if none). Locating every issue in
    this index keeps reporting linear in the text, whatever the number of issues."""
    occurrences: dict[str, list[int]] = {}
    actions: dict[str, int] = {}
    first_action = -1
    previous, before_previous = ("", 0), ("", 0)  # (token, offset) of the two tokens before
    for match in TOKEN.finditer(text):
        token = match.group()
        if token[0] == ";":
            continue
        lowered = token.lower()
        occurrences.setdefault(lowered, []).append(match.start())
        if before_previous[0] == "(" and previous[0] == ":action":
            actions.setdefault(lowered, before_previous[1])
            if first_action < 0:
                first_action = before_previous[1]
        before_previous, previous = previous, (lowered, match.start())
    return occurrences, actions, first_action


def _locate(text: str, name: str, occurrence: int = 0,
            in_actions: bool = False) -> tuple[int | None, int | None]:
    """Where ``name`` occurs in the text as a whole PDDL token (the n-th time), if anywhere.

    ``in_actions`` prefers uses inside action bodies: an undefined variable or constant is
    reported where an action uses it, not where a predicate declares a same-named parameter.
    ``"(:action NAME"`` finds where that action starts.
    """
    occurrences, actions, first_action = _name_index(text)
    if name.startswith("(:action "):
        offset = actions.get(name[len("(:action "):].lower())
        return (None, None) if offset is None else line_column(text, offset)
    offsets = occurrences.get(name.lower(), [])
    if in_actions and first_action >= 0:
        offsets = [o for o in offsets if o > first_action] or offsets
    if not offsets:
        return None, None
    return line_column(text, offsets[min(occurrence, len(offsets) - 1)])


def _shorten(message: str, limit: int = 300) -> str:
    """tarski quotes the offending text (a 40 KB comment, a 100 KB name): keep errors short."""
    return message if len(message) <= limit else message[:limit] + f"... ({len(message):,} characters)"


def classify_error(text: str, error: BaseException) -> Issue:
    """Turn a tarski (or input) exception into an Issue of the paper's taxonomy."""
    if isinstance(error, DomainInputError):
        return Issue(error.category, error.message, error.line, error.column, error.kind)
    kind = type(error).__name__
    message = _shorten(str(error).strip() or kind)
    if kind == "ParsingError":
        match = _PARSER_POSITION.search(message)
        line, column = (int(match.group(1)), int(match.group(2)) + 1) if match else (None, None)
        if not _DEFINE.search(strip_comments(text)):
            return Issue("UndefinedDomainName", "no PDDL domain: the text has no '(define' "
                         "(not PDDL, or an empty file)", None, None, "NoDomainFound")
        if not _DOMAIN_HEADER.search(text):
            return Issue("UndefinedDomainName", "the text has no '(define (domain NAME)' header: "
                         f"{message}", line, column, kind)
        from text2world.pddl.reading import unclosed_parenthesis  # it imports this module

        unclosed = unclosed_parenthesis(text)
        if unclosed is not None:
            return unclosed.issue(text)
        balance = balance_error(text)
        if balance is not None:
            # A ')' too many is shown where it is; a missing ')' leaves only the outermost
            # '(define' open at the end, so the parser's position (where the nesting stopped
            # making sense) points closer to it.
            if balance.message.startswith("a ')'") or line is None:
                line, column = balance.line, balance.column
            return Issue(balance.category, f"{balance.message} ({message})", line, column, kind)
        at_error = _text_at(text, line, column).lower() if line is not None else ""
        for keyword in _UNSUPPORTED_KEYWORDS:
            if at_error.startswith(keyword) or f"'{keyword}" in message.lower():
                return Issue("UnsupportedFeature", f"{keyword} is not supported by the "
                             f"validator (tarski): {message}", line, column, kind)
        if line is not None and _inside_requirements(text, line, column):
            return Issue("MissingRequirements", f"unknown or malformed requirement: {message}",
                         line, column, kind)
        return Issue("Other", message, line, column, kind)
    if kind == "ImportError" or isinstance(error, ImportError):
        raise RuntimeError("tarski needs numpy to parse this domain: install 'tarski[arithmetic]'"
                           f" ({error})") from error
    name_match = _QUOTED.search(message)
    name = name_match.group(1) if name_match else None
    category = _BY_EXCEPTION.get(kind)
    if kind.startswith("Duplicate"):
        category = "DuplicateDefinition"
    if kind == "UndefinedFunction" and name == "total-cost":
        category = "MissingRequirements"
        message = ("(total-cost) is used but not declared: add :action-costs to :requirements "
                   "and (:functions (total-cost) - number)")
    line, column = (_locate(text, name, 1 if category == "DuplicateDefinition" else 0,
                            in_actions=kind in ("UndefinedVariable", "UndefinedConstant",
                                                "UndefinedPredicate"))
                    if name else (None, None))
    if category is None:
        category = "Other"
    if kind == "UndefinedPredicate":
        message = f"predicate {name!r} is used but not declared in :predicates"
    elif kind == "UndefinedVariable":
        message = f"variable {name!r} is used but is not a parameter or quantified variable"
    elif kind == "UndefinedConstant":
        message = f"{name!r} is used as a constant or object but is not declared in :constants"
    elif kind in ("UndefinedElement", "UndefinedSort"):
        message = f"type {name!r} is used but not declared in :types"
    return Issue(category, message, line, column, kind)


def _offset(text: str, line: int, column: int | None) -> int:
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[: line - 1]) + (column or 1) - 1


def _text_at(text: str, line: int, column: int | None) -> str:
    offset = _offset(text, line, column)
    return text[offset: offset + 40]


def _inside_requirements(text: str, line: int, column: int | None) -> bool:
    offset = _offset(text, line, column)
    start = text.lower().rfind("(:requirements", 0, offset + 1)
    return start >= 0 and ")" not in text[start:offset]


# --------------------------------------------------------------------------------------------
# Warnings: what tarski accepts silently

_IMPLIED = {
    ":adl": {":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions",
             ":equality", ":existential-preconditions", ":universal-preconditions",
             ":quantified-preconditions", ":conditional-effects"},
    ":quantified-preconditions": {":existential-preconditions", ":universal-preconditions"},
}


def _declared(requirements: Iterable[str]) -> set[str]:
    declared = set(requirements)
    for requirement in list(declared):
        declared |= _IMPLIED.get(requirement, set())
    return declared


def _formula_features(formula: Formula, features: set[str]) -> None:
    for node in iter_formula(formula):
        if isinstance(node, Not):
            inner = node.formula
            if not (isinstance(inner, Atom) and inner.predicate == "="):
                features.add(":negative-preconditions")
        elif isinstance(node, Atom):
            if node.predicate == "=":
                features.add(":equality")
        elif isinstance(node, Or):
            features.add(":disjunctive-preconditions")
        elif isinstance(node, Quantified):
            features.add(":universal-preconditions" if node.quantifier == "forall"
                         else ":existential-preconditions")


def _effect_features(effects: tuple[Effect, ...], features: set[str]) -> None:
    for effect, _conditions in iter_effects(effects):
        if isinstance(effect, ConditionalEffect):
            features.add(":conditional-effects")
            _formula_features(effect.condition, features)
        elif isinstance(effect, ForallEffect):
            features.add(":conditional-effects")
        elif isinstance(effect, FunctionEffect):
            features.add(":action-costs" if effect.term == "(total-cost)" else ":numeric-fluents")


def used_features(domain: Domain) -> dict[str, str]:
    """Requirement -> where it is first used."""
    used: dict[str, str] = {}
    if domain.typed:
        used[":typing"] = "typed declarations"
    for action in domain.actions:
        features: set[str] = set()
        _formula_features(action.precondition, features)
        _effect_features(action.effects, features)
        if any(p.type != "object" for p in action.parameters):
            features.add(":typing")
        for feature in sorted(features):
            used.setdefault(feature, f"action {action.name}")
    return used


def domain_warnings(text: str, domain: Domain) -> list[Issue]:
    """What tarski accepted silently. At most ``MAX_REPORTED_ISSUES`` are located (locating one
    searches the text); the rest are counted in a last warning."""
    warnings: list[Issue] = []
    skipped = 0

    def add(category: str, message: str, kind: str, locate: str | None = None,
            position: tuple[int | None, int | None] = (None, None)) -> None:
        nonlocal skipped
        if len(warnings) >= MAX_REPORTED_ISSUES:
            skipped += 1
            return
        line, column = _locate(text, locate) if locate else position
        warnings.append(Issue(category, message, line, column, kind))

    cleaned = strip_comments(text)
    start = cleaned.find("(")
    depth = 0
    for index in range(start, len(cleaned)):
        if cleaned[index] == "(":
            depth += 1
        elif cleaned[index] == ")":
            depth -= 1
            if depth == 0:
                rest = cleaned[index + 1:]
                dropped = dropped_definitions(cleaned, cleaned)
                if dropped is not None:
                    add("IncorrectParentheses", dropped[0], "DroppedDefinitions",
                        position=line_column(cleaned, index))
                elif rest.strip():
                    offset = index + 1 + (len(rest) - len(rest.lstrip()))
                    add("Other", "text after the domain's closing parenthesis is ignored: "
                        f"{rest.strip()[:60]!r}", "TrailingText",
                        position=line_column(cleaned, offset))
                break
    declared = _declared(domain.requirements)
    for feature, where in used_features(domain).items():
        if feature not in declared:
            add("MissingRequirements", f"{where} uses {feature} but :requirements does not "
                "declare it", "UndeclaredRequirement",
                f"(:action {where[7:]}" if where.startswith("action ") else None)
    declared_parameters = _parameter_lists(cleaned)
    for action in domain.actions:
        # tarski silently merges repeated parameter names, so read them from the text
        counts = Counter(declared_parameters.get(action.name.lower(), []))
        duplicates = sorted(n for n, c in counts.items() if c > 1)
        if duplicates:
            add("DuplicateDefinition", f"action {action.name} declares parameter "
                f"{', '.join(duplicates)} more than once", "DuplicateParameter", action.name)
        added = {e.atom for e in action.effects if isinstance(e, AddEffect)}
        deleted = {e.atom for e in action.effects if isinstance(e, DeleteEffect)}
        for atom in sorted(added & deleted, key=lambda a: a.to_pddl()):
            add("Other", f"action {action.name} both adds and deletes {atom.to_pddl()}",
                "ContradictoryEffect", action.name)
    if skipped:
        warnings.append(Issue("Other", f"{skipped} more warnings not listed (at most "
                              f"{MAX_REPORTED_ISSUES} are)", None, None, "MoreWarnings"))
    return warnings


_ACTION_PARAMETERS = re.compile(
    r"\(\s*:action\s+([^\s()]+)\s+:parameters\s*\(([^()]*)\)", re.IGNORECASE)


def _parameter_lists(text: str) -> dict[str, list[str]]:
    """Action name -> the parameter variables exactly as written (repeats kept)."""
    return {m.group(1).lower(): re.findall(r"\?[^\s()]+", m.group(2).lower())
            for m in _ACTION_PARAMETERS.finditer(text)}


def validate(text: str, *, fold_case: bool = True, first_error_only: bool = False) -> Validation:
    """Validate a PDDL domain. ``fold_case`` parses case-insensitively (PDDL semantics);
    without it, the text is parsed exactly as given, as the released evaluator does (with
    it, valid PDDL tarski refuses is rewritten first, lines kept: ``pddl.normalise``).

    ``first_error_only``: an invalid text's ``errors`` hold its first error alone, the same
    ``errors[0]`` as without it; the others are not looked for (what a reward needs: after a
    '(' left open, finding them parses the text again once per parenthesis put back)."""
    if fold_case:
        from text2world.pddl.normalise import normalise_for_tarski
        text = normalise_for_tarski(text)
    return _validate(text, fold_case, 0, first_error_only)


def _validate(text: str, fold_case: bool, repairs: int,
              first_error_only: bool = False) -> Validation:
    try:
        reader = tarski_parse(text, case_insensitive=fold_case)
    except (DomainInputError, RecursionError) as error:
        return Validation(False, (classify_error(text, error),))
    except ImportError:
        raise
    except Exception as error:  # tarski raises many unrelated classes
        from text2world.pddl.reading import all_errors  # it imports this module

        first = classify_error(text, error)
        if first_error_only and first.line is not None:  # all_errors puts it first as it is
            return Validation(False, (first,))

        def revalidate(repaired: str) -> tuple[Issue, ...]:
            return _validate(repaired, fold_case, repairs + 1).errors

        errors = all_errors(text, first, revalidate, repairs)
        return Validation(False, errors[:1] if first_error_only else errors)
    domain = domain_from_tarski(reader)
    return Validation(True, (), tuple(domain_warnings(text, domain)), domain)
