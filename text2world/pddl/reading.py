"""Every error in one pass: tarski stops at its first error, so when it fails, the domain's
s-expressions are read here to find the others (declared names, arities, variables, types),
and a '(' left open is found from what ended up inside it, so that the errors after it are
read from the text with its ')' put back. Linear in the tokens, which the input limits bound;
only run when tarski already failed, so a domain's validity is always tarski's verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from text2world.pddl.bounds import MAX_REPORTED_ISSUES, TOKEN
from text2world.pddl.issues import Issue, balance_error
from text2world.pddl.model import line_column

__all__ = ["unclosed_parenthesis", "all_errors"]

_CONNECTIVES = frozenset({"and", "or", "not", "imply", "when"})
_QUANTIFIERS = frozenset({"forall", "exists"})
_NUMERIC = frozenset({"increase", "decrease", "assign", "scale-up", "scale-down", "<", ">", "<=",
                      ">=", "=", "+", "-", "*", "/"})


def _tree(text: str) -> list:
    """Nested lists ``[offset, child, ...]`` with ``(token, offset)`` leaves (lower-cased)."""
    root: list = [0]
    stack = [root]
    for match in TOKEN.finditer(text):
        token = match.group()
        if token[0] == ";":
            continue
        if token == "(":
            node = [match.start()]
            stack[-1].append(node)
            stack.append(node)
        elif token == ")":
            if len(stack) > 1:
                stack.pop()
        else:
            stack[-1].append((token.lower(), match.start()))
    return root


def _head(node: list) -> str:
    return node[1][0] if len(node) > 1 and isinstance(node[1], tuple) else ""


def _typed_list(items: list) -> list[tuple[str, int, str | None, int]]:
    """(name, offset, type or None for 'either'/object, offset of the type) of a typed list."""
    result: list[tuple[str, int, str | None, int]] = []
    pending: list[tuple[str, int]] = []
    index = 0
    while index < len(items):
        item = items[index]
        if isinstance(item, tuple) and item[0] == "-" and index + 1 < len(items):
            parent = items[index + 1]
            kind = (parent[0], parent[1]) if isinstance(parent, tuple) else (None, parent[0])
            result.extend((name, offset, kind[0], kind[1]) for name, offset in pending)
            pending, index = [], index + 2
            continue
        if isinstance(item, tuple):
            pending.append(item)
        index += 1
    result.extend((name, offset, "object", offset) for name, offset in pending)
    return result


class _Checker:
    def __init__(self, text: str) -> None:
        self.text = text
        self.issues: list[Issue] = []
        self.parents: dict[str, str | None] = {"object": None}
        self.predicates: dict[str, list[str | None]] = {}
        self.functions: set[str] = set()
        self.constants: dict[str, str | None] = {}

    def add(self, category: str, message: str, offset: int, kind: str) -> None:
        line, column = line_column(self.text, offset)
        self.issues.append(Issue(category, message, line, column, kind))

    def subtype(self, child: str | None, parent: str | None) -> bool:
        if child is None or parent is None or parent == "object":
            return True
        seen = set()
        while child is not None and child not in seen:
            if child == parent:
                return True
            seen.add(child)
            child = self.parents.get(child)
        return False

    def check_type(self, type_name: str | None, offset: int) -> None:
        if type_name is not None and type_name not in self.parents:
            self.add("UndefinedType", f"type {type_name!r} is used but not declared in :types",
                     offset, "UndefinedSort")

    def run(self) -> list[Issue]:
        define = next((n for n in _tree(self.text)[1:]
                       if isinstance(n, list) and _head(n) == "define"), None)
        if define is None:
            return []
        sections = [n for n in define[2:] if isinstance(n, list)]
        for section in sections:
            if _head(section) == ":types":
                for name, offset, parent, _ in _typed_list(section[2:]):
                    if name in self.parents and name != "object":
                        self.add("DuplicateDefinition", f"type {name!r} is declared twice",
                                 offset, "DuplicateSortDefinition")
                    self.parents[name] = parent
        for section in sections:
            head = _head(section)
            if head == ":types":
                for _, _, parent, parent_offset in _typed_list(section[2:]):
                    self.check_type(parent, parent_offset)
            elif head == ":constants":
                for name, _, type_name, type_offset in _typed_list(section[2:]):
                    self.check_type(type_name, type_offset)
                    self.constants[name] = type_name
            elif head == ":predicates":
                for declaration in section[2:]:
                    name = _head(declaration) if isinstance(declaration, list) else ""
                    if not name:
                        continue
                    if name in self.predicates:
                        self.add("DuplicateDefinition", f"predicate {name!r} is declared twice",
                                 declaration[1][1], "DuplicatePredicateDefinition")
                    parameters = _typed_list(declaration[2:])
                    for _, _, type_name, type_offset in parameters:
                        self.check_type(type_name, type_offset)
                    self.predicates[name] = [p[2] for p in parameters]
            elif head == ":functions":
                self.functions.update(_head(d) for d in section[2:] if isinstance(d, list))
        actions: set[str] = set()
        for section in sections:
            if _head(section) == ":action" and len(section) > 2 and isinstance(section[2], tuple):
                name, offset = section[2]
                if name in actions:
                    self.add("DuplicateDefinition", f"action {name!r} is declared twice",
                             offset, "DuplicateActionDefinition")
                actions.add(name)
                self.action(section[3:])
        return self.issues

    def action(self, items: list) -> None:
        variables: dict[str, str | None] = {}
        bodies = []
        for index, item in enumerate(items):
            if not isinstance(item, tuple) or index + 1 >= len(items):
                continue
            value = items[index + 1]
            if item[0] == ":parameters" and isinstance(value, list):
                for name, _, type_name, type_offset in _typed_list(value[1:]):
                    self.check_type(type_name, type_offset)
                    variables[name] = type_name
            elif item[0] in (":precondition", ":effect") and isinstance(value, list):
                bodies.append(value)
        for body in bodies:
            self.formula(body, variables)

    def formula(self, node: list, variables: dict[str, str | None]) -> None:
        head = _head(node)
        if not head or head in _NUMERIC or head in self.functions:
            return
        if head in _CONNECTIVES:
            for child in node[2:]:
                if isinstance(child, list):
                    self.formula(child, variables)
            return
        if head in _QUANTIFIERS:
            inner = dict(variables)
            if len(node) > 2 and isinstance(node[2], list):
                for name, _, type_name, type_offset in _typed_list(node[2][1:]):
                    self.check_type(type_name, type_offset)
                    inner[name] = type_name
            for child in node[3:]:
                if isinstance(child, list):
                    self.formula(child, inner)
            return
        offset = node[1][1]
        if head not in self.predicates:
            self.add("Other", f"predicate {head!r} is used but not declared in :predicates",
                     offset, "UndefinedPredicate")
            return
        arguments = node[2:]
        expected = self.predicates[head]
        if len(arguments) != len(expected):
            self.add("TypeMismatch", f"predicate {head!r} takes {len(expected)} argument"
                     f"{'' if len(expected) == 1 else 's'} but is given {len(arguments)}",
                     offset, "ArityMismatch")
        for argument, parameter_type in zip(arguments, expected):
            if not isinstance(argument, tuple):
                continue
            name, where = argument
            if name.startswith("?"):
                if name not in variables:
                    self.add("UndefinedVariable", f"variable {name!r} is used but is not a "
                             "parameter or quantified variable", where, "UndefinedVariable")
                    continue
                actual = variables[name]
            elif name in self.constants:
                actual = self.constants[name]
            else:
                self.add("UndefinedConstant", f"{name!r} is used as a constant or object but "
                         "is not declared in :constants", where, "UndefinedConstant")
                continue
            if not self.subtype(actual, parameter_type):
                self.add("TypeMismatch", f"{name!r} of type {actual!r} is given where {head!r} "
                         f"expects {parameter_type!r}", where, "SortMismatch")


@dataclass(frozen=True)
class _Unclosed:
    """A '(' never closed, found from what ended up inside it: a section keyword inside a
    formula, a section inside a section, a list inside an atom. ``insert_at`` is where the
    missing ')' goes (after the text before the misplaced part, so no later position moves)."""

    opener: int
    head: str
    misplaced: str
    insert_at: int

    def issue(self, text: str) -> Issue:
        line, column = line_column(text, self.opener)
        return Issue("IncorrectParentheses", f"'({self.head}' is never closed: {self.misplaced!r} "
                     "ends up inside it (a ')' is missing before it)", line, column, "Unclosed")


def _misplaced(node: list) -> tuple | list | None:
    """The first child that cannot be inside ``node`` (only asked when the text is unbalanced)."""
    head = _head(node)
    if not head or head == "define":
        return None
    for child in node[2:]:
        if isinstance(child, tuple):
            if child[0].startswith(":") and not head.startswith(":"):
                return child  # ':effect' inside '(and', ':precondition' inside '(?x'
        elif _head(child).startswith(":"):
            return child  # '(:action' inside an action or a formula
        elif (not head.startswith(":") and head not in _CONNECTIVES and head not in _QUANTIFIERS
              and head not in _NUMERIC and _head(child) not in ("", "either")):
            return child  # '(clear ?x)' inside the declaration '(on ?x ?y'
    return None


@lru_cache(maxsize=8)
def unclosed_parenthesis(text: str) -> _Unclosed | None:
    """The '(' left open, when the parentheses do not balance and the structure shows which:
    of the nodes holding something they cannot hold, the one whose misplaced part comes first
    (an '(and' left open holds ':effect' before its action holds the next '(:action')."""
    balance = balance_error(text)
    if balance is None or balance.message.startswith("a ')'"):
        return None
    best: tuple[int, list, tuple | list] | None = None
    stack = [_tree(text)]
    while stack:
        node = stack.pop()
        stack.extend(child for child in node[1:] if isinstance(child, list))
        child = _misplaced(node)
        if child is not None:
            where = child[1] if isinstance(child, tuple) else child[0]
            if best is None or where < best[0]:
                best = (where, node, child)
    if best is None:
        return None
    where, node, child = best
    token = child[0] if isinstance(child, tuple) else "(" + _head(child)
    return _Unclosed(node[0], _head(node), token, len(text[:where].rstrip()))


_MAX_REPAIRS = 10  # missing parentheses closed, one after another, to read the errors after them


def _after_repair(text: str, revalidate: Callable[[str], tuple[Issue, ...]],
                  repairs: int) -> list[Issue]:
    """The errors of the text with the missing ')' put back, in the text's own positions."""
    unclosed = unclosed_parenthesis(text)
    if unclosed is None or repairs >= _MAX_REPAIRS:
        return []
    repaired = text[:unclosed.insert_at] + ")" + text[unclosed.insert_at:]
    line, column = line_column(text, unclosed.insert_at)
    found = []
    for issue in revalidate(repaired):
        if issue.kind == "LimitExceeded":  # the ')' put back took a text at a limit past it
            continue
        if issue.line == line and issue.column is not None and issue.column > column:
            issue = Issue(issue.category, issue.message, issue.line, issue.column - 1, issue.kind)
        found.append(issue)
    return found


def all_errors(text: str, first: Issue, revalidate: Callable[[str], tuple[Issue, ...]],
               repairs: int = 0) -> tuple[Issue, ...]:
    """tarski's error first (given a line from the reading when it had none), then every other
    error the reading finds, at most ``MAX_REPORTED_ISSUES``. After a '(' left open, the others
    are those ``revalidate`` finds in the text with that ')' put back (``repairs``: how many
    were put back before)."""
    if first.kind == "Unclosed":
        found = _after_repair(text, revalidate, repairs)
    else:
        try:
            found = _Checker(text).run()
        except RecursionError:  # cannot happen within MAX_NESTING_DEPTH; never hide tarski's error
            found = []
    if first.line is None:
        same = next((i for i in found if i.kind == first.kind), None)
        if same is not None:
            first = Issue(first.category, first.message, same.line, same.column, first.kind)
    errors = [first]
    for issue in found:
        if (issue.line, issue.column, issue.category) == (first.line, first.column,
                                                           first.category):
            continue
        if len(errors) >= MAX_REPORTED_ISSUES:
            errors.append(Issue("Other", f"more errors not listed (at most "
                                f"{MAX_REPORTED_ISSUES} are)", None, None, "MoreErrors"))
            break
        errors.append(issue)
    return tuple(errors)
