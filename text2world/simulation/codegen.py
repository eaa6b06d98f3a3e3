"""Applicable-action enumeration compiled to Python: one function of nested loops per action.

The simulator's join plan (see ``Simulator._join_plan``) is turned into straight-line Python
source (a ``for`` per matched atom or enumerated parameter, inline tests for constants, repeated
variables, types, negated atoms and (in)equalities) and compiled with ``exec``. This is the hot
loop of every walk and search; generated loops run several times faster than an interpreter over
the plan. Only names and objects of the parsed domain reach the source, always through ``repr``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, AbstractSet, Callable, Iterable, cast

from text2world.simulation.compiler import MAX_LOOP_DEPTH, Node, compile_cached, free_slots, work_limit_exceeded

if TYPE_CHECKING:
    from text2world.simulation.conditions import ConditionCompiler

__all__ = ["compile_enumerator", "compile_test", "compile_effects", "MAX_LOOP_DEPTH"]

Enumerator = Callable[[AbstractSet, dict, Callable, int], tuple[list, int]]


def _term(term: int | str) -> str:
    return f"v{term}" if isinstance(term, int) else repr(term)


def _atom(pred: str, terms: Iterable[int | str]) -> str:
    return "(" + ", ".join([repr(pred), *(_term(t) for t in terms)]) + ",)"


def compile_enumerator(steps: tuple, arity: int, slots: int,
                       conditions: ConditionCompiler | None, max_work: int) -> Enumerator:
    """``f(state, by_pred, lookup, work) -> (argument tuples, work)``.

    ``by_pred`` maps a predicate to the state's atoms of it; ``lookup(pred, position, value)``
    returns those whose argument at ``position`` is ``value``. ``work`` counts loop iterations
    across calls; past ``max_work`` the function raises ``WorkLimitExceeded``. Checks that are
    not plain literals are written by ``conditions`` (None: the steps have none).
    """
    constants: dict[str, object] = {"work_limit_exceeded": work_limit_exceeded, "MAX": max_work}
    lines = ["def enumerate_(state, by_pred, lookup, work):", "    found = []"]
    residual = any(_needs_binding(check) for step in steps for check in step[-1])
    if residual:
        lines.append(f"    b = [None] * {max(slots, 1)}")
    main = lines
    parts: list[list[str]] = []  # continuation functions, when the loops nest too deep for one
    depth = 1
    bound: list[int] = []

    def emit(text: str) -> None:
        lines.append("    " * depth + text)

    def skip() -> str:
        if depth > 1:
            return "continue"
        return "return work" if parts else "return found, work"

    def open_loop() -> None:
        """Before a ``for``: past ``MAX_LOOP_DEPTH`` loops, the rest of the nest continues in
        a new function called from here (CPython refuses 20 nested blocks in one function)."""
        nonlocal lines, depth
        if depth <= MAX_LOOP_DEPTH:
            return
        name = f"_part{len(parts) + 1}"
        arguments = "".join(f", v{slot}" for slot in sorted(set(bound)))
        extra = ", b" if residual else ""
        emit(f"work = {name}(state, by_pred, lookup, work, found{extra}{arguments})")
        if parts:  # nothing follows the call in this continuation
            lines.append("    return work")
        lines = [f"def {name}(state, by_pred, lookup, work, found{extra}{arguments}):"]
        parts.append(lines)
        depth = 1

    def checks(nodes: Iterable[Node]) -> None:
        for node in nodes:
            test = _inline_test(node)
            if test is None:
                if conditions is None:
                    raise ValueError(f"a check needs a condition compiler: {node!r}")
                for slot in sorted(free_slots(node)):
                    emit(f"b[{slot}] = v{slot}")
                test = f"not ({conditions.expression(node)})"
            emit(f"if {test}: {skip()}")

    for step in steps:
        if step[0] == "enum":
            slot, objects, tests = step[1], step[2], step[3]
            if slot is not None:
                open_loop()
                name = f"O{len(constants)}"
                constants[name] = objects
                emit(f"for v{slot} in {name}:")
                depth += 1
                emit("work += 1")
                emit("if work > MAX: work_limit_exceeded(MAX)")
                bound.append(slot)
            checks(tests)
            continue
        _, pred, ops, tests = step
        lookup_at = next((i for i, op in enumerate(ops) if op[0] != 2), None)
        open_loop()
        if lookup_at is None:
            emit(f"for atom in by_pred.get({pred!r}, ()):")
        else:
            op = ops[lookup_at]
            value = repr(op[1]) if op[0] == 0 else f"v{op[1]}"
            emit(f"for atom in lookup({pred!r}, {lookup_at}, {value}):")
        depth += 1
        emit("work += 1")
        emit("if work > MAX: work_limit_exceeded(MAX)")
        for position, op in enumerate(ops):
            if position == lookup_at:
                continue
            if op[0] == 0:
                emit(f"if atom[{position + 1}] != {op[1]!r}: continue")
            elif op[0] == 1:
                emit(f"if atom[{position + 1}] != v{op[1]}: continue")
            else:
                slot = op[1]
                emit(f"v{slot} = atom[{position + 1}]")
                if op[2] is not None:
                    name = f"T{len(constants)}"
                    constants[name] = op[2]
                    emit(f"if v{slot} not in {name}: continue")
                bound.append(slot)
        checks(tests)
    emit("found.append((" + "".join(f"v{slot}, " for slot in range(arity)) + "))")
    if parts:
        lines.append("    return work")
    main.append("    return found, work")
    source = "\n".join(line for function in (main, *parts) for line in function)
    namespace = dict(conditions.namespace) if conditions is not None else {}
    namespace.update(constants)
    exec(compile_cached(source, "<applicable>"), namespace)  # noqa: S102
    return cast(Enumerator, namespace["enumerate_"])  # defined by the exec above


def _needs_binding(node: Node) -> bool:
    return _inline_test(node) is None


def _inline_test(node: Node) -> str | None:
    """A Python test true when the literal is FALSE, for the literal kinds written inline."""
    kind = node[0]
    if kind == "eq":
        return f"{_term(node[1])} != {_term(node[2])}"
    if kind == "atom":
        return f"{_atom(node[1], node[2])} not in state"
    if kind == "not" and node[1][0] == "eq":
        return f"{_term(node[1][1])} == {_term(node[1][2])}"
    if kind == "not" and node[1][0] == "atom":
        return f"{_atom(node[1][1], node[1][2])} in state"
    if kind == "true":
        return "False"
    return None


def compile_test(literals: tuple, arity: int, slots: int,
                 conditions: ConditionCompiler) -> Callable:
    """``f(state, args) -> bool``: the precondition (its compiled conjuncts) holds."""
    lines = ["def test_(state, args):"]
    if arity:
        lines.append("    " + "".join(f"v{i}, " for i in range(arity)) + "= args")
    if any(_needs_binding(node) for node in literals):
        lines.append(f"    b = [None] * {max(slots, 1)}")
        lines.append(f"    b[:{arity}] = args")
    for node in literals:
        test = _inline_test(node)
        if test is None:
            test = f"not ({conditions.expression(node)})"
        lines.append(f"    if {test}: return False")
    lines.append("    return True")
    namespace = dict(conditions.namespace)
    exec(compile_cached("\n".join(lines), "<precondition>"), namespace)  # noqa: S102
    return cast(Callable, namespace["test_"])  # defined by the exec above


def compile_effects(effects: tuple, arity: int, slots: int, apply: Callable) -> Callable:
    """``f(state, args) -> (successor, cost)`` (VAL: deletes first, then adds).

    Plain adds, deletes and constant costs are written inline; conditional and quantified
    effects go through ``apply(effects, binding, state, adds, deletes, cost)``.
    """
    simple = all(e[0] in ("add", "del") or (e[0] == "cost" and isinstance(e[1], float))
                 for e in effects)
    constants: dict[str, object] = {"apply": apply, "EFFECTS": effects}
    lines = ["def effects_(state, args):"]
    if not simple:
        lines += [f"    b = [None] * {max(slots, 1)}", f"    b[:{arity}] = args",
                  "    adds = set()", "    deletes = set()", "    cost = [0.0]",
                  "    apply(EFFECTS, b, state, adds, deletes, cost)",
                  "    if not adds and not deletes: return state, cost[0]",
                  "    return state.difference(deletes).union(adds), cost[0]"]
    else:
        if arity:
            lines.append("    " + "".join(f"v{i}, " for i in range(arity)) + "= args")
        adds = [_atom(e[1], e[2]) for e in effects if e[0] == "add"]
        deletes = [_atom(e[1], e[2]) for e in effects if e[0] == "del"]
        cost = sum(e[1] for e in effects if e[0] == "cost")
        new = "state"
        if deletes:
            new += ".difference((" + ", ".join(deletes) + ",))"
        if adds:
            new += ".union((" + ", ".join(adds) + ",))"
        lines.append(f"    return {new}, {cost!r}")
    namespace = dict(constants)
    exec(compile_cached("\n".join(lines), "<effects>"), namespace)  # noqa: S102
    return cast(Callable, namespace["effects_"])  # defined by the exec above
