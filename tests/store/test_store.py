"""The built-in store (data/): every domain parses, every problem is solvable, descriptions are
complete and well-formed, requirements are spread like the paper's, the manifest is current.

Solving every problem with Fast Downward takes minutes on a busy machine, so verified
(domain, problem, planner version) triples are remembered by content hash in a file of the
user's cache folder (``SOLVED_CACHE``; not pytest's cache plugin, which ``-p no:cacheprovider``
turns off): a changed domain or problem is always solved again. ``T2W_SOLVE_ALL=1`` ignores it.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from importlib.metadata import version
from pathlib import Path

import pytest

from text2world.pddl.validation import used_features
from text2world.planning.fast_downward import solve_many
from text2world.store.audit import goal_predicates, write_only_predicates
from text2world.store.curation import cached_validate
from text2world.store.datasets import data_dir, load_store_dir
from text2world.store.lint import action_bullets, action_signature, format_problems
from text2world.store.manifest import SPLITS, build_manifest, manifest_differences

DATA = data_dir()
STORE_IDS = sorted(p.stem for p in (DATA / "domains").glob("*.pddl"))
TRAIN_IDS = {"blocksworld", "gripper"}
SOLVE_TIMEOUT = 20.0
SOLVED_CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "text2world" / \
    "test-store-solved-problems.json"


@pytest.fixture(scope="module")
def store():
    return load_store_dir(DATA)


def _domain(record_id: str):
    result = cached_validate((DATA / "domains" / f"{record_id}.pddl").read_text(encoding="utf-8"))
    assert result.ok, f"{record_id}: tarski cannot parse the domain: {result.errors[0]}"
    return result.domain


def test_store_has_the_two_train_exemplars_and_a_test_split(store):
    assert {r.id for r in store.split("train")} == TRAIN_IDS
    assert len(store.split("test")) == 101  # as in the paper
    assert all(r.split in SPLITS for r in store)


# --------------------------------------------------------------------------------------------
# Parsing and solving


@pytest.mark.parametrize("record_id", STORE_IDS)
def test_domain_parses_with_tarski_without_warnings(record_id):
    text = (DATA / "domains" / f"{record_id}.pddl").read_text(encoding="utf-8")
    result = cached_validate(text)
    assert result.ok, f"{record_id}: {[str(e) for e in result.errors]}"
    # no undeclared requirement, duplicate parameter, trailing text, ...
    assert not result.warnings, f"{record_id}: {[str(w) for w in result.warnings]}"
    # comments are allowed (the released set has them), but not after the closing parenthesis:
    # paper mode parses the prediction from text.strip(), and a trailing comment zeroes its F1s
    assert not text.rstrip().splitlines()[-1].lstrip().startswith(";"), \
        f"{record_id}: ends with a comment line"


@pytest.mark.parametrize("record_id", STORE_IDS)
def test_no_write_only_predicates(record_id):
    """Every predicate an action sets or clears is tested by some precondition, effect
    condition or problem goal: otherwise a broken effect on it goes unnoticed."""
    goals: set[str] = set()
    for problem in (DATA / "problems" / record_id).glob("*.pddl"):
        goals |= goal_predicates(problem.read_text(encoding="utf-8"))
    names = write_only_predicates(_domain(record_id), goals)
    assert not names, f"{record_id}: set but never tested: {names}"


def test_write_only_check_finds_an_untested_predicate():
    text = (DATA / "domains" / "gripper.pddl").read_text(encoding="utf-8")
    text = text.replace("(carrying ?b - ball ?g - gripper))",
                        "(carrying ?b - ball ?g - gripper) (dropped ?b - ball))")
    text = text.replace("(free ?g)\n                 (not (carrying",
                        "(free ?g) (dropped ?b)\n                 (not (carrying")
    result = cached_validate(text)
    assert result.ok and "dropped" in text
    assert write_only_predicates(result.domain, ()) == ["dropped"]
    assert write_only_predicates(result.domain, {"dropped"}) == []
    assert goal_predicates("(define (problem p) (:goal (and (dropped b1) (not (free g)))))") \
        == {"dropped", "free"}


@pytest.mark.parametrize("record_id", STORE_IDS)
def test_at_least_two_problems(record_id):
    problems = sorted((DATA / "problems" / record_id).glob("*.pddl"))
    assert len(problems) >= 2, f"{record_id}: needs at least 2 problems, has {len(problems)}"


def _solve_key(domain: str, problem: str) -> str:
    digest = hashlib.sha256()
    for part in (domain, "\0", problem, "\0", version("unified-planning"),
                 version("up-fast-downward"), version("tarski"), "tarski-checked"):
        digest.update(part.encode())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def solved(store) -> dict:
    """(id, problem name) -> PlanResult for every store problem (pool of 2 processes): the
    problem must parse against its domain with tarski and with unified-planning, and Fast
    Downward must find a plan."""
    known_set = set() if os.environ.get("T2W_SOLVE_ALL") else _read_solved()
    jobs, results = [], {}
    for record in store:
        for problem in record.problems:
            key = _solve_key(record.domain, problem.pddl)
            if key in known_set:
                results[(record.id, problem.name)] = "cached"
            else:
                jobs.append((f"{record.id}/{problem.name}\0{key}", record.domain, problem.pddl))
    outcomes = solve_many(jobs, workers=2, timeout=SOLVE_TIMEOUT, tarski_check=True)
    for job_key, result in outcomes.items():
        label, key = job_key.split("\0")
        record_id, problem_name = label.split("/")
        results[(record_id, problem_name)] = result
        if result.solved:
            known_set.add(key)
    _write_solved(known_set)
    return results


def _read_solved() -> set[str]:
    try:
        keys = json.loads(SOLVED_CACHE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return set()  # no or unreadable cache: everything is solved again
    return {k for k in keys if isinstance(k, str)} if isinstance(keys, list) else set()


def _write_solved(keys: set[str]) -> None:
    try:
        SOLVED_CACHE.parent.mkdir(parents=True, exist_ok=True)
        partial = SOLVED_CACHE.with_name(f"{SOLVED_CACHE.name}.{os.getpid()}.tmp")
        partial.write_text(json.dumps(sorted(keys)), encoding="utf-8")
        partial.replace(SOLVED_CACHE)  # atomic: a parallel run reads the old or the new list
    except OSError:
        pass  # a read-only home only costs solving again next time


@pytest.mark.parametrize("record_id", STORE_IDS)
def test_every_problem_parses_and_is_solved_by_fast_downward(record_id, solved):
    mine = {name: r for (rid, name), r in solved.items() if rid == record_id}
    assert mine, f"{record_id}: no problems"
    failures = {name: f"{r.status}: {r.message}" for name, r in mine.items()
                if r != "cached" and not r.solved}
    assert not failures, f"{record_id}: not parsed or not solved: {failures}"


def test_problems_grow_in_size(store):
    """p01 is the smallest problem: 'of growing size' (compared by object count)."""
    def objects(text: str) -> int:
        match = re.search(r"\(:objects(.*?)\)", text, re.S | re.I)
        return len([w for w in re.split(r"\s+", match.group(1)) if w and w != "-"]) if match else 0
    shrinking = [r.id for r in store if len(r.problems) >= 2
                 and objects(r.problems[0].pddl) > objects(r.problems[-1].pddl)]
    assert not shrinking, f"the last problem has fewer objects than p01: {shrinking}"


# --------------------------------------------------------------------------------------------
# Descriptions


def _lint(record_id: str, kind: str) -> list[str]:
    domain = _domain(record_id)
    path = DATA / "descriptions" / record_id / f"{kind}.md"
    if not path.is_file():
        return [f"missing {path.relative_to(DATA.parent)}"]
    return format_problems(domain, path.read_text(encoding="utf-8"), kind)


@pytest.mark.parametrize("kind", ["abstract", "concrete"])
@pytest.mark.parametrize("record_id", STORE_IDS)
def test_description_lint(record_id, kind):
    problems = _lint(record_id, kind)
    assert not problems, f"{record_id} {kind}.md: " + "; ".join(problems)


def test_lint_catches_a_missing_signature_and_stated_effects(tmp_path, monkeypatch):
    """The lint is not vacuous: break a copy of a store domain's descriptions and see it fail."""
    fake = tmp_path / "data"
    (fake / "domains").mkdir(parents=True)
    (fake / "descriptions" / "gripper").mkdir(parents=True)
    (fake / "domains" / "gripper.pddl").write_text((DATA / "domains" / "gripper.pddl").read_text())
    abstract = (DATA / "descriptions" / "gripper" / "abstract.md").read_text()
    concrete = (DATA / "descriptions" / "gripper" / "concrete.md").read_text()
    action = _domain("gripper").actions[0]
    (fake / "descriptions" / "gripper" / "abstract.md").write_text(
        abstract.replace(f"**{action_signature(action)}**", f"**{action.name}**")
        + "\nThe ball becomes held.\n")
    (fake / "descriptions" / "gripper" / "concrete.md").write_text(
        re.sub(r"(?i)effects:", "Outcome:", concrete))
    monkeypatch.setattr(sys.modules[__name__], "DATA", fake)
    abstract_problems = _lint("gripper", "abstract")
    assert any(action_signature(action) in p for p in abstract_problems)
    assert any("becomes" in p for p in abstract_problems)
    assert any("'Effects:'" in p for p in _lint("gripper", "concrete"))


def test_action_bullet_is_matched_exactly_not_by_prefix():
    """An action named like the prefix of a type (mash vs mash-tun) gets its own bullet."""
    text = ("### Actions\n- **mash-tun-clean <?t>**: cleans.\n  - Preconditions: a.\n"
            "  - Effects: b.\n- **mash <?b> <?t>**: mashes.\n  - Preconditions: c.\n")
    bullets = action_bullets(text)
    assert "effects:" not in bullets["mash <?b> <?t>"].lower()
    assert "effects:" in bullets["mash-tun-clean <?t>"].lower()


# --------------------------------------------------------------------------------------------
# Requirements


_QUANTIFIED = {":universal-preconditions", ":existential-preconditions"}


def _requirement_counts() -> dict[str, int]:
    """Domains that declare a requirement and really use it (':quantified' = either kind)."""
    counts: dict[str, int] = {}
    for record_id in STORE_IDS:
        domain = _domain(record_id)
        used = set(used_features(domain)) & set(domain.requirements)
        if used & _QUANTIFIED:
            used.add(":quantified")
        for requirement in used:
            counts[requirement] = counts.get(requirement, 0) + 1
    return counts


def test_requirements_are_spread_like_the_papers():
    counts = _requirement_counts()
    assert counts.get(":typing", 0) > 0.75 * len(STORE_IDS), counts
    for requirement in (":negative-preconditions", ":equality", ":disjunctive-preconditions",
                        ":quantified", ":conditional-effects", ":action-costs"):
        assert counts.get(requirement, 0) >= 3, f"only {counts.get(requirement, 0)} domains " \
                                                f"use {requirement}: {counts}"
    # mostly STRIPS-like: the richer features stay a minority, as in the paper
    assert counts.get(":conditional-effects", 0) < 0.3 * len(STORE_IDS)


# --------------------------------------------------------------------------------------------
# Manifest


def test_committed_manifest_is_up_to_date():
    differences = manifest_differences(DATA)
    assert not differences, ("data/manifest.json is stale, run `t2w data manifest`:\n"
                             + "\n".join(differences[:20]))


def test_manifest_has_people_metadata_for_every_domain():
    manifest, warnings = build_manifest(DATA)
    assert [e["id"] for e in manifest["domains"]] == STORE_IDS
    assert not warnings, "\n".join(warnings)
    for entry in manifest["domains"]:
        assert entry["split"] in SPLITS
        assert entry["category"] and entry["provenance"], entry["id"]
        assert len(entry["problems"]) >= 2, entry["id"]


def test_manifest_counts_match_the_domain(store):
    manifest = {e["id"]: e for e in build_manifest(DATA)[0]["domains"]}
    gripper = manifest["gripper"]
    domain = _domain("gripper")
    assert gripper["predicates"] == len(domain.predicates) > 0
    assert gripper["actions"] == len(domain.actions) > 0
    assert gripper["requirements"] == sorted(domain.requirements)
    assert gripper["problems"] == [p.name for p in store.get("gripper").problems]
    assert gripper["split"] == "train" and store.get("gripper").split == "train"


def test_manifest_differences_name_an_entry_without_id(tmp_path, monkeypatch):
    # A hand-edited manifest entry with no "id" is reported, not a TypeError from sorting
    # None with the ids (found by mypy).
    import text2world.store.manifest as manifest_module

    fresh = {"domains": [{"id": "gripper", "split": "train"}]}
    monkeypatch.setattr(manifest_module, "build_manifest", lambda root: (fresh, []))
    (tmp_path / "manifest.json").write_text(json.dumps(
        {"domains": [{"id": "gripper", "split": "train"}, {"id": "blocks"}, {"split": "test"}]}),
        encoding="utf-8")
    assert manifest_differences(tmp_path) == ["None: in the manifest but has no domain file",
                                              "blocks: in the manifest but has no domain file"]
