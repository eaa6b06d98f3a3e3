"""The simulator: ground semantics of a domain on one problem (see the package docstring)."""

from __future__ import annotations

import random
import threading
from dataclasses import dataclass
from itertools import product
from typing import Any, Iterable, Sequence

from text2world.pddl.model import (
    VARIABLE,
    Action,
    AddEffect,
    DeleteEffect,
    Domain,
    Formula,
    iter_effects,
    parse_domain,
)
from text2world.simulation.codegen import compile_effects, compile_enumerator, compile_test
from text2world.simulation.compiler import (
    CompiledAction,
    Node,
    Scope,
    compile_effect,
    compile_formula,
    conjuncts,
    free_slots,
)
from text2world.simulation.conditions import ConditionCompiler
from text2world.simulation.problem import (
    DEFAULT_MAX_WORK,
    LIMIT,
    MAX_QUANTIFIED_BINDINGS,
    GroundAction,
    GroundingTooLarge,
    PlanningProblem,
    ProblemError,
    SimulationError,
    WorkLimitExceeded,
    atom_to_pddl,
    parse_plan,
    parse_problem,
)

__all__ = ["PlanValidation", "Walk", "Simulator", "simulator_from_text"]


@dataclass(frozen=True)
class PlanValidation:
    """The outcome of executing a plan from the initial state.

    ``failed_step`` is the 0-based index of the first step that could not be applied (None when
    every step applied); ``reason`` says why in words; ``unsatisfied`` lists the failing
    precondition literals of that step, ground, as PDDL. ``valid`` means every step applied and
    the goal holds in ``final_state``.
    """

    valid: bool
    steps_applied: int
    goal_reached: bool
    final_state: frozenset
    cost: float
    failed_step: int | None = None
    failed_action: GroundAction | None = None
    reason: str = ""
    unsatisfied: tuple[str, ...] = ()


@dataclass(frozen=True)
class Walk:
    """A random walk: ``states[i + 1]`` is the successor of ``states[i]`` by ``actions[i]``."""

    states: tuple[frozenset, ...]
    actions: tuple[GroundAction, ...]
    seed: int


# The simulator


class Simulator:
    """Ground semantics of ``domain`` on ``problem``: initial state, applicable actions,
    successors, costs, goal test, plan validation and random walks.

    Raises ``UnsupportedFeature`` for PDDL it does not implement and ``ProblemError`` when the
    problem's objects or atoms do not fit the domain. ``max_work`` bounds the search nodes of
    one call (``WorkLimitExceeded`` beyond it).
    """

    def __init__(self, domain: Domain, problem: PlanningProblem, *,
                 max_work: int = DEFAULT_MAX_WORK) -> None:
        self.domain = domain
        self.problem = problem
        self.max_work = max_work
        self._types = self._type_closure(domain, problem)
        self._type_sets: dict[str, frozenset] = {}
        self._object_type = {o.name: o.type for o in problem.objects}
        self._functions = dict(problem.function_values)
        self._predicates = {p.name: len(p.parameters) for p in domain.predicates}
        self.predicate_arity: dict[str, int] = dict(self._predicates)  # name -> arity
        self._actions = {a.name: self._compile(a) for a in domain.actions}
        self._goal = compile_formula(problem.goal, {}, Scope(), "goal")
        self._check_grounding()
        self._call = _CallState()
        self._conditions = ConditionCompiler(self.objects_of_type, self._state_index,
                                             self._lookup, self._tick, max_work)
        self._enumerators = [
            (name, compile_enumerator(compiled.steps, compiled.arity, compiled.slots,
                                      self._conditions, max_work))
            for name, compiled in sorted(self._actions.items())]
        self._tests = {name: compile_test(tuple(node for _, node in c.conjuncts), c.arity,
                                          c.slots, self._conditions)
                       for name, c in self._actions.items()}
        self._effects = {name: compile_effects(c.effects, c.arity, c.slots, self._apply)
                         for name, c in self._actions.items()}
        self._valid: dict[GroundAction, CompiledAction] = {}
        self._goal_slots = self._max_slot(self._goal) + 1
        self._goal_test = self._conditions.function(self._goal)
        for atom in problem.init:
            if self._predicates.get(atom[0], -1) != len(atom) - 1:
                raise ProblemError(f"initial atom {atom_to_pddl(atom)} does not match a "
                                   "predicate of the domain")
        self.initial_state: frozenset = frozenset(problem.init)

    # -- types ---------------------------------------------------------------------------

    @staticmethod
    def _type_closure(domain: Domain, problem: PlanningProblem) -> dict[str, tuple[str, ...]]:
        parent = {t.name: t.type for t in domain.types}
        members: dict[str, list[str]] = {"object": []}
        for obj in problem.objects:
            seen = set()
            kind = obj.type
            while kind not in seen:
                seen.add(kind)
                members.setdefault(kind, []).append(obj.name)
                if kind == "object" or kind not in parent:
                    break
                kind = parent[kind]
            if "object" not in seen:
                members["object"].append(obj.name)
        return {kind: tuple(sorted(set(names))) for kind, names in members.items()}

    def objects_of_type(self, kind: str) -> tuple[str, ...]:
        """The objects of ``kind`` or of any of its subtypes, sorted."""
        return self._types.get(kind, ())

    # -- compilation ---------------------------------------------------------------------

    def quantified_bindings(self, node: Node, outer: int = 1, effect: bool = False) -> int:
        """The most object combinations a quantifier in ``node`` (a compiled formula, or with
        ``effect`` a compiled effect) ranges over on this problem, nested quantifiers
        multiplied (1 without one)."""
        kind = node[0]
        if kind in ("exists", "forall") and not (effect and kind == "exists"):
            size = outer
            for _, kind_of_variable in node[1]:
                size *= len(self.objects_of_type(kind_of_variable))
            if effect:
                return max([size, *(self.quantified_bindings(e, size, True) for e in node[2])])
            return max(size, self.quantified_bindings(node[2], size))
        if effect:
            if kind == "when":
                return max([self.quantified_bindings(node[1], outer),
                            *(self.quantified_bindings(e, outer, True) for e in node[2])])
            return outer
        if kind in ("and", "or"):
            return max([outer, *(self.quantified_bindings(n, outer) for n in node[1])])
        if kind == "not":
            return self.quantified_bindings(node[1], outer)
        return outer

    def largest_quantifier(self) -> tuple[int, str]:
        """``(combinations, where)``: the quantifier of the goal or of an action (precondition
        or effect) that ranges over the most object combinations on this problem (nested
        quantifiers multiplied; 1 without one)."""
        parts = [("the goal", self._goal, False)]
        for name, compiled in sorted(self._actions.items()):
            parts += [(f"action {name}", node, False) for _, node in compiled.conjuncts]
            parts += [(f"action {name}", node, True) for node in compiled.effects]
        return max(((self.quantified_bindings(node, 1, effect), where)
                    for where, node, effect in parts), key=lambda found: found[0])

    def _check_grounding(self) -> None:
        """Refuse, before any grounding, a quantifier over more than
        ``MAX_QUANTIFIED_BINDINGS`` object combinations (``GroundingTooLarge``)."""
        size, where = self.largest_quantifier()
        if size > MAX_QUANTIFIED_BINDINGS:
            raise GroundingTooLarge(
                f"{LIMIT}: {where} quantifies over {size:,} combinations of objects on "
                f"this problem ({len(self._object_type)} objects), more than the "
                f"{MAX_QUANTIFIED_BINDINGS:,} grounding allows")

    def _compile(self, action: Action) -> CompiledAction:
        where = f"action {action.name}"
        scope = Scope()
        env: dict[str, int] = {}
        for parameter in action.parameters:
            env[parameter.name] = scope.new_slot()
        arity = scope.size
        literals = tuple((c, compile_formula(c, env, scope, where))
                         for c in conjuncts(action.precondition))
        effects = tuple(compile_effect(e, env, scope, where) for e in action.effects)
        param_types = tuple(p.type for p in action.parameters)
        return CompiledAction(action, arity, scope.size, param_types, literals,
                              self._join_plan(arity, param_types, literals), effects)

    def _join_plan(self, arity: int, param_types: tuple[str, ...],
                   literals: Sequence[tuple[Formula, Node]]) -> tuple:
        """Order the positive atoms most-constrained first, then enumerate the parameters no
        atom binds; attach each other check where its last variable gets bound.

        Steps: ("match", pred, ops, checks) where ops are per argument (0, object) must equal,
        (1, slot) must equal the bound slot, (2, slot, allowed objects) binds the slot; or
        ("enum", slot, objects, checks).
        """
        positives = [node for _, node in literals if node[0] == "atom"]
        others = [node for _, node in literals if node[0] != "atom"]
        static = self._static_predicates()
        bound: set[int] = set()
        order = []
        while positives:
            def rank(node: Node) -> tuple[int, bool, bool, int]:
                variables = {t for t in node[2] if isinstance(t, int)}
                free = len(variables - bound)
                connected = bool(variables & bound) or not bound
                return (free, not connected, node[1] not in static, len(node[2]))
            best = min(positives, key=rank)
            positives.remove(best)
            order.append(best)
            bound |= {t for t in best[2] if isinstance(t, int)}
        steps: list = []
        bound = set()
        pending = list(others)

        def ready() -> tuple:
            now = tuple(n for n in pending if free_slots(n) <= bound)
            for n in now:
                pending.remove(n)
            return now

        # checks that need no variable at all come first
        steps.append(("enum", None, (), ready()))
        for node in order:
            ops: list[tuple] = []
            for term in node[2]:
                if isinstance(term, str):
                    ops.append((0, term))
                elif term in bound:
                    ops.append((1, term))
                else:
                    allowed = self.objects_of_type(param_types[term])
                    # None: every object qualifies, no type test needed
                    ops.append((2, term, None if len(allowed) == len(self._object_type)
                                else frozenset(allowed)))
                    bound.add(term)
            steps.append(("match", node[1], tuple(ops), ready()))
        for slot in range(arity):
            if slot not in bound:
                bound.add(slot)
                steps.append(("enum", slot, self.objects_of_type(param_types[slot]), ready()))
        if pending:  # only possible with variables bound nowhere: a malformed action
            raise SimulationError(f"precondition uses unbound variables: {pending!r}")
        return tuple(steps)

    def compiled_like(self, other: "Simulator", names: Iterable[str]) -> bool:
        """Whether the actions ``names`` are compiled here as in ``other`` (the same lifted
        conditions, join order and effects): on equal objects they enumerate, test and apply
        alike, with the same work counted."""
        return all(name in self._actions and self._actions[name] == other._actions.get(name)
                   for name in names)

    def _static_predicates(self) -> frozenset[str]:
        changed = {effect.atom.predicate for action in self.domain.actions
                   for effect, _ in iter_effects(action.effects)
                   if isinstance(effect, (AddEffect, DeleteEffect))}
        return frozenset(self._predicates) - changed

    @staticmethod
    def _max_slot(node: Node) -> int:
        if node[0] in ("exists", "forall"):
            return max([s for s, _ in node[1]] + [Simulator._max_slot(node[2])])
        if node[0] in ("and", "or"):
            return max([Simulator._max_slot(n) for n in node[1]], default=-1)
        if node[0] == "not":
            return Simulator._max_slot(node[1])
        return -1

    # -- evaluation ----------------------------------------------------------------------

    def _tick(self, count: int = 1) -> None:
        call = self._call
        call.work += count
        if call.work > self.max_work:
            raise WorkLimitExceeded(
                f"grounding needed more than {self.max_work:,} search steps in one call")

    def _holds(self, node: Node, binding: list, state: frozenset) -> bool:
        kind = node[0]
        if kind == "atom":
            return (node[1], *[binding[t] if isinstance(t, int) else t for t in node[2]]) in state
        if kind == "eq":
            a, b = node[1], node[2]
            return ((binding[a] if isinstance(a, int) else a)
                    == (binding[b] if isinstance(b, int) else b))
        if kind == "not":
            return not self._holds(node[1], binding, state)
        if kind == "and":
            return all(self._holds(n, binding, state) for n in node[1])
        if kind == "or":
            return any(self._holds(n, binding, state) for n in node[1])
        if kind == "true":
            return True
        # exists / forall over the objects of each variable's type
        variables, body = node[1], node[2]
        want = kind == "exists"
        for objects in product(*(self.objects_of_type(t) for _, t in variables)):
            self._tick()
            for (slot, _), obj in zip(variables, objects):
                binding[slot] = obj
            if self._holds(body, binding, state) == want:
                return want
        return not want

    def _state_index(self, state: frozenset) -> dict:
        """The atoms of ``state`` by predicate: the index of the calling thread, made current
        for ``state`` (per thread: threads sharing a simulator, such as a cached gold's, never
        read each other's index)."""
        call = self._call
        if state is not call.state:
            index: dict = {}
            for atom in state:
                index.setdefault(atom[0], []).append(atom)
            call.index = index
            call.state = state
        return call.index

    def _lookup(self, pred: str, position: int, value: str) -> list:
        """The current state's atoms of ``pred`` with ``value`` at argument ``position``
        (the per-state index is built lazily, per predicate and position)."""
        index = self._call.index
        key = (pred, position)
        by_value = index.get(key)
        if by_value is None:
            by_value = {}
            for atom in index.get(pred, ()):
                by_value.setdefault(atom[position + 1], []).append(atom)
            index[key] = by_value
        return by_value.get(value, ())

    def applicable(self, state: frozenset) -> tuple[GroundAction, ...]:
        """Every ground action applicable in ``state``, sorted by name then arguments."""
        self._call.work = 0
        index = self._state_index(state)
        work = 0
        found: list[GroundAction] = []
        for name, enumerate_ in self._enumerators:
            tuples, work = enumerate_(state, index, self._lookup, work)
            tuples.sort()
            found.extend([GroundAction(name, args) for args in tuples])
        return tuple(found)

    def _check(self, action: GroundAction) -> CompiledAction:
        """The compiled action, once its name, arity and argument types are checked."""
        compiled = self._valid.get(action)
        if compiled is not None:
            return compiled
        self._bind(action)
        if len(self._valid) > 200_000:  # bounded memo of checked ground actions
            self._valid.clear()
        compiled = self._valid[action] = self._actions[action.name]
        return compiled

    def _bind(self, action: GroundAction) -> tuple[CompiledAction, list]:
        compiled = self._actions.get(action.name)
        if compiled is None:
            raise SimulationError(f"{action}: the domain has no action {action.name!r}")
        if len(action.args) != compiled.arity:
            raise SimulationError(f"{action}: {action.name} takes {compiled.arity} "
                                  f"argument(s), not {len(action.args)}")
        for arg, kind in zip(action.args, compiled.param_types):
            if arg not in self._object_type:
                raise SimulationError(f"{action}: unknown object {arg!r}")
            if arg not in self._type_set(kind):
                raise SimulationError(f"{action}: {arg} is a {self._object_type[arg]}, "
                                      f"not a {kind}")
        binding: list[str | None] = [None] * max(compiled.slots, 1)
        binding[:compiled.arity] = action.args
        return compiled, binding

    def _type_set(self, kind: str) -> frozenset:
        if kind not in self._type_sets:
            self._type_sets[kind] = frozenset(self.objects_of_type(kind))
        return self._type_sets[kind]

    def unsatisfied(self, state: frozenset, action: GroundAction) -> tuple[str, ...]:
        """The precondition conjuncts of ``action`` false in ``state``, ground, as PDDL (empty
        when applicable). Raises ``SimulationError`` for an unknown action or object."""
        compiled, binding = self._bind(action)
        self._call.work = 0
        mapping = dict(zip((p.name for p in compiled.action.parameters), action.args))
        return tuple(_ground_text(literal, mapping) for literal, node in compiled.conjuncts
                     if not self._holds(node, binding, state))

    def unsatisfied_literals(self, state: frozenset, action: GroundAction) -> tuple[Formula, ...]:
        """Like ``unsatisfied`` but the lifted conjuncts, as written in the domain."""
        compiled, binding = self._bind(action)
        self._call.work = 0
        return tuple(literal for literal, node in compiled.conjuncts
                     if not self._holds(node, binding, state))

    def is_applicable(self, state: frozenset, action: GroundAction) -> bool:
        try:
            self._check(action)
        except SimulationError:
            return False
        self._call.work = 0
        return self._tests[action.name](state, action.args)

    def successor(self, state: frozenset, action: GroundAction, *, check: bool = True) -> frozenset:
        """The state after ``action`` (VAL: conditions read the old state, adds win over deletes).

        With ``check`` (default) an inapplicable action raises ``SimulationError``.
        """
        return self.transition(state, action, check=check)[0]

    def transition(self, state: frozenset, action: GroundAction, *,
                   check: bool = True) -> tuple[frozenset, float]:
        """``(successor state, step cost)``."""
        self._check(action)
        self._call.work = 0
        if check and not self._tests[action.name](state, action.args):
            raise SimulationError(f"{action} is not applicable: unsatisfied "
                                  + ", ".join(self.unsatisfied(state, action)))
        return self._effects[action.name](state, action.args)

    def _apply(self, effects: tuple, binding: list, state: frozenset, adds: set,
               deletes: set, cost: list) -> None:
        for effect in effects:
            kind = effect[0]
            if kind == "add" or kind == "del":
                atom = (effect[1], *[binding[t] if isinstance(t, int) else t for t in effect[2]])
                (adds if kind == "add" else deletes).add(atom)
            elif kind == "when":
                if self._holds(effect[1], binding, state):
                    self._apply(effect[2], binding, state, adds, deletes, cost)
            elif kind == "forall":
                variables = effect[1]
                for objects in product(*(self.objects_of_type(t) for _, t in variables)):
                    self._tick()
                    for (slot, _), obj in zip(variables, objects):
                        binding[slot] = obj
                    self._apply(effect[2], binding, state, adds, deletes, cost)
            elif kind == "cost":
                cost[0] += self._cost_value(effect[1], binding)

    def _cost_value(self, term: float | Node, binding: list) -> float:
        if isinstance(term, float):
            return term
        key = (term[0], *[binding[t] if isinstance(t, int) else t for t in term[1]])
        if key not in self._functions:
            raise SimulationError(f"the cost {atom_to_pddl(key)} has no value in the problem")
        return self._functions[key]

    def goal_reached(self, state: frozenset) -> bool:
        self._call.work = 0
        return self._goal_test([None] * max(self._goal_slots, 1), state)

    def unmet_goals(self, state: frozenset) -> tuple[str, ...]:
        """The goal's conjuncts false in ``state``, as PDDL (empty when the goal holds)."""
        unmet = []
        for part in conjuncts(self.problem.goal):
            node = compile_formula(part, {}, Scope(), "goal")
            self._call.work = 0
            if not self._holds(node, [None] * max(self._max_slot(node) + 1, 1), state):
                unmet.append(part.to_pddl())
        return tuple(unmet)

    # -- plans and walks -----------------------------------------------------------------

    def validate_plan(self, plan: str | Sequence[str | GroundAction]) -> PlanValidation:
        """Execute ``plan`` from the initial state; report the first failing step and why."""
        try:
            steps = parse_plan(plan)
        except ValueError as err:
            return PlanValidation(False, 0, False, self.initial_state, 0.0, 0, None, str(err))
        state = self.initial_state
        total = 0.0
        for index, action in enumerate(steps):
            try:
                missing = self.unsatisfied(state, action)
            except SimulationError as err:
                return PlanValidation(False, index, False, state, total, index, action,
                                      f"step {index + 1} {action}: {err.reason}")
            if missing:
                return PlanValidation(
                    False, index, False, state, total, index, action,
                    f"step {index + 1} {action}: precondition not satisfied: "
                    + ", ".join(missing), missing)
            state, cost = self.transition(state, action, check=False)
            total += cost
        reached = self.goal_reached(state)
        return PlanValidation(reached, len(steps), reached, state, total,
                              reason="" if reached else
                              f"all {len(steps)} steps apply but the goal is not reached")

    def random_walk(self, length: int, seed: int, *, start: frozenset | None = None,
                    applicable: dict | None = None) -> Walk:
        """A seeded uniform random walk of at most ``length`` steps (it stops at a dead end).
        ``applicable``: a dict that receives each state's applicable actions it computed."""
        rng = random.Random(seed)
        state = self.initial_state if start is None else start
        states = [state]
        actions: list[GroundAction] = []
        for _ in range(length):
            options = self.applicable(state)
            if applicable is not None:
                applicable[state] = options
            if not options:
                break
            action = options[rng.randrange(len(options))]
            state = self.successor(state, action, check=False)
            actions.append(action)
            states.append(state)
        return Walk(tuple(states), tuple(actions), seed)


class _CallState(threading.local):
    """What one call of a simulator method keeps while it runs (the state index it reads and
    the work it has done), one copy per thread."""

    def __init__(self) -> None:
        self.state: frozenset | None = None
        self.index: dict = {}
        self.work = 0


def _ground_text(literal: Formula, mapping: dict[str, str]) -> str:
    """A lifted literal printed with its parameters replaced by their objects."""
    text = literal.to_pddl()
    return VARIABLE.sub(lambda m: mapping.get(m.group(0), m.group(0)), text)


def simulator_from_text(domain_text: str, problem_text: str, **kwargs: Any) -> Simulator:
    """Parse both texts (domain with ``parse_domain``, problem with tarski) and simulate."""
    domain = parse_domain(domain_text)
    return Simulator(domain, parse_problem(domain_text, problem_text), **kwargs)

