"""Validation: executability, the paper's error taxonomy with positions, and warnings."""

from __future__ import annotations

import pytest

from text2world import validate
from text2world.validation import CATEGORIES

HEAD = "(define (domain d) (:requirements :strips)\n(:predicates (p ?x) (q ?x ?y))\n"
OK_ACTION = "(:action a :parameters (?x) :precondition (and (p ?x)) :effect (and (not (p ?x))))\n"


def only_error(text: str):
    result = validate(text)
    assert not result.ok and len(result.errors) == 1, result
    return result.errors[0]


@pytest.mark.parametrize("text, category, line", [
    ("(define (domain) (:predicates (p ?x)))", "UndefinedDomainName", 1),
    ("hello world", "UndefinedDomainName", 1),
    (HEAD + OK_ACTION, "IncorrectParentheses", 1),  # the define is never closed
    (HEAD + "(:action a :parameters (?x) :precondition (and (p ?x))) :effect (and (p ?x))))",
     "IncorrectParentheses", None),
    (HEAD + "(:action a :parameters (?x) :precondition (and (p c1)) :effect (and (p ?x))))",
     "UndefinedConstant", 3),
    ("(define (domain d) (:requirements :strips :magic)\n(:predicates (p ?x)))",
     "MissingRequirements", 1),
    ("(define (domain d) (:requirements :strips)\n(:predicates (p ?x))\n"
     "(:action a :parameters (?x) :precondition (and (p ?x))"
     " :effect (and (increase (total-cost) 1))))", "MissingRequirements", 3),
    ("(define (domain d) (:types a)\n(:predicates (p ?x - b)))", "UndefinedType", 2),
    ("(define (domain d) (:types a b)\n(:predicates (p ?x - (either a b))))",
     "UnsupportedFeature", None),
    ("(define (domain d) (:predicates (p ?x))\n(:derived (p ?x) (p ?x)))",
     "UnsupportedFeature", None),
    ("(define (domain d) (:predicates (p ?x))\n(:durative-action a :parameters (?x)"
     " :duration (= ?duration 1) :condition (at start (p ?x)) :effect (at end (p ?x))))",
     "UnsupportedFeature", 2),
    ("(define (domain d) (:types a)\n(:predicates (p ?x - a))\n(:action b :parameters (?x)"
     " :precondition (and (p ?x)) :effect (and (p ?x))))", "TypeMismatch", None),
    (HEAD + "(:action a :parameters (?x) :precondition (and (q ?x)) :effect (and (p ?x))))",
     "TypeMismatch", None),
    (HEAD + "(:action a :parameters (?x) :precondition (and (p ?y)) :effect (and (p ?x))))",
     "UndefinedVariable", 3),
    ("(define (domain d)\n(:predicates (p ?x) (p ?y)))", "DuplicateDefinition", 2),
    (HEAD + OK_ACTION + OK_ACTION + ")", "DuplicateDefinition", 4),
    (HEAD + "(:action a :parameters (?x) :precondition (and (r ?x)) :effect (and (p ?x))))",
     "Other", 3),
])
def test_each_taxonomy_category(text, category, line):
    error = only_error(text)
    assert error.category == category
    assert error.category in CATEGORIES
    assert error.message
    if line is not None:
        assert error.line == line, error


def test_valid_domain_has_no_errors_and_a_model():
    result = validate(HEAD + OK_ACTION + ")")
    assert result.ok and result.errors == () and result.domain.name == "d"
    assert result.to_dict() == {"ok": True, "errors": [], "warnings": []}


def test_case_is_folded_by_default_but_not_in_exact_mode():
    text = (HEAD + OK_ACTION + ")").replace(":predicates", ":PREDICATES")
    assert validate(text).ok
    assert not validate(text, fold_case=False).ok


def kinds(text: str) -> list[str]:
    result = validate(text)
    assert result.ok, result.errors
    return [w.kind for w in result.warnings]


def test_warning_for_text_after_the_closing_paren():
    warnings = validate(HEAD + OK_ACTION + ")\n(:action b)").warnings
    assert [w.kind for w in warnings] == ["TrailingText"]
    assert warnings[0].line == 5


@pytest.mark.parametrize("snippet, requirement", [
    ("(and (p ?x) (not (p ?x)))", ":negative-preconditions"),
    ("(and (p ?x) (= ?x ?x))", ":equality"),
    ("(or (p ?x) (p ?x))", ":disjunctive-preconditions"),
    ("(and (p ?x) (forall (?y) (p ?y)))", ":universal-preconditions"),
    ("(and (p ?x) (exists (?y) (p ?y)))", ":existential-preconditions"),
])
def test_warning_for_undeclared_precondition_features(snippet, requirement):
    text = HEAD + f"(:action a :parameters (?x) :precondition {snippet} :effect (and (p ?x))))"
    result = validate(text)
    assert result.ok
    messages = [w.message for w in result.warnings if w.kind == "UndeclaredRequirement"]
    assert any(requirement in m for m in messages), result.warnings
    declared = text.replace(":requirements :strips", f":requirements :strips {requirement}")
    assert not [w for w in validate(declared).warnings if w.kind == "UndeclaredRequirement"]


def test_warning_for_conditional_effects_and_typing():
    text = ("(define (domain d) (:requirements :strips) (:types t)\n(:predicates (p ?x - t))\n"
            "(:action a :parameters (?x - t) :precondition (and (p ?x))"
            " :effect (and (when (p ?x) (not (p ?x))))))")
    messages = " ".join(w.message for w in validate(text).warnings)
    assert ":conditional-effects" in messages and ":typing" in messages
    assert not validate(text.replace(":strips", ":adl")).warnings


def test_warning_for_duplicate_parameters_and_contradictory_effects():
    text = HEAD + ("(:action a :parameters (?x ?x) :precondition (and (p ?x))"
                   " :effect (and (p ?x) (not (p ?x)))))")
    assert sorted(kinds(text)) == ["ContradictoryEffect", "DuplicateParameter"]
