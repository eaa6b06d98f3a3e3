"""Planning problems the search tests share.

n switches, each on or off; the goal wants switch s0 both on and off: the delete relaxation
reaches it (so no heuristic proves it unsolvable), the 2^n reachable states hold no plan, and
only a bound ends a search, or h^2 reachability (on and off are never true together).

``TOKENS``: n switches turned on by spending one of n - 1 tokens; the goal wants every switch
on. No plan, by counting alone: every pair of goal atoms is reachable (h^2 proves nothing) and
the reachable space (which switches are on, which tokens are spent) is too large to exhaust, so
only a bound ends a search and Fast Downward is asked."""

from __future__ import annotations

SWITCHES = """(define (domain switches)
  (:requirements :strips :typing)
  (:types switch)
  (:predicates (on ?s - switch) (off ?s - switch))
  (:action turn-on :parameters (?s - switch)
    :precondition (off ?s) :effect (and (on ?s) (not (off ?s))))
  (:action turn-off :parameters (?s - switch)
    :precondition (on ?s) :effect (and (off ?s) (not (on ?s)))))"""


def switches_problem(n: int) -> str:
    names = " ".join(f"s{i}" for i in range(n))
    init = " ".join(f"(off s{i})" for i in range(n))
    return (f"(define (problem many) (:domain switches) (:objects {names} - switch)\n"
            f"  (:init {init}) (:goal (and (on s0) (off s0))))")


TOKENS = """(define (domain tokens)
  (:requirements :strips :typing)
  (:types switch token)
  (:predicates (on ?s - switch) (off ?s - switch) (unspent ?t - token))
  (:action turn-on :parameters (?s - switch ?t - token)
    :precondition (and (off ?s) (unspent ?t))
    :effect (and (on ?s) (not (off ?s)) (not (unspent ?t))))
  (:action turn-off :parameters (?s - switch)
    :precondition (on ?s) :effect (and (off ?s) (not (on ?s)))))"""


def tokens_problem(n: int) -> str:
    switches = " ".join(f"s{i}" for i in range(n))
    tokens = " ".join(f"t{i}" for i in range(n - 1))
    init = " ".join([f"(off s{i})" for i in range(n)] + [f"(unspent t{i})" for i in range(n - 1)])
    goal = " ".join(f"(on s{i})" for i in range(n))
    return (f"(define (problem short) (:domain tokens)\n"
            f"  (:objects {switches} - switch {tokens} - token)\n"
            f"  (:init {init}) (:goal (and {goal})))")
