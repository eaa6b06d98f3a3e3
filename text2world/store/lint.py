"""Lint for abstract descriptions: do they give the domain's dynamics away?

An abstract description names and motivates the world (what exists, what the objective is) and
each action by its purpose. It must not state a rule (a precondition, a limit), a consequence
(an effect) or how a counter moves; the concrete description does that. Three kinds of finding,
each with the file, line and sentence:

* ``rule``: a rule phrase ("only", "must", "cannot", "at most", "until", ...);
* ``effect``: effect wording ("becomes", "no longer", "is removed", "is now", ...);
* ``counter``: a counter transition ("from ?n1 down to ?n0", "by one", "decreases", ...).

Only the ``### General`` section and the action lines are checked: predicate and type lines say
what a fact means ("one unit more than", "items that need to be delivered"), which is allowed.

Thresholds are the released Text2World set's level (its ``corrected_description`` fields,
measured with the same phrases by ``t2w data lint --released PATH``): a General section may
hold at most ``GENERAL_RULE_LIMIT`` rule phrases (no released one has more) and at most
``GENERAL_OTHER_LIMIT`` effect or counter phrases; the action lines together at most
``ACTION_LIMIT`` findings of any kind; over a whole corpus, at most ``CORPUS_RULE_MEAN`` rule
phrases per General (released: 0.17). 78 of the 101 released descriptions pass; the ones that
fail state preconditions, effects or costs in action lines ("The precondition for this action
is ...", "increases the total cost by 1"). The store must pass on every file.
"""

from __future__ import annotations

import re
import statistics
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterable

if TYPE_CHECKING:
    from text2world.pddl.model import Action, Domain

from text2world.files import read_input_bytes

__all__ = [
    "KINDS", "GENERAL_RULE_LIMIT", "CORPUS_RULE_MEAN", "ACTION_LIMIT", "lint_text",
    "lint_store", "lint_records", "corpus_figures", "action_signature", "action_bullets",
    "format_problems",
]

# Phrases that state a rule: a condition, a limit, an obligation or a prohibition.
RULE_PHRASES = (
    "only", "must", "until", "at most", "at least", "cannot", "can't", "can not", "unless",
    "provided that", "as long as", "requires", "required", "need to", "needs to",
    "has to", "have to", "no more than", "never", "not allowed", "may not", "is allowed",
    "are allowed", "precondition", "preconditions", "whenever", "as soon as", "before it",
    "before they", "otherwise", "if",
)
# Wording that states what an action changes.
EFFECT_PHRASES = (
    "becomes", "become", "no longer", "is now", "are now", "is removed", "are removed",
    "is deleted", "is consumed", "are consumed", "is freed", "is released", "is set to",
    "turns into", "effect", "effects", "afterwards", "after the action", "as a result",
    "resets", "is emptied", "stops being", "which makes", "so that", "leaving the",
    "leaving it", "leaving them",
)
# Counter transitions: a level or count moving by one, or between two named parameters.
COUNTER_PATTERNS = (
    r"\bfrom \?[\w-]+ (?:down|up) to \?[\w-]+",
    r"\b(?:level|levels|count|counter|capacity|room|slots?|stock|charge|fuel|supply|number|"
    r"amount|quantity|space|budget)\b[^.;]*?\bfrom \?[\w-]+ to \?[\w-]+",
    r"\bby one\b", r"\bone (?:less|more|fewer|lower|higher|step)\b",
    r"\bdecrease[sd]?\b", r"\bincrease[sd]?\b", r"\bdecrement", r"\bincrement",
    r"\b(?:drops?|falls?|goes down|lowers?|raises?|rises?|goes up)\s+(?:from|to|by)\b",
    r"\bcount(?:s|ed)? (?:down|up)\b", r"\bnext (?:level|count|value)\b",
)
CHECKED_SECTIONS = ("general", "actions")
KINDS = ("rule", "effect", "counter")

GENERAL_RULE_LIMIT = 1  # released set: 100 of 101 Generals have at most 1
CORPUS_RULE_MEAN = 0.3  # rule phrases per General over a whole corpus (released: 0.17)
GENERAL_OTHER_LIMIT = 1  # effect or counter wording in General
ACTION_LIMIT = 2  # findings of any kind over all action lines


def _phrase_regex(phrases: Iterable[str]) -> re.Pattern:
    return re.compile("|".join(r"\b" + re.escape(p) + r"\b" for p in phrases), re.I)


_RULE = _phrase_regex(RULE_PHRASES)
_EFFECT = _phrase_regex(EFFECT_PHRASES)
_COUNTER = re.compile("|".join(COUNTER_PATTERNS), re.I)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z(*`\"'])")


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    section: str  # "general" or "actions"
    kind: str  # one of KINDS
    phrase: str
    sentence: str

    def __str__(self) -> str:
        return (f"{self.path}:{self.line}: {self.kind} wording '{self.phrase}' "
                f"({self.section}): {self.sentence}")


@dataclass
class LintResult:
    path: str
    findings: list[Finding] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)  # why the file fails (empty: passes)

    @property
    def ok(self) -> bool:
        return not self.failures

    def count(self, section: str, *kinds: str) -> int:
        kinds = kinds or KINDS
        return sum(1 for f in self.findings if f.section == section and f.kind in kinds)

    def offending(self) -> list[Finding]:
        """The findings behind the failures (all findings of a failing section)."""
        sections = {f.split(":", 1)[0] for f in self.failures}
        return [f for f in self.findings if f.section in sections]


def _section_of(heading: str) -> str:
    name = heading.strip("# ").strip().lower()
    return name if name in ("general", "types", "predicates", "actions") else "other"


def _prose(sentence: str) -> str:
    """A sentence without its names: '- **name <?x>**:' and '(pred ?x)' are names, not words
    (an action called only-if or a predicate (must-x) states no rule)."""
    text = re.sub(r"^\s*-\s*\*\*.*?\*\*\s*:?", " ", sentence)
    text = re.sub(r"^\s*-\s*[\w-]+(?:\s*<[^>]*>)*\s*:", " ", text)
    text = re.sub(r"\*\*[^*]*\*\*", " ", text)
    return re.sub(r"\([^()]*\)", " ", text)


def lint_text(text: str, path: str = "<text>") -> LintResult:
    """Findings and the pass/fail verdict for one abstract description (linear in its length)."""
    result = LintResult(path)
    section = "other"
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("#"):
            section = _section_of(line)
            continue
        if not line or section not in CHECKED_SECTIONS:
            continue
        for sentence in _SENTENCE_END.split(line):
            prose = _prose(sentence)
            for kind, regex in (("rule", _RULE), ("effect", _EFFECT), ("counter", _COUNTER)):
                for match in regex.finditer(prose):
                    result.findings.append(Finding(path, number, section, kind,
                                                   " ".join(match.group(0).lower().split()),
                                                   sentence.strip()))
    rules = result.count("general", "rule")
    if rules > GENERAL_RULE_LIMIT:
        result.failures.append(f"general: {rules} rule phrases (limit {GENERAL_RULE_LIMIT})")
    other = result.count("general", "effect", "counter")
    if other > GENERAL_OTHER_LIMIT:
        result.failures.append(f"general: {other} effect or counter phrases "
                               f"(limit {GENERAL_OTHER_LIMIT})")
    actions = result.count("actions")
    if actions > ACTION_LIMIT:
        result.failures.append(f"actions: {actions} rule, effect or counter phrases in action "
                               f"lines (limit {ACTION_LIMIT})")
    return result


def lint_file(path: Path, root: Path | None = None) -> LintResult:
    label = str(path.relative_to(root)) if root is not None else str(path)
    try:
        text = read_input_bytes(path, "description").decode("utf-8")
    except UnicodeDecodeError as err:
        result = LintResult(label)
        result.failures.append(f"file: not UTF-8 text (byte offset {err.start})")
        return result
    return lint_text(text, label)


def lint_store(data: Path, ids: Iterable[str] | None = None) -> list[LintResult]:
    """Lint ``<data>/descriptions/<id>/abstract.md`` for every (or the given) store id."""
    if ids is None:
        ids = sorted(p.stem for p in (data / "domains").glob("*.pddl"))
    results = []
    for record_id in ids:
        path = data / "descriptions" / record_id / "abstract.md"
        if not path.is_file():
            result = LintResult(str(path.relative_to(data.parent)))
            result.failures.append("file: missing abstract.md")
            results.append(result)
            continue
        results.append(lint_file(path, data.parent))
    return results


def lint_records(records: Iterable[tuple[str, str]]) -> list[LintResult]:
    """Lint ``(label, description)`` pairs, e.g. the released set's corrected descriptions."""
    return [lint_text(text, label) for label, text in records]


def corpus_figures(results: list[LintResult]) -> dict:
    """What the audit compares between corpora."""
    general = [r.count("general", "rule") for r in results]
    others = [r.count("general", "effect", "counter") + r.count("actions") for r in results]
    n = max(len(results), 1)
    return {
        "descriptions": len(results),
        "rule_phrases_per_general": round(statistics.mean(general), 2) if general else 0.0,
        "generals_with_3_or_more": round(sum(1 for g in general if g >= 3) / n, 3),
        "effect_counter_or_action_findings_per_description":
            round(statistics.mean(others), 2) if others else 0.0,
        "failing": sum(1 for r in results if not r.ok),
    }


# --------------------------------------------------------------------------------------------
# The store's format: headings, every predicate and action named, concrete rules stated

# Phrases that spell out preconditions or effects, banned from abstract descriptions.
BANNED_ABSTRACT = ("precondition", "effect:", "effects:", "requires that", "must be", "must have",
                   "only if", "only when", "provided that", "as long as", "no longer",
                   "afterwards", "after the action", "as a result", "becomes", "it is required")


def action_signature(action: Action) -> str:
    """An action's bullet title: ``name <?p1> <?p2>`` (lower case)."""
    return " ".join([action.name, *(f"<{p.name}>" for p in action.parameters)]).lower()


def action_bullets(description: str) -> dict[str, str]:
    """'- **signature**: text' bullets of the Actions section -> their whole body (sub-bullets)."""
    section = description.split("### Actions", 1)[-1]
    bullets: dict[str, str] = {}
    for match in re.finditer(r"^- \*\*(.+?)\*\*(.*?)(?=^- \*\*|^#|\Z)", section, re.M | re.S):
        bullets[" ".join(match.group(1).lower().split())] = match.group(2)
    return bullets


def predicate_mentions(description: str, name: str) -> list[int]:
    """Arity of each '(name ...)' written in the description."""
    pattern = r"\(" + re.escape(name) + r"((?:\s[^()]*)?)\)"
    return [len(re.findall(r"\?[\w-]+", m.group(1))) for m in
            re.finditer(pattern, description, re.I)]


def format_problems(domain: Domain, text: str, kind: str) -> list[str]:
    """Why a description of ``domain`` is not in the store's format (empty when it is): its
    headings, a line naming every predicate with its arity, a bullet per action signature,
    the concrete one's Preconditions and Effects lines, no dynamics in the abstract one."""
    problems = []
    headings = ["### General", "### Predicates", "### Actions"]
    if domain.types:
        headings.insert(1, "### Types")
    problems += [f"no '{h}' heading" for h in headings if h not in text]
    for predicate in domain.predicates:
        arities = predicate_mentions(text, predicate.name)
        if len(predicate.parameters) not in arities:
            problems.append(f"predicate ({predicate.name} ...) with {len(predicate.parameters)} "
                            f"parameters not written (found arities {arities})")
    bullets = action_bullets(text)
    for action in domain.actions:
        signature = action_signature(action)
        if signature not in bullets:
            problems.append(f"no '- **{signature}**' bullet under ### Actions")
        elif kind == "concrete":
            body = bullets[signature].lower()
            for label in ("preconditions:", "effects:"):
                found = re.search(re.escape(label) + r"\s*(\S+)", body)
                if not found:
                    problems.append(f"action {action.name}: no '{label[:-1].title()}:' line")
    if kind == "abstract":
        low = text.lower()
        problems += [f"states dynamics: contains '{b}'" for b in BANNED_ABSTRACT if b in low]
    return problems
