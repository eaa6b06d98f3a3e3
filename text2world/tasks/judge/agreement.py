"""What a judge said, what we say, and how far they agree.

A judge's answer ends with ``Rating: [[N]]`` (``prompts/judge.txt``): 5 ("precisely the ground
truth") is read as *same world*, 1 to 4 as *different*; an answer without a rating in 1..5 is
*unparsed* and left out of the agreement (counted apart). Our side is the semantic verdict of
the item's final domain: ``equivalent`` is *same*, ``different`` and ``incomplete`` are
*different*; items that could not be simulated have no verdict and are not judged.

The reference judges (offline, no key) answer from here too: ``judge-yes`` always rates 5,
``judge-random`` flips a seeded coin per (seed, item, epoch), ``judge-oracle`` rates from our
verdict. Their agreement on the items of any judge run (``floors``) is computed without a
call, so every report shows the floors (kappa 0 for a constant or random judge) and the
ceiling (kappa 1).
"""

from __future__ import annotations

import random
import re
from typing import Sequence

from text2world.model.reference import register_reference_answerer
from text2world.stats import bootstrap_kappa
from text2world.tasks.judge.records import JudgeItem

SAME, DIFFERENT = "same", "different"
JUDGED_VERDICTS = {"equivalent": SAME, "different": DIFFERENT, "incomplete": DIFFERENT}
REFERENCE_JUDGES = ("judge-yes", "judge-random", "judge-oracle")
SAME_RATING = 5
_RATING = re.compile(r"\[\[\s*([0-9]+(?:\.[0-9]+)?)\s*\]\]")
_RATING_WORDS = re.compile(r"rating\s*[:=]?\s*\**\s*([0-9]+(?:\.[0-9]+)?)", re.IGNORECASE)


def parse_rating(answer: str) -> int | None:
    """The answer's last ``[[N]]`` (else its last ``Rating: N``) when N is 1..5, else None."""
    text = re.sub(r"<think>.*?</think>", "", answer or "", flags=re.DOTALL)
    found = _RATING.findall(text) or _RATING_WORDS.findall(text)
    if not found:
        return None
    value = float(found[-1])
    return int(value) if value.is_integer() and 1 <= value <= 5 else None


def judged_label(rating: int | None) -> str | None:
    if rating is None:
        return None
    return SAME if rating >= SAME_RATING else DIFFERENT


def reference_rating(judge: str, verdict: str, item: str, seed: int, epoch: int) -> int:
    """The rating a reference judge gives an item whose semantic verdict is ``verdict``."""
    if judge == "judge-yes":
        return SAME_RATING
    if judge == "judge-oracle":
        return SAME_RATING if JUDGED_VERDICTS.get(verdict) == SAME else 2
    if judge == "judge-random":
        return SAME_RATING if random.Random(f"{seed}:{item}:{epoch}").random() < 0.5 else 2
    raise ValueError(f"unknown reference judge {judge!r}")


def reference_judge_answer(judge: str, context: dict) -> str:
    """A reference judge's whole answer, in the format the prompt asks for."""
    rating = reference_rating(judge, str(context.get("verdict")), str(context.get("item")),
                              int(context.get("seed", 0)), int(context.get("epoch", 0)))
    why = {"judge-yes": "I always answer that the domains match.",
           "judge-random": "A seeded coin decided.",
           "judge-oracle": "The semantic verdict decided."}[judge]
    return f"{why}\n\nRating: [[{rating}]]\n"


def agreement(records: Sequence[JudgeItem]) -> dict:
    """Agreement of judged records (``ours``, ``judge`` labels; ``item``): Cohen's kappa with
    its 95% bootstrap interval (items resampled, their epochs together), the confusion matrix
    (ours x judge), accuracy (the share where they agree) and the unparsed answers."""
    judged = [r for r in records if r.get("judge") in (SAME, DIFFERENT)]
    units: dict[str, list[tuple[bool, bool]]] = {}
    for record in judged:
        units.setdefault(str(record["item"]), []).append(
            (record["ours"] == SAME, record["judge"] == SAME))
    confusion = {ours: {judge: sum(1 for r in judged if (r["ours"], r["judge"]) == (ours, judge))
                        for judge in (SAME, DIFFERENT)} for ours in (SAME, DIFFERENT)}
    agreed = confusion[SAME][SAME] + confusion[DIFFERENT][DIFFERENT]
    # in item order: the bootstrap's draws do not depend on the order samples finished
    return {"kappa": bootstrap_kappa([units[key] for key in sorted(units)]).as_dict(),
            "confusion": confusion,
            "accuracy": agreed / len(judged) if judged else None,
            "judged": len(judged), "items": len(units),
            "unparsed": sum(1 for r in records if r.get("judge") is None),
            "ours_same": sum(1 for r in judged if r["ours"] == SAME) / len(judged)
            if judged else None}


def floors(records: Sequence[JudgeItem], seed: int) -> dict[str, dict]:
    """What each reference judge's agreement would be on the same (item, epoch) pairs."""
    result = {}
    for judge in REFERENCE_JUDGES:
        simulated: list[JudgeItem] = [{"item": r["item"], "ours": r["ours"],
                      "judge": judged_label(reference_rating(
                          judge, r["verdict"], str(r["item"]), seed, int(r.get("epoch", 0))))}
                     for r in records]
        data = agreement(simulated)
        result[f"reference/{judge}"] = {key: data[key] for key in ("kappa", "accuracy")}
    return result


register_reference_answerer("judge", reference_judge_answer, judging=True)
