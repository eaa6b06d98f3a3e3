"""The domain model: built from tarski, printed back to PDDL, parsed again to the same model."""

from __future__ import annotations

import dataclasses

import pytest

from text2world import load_dataset, parse_domain
from text2world.pddl.model import (
    Action,
    And,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    ForallEffect,
    FunctionEffect,
    Not,
    Or,
    Quantified,
    TypedName,
    strip_comments,
    strip_comments_released,
)

RICH = """(define (domain rich)
  (:requirements :typing :negative-preconditions :equality :disjunctive-preconditions
                 :universal-preconditions :existential-preconditions :conditional-effects
                 :action-costs)
  (:types room box - object heavy - box)
  (:constants hall - room)
  (:predicates (at ?b - box ?r - room) (open ?r - room) (lit ?r - room))
  (:functions (total-cost) - number)
  (:action carry
    :parameters (?b - box ?from - room ?to - room)
    :precondition (and (at ?b ?from) (not (= ?from ?to))
                       (or (open ?to) (= ?to hall))
                       (exists (?o - box) (at ?o ?to))
                       (forall (?h - heavy) (not (at ?h ?from))))
    :effect (and (not (at ?b ?from)) (at ?b ?to)
                 (when (not (lit ?to)) (lit ?to))
                 (forall (?r - room) (when (open ?r) (not (open ?r))))
                 (increase (total-cost) 2))))
"""


def test_model_has_every_construct():
    domain = parse_domain(RICH)
    assert domain.name == "rich"
    assert ":action-costs" in domain.requirements
    assert TypedName("heavy", "box") in domain.types
    assert domain.constants == (TypedName("hall", "room"),)
    assert [p.name for p in domain.predicates] == ["at", "open", "lit"]
    assert [f.name for f in domain.functions] == ["total-cost"]
    carry = domain.action("carry")
    assert isinstance(carry, Action)
    assert carry.parameters[2] == TypedName("?to", "room")
    parts = carry.precondition.parts
    assert isinstance(parts[1], Not) and parts[1].formula == Atom("=", ("?from", "?to"))
    assert isinstance(parts[2], Or)
    assert isinstance(parts[3], Quantified) and parts[3].quantifier == "exists"
    assert isinstance(parts[4], Quantified) and parts[4].quantifier == "forall"
    kinds = [type(e) for e in carry.effects]
    assert DeleteEffect in kinds and ConditionalEffect in kinds and ForallEffect in kinds
    assert carry.effects[-1] == FunctionEffect("increase", "(total-cost)", "2")


def test_model_is_immutable():
    domain = parse_domain(RICH)
    with pytest.raises(dataclasses.FrozenInstanceError):
        domain.name = "other"  # type: ignore[misc]
    assert isinstance(domain.actions, tuple)


def test_print_round_trips():
    domain = parse_domain(RICH)
    assert parse_domain(domain.to_pddl()) == domain


def test_released_domains_round_trip(official_test):
    parsed = 0
    for record in official_test:
        if str(record["id"]) == "187":
            continue
        domain = parse_domain(record["pddl_domain"])
        assert parse_domain(domain.to_pddl()) == domain, record["id"]
        parsed += 1
    assert parsed == 100


def test_store_domains_round_trip():
    dataset = load_dataset()
    assert len(dataset) >= 2
    for record in dataset:
        domain = parse_domain(record.domain)
        assert parse_domain(domain.to_pddl()) == domain, record.id


def test_comment_stripping_variants():
    text = "(a) ; one\n(b) ; last line without newline"
    assert strip_comments_released(text) == "(a) \n(b) ; last line without newline"
    assert strip_comments(text) == "(a) \n(b) "


def test_and_nesting_is_kept_in_the_model():
    domain = parse_domain(RICH.replace("(and (at ?b ?from)", "(and (and (at ?b ?from))"))
    assert isinstance(domain.action("carry").precondition, And)
