"""Validation: executability, the paper's error taxonomy with positions, and warnings."""

from __future__ import annotations

import pytest
from pddl_helpers import BROKEN

from text2world import validate
from text2world.pddl.validation import CATEGORIES

HEAD = "(define (domain d) (:requirements :strips)\n(:predicates (p ?x) (q ?x ?y))\n"
OK_ACTION = "(:action a :parameters (?x) :precondition (and (p ?x)) :effect (and (not (p ?x))))\n"


def only_error(text: str):
    """tarski's error: the first of the errors reported."""
    result = validate(text)
    assert not result.ok and result.errors, result
    return result.errors[0]


@pytest.mark.parametrize("text, category, line", [
    ("(define (domain) (:predicates (p ?x)))", "UndefinedDomainName", 1),
    ("hello world", "UndefinedDomainName", None),
    (HEAD + OK_ACTION, "IncorrectParentheses", 4),  # the define is never closed: at the end
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
    warnings = validate(HEAD + OK_ACTION + ")\n; the end\nthanks").warnings
    assert [w.kind for w in warnings] == ["TrailingText"]
    assert warnings[0].line == 6


def test_definitions_cut_off_by_a_stray_parenthesis_are_named():
    text = HEAD + OK_ACTION + ")\n(:action b)\n(:action c :parameters ())"
    warnings = validate(text).warnings
    assert [w.kind for w in warnings] == ["DroppedDefinitions"]
    assert "2 actions dropped (b, c)" in warnings[0].message
    assert warnings[0].line == text[:text.index(")\n(:action b")].count("\n") + 1


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


def test_every_error_in_one_pass_each_with_its_line():
    errors = validate(BROKEN).errors
    found = {(e.kind, e.line) for e in errors}
    assert found >= {("UndefinedPredicate", 5), ("ArityMismatch", 6), ("UndefinedVariable", 8),
                     ("SortMismatch", 9), ("UndefinedConstant", 9)}, errors
    assert all(e.line is not None for e in errors)
    assert len({(e.line, e.column, e.category) for e in errors}) == len(errors)  # no repeats


def test_arity_and_type_errors_get_a_line():
    arity = validate(BROKEN.replace("(r ?x)", "(p ?x)").split("(:action two")[0] + ")").errors
    assert arity[0].kind == "ArityMismatch" and arity[0].line == 6
    sort = HEAD_TYPED + "(:action a :parameters (?y - b) :precondition (p ?y) :effect (not (p ?y))))"
    first = validate(sort).errors[0]
    assert first.kind == "SortMismatch" and first.line == 3


HEAD_TYPED = "(define (domain d) (:requirements :typing) (:types a b)\n(:predicates (p ?x - a))\n"


def test_a_missing_parenthesis_points_at_the_section_left_open():
    text = ("(define (domain d) (:requirements :strips)\n(:types a b\n(:predicates (p ?x))\n"
            "(:action a :parameters (?x) :precondition (p ?x) :effect (not (p ?x))))")
    first = validate(text).errors[0]
    assert first.category == "IncorrectParentheses" and (first.line, first.column) == (2, 1)
    assert "'(:types' is never closed" in first.message


UNCLOSED_AND = (HEAD + "(:action a :parameters (?x)\n"
                "  :precondition (and (p ?x) (q ?x ?x)\n"
                "  :effect (and (not (p ?x))))\n"
                "(:action b :parameters (?x)\n"
                "  :precondition (and (r ?x))\n"
                "  :effect (and (p ?z))))")


def test_after_a_missing_parenthesis_the_later_errors_are_reported_too():
    errors = validate(UNCLOSED_AND).errors
    first = errors[0]
    # One position, the '(and' left open; no second position in the message.
    assert (first.category, first.line, first.column) == ("IncorrectParentheses", 4, 17)
    assert "'(and' is never closed: ':effect'" in first.message and "line" not in first.message
    later = [(e.kind, e.line, e.column) for e in errors[1:]]
    assert later == [("UndefinedPredicate", 7, 23), ("UndefinedVariable", 8, 19)]
    assert UNCLOSED_AND.splitlines()[6][22:].startswith("r ?x")


def test_each_missing_parenthesis_is_reported_once():
    text = (HEAD + "(:action a :parameters (?x)\n  :precondition (and (p ?x)\n"
            "  :effect (and (not (p ?x))))\n(:action b :parameters (?x\n"
            "  :precondition (and (p ?x))\n  :effect (and (p ?x))))")
    errors = validate(text).errors
    assert [(e.category, e.line) for e in errors] == [("IncorrectParentheses", 4),
                                                      ("IncorrectParentheses", 6)]
    assert "'(?x' is never closed" in errors[1].message


def test_printed_errors_name_their_kind_where_the_category_is_other():
    undeclared = validate(HEAD + "(:action a :parameters (?x) :precondition (and (r ?x)) "
                                 ":effect (and (p ?x))))").errors[0]
    assert undeclared.category == "Other"
    assert str(undeclared).startswith("UndefinedPredicate: line 3, column ")
    typed = validate("(define (domain d) (:types a)\n(:predicates (p ?x - b)))").errors[0]
    assert str(typed).startswith("UndefinedType: ")


@pytest.mark.parametrize("text", ["hello world", "Sure! Here is the domain you asked for.",
                                  "; only a comment (define (domain d))\n", "   \n"])
def test_text_without_define_is_no_domain_found(text):
    error = only_error(text)
    assert (error.category, error.kind) == ("UndefinedDomainName", "NoDomainFound")
    assert str(error).startswith("NoDomainFound: no PDDL domain")


def test_a_valid_domain_gets_no_reading_errors():
    assert validate(BROKEN.replace("(r ?x)", "(p ?x)").replace("(p ?x ?y)", "(p ?x)")
                    .replace("(p ?w)", "(p ?x)").replace("(q ?y ?x) (p c)", "(q ?x ?y)")).ok


def test_errors_are_capped():
    from text2world.pddl.bounds import MAX_REPORTED_ISSUES
    body = "".join(f"(:action a{i} :parameters (?x) :precondition (r ?x) :effect (not (r ?x)))\n"
                   for i in range(200))
    errors = validate(f"(define (domain d) (:predicates (p ?x))\n{body})").errors
    assert len(errors) == MAX_REPORTED_ISSUES + 1 and errors[-1].kind == "MoreErrors"


def test_first_error_only_is_the_first_error_of_a_full_validation():
    """What a reward reads (``first_error_only``) is ``errors[0]`` of the full validation, on
    the taxonomy's cases, texts with parentheses left open, and mutants of store domains."""
    from text2world.pddl import perturb
    from text2world.store.datasets import load_dataset

    texts = [case[0] for case in test_each_taxonomy_category.pytestmark[0].args[1]]
    texts += [UNCLOSED_AND, BROKEN]
    for record in list(load_dataset())[:40]:
        for seed in range(2):
            texts += [perturb.break_parenthesis(record.domain, seed=seed),
                      perturb.undefine_predicate(record.domain, seed=seed)]
    compared = 0
    for text in texts:
        full, first = validate(text), validate(text, first_error_only=True)
        assert full.ok == first.ok, text
        if not full.ok:
            assert first.errors == full.errors[:1], text
            compared += 1
    assert compared >= 100
