"""Semantic verdicts: every faithful rewrite of a gold is ``equivalent`` with all metrics 1.0,
every behaviour-changing mutant is ``different`` or ``incomplete``; the verdict reaches the
CLI, run records and reports; extraction says what a stray parenthesis dropped."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import pytest

from text2world.pddl.model import parse_domain
from text2world.reports.semantic import semantic_rounds
from text2world.scoring.mutants import behaviour_differs, mutants
from text2world.scoring.rewrites import REWRITES, drop_action, reachable_problems
from text2world.scoring.semantic import prepare_gold, semantic_score, semantic_summary
from text2world.store.datasets import load_dataset, store_problems

ALL_IDS = sorted(r.id for r in load_dataset() if r.problems)
# A spread of the store for the default run (typed, untyped with type predicates, constants,
# conditional effects, ADL); the whole store and the released set: bench/align_bench.py.
# maze-walker: untyped, with unary predicates acting as types (predicates-as-types applies)
FIXED = ("blocksworld", "gripper", "switch-doors", "maze-walker")
SAMPLE = list(FIXED) + random.Random(25).sample([i for i in ALL_IDS if i not in FIXED], 4)


def _cache(gold_id: str):
    gold, problems = store_problems(gold_id)
    return gold, prepare_gold(gold, problems)


def _released(official_test, step: int) -> list[tuple[str, str]]:
    return [(str(r["id"]), r["pddl_domain"]) for r in official_test[::step]
            if str(r["id"]) != "187"]


def _check_rewrites(gold_id: str, gold_text: str | None = None) -> list[str]:
    """Failures of the rewrite classes on a store gold (its problems) or a released gold
    (``gold_text``: problems made by ``reachable_problems``)."""
    if gold_text is None:
        gold, cache = _cache(gold_id)
    else:
        gold = gold_text
        cache = prepare_gold(gold, reachable_problems(parse_domain(gold)))
    parsed = [p.problem for p in cache.problems]
    failures = []
    for name, rewrite in REWRITES.items():
        extra = {"problems": parsed} if name == "predicates-as-types" else {}
        domain = rewrite(cache.domain, 0, **extra)
        if domain is None:
            continue
        score = semantic_score(gold, domain.to_pddl(), gold_cache=cache)
        metrics = score.metrics()
        if score.verdict != "equivalent" or any(v not in (1.0, None) for v in metrics.values()):
            failures.append(f"{gold_id} {name}: {score.verdict} {metrics} {score.reason} "
                            f"{score.unmatched} {[d.message for d in score.diagnoses[:2]]}")
    return failures


@pytest.mark.parametrize("gold_id", SAMPLE)
def test_faithful_rewrites_are_equivalent(gold_id):
    assert _check_rewrites(gold_id) == []


def test_faithful_rewrites_of_released_golds_are_equivalent(official_test):
    """The released golds come without problems: ``reachable_problems`` makes them."""
    failures = [f for gold_id, text in _released(official_test, 20)
                for f in _check_rewrites(gold_id, text)]
    assert failures == []


# The full sweep (every store gold and every released gold, each rewrite class) is a benchmark:
# bench/align_bench.py prints the share scored equivalent per class (full sweeps live in bench/).


def test_every_rewrite_class_applies_to_the_sample():
    """Each class is exercised by the sample (parsing only, no planning)."""
    from text2world.simulation import parse_problem

    seen = set()
    for gold_id in SAMPLE:
        gold, problems = store_problems(gold_id)
        domain = parse_domain(gold)
        parsed = [parse_problem(gold, text) for _, text in problems]
        for name, rewrite in REWRITES.items():
            extra = {"problems": parsed} if name == "predicates-as-types" else {}
            if rewrite(domain, 0, **extra) is not None:
                seen.add(name)
    assert seen == set(REWRITES)


@pytest.mark.parametrize("gold_id", ["blocksworld", "gripper", "switch-doors"])
def test_behaviour_changing_mutants_are_different_or_incomplete(gold_id):
    gold, cache = _cache(gold_id)
    parsed = [p.problem for p in cache.problems]
    found = mutants(cache.domain)
    by_kind: dict = {}
    for mutant in found:
        if mutant.kind != "swap-parameters":  # a faithful rewrite (reversed-parameters)
            by_kind.setdefault(mutant.kind, []).append(mutant)
    checked = 0
    for kind, group in sorted(by_kind.items()):
        for mutant in random.Random(0).sample(group, min(2, len(group))):
            if behaviour_differs(cache.domain, mutant.domain, parsed) is None:
                continue
            score = semantic_score(gold, mutant.domain.to_pddl(), gold_cache=cache)
            assert score.verdict in ("different", "incomplete"), (kind, mutant.detail)
            checked += 1
    dropped = drop_action(cache.domain, 0)
    score = semantic_score(gold, dropped.to_pddl(), gold_cache=cache)
    assert score.verdict == "incomplete" and score.unmatched
    assert any("no counterpart" in part for part in score.unmatched)
    assert checked >= 2


def test_verdicts_of_simple_cases():
    gold, cache = _cache("blocksworld")
    assert semantic_score(gold, gold, gold_cache=cache).verdict == "equivalent"
    broken = semantic_score(gold, "(define (domain", gold_cache=cache)
    assert broken.verdict == "not_simulated" and not broken.ok and broken.reason
    summary = semantic_summary(semantic_score(gold, gold, gold_cache=cache))
    assert summary["verdict"] == "equivalent" and summary["unmatched"] == []


def test_uncertain_mappings_are_said_in_diagnoses():
    from text2world.scoring.diagnosis import Diagnosis
    from text2world.scoring.verdict import qualify

    diagnosis = Diagnosis("stack", "missing-precondition", "(clear ?b)", 3, "`stack`: ...")
    kept = qualify((diagnosis,), {("predicates", "on"): "predicate on ..."})
    assert kept == (diagnosis,)
    said = qualify((diagnosis,), {("predicates", "clear"): "predicate clear is mapped from "
                                  "zq1 with confidence 0.55"})
    assert said[0].uncertain and "the mapping is uncertain" in said[0].message


def test_reports_count_verdicts():
    items = [{"ec": {"semantic": [{"ok": True, "verdict": v, "plan_validity": 1.0,
                                   "gold_plan_acceptance": 1.0, "applicability_f1": 1.0,
                                   "transition_accuracy": 1.0}]}}
             for v in ("equivalent", "equivalent", "incomplete")]
    items.append({"ec": {"semantic": [{"ok": False}]}})  # a record without a verdict
    rows = semantic_rounds(items, 0)
    assert rows[0]["verdicts"] == {"equivalent": 2, "different": 0, "incomplete": 1,
                                   "not_simulated": 1}


def _t2w(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "text2world.cli", *args], capture_output=True,
                          text=True, cwd=cwd)


def test_cli_json_is_printed_whatever_the_exit_code(tmp_path):
    gold, _ = store_problems("blocksworld")
    (tmp_path / "gold.pddl").write_text(gold)
    (tmp_path / "answer.txt").write_text("Sorry, here it is:\n```pddl\n```\n")
    for command in (("score", str(tmp_path / "gold.pddl"), str(tmp_path / "answer.txt")),
                    ("validate", str(tmp_path / "answer.txt")),
                    ("score", str(tmp_path / "gold.pddl"), str(tmp_path / "missing.pddl"))):
        done = _t2w(*command, "--json")
        assert done.returncode == 1, done.stderr
        data = json.loads(done.stdout)
        assert "error" in data or data.get("errors"), data
    # with --semantic too: the verdict says there is no domain, not what tarski made of prose
    (tmp_path / "prose.txt").write_text("I cannot write PDDL for this, sorry.\n")
    done = _t2w("score", "blocksworld", str(tmp_path / "prose.txt"), "--semantic", "--json")
    assert done.returncode == 1, done.stderr
    semantic = json.loads(done.stdout)["semantic"]
    assert semantic["verdict"] == "not_simulated"
    assert semantic["reason"].startswith("the prediction has no PDDL domain: the text has no")


def test_cli_semantic_verdict_and_dropped_actions(tmp_path):
    gold, _ = store_problems("blocksworld")
    head, tail = gold.rsplit("(:action", 1)
    stray = head + ")\n(:action" + tail  # a stray parenthesis closes the domain early
    (tmp_path / "stray.pddl").write_text(stray)
    done = _t2w("score", "blocksworld", str(tmp_path / "stray.pddl"), "--semantic", "--json",
                "-m", "canonical")
    data = json.loads(done.stdout)
    assert [e["kind"] for e in data["errors"]] == ["DroppedDefinitions"]
    assert "1 action dropped" in data["errors"][0]["message"]
    assert data["semantic"]["verdict"] == "incomplete"
    table = _t2w("score", "blocksworld", str(tmp_path / "stray.pddl"), "--semantic")
    assert "semantic verdict: incomplete" in table.stdout
    lint = _t2w("validate", str(tmp_path / "stray.pddl"))
    assert "1 action dropped" in " ".join(lint.stdout.split())


def test_valid_pddl_tarski_refuses_is_accepted():
    from text2world.pddl.model import parse_domain
    from text2world.pddl.validation import validate

    text = """(define (domain d) (:requirements :strips :typing)
 (:types ball - thing
   thing room - object)
 (:predicates (at ?b - ball ?r - room))
 (:action put :parameters (?b - ball ?r - room) :effect (and (at ?b ?r)))
 (:action take :parameters (?b - ball ?r - room) :effect (and (not (at ?b ?r)))))"""
    domain = parse_domain(text)
    assert {t.name: t.type for t in domain.types} == {"thing": "object", "ball": "thing",
                                                      "room": "object"}
    assert domain.action("put").precondition.to_pddl() == "(and)"
    assert validate(text).ok
    broken = text.replace("(not (at ?b ?r))", "(not (held ?b ?r))")
    errors = validate(broken).errors
    assert errors and errors[0].line == 6  # line numbers of the text as written


UNTYPED_GRIPPER = """(define (domain gripper-strips)
  (:predicates (room ?r) (ball ?b) (gripper ?g) (at-robby ?r) (at ?b ?r) (free ?g)
               (carry ?o ?g))
  (:action move :parameters (?from ?to)
    :precondition (and (room ?from) (room ?to) (at-robby ?from))
    :effect (and (at-robby ?to) (not (at-robby ?from))))
  (:action pick :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (at ?obj ?room)
                       (at-robby ?room) (free ?gripper))
    :effect (and (carry ?obj ?gripper) (not (at ?obj ?room)) (not (free ?gripper))))
  (:action drop :parameters (?obj ?room ?gripper)
    :precondition (and (ball ?obj) (room ?room) (gripper ?gripper) (carry ?obj ?gripper)
                       (at-robby ?room))
    :effect (and (at ?obj ?room) (free ?gripper) (not (carry ?obj ?gripper)))))"""

GRIPPER_PROBLEM = """(define (problem two-balls) (:domain gripper-strips)
  (:objects rooma roomb ball1 ball2 left right)
  (:init (room rooma) (room roomb) (ball ball1) (ball ball2) (gripper left) (gripper right)
         (at-robby rooma) (free left) (free right) (at ball1 rooma) (at ball2 rooma))
  (:goal (and (at ball1 roomb) (at ball2 roomb))))"""

# As models write it: types for the gold's type predicates, other names, parameters in
# another order, a binary predicate renamed with its arguments swapped.
TYPED_ANSWER = """(define (domain robot-gripper)
  (:requirements :strips :typing)
  (:types room ball gripper)
  (:predicates (robot-in ?r - room) (ball-in ?b - ball ?r - room) (hand-free ?g - gripper)
               (holds ?g - gripper ?b - ball))
  (:action move-robot :parameters (?to - room ?from - room)
    :precondition (robot-in ?from)
    :effect (and (robot-in ?to) (not (robot-in ?from))))
  (:action pick-up :parameters (?room - room ?gripper - gripper ?obj - ball)
    :precondition (and (ball-in ?obj ?room) (robot-in ?room) (hand-free ?gripper))
    :effect (and (holds ?gripper ?obj) (not (ball-in ?obj ?room)) (not (hand-free ?gripper))))
  (:action put-down :parameters (?gripper - gripper ?obj - ball ?room - room)
    :precondition (and (holds ?gripper ?obj) (robot-in ?room))
    :effect (and (ball-in ?obj ?room) (hand-free ?gripper) (not (holds ?gripper ?obj)))))"""


def test_a_typed_model_answer_to_an_untyped_gold_is_equivalent():
    problems = [("two-balls", GRIPPER_PROBLEM)]
    score = semantic_score(UNTYPED_GRIPPER, TYPED_ANSWER, problems)
    assert score.verdict == "equivalent", (score.metrics(), score.diagnoses)
    mapping = score.alignment
    assert {x["predicted"]: x["gold"] for x in mapping["type_predicates"]["types"]} == {
        "room": "room", "ball": "ball", "gripper": "gripper"}
    assert mapping["argument_orders"] == {"holds": [1, 0]}
    assert mapping["parameter_orders"]["move-robot"] == [1, 0]
    # an extra action: different, and no diagnosis blames typing the answer wrote as types
    extra = TYPED_ANSWER[:-1] + """
  (:action move-ball :parameters (?obj - ball ?from - room ?to - room)
    :precondition (ball-in ?obj ?from)
    :effect (and (ball-in ?obj ?to) (not (ball-in ?obj ?from)))))"""
    score = semantic_score(UNTYPED_GRIPPER, extra, problems)
    assert score.verdict == "different"
    assert {d.kind for d in score.diagnoses} == {"extra-action"}
    assert not any("(room " in d.message or "(ball " in d.message for d in score.diagnoses)


def test_eval_rounds_and_the_api_say_what_a_stray_parenthesis_dropped():
    from text2world.service.jobs import score_job
    from text2world.tasks.generation.scoring import extract_round_domain, score_round

    gold, _ = store_problems("blocksworld")
    head, tail = gold.rsplit("(:action", 1)
    answer = "Here it is:\n```pddl\n" + head + ")\n(:action" + tail + "\n```\n"
    text, _ = extract_round_domain(answer)
    scores = score_round(gold, text, response=answer)["scores"]
    for mode in ("paper", "canonical"):
        assert [e["kind"] for e in scores[mode]["errors"]] == ["DroppedDefinitions"], mode
    body = score_job({"gold": gold, "response": answer, "mode": "canonical"})
    assert [e["kind"] for e in body["errors"]] == ["DroppedDefinitions"]


def test_valid_pddl_tarski_refuses_is_simulated_too():
    """An action without :precondition is valid PDDL: the simulator reads it (normalised before
    tarski, as validation does), so the semantic verdict is a verdict, not not_simulated."""
    gold = """(define (domain d) (:requirements :strips)
 (:predicates (p) (q))
 (:action a :parameters () :effect (p))
 (:action b :parameters () :precondition (p) :effect (q)))"""
    problem = "(define (problem x) (:domain d) (:init) (:goal (q)))"
    score = semantic_score(gold, gold, [("x", problem)])
    assert score.verdict == "equivalent" and score.metrics()["plan_validity"] == 1.0


# Object fluents (as released gold 238 uses them): PDDL the simulator does not implement.
OBJECT_FLUENT_GOLD = """(define (domain fn) (:requirements :typing :object-fluents)
 (:types place - object block - place)
 (:constants table - place)
 (:predicates (clear ?b - place))
 (:functions (loc ?b - block) - place)
 (:action move :parameters (?b - block ?to - place)
  :precondition (and (clear ?b) (clear ?to) (not (= ?b ?to)))
  :effect (and (assign (loc ?b) ?to) (not (clear ?to)))))"""
OBJECT_FLUENT_PROBLEM = """(define (problem p1) (:domain fn) (:objects a b - block)
 (:init (clear a) (clear b) (clear table) (= (loc a) table) (= (loc b) table))
 (:goal (not (clear b))))"""


def test_a_gold_that_cannot_be_simulated_is_not_simulated_everywhere(tmp_path):
    """prepare_gold raises GoldNotSimulated with the reason; every path a user reaches (the
    library, eval logs, the API, the CLI with --json and as a table) gives the verdict
    not_simulated with that reason, and the structural scores still come."""
    from text2world.scoring.semantic import GoldNotSimulated
    from text2world.service.jobs import score_job
    from text2world.tasks.generation.scoring import score_round

    problems = [("p1", OBJECT_FLUENT_PROBLEM)]
    why = "object-valued functions are not supported"
    with pytest.raises(GoldNotSimulated, match=why) as raised:
        prepare_gold(OBJECT_FLUENT_GOLD, problems)
    assert "problem p1" in raised.value.reason
    score = semantic_score(OBJECT_FLUENT_GOLD, OBJECT_FLUENT_GOLD, problems)
    assert (score.verdict, score.ok) == ("not_simulated", False)
    assert score.reason.startswith("the gold cannot be simulated: problem p1:") and why in score.reason
    assert all(v is None for v in score.metrics().values())
    logged = score_round(OBJECT_FLUENT_GOLD, OBJECT_FLUENT_GOLD, ("canonical",), problems)
    assert logged["semantic"]["verdict"] == "not_simulated" and why in logged["semantic"]["reason"]
    assert logged["scores"]["canonical"]["f1_effects"] == 1.0
    body = score_job({"gold": OBJECT_FLUENT_GOLD, "pddl": OBJECT_FLUENT_GOLD,
                      "mode": "canonical", "semantic": True, "problems": problems})
    assert body["semantic"]["verdict"] == "not_simulated" and why in body["semantic"]["reason"]
    (tmp_path / "gold.pddl").write_text(OBJECT_FLUENT_GOLD)
    (tmp_path / "problems").mkdir()
    (tmp_path / "problems" / "p1.pddl").write_text(OBJECT_FLUENT_PROBLEM)
    args = ("score", str(tmp_path / "gold.pddl"), str(tmp_path / "gold.pddl"), "--semantic",
            "--problems", str(tmp_path / "problems"), "-m", "canonical")
    done = _t2w(*args, "--json")
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["semantic"]["verdict"] == "not_simulated" and why in data["semantic"]["reason"]
    table = _t2w(*args)
    assert "semantic verdict: not_simulated" in table.stdout
    assert why in " ".join(table.stdout.split())
    # a gold that does not parse, and one without problems: the same verdict, their reasons
    broken = semantic_score("(define (domain d) (:predicates (p))", OBJECT_FLUENT_GOLD, problems)
    assert broken.verdict == "not_simulated" and "the gold does not parse" in broken.reason
    bare = semantic_score(OBJECT_FLUENT_GOLD, OBJECT_FLUENT_GOLD, ())
    assert bare.verdict == "not_simulated" and "no problems" in bare.reason
    # synthetic problems (released golds come without any) give such a function an object of
    # its type, so the reason is the unsupported feature, not a problem that does not parse
    synthetic = reachable_problems(parse_domain(OBJECT_FLUENT_GOLD))
    score = semantic_score(OBJECT_FLUENT_GOLD, OBJECT_FLUENT_GOLD, synthetic)
    assert score.verdict == "not_simulated" and why in score.reason


def test_a_gold_declaring_type_object_in_another_case_is_simulated():
    """``(:types num Object avatar - Object)`` (released gold 34): tarski refuses the folded
    text; the problems are read against the domain as parse_domain reads it."""
    gold = """(define (domain g) (:requirements :typing)
 (:types num Object avatar wall - Object)
 (:predicates (at ?x - num ?o - Object) (next ?x ?y - num))
 (:action step :parameters (?a - avatar ?x ?y - num)
  :precondition (and (at ?x ?a) (next ?x ?y))
  :effect (and (not (at ?x ?a)) (at ?y ?a))))"""
    problem = """(define (problem p) (:domain g) (:objects n1 n2 - num me - avatar)
 (:init (at n1 me) (next n1 n2)) (:goal (at n2 me)))"""
    score = semantic_score(gold, gold, [("p", problem)])
    assert score.verdict == "equivalent", score.reason
    assert score.metrics()["plan_validity"] == 1.0


LINE_GOLD = """(define (domain line) (:requirements :strips)
 (:predicates (at ?p) (next ?a ?b) (special ?p) (early ?p) (rung))
 (:action step :parameters (?a ?b) :precondition (and (at ?a) (next ?a ?b))
  :effect (and (at ?b) (not (at ?a))))
 (:action ring :parameters (?p) :precondition (and (at ?p) (special ?p)) :effect (rung)))"""
LINE_PROBLEM = """(define (problem walk) (:domain line) (:objects p1 p2 p3 p4 p5 p6)
 (:init (at p1) (next p1 p2) (next p2 p3) (next p3 p4) (next p4 p5) (next p5 p6) (special p6)
        (early p1) (early p2) (early p3))
 (:goal (at p2)))"""


def test_a_small_reachable_space_is_compared_on_every_state():
    """A difference only in the deepest state (ring at p6), which the gold plan (p1 -> p2)
    never visits: found when every reachable state is compared, missed by the plan alone."""
    from text2world.scoring.semantic import SemanticSettings

    mutant = LINE_GOLD.replace("(special ?p)) :effect", "(special ?p) (early ?p)) :effect")
    problems = [("walk", LINE_PROBLEM)]
    whole = semantic_score(LINE_GOLD, mutant, problems, settings=SemanticSettings(walks=0))
    # the plan's 2 states, then all 7 reachable ones (at p1..p6, and p6 rung)
    assert whole.verdict == "different" and whole.settings["states"] == 2 + 7
    assert any("(early ?p)" in d.literal for d in whole.diagnoses)
    plan_only = semantic_score(LINE_GOLD, mutant, problems,
                               settings=SemanticSettings(walks=0, exhaustive_states=0))
    assert plan_only.verdict == "equivalent" and plan_only.settings["states"] == 2


def test_constants_no_action_uses_are_ignored():
    """Extra constants would widen every parameter's range, in the simulator and in the
    planner: on combination-lock the prediction's own plan used one (plan_validity 0.75)."""
    from text2world.scoring.rewrites import unused_constants

    gold, cache = _cache("combination-lock")
    score = semantic_score(gold, unused_constants(cache.domain).to_pddl(), gold_cache=cache)
    assert score.verdict == "equivalent", (score.metrics(), score.notes)
    assert any("constants no action of the prediction uses are ignored: zz-unused-dial" in note
               for note in score.notes)
