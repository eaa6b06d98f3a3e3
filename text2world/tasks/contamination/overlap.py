"""Contamination checks: token n-gram overlap between a gold domain and another text.

The method follows paper section 3.4 (after the Llama 2 contamination analysis): a gold token
is *contaminated* when it lies inside a reference n-gram (default n = 10) that matches some
n-gram of the candidate text with at most ``max_mismatches`` (default 4) mismatched tokens,
position by position. A domain's rate is contaminated tokens / counted tokens.

Tokenisation rules (``content_tokens``), the same for the gold domain and the candidate:

1. The text is cut into lexemes: maximal runs of characters other than whitespace,
   parentheses and ``;``. Parentheses and comment markers never count; comment words are
   ordinary lexemes (a model that memorised a domain also reproduces its comments).
2. Lexemes that are not counted, and are not part of any n-gram:
   - lexemes without a letter or digit (``-``, ``=``, ``...``);
   - variables: lexemes starting with ``?`` (``?x``, ``?from``);
   - keywords: every lexeme starting with ``:`` (``:action``, ``:parameters``, and all
     requirement names such as ``:strips`` or ``:negative-preconditions``) and the words in
     ``KEYWORDS`` (``define``, ``domain``, ``and``, ``not``, ``or``, ``forall``, ...), plus
     ``at start``/``at end``/``over all`` as pairs (a lone ``at`` is a predicate name and
     counts).
3. Every remaining lexeme is lower-cased (PDDL is case-insensitive) and split into GPT-2
   tokens (``text2world.store.tokens.gpt2_encoding``) as GPT-2 splits it after a single space;
   tokens without a letter or digit are dropped, so ``(robot-at ?x)`` yields `` robot``,
   ``at`` (the ``-`` separator occurs in nearly every name and would let unrelated texts
   match on separators alone). Layout (indentation, line breaks, spaces around parentheses)
   therefore never changes the tokens; the sequence is that of the text with comment
   markers, keywords, variables, parentheses and separators removed and single spaces
   between lexemes.

Texts with fewer than ``n`` counted tokens have no n-gram and never match (rate 0).

Matching is exact and efficient: by the pigeonhole principle, two n-grams with at most ``k``
mismatches agree exactly on at least one of ``k + 1`` disjoint blocks (for n=10, k=4: five
blocks of two tokens). One side's n-grams are indexed by each block (sorted 64-bit keys); the
other side's n-grams look up their blocks and only those hits are verified token by token. The
cost grows with the number of block hits, not with (n-grams x n-grams). ``compare_corpus``
indexes the store once and streams the corpus through it, so its time is near-linear in the
corpus size and its memory does not grow with it (bench/contamination_bench.py).

The model probe (``contamination_probe.probe``, ``t2w contamination --model``) gives a model the first 20 GPT-2
tokens of each gold domain, asks it to continue, and scores the continuation against the rest
of the gold domain (the prompt's own tokens are not counted: ``reference_start``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Iterable, Iterator, Sequence

import numpy as np

from text2world.errors import Text2WorldError
from text2world.store.tokens import gpt2_encoding, gpt2_tokens

DEFAULT_N = 10
DEFAULT_MAX_MISMATCHES = 4

# Words that are PDDL syntax rather than content. ':'-prefixed lexemes (sections and
# requirement names) are keywords by rule 2; they are listed here for documentation too.
KEYWORDS = frozenset({
    "define", "domain", "problem", "and", "not", "or", "imply", "forall", "exists", "when",
    "either", "object", "number", "increase", "decrease", "assign", "scale-up", "scale-down",
    "minimize", "maximize", "total-time", "preference", "always", "sometime", "within",
    "at-most-once", "sometime-after", "sometime-before", "always-within", "hold-during",
    "hold-after",
    # Section keywords and requirement names (covered by the ':' rule).
    ":domain", ":requirements", ":types", ":constants", ":predicates", ":functions",
    ":action", ":durative-action", ":derived", ":parameters", ":precondition", ":effect",
    ":condition", ":duration", ":objects", ":init", ":goal", ":metric", ":constraints",
    ":strips", ":typing", ":negative-preconditions", ":disjunctive-preconditions", ":equality",
    ":existential-preconditions", ":universal-preconditions", ":quantified-preconditions",
    ":conditional-effects", ":fluents", ":numeric-fluents", ":object-fluents", ":adl",
    ":durative-actions", ":duration-inequalities", ":continuous-effects",
    ":derived-predicates", ":timed-initial-literals", ":preferences", ":action-costs",
})
# Two-word temporal keywords; their words count when they appear alone.
_KEYWORD_PAIRS = {("at", "start"), ("at", "end"), ("over", "all")}

_WORD = re.compile(r"[^\s();]+")
_PAIR_STARTS = {first for first, _ in _KEYWORD_PAIRS}
_ALNUM = re.compile(r"[^\W_]")


# --------------------------------------------------------------------------------------------
# Tokenisation


@dataclass(frozen=True)
class TokenSequence:
    """The counted GPT-2 tokens of a text, with the character span of the lexeme of each."""

    text: str
    ids: np.ndarray  # int64 GPT-2 token ids
    starts: np.ndarray  # character offset where each token's lexeme starts
    ends: np.ndarray  # character offset where each token's lexeme ends

    def __len__(self) -> int:
        return len(self.ids)

    def strings(self) -> list[str]:
        encoding = gpt2_encoding()
        return [encoding.decode([int(token)]).strip() for token in self.ids]


def is_keyword(lexeme: str) -> bool:
    return lexeme.startswith(":") or lexeme.lower() in KEYWORDS


@lru_cache(maxsize=200_000)
def _lexeme_tokens(lexeme: str) -> tuple[int, ...]:
    # Punctuation-only tokens ('-' in 'robot-at', '_', '.') are dropped: they occur in nearly
    # every name and would let unrelated texts match on separators alone.
    encoding = gpt2_encoding()
    return tuple(token for token in gpt2_tokens(" " + lexeme) if _ALNUM.search(
        encoding.decode_single_token_bytes(token).decode("utf-8", "replace")))


def content_lexemes(text: str) -> list[tuple[str, int, int]]:
    """The counted lexemes of ``text`` as (lower-cased lexeme, start, end); rules 1-2 above."""
    # Parentheses and ';' never count, so only the words between them are matched at all.
    matches = list(_WORD.finditer(text))
    kept = []
    skip_next = False
    for index, match in enumerate(matches):
        if skip_next:
            skip_next = False
            continue
        word = match.group().lower()
        if word in _PAIR_STARTS and index + 1 < len(matches) and \
                (word, matches[index + 1].group().lower()) in _KEYWORD_PAIRS:
            skip_next = True
            continue
        if _counted(word):
            kept.append((word, match.start(), match.end()))
    return kept


@lru_cache(maxsize=200_000)
def _counted(word: str) -> bool:
    return not (word[0] in "?:" or word in KEYWORDS or not _ALNUM.search(word))


def content_tokens(text: str, start: int = 0) -> TokenSequence:
    """The counted GPT-2 tokens of ``text`` (module docstring, rules 1-3).

    ``start``: only lexemes starting at or after this character offset are kept (the probe
    uses it to leave out the prompt the model was given).
    """
    ids: list[int] = []
    starts: list[int] = []
    ends: list[int] = []
    for lexeme, lexeme_start, lexeme_end in content_lexemes(text):
        if lexeme_start < start:
            continue
        tokens = _lexeme_tokens(lexeme)
        ids.extend(tokens)
        starts.extend([lexeme_start] * len(tokens))
        ends.extend([lexeme_end] * len(tokens))
    return TokenSequence(text, np.asarray(ids, dtype=np.int64),
                         np.asarray(starts, dtype=np.int64), np.asarray(ends, dtype=np.int64))


def prefix_end(text: str, tokens: int = 20) -> int:
    """Character offset where the first ``tokens`` raw GPT-2 tokens of ``text`` end."""
    encoding = gpt2_encoding()
    head = encoding.decode_bytes(gpt2_tokens(text)[:tokens])
    return len(head.decode("utf-8", errors="ignore"))


def prefix(text: str, tokens: int = 20) -> str:
    """The first ``tokens`` GPT-2 tokens of ``text``, as text (the probe's prompt)."""
    return text[:prefix_end(text, tokens)]


# --------------------------------------------------------------------------------------------
# Matching engine


def _blocks(n: int, max_mismatches: int) -> list[tuple[int, int]]:
    """``max_mismatches + 1`` disjoint (offset, length) blocks covering an n-gram."""
    count = max_mismatches + 1
    base, extra = divmod(n, count)
    blocks, offset = [], 0
    for index in range(count):
        length = base + (1 if index < extra else 0)
        blocks.append((offset, length))
        offset += length
    return blocks


_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


def _block_keys(ids: np.ndarray, window_starts: np.ndarray, offset: int,
                length: int) -> np.ndarray:
    """A 64-bit key per window for tokens [start+offset, start+offset+length).

    Collisions only cost a verification (every hit is checked token by token).
    """
    keys = np.zeros(len(window_starts), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for position in range(offset, offset + length):
            keys = keys * _MULTIPLIER + ids[window_starts + position].astype(np.uint64)
    return keys


# Verified window pairs one comparison may cost. Repeated n-grams are compared once (below), so
# only texts built to defeat the block index come near it; they get a clear error, not an hour.
MAX_VERIFIED_PAIRS = 2_000_000  # real corpora: at most 250,000 per 200,000-token batch


class ComparisonTooLarge(Text2WorldError, ValueError):
    """Two texts whose comparison would exceed ``MAX_VERIFIED_PAIRS`` window pairs."""


def first_distinct(ids: np.ndarray, windows: np.ndarray, groups: np.ndarray, n: int) -> np.ndarray:
    """The windows whose n-gram has not occurred earlier in the same group (document).

    A repeated candidate n-gram can never be a better match than its first occurrence (the
    same mismatches, a later position), so dropping it changes no rate and no span, and a text
    repeating one phrase costs its distinct n-grams only, not (windows x windows).
    """
    if len(windows) == 0:
        return windows
    groups = groups.astype(np.uint64)
    with np.errstate(over="ignore"):
        keys = _block_keys(ids, windows, 0, n) * _MULTIPLIER + groups
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    representative = first[inverse.reshape(-1)]
    # A 64-bit key collision must not drop a different n-gram: compare with the representative.
    span = np.arange(n, dtype=np.int64)
    same = ((ids[windows[:, None] + span] == ids[windows[representative][:, None] + span])
            .all(axis=1) & (groups == groups[representative]))
    keep = ~same | (np.arange(len(windows)) == representative)
    return windows[keep]


class CandidateIndex:
    """The n-grams of one or more candidate texts, indexed by the exact-match blocks.

    ``distinct`` keeps only the first occurrence of each n-gram per document: right when the
    indexed side is the candidate (its positions only pick the best match), wrong when it is
    the reference (every reference position is counted).
    """

    def __init__(self, sequences: Sequence[TokenSequence], n: int = DEFAULT_N,
                 max_mismatches: int = DEFAULT_MAX_MISMATCHES, distinct: bool = False) -> None:
        check_parameters(n, max_mismatches)
        self.n = n
        self.max_mismatches = max_mismatches
        self.sequences = list(sequences)
        lengths = np.array([len(s) for s in self.sequences], dtype=np.int64)
        self.doc_starts = np.concatenate([[0], np.cumsum(lengths)])[:-1].astype(np.int64)
        self.ids = (np.concatenate([s.ids for s in self.sequences]).astype(np.int64)
                    if self.sequences else np.zeros(0, dtype=np.int64))
        # Windows never cross a document boundary.
        window_starts = [np.arange(start, start + length - n + 1, dtype=np.int64)
                         for start, length in zip(self.doc_starts, lengths) if length >= n]
        self.window_starts = (np.concatenate(window_starts) if window_starts
                              else np.zeros(0, dtype=np.int64))
        if distinct:
            self.window_starts = first_distinct(self.ids, self.window_starts,
                                                self.document_of(self.window_starts), n)
        self.blocks = _blocks(n, max_mismatches) if max_mismatches < n else []
        self.sorted_keys: list[np.ndarray] = []
        self.sorted_windows: list[np.ndarray] = []
        for offset, length in self.blocks:
            keys = _block_keys(self.ids, self.window_starts, offset, length)
            order = np.argsort(keys, kind="stable")
            self.sorted_keys.append(keys[order])
            self.sorted_windows.append(self.window_starts[order])

    def __len__(self) -> int:
        return len(self.sequences)

    def document_of(self, positions: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.doc_starts, positions, side="right") - 1

    def match(self, reference: TokenSequence,
              chunk: int = 2_000_000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every (reference window, indexed window) pair within the mismatch budget.

        Returns arrays (s, t, mismatches): s indexes ``reference``, t the concatenated
        indexed tokens (``document_of(t)`` gives the indexed document).
        """
        windows = np.arange(max(0, len(reference) - self.n + 1), dtype=np.int64)
        return self.match_windows(reference.ids.astype(np.int64), windows, chunk)

    def match_windows(self, query_ids: np.ndarray, query_windows: np.ndarray,
                      chunk: int = 2_000_000) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Like ``match`` for the n-grams of ``query_ids`` starting at ``query_windows`` (one
        or many query documents concatenated; the caller keeps windows inside documents)."""
        n = self.n
        empty = np.zeros(0, dtype=np.int64)
        if len(query_windows) == 0 or len(self.window_starts) == 0:
            return empty, empty, empty
        if not self.blocks:
            # More mismatches allowed than tokens: every pair of n-grams matches.
            # Pair each query window with the first window of each indexed document.
            firsts = self.window_starts[np.concatenate(
                [[True], self.document_of(self.window_starts[1:])
                 != self.document_of(self.window_starts[:-1])])]
            s = np.repeat(query_windows, len(firsts))
            t = np.tile(firsts, len(query_windows))
            return s, t, np.full(len(s), n, dtype=np.int64)
        found_s, found_t = [], []
        found_pairs = 0
        for (offset, length), keys, windows in zip(self.blocks, self.sorted_keys,
                                                   self.sorted_windows):
            query_keys = _block_keys(query_ids, query_windows, offset, length)
            low = np.searchsorted(keys, query_keys, side="left")
            high = np.searchsorted(keys, query_keys, side="right")
            counts = high - low
            total = int(counts.sum())
            if total == 0:
                continue
            found_pairs += total
            if found_pairs > MAX_VERIFIED_PAIRS:
                raise ComparisonTooLarge(
                    f"the texts share too many n-gram blocks to compare (more than "
                    f"{MAX_VERIFIED_PAIRS:,} window pairs, MAX_VERIFIED_PAIRS): they are "
                    "mostly the same few words; compare shorter or less repetitive texts")
            hit_s = np.repeat(query_windows, counts)
            # Positions low[i] .. high[i]-1 for each window, flattened without a Python loop.
            run_starts = np.repeat(low - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts)
            hit_t = windows[run_starts + np.arange(total)]
            found_s.append(hit_s)
            found_t.append(hit_t)
        if not found_s:
            return empty, empty, empty
        s_all = np.concatenate(found_s)
        t_all = np.concatenate(found_t)
        # A pair agreeing on several blocks was found several times; verify it once.
        base = len(self.ids) + 1
        pair_keys = np.unique(s_all * base + t_all)
        s_all, t_all = pair_keys // base, pair_keys % base
        span = np.arange(n, dtype=np.int64)
        rows = max(1, chunk // n)
        kept_s, kept_t, kept_m = [], [], []
        for begin in range(0, len(s_all), rows):
            s = s_all[begin:begin + rows]
            t = t_all[begin:begin + rows]
            mismatches = (query_ids[s[:, None] + span] != self.ids[t[:, None] + span]).sum(axis=1)
            ok = mismatches <= self.max_mismatches
            kept_s.append(s[ok])
            kept_t.append(t[ok])
            kept_m.append(mismatches[ok])
        return np.concatenate(kept_s), np.concatenate(kept_t), np.concatenate(kept_m)


# The store side of a comparison is indexed; the name says what the index holds, not a role.
NgramIndex = CandidateIndex


def check_parameters(n: int, max_mismatches: int) -> None:
    if not isinstance(n, (int, np.integer)) or n < 1:
        raise ValueError(f"n must be a positive integer, not {n!r}")
    if not isinstance(max_mismatches, (int, np.integer)) or max_mismatches < 0:
        raise ValueError(f"max_mismatches must be a non-negative integer, not {max_mismatches!r}")


# --------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True)
class Span:
    """A run of contaminated gold tokens and the candidate text it matched."""

    reference_start: int
    reference_end: int
    reference_text: str
    candidate_start: int
    candidate_end: int
    candidate_text: str
    tokens: int  # contaminated counted tokens in the run

    def to_dict(self) -> dict:
        return {"reference_start": self.reference_start, "reference_end": self.reference_end,
                "reference_text": self.reference_text, "candidate_start": self.candidate_start,
                "candidate_end": self.candidate_end, "candidate_text": self.candidate_text,
                "tokens": self.tokens}


@dataclass(frozen=True)
class Contamination:
    """``rate`` = contaminated / counted gold tokens; ``spans`` show what matched.

    Unpacks as ``rate, spans = contamination_rate(...)``.
    """

    rate: float
    contaminated: int
    counted: int
    spans: tuple[Span, ...] = field(default=())
    n: int = DEFAULT_N
    max_mismatches: int = DEFAULT_MAX_MISMATCHES

    def __iter__(self) -> Iterator:
        return iter((self.rate, self.spans))

    def to_dict(self, spans: bool = True) -> dict:
        data: dict[str, Any] = {"rate": self.rate, "contaminated": self.contaminated, "counted": self.counted,
                "n": self.n, "max_mismatches": self.max_mismatches}
        if spans:
            data["spans"] = [span.to_dict() for span in self.spans]
        return data


def _coverage(reference_length: int, window_starts: np.ndarray, n: int) -> np.ndarray:
    """Mask of reference tokens inside at least one matched window."""
    difference = np.zeros(reference_length + 1, dtype=np.int64)
    np.add.at(difference, window_starts, 1)
    np.add.at(difference, window_starts + n, -1)
    return np.cumsum(difference[:-1]) > 0


def build_result(reference: TokenSequence, candidate: TokenSequence, s: np.ndarray,
                 t_local: np.ndarray, mismatches: np.ndarray, n: int, max_mismatches: int,
                 with_spans: bool = True) -> Contamination:
    """A ``Contamination`` from matched window pairs (t indexes ``candidate``'s tokens)."""
    counted = len(reference)
    if counted == 0 or len(s) == 0:
        return Contamination(0.0, 0, counted, (), n, max_mismatches)
    covered = _coverage(counted, np.unique(s), n)
    contaminated = int(covered.sum())
    spans = _spans(reference, candidate, covered, s, t_local, mismatches, n) if with_spans else ()
    return Contamination(contaminated / counted, contaminated, counted, spans, n, max_mismatches)


def _spans(reference: TokenSequence, candidate: TokenSequence, covered: np.ndarray,
           s: np.ndarray, t: np.ndarray, mismatches: np.ndarray, n: int) -> tuple[Span, ...]:
    # One candidate window per reference window: the closest match, then the earliest.
    order = np.lexsort((t, mismatches, s))
    s, t = s[order], t[order]
    first = np.concatenate([[True], s[1:] != s[:-1]])
    best = dict(zip(s[first].tolist(), t[first].tolist()))
    spans = []
    index = 0
    length = len(covered)
    while index < length:
        if not covered[index]:
            index += 1
            continue
        end = index
        while end < length and covered[end]:
            end += 1
        # Candidate span: follow the diagonal of the first matched window of the run.
        windows = [w for w in range(max(0, index - n + 1), end) if w in best]
        diagonal = best[windows[0]] - windows[0]
        aligned = [w for w in windows if best[w] - w == diagonal] or windows[:1]
        cand_first = best[aligned[0]]
        cand_last = best[aligned[-1]] + n - 1
        ref_start, ref_end = int(reference.starts[index]), int(reference.ends[end - 1])
        cand_start = int(candidate.starts[cand_first])
        cand_end = int(candidate.ends[min(cand_last, len(candidate) - 1)])
        spans.append(Span(ref_start, ref_end, reference.text[ref_start:ref_end], cand_start,
                          cand_end, candidate.text[cand_start:cand_end], end - index))
        index = end
    return tuple(spans)


def contamination_rate(reference: str, candidate: str, n: int = DEFAULT_N,
                       max_mismatches: int = DEFAULT_MAX_MISMATCHES,
                       reference_start: int = 0) -> Contamination:
    """How much of ``reference`` (a gold domain) reappears in ``candidate``.

    A counted reference token is contaminated when it lies inside a reference n-gram that
    matches a candidate n-gram with at most ``max_mismatches`` mismatched tokens; the rate is
    contaminated / counted tokens (0.0 when nothing is counted). Tokens are counted by the
    rules in this module's docstring; ``reference_start`` skips reference text before that
    character offset (e.g. the prompt given to a model).

    >>> rate, spans = contamination_rate(gold, model_output)
    """
    check_parameters(n, max_mismatches)
    reference_tokens = content_tokens(reference, start=reference_start)
    candidate_tokens = content_tokens(candidate)
    index = CandidateIndex([candidate_tokens], n, max_mismatches, distinct=True)
    s, t, mismatches = index.match(reference_tokens)
    return build_result(reference_tokens, candidate_tokens, s, t, mismatches, n, max_mismatches)


# --------------------------------------------------------------------------------------------
# Corpus comparison


@dataclass(frozen=True)
class Overlap:
    """One (corpus item, store domain) pair with a non-zero rate."""

    item: str
    domain: str
    result: Contamination

    def to_dict(self, spans: bool = True) -> dict:
        return {"item": self.item, "domain": self.domain, **self.result.to_dict(spans)}


@dataclass(frozen=True)
class Comparison:
    items: tuple[str, ...]
    domains: tuple[str, ...]
    overlaps: tuple[Overlap, ...]  # every pair with a non-zero rate, highest rate first
    pairs: int  # item x domain pairs scored

    def best_per_item(self) -> dict[str, Overlap]:
        best: dict[str, Overlap] = {}
        for overlap in self.overlaps:
            best.setdefault(overlap.item, overlap)
        return best


def compare_corpus(corpus: Iterable[tuple[str, str]], references: Sequence[tuple[str, str]],
                   n: int = DEFAULT_N, max_mismatches: int = DEFAULT_MAX_MISMATCHES,
                   spans_for_top: int | None = None,
                   batch_tokens: int = 200_000) -> Comparison:
    """Score every corpus text against every reference (gold) domain.

    ``corpus`` and ``references`` are (name, text) pairs; ``corpus`` may be any iterable (a
    generator reading a large file). The references (the store: small) are indexed once; the
    corpus is streamed through the index in batches of about ``batch_tokens`` tokens, so time
    is near-linear in the corpus size and memory does not grow with it (only texts that
    overlap some domain are kept, for their spans). Spans are computed for the
    ``spans_for_top`` highest overlaps (all when None).
    """
    check_parameters(n, max_mismatches)
    reference_tokens = [content_tokens(text) for _, text in references]
    index = CandidateIndex(reference_tokens, n, max_mismatches)
    names: list[str] = []
    overlapping: dict[int, TokenSequence] = {}
    found: list[tuple[Contamination, int, int, np.ndarray, np.ndarray, np.ndarray]] = []
    batch: list[tuple[int, TokenSequence]] = []

    def flush() -> None:
        if not batch:
            return
        lengths = np.array([len(sequence) for _, sequence in batch], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
        ids = np.concatenate([sequence.ids for _, sequence in batch]).astype(np.int64)
        window_ranges = [np.arange(start, start + length - n + 1, dtype=np.int64)
                         for start, length in zip(starts, lengths) if length >= n]
        batch_items = list(batch)
        batch.clear()
        if not window_ranges:
            return
        windows = np.concatenate(window_ranges)
        windows = first_distinct(ids, windows, np.searchsorted(starts, windows, side="right"), n)
        q, t, mismatches = index.match_windows(ids, windows)
        if len(q) == 0:
            return
        item_of = np.searchsorted(starts, q, side="right") - 1
        domain_of = index.document_of(t)
        order = np.lexsort((domain_of, item_of))
        q, t, mismatches = q[order], t[order], mismatches[order]
        item_of, domain_of = item_of[order], domain_of[order]
        cut = np.flatnonzero((np.diff(item_of) != 0) | (np.diff(domain_of) != 0)) + 1
        for group in np.split(np.arange(len(q)), cut):
            position, domain = int(item_of[group[0]]), int(domain_of[group[0]])
            item, candidate = batch_items[position]
            # The gold domain is the reference: its windows are the indexed side (t).
            s_gold = t[group] - index.doc_starts[domain]
            t_item = q[group] - starts[position]
            result = build_result(reference_tokens[domain], candidate, s_gold, t_item,
                                  mismatches[group], n, max_mismatches, with_spans=False)
            found.append((result, item, domain, s_gold, t_item, mismatches[group]))
            overlapping[item] = candidate

    pending = 0
    for name, text in corpus:
        sequence = content_tokens(text)
        batch.append((len(names), sequence))
        names.append(name)
        pending += len(sequence)
        if pending >= batch_tokens:
            flush()
            pending = 0
    flush()
    found.sort(key=lambda entry: (-entry[0].rate, names[entry[1]], references[entry[2]][0]))
    overlaps = []
    for rank, (result, item, domain, s_gold, t_item, mismatches) in enumerate(found):
        if spans_for_top is None or rank < spans_for_top:
            result = build_result(reference_tokens[domain], overlapping[item], s_gold, t_item,
                                  mismatches, n, max_mismatches)
        overlaps.append(Overlap(names[item], references[domain][0], result))
    return Comparison(tuple(names), tuple(name for name, _ in references), tuple(overlaps),
                      len(names) * len(references))


def mean_rate(results: Sequence[Contamination]) -> float:
    return float(np.mean([r.rate for r in results])) if results else 0.0
