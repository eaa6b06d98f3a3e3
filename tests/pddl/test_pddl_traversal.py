"""The formula and effect traversal helpers of the PDDL model (``pddl.model``)."""

from __future__ import annotations

from text2world import parse_domain
from text2world.pddl.model import (
    MAX_NESTING_DEPTH,
    AddEffect,
    And,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    ForallEffect,
    Formula,
    FunctionEffect,
    Not,
    Or,
    Quantified,
    Truth,
    TypedName,
    iter_atoms,
    iter_effects,
    iter_formula,
    iter_literals,
    map_formula,
)

P, Q, R, S = Atom("p"), Atom("q", ("?x",)), Atom("r", ("?x", "c")), Atom("=", ("?x", "?y"))
X = (TypedName("?x", "box"),)
# Every node kind, nested: (and (p) (not (or (q ?x) (not (r ?x c)))) (exists (?x) (= ?x ?y)) (and))
NESTED = And((P, Not(Or((Q, Not(R)))), Quantified("exists", X, S), Truth()))


def test_iter_formula_visits_every_node_in_pre_order() -> None:
    nodes = list(iter_formula(NESTED))
    assert nodes == [NESTED, P, NESTED.parts[1], Or((Q, Not(R))), Q, Not(R), R,
                     Quantified("exists", X, S), S, Truth()]


def test_iter_formula_of_a_leaf_is_the_leaf() -> None:
    assert list(iter_formula(P)) == [P]
    assert list(iter_formula(Truth())) == [Truth()]


def test_iter_atoms_and_polarity_under_not() -> None:
    assert list(iter_atoms(NESTED)) == [P, Q, R, S]
    # q is under one not, r under two, the quantified atom under none
    assert list(iter_literals(NESTED)) == [(P, True), (Q, False), (R, True), (S, True)]
    assert list(iter_literals(Not(Quantified("forall", X, And((Q,)))))) == [(Q, False)]
    assert list(iter_literals(Truth())) == []


def test_map_formula_identity_returns_an_equal_formula() -> None:
    mapped = map_formula(NESTED, lambda f: f)
    assert mapped == NESTED
    assert mapped is NESTED  # nothing changed: nothing rebuilt


def test_map_formula_rebuilds_bottom_up() -> None:
    seen: list[Formula] = []

    def rename(f: Formula) -> Formula:
        seen.append(f)
        if isinstance(f, Atom) and f.predicate != "=":
            return Atom(f.predicate.upper(), f.args)
        if isinstance(f, Quantified):
            return Quantified(f.quantifier, tuple(TypedName(v.name, "thing") for v in f.variables),
                              f.body)
        return f

    mapped = map_formula(NESTED, rename)
    assert mapped == And((Atom("P"), Not(Or((Atom("Q", ("?x",)), Not(Atom("R", ("?x", "c")))))),
                          Quantified("exists", (TypedName("?x", "thing"),), S), Truth()))
    # children before their parent, and each parent sees its already-mapped children
    assert seen[0] == P and seen[-1] == mapped
    assert Or((Atom("Q", ("?x",)), Not(Atom("R", ("?x", "c"))))) in seen


def test_map_formula_can_replace_a_node_kind() -> None:
    def drop_negation(f: Formula) -> Formula:
        return f.formula if isinstance(f, Not) else f

    assert map_formula(NESTED, drop_negation) == And((P, Or((Q, R)), Quantified("exists", X, S),
                                                      Truth()))


def test_deep_formulas() -> None:
    deep: Formula = P
    for _ in range(MAX_NESTING_DEPTH * 20):  # the iterators need no recursion
        deep = Not(deep)
    assert sum(1 for _ in iter_formula(deep)) == MAX_NESTING_DEPTH * 20 + 1
    assert list(iter_literals(deep)) == [(P, True)]  # an even number of nots
    parsed_deep: Formula = P
    for _ in range(MAX_NESTING_DEPTH):  # as deep as a parsed formula can be
        parsed_deep = Not(parsed_deep)
    assert map_formula(parsed_deep, lambda f: f) is parsed_deep


def test_iter_effects_flattens_conditional_and_forall_effects_with_their_conditions() -> None:
    cost = FunctionEffect("increase", "(total-cost)", "1")
    inner_when = ConditionalEffect(Q, DeleteEffect(R))
    forall = ForallEffect(X, (AddEffect(Q), inner_when))
    outer = ConditionalEffect(Not(P), forall)
    effects = (AddEffect(P), outer, cost)
    assert list(iter_effects(effects)) == [
        (AddEffect(P), ()),
        (outer, ()),
        (forall, (Not(P),)),
        (AddEffect(Q), (Not(P),)),
        (inner_when, (Not(P),)),
        (DeleteEffect(R), (Not(P), Q)),
        (cost, ()),
    ]
    assert list(iter_effects(())) == []
    assert list(iter_effects(iter([cost]))) == [(cost, ())]  # any iterable


def test_traversal_of_a_parsed_domain() -> None:
    domain = parse_domain("""(define (domain t)
      (:requirements :conditional-effects :negative-preconditions :universal-preconditions)
      (:predicates (a ?x) (b ?x) (c))
      (:action go :parameters (?x)
        :precondition (and (a ?x) (not (c)) (forall (?y) (or (b ?y) (not (a ?y)))))
        :effect (and (c) (when (b ?x) (not (a ?x))) (forall (?z) (b ?z)))))""")
    action = domain.actions[0]
    assert [(a.predicate, positive) for a, positive in iter_literals(action.precondition)] == [
        ("a", True), ("c", False), ("b", True), ("a", False)]
    assert map_formula(action.precondition, lambda f: f) == action.precondition
    leaves = [(e.to_pddl(), tuple(c.to_pddl() for c in conditions))
              for e, conditions in iter_effects(action.effects)
              if isinstance(e, (AddEffect, DeleteEffect))]
    assert leaves == [("(c)", ()), ("(not (a ?x))", ("(b ?x)",)), ("(b ?z)", ())]
