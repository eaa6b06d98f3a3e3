"""Alignment of vocabularies: predicted names mapped onto the gold's."""

from __future__ import annotations

import json
import pickle
import random
import re

import pytest
from repo_paths import REPO

from text2world import score
from text2world.pddl import perturb
from text2world.pddl.model import parse_domain, strip_comments
from text2world.scoring.alignment import KINDS, UNMAPPED_PREFIX, align, name_keys

STORE = sorted((REPO / "data" / "domains").glob("*.pddl"))
F1S = ("f1_types", "f1_predicates", "f1_parameters", "f1_preconditions", "f1_effects")
NOT_NAMES = {"and", "not", "or", "forall", "exists", "when", "object", "either", "number",
             "imply", "define", "domain"}


def declared_names(text: str) -> dict[str, str]:
    """Every declared type, predicate and action name of a domain (lower case) -> its kind."""
    domain = parse_domain(text)
    names = {t.name: "types" for t in domain.types}
    names.update({p.name: "predicates" for p in domain.predicates})
    names.update({a.name: "actions" for a in domain.actions})
    return {n: k for n, k in names.items() if n not in NOT_NAMES}


def rename(text: str, mapping: dict[str, str]) -> str:
    """Rename whole PDDL tokens (case-insensitively), the same new name everywhere."""
    if not mapping:
        return text
    alternatives = "|".join(map(re.escape, sorted(mapping, key=len, reverse=True)))
    pattern = re.compile(rf"(?<=[\s(])({alternatives})(?=[\s)])", re.IGNORECASE)
    return pattern.sub(lambda m: mapping[m.group(1).lower()], text)


def shuffle_actions(text: str, seed: int) -> str:
    """The same domain with its action blocks in another order."""
    spans = perturb.action_spans(text)
    if len(spans) < 2:
        return text
    blocks = [text[s:e] for s, e in spans]
    random.Random(seed).shuffle(blocks)
    return text[: spans[0][0]] + "\n".join(blocks) + text[spans[-1][1]:]


def opaque_renaming(text: str, seed: int) -> dict[str, str]:
    """Every type, predicate and action renamed to a meaningless name (zq0, zq1, ...)."""
    names = sorted(declared_names(text))
    fresh = [f"zq{i}" for i in range(len(names))]
    random.Random(seed).shuffle(fresh)
    return dict(zip(names, fresh))


def renamed(text: str, renaming: dict[str, str], seed: int) -> str | None:
    """The text renamed and its actions shuffled; None when text-level renaming cannot rename
    this domain cleanly (a name that is also a keyword-like token somewhere)."""
    if not renaming:
        return None
    result = shuffle_actions(rename(text, renaming), seed)
    try:
        parse_domain(result)
    except Exception:  # noqa: BLE001 - tarski raises many classes
        return None
    return result


def variant(name: str, style: int) -> str:
    """A normalised-equal spelling a model might use."""
    words = name.split("-")
    if style == 0:
        return "".join(words)  # pick-up -> pickup
    if style == 1:
        return "_".join(words).upper()  # pick-up -> PICK_UP
    if style == 2:
        return name + ("es" if name.endswith(("x", "s", "ch", "sh")) else "s")  # plural
    if style == 3:
        return words[0] + "".join(w.capitalize() for w in words[1:])  # camelCase
    return "-".join(reversed(words))  # word order


def variant_renaming(text: str, seed: int) -> dict[str, str]:
    names = sorted(declared_names(text))
    rng = random.Random(seed)
    mapping = {n: variant(n, rng.randrange(5)) for n in names}
    # Two names whose variants coincide (or equal another name) would not be a renaming.
    if len(set(mapping.values())) < len(mapping) or set(mapping.values()) & (
            set(names) - {n for n, v in mapping.items() if v == n}):
        return {}
    return mapping


def assert_identity_equivalent(gold: str, predicted: str, renaming: dict[str, str],
                               exact: bool = True) -> None:
    """Canonical scoring gives 1.0 everywhere and nothing stays unmapped; with ``exact`` the
    alignment is exactly the inverse of the renaming. (Without it, a mapping that differs from
    the inverse yet scores 1.0 everywhere is a symmetry of the domain, e.g. two interchangeable
    rooms: equally right.)"""
    result = score(gold, predicted, mode="canonical")
    assert result.executable
    assert all(getattr(result, k) == 1.0 for k in F1S), result
    assert result.similarity == 1.0
    alignment = result.alignment
    for kind in ("types", "predicates", "actions"):
        assert not alignment.unmapped_gold[kind] and not alignment.unmapped_predicted[kind]
    if exact:
        inverse = {new.lower(): old for old, new in renaming.items()}
        for kind in ("types", "predicates", "actions"):
            for predicted_name, gold_name in alignment.mapping(kind).items():
                assert inverse.get(predicted_name, predicted_name) == gold_name, (
                    kind, predicted_name, gold_name)


def test_normal_forms_of_names():
    same = [("pick-up", "pickup"), ("pick-up", "pick_up"), ("pick-up", "PICK-UP"),
            ("on-table", "table-on"), ("blocks", "block"), ("boxes", "box"),
            ("picks-up", "pick-up"), ("moving", "move"), ("is-clear", "clear"),
            ("handEmpty", "hand-empty")]
    for left, right in same:
        assert name_keys(left.lower() if left.isupper() else left) & name_keys(right), (left, right)
    for left, right in [("stack", "unstack"), ("on", "ontable"), ("pick-up", "put-down")]:
        assert not name_keys(left) & name_keys(right), (left, right)


def test_self_alignment_is_identity():
    for path in STORE[::7]:
        domain = parse_domain(path.read_text())
        alignment = align(domain, domain)
        assert alignment.is_identity
        assert alignment.translate(domain) is domain
        for kind in KINDS:
            assert all(c == 1.0 for c in alignment.confidence[kind].values())


@pytest.mark.parametrize("index", range(0, len(STORE), 9))
def test_store_domains_renamed_opaquely_and_shuffled(index):
    text = strip_comments(STORE[index].read_text())
    renaming = opaque_renaming(text, seed=index)
    predicted = renamed(text, renaming, seed=index)
    assert predicted is not None
    assert_identity_equivalent(text, predicted, renaming, exact=False)


def test_store_domains_with_variant_names():
    checked = 0
    for index, path in enumerate(STORE[::4]):
        text = strip_comments(path.read_text())
        renaming = variant_renaming(text, seed=index)
        predicted = renamed(text, renaming, seed=index)
        if predicted is None:
            continue
        assert_identity_equivalent(text, predicted, renaming)
        alignment = score(text, predicted, mode="canonical").alignment
        for kind in ("types", "predicates", "actions"):
            assert all(c >= 0.95 for c in alignment.confidence[kind].values())
        checked += 1
    assert checked >= 15


def test_released_golds_renamed(official_test):
    checked = 0
    for index, record in enumerate(official_test[::6]):
        if str(record["id"]) == "187":
            continue
        text = strip_comments(record["pddl_domain"])
        renaming = variant_renaming(text, seed=index) if index % 2 else opaque_renaming(text, index)
        predicted = renamed(text, renaming, seed=index)
        if predicted is None:
            continue
        assert_identity_equivalent(text, predicted, renaming, exact=bool(index % 2))
        checked += 1
    assert checked >= 12


def test_pick_up_for_pickup_is_one_matched_action(released_blocksworld):
    gold = released_blocksworld
    predicted = gold.replace("pickup", "pick-up").replace("putdown", "put-down")
    result = score(gold, predicted, mode="canonical")
    assert result.per_action["pickup"] == {"status": "matched", "predicted": "pick-up",
                                           "parameters": 1.0, "preconditions": 1.0,
                                           "effects": 1.0}
    assert result.alignment.actions["pick-up"] == "pickup"
    assert result.alignment.confidence["actions"]["pick-up"] == 0.95
    assert all(getattr(result, k) == 1.0 for k in F1S)


def test_different_domains_get_no_confident_mappings():
    by_name = {p.stem: p for p in STORE}
    pairs = [("blocksworld", "gripper"), ("switch-doors", "bakery-ovens"),
             ("recycling-sorting", "airport-ground")]
    for left, right in pairs:
        gold = parse_domain(by_name[left].read_text())
        predicted = parse_domain(by_name[right].read_text())
        alignment = align(gold, predicted)
        for kind in ("predicates", "actions"):
            spurious = {p: c for p, c in alignment.confidence[kind].items()
                        if c >= 0.8 and p != alignment.mapping(kind)[p]}
            assert not spurious, (left, right, kind, spurious)


def test_alignment_is_deterministic_and_order_independent():
    text = strip_comments((REPO / "data" / "domains" / "switch-doors.pddl").read_text())
    renaming = opaque_renaming(text, seed=5)
    predicted = rename(text, renaming)
    gold_domain = parse_domain(text)
    first = align(gold_domain, parse_domain(predicted))
    assert align(gold_domain, parse_domain(predicted)) == first
    assert align(gold_domain, parse_domain(shuffle_actions(predicted, 2))) == first


def test_translate_prefixes_unmapped_names_and_reparses():
    gold_text = (REPO / "data" / "domains" / "blocksworld.pddl").read_text()
    extra = gold_text.rstrip()[:-1] + """
  (:action unmapped-wave
    :parameters (?b - block)
    :precondition (and (glowing ?b))
    :effect (and (not (glowing ?b)))))
"""
    # a gold that has a predicate named like the prefixed extra one
    gold = parse_domain(gold_text.replace(
        "(hand-empty))", "(hand-empty) (unmapped-glowing ?b - block))", 1))
    predicted = parse_domain(extra.replace(
        "(hand-empty))", "(hand-empty) (glowing ?b - block))", 1))
    alignment = align(gold, predicted)
    assert alignment.unmapped_predicted["actions"] == ("unmapped-wave",)
    translated = alignment.translate(predicted)
    names = {a.name for a in translated.actions}
    assert "unmapped-unmapped-wave" in names
    predicates = {p.name for p in translated.predicates}
    if "glowing" not in alignment.predicates:
        assert UNMAPPED_PREFIX + UNMAPPED_PREFIX + "glowing" in predicates
    assert parse_domain(translated.to_pddl()) == translated


def test_alignment_is_json_and_pickle_friendly():
    text = (REPO / "data" / "domains" / "blocksworld.pddl").read_text()
    renaming = opaque_renaming(text, seed=1)
    result = score(text, rename(text, renaming), mode="canonical")
    data = json.loads(json.dumps(result.alignment.to_dict()))
    assert set(data) == {"gold_untyped", "notes", "argument_orders", "parameter_orders",
                         "type_predicates", *KINDS}
    assert {m["gold"] for m in data["actions"]["mapped"]} == {"pick-up", "put-down", "stack",
                                                               "unstack"}
    assert pickle.loads(pickle.dumps(result)) == result
    assert pickle.loads(pickle.dumps(result.alignment)) == result.alignment


def test_work_is_bounded_by_the_number_of_names_left():
    # Thousands of unrelated names (the parser's size limit allows them): structure matching
    # is skipped for that kind, and the alignment says so, instead of building huge matrices.
    count = 600
    gold = parse_domain("(define (domain g) (:predicates "
                        + " ".join(f"(p{i} ?x)" for i in range(count)) + "))")
    predicted = parse_domain("(define (domain g) (:predicates "
                             + " ".join(f"(q{i} ?x)" for i in range(count)) + "))")
    alignment = align(gold, predicted)
    assert not alignment.predicates
    assert len(alignment.unmapped_gold["predicates"]) == count
    assert any("not matched by structure" in note for note in alignment.notes)
    # exact and normalised names are still matched at any size
    same = align(gold, gold)
    assert same.is_identity and not same.notes


def test_untyped_gold_is_noted():
    gold = parse_domain("(define (domain d) (:predicates (p ?x)) (:action a :parameters (?x) "
                        ":precondition (p ?x) :effect (not (p ?x))))")
    predicted = parse_domain("(define (domain d) (:requirements :typing) (:types box thing) "
                             "(:predicates (p ?x - box)) (:action a :parameters (?x - box) "
                             ":precondition (p ?x) :effect (not (p ?x))))")
    alignment = align(gold, predicted)
    assert alignment.gold_untyped
    assert alignment.types == {"box": "object", "thing": "object"}
    assert alignment.notes == ("the gold declares no types: every predicted type maps to object",)
    translated = alignment.translate(predicted)
    assert translated.types == () and translated.predicates == gold.predicates
    assert translated.actions == gold.actions


BLOCKS = (REPO / "data" / "domains" / "blocksworld.pddl").read_text()


def test_arguments_written_in_another_order_are_mapped_back():
    swapped = BLOCKS.replace("(on ?top - block ?below - block)",
                             "(on ?below - block ?top - block)")
    everywhere = swapped.replace("(on ?b ?target)", "(on ?target ?b)").replace(
        "(on ?b ?below)", "(on ?below ?b)")
    result = score(BLOCKS, everywhere, mode="canonical")
    assert result.alignment.argument_orders == {"on": (1, 0)}
    assert all(getattr(result, k) == 1.0 for k in F1S) and result.similarity == 1.0
    assert result.alignment.to_dict()["argument_orders"] == {"on": [1, 0]}
    translated = result.alignment.translate(parse_domain(everywhere))
    assert translated.action("stack") == parse_domain(BLOCKS).action("stack")
    # swapped in one action only: a real mistake, not a convention; nothing is reordered
    once = BLOCKS.replace("(on ?b ?target)", "(on ?target ?b)")
    result = score(BLOCKS, once, mode="canonical")
    assert not result.alignment.argument_orders
    assert result.per_action["stack"]["effects"] < 1.0
    assert result.per_action["unstack"]["preconditions"] == 1.0
