"""Scoring work behind the API (issue 15): a domain whose folded parse fails is not parsed a
second time as written when lower-casing cannot change tarski's verdict, with scores unchanged.

(The speed itself is measured by bench/score_bench.py --mode canonical; here the work: parses.)
"""

from __future__ import annotations

import pytest
from tarski.io import PDDLReader

from text2world import score, validate
from text2world.pddl import perturb, tarski_cache
from text2world.pddl.model import folding_can_change_parse, strip_comments_released, tarski_parse

DOMAIN = ("(define (domain Move) (:requirements :strips :typing) (:types Box Place)\n"
          "  (:predicates (Holds ?b - Box ?p - Place) (Free ?p - Place))\n"
          "  (:action Push :parameters (?b - Box ?from ?to - Place)\n"
          "    :precondition (and (Holds ?b ?from) (Free ?to))\n"
          "    :effect (and (Holds ?b ?to) (not (Holds ?b ?from)) (Free ?from) (not (Free ?to)))))")


def _parses(text: str) -> bool:
    try:
        tarski_parse(text)
        return True
    except Exception:  # noqa: BLE001
        return False


@pytest.mark.parametrize("text", [
    "(define (domain d) (:types Object object) (:predicates (p ?x - Object)))",  # collision
    "(define (domain d) (:types Object) (:predicates (p ?x - Object)))",  # the built-in sort
    "(define (domain d) (:predicates (AND ?x)))",  # a keyword once folded
    "(define (domain d) (:requirements :TYPING) (:predicates (p)))",  # a requirement key
    "(define (domain d) (:types a) (:functions (f) - Real))",  # a built-in sort as written
    "(define (domain d) (:predicates (p ?X ?x)))",  # two variables as written, one folded
    "(define (domain d) (:predicates (Ünïcode)))",  # non-ASCII folding
    "(define (domain d) (:predicates (p)) (:action a :parameters () :precondition (p) "
    ":effect (increase (Total-Cost) 1)))",  # a name the reader looks for
])
def test_folding_that_may_change_the_parse_is_detected(text):
    assert folding_can_change_parse(text)


def test_a_one_to_one_renaming_is_not_flagged():
    assert not folding_can_change_parse(DOMAIN)
    assert not folding_can_change_parse(DOMAIN.replace("(:action Push", "(:action Push-Big"))


def test_skipping_the_second_parse_never_changes_the_verdict(official_test):
    """Wherever the check says folding cannot matter and the folded text fails, the text as
    written fails too (the released golds, their twins, broken ones included)."""
    checked = 0
    for index, record in enumerate(official_test[::3]):
        gold = record["pddl_domain"]
        clean = strip_comments_released(gold)
        for text in (gold, perturb.break_parenthesis(clean, index),
                     perturb.drop_action(clean, index)):
            folded = text.lower()
            if folded == text or folding_can_change_parse(text) or _parses(folded):
                continue
            checked += 1
            assert not _parses(text), text[:300]
    assert checked >= 5


def test_a_broken_domain_with_upper_case_is_parsed_once(monkeypatch):
    broken = DOMAIN.replace("(Free ?to))", "(Free ?to)", 1)
    calls = []
    original = PDDLReader.parse_domain_string

    def counting(self, text):
        calls.append(text)
        return original(self, text)

    monkeypatch.setattr(PDDLReader, "parse_domain_string", counting)
    result = score(DOMAIN, broken, mode="canonical")
    assert not result.executable and result.errors
    tarski_cache.clear()  # the broken text's failed parse is cached too
    calls.clear()
    score(DOMAIN, broken, mode="canonical")  # the gold is cached now
    assert len(calls) == 1
    calls.clear()
    assert score(DOMAIN, broken, mode="canonical") == result  # tarski's answer kept
    assert not calls
    tarski_cache.clear()
    checked = validate(broken)
    # the text itself is parsed once; a later parse is of the text with the missing ')' put
    # back, to report the errors after it (validation's repair pass)
    folded = [text.lower() for text in calls]
    assert not checked.ok and folded[0] == broken.lower() and broken.lower() not in folded[1:]
