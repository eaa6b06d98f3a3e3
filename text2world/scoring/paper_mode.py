"""``paper`` mode: the released Text2World evaluator (``utils/evaluator.py``, ``utils/pddl.py`` and
the comment stripping of ``scripts/generate.py``) number for number, quirks included. Each quirk
is marked ``QUIRK`` where it is reproduced."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from text2world.pddl.bounds import MAX_DOMAIN_CHARS
from text2world.pddl.model import (
    strip_comments_released,
    tarski_parse,
)
from text2world.pddl.validation import Issue, classify_error
from text2world.scoring.caching import gold_cache
from text2world.scoring.score_base import Score, ScoringError, ratio_without_whitespace, set_f1

__all__ = ["paper_gold_view", "score_paper"]


@dataclass(frozen=True)
class _PaperView:
    """What the released evaluator extracts from one domain text."""

    parse_error: Issue | None  # parsing the text exactly as given (executability)
    f1_parsed: bool  # parsing ``text.strip()`` (what the F1 functions do) succeeded
    predicates: frozenset[str]  # "name_arity"
    actions: dict | None  # name -> (params, preconds, effects); None when F1 parsing fails
    action_error: bool  # the released _preprocess raised on this domain


def _paper_preprocess(items: Iterable[str]) -> list[str]:
    """The released ``_preprocess``: sort; inside items that start with '(' and contain ' or ',
    sort the disjuncts."""
    items = sorted(map(str, items))
    for index, item in enumerate(items):
        # QUIRK: an empty string (from the 'and' splitting below) raises IndexError in the
        # released code, which zeroes all three action F1s of the domain.
        if item[0] == "(" and " or " in item:
            parts = sorted(p.strip() for p in item[1:-1].strip().split(" or "))
            items[index] = "(" + " or ".join(parts) + ")"
    return sorted(items)


def _paper_ends_in_comment(text: str) -> bool:
    """tarski's lexer needs a newline after a ';' comment: a stripped text whose last line
    holds a comment does not parse."""
    stripped = text.strip()
    return ";" in stripped[stripped.rfind("\n") + 1:]


def _paper_view(text: str) -> _PaperView:
    try:
        reader = tarski_parse(text)
    except ImportError:
        raise
    except Exception as error:  # noqa: BLE001 - tarski raises many unrelated classes
        return _PaperView(classify_error(text, error), False, frozenset(), None, False)
    # QUIRK: the released F1 code parses ``text.strip()`` while executability parses the text
    # as is. Stripping changes the parse only when it leaves a ';' comment on the last line,
    # which then lacks its newline: executable, yet every F1 is 0.
    if _paper_ends_in_comment(text):
        return _PaperView(None, False, frozenset(), None, False)
    language = reader.problem.language
    predicates = frozenset(f"{p.symbol}_{p.arity}" for p in language.predicates
                           if str(p.symbol) not in ("=", "!="))
    actions = {}
    try:
        for name, action in reader.problem.actions.items():
            actions[name] = (
                _paper_preprocess(f"{p.symbol}" for p in action.parameters),
                # QUIRK: preconditions are split on the substring 'and' of tarski's printed
                # formula after dropping its first and last character, so predicate names that
                # contain 'and' are cut, a single-atom precondition loses its first letter and
                # last parenthesis, and nested conjunctions are split too.
                _paper_preprocess(x.strip() for x in str(action.precondition)[1:-1].split("and")),
                _paper_preprocess(str(e) for e in action.effects),
            )
    except IndexError:
        return _PaperView(None, True, predicates, None, True)
    return _PaperView(None, True, predicates, actions, False)


@gold_cache
def paper_gold_view(gold: str) -> _PaperView:
    # QUIRK: the released pipeline strips comments from the gold domain only, with a regex that
    # keeps a comment on a last line without newline (generate.py).
    return _paper_view(strip_comments_released(gold))


def _paper_action_f1(gold: _PaperView, predicted: _PaperView) -> tuple[float, float, float]:
    if gold.actions is None or predicted.actions is None:
        return 0.0, 0.0, 0.0
    totals = [0.0, 0.0, 0.0]
    for name, gold_parts in gold.actions.items():
        predicted_parts = predicted.actions.get(name)
        if predicted_parts is None:
            # QUIRK: one gold action missing from the prediction raises KeyError in the released
            # code and zeroes all three action F1s for the whole domain.
            return 0.0, 0.0, 0.0
        for i in range(3):
            totals[i] += set_f1(predicted_parts[i], gold_parts[i])
    if not gold.actions:
        # The released code divides by zero here and records no result for the item.
        raise ScoringError("the gold domain has no actions: the paper's action F1 is undefined")
    count = len(gold.actions)
    return totals[0] / count, totals[1] / count, totals[2] / count


def _paper_per_action(gold: _PaperView, predicted: _PaperView) -> dict:
    """Each action's released per-action F1s (what the released code averages), with its status.
    Empty when either side has no action view (not parsable, or the released code raised)."""
    if gold.actions is None or predicted.actions is None:
        return {}
    per_action = {}
    names = list(gold.actions) + [n for n in predicted.actions if n not in gold.actions]
    for name in names:
        gold_parts, predicted_parts = gold.actions.get(name), predicted.actions.get(name)
        if gold_parts is not None and predicted_parts is not None:
            values = [set_f1(predicted_parts[i], gold_parts[i]) for i in range(3)]
            status = "matched"
        else:
            values, status = [0.0, 0.0, 0.0], "missing" if predicted_parts is None else "extra"
        # Paper mode matches actions by name as written: the predicted name is the gold's.
        per_action[name] = {"status": status,
                            "predicted": None if predicted_parts is None else name,
                            "parameters": values[0], "preconditions": values[1],
                            "effects": values[2]}
    return per_action


def _paper_gold_errors(gold: _PaperView) -> tuple[Issue, ...]:
    """Why the gold cannot be scored in paper mode: it does not parse, or a released quirk
    zeroes the action F1s of every prediction against it. (A gold whose last line is a comment
    does not parse at all: tarski's lexer needs the newline.)"""
    if gold.parse_error is not None:
        return (gold.parse_error,)
    if gold.action_error:
        return (Issue("Other", "a precondition of the gold splits into an empty piece on 'and': "
                      "the released _preprocess raises, so every action F1 is 0", None, None,
                      "ReleasedQuirk"),)
    return ()


def score_paper(gold: str, predicted: str) -> Score:
    # A gold past the size limit is never cached (it would pin megabytes per entry).
    gold_view = (paper_gold_view(gold) if len(gold) <= MAX_DOMAIN_CHARS
                 else _paper_view(strip_comments_released(gold)))
    predicted_view = _paper_view(predicted)
    parameters, preconditions, effects = _paper_action_f1(gold_view, predicted_view)
    # QUIRK: extra predicted actions are ignored; predicates compare "name_arity" strings, which
    # include tarski's built-in comparison predicates (<, <=, >, >=) when :action-costs is
    # declared.
    if gold_view.f1_parsed and predicted_view.f1_parsed:
        predicates = set_f1(predicted_view.predicates, gold_view.predicates)
    else:
        predicates = 0.0
    # QUIRK: Levenshtein.ratio (InDel based, not distance / longer length as the paper's text
    # says) on comment-free text with all whitespace removed.
    # (The released evaluator strips comments again from the already stripped gold: a no-op.)
    similarity = ratio_without_whitespace(strip_comments_released(gold),
                                           strip_comments_released(predicted))
    errors = (predicted_view.parse_error,) if predicted_view.parse_error else ()
    return Score("paper", predicted_view.parse_error is None, similarity, predicates, parameters,
                 preconditions, effects, errors,
                 per_action=_paper_per_action(gold_view, predicted_view),
                 gold_executable=gold_view.parse_error is None,
                 gold_errors=_paper_gold_errors(gold_view))
