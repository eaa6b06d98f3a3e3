"""Bounded work: linear comment stripping equal to the released regex, structural limits
checked before tarski, with errors that name the limit and where it is exceeded."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from text2world import DomainInputError, ScoringError, score, validate
from text2world.pddl.bounds import (
    LIMITS,
    MAX_DECLARATIONS,
    MAX_DOMAIN_CHARS,
    MAX_IDENTIFIER_CHARS,
    MAX_TYPE_DEPTH,
    MAX_TYPES,
    check_domain_text,
)
from text2world.pddl.model import strip_comments_released


def released_purge_comments(text: str) -> str:
    """The released generate.py ``_purge_comments`` (quadratic: small inputs only)."""
    while True:
        match = re.search(r";(.*)\n", text)
        if match is None:
            return text
        text = text[: match.start()] + text[match.end() - 1:]


def test_comment_stripping_equals_the_released_regex_on_released_golds(official_test):
    for record in official_test:
        for text in (record["pddl_domain"], record["pddl_domain"].rstrip("\n"),
                     record["pddl_domain"] + "; trailing"):
            assert strip_comments_released(text) == released_purge_comments(text)


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(";\n\r\t ()ab?\u2028\x85")), max_size=60))
def test_comment_stripping_equals_the_released_regex_on_fuzzed_text(text):
    assert strip_comments_released(text) == released_purge_comments(text)


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=200))
def test_comment_stripping_equals_the_released_regex_on_any_text(text):
    assert strip_comments_released(text) == released_purge_comments(text)


def domain(types: str = "", predicates: str = "(p ?x)", body: str = "") -> str:
    return (f"(define (domain d) (:requirements :strips :typing) {types} "
            f"(:predicates {predicates}) {body})")


def type_chain(n: int) -> str:
    return domain("(:types " + " ".join(f"t{i + 1} - t{i}" for i in range(n)) + " t0)")


CASES = {
    # name: (text over the limit, limit name, text at the limit)
    "types": (domain("(:types " + " ".join(f"t{i}" for i in range(8000)) + ")"), "MAX_TYPES",
              domain("(:types " + " ".join(f"t{i}" for i in range(MAX_TYPES)) + ")")),
    "type chain": (type_chain(8000), "MAX_TYPES", None),
    "type depth": (type_chain(MAX_TYPE_DEPTH + 1), "MAX_TYPE_DEPTH", type_chain(MAX_TYPE_DEPTH)),
    "nesting": (domain(body="(:action a :parameters (?x) :precondition "
                       + "(and " * 150 + "(p ?x)" + ")" * 150 + " :effect (not (p ?x)))"),
                "MAX_NESTING_DEPTH", None),
    "tokens": (domain(body="(:action a :parameters (?x) :precondition (and "
                      + "(p ?x) " * 8000 + ") :effect (not (p ?x)))"), "MAX_TOKENS", None),
    "declarations": (domain(predicates=" ".join(f"(p{i})" for i in range(MAX_DECLARATIONS + 1))),
                     "MAX_DECLARATIONS",
                     domain(predicates=" ".join(f"(p{i})" for i in range(MAX_DECLARATIONS - 1)))),
    "identifier": (domain(predicates=f"({'p' * (MAX_IDENTIFIER_CHARS + 1)} ?x)"),
                   "MAX_IDENTIFIER_CHARS", domain(predicates=f"({'p' * MAX_IDENTIFIER_CHARS} ?x)")),
    "size": (domain(body="x" * MAX_DOMAIN_CHARS), "MAX_DOMAIN_CHARS", None),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_structural_limits_name_the_limit_and_where(name, monkeypatch):
    text, limit, at_limit = CASES[name]
    parses = []
    from tarski.io import PDDLReader
    original = PDDLReader.parse_domain_string
    monkeypatch.setattr(PDDLReader, "parse_domain_string",
                        lambda self, s: parses.append(len(s)) or original(self, s))
    with pytest.raises(DomainInputError) as caught:
        check_domain_text(text)
    assert limit in caught.value.message and caught.value.kind == "LimitExceeded"
    assert f"{LIMITS[limit]:,}" in caught.value.message
    # where it was exceeded (the size: the first character past the limit)
    assert caught.value.line == 1 and caught.value.column
    if limit == "MAX_DOMAIN_CHARS":
        assert caught.value.column == MAX_DOMAIN_CHARS + 1
    result = validate(text)
    assert not result.ok and limit in result.errors[0].message
    assert result.errors[0].kind == "LimitExceeded"
    assert result.errors[0].line and result.errors[0].column
    for mode in ("paper", "canonical"):
        scored = score(domain(), text, mode=mode)
        assert not scored.executable and limit in scored.errors[0].message
    assert len(text) not in parses, "tarski must never see a text past a limit"
    if at_limit is not None:
        check_domain_text(at_limit)  # the limit itself is accepted


def test_the_largest_released_domains_are_far_below_every_limit(official_test):
    for record in official_test:
        check_domain_text(record["pddl_domain"])


def test_type_cycles_are_left_to_tarski():
    text = domain("(:types a - b b - a)")
    check_domain_text(text)
    assert not validate(text).ok


def test_semicolons_do_not_take_quadratic_time():
    # Released: 17 s for 40,000 ';' (the regex re-scans from the start for each). Linear now;
    # CPU time with a margin of 10x over a loaded machine's figure.
    gold = domain(body="(:action a :parameters (?x) :precondition (p ?x) :effect (not (p ?x)))")
    for text in ("(define (domain x) " + ";" * 120_000 + ")",
                 "(define (domain x)\n" + "; comment line\n" * 8_000 + ")"):
        start = time.process_time()
        for mode in ("paper", "canonical"):
            score(gold, text, mode=mode)
            try:
                score(text, gold, mode=mode)  # as the gold
            except ScoringError:  # a gold without actions: the paper's action F1 is undefined
                pass
        assert time.process_time() - start < 10.0


def test_error_messages_do_not_echo_huge_input():
    text = "(define (domain x) " + ";" * 100_000 + ")"  # tarski quotes the whole comment
    for issue in (validate(text).errors[0], score(domain(), text).errors[0]):
        assert len(issue.message) < 500 and ";" * 50 not in issue.message
    # whatever tarski quotes is cut, saying how long it was
    from text2world.pddl.validation import _shorten
    assert _shorten("x" * 10_000).endswith("... (10,000 characters)")


def test_a_text_that_passed_passes_at_once_until_the_limits_change(monkeypatch):
    """``check_domain_text`` remembers the texts that passed (a round's answer is checked by
    every read of it); a failing text is checked, and fails, every time; other limits check
    again."""
    from text2world.pddl import bounds

    checked: list[str] = []
    original = bounds.check_structure
    monkeypatch.setattr(bounds, "check_structure",
                        lambda text: checked.append(text) or original(text))
    text = "(define (domain remembered) (:predicates (p)))"
    for _ in range(3):
        bounds.check_domain_text(text)
    assert checked == [text]
    deep = "(define (domain d) " + "(" * 150 + ")" * 150 + ")"
    for _ in range(2):
        with pytest.raises(bounds.DomainInputError, match="nested"):
            bounds.check_domain_text(deep)
    assert checked.count(deep) == 2
    monkeypatch.setattr(bounds, "MAX_TOKENS", 3)
    with pytest.raises(bounds.DomainInputError, match="tokens"):
        bounds.check_domain_text(text)
