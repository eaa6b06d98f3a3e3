"""Mystery worlds: a consistently obfuscated copy of a domain, its problems and descriptions
(PlanBench's Mystery Blocksworld idea, for the whole store), so a user can see how much a
model relies on names it memorised.

Every name the domain and its problems declare (domain, types, predicates, actions,
functions other than ``total-cost``, constants, parameters and objects) is replaced by a
seeded nonsense word, the same word everywhere: in the PDDL, in the problems, in the
descriptions (inside parentheses and for every name that is not a common English word) and
in the reference plans. The renaming is a bijection, so the simulator's results are the same
under it (``tests/tasks/wm/test_wm_mystery.py`` checks every store domain).
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import replace
from pathlib import Path

from text2world.files import atomic_write_text, check_output_folder
from text2world.pddl.model import parse_domain
from text2world.simulation import parse_problem
from text2world.store.datasets import Problem, Record
from text2world.tasks.wm.generators import rename_tokens

KEEP = {"total-cost", "object", "number"}  # PDDL's own names: meaning the language fixes
PDDL_WORDS = {"define", "domain", "problem", "and", "or", "not", "imply", "forall", "exists",
              "when", "either", "increase", "decrease", "assign", "minimize", "maximize",
              "at", "over", "all", "start", "end", "total-time"}
# English words a description uses as words; outside parentheses they stay as they are
STOPWORDS = {"a", "an", "at", "in", "on", "to", "of", "by", "is", "it", "up", "down", "off",
             "out", "the", "and", "or", "not", "from", "with", "into", "onto", "over", "under",
             "for", "as", "be", "no", "one", "all", "any", "each", "has", "have", "its"}
_SYLLABLES = ("ba", "ke", "zo", "ru", "mi", "ta", "vo", "ne", "shi", "gu", "pla", "dro",
              "fe", "xi", "lo", "qua", "wen", "sor", "tib", "yam", "cro", "jul", "pex", "dun")
_PARENS = re.compile(r"\([^()]*\)")
_VARIABLE = re.compile(r"\?[A-Za-z][\w-]*")


def nonsense_words(count: int, seed: int, avoid: set[str]) -> list[str]:
    """``count`` distinct seeded nonsense words, none in ``avoid`` or PDDL's keywords."""
    rng = random.Random(f"mystery:{seed}")
    words: list[str] = []
    taken = {w.lower() for w in avoid} | PDDL_WORDS | STOPWORDS
    while len(words) < count:
        word = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
        if word not in taken:
            taken.add(word)
            words.append(word)
    return words


def name_mapping(record: Record, seed: int) -> dict[str, str]:
    """Every declared name of the domain and its problems -> a nonsense word (variables keep
    their ``?``)."""
    domain = parse_domain(record.domain)
    names: list[str] = [domain.name]
    names += [t.name if hasattr(t, "name") else str(t) for t in domain.types]
    names += [p.name for p in domain.predicates] + [a.name for a in domain.actions]
    names += [f.name for f in domain.functions] + [c.name for c in domain.constants]
    for problem in record.problems:
        parsed = parse_problem(record.domain, problem.pddl)
        names += [o.name for o in parsed.objects]
        match = re.search(r"\(\s*problem\s+([^\s()]+)", problem.pddl, re.IGNORECASE)
        if match:
            names.append(match.group(1))
    unique = [n for n in dict.fromkeys(n.lower() for n in names) if n not in KEEP]
    variables = sorted({v.lower() for v in _VARIABLE.findall(record.domain)})
    words = nonsense_words(len(unique) + len(variables), seed,
                           set(unique) | {v[1:] for v in variables})
    mapping = dict(zip(unique, words))
    mapping.update({v: "?" + w for v, w in zip(variables, words[len(unique):])})
    return mapping


def rename_description(text: str | None, mapping: dict[str, str]) -> str | None:
    """Names inside parentheses always; elsewhere every name but common English words."""
    if text is None:
        return None
    text = _PARENS.sub(lambda m: rename_tokens(m.group(0), mapping), text)
    return rename_tokens(text, {k: v for k, v in mapping.items() if k not in STOPWORDS})


def rename_step(step: str, mapping: dict[str, str]) -> str:
    return rename_tokens(step, mapping)


def mystery_record(record: Record, seed: int = 0) -> Record:
    """The obfuscated copy of ``record``: same id (so reports pair it with the original),
    ``meta["mystery_of"]`` the original and ``meta["mystery_names"]`` the renaming."""
    mapping = name_mapping(record, seed)
    # variables are matched with their "?" (rename_tokens treats "?" as a boundary)
    plain = {k: v for k, v in mapping.items() if not k.startswith("?")}
    variables = {k: v for k, v in mapping.items() if k.startswith("?")}

    def rename(text: str) -> str:
        text = _VARIABLE.sub(lambda m: variables.get(m.group(0).lower(), m.group(0)), text)
        return rename_tokens(text, plain)

    def describe(text: str | None) -> str | None:
        if text is None:
            return None
        text = _VARIABLE.sub(lambda m: variables.get(m.group(0).lower(), m.group(0)), text)
        return rename_description(text, plain)

    return replace(record, name=f"mystery {record.id}", domain=rename(record.domain),
                   abstract=describe(record.abstract), concrete=describe(record.concrete),
                   problems=tuple(Problem(p.name, rename(p.pddl)) for p in record.problems),
                   meta={**record.meta, "mystery_of": record, "mystery_names": plain,
                         "mystery_seed": seed})


def mystery_records(records: list[Record], seed: int = 0) -> list[Record]:
    return [mystery_record(r, seed) for r in records]


def write_mystery_store(records: list[Record], out: Path, seed: int = 0) -> Path:
    """The obfuscated copies as a store folder (domains/, descriptions/, problems/,
    manifest.json), so every command reads them with ``--dataset OUT`` (``t2w eval`` included);
    ``mystery-names.json`` keeps each domain's renaming (original name -> nonsense word)."""
    out = Path(out)
    if out.exists():
        check_output_folder(out, "--out")  # a file or a device there: said as such
    if out.exists() and any(out.iterdir()):
        raise ValueError(f"{out}: exists and is not empty; give a new folder")
    entries, names = [], {}
    for record in records:
        mystery = mystery_record(record, seed)
        atomic_write_text(out / "domains" / f"{record.id}.pddl", mystery.domain)
        for kind in ("abstract", "concrete"):
            text = mystery.description(kind)
            if text is not None:
                atomic_write_text(out / "descriptions" / record.id / f"{kind}.md", text)
        for problem in mystery.problems:
            atomic_write_text(out / "problems" / record.id / f"{problem.name}.pddl",
                              problem.pddl)
        entries.append({"id": record.id, "name": mystery.name, "split": record.split,
                        "category": "mystery", "provenance": f"mystery copy (seed {seed}) of "
                        f"{record.id}", "problems": [p.name for p in mystery.problems]})
        names[record.id] = mystery.meta["mystery_names"]
    atomic_write_text(out / "manifest.json", json.dumps({"version": 1, "domains": entries},
                                                        indent=1) + "\n")
    atomic_write_text(out / "mystery-names.json", json.dumps(names, indent=1) + "\n")
    return out
