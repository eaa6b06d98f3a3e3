"""tarski's tokens cut without tarski's lexer (pddl/tarski_lexer.py): the same tokens, field for
field, as tarski's ANTLR lexer on every text it accepts, the same trees and errors from tarski's
parser, and tarski's own lexer wherever a piece is not one token."""

from __future__ import annotations

import pytest
from antlr4 import InputStream
from antlr4.tree.Trees import Trees
from tarski.io import PDDLReader
from tarski.io._fstrips.parser.lexer import fstripsLexer
from tarski.io._fstrips.parser.parser import fstripsParser

from text2world.model.reference import reference_answer
from text2world.pddl import perturb, tarski_lexer
from text2world.pddl.extract import NoDomainFound, extract_domain
from text2world.store.datasets import load_dataset

RECORDS = sorted(load_dataset().records, key=lambda r: r.id)

EDGES = [
    "(define (domain d)\r\n\t(:requirements :strips)\r\n (:predicates (p ?x)))",
    "(define (domain d) ; a comment\n(:predicates (p ?x)))",
    "(define (domain d) ;\r\n(:predicates (p ?x)))",
    "(define (DOMAIN D) (:REQUIREMENTS :STRIPS) (:Predicates (P ?X)))",
    "(define (domain d) (:requirements :Strips) (:predicates (p ?x)))",  # case-sensitive key
    "(define (domain d) (:functions (total-cost) - number) (:action a :parameters ()"
    " :precondition (and (>= (f) -1.5) (<= (f) 2)) :effect (and (increase (total-cost) 1))))",
    "(define (problem p) (:domain d) (:objects a b - thing) (:init (= (f a) 1.25))"
    " (:goal (and (p a))) (:metric minimize (total-cost)) (:bounds [1..5]))",
    "(:metric minimize (total-time))",
    "(and (at-end (p)) (scale-up (f) 2) (Scale-Up (f) 2) #t @ext-1 ?v-1_x x-1 1..5 - 5 -5)",
    "(define (domain d) (:predicates (p ?x))) ; no newline at the end",
    "(define (domain d) (:predicates (p ?1)))",
    "(define (domain d) (:predicates (p ?x) (q ?x.y)))",
    "(define (domain d) (:predicates (p ?x) (q 1.)))",
    "(define (domain d) (:predicates (p ?x) (q :foo)))",
    "(define (domain dé) (:predicates (p ?x)))",
    "(define (domain d) (:predicates (p ?x)) {})",
    "",
    "   \n\n ",
]


def antlr_tokens(text: str) -> list[tuple]:
    lexer = fstripsLexer(InputStream(text))
    lexer.removeErrorListeners()
    found = []
    while True:
        token = lexer.nextToken()
        found.append(_fields(token))
        if token.type == -1:
            return found


def _fields(token) -> tuple:
    return (token.type, token.channel, token.start, token.stop, token.line, token.column,
            token.text)


def texts() -> list[str]:
    found = list(EDGES)
    for record in RECORDS:
        found += [record.domain, record.domain.lower(), *(p.pddl for p in record.problems)]
        for seed in range(2):
            found += [perturb.break_parenthesis(record.domain, seed),
                      perturb.undefine_predicate(record.domain, seed),
                      perturb.rename_variables(record.domain, seed)]
        for k in range(4):
            try:
                found.append(extract_domain(reference_answer("noisy-oracle", record.domain,
                                                             record.id, k, seed=k), "canonical"))
            except NoDomainFound:
                pass
    return found


TEXTS = texts()


def test_the_tokens_are_tarskis_lexers_field_for_field():
    declined = 0
    for text in TEXTS:
        source = tarski_lexer.tokens(text)
        if source is None:
            declined += 1
            continue
        assert [_fields(token) for token in source.tokens] == antlr_tokens(text), text[:300]
    assert len(TEXTS) > 1500
    assert declined <= len(EDGES)  # only texts with a character or piece no rule reads as one


@pytest.mark.parametrize("text", [e for e in EDGES if "é" in e or "{" in e or "?1" in e
                                  or "q 1." in e or ":foo" in e or ":Strips" in e
                                  or "no newline" in e or "?x.y" in e])
def test_a_piece_that_is_not_one_token_goes_to_tarskis_lexer(text):
    assert tarski_lexer.tokens(text) is None


def _parse(text: str, rule: str, fast: bool) -> tuple:
    """(the tree as a string, or the error's class and message) of tarski's parser."""
    reader = PDDLReader(raise_on_error=True)
    parser = reader.parser
    try:
        if fast:
            made = tarski_lexer.parse(parser, text, rule)
            tree, _ = made if made is not None else parser.parse_string(text, rule)
        else:
            tree, _ = parser.parse_string(text, rule)
    except Exception as err:  # noqa: BLE001 - tarski raises many classes
        return type(err).__name__, str(err)
    return "tree", Trees.toStringTree(tree, ruleNames=fstripsParser.ruleNames)


def test_tarskis_parser_gives_the_same_trees_and_errors():
    errors = 0
    for text in TEXTS[::3] + EDGES:
        rule = "problem" if "(problem" in text[:60] else "domain"
        fast, slow = _parse(text, rule, True), _parse(text, rule, False)
        assert fast == slow, text[:300]
        errors += fast[0] != "tree"
    assert errors >= 50  # broken texts among them: their errors, positions included, agree
