"""The delete relaxation of a simulated problem, grounded, and its heuristics (h_max, h_add, h_FF).

Grounding reuses the simulator's compiled join plans: the same generated loops
(``codegen.compile_enumerator``) run on the union of every atom reached so far, with the checks
a relaxation may not keep (negated fluent atoms, disjunctions, quantifiers) left out. Negated
atoms of static predicates and (in)equalities stay: they read the same in every state. The
result over-approximates the real problem: every action applicable in a state reachable from
the start is among the ground actions, and every atom it can add is reachable, so an infinite
heuristic value proves a dead end (searches may prune it) and h_max is admissible.

Relaxed actions keep only the positive atoms of the precondition's top-level conjunction and
the adds of the effects (a conditional effect becomes its own relaxed action, its condition's
positive atoms added to the precondition). Costs are the unconditional cost terms (conditional
ones count 0), so they never exceed a step's true cost.
"""

from __future__ import annotations

import heapq
import time
from itertools import product
from typing import TYPE_CHECKING, Iterator

from text2world.simulation.codegen import compile_enumerator
from text2world.simulation.compiler import CompiledAction, Node
from text2world.simulation.problem import GroundAction, SimulationError, WorkLimitExceeded

if TYPE_CHECKING:
    from text2world.simulation.simulator import Simulator

__all__ = ["INFINITY", "NEGATED", "MAX_EFFECT_BINDINGS", "RelaxationTooLarge", "RelaxedTask"]

INFINITY = float("inf")
NEGATED = "¬"  # (NEGATED, atom): the relaxed atom "atom is false", for negated goal atoms
# atoms or relaxed actions past which grounding stops (the searches fall back)
MAX_RELAXED_ATOMS = 200_000
MAX_RELAXED_ACTIONS = 200_000
MAX_VARIANTS = 16  # relaxed actions per ground action for its disjunctive preconditions
MAX_QUANTIFIED = 1_000  # object combinations a quantified precondition is unrolled over
MAX_EFFECT_BINDINGS = 2_000_000  # object combinations quantified effects are grounded over, all
#                                  ground actions together (an effect left out would not relax)


class RelaxationTooLarge(WorkLimitExceeded):
    """The relaxed problem has more atoms or ground actions than its bound."""


def _relaxable(node: Node, static: frozenset) -> bool:
    """A check that reads the same in every state, so the relaxation keeps it."""
    kind = node[0]
    if kind in ("eq", "true"):
        return True
    if kind == "not":
        inner = node[1]
        return inner[0] == "eq" or (inner[0] == "atom" and inner[1] in static)
    return False


def _relaxed_steps(steps: tuple, static: frozenset) -> tuple:
    return tuple((*step[:-1], tuple(c for c in step[-1] if _relaxable(c, static)))
                 for step in steps)


class _Index:
    """Atoms by predicate and by (predicate, position, value), for the generated loops."""

    def __init__(self) -> None:
        self.by_pred: dict = {}
        self.by_value: dict = {}

    def add(self, atom: tuple) -> None:
        self.by_pred.setdefault(atom[0], []).append(atom)
        for position, value in enumerate(atom[1:]):
            self.by_value.setdefault((atom[0], position, value), []).append(atom)

    def lookup(self, pred: str, position: int, value: str) -> list:
        return self.by_value.get((pred, position, value), ())


class RelaxedTask:
    """The grounded delete relaxation from ``start`` (default: the initial state).

    ``atoms`` maps a ground atom to its id; each relaxed action ``i`` has ``pre[i]`` (atom ids),
    ``add[i]`` and ``cost[i]``; ``goal`` holds the ids of the goal's top-level positive atoms
    (a goal atom never reached makes ``unreachable`` true).
    """

    def __init__(self, simulator: Simulator, start: frozenset | None = None, *,
                 unit_costs: bool = True, deadline: float | None = None) -> None:
        """``deadline``: a ``time.thread_time()`` value past which grounding stops
        (``RelaxationTooLarge``), checked between action schemas."""
        self.simulator = simulator
        start = simulator.initial_state if start is None else start
        static = simulator._static_predicates()
        self._static = static
        self._start = start
        actions = simulator._actions
        enumerators = []
        for name, compiled in sorted(actions.items()):
            steps = _relaxed_steps(compiled.steps, static)
            # the predicates whose atoms its loops read (its tests read static atoms only)
            reads = frozenset(step[1] for step in steps if step[0] != "enum")
            enumerators.append((name, compiled, reads, compile_enumerator(
                steps, compiled.arity, compiled.slots, None, simulator.max_work)))
        index = _Index()
        reached: set = set()
        for atom in sorted(start):  # sorted: the same relaxed action ids in every process
            reached.add(atom)
            index.add(atom)
        grounded: set = set()
        self.unit_costs = unit_costs
        self.label: list[GroundAction] = []  # relaxed action id -> the ground action
        self._pre: list[tuple] = []
        self._add: list[tuple] = []
        self.cost: list[float] = []
        self._effect_bindings = 0  # counted against MAX_EFFECT_BINDINGS
        grown: set | None = None  # predicates with atoms reached in the last round (None: all)
        while grown is None or grown:
            new_atoms: list = []
            for name, compiled, reads, enumerate_ in enumerators:
                if grown is not None and grown.isdisjoint(reads):
                    continue  # the atoms it reads are the last round's: no tuple not grounded
                if deadline is not None and time.thread_time() > deadline:
                    raise RelaxationTooLarge("timeout: grounding the relaxed problem ran past "
                                             "the search's CPU-time bound (the safety net)")
                tuples, _ = enumerate_(reached, index.by_pred, index.lookup, 0)
                for args in tuples:
                    if (name, args) in grounded:
                        continue
                    grounded.add((name, args))
                    label = GroundAction(name, args)
                    for pre, adds, cost in self._ground(compiled, args, unit_costs):
                        self.label.append(label)
                        self._pre.append(pre)
                        self._add.append(adds)
                        self.cost.append(cost)
                        new_atoms.extend(a for a in adds
                                         if a[0] != NEGATED and a not in reached)
                    if len(self._pre) > MAX_RELAXED_ACTIONS:
                        raise RelaxationTooLarge(f"the relaxed problem has more than "
                                                 f"{MAX_RELAXED_ACTIONS:,} ground actions")
            grown = set()
            for atom in new_atoms:
                if atom not in reached:
                    reached.add(atom)
                    index.add(atom)
                    grown.add(atom[0])
            if len(reached) > MAX_RELAXED_ATOMS:
                raise RelaxationTooLarge(f"the relaxed problem has more than "
                                         f"{MAX_RELAXED_ATOMS:,} atoms")
        self.ground_actions = len(grounded)
        positive, negative = _goal_literals(simulator._goal)
        # A negated fluent atom p (in a precondition, an effect condition or the goal) is the
        # relaxed atom (NEGATED, p): true where p is false, added by the actions deleting p.
        # Without it h would be blind to what must be undone (0 where only a deletion is left).
        negated = set(negative)
        for pre in self._pre:
            negated.update(a[1] for a in pre if a[0] == NEGATED)
        self.names: list = sorted(reached) + [(NEGATED, p) for p in sorted(negated)]
        self.atoms: dict = {atom: i for i, atom in enumerate(self.names)}  # atom -> id
        ids = self.atoms
        # a relaxed action needing an atom never reached (an effect condition) never fires
        keep = [i for i, pre in enumerate(self._pre) if all(a in ids for a in pre)]
        self.label = [self.label[i] for i in keep]
        self.cost = [self.cost[i] for i in keep]
        self.pre = [tuple(sorted({ids[a] for a in self._pre[i]})) for i in keep]
        self.add = [tuple(sorted({ids[a] for a in self._add[i] if a in ids})) for i in keep]
        del self._pre, self._add
        self.users: list[list[int]] = [[] for _ in ids]  # atom id -> actions it is a pre of
        for action, pre in enumerate(self.pre):
            for atom in pre:
                self.users[atom].append(action)
        self.free = [a for a, pre in enumerate(self.pre) if not pre]
        self.pre_count = [len(pre) for pre in self.pre]
        goal_atoms = positive | {(NEGATED, p) for p in negative}
        self.negated = tuple((p, ids[(NEGATED, p)]) for p in sorted(negated))
        self.unreachable = any(atom not in ids for atom in goal_atoms)
        self.goal = tuple(sorted(ids[a] for a in goal_atoms if a in ids))

    # -- grounding ---------------------------------------------------------------------

    def _ground(self, compiled: CompiledAction, args: tuple, unit_costs: bool) -> list[tuple]:
        """The relaxed actions of one ground action: ``(pre atoms, add atoms, cost)``, one per
        way of satisfying its disjunctive preconditions (see ``_requirements``)."""
        binding = [None] * max(compiled.slots, 1)
        binding[:compiled.arity] = args
        required = self._requirements([node for _, node in compiled.conjuncts], binding)
        if required is None:
            return []
        pre, choices = required
        adds: list = []
        conditional: list = []
        cost = [0.0]
        self._effects(compiled.effects, binding, pre, adds, conditional, cost, top=True)
        step_cost = 1.0 if unit_costs else cost[0]
        variants: list[list] = [[]]
        for options in choices:
            variants = [v + o for v in variants for o in options]
            if len(variants) > MAX_VARIANTS:  # leaving the choices out still over-approximates
                variants = [[]]
                break
        found = []
        for extra in variants:
            found.append((tuple(pre + extra), tuple(adds), step_cost))
            found += [(tuple(p + extra), tuple(a), step_cost) for p, a in conditional if a]
        return found

    def _requirements(self, nodes: list, binding: list) -> tuple[list, list] | None:
        """What a condition (the conjunction of ``nodes``) needs in the relaxation:
        ``(literals, choices)``, each choice a list of options (lists of literals) one of which
        must hold; None when it can never hold. A literal is a fluent atom or (NEGATED, atom);
        static atoms are read in the start state and (in)equalities decided on the spot;
        ``forall`` is unrolled over the objects, ``or`` and ``exists`` become choices. Anything
        else, or a choice with an option needing nothing, adds no requirement (the relaxation
        may only over-approximate)."""
        literals: list = []
        choices: list = []
        for node in nodes:
            kind = node[0]
            if kind == "and":
                inner = self._requirements(list(node[1]), binding)
                if inner is None:
                    return None
                literals += inner[0]
                choices += inner[1]
            elif kind == "forall":
                for _ in self._assignments(node[1], binding):
                    inner = self._requirements([node[2]], binding)
                    if inner is None:
                        return None
                    literals += inner[0]
                    choices += inner[1]
            elif kind in ("or", "exists"):
                if kind == "or":
                    options = [self._option(part, binding) for part in node[1]]
                else:
                    options = [self._option(node[2], binding)
                               for _ in self._assignments(node[1], binding)]
                found = [o for o in options if o is not None]
                if not found:
                    return None
                if all(found):  # else some option needs nothing: no requirement
                    if len(found) == 1:
                        literals += found[0]
                    else:
                        choices.append(found)
            else:
                option = self._option(node, binding)
                if option is None:
                    return None
                literals += option
        return literals, choices

    def _assignments(self, variables: tuple, binding: list) -> Iterator[tuple[str, ...]]:
        """Binds the quantified ``variables`` to each combination of objects in turn (at most
        ``MAX_QUANTIFIED``; none beyond it: the condition is then left out)."""
        domains = [self.simulator.objects_of_type(t) for _, t in variables]
        size = 1
        for objects in domains:
            size *= len(objects)
        if size > MAX_QUANTIFIED:
            return
        for objects in product(*domains):
            for (slot, _), obj in zip(variables, objects):
                binding[slot] = obj
            yield objects

    def _option(self, node: Node, binding: list) -> list | None:
        """The fluent literals a conjunction of literals needs; None when it can never hold
        (a static atom false in the start state, an unequal pair). Parts that are not literals
        need nothing."""
        needed = []
        for part in _conjunction(node):
            negated = part[0] == "not"
            inner = part[1] if negated else part
            if inner[0] == "atom":
                atom = _bind(inner, binding)
                if inner[1] in self._static:
                    if (atom in self._start) == negated:
                        return None
                else:
                    needed.append((NEGATED, atom) if negated else atom)
            elif inner[0] == "eq":
                a, b = ((binding[t] if isinstance(t, int) else t) for t in inner[1:])
                if (a == b) == negated:
                    return None
        return needed

    def _effects(self, effects: tuple, binding: list, pre: list, adds: list,
                 conditional: list, cost: list, top: bool) -> None:
        for effect in effects:
            kind = effect[0]
            if kind == "add":
                adds.append(_bind(effect, binding))
            elif kind == "del":
                adds.append((NEGATED, _bind(effect, binding)))
            elif kind == "when":
                inner: list = []
                nested: list = []
                self._effects(effect[2], binding, pre, inner, nested, [0.0], top=False)
                condition = self._option(effect[1], binding)
                if condition is None:  # never holds: the effect never happens
                    continue
                conditional.append((pre + condition, inner))
                conditional.extend((pre + condition + p[len(pre):], a) for p, a in nested)
            elif kind == "forall":
                variables = effect[1]
                domains = [self.simulator.objects_of_type(t) for _, t in variables]
                size = 1
                for objects in domains:
                    size *= len(objects)
                self._effect_bindings += size
                if self._effect_bindings > MAX_EFFECT_BINDINGS:  # before the loop, not in it
                    raise RelaxationTooLarge(f"the relaxed problem's quantified effects range "
                                             f"over more than {MAX_EFFECT_BINDINGS:,} "
                                             "combinations of objects")
                for objects in product(*domains):
                    for (slot, _), obj in zip(variables, objects):
                        binding[slot] = obj
                    self._effects(effect[2], binding, pre, adds, conditional, cost, top)
            elif kind == "cost" and top:
                try:
                    cost[0] += self.simulator._cost_value(effect[1], binding)
                except SimulationError:
                    cost[0] += 0.0  # no value in the problem: 0 stays a lower bound

    # -- heuristics --------------------------------------------------------------------

    def state_ids(self, state: frozenset) -> list[int]:
        ids = self.atoms
        found = [ids[a] for a in state if a in ids]
        found += [i for atom, i in self.negated if atom not in state]
        return found

    def evaluate(self, state: frozenset, kind: str = "ff") -> tuple[float, frozenset]:
        """``(h, preferred actions)`` for ``kind`` "max", "add" or "ff"; ``h`` is infinite when
        the relaxation cannot reach the goal. The preferred (helpful) actions, for "ff" only,
        are the relaxed plan's ground actions applicable in ``state``."""
        if self.unreachable:
            return INFINITY, frozenset()
        if not self.goal:
            return 0.0, frozenset()
        if self.unit_costs and kind != "add":
            level, supporter = self._layers(state)
        else:
            level, supporter = self._costs(state, kind == "max")
        goal = self.goal
        if any(level[g] == INFINITY for g in goal):
            return INFINITY, frozenset()
        if kind == "max":
            return float(max(level[g] for g in goal)), frozenset()
        if kind == "add":
            return float(sum(level[g] for g in goal)), frozenset()
        return self._relaxed_plan(level, supporter)

    def _layers(self, state: frozenset) -> tuple[list, list]:
        """Unit costs: the relaxed planning graph's first level of every atom (h_max), and the
        action that first reached it, layer by layer (no priority queue needed)."""
        n = len(self.names)
        level: list = [INFINITY] * n
        supporter = [-1] * n
        remaining = self.pre_count[:]
        users, add, goal = self.users, self.add, self.goal
        frontier = self.state_ids(state)
        for atom in frontier:
            level[atom] = 0
        goals_left = sum(1 for g in goal if level[g] != 0)
        ready = list(self.free)
        layer = 0
        while goals_left:
            for atom in frontier:
                for action in users[atom]:
                    left = remaining[action] - 1
                    remaining[action] = left
                    if not left:
                        ready.append(action)
            if not ready:
                break
            layer += 1
            frontier = []
            ready.sort()  # the lowest id supports an atom: the same in every process
            for action in ready:
                for atom in add[action]:
                    if level[atom] == INFINITY:
                        level[atom] = layer
                        supporter[atom] = action
                        frontier.append(atom)
            ready = []
            goals_left = sum(1 for g in goal if level[g] == INFINITY)
        return level, supporter

    def _costs(self, state: frozenset, use_max: bool) -> tuple[list, list]:
        """Action costs: h_max or h_add cost of every atom (generalized Dijkstra) and its best
        supporter."""
        n = len(self.names)
        cost: list = [INFINITY] * n
        supporter = [-1] * n
        heap: list = []
        for atom in self.state_ids(state):
            cost[atom] = 0.0
            heap.append((0.0, atom))
        for action in self.free:
            value = self.cost[action]
            for atom in self.add[action]:
                if value < cost[atom]:
                    cost[atom] = value
                    supporter[atom] = action
                    heap.append((value, atom))
        heapq.heapify(heap)
        remaining = self.pre_count[:]
        accumulated = [0.0] * len(self.pre)
        goals_left = set(self.goal)
        pre_cost, add, users = self.cost, self.add, self.users
        while heap:
            value, atom = heapq.heappop(heap)
            if value > cost[atom]:
                continue
            if atom in goals_left:
                goals_left.discard(atom)
                if not goals_left:
                    break
            for action in users[atom]:
                remaining[action] -= 1
                if use_max:
                    if value > accumulated[action]:
                        accumulated[action] = value
                else:
                    accumulated[action] += value
                if not remaining[action]:
                    reached = accumulated[action] + pre_cost[action]
                    for new in add[action]:
                        if reached < cost[new]:
                            cost[new] = reached
                            supporter[new] = action
                            heapq.heappush(heap, (reached, new))
        return cost, supporter

    def _relaxed_plan(self, level: list, supporter: list) -> tuple[float, frozenset]:
        """h_FF: the cost of the relaxed plan read back from the supporters, and its actions
        applicable in the state (every precondition at level 0)."""
        chosen: set = set()
        stack = [g for g in self.goal if supporter[g] >= 0]
        seen = set(stack)
        pre = self.pre
        while stack:
            action = supporter[stack.pop()]
            if action in chosen:
                continue
            chosen.add(action)
            for p in pre[action]:
                if p not in seen and supporter[p] >= 0 and level[p] != 0:
                    seen.add(p)
                    stack.append(p)
        preferred = frozenset(self.label[a] for a in chosen
                              if all(level[p] == 0 for p in pre[a]))
        return float(sum(self.cost[a] for a in chosen)), preferred


def _bind(node: Node, binding: list) -> tuple:
    return (node[1], *[binding[t] if isinstance(t, int) else t for t in node[2]])


def _conjunction(node: Node) -> list[Node]:
    """The parts of a condition's top-level conjunction."""
    if node[0] == "and":
        return [a for part in node[1] for a in _conjunction(part)]
    return [node]


def _goal_literals(node: Node) -> tuple[set, set]:
    """The ground atoms of the goal's top-level conjunction: positive ones, negated ones."""
    positive, negative = set(), set()
    for part in _conjunction(node):
        if part[0] == "atom":
            positive.add(_bind(part, []))
        elif part[0] == "not" and part[1][0] == "atom":
            negative.add(_bind(part[1], []))
    return positive, negative
