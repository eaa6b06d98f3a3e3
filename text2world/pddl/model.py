"""The PDDL domain model: small immutable dataclasses, built from tarski's parse, printable back.

tarski does the parsing (with ``raise_on_error=True``: its default silently recovers from broken
files). This module guards tarski against pathological input, converts its objects into plain
frozen dataclasses and prints them back to PDDL, so that ``parse_domain(domain.to_pddl())``
gives back an equal ``Domain``.
"""

from __future__ import annotations

import os
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable, Iterable, Iterator, Union

# The input limits and their linear-time checks live in bounds.py (re-exported here).
from text2world.pddl.bounds import (  # noqa: F401
    MAX_DOMAIN_CHARS,
    MAX_NESTING_DEPTH,
    DomainInputError,
    check_domain_text,
    decode_domain_bytes,
    line_column,
)

__all__ = [
    "strip_comments_released", "strip_comments", "TarskiReader", "tarski_parse",
    "folding_can_change_parse", "TypedName", "Atom", "Truth", "Not", "And", "Or", "Quantified",
    "Formula", "AddEffect", "DeleteEffect", "ConditionalEffect", "ForallEffect",
    "FunctionEffect", "Effect", "iter_formula", "iter_literals", "iter_atoms", "map_formula",
    "iter_effects", "VARIABLE", "Predicate", "Action", "Domain", "term_from_tarski",
    "formula_from_tarski", "domain_from_tarski", "DOMAINS_MAX_ENTRIES", "parse_domain",
    "DomainInputError", "line_column", "decode_domain_bytes", "check_domain_text",
    "MAX_NESTING_DEPTH",
]

# --------------------------------------------------------------------------------------------
# Text helpers


def strip_comments_released(text: str) -> str:
    """Remove ``;`` comments exactly as the released Text2World pipeline does, in linear time.

    The released code loops ``re.search(r";(.*)\\n", text)`` and cuts each match up to its
    newline, re-scanning from the start each time (quadratic). The leftmost match is always the
    first ``;`` of the first line that has one and ends in ``\\n``, so the result is: every line
    followed by a newline is cut at its first ``;``.
    Quirk reproduced: a comment on the last line of a text without a trailing newline is kept.
    """
    if ";" not in text:
        return text
    lines = text.split("\n")
    for index in range(len(lines) - 1):  # the last piece has no newline after it: kept
        cut = lines[index].find(";")
        if cut >= 0:
            lines[index] = lines[index][:cut]
    return "\n".join(lines)


def strip_comments(text: str) -> str:
    """Remove every ``;`` comment, including one on a last line without a newline."""
    return re.sub(r";[^\n]*", "", text)


# --------------------------------------------------------------------------------------------
# tarski bridge

# A ``tarski.io.PDDLReader`` holding a parsed domain (tarski has no type hints); tarski's terms,
# formulas and effects come in as ``Any`` too.
TarskiReader = Any


def tarski_parse(text: str, *, case_insensitive: bool = False) -> TarskiReader:
    """Parse a domain with tarski (``raise_on_error=True``) and return the tarski reader.

    Raises ``DomainInputError`` for input rejected before parsing and whatever tarski raises
    for a malformed domain. ``RecursionError`` is turned into ``DomainInputError`` too.
    """
    check_domain_text(text)
    from text2world.pddl.tarski_cache import domain_reader

    def parse(source: str) -> TarskiReader:
        try:
            return domain_reader(source)  # parsed once per process, a fresh reader each time
        except RecursionError:
            raise DomainInputError("the domain is nested too deeply to parse",
                                   category="IncorrectParentheses") from None

    if not case_insensitive:
        return parse(text)
    # tarski's own case_insensitive flag only applies to files; lower-casing keeps every
    # position the same, so error lines and columns still point into the original text.
    folded = text.lower()
    if folded == text:
        return parse(text)
    try:
        return parse(folded)
    except Exception as folded_error:
        # Folding can itself break a domain tarski accepts as written (a type named
        # 'Object' next to the built-in 'object'): then the text as written counts.
        if not folding_can_change_parse(text):
            raise  # the text as written fails the same way: no second parse
        try:
            return parse(text)
        except Exception:
            raise folded_error from None


_LETTERS = re.compile(r"[A-Za-z]+")


@cache
def _reserved_letter_runs() -> frozenset[str]:
    """Lower-case letter runs of every word tarski treats specially: its grammar's keywords
    (case-sensitive literals and case-insensitive K_* rules), built-in sorts, predicates and
    functions, and names its reader looks for (total-cost, total-time)."""
    words = {"and", "not", "or", "imply", "exists", "forall", "when", "init", "precondition",
             "effect", "define", "action", "increase", "decrease", "scale-up", "scale-down",
             "int", "float", "object", "number", "total-cost", "total-time", "either",
             "domain", "problem", "real", "integer", "natural"}
    try:
        from tarski.io._fstrips.parser.lexer import fstripsLexer

        words.update(name.strip("'") for name in fstripsLexer.literalNames)
    except ImportError:  # pragma: no cover - tarski is a dependency
        pass
    for group in _builtin_symbols():
        words.update(group)
    return frozenset(run.lower() for word in words for run in _LETTERS.findall(word))


def folding_can_change_parse(text: str) -> bool:
    """Whether tarski might accept ``text`` as written yet reject ``text.lower()`` (or the
    reverse), in linear time. False only when lower-casing renames identifiers one-to-one
    and touches no keyword or built-in name: every maximal run of ASCII letters that has an
    upper-case letter folds to a run that no other run of the text folds to, that is no
    letter run of a reserved word, and does not follow a ':' (requirement and section
    keys). Two tokens that fold together differ in the case of some letter run, so none do;
    the parse as written is then the folded parse with names renamed, and fails alike."""
    if not text.isascii():
        return True  # non-ASCII lower-casing may change lengths and letters tarski reads
    reserved = _reserved_letter_runs()
    spellings: dict[str, str] = {}
    for match in _LETTERS.finditer(text):
        run = match.group()
        folded = run.lower()
        seen = spellings.setdefault(folded, run)
        if seen != run:
            return True  # two spellings of one folded run
        if folded != run and (folded in reserved
                              or (match.start() and text[match.start() - 1] == ":")):
            return True
    return False


@cache
def _builtin_symbols() -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """Names tarski defines itself (sorts, predicates, functions of its theories)."""
    reader = tarski_parse(
        "(define (domain builtins) (:requirements :action-costs) (:predicates))")
    language = reader.problem.language
    sorts = frozenset(str(s.name) for s in language.sorts)
    predicates = frozenset(str(p.symbol) for p in language.predicates)
    functions = frozenset(str(f.symbol) for f in language.functions)
    return sorts, predicates, functions


# --------------------------------------------------------------------------------------------
# The model


@dataclass(frozen=True)
class TypedName:
    """A variable, parameter or constant with its type (``object`` when untyped)."""

    name: str
    type: str = "object"

    def to_pddl(self) -> str:
        return f"{self.name} - {self.type}"


@dataclass(frozen=True)
class Atom:
    predicate: str
    args: tuple[str, ...] = ()

    def to_pddl(self) -> str:
        return "(" + " ".join((self.predicate, *self.args)) + ")"


@dataclass(frozen=True)
class Truth:
    """The empty precondition ``(and)``."""

    def to_pddl(self) -> str:
        return "(and)"


@dataclass(frozen=True)
class Not:
    formula: "Formula"

    def to_pddl(self) -> str:
        return f"(not {self.formula.to_pddl()})"


@dataclass(frozen=True)
class And:
    parts: tuple["Formula", ...]

    def to_pddl(self) -> str:
        return "(and " + " ".join(p.to_pddl() for p in self.parts) + ")"


@dataclass(frozen=True)
class Or:
    parts: tuple["Formula", ...]

    def to_pddl(self) -> str:
        return "(or " + " ".join(p.to_pddl() for p in self.parts) + ")"


@dataclass(frozen=True)
class Quantified:
    quantifier: str  # "forall" | "exists"
    variables: tuple[TypedName, ...]
    body: "Formula"

    def to_pddl(self) -> str:
        variables = " ".join(v.to_pddl() for v in self.variables)
        return f"({self.quantifier} ({variables}) {self.body.to_pddl()})"


Formula = Union[Atom, Truth, Not, And, Or, Quantified]


@dataclass(frozen=True)
class AddEffect:
    atom: Atom

    def to_pddl(self) -> str:
        return self.atom.to_pddl()


@dataclass(frozen=True)
class DeleteEffect:
    atom: Atom

    def to_pddl(self) -> str:
        return f"(not {self.atom.to_pddl()})"


@dataclass(frozen=True)
class ConditionalEffect:
    condition: Formula
    effect: "Effect"

    def to_pddl(self) -> str:
        return f"(when {self.condition.to_pddl()} {self.effect.to_pddl()})"


@dataclass(frozen=True)
class ForallEffect:
    variables: tuple[TypedName, ...]
    effects: tuple["Effect", ...]

    def to_pddl(self) -> str:
        variables = " ".join(v.to_pddl() for v in self.variables)
        body = " ".join(e.to_pddl() for e in self.effects)
        return f"(forall ({variables}) (and {body}))"


@dataclass(frozen=True)
class FunctionEffect:
    """``(assign (f ?x) v)`` or ``(increase (total-cost) 3)`` on a function term."""

    operation: str  # "assign" | "increase"
    term: str
    value: str

    def to_pddl(self) -> str:
        return f"({self.operation} {self.term} {self.value})"


Effect = Union[AddEffect, DeleteEffect, ConditionalEffect, ForallEffect, FunctionEffect]


# --------------------------------------------------------------------------------------------
# Traversal: the one place that knows which node kinds have children. The iterators keep an
# explicit stack (a ``yield from`` chain costs its depth on every item).


def _children(formula: Formula) -> tuple[Formula, ...]:
    if isinstance(formula, (And, Or)):
        return formula.parts
    if isinstance(formula, Not):
        return (formula.formula,)
    if isinstance(formula, Quantified):
        return (formula.body,)
    return ()  # Atom, Truth


def iter_formula(formula: Formula) -> Iterator[Formula]:
    """Every sub-formula of ``formula``, itself first, in pre-order (parts left to right)."""
    stack = [formula]
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (And, Or)):
            stack.extend(reversed(node.parts))
        elif isinstance(node, Not):
            stack.append(node.formula)
        elif isinstance(node, Quantified):
            stack.append(node.body)


def iter_literals(formula: Formula) -> Iterator[tuple[Atom, bool]]:
    """Every atom of ``formula`` in pre-order with its polarity: ``False`` under an odd number
    of ``Not`` (whatever ``And``, ``Or`` and quantifiers lie between)."""
    stack: list[tuple[Formula, bool]] = [(formula, True)]
    while stack:
        node, positive = stack.pop()
        if isinstance(node, Atom):
            yield node, positive
        elif isinstance(node, Not):
            stack.append((node.formula, not positive))
        else:
            stack.extend((child, positive) for child in reversed(_children(node)))


def iter_atoms(formula: Formula) -> Iterator[Atom]:
    """Every atom of ``formula`` in pre-order (repeats kept), whatever its polarity."""
    for node in iter_formula(formula):
        if isinstance(node, Atom):
            yield node


def map_formula(formula: Formula, fn: Callable[[Formula], Formula]) -> Formula:
    """``formula`` rebuilt bottom-up: each node gets its children mapped first, then ``fn`` is
    applied to the node rebuilt from them (``fn`` returns the node itself to keep it).
    A node whose children all come back unchanged is passed to ``fn`` as it was."""
    # Recursive like the walkers it replaced: a parsed formula nests at most MAX_NESTING_DEPTH
    # deep, and recursion costs half what an explicit stack does on the usual small formulas.
    if isinstance(formula, (And, Or)):
        parts = tuple(map_formula(part, fn) for part in formula.parts)
        if any(new is not old for new, old in zip(parts, formula.parts)):
            formula = And(parts) if isinstance(formula, And) else Or(parts)
    elif isinstance(formula, Not):
        inner = map_formula(formula.formula, fn)
        if inner is not formula.formula:
            formula = Not(inner)
    elif isinstance(formula, Quantified):
        body = map_formula(formula.body, fn)
        if body is not formula.body:
            formula = Quantified(formula.quantifier, formula.variables, body)
    return fn(formula)


def iter_effects(effects: Iterable[Effect]) -> Iterator[tuple[Effect, tuple[Formula, ...]]]:
    """Every effect node in pre-order (a ``ConditionalEffect`` or ``ForallEffect`` before what it
    wraps), each with the conditions of each ``ConditionalEffect`` around it, outermost
    first. The leaves (add, delete, function effects) are the effects that change a state."""
    stack: list[tuple[Effect, tuple[Formula, ...]]] = [(e, ()) for e in reversed(tuple(effects))]
    while stack:
        effect, conditions = stack.pop()
        yield effect, conditions
        if isinstance(effect, ConditionalEffect):
            stack.append((effect.effect, (*conditions, effect.condition)))
        elif isinstance(effect, ForallEffect):
            stack.extend((inner, conditions) for inner in reversed(effect.effects))


VARIABLE = re.compile(r"\?[^\s()]+")  # a variable in printed PDDL


def _canonical_variables(text: str) -> str:
    """One printed predicate or action with its variables renamed ``?v0``, ``?v1``, ... in
    order of first appearance (a bijection: scopes and shadowing are kept)."""
    names: dict[str, str] = {}
    return VARIABLE.sub(lambda m: names.setdefault(m.group(0), f"?v{len(names)}"), text)


@dataclass(frozen=True)
class Predicate:
    name: str
    parameters: tuple[TypedName, ...] = ()

    def to_pddl(self) -> str:
        return "(" + " ".join((self.name, *(p.to_pddl() for p in self.parameters))) + ")"


@dataclass(frozen=True)
class Function:
    name: str
    parameters: tuple[TypedName, ...] = ()
    type: str = "number"

    def to_pddl(self) -> str:
        inner = " ".join((self.name, *(p.to_pddl() for p in self.parameters)))
        return f"({inner}) - {self.type}"


@dataclass(frozen=True)
class Action:
    name: str
    parameters: tuple[TypedName, ...]
    precondition: Formula
    effects: tuple[Effect, ...]

    def to_pddl(self) -> str:
        params = " ".join(p.to_pddl() for p in self.parameters)
        effects = " ".join(e.to_pddl() for e in self.effects)
        return (f"  (:action {self.name}\n"
                f"    :parameters ({params})\n"
                f"    :precondition {self.precondition.to_pddl()}\n"
                f"    :effect (and {effects}))")


@dataclass(frozen=True)
class Domain:
    name: str
    requirements: tuple[str, ...] = ()
    types: tuple[TypedName, ...] = ()  # (type, parent)
    constants: tuple[TypedName, ...] = ()
    predicates: tuple[Predicate, ...] = ()
    functions: tuple[Function, ...] = ()
    actions: tuple[Action, ...] = ()
    _by_name: dict | None = field(default=None, init=False, repr=False, compare=False, hash=False)

    @property
    def typed(self) -> bool:
        return bool(self.types) or any(
            p.type != "object" for pr in self.predicates for p in pr.parameters)

    def action(self, name: str) -> Action | None:
        by_name = self._by_name
        if by_name is None:
            by_name = {a.name: a for a in self.actions}
            object.__setattr__(self, "_by_name", by_name)
        return by_name.get(name)

    def to_pddl(self, *, canonical_variables: bool = False) -> str:
        """The domain as PDDL. With ``canonical_variables`` every predicate's and action's
        variables are renamed ``?v0``, ``?v1``, ... in order of first appearance, so domains
        equal up to a consistent renaming of variables print the same text."""
        rename = _canonical_variables if canonical_variables else (lambda text: text)
        lines = [f"(define (domain {self.name})"]
        if self.requirements:
            lines.append("  (:requirements " + " ".join(self.requirements) + ")")
        if self.types:
            lines.append("  (:types " + " ".join(t.to_pddl() for t in self.types) + ")")
        if self.constants:
            lines.append("  (:constants " + " ".join(c.to_pddl() for c in self.constants) + ")")
        lines.append("  (:predicates "
                     + " ".join(rename(p.to_pddl()) for p in self.predicates) + ")")
        if self.functions:
            lines.append("  (:functions "
                         + " ".join(rename(f.to_pddl()) for f in self.functions) + ")")
        lines.extend(rename(a.to_pddl()) for a in self.actions)
        return "\n".join(lines) + ")\n"


# --------------------------------------------------------------------------------------------
# Conversion from tarski objects


def term_from_tarski(term: Any) -> str:
    from tarski.syntax import CompoundTerm, Constant, Variable

    if isinstance(term, (Variable, Constant)):
        return str(term.symbol)
    if isinstance(term, CompoundTerm):
        return "(" + " ".join((str(term.symbol.symbol), *(term_from_tarski(t) for t in term.subterms))) + ")"
    return str(term)


def _typed(variable: Any) -> TypedName:
    return TypedName(str(variable.symbol), str(variable.sort.name))


def formula_from_tarski(formula: Any) -> Formula:
    from tarski.syntax import Atom as TAtom
    from tarski.syntax import CompoundFormula, Connective, QuantifiedFormula, Tautology

    if isinstance(formula, TAtom):
        return Atom(str(formula.predicate.symbol), tuple(term_from_tarski(t) for t in formula.subterms))
    if isinstance(formula, Tautology):
        return Truth()
    if isinstance(formula, CompoundFormula):
        parts = tuple(formula_from_tarski(f) for f in formula.subformulas)
        if formula.connective == Connective.Not:
            return Not(parts[0])
        if formula.connective == Connective.And:
            return And(parts)
        return Or(parts)
    if isinstance(formula, QuantifiedFormula):
        return Quantified(str(formula.quantifier), tuple(_typed(v) for v in formula.variables),
                          formula_from_tarski(formula.formula))
    raise ValueError(f"unsupported formula {formula!s}")


def _effect_atom(atom: Any) -> Atom:
    """The atom of a tarski add or delete effect (always an atom there)."""
    result = formula_from_tarski(atom)
    if not isinstance(result, Atom):
        raise ValueError(f"unsupported effect atom {atom!s}")
    return result


def _effect(effect: Any) -> Effect:
    from tarski.fstrips import AddEffect as TAdd
    from tarski.fstrips import DelEffect as TDel
    from tarski.fstrips import FunctionalEffect, IncreaseEffect, UniversalEffect
    from tarski.syntax import Tautology

    if isinstance(effect, UniversalEffect):
        inner: Effect = ForallEffect(tuple(_typed(v) for v in effect.variables),
                                     tuple(_effect(e) for e in effect.effects))
    elif isinstance(effect, TAdd):
        inner = AddEffect(_effect_atom(effect.atom))
    elif isinstance(effect, TDel):
        inner = DeleteEffect(_effect_atom(effect.atom))
    elif isinstance(effect, FunctionalEffect):
        operation = "increase" if isinstance(effect, IncreaseEffect) else "assign"
        inner = FunctionEffect(operation, term_from_tarski(effect.lhs), _number(effect.rhs))
    else:
        raise ValueError(f"unsupported effect {effect!s}")
    if isinstance(effect.condition, Tautology):
        return inner
    return ConditionalEffect(formula_from_tarski(effect.condition), inner)


_NUMERIC_SORTS = frozenset({"Real", "Integer", "Natural", "number"})


def domain_from_tarski(reader: TarskiReader) -> Domain:
    """Build the immutable ``Domain`` from a tarski reader that parsed a domain."""
    builtin_sorts, builtin_predicates, builtin_functions = _builtin_symbols()
    problem = reader.problem
    language = problem.language
    types = tuple(
        TypedName(str(s.name), str(language.immediate_parent[s].name))
        for s in language.sorts if s.name not in builtin_sorts)
    constants = tuple(TypedName(str(c.symbol), str(c.sort.name)) for c in language.constants()
                      if c.sort.name not in _NUMERIC_SORTS)

    def signature(symbol: Any) -> tuple[TypedName, ...]:
        domain = symbol.domain
        return tuple(TypedName(f"?x{i}", str(s.name)) for i, s in enumerate(domain))

    predicates = tuple(Predicate(str(p.symbol), signature(p)) for p in language.predicates
                       if str(p.symbol) not in builtin_predicates)
    functions = tuple(Function(str(f.symbol), signature(f),
                               "number" if f.codomain.name in _NUMERIC_SORTS else str(f.codomain.name))
                      for f in language.functions
                      if str(f.symbol) not in builtin_functions)
    actions = []
    for name, action in problem.actions.items():
        effects = [_effect(e) for e in action.effects]
        # tarski folds (increase (total-cost) x) into the action's cost, and gives every other
        # action of the domain a cost of 0, which we drop again.
        cost = _number(action.cost.addend) if action.cost is not None else "0"
        if cost != "0":
            effects.append(FunctionEffect("increase", "(total-cost)", cost))
        actions.append(Action(str(name), tuple(_typed(p) for p in action.parameters),
                              formula_from_tarski(action.precondition), tuple(effects)))
    return Domain(name=str(problem.domain_name), requirements=tuple(sorted(reader.parser.requirements)),
                  types=types, constants=constants, predicates=predicates, functions=functions,
                  actions=tuple(actions))


def _number(term: Any) -> str:
    value = str(term)
    try:
        number = float(value)
    except ValueError:
        return term_from_tarski(term)
    return str(int(number)) if number.is_integer() else value


# Domains parsed, per process: a round's answer is parsed into a ``Domain`` by canonical and by
# semantic scoring, a gold by its canonical view and its semantic side. A ``Domain`` is
# immutable, so every caller can share it; bounded like the parse trees (``tarski_cache``), in
# entries and in the characters of the texts, least recently used out first.
_DOMAINS: OrderedDict[tuple[str, bool], Domain] = OrderedDict()
_DOMAINS_CHARS = 0
_DOMAINS_LOCK = threading.Lock()
DOMAINS_MAX_ENTRIES = 256
DOMAINS_MAX_CHARS = 500_000


def _new_domains_lock() -> None:  # a forked child never inherits a lock another thread held
    global _DOMAINS_LOCK
    _DOMAINS_LOCK = threading.Lock()


os.register_at_fork(after_in_child=_new_domains_lock)


def parse_domain(text: str, *, case_insensitive: bool = True) -> Domain:
    """Parse PDDL text into a ``Domain``. Names are case-folded unless told otherwise.
    Valid PDDL tarski refuses (no ``:precondition``, a subtype declared before its parent) is
    rewritten first (``pddl.normalise``). The same text gives the same (shared, immutable)
    ``Domain`` again without parsing (``_DOMAINS``); a text that fails is parsed again (its
    tree is cached: ``tarski_cache``) and fails alike."""
    global _DOMAINS_CHARS
    key = (text, case_insensitive)
    with _DOMAINS_LOCK:
        found = _DOMAINS.get(key) if isinstance(text, str) else None
        if found is not None:
            _DOMAINS.move_to_end(key)
            return found
    domain = _parse_domain(text, case_insensitive)
    with _DOMAINS_LOCK:
        if key not in _DOMAINS and len(text) <= DOMAINS_MAX_CHARS:
            _DOMAINS[key] = domain
            _DOMAINS_CHARS += len(text)
            while len(_DOMAINS) > DOMAINS_MAX_ENTRIES or _DOMAINS_CHARS > DOMAINS_MAX_CHARS:
                (old, _), _ = _DOMAINS.popitem(last=False)
                _DOMAINS_CHARS -= len(old)
    return domain


def _parse_domain(text: str, case_insensitive: bool) -> Domain:
    from text2world.pddl.normalise import normalise_for_tarski

    text = normalise_for_tarski(text)
    folded = text.lower()
    if not case_insensitive or folded == text:
        return domain_from_tarski(tarski_parse(text))
    try:
        return domain_from_tarski(tarski_parse(folded))
    except Exception as folded_error:
        # Folding can break a domain tarski accepts as written (a type named 'Object' next
        # to the built-in 'object'); its printed form is clean PDDL that folds, so fold that.
        if not folding_can_change_parse(text):
            raise  # the text as written fails the same way: no second parse
        try:
            reader = tarski_parse(text)
        except Exception:
            raise folded_error from None
        return domain_from_tarski(tarski_parse(domain_from_tarski(reader).to_pddl().lower()))
