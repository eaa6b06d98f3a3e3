"""Precondition and goal formulas compiled to Python expressions, quantifiers included.

The generated enumerators and tests (``codegen``) write plain literals inline; everything else
(disjunctions, nested negations, ``exists``/``forall``) used to go through an interpreter that
walked the formula tree for every binding: a domain with quantified preconditions (sudoku's
"no cell of this row holds the digit") spent ~10 ms per state there. Here a formula becomes
one Python expression over the binding list ``b`` and the ``state``; each quantifier becomes a
small generated function. An ``exists`` (and a ``forall``, as ``not exists not``) whose body
has a positive atom naming a quantified variable iterates the state's atoms of that predicate
(through the simulator's per-state index, by an argument already bound where there is one)
instead of every object combination; other quantifiers loop over the objects of each type.

Work is bounded as the interpreter bounded it: every iteration counts, and one evaluation past
``max_work`` iterations raises ``WorkLimitExceeded`` (``tick`` adds the count to the caller's
budget).
"""

from __future__ import annotations

from typing import Callable

from text2world.simulation.compiler import MAX_LOOP_DEPTH, Node, compile_cached, work_limit_exceeded


def _value(term: int | str) -> str:
    return f"b[{term}]" if isinstance(term, int) else repr(term)


def _negate(node: Node) -> Node:
    return node[1] if node[0] == "not" else ("not", node)


def _parts(node: Node) -> list[Node]:
    """The conjuncts of ``node`` (nested ``and`` flattened)."""
    if node[0] == "and":
        return [p for part in node[1] for p in _parts(part)]
    if node[0] == "true":
        return []
    return [node]


class ConditionCompiler:
    """Turns formula nodes (``compiler.compile_formula``) into Python source.

    ``objects_of_type(kind)`` lists a type's objects; ``index(state)`` makes the simulator's
    per-state index current for ``state`` and returns its atoms by predicate;
    ``lookup(pred, position, value)`` reads that index; ``tick(n)`` charges ``n`` iterations.
    The names the expressions use are in ``namespace`` (merge it into the code's globals).
    """

    def __init__(self, objects_of_type: Callable[[str], tuple[str, ...]], index: Callable,
                 lookup: Callable, tick: Callable[[int], None], max_work: int) -> None:
        self._objects_of_type = objects_of_type
        self.namespace: dict[str, object] = {"C_INDEX": index, "C_LOOKUP": lookup,
                                             "C_TICK": tick, "C_MAX": max_work,
                                             "work_limit_exceeded": work_limit_exceeded}
        self._helpers: dict[tuple, str] = {}  # quantifier node -> its function's name

    def _constant(self, value: object) -> str:
        name = f"C{len(self.namespace)}"
        self.namespace[name] = value
        return name

    def expression(self, node: Node) -> str:
        """Python source, true when ``node`` holds for binding ``b`` in ``state``."""
        kind = node[0]
        if kind == "atom":
            return "(" + ", ".join([repr(node[1]), *(_value(t) for t in node[2])]) + ",) in state"
        if kind == "eq":
            return f"{_value(node[1])} == {_value(node[2])}"
        if kind == "true":
            return "True"
        if kind == "not":
            return f"not ({self.expression(node[1])})"
        if kind in ("and", "or"):
            if not node[1]:
                return "True" if kind == "and" else "False"
            return "(" + f" {kind} ".join(f"({self.expression(n)})" for n in node[1]) + ")"
        if kind == "exists":
            return f"{self._quantifier(node[1], _parts(node[2]))}(b, state)"
        if kind == "forall":  # forall x: body  ==  not exists x: not body
            body = node[2]
            negated = [_negate(p) for p in body[1]] if body[0] == "or" else _parts(_negate(body))
            return f"not {self._quantifier(node[1], negated)}(b, state)"
        raise ValueError(f"not a formula node: {node!r}")

    def function(self, node: Node) -> Callable[[list, frozenset], bool]:
        """``f(b, state) -> bool`` for ``node``."""
        source = f"def condition_(b, state):\n    return {self.expression(node)}"
        namespace = dict(self.namespace)
        exec(compile_cached(source, "<condition>"), namespace)  # noqa: S102
        return namespace["condition_"]  # type: ignore[return-value]  # defined by the exec

    def _quantifier(self, variables: tuple, conjuncts: list) -> str:
        """The name of a generated ``f(b, state)``: some binding of ``variables`` makes every
        one of ``conjuncts`` true."""
        key = (variables, tuple(conjuncts))
        if key in self._helpers:
            return self._helpers[key]
        slots = {slot for slot, _ in variables}
        kinds = dict(variables)
        # the atom to iterate: a positive one naming a quantified variable, by a bound argument
        # where it has one (fewest atoms to look at)
        driver, key_at = None, None
        for part in conjuncts:
            if part[0] != "atom" or not slots & set(t for t in part[2] if isinstance(t, int)):
                continue
            bound_at = next((i for i, t in enumerate(part[2])
                             if not (isinstance(t, int) and t in slots)), None)
            if driver is None or (key_at is None and bound_at is not None):
                driver, key_at = part, bound_at
        lines: list[str] = []
        depth = 1

        def emit(text: str) -> None:
            lines.append("    " * depth + text)

        emit("n = 0")
        assigned: set[int] = set()
        rest = list(conjuncts)
        if driver is not None:
            rest.remove(driver)
            emit("by_pred = C_INDEX(state)")
            if key_at is None:
                emit(f"for atom in by_pred.get({driver[1]!r}, ()):")
            else:
                emit(f"for atom in C_LOOKUP({driver[1]!r}, {key_at}, "
                     f"{_value(driver[2][key_at])}):")
            depth += 1
            emit("n += 1")
            emit("if n > C_MAX: work_limit_exceeded(C_MAX)")
            for position, term in enumerate(driver[2]):
                value = f"atom[{position + 1}]"
                if position == key_at:
                    continue
                if isinstance(term, int) and term in slots and term not in assigned:
                    members = self._constant(frozenset(self._objects_of_type(kinds[term])))
                    emit(f"if {value} not in {members}: continue")
                    emit(f"b[{term}] = {value}")
                    assigned.add(term)
                else:
                    emit(f"if {value} != {_value(term)}: continue")
        free = [(slot, kind) for slot, kind in variables if slot not in assigned]
        if len(free) > MAX_LOOP_DEPTH:
            # exists x y: body == exists x: exists y: body; the inner one is its own function,
            # as CPython stops at 20 nested blocks in one
            inner = ("exists", tuple(free[MAX_LOOP_DEPTH:]), ("and", tuple(rest)))
            free, rest = free[:MAX_LOOP_DEPTH], [inner]
        for slot, kind in free:
            objects = self._constant(self._objects_of_type(kind))
            emit(f"for b[{slot}] in {objects}:")
            depth += 1
            emit("n += 1")
            emit("if n > C_MAX: work_limit_exceeded(C_MAX)")
        test = " and ".join(f"({self.expression(p)})" for p in rest) or "True"
        emit(f"if {test}:")
        emit("    C_TICK(n)")
        emit("    return True")
        name = f"C_exists{len(self._helpers)}"
        self._helpers[key] = name
        source = "\n".join([f"def {name}(b, state):", *lines, "    C_TICK(n)",
                            "    return False"])
        exec(compile_cached(source, "<quantifier>"), self.namespace)  # noqa: S102
        return name


__all__ = ["ConditionCompiler"]
