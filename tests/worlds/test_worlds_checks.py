"""The parts of the generator: the prose renderer, the canonical form, the checks (each one
shown to fail on a broken world), and semantic scoring against generated golds (every seeded
mutant that behaves differently is detected)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from repo_paths import OFFICIAL_DIR

from text2world.files import data_dir
from text2world.pddl.model import parse_domain
from text2world.scoring.mutants import behaviour_differs, mutants, rename
from text2world.scoring.semantic import semantic_score
from text2world.simulation import parse_problem
from text2world.worlds.canonical import domain_structure, world_key
from text2world.worlds.families import FAMILIES
from text2world.worlds.generate import Settings, build_world, draft
from text2world.worlds.novelty import novelty, reference_index
from text2world.worlds.plan import (
    ActionSpec,
    Literal,
    PredicateSpec,
    domain_pddl,
    literal,
    problem_pddl,
)
from text2world.worlds.prose import (
    render_action,
    render_description,
    render_fact,
    render_facts,
    render_predicate,
)
from text2world.worlds.verify import store_band, verify_world

BAND = store_band(data_dir())


def _texts(plan, problems):
    return (domain_pddl(plan), {p.name: problem_pddl(plan, p) for p in problems},
            render_description(plan, "abstract"), render_description(plan, "concrete"))


@pytest.fixture(scope="module")
def transport():
    return draft("transport", 11, "t-world")


def test_prose_renders_facts_predicates_and_actions_from_glosses(transport):
    plan, problems, _, _ = transport
    at = PredicateSpec("at", (("d", "drone"), ("l", "pad")), "drone {d} is at pad {l}",
                       "drone {d} is not at pad {l}")
    assert render_fact(at, ("hawk", "roof")) == "drone hawk is at pad roof"
    assert render_fact(at, ("d", "l"), variables=True) == "drone ?d is at pad ?l"
    assert render_fact(at, ("hawk", "roof"), positive=False) == "drone hawk is not at pad roof"
    assert render_predicate(at) == "- **(at ?d - drone ?l - pad)**: Drone ?d is at pad ?l."
    sentence = render_facts(plan, problems[0].goal)
    assert sentence.endswith(".") and sentence[0].isupper()
    assert all(g.args[0] in sentence for g in problems[0].goal)
    concrete = render_action(plan, plan.actions[0], concrete=True)
    assert "Preconditions:" in concrete and "Effects:" in concrete
    assert "Preconditions" not in render_action(plan, plan.actions[0], concrete=False)


def test_canonical_form_ignores_names_and_sees_structure(transport):
    plan, problems, _, _ = transport
    domain = parse_domain(domain_pddl(plan))
    assert domain_structure(rename(domain, types=True)) == domain_structure(domain)
    for mutant in mutants(domain)[:8]:
        assert domain_structure(mutant.domain) != domain_structure(domain), mutant.kind
    facts = [(p.objects, p.init, p.goal) for p in problems]
    renamed = []
    for objects, init, goal in facts:
        names = {name: f"x{i}" for i, (name, _) in enumerate(objects)}
        renamed.append(([(names[n], t) for n, t in objects],
                        [Literal(f.predicate, tuple(names[a] for a in f.args)) for f in init],
                        [Literal(f.predicate, tuple(names[a] for a in f.args)) for f in goal]))
    assert world_key(domain, renamed) == world_key(domain, facts)
    moved = [(facts[0][0], facts[0][1], facts[0][2][:-1] or facts[0][1][:1]), *facts[1:]]
    assert world_key(domain, moved) != world_key(domain, facts)


def test_a_drawn_world_passes_and_each_check_can_fail(transport):
    plan, problems, _, _ = transport
    assert verify_world(*_texts(plan, problems), BAND).ok
    # an action no problem needs
    idle = ActionSpec("wait-here", plan.actions[0].params, "nothing happens to {v}",
                      plan.actions[0].pre[:1], (literal(f"{plan.actions[0].pre[0].predicate} "
                                                        + " ".join(plan.actions[0].pre[0].args)),))
    found = verify_world(*_texts(replace(plan, actions=(*plan.actions, idle)), problems), BAND)
    assert any("wait-here is needed by no problem" in f for f in found.failures)
    # a goal no plan reaches
    goal = problems[0].goal[0]
    stuck = replace(problems[0], goal=(*problems[0].goal,
                                       replace(goal, args=(goal.args[0], "nowhere"))),
                    objects=(*problems[0].objects, ("nowhere", plan.types[1].name)))
    found = verify_world(*_texts(plan, [stuck, *problems[1:]]), BAND)
    assert any(f.startswith("p01: not solved") for f in found.failures)
    # a description without a predicate's line, and an abstract one stating effects
    domain, texts, abstract, concrete = _texts(plan, problems)
    missing = "\n".join(line for line in concrete.splitlines()
                        if f"({plan.predicates[0].name} " not in line)
    found = verify_world(domain, texts, abstract.replace("### General\n", "### General\nA "
                         "truck becomes loaded and is no longer empty as a result.\n"),
                         missing, BAND)
    assert any("concrete.md: predicate" in f for f in found.failures)
    assert any(f.startswith("abstract.md: states dynamics") for f in found.failures)
    assert any(f.startswith("lint: general") for f in found.failures)


def test_token_band_and_parse_checks_fail_when_they_should(transport):
    plan, problems, _, _ = transport
    domain, texts, abstract, concrete = _texts(plan, problems)
    short = verify_world(domain, texts, abstract, concrete, replace(BAND, concrete=(1, 10)))
    assert any(f.startswith("tokens: concrete") for f in short.failures)
    broken = verify_world(domain.replace("(:action", "(:acton", 1), texts, abstract, concrete,
                          BAND)
    assert not broken.ok and broken.failures[0].startswith("tarski")


@pytest.mark.parametrize("family,seed", [("machines", 5), ("keys-doors", 2), ("pouring", 3)])
def test_semantic_scoring_detects_seeded_mutants_of_generated_golds(family, seed):
    """Every mutant that behaves differently on a reachable state of the gold's problems gets a
    verdict other than ``equivalent``; a renamed gold stays ``equivalent``. Swapped parameters
    are left out, as the scorer's own tests leave them out: the swap is a faithful rewrite
    (the parameters listed in another order), which the scorer aligns."""
    settings = Settings(seed, 1, (family,))
    world = build_world(settings, 0, 0)
    assert not world.failures
    gold = parse_domain(world.domain)
    problems = [(name, text) for name, text in world.problems.items()]
    parsed = [parse_problem(gold, text) for _, text in problems[:2]]
    differing = [m for m in mutants(gold) if m.kind != "swap-parameters"
                 and behaviour_differs(gold, m.domain, parsed)]
    assert len(differing) >= 5
    rng = random.Random(seed)
    sample = rng.sample(differing, min(12, len(differing)))
    missed = [(m.kind, m.action, m.detail) for m in sample
              if semantic_score(world.domain, m.domain, problems).verdict == "equivalent"]
    assert not missed
    renamed = rename(gold)
    assert semantic_score(world.domain, renamed, problems).verdict == "equivalent"


def test_every_family_draws_worlds_that_pass():
    for index, name in enumerate(FAMILIES):
        world = build_world(Settings(index, len(FAMILIES), tuple(FAMILIES)), index, 0)
        assert world.family == name
        assert not world.failures, (name, world.failures)


def test_novelty_against_the_store_finds_a_store_domain_and_its_own_text():
    """A store domain's own structure and description are found; a generated world's are not
    among the store's."""
    store = data_dir()
    references = reference_index(store, None)
    gripper = (store / "domains" / "gripper.pddl").read_text()
    abstract = (store / "descriptions" / "gripper" / "abstract.md").read_text()
    found = novelty(abstract, domain_structure(parse_domain(gripper)), references, None)
    assert found["ngram_overlap"] == 1.0 and found["ngram_nearest"] == "store:gripper"
    assert "store:gripper" in found["structure_matches"]
    assert found["compared_with"] == ["store"]
    world = build_world(Settings(1, 1, ("stacking",)), 0, 0)
    assert world.record["novelty"]["structure_matches"] == []
    assert world.record["novelty"]["ngram_overlap"] < 0.5


@pytest.mark.skipif(not (OFFICIAL_DIR / "test.json").is_file(),
                    reason=f"released Text2World data not found at {OFFICIAL_DIR}")
def test_novelty_is_checked_against_the_released_set_too():
    world = build_world(Settings(1, 1, ("transport",), released=OFFICIAL_DIR), 0, 0)
    assert world.record["novelty"]["compared_with"] == ["store", "released"]
    references = reference_index(data_dir(), OFFICIAL_DIR)
    assert sum(r.id.startswith("released-") for r in references) >= 100
