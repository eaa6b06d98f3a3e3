"""Descriptions of the problem task (``tasks/problem/descriptions.py``): glosses read from the
store's predicate lines, explicit descriptions that state every object and fact, abstract ones
that pass the lint (no more than a few object names, never a fact per sentence) on every
store problem, and the lint itself on hand-written texts."""

from __future__ import annotations

import pytest

from text2world.simulation import parse_problem
from text2world.store.datasets import load_dataset
from text2world.tasks.problem.descriptions import (
    DescriptionError,
    abstract_description,
    describe,
    explicit_description,
    lint_abstract,
    lint_problem_description,
)
from text2world.worlds.prose import glosses_from_description


@pytest.fixture(scope="module")
def records() -> dict:
    return {record.id: record for record in load_dataset().select("all", None)}


def test_glosses_are_read_from_predicate_lines():
    text = ("### Predicates\n- **(on ?top - block ?below - block)**: Block ?top sits on "
            "block ?below.\n- **(lit ?r ?s - room)**: The lamp is on.\n")
    glosses = glosses_from_description(text)
    assert glosses["on"].gloss == "block {top} sits on block {below}"
    assert glosses["on"].params == (("top", "block"), ("below", "block"))
    # a variable the sentence leaves out is still rendered
    assert glosses["lit"].params == (("r", "room"), ("s", "room"))
    assert "{r}" in glosses["lit"].gloss and "{s}" in glosses["lit"].gloss


def test_explicit_states_every_object_and_fact(records):
    record = records["blocksworld"]
    text = " ".join(explicit_description(record, record.problems[0].pddl).split())
    assert all(len(line) <= 78 for line in explicit_description(
        record, record.problems[0].pddl).splitlines())
    assert "block b sits directly on block a" in text.lower()
    assert "block a sits directly on block b and block b sits directly on block c" in \
        text.lower()  # the goal
    for record in (records["cargo-logistics"], records["tidy-room"]):
        problem = parse_problem(record.domain, record.problems[0].pddl)
        text = explicit_description(record, record.problems[0].pddl)
        for obj in problem.objects:
            assert obj.name in text or obj.name in record.domain.lower()


def test_abstract_passes_the_lint_and_explicit_fails_it_on_every_store_problem(records):
    checked = 0
    for record in records.values():
        for problem in record.problems:
            abstract = abstract_description(record, problem.pddl)
            assert lint_problem_description(record, problem.pddl, abstract) == [], \
                (record.id, problem.name, abstract)
            explicit = describe(record, problem.pddl, "explicit")
            assert lint_problem_description(record, problem.pddl, explicit), \
                (record.id, problem.name)
            checked += 1
    assert checked == 324


def test_lint_on_hand_written_texts():
    names = ["depot1", "depot2", "parcel-a", "parcel-b", "truck"]
    listing = ("Parcel parcel-a is at depot1. Parcel parcel-b is at depot2. The truck is at "
               "depot1.")
    assert any("names 5 objects" in p for p in lint_abstract(listing, names))
    assert lint_abstract("Deliver every parcel to its depot.", names) == []
    facts = "Move `x` to the left. Then `x` up. Then `x` down. Then `x` right."
    assert any("sentences name objects" in p for p in lint_abstract(facts, ["x"]))
    # a name that is an everyday word of the domain counts only in backticks
    assert lint_abstract("cold glass, warm glass, hot glass and molten glass",
                         ["cold", "warm", "hot", "molten"],
                         vocabulary={"cold", "warm", "hot", "molten"}) == []


def test_a_problem_of_another_domain_is_a_clear_error(records):
    with pytest.raises(DescriptionError, match="blocksworld"):
        explicit_description(records["blocksworld"], records["cargo-logistics"].problems[0].pddl)
    with pytest.raises(DescriptionError, match="style"):
        describe(records["blocksworld"], records["blocksworld"].problems[0].pddl, "concrete")
