"""contamination_rate, its tokenisation rules and the pigeonhole index (against brute force)."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from text2world.tasks.contamination.overlap import (
    CandidateIndex,
    TokenSequence,
    compare_corpus,
    contamination_rate,
    content_tokens,
    prefix,
    prefix_end,
)

GRIPPER = """\
(define (domain gripper)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:predicates
    (robot-at ?r - room)
    (ball-at ?b - ball ?r - room)
    (free ?g - gripper)
    (carrying ?b - ball ?g - gripper))

  (:action move
    :parameters (?from - room ?to - room)
    :precondition (robot-at ?from)
    :effect (and (robot-at ?to)
                 (not (robot-at ?from))))

  (:action pick
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (ball-at ?b ?r) (robot-at ?r) (free ?g))
    :effect (and (carrying ?b ?g)
                 (not (ball-at ?b ?r))
                 (not (free ?g))))

  (:action drop
    :parameters (?b - ball ?r - room ?g - gripper)
    :precondition (and (carrying ?b ?g) (robot-at ?r))
    :effect (and (ball-at ?b ?r)
                 (free ?g)
                 (not (carrying ?b ?g)))))
"""

KITCHEN = """\
(define (domain kitchen)
  (:requirements :strips :typing :negative-preconditions)
  (:types dish stove pot chef)
  (:predicates
    (raw ?d - dish) (cooked ?d - dish) (on-stove ?p - pot ?s - stove)
    (contains ?p - pot ?d - dish) (stove-lit ?s - stove) (idle ?c - chef))
  (:action light-stove
    :parameters (?c - chef ?s - stove)
    :precondition (and (idle ?c) (not (stove-lit ?s)))
    :effect (stove-lit ?s))
  (:action simmer
    :parameters (?c - chef ?p - pot ?s - stove ?d - dish)
    :precondition (and (idle ?c) (stove-lit ?s) (on-stove ?p ?s) (contains ?p ?d) (raw ?d))
    :effect (and (cooked ?d) (not (raw ?d)))))
"""

# Single-token lower-case words (checked in the test that uses them).
WORDS = ("apple banana cherry dragon eagle forest garden harbor island jungle kitten lemon "
         "mountain needle orange pepper quartz river salmon tiger umbrella valley window "
         "yellow anchor bridge castle desert engine glacier hammer insect jacket ladder magnet "
         "nickel ocean pencil rabbit saddle temple velvet cat dog house tree car book").split()
OTHERS = ("paper glass music money power light night green black white happy table chair "
          "phone shirt sugar bread cheese horse sheep truck plane train boat").split()


def _substituted(positions_in_ten: set[int]) -> tuple[list[str], list[str]]:
    reference = list(WORDS)
    candidate = [OTHERS[i % len(OTHERS)] if i % 10 in positions_in_ten else word
                 for i, word in enumerate(reference)]
    return reference, candidate


def _as_pddl(words: list[str]) -> str:
    """Words as predicate names, with keywords and variables between them (never counted)."""
    body = "\n".join(f"    (and (not ({word} ?x ?y)))" for word in words)
    return f"(define (domain d)\n  (:predicates\n{body}))\n"


def test_words_are_single_tokens():
    for word in WORDS + OTHERS:
        assert len(content_tokens(word)) == 1, word
    assert not set(WORDS) & set(OTHERS)


def test_exact_copy_is_fully_contaminated():
    result = contamination_rate(GRIPPER, GRIPPER)
    assert result.rate == 1.0
    assert result.contaminated == result.counted > 50
    rate, spans = result
    assert rate == 1.0 and len(spans) == 1
    assert "carrying" in spans[0].reference_text and "carrying" in spans[0].candidate_text


def test_layout_and_case_do_not_matter():
    reformatted = re.sub(r"\s+", " ", GRIPPER).upper().replace("(", "( ")
    assert contamination_rate(GRIPPER, reformatted).rate == 1.0


def test_copy_inside_other_text_matches():
    candidate = "Here is a domain I remember:\n```pddl\n" + GRIPPER + "```\nHope it helps."
    assert contamination_rate(GRIPPER, candidate).rate == 1.0


def test_unrelated_domain_is_near_zero():
    assert contamination_rate(GRIPPER, KITCHEN).rate < 0.05
    assert contamination_rate(KITCHEN, GRIPPER).rate < 0.05


def test_three_substitutions_in_ten_still_match():
    reference, candidate = _substituted({0, 3, 6})
    result = contamination_rate(" ".join(reference), " ".join(candidate))
    assert result.counted == len(reference)
    assert result.rate == 1.0
    # The same inside PDDL, where keywords and variables sit between the words.
    assert contamination_rate(_as_pddl(reference), _as_pddl(candidate)).rate == 1.0


def test_five_substitutions_in_ten_do_not_match():
    reference, candidate = _substituted({0, 2, 4, 6, 8})
    assert contamination_rate(" ".join(reference), " ".join(candidate)).rate == 0.0
    assert contamination_rate(_as_pddl(reference), _as_pddl(candidate)).rate == 0.0


def test_mismatch_budget_is_a_parameter():
    reference, candidate = _substituted({0, 2, 4, 6, 8})
    assert contamination_rate(" ".join(reference), " ".join(candidate),
                              max_mismatches=5).rate == 1.0
    reference, candidate = _substituted({0, 3, 6})
    assert contamination_rate(" ".join(reference), " ".join(candidate),
                              max_mismatches=2).rate == 0.0
    assert contamination_rate(" ".join(reference), " ".join(candidate), n=3,
                              max_mismatches=0).rate > 0.0


def test_partial_copy_counts_only_the_copied_part():
    reference = " ".join(WORDS)
    copied = WORDS[10:30]
    candidate = " ".join(OTHERS[:5] + copied + OTHERS[5:10])
    result = contamination_rate(reference, candidate)
    # Windows reaching up to 4 tokens past either end of the copy still have <= 4
    # mismatches, so those 4 + 4 gold tokens count as well (the method's definition).
    assert result.contaminated == len(copied) + 8
    assert result.rate == pytest.approx((len(copied) + 8) / len(WORDS))
    assert result.spans[0].reference_text == " ".join(WORDS[6:34])
    assert " ".join(copied) in result.spans[0].candidate_text
    exact = contamination_rate(reference, candidate, max_mismatches=0)
    assert exact.contaminated == len(copied)
    assert exact.spans[0].reference_text == exact.spans[0].candidate_text == " ".join(copied)


def test_keywords_and_variables_alone_never_count():
    only_syntax = ("(define (domain) (:requirements :strips :typing :adl) (:types) (:predicates)"
                   " (:action :parameters (?x ?y - object) :precondition (and (not (or ?x ?y))"
                   " (forall (?z) (exists (?w) (when ?z ?w)))) :effect (and)))")
    assert len(content_tokens(only_syntax)) == 0
    assert contamination_rate(only_syntax, only_syntax).counted == 0
    assert contamination_rate(only_syntax, only_syntax).rate == 0.0
    # Rename every content name of the gripper domain: what is left in common is keywords,
    # variables and parentheses, which must not count.
    names = {"gripper": "mandible", "room": "chamber", "ball": "sphere", "robot-at": "bot-in",
             "ball-at": "orb-in", "free": "empty", "carrying": "holding", "move": "travel",
             "pick": "grab", "drop": "release"}
    renamed = re.sub(r"(?<![?\w-])(" + "|".join(sorted(names, key=len, reverse=True))
                     + r")(?![\w-])", lambda m: names[m.group(1)], GRIPPER)
    assert renamed != GRIPPER and "?r - chamber" in renamed
    assert contamination_rate(GRIPPER, renamed).rate == 0.0


def test_tokenisation_rules():
    tokens = content_tokens("(:action Move-Robot :parameters (?r - robot) ; comment words\n)")
    strings = tokens.strings()
    # GPT-2 splits 'move-robot' into several tokens, the '-' is dropped, and so are the
    # keyword, the variable and ';'.
    assert "".join(strings[:-3]) == "moverobot"
    assert strings[-3:] == ["robot", "comment", "words"]
    # 'at' counts as a predicate name, but 'at start' / 'over all' are keywords.
    assert content_tokens("(at start (at ?x loc)) (over all (ok))").strings() == ["at", "loc",
                                                                                  "ok"]
    starts = content_tokens(GRIPPER).starts
    assert GRIPPER[starts[0]:].startswith("gripper")


def test_reference_start_skips_the_prompt():
    head = prefix(GRIPPER, 20)
    assert GRIPPER.startswith(head) and 0 < len(head) < len(GRIPPER)
    full = contamination_rate(GRIPPER, GRIPPER)
    rest = contamination_rate(GRIPPER, GRIPPER, reference_start=prefix_end(GRIPPER))
    assert rest.rate == 1.0 and rest.counted < full.counted
    # A continuation that only repeats the prompt has nothing to match in the rest.
    assert contamination_rate(GRIPPER, head, reference_start=len(head)).rate == 0.0


def test_bad_parameters():
    with pytest.raises(ValueError, match="n must be"):
        contamination_rate(GRIPPER, GRIPPER, n=0)
    with pytest.raises(ValueError, match="max_mismatches"):
        contamination_rate(GRIPPER, GRIPPER, max_mismatches=-1)


def test_short_texts_have_no_ngrams():
    assert contamination_rate("apple banana", "apple banana").rate == 0.0
    assert contamination_rate("", GRIPPER).counted == 0
    assert contamination_rate(GRIPPER, "").rate == 0.0


def test_compare_corpus_ranks_the_copy_first():
    corpus = [("notes.txt", "nothing to see here " * 20), ("leak.pddl", "x\n" + GRIPPER),
              ("kitchen.pddl", KITCHEN)]
    references = [("kitchen", KITCHEN), ("gripper", GRIPPER)]
    comparison = compare_corpus(corpus, references)
    assert comparison.pairs == 6
    top = comparison.overlaps[0]
    assert top.result.rate == 1.0 and {top.item, top.domain} <= {"leak.pddl", "kitchen.pddl",
                                                                  "kitchen", "gripper"}
    best = comparison.best_per_item()
    assert best["leak.pddl"].domain == "gripper" and best["leak.pddl"].result.rate == 1.0
    assert best["kitchen.pddl"].domain == "kitchen"
    assert "notes.txt" not in best
    assert top.result.spans
    # Same figure as the pairwise function.
    assert best["leak.pddl"].result.rate == contamination_rate(GRIPPER, corpus[1][1]).rate


# --------------------------------------------------------------------------------------------
# The index finds exactly what brute force finds.


def _brute_force(reference: np.ndarray, documents: list[np.ndarray], n: int,
                 k: int) -> set[tuple[int, int, int]]:
    found = set()
    for d, candidate in enumerate(documents):
        for s in range(len(reference) - n + 1):
            for t in range(len(candidate) - n + 1):
                if int((reference[s:s + n] != candidate[t:t + n]).sum()) <= k:
                    found.add((s, d, t))
    return found


def _sequence(ids: list[int]) -> TokenSequence:
    array = np.asarray(ids, dtype=np.int64)
    positions = np.arange(len(ids), dtype=np.int64)
    return TokenSequence("", array, positions, positions + 1)


@settings(max_examples=60, deadline=None)
@given(reference=st.lists(st.integers(0, 3), min_size=0, max_size=30),
       documents=st.lists(st.lists(st.integers(0, 3), max_size=25), min_size=1, max_size=3),
       n=st.integers(1, 8), k=st.integers(0, 9))
def test_index_equals_brute_force(reference, documents, n, k):
    index = CandidateIndex([_sequence(d) for d in documents], n, k)
    s, t, mismatches = index.match(_sequence(reference))
    docs = index.document_of(t) if len(t) else t
    local = t - index.doc_starts[docs] if len(t) else t
    expected = _brute_force(np.asarray(reference), [np.asarray(d) for d in documents], n, k)
    if k >= n:
        # Every window matches; one candidate window per document is reported.
        assert {(a, b) for a, b, _ in expected} == set(zip(s.tolist(), docs.tolist()))
    else:
        assert set(zip(s.tolist(), docs.tolist(), local.tolist())) == expected
        assert all(m <= k for m in mismatches.tolist())


def test_docstring_example_holds():
    assert content_tokens("(robot-at ?x)").strings() == ["robot", "at"]
    assert content_tokens("(:action Robot-AT)").ids.tolist() == \
        content_tokens("(robot-at)").ids.tolist()


def test_repeated_text_costs_its_distinct_ngrams_only():
    from text2world.tasks.contamination.overlap import CandidateIndex, content_tokens
    looping = "(p " + "apple banana cherry " * 20_000 + ")"  # a model stuck in a loop
    index = CandidateIndex([content_tokens(looping)], distinct=True)
    period = len(content_tokens("apple banana cherry"))
    assert len(index.window_starts) == period + 1  # one per distinct n-gram (+ the one with "p")
    result = contamination_rate(looping, looping)
    assert result.rate == 1.0 and result.counted == len(content_tokens(looping))


def test_dropping_repeated_candidate_ngrams_changes_no_rate_or_span():
    import random

    from text2world.tasks.contamination.overlap import CandidateIndex, build_result, content_tokens
    rng = random.Random(3)
    words = ["robot", "arm", "block", "table", "gripper", "room"]
    for _ in range(20):
        reference = " ".join(rng.choice(words) for _ in range(120))
        candidate = " ".join(rng.choice(words) for _ in range(120)) + " " + reference[:200] * 3
        ref, cand = content_tokens(reference), content_tokens(candidate)
        results = []
        for distinct in (False, True):
            s, t, m = CandidateIndex([cand], distinct=distinct).match(ref)
            results.append(build_result(ref, cand, s, t, m, 10, 4))
        assert results[0] == results[1]


def test_texts_built_to_defeat_the_index_get_a_clear_error():
    import random

    from text2world.tasks.contamination.overlap import MAX_VERIFIED_PAIRS, ComparisonTooLarge
    rng = random.Random(1)
    words = ["apple", "pear", "plum", "fig", "lime", "date", "sloe", "kiwi"]
    texts = [" ".join(rng.choice(words) for _ in range(6000)) for _ in range(2)]
    with pytest.raises(ComparisonTooLarge, match=f"{MAX_VERIFIED_PAIRS:,}"):
        contamination_rate(*texts)
