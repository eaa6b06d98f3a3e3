"""Canonical mode: rename-invariant, per-action, order- and nesting-insensitive."""

from __future__ import annotations

import re

import pytest

from text2world import score
from text2world.pddl import perturb
from text2world.pddl.model import strip_comments_released

F1S = ("f1_types", "f1_predicates", "f1_parameters", "f1_preconditions", "f1_effects")

GOLD = """(define (domain shop)
  (:requirements :typing :negative-preconditions)
  (:types item place - object crate - item)
  (:predicates (at ?i - item ?p - place) (holding ?i - item) (free) (open ?p - place))
  (:action pick
    :parameters (?i - item ?p - place)
    :precondition (and (at ?i ?p) (free) (open ?p))
    :effect (and (holding ?i) (not (at ?i ?p)) (not (free))))
  (:action drop
    :parameters (?i - item ?p - place)
    :precondition (and (holding ?i) (open ?p))
    :effect (and (at ?i ?p) (free) (not (holding ?i))))
  (:action close
    :parameters (?p - place)
    :precondition (and (open ?p) (free))
    :effect (and (not (open ?p)))))
"""


def test_consistent_renaming_scores_one_everywhere():
    renamed = perturb.rename_variables(GOLD, seed=3)
    assert renamed != GOLD
    result = score(GOLD, renamed, mode="canonical")
    assert result.executable
    assert all(getattr(result, k) == 1.0 for k in F1S)
    assert result.similarity == 1.0
    # paper mode compares parameter names and printed literals: renaming costs everything
    paper = score(GOLD, renamed)
    assert paper.f1_parameters == 0.0
    assert paper.f1_preconditions < 0.5 and paper.f1_effects < 0.5  # only "free()" survives


def test_order_duplicates_and_nesting_do_not_matter():
    shuffled = GOLD.replace("(and (at ?i ?p) (free) (open ?p))",
                            "(and (open ?p) (and (free) (at ?i ?p)) (free))")
    assert score(GOLD, shuffled, mode="canonical").f1_preconditions == 1.0


def test_missing_action_costs_that_action_only():
    dropped = perturb.drop_action(GOLD, seed=0)
    result = score(GOLD, dropped, mode="canonical")
    missing = [name for name, v in result.per_action.items() if v["status"] == "missing"]
    assert len(missing) == 1
    # Items are pooled over actions (micro F1): parameters gold 2+2+1=5; one action missing
    # leaves TP = 5 - n_missing, FN = n_missing, FP = 0.
    gold_params = {"pick": 2, "drop": 2, "close": 1}
    n = gold_params[missing[0]]
    assert result.f1_parameters == pytest.approx(2 * (5 - n) / (2 * (5 - n) + n))
    assert result.f1_parameters > 0.6
    assert score(GOLD, dropped).f1_parameters == 0.0  # paper mode: the whole domain is 0


def test_extra_predicted_actions_lower_precision():
    extra = GOLD[:-2] + """
  (:action wave
    :parameters (?p - place)
    :precondition (and (free))
    :effect (and (open ?p))))
"""
    result = score(GOLD, extra, mode="canonical")
    assert result.per_action["wave"]["status"] == "extra"
    # parameters: TP 5, FP 1, FN 0 -> 10 / 11
    assert result.f1_parameters == pytest.approx(10 / 11)
    # preconditions: TP 3+2+2=7, FP 1 -> 14 / 15; effects: TP 3+3+1=7, FP 1 -> 14 / 15
    assert result.f1_preconditions == pytest.approx(14 / 15)
    assert result.f1_effects == pytest.approx(14 / 15)
    assert score(GOLD, extra).f1_effects == 1.0  # paper mode ignores extra actions


def test_parameters_compare_by_position_and_type():
    swapped = GOLD.replace("(?i - item ?p - place)\n    :precondition (and (at ?i ?p) (free)",
                           "(?p - place ?i - item)\n    :precondition (and (at ?i ?p) (free)")
    result = score(GOLD, swapped, mode="canonical")
    # the same action with its parameters listed in another order: the alignment puts them
    # back in the gold's order (a faithful rewrite), so nothing is lost
    assert result.alignment.parameter_orders == {"pick": (1, 0)}
    assert result.per_action["pick"]["parameters"] == 1.0
    assert result.per_action["pick"]["preconditions"] == 1.0
    # a subtype still parses, but position 0 now has another type: F1 1/2 for pick
    retyped = GOLD.replace("(:action pick\n    :parameters (?i - item",
                           "(:action pick\n    :parameters (?i - crate")
    assert score(GOLD, retyped, mode="canonical").per_action["pick"]["parameters"] == 0.5


def test_predicates_and_types_compare_with_types():
    retyped = GOLD.replace("(holding ?i - item)", "(holding ?i - object)").replace(
        "item place - object crate - item", "item place crate - object")
    result = score(GOLD, retyped, mode="canonical")
    assert result.executable
    # predicates: 3 of 4 equal -> 0.75; types: {item/object, place/object, crate/item} vs
    # {item/object, place/object, crate/object}: 2 of 3 -> 2/3
    assert result.f1_predicates == pytest.approx(0.75)
    assert result.f1_types == pytest.approx(2 / 3)
    assert score(GOLD, retyped).f1_predicates == 1.0  # paper: name and arity only


def test_case_is_folded():
    result = score(GOLD, GOLD.upper(), mode="canonical")
    assert result.executable and all(getattr(result, k) == 1.0 for k in F1S)


def test_to_dict_adds_f1_types():
    result = score(GOLD, GOLD, mode="canonical").to_dict()
    assert result["mode"] == "canonical" and result["f1_types"] == 1.0


def test_released_domains_self_renamed_and_dropped(official_test):
    kept = []
    for index, record in enumerate(official_test):
        gold = record["pddl_domain"]
        clean = strip_comments_released(gold)
        renamed = perturb.rename_variables(clean, seed=index)
        for candidate in (clean, renamed):
            result = score(gold, candidate, mode="canonical")
            if str(record["id"]) == "187":
                assert not result.executable
                assert all(getattr(result, k) == 0 for k in F1S)
            else:
                assert result.executable
                assert all(getattr(result, k) == 1.0 for k in F1S), (record["id"], result)
        if str(record["id"]) != "187" and len(perturb.action_spans(clean)) >= 3:
            kept.append(score(gold, perturb.drop_action(clean, seed=index),
                              mode="canonical").f1_effects)
    assert len(kept) > 30
    assert min(kept) > 0.3 and sum(kept) / len(kept) > 0.7


# --------------------------------------------------------------------------------------------
# Scoring through the alignment of vocabularies

@pytest.fixture(scope="module")
def untyped_blocksworld(released_blocksworld) -> str:
    return released_blocksworld


def typed_version(untyped: str) -> str:
    """What models write for it: a `block` type on every parameter, `pick-up`/`put-down`."""
    typed = untyped.replace("(:requirements :strips)", "(:requirements :strips :typing)\n"
                            "(:types block)")
    head, *actions = typed.split("(:action")
    head = re.sub(r"(\?\w+)(?=[\s)])(?!\s*-)", r"\1 - block", head)

    def typed_parameters(match: re.Match) -> str:
        return ":parameters (" + " ".join(f"{v} - block" for v in match.group(1).split()) + ")"

    typed = "(:action".join([head] + [re.sub(r":parameters\s*\(([^)]*)\)", typed_parameters, a)
                                      for a in actions])
    return typed.replace("pickup", "pick-up").replace("putdown", "put-down")


def test_types_added_to_an_untyped_gold_cost_only_f1_types(untyped_blocksworld):
    predicted = typed_version(untyped_blocksworld)
    assert "(on ?x - block ?y - block)" in predicted
    assert "(?ob - block ?underob - block)" in predicted
    result = score(untyped_blocksworld, predicted, mode="canonical")
    assert result.executable
    for key in ("f1_predicates", "f1_parameters", "f1_preconditions", "f1_effects"):
        assert getattr(result, key) == 1.0, key
    assert result.f1_types == 0.0  # the gold declares no types; the prediction adds `block`
    alignment = result.alignment
    assert alignment.gold_untyped and alignment.types == {"block": "object"}
    assert alignment.actions["pick-up"] == "pickup"
    assert {k: v["status"] for k, v in result.per_action.items()} == dict.fromkeys(
        ("pickup", "putdown", "stack", "unstack"), "matched")
    # Before scoring went through the alignment, every parameter and predicate was lost.
    assert score(untyped_blocksworld, predicted).f1_parameters == 0.0  # paper mode: by name


def test_typed_gold_keeps_type_credit_strict(untyped_blocksworld):
    # The other way round is a real loss of information: a typed gold scored against an
    # untyped prediction still loses the typed parameters and predicates.
    typed = typed_version(untyped_blocksworld)
    result = score(typed, untyped_blocksworld, mode="canonical")
    assert not result.alignment.gold_untyped
    assert result.f1_types == 0.0 and result.f1_parameters == 0.0
    assert result.f1_predicates == pytest.approx(0.2)  # 1 of 5 equal: (arm-empty) has no types
    assert result.f1_preconditions == 1.0 and result.f1_effects == 1.0


def test_renamed_actions_predicates_and_types_score_one():
    renamed = GOLD
    for old, new in (("pick", "grab-item"), ("drop", "putItem"), ("close", "shut"),
                     ("holding", "carried"), ("free", "hand-free"), ("open", "accessible"),
                     (" at ", " located "), ("(at ", "(located "), ("crate", "box"),
                     ("item", "thing"), ("place", "spot")):
        renamed = renamed.replace(old, new)
    renamed = perturb.rename_variables(renamed, seed=2)
    result = score(GOLD, renamed, mode="canonical")
    assert all(getattr(result, k) == 1.0 for k in F1S), result
    assert result.similarity == 1.0
    assert result.alignment.actions == {"grab-thing": "pick", "putitem": "drop", "shut": "close"}
    assert result.per_action["pick"]["predicted"] == "grab-thing"
    assert score(GOLD, renamed).f1_parameters == 0.0  # paper mode stays the released evaluator


def test_unrelated_extra_action_keeps_its_written_name():
    extra = GOLD[:-2] + """
  (:action juggle
    :parameters (?a - item ?b - item ?c - item)
    :precondition (and (holding ?a) (holding ?b) (holding ?c))
    :effect (and (not (free)))))
"""
    result = score(GOLD, extra, mode="canonical")
    assert result.per_action["juggle"]["status"] == "extra"
    assert result.alignment.unmapped_predicted["actions"] == ("juggle",)
