"""``t2w worlds generate``: N verified worlds from a seed, written as a dataset folder in the
store's layout (``domains/``, ``descriptions/``, ``problems/``, ``plans/``, ``manifest.json``),
so ``store.datasets.load_dataset(path)`` reads it.

World ``i`` belongs to family ``families[i % len(families)]``; its random stream is seeded by
(generator version, seed, i, attempt). A world that fails a check (``verify``) or repeats an
earlier one up to names (``canonical.world_key``) is drawn again with the next attempt, so the
output depends on the seed and the version only: byte-identical whatever the pool's timing.
Worlds are built and checked in a local process pool (``workers``); the duplicates are decided
afterwards in index order.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import random
import shutil
import tempfile
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Callable, Sequence

from text2world.errors import Text2WorldError
from text2world.files import atomic_write_text, data_dir
from text2world.planning.front import FRONT
from text2world.store.curation import replace_dir
from text2world.store.manifest import MANIFEST_NAME, domain_facts
from text2world.store.plans import FORMAT, plan_key
from text2world.worlds.canonical import domain_structure, world_key
from text2world.worlds.families import FAMILIES
from text2world.worlds.novelty import novelty, reference_index
from text2world.worlds.plan import ProblemSpec, WorldPlan, domain_pddl, problem_pddl
from text2world.worlds.prose import render_description
from text2world.worlds.verify import PLAN_TIMEOUT, store_band, verify_world

__all__ = [
    "GENERATOR_VERSION", "WorldsError", "Settings", "World", "check_families", "world_seed",
    "draft", "build_world", "build_worlds", "Runner", "local_runner", "Generated", "CHUNK",
    "generate", "check_output", "write_dataset",
]

GENERATOR_VERSION = "worlds-1"
MAX_ATTEMPTS = 8
COSTS = (1, 2, 3)  # the action costs drawn for a world with costs
PROBLEM_SIZES = (("p01", "small"), ("p02", "medium"), ("p03", "hard"))
REPORT_KEY = "generator"


class WorldsError(Text2WorldError, ValueError):
    """Generation cannot run as asked (unknown family, bad count, output folder in the way)."""


@dataclass(frozen=True)
class Settings:
    seed: int
    count: int
    families: tuple[str, ...]
    train_families: tuple[str, ...] = ()
    released: Path | None = None
    store: Path = field(default_factory=data_dir)


@dataclass
class World:
    """One generated world, its texts and its record (the manifest entry)."""

    id: str
    index: int
    family: str
    attempt: int
    domain: str = ""
    abstract: str = ""
    concrete: str = ""
    problems: dict[str, str] = field(default_factory=dict)
    plans: dict[str, dict] = field(default_factory=dict)
    record: dict = field(default_factory=dict)
    key: str = ""
    failures: list[str] = field(default_factory=list)


def check_families(names: Sequence[str] | None) -> tuple[str, ...]:
    """The families asked for (all when none), each known, in the order given."""
    if not names:
        return tuple(FAMILIES)
    unknown = [n for n in names if n not in FAMILIES]
    if unknown:
        raise WorldsError(f"unknown famil{'y' if len(unknown) == 1 else 'ies'} "
                          f"{', '.join(map(repr, unknown))}; known: {', '.join(FAMILIES)}")
    return tuple(dict.fromkeys(names))


def world_seed(seed: int, index: int, attempt: int) -> int:
    text = f"{GENERATOR_VERSION}:{seed}:{index}:{attempt}"
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def draft(family_name: str, seed: int, world_id: str) -> tuple[WorldPlan, list[ProblemSpec],
                                                                 dict, int]:
    """The semantic plan and problems of one world: (plan, problems, knobs, lexicon index)."""
    family = FAMILIES[family_name]
    rng = random.Random(seed)
    knobs = family.knobs(rng)
    lexicon_index = rng.randrange(len(family.lexicons))
    lexicon = family.lexicons[lexicon_index]
    plan = family.build(knobs, lexicon, world_id)
    if plan.costs:  # each action's cost is a knob too: drawn, recorded
        costs = {a.name: rng.choice(COSTS) for a in plan.actions if a.cost is not None}
        plan = replace(plan, actions=tuple(replace(a, cost=costs.get(a.name, a.cost))
                                           for a in plan.actions))
        knobs = {**knobs, "action_costs": costs}
    problems = [family.problem(rng, knobs, lexicon, name, size) for name, size in PROBLEM_SIZES]
    return plan, problems, knobs, lexicon_index


def build_world(settings: Settings, index: int, attempt: int) -> World:
    """Draw, render and check world ``index`` (its ``attempt``-th draw)."""
    family = settings.families[index % len(settings.families)]
    world_id = f"w{settings.seed}-{index:05d}-{family}"
    world = World(world_id, index, family, attempt)
    seed = world_seed(settings.seed, index, attempt)
    plan, problems, knobs, lexicon_index = draft(family, seed, world_id)
    world.domain = domain_pddl(plan)
    world.abstract = render_description(plan, "abstract")
    world.concrete = render_description(plan, "concrete")
    world.problems = {p.name: problem_pddl(plan, p) for p in problems}
    band = store_band(settings.store)
    found = verify_world(world.domain, world.problems, world.abstract, world.concrete, band)
    world.failures = found.failures
    if not found.ok or found.domain is None:
        return world
    structure = domain_structure(found.domain)
    world.key = world_key(found.domain, [(p.objects, p.init, p.goal) for p in problems])
    references = reference_index(settings.store, settings.released)
    for name, result in found.plans.items():
        world.plans[name] = {"key": plan_key(world.domain, world.problems[name]),
                             "status": "solved", "plan": list(result.plan),
                             "cost": found.costs[name], "optimal": False,
                             "bound_s": PLAN_TIMEOUT}
    facts = domain_facts(world.domain)
    facts.pop("parses", None)
    world.record = {
        "id": world_id, "name": plan.title,
        "split": "train" if family in settings.train_families else "test",
        "category": FAMILIES[family].category,
        "provenance": f"generated by text2world {GENERATOR_VERSION} (family {family}, "
                      f"seed {settings.seed}, world {index})",
        **facts,
        "description_tokens": {"abstract": found.tokens["abstract"],
                               "concrete": found.tokens["concrete"]},
        "problems": sorted(world.problems),
        "family": family, "knobs": knobs, "lexicon": lexicon_index,
        "seed": settings.seed, "world_seed": seed, "index": index, "attempt": attempt,
        "generator_version": GENERATOR_VERSION,
        "problem_sizes": {p.name: p.size for p in problems},
        "needed_by": found.needed_by,
        "structure": structure, "canonical": world.key,
        "novelty": novelty(world.abstract, structure, references, settings.released),
    }
    return world


def build_worlds(settings: Settings, jobs: list[tuple[int, int]]) -> list[World]:
    """Build the (index, attempt) draws of ``jobs`` in order: one chunk of a runner's work."""
    return [build_world(settings, *job) for job in jobs]


# Builds a round's draws, in the order given (a local pool, Ray, ...).
Runner = Callable[[Settings, list[tuple[int, int]]], list[World]]

_SETTINGS: Settings | None = None  # the pool's settings, inherited by its forked workers


def _pool_job(job: tuple[int, int]) -> World:
    assert _SETTINGS is not None
    return build_world(_SETTINGS, *job)


def local_runner(workers: int) -> Runner:
    """Draws built in a local pool of ``workers`` forked processes (in this one when 1)."""

    def run(settings: Settings, jobs: list[tuple[int, int]]) -> list[World]:
        global _SETTINGS
        if workers <= 1 or len(jobs) < 4:
            return build_worlds(settings, jobs)
        _SETTINGS = settings
        try:
            with multiprocessing.get_context("fork").Pool(workers) as pool:
                return pool.map(_pool_job, jobs,
                                chunksize=max(1, len(jobs) // (workers * 8)))
        finally:
            _SETTINGS = None

    return run


@dataclass
class Generated:
    worlds: list[World]
    dropped: list[dict]  # every draw not kept: index, attempt, why

    def by_family(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for world in self.worlds:
            counts[world.family] = counts.get(world.family, 0) + 1
        return counts


CHUNK = 200  # indices decided (and journaled) together: a resumed run redoes at most one


def _journal_header(settings: Settings) -> dict:
    return {"version": GENERATOR_VERSION, "seed": settings.seed, "count": settings.count,
            "families": list(settings.families),
            "train_families": list(settings.train_families),
            "released": str(settings.released) if settings.released else None}


def _read_journal(journal: Path, settings: Settings) -> tuple[list[World], list[dict]]:
    """The worlds and dropped draws of the chunks an earlier run finished."""
    lines = journal.read_text(encoding="utf-8").splitlines()
    try:
        header = json.loads(lines[0]) if lines else None
        entries = [json.loads(line) for line in lines[1:] if line.strip()]
    except ValueError:
        raise WorldsError(f"{journal}: not a journal of t2w worlds generate (delete it to "
                          "start again)") from None
    if header != _journal_header(settings):
        raise WorldsError(f"{journal}: written by a run with other settings ({header}); "
                          "delete it or run without --resume")
    worlds = [World(**e["world"]) for e in entries if "world" in e]
    return worlds, [e["dropped"] for e in entries if "dropped" in e]


def generate(settings: Settings, workers: int = 1,
             progress: Callable[[str], None] | None = None,
             runner: Runner | None = None, journal: Path | None = None,
             resume: bool = False, chunk: int = CHUNK) -> Generated:
    """``settings.count`` worlds that pass every check, pairwise distinct up to names, built
    by ``runner`` (default: a local pool of ``workers``), ``chunk`` indices at a time. Each
    finished chunk is appended to ``journal`` (when given); ``resume`` takes the chunks an
    interrupted run journaled and builds the rest: the same worlds as a run never stopped."""
    run = runner or local_runner(workers)
    if settings.count < 1:
        raise WorldsError(f"--count must be at least 1, not {settings.count}")
    # built once here, inherited by the pool's workers
    store_band(settings.store)
    reference_index(settings.store, settings.released)
    kept: dict[int, World] = {}
    seen: dict[str, str] = {}
    dropped: list[dict] = []
    if resume and journal is not None and journal.is_file():
        worlds, dropped = _read_journal(journal, settings)
        for world in worlds:
            kept[world.index] = world
            seen[world.key] = world.id
        if progress:
            progress(f"{len(kept)} worlds taken from {journal}")
    elif journal is not None:
        atomic_write_text(journal, json.dumps(_journal_header(settings)) + "\n")
    for first in range(0, settings.count, chunk):
        pending = [(index, 0) for index in range(first, min(first + chunk, settings.count))
                   if index not in kept]
        if not pending:
            continue
        new_worlds: list[World] = []
        new_dropped: list[dict] = []
        while pending:
            retry = []
            for world in run(settings, pending):
                index = world.index
                why = "; ".join(world.failures[:3]) if world.failures else (
                    f"same world up to names as {seen[world.key]}" if world.key in seen else "")
                if why:
                    new_dropped.append({"index": index, "attempt": world.attempt,
                                        "family": world.family, "why": why})
                    if world.attempt + 1 >= MAX_ATTEMPTS:
                        raise WorldsError(f"world {index} ({world.family}) failed "
                                          f"{MAX_ATTEMPTS} draws; the last: {why}")
                    retry.append((index, world.attempt + 1))
                    continue
                seen[world.key] = world.id
                kept[index] = world
                new_worlds.append(world)
            pending = retry
        dropped += new_dropped
        if journal is not None:
            with journal.open("a", encoding="utf-8") as handle:
                for world in new_worlds:
                    handle.write(json.dumps({"world": asdict(world)}) + "\n")
                for draw in new_dropped:
                    handle.write(json.dumps({"dropped": draw}) + "\n")
                handle.flush()
                os.fsync(handle.fileno())
        if progress:
            progress(f"{len(kept)} of {settings.count} worlds kept")
    return Generated([kept[i] for i in sorted(kept)], dropped)


def _json(data: object) -> str:
    return json.dumps(data, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def check_output(out: Path, force: bool = False) -> None:
    """``out`` may be written: it does not exist, or is an empty folder, or ``force``."""
    if out.exists():
        if not out.is_dir():
            raise WorldsError(f"{out}: exists and is not a folder")
        if any(out.iterdir()) and not force:
            raise WorldsError(f"{out}: folder is not empty (use --force to replace it)")


def write_dataset(generated: Generated, settings: Settings, out: Path, force: bool = False
                  ) -> Path:
    """Write the worlds as a store folder at ``out`` (through a staging folder, renamed into
    place: a failure leaves nothing half-written)."""
    check_output(out, force)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.tmp-"))
    try:
        for world in generated.worlds:
            (staging / "domains").mkdir(exist_ok=True)
            (staging / "domains" / f"{world.id}.pddl").write_text(world.domain, encoding="utf-8")
            descriptions = staging / "descriptions" / world.id
            descriptions.mkdir(parents=True)
            (descriptions / "abstract.md").write_text(world.abstract, encoding="utf-8")
            (descriptions / "concrete.md").write_text(world.concrete, encoding="utf-8")
            problems = staging / "problems" / world.id
            problems.mkdir(parents=True)
            for name, text in world.problems.items():
                (problems / f"{name}.pddl").write_text(text, encoding="utf-8")
            (staging / "plans").mkdir(exist_ok=True)
            (staging / "plans" / f"{world.id}.json").write_text(_json(
                {"format": FORMAT, "planner": FRONT, "problems": world.plans}), encoding="utf-8")
        manifest = {
            "version": 1,
            REPORT_KEY: {"version": GENERATOR_VERSION, "seed": settings.seed,
                         "count": settings.count, "families": list(settings.families),
                         "train_families": list(settings.train_families),
                         "by_family": generated.by_family(),
                         "structures": len({w.record["structure"] for w in generated.worlds}),
                         "dropped": generated.dropped,
                         "token_band": store_band(settings.store).to_dict(),
                         "released_compared": settings.released is not None},
            "domains": [w.record for w in generated.worlds]}
        (staging / MANIFEST_NAME).write_text(_json(manifest), encoding="utf-8")
        replace_dir(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out
