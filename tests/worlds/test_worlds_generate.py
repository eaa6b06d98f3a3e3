"""``t2w worlds generate`` end to end: a small seeded sample (two worlds per family) written by
the command, read back as a dataset, re-checked here with the store's own checks (tarski,
the shipped plans replayed, Fast Downward on a few problems, the description format and lint,
the token band), deterministic to the byte, and scored 100 % by the oracle."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from text2world.model.reference import reference_answer
from text2world.pddl.validation import validate
from text2world.planning.fast_downward import solve_many
from text2world.rewards import Gold, reward_for
from text2world.simulation import Simulator, parse_problem
from text2world.store.datasets import load_dataset
from text2world.store.lint import format_problems, lint_text
from text2world.store.tokens import count_gpt2_tokens
from text2world.worlds.families import FAMILIES
from text2world.worlds.generate import GENERATOR_VERSION

SEED = 7


def t2w(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "text2world.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=600)


@pytest.fixture(scope="module")
def sample(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("worlds") / "sample"
    result = t2w("worlds", "generate", "--seed", str(SEED), "--count", str(2 * len(FAMILIES)),
                 "--out", str(out), "--workers", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert f"{2 * len(FAMILIES)} worlds written" in result.stdout
    return out


@pytest.fixture(scope="module")
def dataset(sample):
    return load_dataset(sample)


def test_the_sample_is_a_dataset_with_two_worlds_per_family(dataset, sample):
    families = [record.meta["family"] for record in dataset]
    assert sorted(families) == sorted(list(FAMILIES) * 2)
    assert len(FAMILIES) >= 12
    for record in dataset:
        assert record.abstract and record.concrete
        assert [p.name for p in record.problems] == ["p01", "p02", "p03"]
        meta = record.meta
        assert meta["generator_version"] == GENERATOR_VERSION and meta["seed"] == SEED
        assert isinstance(meta["knobs"], dict) and meta["knobs"]
        assert set(meta["needed_by"]) == {a.name for a in validate(record.domain).domain.actions}
        assert meta["novelty"]["compared_with"][0] == "store"
        assert 0 <= meta["novelty"]["ngram_overlap"] < 0.5
    manifest = json.loads((sample / "manifest.json").read_text())
    assert manifest["generator"]["count"] == len(dataset)
    # distinct up to names
    assert len({r.meta["canonical"] for r in dataset}) == len(dataset)


def test_every_world_passes_the_stores_checks(dataset, sample):
    band = json.loads((sample / "manifest.json").read_text())["generator"]["token_band"]
    for record in dataset:
        checked = validate(record.domain)
        assert checked.ok and not checked.warnings, (record.id, checked.errors, checked.warnings)
        domain = checked.domain
        plans = json.loads((sample / "plans" / f"{record.id}.json").read_text())["problems"]
        for problem in record.problems:
            simulator = Simulator(domain, parse_problem(domain, problem.pddl))
            replay = simulator.validate_plan(plans[problem.name]["plan"])
            assert replay.valid, (record.id, problem.name, replay.reason)
        for kind in ("abstract", "concrete"):
            text = record.description(kind)
            assert format_problems(domain, text, kind) == [], (record.id, kind)
            low, high = band[kind]
            assert low <= count_gpt2_tokens(text) <= high
        assert lint_text(record.abstract).ok, record.id
        low, high = band["domain"]
        assert low <= count_gpt2_tokens(record.domain) <= high


def test_fast_downward_solves_the_small_and_hard_problems_of_a_few_worlds(dataset):
    jobs = [(f"{r.id}/{p.name}", r.domain, p.pddl) for r in dataset.records[:4]
            for p in r.problems if p.name in ("p01", "p03")]
    results = solve_many(jobs, workers=2, timeout=20.0, tarski_check=True)
    unsolved = {key: f"{r.status}: {r.message}" for key, r in results.items() if not r.solved}
    assert not unsolved


def test_the_oracle_scores_100_percent(dataset):
    for record in dataset.records[::6]:  # one world in six: each family's structures vary
        gold = Gold(record.id, record.domain, tuple((p.name, p.pddl) for p in record.problems))
        answer = reference_answer("oracle", record.domain, record.id, 0)
        detail = reward_for(gold, answer, metric="semantic", every_score=True)
        assert detail.scores["paper_f1"] == 1.0, (record.id, detail.reason)
        assert detail.verdict == "equivalent", (record.id, detail.reason)
        assert detail.reward == 1.0


def test_same_seed_same_bytes_whatever_the_pool(tmp_path):
    folders = []
    for workers in ("1", "2"):
        out = tmp_path / f"w{workers}"
        result = t2w("worlds", "generate", "--seed", "3", "--count", "14", "--out", str(out),
                     "--workers", workers, "--quiet")
        assert result.returncode == 0, result.stderr
        folders.append(out)
    files = [sorted(p.relative_to(f) for p in f.rglob("*") if p.is_file()) for f in folders]
    assert files[0] == files[1] and len(files[0]) > 14 * 6
    for name in files[0]:
        assert (folders[0] / name).read_bytes() == (folders[1] / name).read_bytes(), name
    other = tmp_path / "other"
    assert t2w("worlds", "generate", "--seed", "4", "--count", "14", "--out", str(other),
               "--quiet").returncode == 0
    assert (other / "manifest.json").read_bytes() != (folders[0] / "manifest.json").read_bytes()


def test_bad_input_gets_a_clear_error(tmp_path):
    unknown = t2w("worlds", "generate", "--seed", "1", "--families", "transport,nope",
                  "--out", str(tmp_path / "x"))
    assert unknown.returncode == 1
    assert "unknown family 'nope'" in unknown.stderr and "transport" in unknown.stderr
    assert "Traceback" not in unknown.stderr
    zero = t2w("worlds", "generate", "--seed", "1", "--count", "0", "--out", str(tmp_path / "y"))
    assert zero.returncode == 1 and "--count must be at least 1" in zero.stderr
    busy = tmp_path / "busy"
    busy.mkdir()
    (busy / "keep.txt").write_text("mine")
    taken = t2w("worlds", "generate", "--seed", "1", "--count", "1", "--out", str(busy))
    assert taken.returncode == 1 and "not empty" in taken.stderr
    assert (busy / "keep.txt").read_text() == "mine"
    no_store = subprocess.run([sys.executable, "-m", "text2world.cli", "worlds", "generate",
                               "--seed", "1", "--count", "1", "--out", str(tmp_path / "z")],
                              capture_output=True, text=True, timeout=600,
                              env={**os.environ, "T2W_DATA_DIR": str(tmp_path / "none")})
    assert no_store.returncode == 1 and "the store's manifest cannot be read" in no_store.stderr
    assert "Traceback" not in no_store.stderr


def test_families_are_listed():
    result = t2w("worlds", "families")
    assert result.returncode == 0
    for name in FAMILIES:
        assert name in result.stdout


def test_answer_keys_of_generated_worlds(tmp_path):
    """``--keys`` writes the world-model tasks' answer keys in the store's layout, current for
    the generated texts, and the world-model tasks' reader finds them there."""
    from text2world.tasks.wm.shipped_keys import shipped_key

    out = tmp_path / "keyed"
    result = t2w("worlds", "generate", "--seed", "5", "--count", "2", "--families",
                 "keys-doors", "--out", str(out), "--keys", "--quiet")
    assert result.returncode == 0, result.stderr
    for record in load_dataset(out):
        data = json.loads((out / "keys" / f"{record.id}.json").read_text())
        assert data["format"] == "t2w-answer-keys-1"
        for problem in record.problems:
            assert shipped_key(record, problem.name, problem.pddl, root=out), \
                (record.id, problem.name, data["problems"][problem.name].get("skipped"))


def test_the_same_bytes_on_ray(tmp_path):
    """``--ray`` builds the draws as Ray tasks; the folder is the local pool's, byte for byte."""
    try:
        import ray  # noqa: F401
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("ray is in the test extra: CI must install it")
        pytest.skip("ray is not installed (pip install 'text2world[ray]')")
    folders = []
    for flags in (("--ray",), ()):
        out = tmp_path / ("ray" if flags else "local")
        result = t2w("worlds", "generate", "--seed", "9", "--count", "8", "--workers", "2",
                     "--out", str(out), "--quiet", *flags)
        assert result.returncode == 0, result.stderr[-2000:]
        folders.append(out)
    files = sorted(p.relative_to(folders[0]) for p in folders[0].rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(folders[1]) for p in folders[1].rglob("*")
                           if p.is_file())
    for name in files:
        assert (folders[0] / name).read_bytes() == (folders[1] / name).read_bytes(), name


def test_an_interrupted_run_resumes_to_the_same_worlds(tmp_path):
    """Each finished chunk is journaled; ``resume`` builds only the rest, and the worlds are
    those of a run never stopped. A journal of other settings is refused, clearly."""
    from text2world.worlds.generate import Settings, WorldsError, generate, local_runner

    settings = Settings(2, 9, ("keys-doors", "stacking", "machines"))
    journal = tmp_path / "run.journal.jsonl"
    calls: list[int] = []

    def stops_after_one_chunk(chosen, jobs):
        if calls:
            raise KeyboardInterrupt
        calls.append(len(jobs))
        return local_runner(1)(chosen, jobs)

    with pytest.raises(KeyboardInterrupt):
        generate(settings, runner=stops_after_one_chunk, journal=journal, chunk=4)
    assert len(journal.read_text().splitlines()) >= 1 + 4
    built: list[int] = []

    def counting(chosen, jobs):
        built.extend(index for index, _ in jobs)
        return local_runner(1)(chosen, jobs)

    resumed = generate(settings, runner=counting, journal=journal, resume=True, chunk=4)
    assert min(built) >= 4  # the journaled chunk is not built again
    fresh = generate(settings, chunk=4)
    assert [(w.id, w.domain, w.problems, w.record) for w in resumed.worlds] == \
        [(w.id, w.domain, w.problems, w.record) for w in fresh.worlds]
    with pytest.raises(WorldsError, match="other settings"):
        generate(Settings(3, 9, ("stacking",)), journal=journal, resume=True, chunk=4)
