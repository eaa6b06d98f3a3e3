"""Planning problems the search tests share.

n switches, each on or off; the goal wants switch s0 both on and off: the delete relaxation
reaches it (so no heuristic proves it unsolvable), the 2^n reachable states hold no plan, and
only a bound ends a search."""

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
