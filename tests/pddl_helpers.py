"""PDDL texts more than one test file uses."""

# One domain with an error of each kind the validator reports in one pass, each on its own line:
# UndefinedPredicate (line 5), ArityMismatch (6), UndefinedVariable (8), SortMismatch and
# UndefinedConstant (9).
BROKEN = """(define (domain d) (:requirements :strips :typing)
(:types a b)
(:predicates (p ?x - a) (q ?x - a ?y - b))
(:action one :parameters (?x - a ?y - b)
 :precondition (and (p ?x) (r ?x))
 :effect (and (p ?x ?y)))
(:action two :parameters (?x - a ?y - b)
 :precondition (and (p ?w))
 :effect (and (q ?y ?x) (p c))))
"""
