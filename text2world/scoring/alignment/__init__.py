"""Alignment of vocabularies: map a predicted domain's names onto the gold domain's.

A model that writes ``pick-up`` for the gold's ``pickup``, ``Block`` for ``block`` or invents its
own names for everything still describes the same world. ``align(gold, predicted)`` maps the
prediction's types, predicates, actions and constants onto the gold's, one to one, in four steps:

1. exact names are matched first, and a confidence of 1.0;
2. then names equal after normalisation (case, ``-``/``_``/camelCase, word order, plural and verb
   endings, ``is-``/``has-`` prefixes), where the normal form is unique on both sides: 0.95;
3. the rest by structure, solved as an optimal assignment (``scipy.optimize.linear_sum_assignment``)
   per kind over a score mixing a fuzzy name similarity with structural similarity:
   types by their place in the hierarchy and where they are used, predicates by arity, parameter
   types and where they occur (precondition, negated precondition, add, delete, condition) in
   which action with which parameters, actions by parameter types and the literals they test, add
   and delete. Types come first, then predicates and actions inform each other for two rounds
   (the first round uses anonymous usage profiles and Weisfeiler-Lehman colours of the graph of
   types, predicates and actions, later rounds the mappings found so far);
4. a pair scoring below ``THRESHOLD`` stays unmapped. The confidence of an assigned pair is its
   score. Alternating rounds can settle on a consistent but wrong choice among near-symmetric
   names, so exchanges of partners that tied in the first round are tried and kept when more
   parameter types and literals agree.

A gold without types (all its parameters are ``object``) takes every predicted type as ``object``:
``Alignment.gold_untyped`` says so and the type mapping sends each predicted type to ``object``.

Argument positions: for each mapped predicate of arity 2 to 4, every order of its arguments is
tried and the one that agrees best with the gold (parameter types, arguments of its atoms in
mapped actions) is kept when strictly better than the written one
(``Alignment.argument_orders``); ``translate`` reorders the declaration and every atom. A
prediction that swaps the arguments in one action only keeps them as written, so that action
is scored as different. Action parameters likewise (``Alignment.parameter_orders``: every
order up to ``MAX_PERMUTED_PARAMETERS``, past it a greedy placement then pairwise exchanges, up
to ``MAX_ORDERED_PARAMETERS``); the two kinds of order are decided jointly (``orders.py``) and
later rounds compare literals with positions put back. Predicates left unmatched on both sides
are retried with their arguments in every order (renamed *and* swapped). Typing written the
other way (a type for an untyped gold's unary static predicate, or the reverse) is matched in
``typing_predicates.py`` (``Alignment.type_predicates``); when one side is typed and the other
not, the untyped side is also matched with those predicates read as types, and the matching
that maps more gold actions is kept. The first round's pairs are seeds (kept above
``SEED_THRESHOLD`` as context for later rounds, reported only at ``THRESHOLD``).
Predicted predicates no action uses take no partner by structure.

Work is bounded: the feature sets are linear in the domain's size (context features of a
disjunct or conditional effect are capped by ``MAX_CONTEXT``), each kind's score matrix is
(predicted names x gold names) left after the name rules, computed as sparse products over a
shared feature vocabulary, the assignment is cubic in those names, the rounds and exchanges are
fixed in number (``ROUNDS``, ``MAX_SWAPS``), and a kind with more than ``MAX_PAIRS`` pairs left
is matched by name only (said in ``Alignment.notes``). The domain parser already bounds the
input (``pddl.MAX_DOMAIN_CHARS``).
"""

from text2world.scoring.alignment.matching import (
    EXACT_CONFIDENCE,
    MAX_PAIRS,
    MAX_SWAPS,
    NORMALISED_CONFIDENCE,
    ROUNDS,
    SWAP_GAP,
    THRESHOLD,
    align,
)
from text2world.scoring.alignment.names import name_keys, name_tokens
from text2world.scoring.alignment.orders import MAX_ORDERED_PARAMETERS, MAX_PERMUTED_ARITY, MAX_PERMUTED_PARAMETERS
from text2world.scoring.alignment.result import KINDS, UNMAPPED_PREFIX, Alignment, FrozenMap

__all__ = ["Alignment", "FrozenMap", "KINDS", "UNMAPPED_PREFIX", "align", "name_keys",
           "name_tokens", "EXACT_CONFIDENCE", "NORMALISED_CONFIDENCE", "THRESHOLD", "ROUNDS",
           "MAX_PAIRS", "MAX_SWAPS", "SWAP_GAP", "MAX_PERMUTED_ARITY",
           "MAX_PERMUTED_PARAMETERS", "MAX_ORDERED_PARAMETERS"]
