from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


PROBLEM = "(define (problem q) (:domain d) (:objects a) (:init) (:goal (p)))"


@pytest.mark.parametrize("answer", [
    f"```\npddl\n{DOMAIN}\n```",  # a fence followed by a 'pddl' line
    f"```\nPDDL\n{DOMAIN}\n```",
    f"```\nlisp\n{DOMAIN}\n```",
    f"```{DOMAIN}\n```",  # code on the fence line itself
    f"```{DOMAIN}```",
    f"Here:\n```pddl\n{DOMAIN}",  # an unclosed last fence (a truncated answer)
    f"````pddl\n{DOMAIN}\n````",
])
def test_real_fence_shapes(answer):
    for mode in ("paper", "canonical"):
        assert extract_domain(answer, mode) == DOMAIN


def test_domain_and_problem_in_one_block():
    answer = f"```pddl\n{DOMAIN}\n\n{PROBLEM}\n```"
    assert extract_domain(answer) == DOMAIN
    # paper mode keeps the released block whole (tarski ignores the text after the domain)
    assert extract_domain(answer, "paper") == f"{DOMAIN}\n\n{PROBLEM}"
    answer = f"```pddl\n{PROBLEM}\n{DOMAIN}\n```"
    assert extract_domain(answer) == DOMAIN


def test_domain_and_problem_in_two_blocks():
    answer = f"Domain:\n```pddl\n{DOMAIN}\n```\nProblem:\n```pddl\n{PROBLEM}\n```"
    assert extract_domain(answer) == DOMAIN
    # paper mode: the released longest-block rule picks the (longer) problem
    assert extract_domain(answer, "paper") == PROBLEM


def test_bare_domain_then_problem():
    assert extract_domain(f"Sure: {PROBLEM}\n{DOMAIN}\nDone") == DOMAIN


def test_extraction_is_linear_on_hostile_answers():
    # many opening fences that never close, many '<think>' and '(define' starts
    for answer in ("```pddl\n" * 100_000, "<think>" * 100_000, "(define " * 100_000,
                   "```" * 300_000):
        try:
            extract_domain(answer)
        except NoDomainFound:
            pass


def test_score_answer_extracts_like_the_cli():
    from text2world import score, score_answer
    gold = DOMAIN.replace("(p)))", "(p)) (:action a :parameters () :precondition (p) "
                          ":effect (not (p))))")
    answer = f"<think>hmm</think>\n```\npddl\n{gold}\n```\n```pddl\n{PROBLEM}\n```"
    for mode in ("paper", "canonical"):
        assert score_answer(gold, answer, mode) == score(gold, extract_domain(answer, mode), mode)
    assert score_answer(gold, answer, "canonical").f1_effects == 1.0
    missing = score_answer(gold, "I cannot do that.")
    assert not missing.executable and missing.errors[0].kind == "NoDomainFound"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["```", "pddl", "\n", "(define", "(domain d)", "(problem", ")",
                                 "(", " ", "lisp", "<think>", "</think>", ";", "x"]),
                max_size=40).map("".join))
def test_any_answer_gives_a_domain_text_or_no_domain_found(answer):
    for mode in ("paper", "canonical"):
        try:
            domain = extract_domain(answer, mode)
        except NoDomainFound:
            continue
        assert domain.strip() and "```" not in domain


def test_a_stray_fence_after_a_bare_define_is_not_part_of_the_domain():
    """Found by the fuzz test above: an empty fence right after unfenced PDDL."""
    for answer in ("(define```", "(define```\n```)", "(define (domain d)```", "(define;```"):
        for mode in ("paper", "canonical"):
            domain = extract_domain(answer, mode)
            assert domain.startswith("(define") and "`" not in domain


def test_a_backtick_in_a_comment_stays_in_the_domain():
    domain = "(define (domain d)\n ; the `p` flag\n (:predicates (p)))"
    for answer in (domain, f"Here:\n```pddl\n{domain}\n```"):
        for mode in ("paper", "canonical"):
            assert extract_domain(answer, mode) == domain


def _balanced_by_characters(text: str, start: int) -> str:
    """balanced_expression's rule, read one character at a time (the reference)."""
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char == "`" and text.startswith("```", index):
            return text[start:index].strip()
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return text[start: index + 1]
        elif char == ";":
            newline = text.find("\n", index)
            end = len(text) if newline < 0 else newline
            fence = text.find("```", index, end)
            if fence >= 0:
                return text[start:fence].strip()
            index = end
        index += 1
    return text[start:].strip()


def test_balanced_expression_jumps_between_marks_as_a_character_scan_reads():
    import random

    from text2world.pddl.extract import balanced_expression

    rng = random.Random(5)
    for _ in range(20_000):
        text = "".join(rng.choice("()();;``` \n\nab-:?") for _ in range(rng.randint(0, 24)))
        for start in range(len(text) + 1):
            assert balanced_expression(text, start) == _balanced_by_characters(text, start)
