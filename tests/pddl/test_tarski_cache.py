"""tarski's parse trees shared by text (pddl/tarski_cache.py): one ANTLR parse per distinct text,
every reader fresh, the same results and errors as an uncached parse, bounded."""

from __future__ import annotations

import re

import pytest
from tarski.io import PDDLReader

from text2world.pddl import tarski_cache
from text2world.pddl.model import domain_from_tarski, parse_domain, tarski_parse
from text2world.simulation.problem import ProblemError, parse_problem
from text2world.store.datasets import load_dataset

RECORDS = sorted(load_dataset().records, key=lambda r: r.id)[::9]


def uncached(text: str):
    reader = PDDLReader(raise_on_error=True)
    reader.parse_domain_string(text)
    return reader


@pytest.fixture()
def parses(monkeypatch):
    """The texts tarski's ANTLR parser reads (a cache miss parses through it)."""
    tarski_cache.clear()
    seen: list[str] = []
    original = PDDLReader.parse_domain_string
    monkeypatch.setattr(PDDLReader, "parse_domain_string",
                        lambda self, text: seen.append(text) or original(self, text))
    yield seen
    tarski_cache.clear()


def test_cached_reads_equal_uncached_parses_and_parse_once(parses):
    for record in RECORDS:
        text = record.domain.lower()
        expected = domain_from_tarski(uncached(text))
        parses.clear()
        first, second = tarski_parse(text), tarski_parse(text)
        assert len(parses) == 1  # the second read visits the cached tree
        assert first is not second and first.problem.language is not second.problem.language
        assert domain_from_tarski(first) == domain_from_tarski(second) == expected
        assert parse_domain(record.domain) == parse_domain(record.domain)
        for problem in record.problems:
            # each problem adds its objects to a fresh reader's language: parsing it twice
            # against the one cached domain tree must not see the first one's objects
            assert parse_problem(record.domain, problem.pddl) == \
                parse_problem(record.domain, problem.pddl)
        assert len(parses) == 1


def test_errors_are_the_uncached_ones_and_kept(parses):
    domain = RECORDS[0].domain.lower()
    broken = domain.rstrip()[:-1]  # a missing ")": ANTLR rejects it, no tree
    undeclared = domain.replace("(:action", "(:action never :parameters () :precondition "
                                "(undeclared-predicate) :effect (and))\n (:action", 1)
    for text in (broken, undeclared):
        with pytest.raises(Exception) as fresh:
            uncached(text)
        parses.clear()
        for _ in range(3):
            with pytest.raises(Exception) as cached:
                tarski_parse(text)
            assert type(cached.value) is type(fresh.value)
            assert str(cached.value) == str(fresh.value)
        assert len(parses) == 1
    with pytest.raises(ProblemError, match="the domain does not parse"):
        parse_problem(broken, RECORDS[0].problems[0].pddl)


def test_the_cache_is_bounded(parses):
    base = RECORDS[0].domain.lower()
    for index in range(tarski_cache.MAX_ENTRIES + 10):
        tarski_parse(base + f"\n; {index}\n" + " " * index)  # distinct texts
    assert tarski_cache.stats()["entries"] <= tarski_cache.MAX_ENTRIES


def test_parsed_domains_are_shared_by_text_and_bounded(monkeypatch):
    """``parse_domain`` gives the same text's (immutable) ``Domain`` again without parsing it,
    per case rule; a text that fails fails again; the memo is bounded."""
    from text2world.pddl import model

    monkeypatch.setattr(model, "_DOMAINS", type(model._DOMAINS)())
    monkeypatch.setattr(model, "_DOMAINS_CHARS", 0)
    calls: list[str] = []
    original = model._parse_domain
    monkeypatch.setattr(model, "_parse_domain",
                        lambda text, folded: calls.append(text) or original(text, folded))
    text = RECORDS[0].domain
    first = parse_domain(text)
    assert parse_domain(text) is first and len(calls) == 1
    assert parse_domain(text, case_insensitive=False) == first and len(calls) == 2
    broken = text.rstrip()[:-1]
    with pytest.raises(Exception) as failed:  # noqa: B017 - whatever tarski raises
        parse_domain(broken)
    with pytest.raises(type(failed.value), match=re.escape(str(failed.value))):
        parse_domain(broken)
    assert calls.count(broken) == 2
    monkeypatch.setattr(model, "DOMAINS_MAX_ENTRIES", 3)
    for index in range(6):
        parse_domain(text + f"\n; {index}\n")
    assert len(model._DOMAINS) == 3
    assert model._DOMAINS_CHARS == sum(len(key[0]) for key in model._DOMAINS)


def test_transient_trees_serve_their_block_and_are_dropped(parses):
    first, second = [record.domain.lower() for record in RECORDS
                     if ";" not in record.domain][:2]  # comments are emptied before parsing
    expected = {text: domain_from_tarski(uncached(text)) for text in (first, second)}
    domain_from_tarski(tarski_parse(first))  # kept by the process
    parses.clear()
    with tarski_cache.transient():
        tarski_parse(second)
        with tarski_cache.transient():  # an inner block shares the outer one's trees
            assert domain_from_tarski(tarski_parse(second)) == expected[second]
        assert domain_from_tarski(tarski_parse(first)) == expected[first]
        assert parses == [second]  # within the block: one parse of it, none of the kept one
        entries = tarski_cache.stats()["entries"]
    assert tarski_cache.stats()["entries"] == entries
    assert domain_from_tarski(tarski_parse(second)) == expected[second]
    assert parses == [second, second]  # dropped with its block: parsed again, now kept
    assert tarski_cache.stats()["entries"] == entries + 1


def test_a_reward_keeps_no_tree_of_its_answer(parses, monkeypatch):
    """A reward's answer is parsed once (validation and model share the tree) and its tree
    is not kept (a long-lived object the garbage collector would walk; its model is)."""
    monkeypatch.setenv("T2W_REWARD_WORKERS", "0")  # spies on the parsing: in this process
    from text2world.rewards import _PARSED, _VALIDATED, resolve_gold, reward_for

    record = next(r for r in load_dataset() if r.problems)
    answer = re.sub(r"\(domain\s+[^\s()]+", "(domain reworded", record.domain, count=1)
    _VALIDATED.cache_clear()
    _PARSED.cache_clear()
    detail = reward_for(resolve_gold(record.id), f"```pddl\n{answer}\n```")
    assert detail.reward == 1.0, detail

    def answer_parses() -> list[str]:
        return [text for text in parses if "(domain reworded" in text]

    assert len(answer_parses()) == 1
    tarski_cache.domain_reader(answer_parses()[0])  # not kept: parsed again
    assert len(answer_parses()) == 2
