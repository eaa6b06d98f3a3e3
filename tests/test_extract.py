from __future__ import annotations

import pytest

from text2world import NoDomainFound, extract_domain

DOMAIN = "(define (domain d) (:predicates (p)))"


def test_longest_pddl_block_wins():
    answer = f"First:\n```pddl\n(define (domain x))\n```\nFixed:\n```pddl\n{DOMAIN}\n```\n"
    assert extract_domain(answer) == DOMAIN


def test_pddl_blocks_beat_plain_blocks_and_tags_are_case_insensitive():
    answer = f"```\n{DOMAIN} ;; a much longer plain block\n```\n```PDDL\n{DOMAIN}\n```"
    assert extract_domain(answer) == DOMAIN


def test_plain_fenced_block():
    assert extract_domain(f"Here you go:\n```lisp\n{DOMAIN}\n```") == DOMAIN


def test_bare_define_text_up_to_its_closing_paren():
    answer = f"Sure. {DOMAIN[:-1]} ; a comment with ) inside\n) That is all (really)."
    assert extract_domain(answer) == DOMAIN[:-1] + " ; a comment with ) inside\n)"


def test_think_blocks_are_removed_first():
    answer = f"<think>maybe ```pddl\n(define (domain wrong))\n``` no</think>\n```pddl\n{DOMAIN}\n```"
    assert extract_domain(answer) == DOMAIN
    with pytest.raises(NoDomainFound, match="think"):
        extract_domain("<think>(define (domain hidden)) I am still thinking")


@pytest.mark.parametrize("answer", ["", "   ", "I cannot help with that.", "```\n\n```"])
def test_no_domain_is_a_clear_error(answer):
    with pytest.raises(NoDomainFound):
        extract_domain(answer)


def test_unbalanced_bare_domain_is_returned_for_the_validator():
    assert extract_domain("(define (domain d) (:predicates (p))") == \
        "(define (domain d) (:predicates (p))"
