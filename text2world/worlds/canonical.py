"""Canonical forms up to names: two worlds that differ only by the names of their types,
predicates, actions, variables and objects get the same key.

A domain is a graph (types, predicates and their parameter slots, actions and their
parameters, each literal an edge labelled by its role: precondition, negated precondition,
add, delete, effect condition) whose names are erased; Weisfeiler-Leman colour refinement over
it gives every node a colour that names do not change, and the sorted colours are hashed
(``domain_structure``). A world adds its problems' objects and facts (``world_key``).
Refinement can call two different structures equal (rarely, on regular graphs), never two
renamings of one structure different: a duplicate is never kept.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from typing import Iterable, Sequence

from text2world.pddl.model import (
    AddEffect,
    Atom,
    ConditionalEffect,
    DeleteEffect,
    Domain,
    FunctionEffect,
    iter_effects,
    iter_literals,
)
from text2world.worlds.plan import Literal

__all__ = ["ROUNDS", "Edge", "domain_structure", "world_key"]

ROUNDS = 4
Edge = tuple[str, str, str]  # (role, source node, target node)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _refine(labels: dict[str, str], edges: Iterable[Edge], rounds: int = ROUNDS
            ) -> dict[str, str]:
    """Weisfeiler-Leman: each round a node's colour absorbs its neighbours' with the roles."""
    neighbours: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for role, source, target in edges:
        neighbours[source].append((">" + role, target))
        neighbours[target].append(("<" + role, source))
    colours = dict(labels)
    for _ in range(rounds):
        colours = {node: _digest(colour + "|" + ",".join(sorted(
            role + ":" + colours[other] for role, other in neighbours[node])))
            for node, colour in colours.items()}
    return colours


def domain_graph(domain: Domain) -> tuple[dict[str, str], list[Edge]]:
    """Nodes (with name-free labels) and role-labelled edges of a domain."""
    labels: dict[str, str] = {}
    edges: list[Edge] = []
    for kind in domain.types:
        labels[f"t:{kind.name}"] = "type"
    labels.setdefault("t:object", "type")

    def type_node(name: str) -> str:
        node = f"t:{name}"
        labels.setdefault(node, "type")
        return node

    for predicate in domain.predicates:
        node = f"p:{predicate.name}"
        labels[node] = f"predicate/{len(predicate.parameters)}"
        for index, parameter in enumerate(predicate.parameters):
            slot = f"{node}#{index}"
            labels[slot] = f"slot{index}"
            edges += [("slot", node, slot), ("type", slot, type_node(parameter.type))]
    for action in domain.actions:
        node = f"a:{action.name}"
        labels[node] = "action"
        variables = {}
        for index, parameter in enumerate(action.parameters):
            variable = f"{node}?{parameter.name}"
            variables[parameter.name] = variable
            labels[variable] = "parameter"
            edges += [(f"param{index}", node, variable),
                      ("type", variable, type_node(parameter.type))]

        def literal_edges(atom: Atom, role: str, conditioned: bool) -> None:
            use = f"{node}!{len(labels)}"
            labels[use] = role + ("/when" if conditioned else "")
            edges.append(("literal", node, use))
            edges.append(("of", use, f"p:{atom.predicate}"))
            for index, arg in enumerate(atom.args):
                target = variables.get(arg, f"c:{arg}")
                labels.setdefault(target, "constant")
                edges.append((f"arg{index}", use, target))

        for atom, positive in iter_literals(action.precondition):
            literal_edges(atom, "pre" if positive else "pre-not", False)
        for effect, conditions in iter_effects(action.effects):
            if isinstance(effect, (AddEffect, DeleteEffect)):
                literal_edges(effect.atom, "add" if isinstance(effect, AddEffect) else "del",
                              bool(conditions))
            elif isinstance(effect, ConditionalEffect):
                for atom, positive in iter_literals(effect.condition):
                    literal_edges(atom, "cond" if positive else "cond-not", True)
            elif isinstance(effect, FunctionEffect):
                labels[node] = f"action/cost:{effect.value}"
    return labels, edges


def domain_structure(domain: Domain) -> str:
    """A hash of the domain up to names."""
    colours = _refine(*domain_graph(domain))
    return _digest("\n".join(sorted(colours.values())))


def world_key(domain: Domain, problems: Sequence[tuple[Sequence[tuple[str, str]],
                                                      Sequence[Literal], Sequence[Literal]]]
              ) -> str:
    """A hash of the world up to names: its domain and each problem's objects (by type), initial
    facts and goal, in problem order."""
    labels, edges = domain_graph(domain)
    for number, (objects, init, goal) in enumerate(problems):
        problem = f"P{number}"
        labels[problem] = f"problem{number}"
        for name, kind in objects:
            node = f"{problem}:o:{name}"
            labels[node] = "object"
            edges += [("in", problem, node), ("type", node, f"t:{kind}")]
        for part, facts in (("init", init), ("goal", goal)):
            for index, fact in enumerate(facts):
                use = f"{problem}:{part}{index}"
                labels[use] = part
                edges += [("fact", problem, use), ("of", use, f"p:{fact.predicate}")]
                edges += [(f"arg{i}", use, f"{problem}:o:{arg}") for i, arg in enumerate(fact.args)]
    colours = _refine(labels, edges)
    return _digest("\n".join(sorted(colours.values())))
