"""Intervals and paired tests over per-item scores: what a reviewer asks of a benchmark table.

* ``bootstrap_mean``: the mean with a 95% percentile-bootstrap interval. Items are resampled;
  where several items share a domain (world-model items: many states of one domain) whole
  domains are resampled instead (a cluster bootstrap: items of one domain are not independent),
  and where an item has several samples (epochs) they are resampled within the item too.
* ``paired_difference``: two runs (or two rounds) on the same items: the mean difference with a
  paired bootstrap interval, a sign-flip permutation p-value (two-sided), wins / ties / losses.
* ``repeated_measures``: rounds EC_0 .. EC_k measured on the same items: a one-way
  repeated-measures ANOVA (items as subjects, so the between-item spread is not mistaken for
  noise) and the paired EC_0 vs EC_k difference. It assumes sphericity; the paired test beside
  it does not.

Every function is deterministic: a fixed seed (``SEED``, reported with each result) and a
fixed number of resamples. Nothing here knows about runs: inputs are lists of numbers.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from typing import Any

import numpy as np

__all__ = [
    "SEED", "Value", "Interval", "bootstrap_mean", "independent_difference",
    "paired_difference", "repeated_measures", "format_interval", "cohen_kappa",
    "bootstrap_kappa", "method_note",
]

SEED = 20250218  # the Text2World paper's arXiv date: any fixed value does; it is reported
RESAMPLES = 2000
LEVEL = 0.95
# Bound the work one call can cause (items x resamples numbers drawn at once).
_MAX_CELLS = 4_000_000

Value = float | Sequence[float]  # one score, or one per epoch


@dataclass(frozen=True)
class Interval:
    """A mean and its bootstrap interval; ``low``/``high`` are None when there is no data."""

    mean: float | None
    low: float | None
    high: float | None
    n: int  # items
    clusters: int  # resampled units (domains when clustered, else items)
    method: str  # "items", "domains", "items+epochs", "domains+epochs", "none"
    seed: int
    resamples: int
    level: float = LEVEL

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def excludes(self, value: float) -> bool:
        return self.low is not None and self.high is not None and not (
            self.low - 1e-12 <= value <= self.high + 1e-12)


@dataclass(frozen=True)
class PairedResult:
    """B - A on the common items."""

    n: int
    mean_a: float | None
    mean_b: float | None
    difference: Interval
    p_value: float | None  # two-sided sign-flip permutation test of "no difference"
    wins: int  # items where B > A
    ties: int
    losses: int
    permutations: int

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "difference": self.difference.as_dict()}


def mean_or_none(values: Sequence[float]) -> float | None:
    """The mean of plain numbers; None for none."""
    return sum(values) / len(values) if values else None


def _one_sample_each(values: Sequence[Value]) -> list[float] | None:
    """The values as one number per item when every item is a number or holds exactly one
    (a run of one epoch); else None."""
    flat: list[float] = []
    for value in values:
        if isinstance(value, (list, tuple)):
            if len(value) != 1:
                return None
            value = value[0]
        if not isinstance(value, (int, float)):
            return None
        flat.append(value)
    return flat


def _item_means(values: Sequence[Value]) -> tuple[np.ndarray, list[np.ndarray] | None]:
    """Per-item means, and per-item epoch arrays when any item has more than one sample."""
    flat = _one_sample_each(values)
    if flat is not None:  # the mean of one sample is that sample (+ 0.0, as numpy's mean
        column = np.asarray(flat, dtype=float) + 0.0  # of [-0.0] is 0.0): one array for all
        return column[~np.isnan(column)], None
    arrays = [np.atleast_1d(np.asarray(v, dtype=float)) for v in values]
    arrays = [a[~np.isnan(a)] for a in arrays]
    keep = [a for a in arrays if a.size]
    means = np.array([a.mean() for a in keep], dtype=float)
    epochs = keep if any(a.size > 1 for a in keep) else None
    return means, epochs


def _kept_clusters(values: Sequence[Value], clusters: Sequence[str] | None) -> list[str] | None:
    if clusters is None:
        return None
    if len(clusters) != len(values):
        raise ValueError(f"{len(values)} values but {len(clusters)} cluster labels")
    return [c for v, c in zip(values, clusters)
            if np.any(~np.isnan(np.atleast_1d(np.asarray(v, dtype=float))))]


def _resample_count(units: int, resamples: int) -> int:
    return max(200, min(resamples, _MAX_CELLS // max(units, 1)))


@lru_cache(maxsize=8)
def _cached_counts(units: int, count: int, seed: int) -> np.ndarray:
    picks = np.random.default_rng(seed).integers(0, units, size=(count, units))
    counts = np.zeros((count, units))
    np.add.at(counts, (np.arange(count)[:, None], picks), 1.0)
    counts.flags.writeable = False
    return counts


def _counts(units: int, count: int, seed: int) -> np.ndarray:
    """(count, units): how often each unit is drawn in each resample (with replacement). A
    report takes dozens of means over the same items with the same seed: the draws are made
    once, and each mean is then one matrix product."""
    if units * count <= 1_000_000:
        return _cached_counts(units, count, seed)
    return _cached_counts.__wrapped__(units, count, seed)


def _sample_key(value: Value) -> tuple:
    samples: Sequence[Any] = value if isinstance(value, (list, tuple)) else [value]
    return tuple((1, 0.0) if x is None or x != x else (0, float(x)) for x in samples)


def canonical_order(values: Sequence[Value], clusters: Sequence[str] | None = None
                    ) -> tuple[list[Value], list[str] | None]:
    """``values`` (and their ``clusters``) sorted by (cluster, samples): an interval then
    depends on the items, not on the order they came in (a run's log holds items in the order
    they finished, which the machine's load decides)."""
    if clusters is not None and len(clusters) != len(values):
        raise ValueError(f"{len(values)} values but {len(clusters)} cluster labels")
    order = sorted(range(len(values)), key=lambda i: (clusters[i] if clusters is not None else "",
                                                      _sample_key(values[i])))
    return [values[i] for i in order], [clusters[i] for i in order] if clusters is not None else None


def bootstrap_mean(values: Sequence[Value], clusters: Sequence[str] | None = None,
                   resamples: int = RESAMPLES, seed: int = SEED,
                   level: float = LEVEL) -> Interval:
    """The mean of ``values`` (one per item: a number, or a list of epoch samples; NaN and
    empty items are left out) with a percentile-bootstrap interval at ``level``.

    ``clusters``: one label per value (its domain). When some label is shared, whole clusters
    are resampled; with one cluster only, there is no spread to estimate between clusters and
    items are resampled (the method says so). The interval does not depend on the order of the
    items (``canonical_order``)."""
    draw = _bootstrap(values, clusters, resamples, seed)
    if draw.n == 0:
        return Interval(None, None, None, 0, 0, "none", seed, 0, level)
    if draw.stats is None:
        return Interval(draw.point, draw.point, draw.point, 1, 1, "items", seed, 0, level)
    alpha = (1 - level) / 2
    low, high = np.quantile(draw.stats, [alpha, 1 - alpha])
    return Interval(draw.point, float(low), float(high), draw.n, draw.units, draw.method, seed,
                    int(draw.stats.size), level)


def independent_difference(a: Sequence[Value], b: Sequence[Value],
                           clusters_a: Sequence[str] | None = None,
                           clusters_b: Sequence[str] | None = None,
                           resamples: int = RESAMPLES, seed: int = SEED,
                           level: float = LEVEL) -> Interval:
    """mean(b) - mean(a) for two groups of different items (held-out against in-family
    domains), with a percentile-bootstrap interval: each group resampled on its own, as
    ``bootstrap_mean`` resamples it (its clusters, its epochs), in the same number of draws.
    ``n`` and ``clusters`` count both groups; None when either has no value."""
    count = _resample_count(max(len(a), len(b), 1), resamples)
    draw_a = _bootstrap(a, clusters_a, resamples, seed, count)
    draw_b = _bootstrap(b, clusters_b, resamples, seed + 3, count)  # draws apart from a's
    n, units = draw_a.n + draw_b.n, draw_a.units + draw_b.units
    if draw_a.n == 0 or draw_b.n == 0:
        return Interval(None, None, None, n, units, "none", seed, 0, level)
    point = draw_b.point - draw_a.point
    if draw_a.stats is None and draw_b.stats is None:
        return Interval(point, point, point, n, units, "items", seed, 0, level)
    stats = ((draw_b.stats if draw_b.stats is not None else draw_b.point)
             - (draw_a.stats if draw_a.stats is not None else draw_a.point))
    alpha = (1 - level) / 2
    low, high = np.quantile(stats, [alpha, 1 - alpha])
    methods = sorted({d.method for d in (draw_a, draw_b) if d.stats is not None})
    return Interval(point, float(low), float(high), n, units, "+".join(methods), seed, count,
                    level)


@dataclass(frozen=True)
class _Draw:
    """One group's bootstrap: its mean, the resampled means (None: one item, no spread)."""

    point: float
    stats: np.ndarray | None
    n: int
    units: int
    method: str


def _bootstrap(values: Sequence[Value], clusters: Sequence[str] | None, resamples: int,
               seed: int, count: int | None = None) -> _Draw:
    """The resampled means of ``bootstrap_mean`` (``count`` draws: by default as many as
    ``resamples`` allows for these items)."""
    values, clusters = canonical_order(values, clusters)
    labels = _kept_clusters(values, clusters)
    means, epochs = _item_means(values)
    n = int(means.size)
    if n == 0:
        return _Draw(float("nan"), None, 0, 0, "none")
    point = float(means.mean())
    if n == 1 and epochs is None:
        return _Draw(point, None, 1, 1, "items")
    rng = np.random.default_rng(seed + 2)  # epochs only; the picks come from ``seed``
    use_clusters = labels is not None and 1 < len(set(labels)) < n
    if count is None:
        count = _resample_count(n, resamples)
    if use_clusters:
        assert labels is not None
        names = sorted(set(labels))
        index = {name: i for i, name in enumerate(names)}
        members: list[list[int]] = [[] for _ in names]
        for i, label in enumerate(labels):
            members[index[label]].append(i)
        units = len(names)
        # Sums and sizes per cluster: a resample of clusters gives sum / size of its items.
        sums = np.array([means[m].sum() for m in members])
        sizes = np.array([len(m) for m in members], dtype=float)
        counts = _counts(units, count, seed)
        if epochs is not None:
            resampled = _epoch_resample(epochs, rng, count)  # (count, n)
            sums_r = np.stack([resampled[:, m].sum(axis=1) for m in members], axis=1)
            stats = (counts * sums_r).sum(axis=1) / (counts @ sizes)
        else:
            stats = (counts @ sums) / (counts @ sizes)
        method = "domains"
    else:
        units = n
        counts = _counts(n, count, seed)
        if epochs is not None:
            resampled = _epoch_resample(epochs, rng, count)
            stats = (counts * resampled).sum(axis=1) / n
        else:
            stats = (counts @ means) / n
        method = "items"
    if epochs is not None:
        method += "+epochs"
    return _Draw(point, stats, n, units, method)


def _epoch_resample(epochs: list[np.ndarray], rng: np.random.Generator,
                    count: int) -> np.ndarray:
    """(count, items): each item's epochs resampled with replacement, then averaged."""
    out = np.empty((count, len(epochs)))
    for i, samples in enumerate(epochs):
        if samples.size == 1:
            out[:, i] = samples[0]
        else:
            out[:, i] = samples[rng.integers(0, samples.size, size=(count, samples.size))].mean(
                axis=1)
    return out


def paired_difference(a: Sequence[float | None], b: Sequence[float | None],
                      clusters: Sequence[str] | None = None, resamples: int = RESAMPLES,
                      seed: int = SEED, tie: float = 1e-9) -> PairedResult:
    """B - A over the items where both have a value (same order in ``a`` and ``b``).

    The interval is a (cluster) bootstrap of the mean difference; the p-value is a sign-flip
    permutation test (under "no difference" each item's difference is as likely negated; with
    clusters, whole clusters are flipped), with the observed sign pattern counted, so it is
    never 0. Identical inputs give a difference of 0 and p = 1."""
    if len(a) != len(b):
        raise ValueError(f"paired values differ in length: {len(a)} and {len(b)}")
    keep = [i for i in range(len(a)) if a[i] is not None and b[i] is not None
            and not math.isnan(float(a[i])) and not math.isnan(float(b[i]))]  # type: ignore[arg-type]
    xa = np.array([float(a[i]) for i in keep])  # type: ignore[arg-type]
    xb = np.array([float(b[i]) for i in keep])  # type: ignore[arg-type]
    labels = [clusters[i] for i in keep] if clusters is not None else None
    # the permutations' signs go to items by position: the same items in another order must
    # give the same p-value
    order = sorted(range(len(keep)), key=lambda i: (labels[i] if labels is not None else "",
                                                    float(xa[i]), float(xb[i])))
    xa, xb = xa[order], xb[order]
    labels = [labels[i] for i in order] if labels is not None else None
    diffs = xb - xa
    n = int(diffs.size)
    interval = bootstrap_mean(list(diffs), labels, resamples, seed)
    wins = int((diffs > tie).sum())
    losses = int((diffs < -tie).sum())
    if n == 0:
        return PairedResult(0, None, None, interval, None, 0, 0, 0, 0)
    observed = abs(float(diffs.mean()))
    if not np.any(np.abs(diffs) > tie):
        p_value, count = 1.0, 0
    else:
        rng = np.random.default_rng(seed + 1)
        if labels is not None and 1 < len(set(labels)) < n:
            names = sorted(set(labels))
            index = np.array([names.index(label) for label in labels])
            count = _resample_count(len(names), resamples)
            signs = rng.choice((-1.0, 1.0), size=(count, len(names)))[:, index]
        else:
            count = _resample_count(n, resamples)
            signs = rng.choice((-1.0, 1.0), size=(count, n))
        permuted = np.abs((signs * diffs).mean(axis=1))
        p_value = float((np.sum(permuted >= observed - 1e-12) + 1) / (count + 1))
    return PairedResult(n, float(xa.mean()), float(xb.mean()), interval, p_value, wins,
                        n - wins - losses, losses, count)


def repeated_measures(rounds: Sequence[Sequence[float | None]], seed: int = SEED) -> dict:
    """Rounds EC_0 .. EC_k as repeated measures of the same items.

    ``rounds[r][i]``: item i's score at round r. Items lacking a round are left out of the
    ANOVA. Returns F, its degrees of freedom and p (one-way repeated-measures ANOVA: items are
    subjects; assumes sphericity), and the paired EC_0 -> EC_k difference (no such
    assumption)."""
    from scipy import stats

    k = len(rounds)
    if k < 2:
        return {"F": None, "df": None, "p": None, "items": 0,
                "note": "needs at least 2 rounds (--ec >= 1)", "first_to_last": None}
    n_items = min(len(r) for r in rounds)
    complete = [i for i in range(n_items)
                if all(rounds[r][i] is not None for r in range(k))]
    matrix = np.array([[float(rounds[r][i]) for r in range(k)] for i in complete])  # type: ignore[arg-type]
    paired = paired_difference(list(rounds[0]), list(rounds[-1]), seed=seed)
    result = {"items": len(complete), "rounds": k, "first_to_last": paired.as_dict(),
              "assumes": "sphericity (equal variance of the differences between rounds); "
                         "the paired EC_0 -> EC_k test beside it does not"}
    if len(complete) < 2:
        return {**result, "F": None, "df": None, "p": None,
                "note": "needs at least 2 items scored in every round"}
    grand = matrix.mean()
    ss_rounds = len(complete) * ((matrix.mean(axis=0) - grand) ** 2).sum()
    ss_items = k * ((matrix.mean(axis=1) - grand) ** 2).sum()
    ss_total = ((matrix - grand) ** 2).sum()
    ss_error = ss_total - ss_rounds - ss_items
    df_rounds, df_error = k - 1, (k - 1) * (len(complete) - 1)
    if ss_rounds <= 1e-15:
        return {**result, "F": 0.0, "df": [df_rounds, df_error], "p": 1.0,
                "note": "no change between rounds"}
    if ss_error <= 1e-15:
        return {**result, "F": None, "df": [df_rounds, df_error], "p": None,
                "note": "every item changes by the same amount: no error variance"}
    f_value = (ss_rounds / df_rounds) / (ss_error / df_error)
    p = float(stats.f.sf(f_value, df_rounds, df_error))
    return {**result, "F": float(f_value), "df": [df_rounds, df_error], "p": p, "note": ""}


def format_interval(interval: Interval | dict | None, scale: float = 100.0,
                    digits: int = 1) -> str:
    """``62.4 [55.1, 69.3]``: a mean and its interval as people read them (percent)."""
    if interval is None:
        return "-"
    data = interval.as_dict() if isinstance(interval, Interval) else interval
    if data.get("mean") is None:
        return "-"
    mean = f"{scale * data['mean']:.{digits}f}"
    if data.get("low") is None or data.get("high") is None:
        return mean
    return f"{mean} [{scale * data['low']:.{digits}f}, {scale * data['high']:.{digits}f}]"


def cohen_kappa(pairs: Sequence[tuple[bool, bool]]) -> float | None:
    """Cohen's kappa of two raters' yes/no answers, ``(a, b)`` per rated unit; None when it
    is undefined (no pair, or both raters gave one same answer throughout: chance agreement 1)."""
    if not pairs:
        return None
    n = len(pairs)
    observed = sum(a == b for a, b in pairs) / n
    a_yes = sum(a for a, _ in pairs) / n
    b_yes = sum(b for _, b in pairs) / n
    chance = a_yes * b_yes + (1 - a_yes) * (1 - b_yes)
    if chance >= 1.0 - 1e-12:
        return None
    return (observed - chance) / (1 - chance)


def bootstrap_kappa(units: Sequence[Sequence[tuple[bool, bool]]], seed: int = SEED,
                    resamples: int = RESAMPLES) -> Interval:
    """Cohen's kappa over all pairs with a 95% percentile-bootstrap interval: ``units`` are
    the rated items, each with its pairs (one per epoch), resampled whole. Resamples where
    kappa is undefined are left out (``resamples`` says how many were kept)."""
    pooled = [pair for unit in units for pair in unit]
    value = cohen_kappa(pooled)
    if value is None:
        return Interval(None, None, None, len(units), len(units), "none", seed, 0)
    # Per unit: counts of (a, b) = (yes, yes), (yes, no), (no, yes), (no, no).
    cells = np.array([[sum(1 for a, b in unit if (a, b) == key) for key in
                       ((True, True), (True, False), (False, True), (False, False))]
                      for unit in units], dtype=float)
    count = _resample_count(len(units), resamples)
    draws = _counts(len(units), count, seed)  # how often each unit is drawn, per resample
    totals = draws @ cells  # (resamples, 4)
    n = totals.sum(axis=1)
    observed = (totals[:, 0] + totals[:, 3]) / n
    a_yes = (totals[:, 0] + totals[:, 1]) / n
    b_yes = (totals[:, 0] + totals[:, 2]) / n
    chance = a_yes * b_yes + (1 - a_yes) * (1 - b_yes)
    defined = chance < 1.0 - 1e-12
    kappas = (observed[defined] - chance[defined]) / (1 - chance[defined])
    low, high = (np.quantile(kappas, [(1 - LEVEL) / 2, 1 - (1 - LEVEL) / 2]) if len(kappas)
                 else (None, None))
    method = "items+epochs" if any(len(unit) > 1 for unit in units) else "items"
    return Interval(value, None if low is None else float(low),
                    None if high is None else float(high), len(units), len(units), method,
                    seed, int(defined.sum()))


def method_note() -> str:
    """How every interval of a report is made, in one line (printed under the tables)."""
    return (f"95% intervals: percentile bootstrap, {RESAMPLES} resamples, seed {SEED}; items "
            "resampled (world-model items: whole domains, since items of one domain are not "
            "independent)")
