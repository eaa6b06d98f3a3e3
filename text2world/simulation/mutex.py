"""Unsolvability proofs by h^2 reachability: pairs of atoms no reachable state holds together.

The delete relaxation (``relaxed.RelaxedTask``) proves a problem unsolvable only when some goal
atom is never added. A broken domain more often makes the goal unreachable through its deletes:
an action that no longer restores ``handempty``, a mix that leaves a vat in no state a can may
be filled from. Such a problem's reachable space is the product of every object's choices, too
large for the in-process search to exhaust, and it went to Fast Downward, which proves it in
seconds of exhaustive search, or not at all in its time. h^2 (Haslum and Geffner, 2000)
over-approximates the pairs of atoms reachable together: a pair is reachable when it holds in
the start state, or some action whose preconditions are pairwise reachable adds both, or adds
one while the other, pairwise reachable with every precondition, survives the action. A goal
holding an unreachable pair (or an unreachable atom) is unreachable: the problem is unsolvable.

Sound for what the relaxation grounds: its relaxed actions (one per way of meeting a
disjunction; preconditions it cannot relax left out, which only adds reachable pairs), with the
ground action's own effects, deletes included, read from the simulator (an atom both added and
deleted is added, as the simulator does). A negated atom the relaxation tracks, ``(NEGATED,
p)``, is an atom of its own here: added where ``p`` is deleted, deleted where ``p`` is added.
Conditional effects are not handled (two of them may fire together): a domain with one gets no
answer. The work is bounded by atoms and by pair updates, never by a clock, so the answer is
the same in every process.
"""

from __future__ import annotations

from text2world.simulation.problem import GroundAction, SimulationError
from text2world.simulation.relaxed import NEGATED, RelaxedTask

MAX_ATOMS = 4_000  # the pair table is atoms x atoms bits
MAX_ACTIONS = 50_000  # relaxed actions
MAX_WORK = 2_000_000  # effects read, action visits and pair updates, then no answer


def _has_conditional(effects: tuple) -> bool:
    for effect in effects:
        if effect[0] == "when":
            return True
        if effect[0] == "forall" and _has_conditional(effect[2]):
            return True
    return False


def _effect_lists(relaxed: RelaxedTask, action: GroundAction) -> tuple[set, set]:
    """The atoms ``action`` adds and deletes, read as the simulator applies its effects
    (``Simulator._apply``; the domain has no conditional effects, so no state is read)."""
    simulator = relaxed.simulator
    compiled = simulator._actions[action.name]
    binding: list = [None] * max(compiled.slots, 1)
    binding[:compiled.arity] = action.args
    adds: set = set()
    deletes: set = set()
    simulator._call.work = 0  # one call's work, as ``Simulator.transition`` counts it
    simulator._apply(compiled.effects, binding, frozenset(), adds, deletes, [0.0])
    return adds, deletes - adds


def goal_unreachable(relaxed: RelaxedTask, start: frozenset | None = None) -> str | None:
    """Why h^2 proves the goal unreachable from ``start`` (default: the relaxation's start),
    or None: reachable as far as h^2 sees, or past its bounds, or conditional effects."""
    simulator = relaxed.simulator
    if relaxed.unreachable:
        return "the relaxed problem cannot reach the goal"
    if any(_has_conditional(c.effects) for c in simulator._actions.values()):
        return None
    n = len(relaxed.names)
    if n > MAX_ATOMS or len(relaxed.pre) > MAX_ACTIONS or not relaxed.goal:
        return None
    ids = relaxed.atoms
    # the effects of each relaxed action, as bit masks over the atom ids
    effects: dict[GroundAction, tuple[tuple[int, ...], int, int]] = {}
    work = 0
    for label in relaxed.label:
        if label in effects:
            continue
        try:
            adds, deletes = _effect_lists(relaxed, label)
        except SimulationError:  # a cost with no value, a forall past the simulator's work
            return None
        work += 1 + len(adds) + len(deletes)
        if work > MAX_WORK:
            return None
        ids_added = [ids[a] for a in adds if a in ids]
        ids_added += [ids[(NEGATED, a)] for a in deletes if (NEGATED, a) in ids]
        removed = [ids[a] for a in deletes if a in ids]
        removed += [ids[(NEGATED, a)] for a in adds if (NEGATED, a) in ids]
        add_mask = 0
        for atom in ids_added:
            add_mask |= 1 << atom
        del_mask = 0
        for atom in removed:
            del_mask |= 1 << atom
        effects[label] = (tuple(sorted(set(ids_added))), add_mask, del_mask)
    actions = []
    for index, pre in enumerate(relaxed.pre):
        pre_mask = 0
        for atom in pre:
            pre_mask |= 1 << atom
        added, add_mask, del_mask = effects[relaxed.label[index]]
        if added:
            actions.append((pre, pre_mask, added, add_mask, del_mask))
    # pairs[p]: bit r set when the pair {p, r} is reachable; bit p when p is
    pairs = [0] * n
    state = relaxed.state_ids(relaxed._start if start is None else start)
    reached = 0
    for atom in state:
        reached |= 1 << atom
    for atom in state:
        pairs[atom] = reached
    last = [-1] * len(actions)  # the compatible set each action was last applied with
    changed = True
    while changed:
        changed = False
        for number, (pre, pre_mask, added, add_mask, del_mask) in enumerate(actions):
            work += 1 + len(pre)
            compatible = reached
            for atom in pre:
                row = pairs[atom]
                if row & pre_mask != pre_mask:
                    break
                compatible &= row
            else:
                compatible &= ~del_mask
                if compatible == last[number]:
                    continue
                last[number] = compatible
                gained = compatible | add_mask
                for atom in added:
                    new = gained & ~pairs[atom]
                    if not new:
                        continue
                    changed = True
                    pairs[atom] |= new
                    reached |= 1 << atom
                    bit = 1 << atom
                    while new:
                        low = new & -new
                        other = low.bit_length() - 1
                        pairs[other] |= bit
                        new ^= low
                        work += 1
                if work > MAX_WORK:
                    return None
    goal_mask = 0
    for atom in relaxed.goal:
        goal_mask |= 1 << atom
    for atom in relaxed.goal:
        missing = goal_mask & ~pairs[atom]
        if missing:
            other = (missing & -missing).bit_length() - 1
            first, second = relaxed.names[atom], relaxed.names[other]
            if atom == other:
                return f"h^2: the goal atom {_show(first)} is unreachable"
            return (f"h^2: the goal atoms {_show(first)} and {_show(second)} are never true "
                    "together")
    return None


def _show(atom: tuple) -> str:
    if atom[0] == NEGATED:
        return f"(not {_show(atom[1])})"
    return "(" + " ".join(atom) + ")"


__all__ = ["MAX_ACTIONS", "MAX_ATOMS", "MAX_WORK", "goal_unreachable"]
