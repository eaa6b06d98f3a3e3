"""Intervals and paired tests (text2world.stats) on synthetic items with a known
distribution: coverage near the nominal 95%, planted differences found, none between a run and
itself."""

import numpy as np
import pytest

from text2world.stats import (
    SEED,
    bootstrap_mean,
    format_interval,
    independent_difference,
    paired_difference,
    repeated_measures,
)


def _coverage(draw, true_mean: float, repetitions: int = 300, **kwargs) -> float:
    rng = np.random.default_rng(7)
    covered = 0
    for rep in range(repetitions):
        values, clusters = draw(rng)
        interval = bootstrap_mean(values, clusters, resamples=1000, seed=rep, **kwargs)
        covered += interval.low <= true_mean <= interval.high
    return covered / repetitions


def test_interval_covers_the_true_mean_about_95_percent_of_the_time():
    # 60 items, scores in [0, 1] (a Beta(2, 3), mean 0.4): 300 seeded repetitions.
    coverage = _coverage(lambda rng: (list(rng.beta(2, 3, size=60)), None), 0.4)
    assert 0.90 <= coverage <= 0.99, coverage


def test_binary_scores_coverage():
    # Executability is 0/1: 101 items with p = 0.3.
    coverage = _coverage(lambda rng: (list(rng.binomial(1, 0.3, size=101).astype(float)), None),
                         0.3)
    assert 0.90 <= coverage <= 0.99, coverage


def test_clustered_items_need_the_cluster_bootstrap():
    # 30 domains with a domain effect (sd 0.2) and 8 items each (sd 0.05): items of a domain
    # are far from independent. Resampling domains covers ~95%; treating the 240 items as
    # independent gives intervals that are much too narrow.
    def draw(rng):
        effects = rng.normal(0.5, 0.2, size=30)
        values = [float(e + rng.normal(0, 0.05)) for e in effects for _ in range(8)]
        clusters = [f"d{d}" for d in range(30) for _ in range(8)]
        return values, clusters

    clustered = _coverage(draw, 0.5, repetitions=200)
    naive = _coverage(lambda rng: (draw(rng)[0], None), 0.5, repetitions=200)
    assert 0.88 <= clustered <= 0.99, clustered
    assert naive < 0.75, naive


def test_epochs_are_resampled_within_items():
    rng = np.random.default_rng(1)
    values = [list(rng.normal(0.5, 0.1, size=3)) for _ in range(40)]
    interval = bootstrap_mean(values)
    assert interval.method == "items+epochs"
    assert interval.low < interval.mean < interval.high
    assert interval.mean == pytest.approx(np.mean([np.mean(v) for v in values]))


def test_degenerate_inputs():
    assert bootstrap_mean([]).mean is None
    one = bootstrap_mean([0.7])
    assert (one.mean, one.low, one.high) == (0.7, 0.7, 0.7)
    same = bootstrap_mean([1.0] * 20)
    assert same.low == same.high == 1.0
    assert bootstrap_mean([float("nan"), 0.5, None if False else 0.5]).n == 2
    with pytest.raises(ValueError, match="cluster labels"):
        bootstrap_mean([0.1, 0.2], ["a"])


def test_seed_is_fixed_and_reported():
    values = list(np.random.default_rng(3).random(50))
    first, second = bootstrap_mean(values), bootstrap_mean(values)
    assert first == second and first.seed == SEED
    assert bootstrap_mean(values, seed=1) != first


def test_paired_comparison_detects_a_planted_difference():
    rng = np.random.default_rng(11)
    a = rng.random(80)
    b = np.clip(a + 0.08 + rng.normal(0, 0.05, size=80), 0, 1)  # B better by about 8 points
    result = paired_difference(list(a), list(b))
    assert result.p_value < 0.01
    assert result.difference.low > 0
    assert result.wins > result.losses
    # The same difference is invisible to two independent samples of this spread, but the
    # pairing removes the between-item spread: the interval is narrow.
    assert result.difference.high - result.difference.low < 0.05


def test_no_difference_between_a_run_and_itself():
    a = list(np.random.default_rng(5).random(101))
    result = paired_difference(a, a)
    assert result.p_value == 1.0
    assert result.difference.mean == 0.0
    assert (result.wins, result.ties, result.losses) == (0, 101, 0)


def test_paired_comparison_without_a_difference_is_rarely_significant():
    rng = np.random.default_rng(2)
    significant = 0
    for rep in range(100):
        a = rng.random(50)
        b = rng.random(50)  # same distribution
        significant += paired_difference(list(a), list(b), resamples=500, seed=rep).p_value < 0.05
    assert significant <= 12  # about 5 expected


def test_paired_comparison_skips_missing_items_and_checks_lengths():
    result = paired_difference([0.1, None, 0.5], [0.2, 0.3, None])
    assert result.n == 1
    with pytest.raises(ValueError, match="length"):
        paired_difference([0.1], [0.1, 0.2])


def test_repeated_measures_sees_a_change_that_independent_groups_would_miss():
    rng = np.random.default_rng(4)
    base = rng.random(60)  # large spread between items
    rounds = [list(base), list(np.clip(base + 0.03 + rng.normal(0, 0.01, 60), 0, 1))]
    result = repeated_measures(rounds)
    assert result["p"] < 1e-6 and result["df"] == [1, 59]
    assert result["first_to_last"]["p_value"] < 0.01
    from scipy import stats
    assert stats.f_oneway(*rounds).pvalue > 0.1  # the one-way ANOVA misses it
    assert repeated_measures([list(base), list(base)])["p"] == 1.0
    # With two rounds the repeated-measures F is the paired t statistic squared.
    assert result["F"] == pytest.approx(stats.ttest_rel(*rounds).statistic ** 2)
    assert repeated_measures([list(base)])["F"] is None


def test_format_interval():
    interval = bootstrap_mean([0.5, 0.6, 0.7, 0.8])
    text = format_interval(interval)
    assert text.startswith("65.0 [") and text.endswith("]")
    assert format_interval(None) == "-"


def test_one_sample_per_item_gives_the_per_item_means_exactly():
    """Items of one sample each (one epoch) are read as one array: the same means, bit for bit,
    as each item's own array mean (NaN left out, -0.0 read as numpy's mean reads it)."""
    import math
    import random

    import numpy as np

    from text2world.stats import _item_means

    def per_item(values):
        arrays = [np.atleast_1d(np.asarray(v, dtype=float)) for v in values]
        return [a[~np.isnan(a)].mean() for a in arrays if a[~np.isnan(a)].size]

    rng = random.Random(11)
    pool = [0.0, -0.0, 1.0, 0.5, 1 / 3, 0.1 + 0.2, float("nan"), True, False, 7, 1e308, 5e-324]
    for _ in range(2000):
        values = [rng.choice((lambda x: x, lambda x: [x], lambda x: (x,)))(rng.choice(pool))
                  for _ in range(rng.randint(0, 9))]
        means, epochs = _item_means(values)
        assert epochs is None
        assert [(m, math.copysign(1, m)) for m in means.tolist()] == \
            [(float(m), math.copysign(1, m)) for m in per_item(values)]
    means, epochs = _item_means([[1.0, 0.0], [1.0]])  # several epochs: per-item arrays
    assert means.tolist() == [0.5, 1.0] and epochs is not None


def test_intervals_do_not_depend_on_the_order_of_the_items() -> None:
    """A run's log holds items in the order they finished: two runs of the same content must
    report the same intervals and p-values (items, epochs and clusters shuffled alike)."""
    import random

    rng = random.Random(7)
    values = [[rng.random() for _ in range(rng.choice((1, 3)))] for _ in range(40)]
    values[3] = [float("nan")]
    labels = [f"d{i % 9}" for i in range(40)]
    a = [rng.random() for _ in range(40)]
    b = [x + rng.gauss(0.05, 0.2) for x in a]
    order = list(range(40))
    rng.shuffle(order)
    assert bootstrap_mean(values) == bootstrap_mean([values[i] for i in order])
    assert bootstrap_mean(values, labels) == bootstrap_mean([values[i] for i in order],
                                                            [labels[i] for i in order])
    for clusters in (None, labels):
        first = paired_difference(a, b, clusters)
        again = paired_difference([a[i] for i in order], [b[i] for i in order],
                                  [clusters[i] for i in order] if clusters else None)
        assert first == again and first.p_value is not None and 0 < first.p_value < 1


def test_difference_of_independent_groups_covers_the_true_gap():
    # held-out (Beta(2, 5), mean 2/7) against in-family (Beta(5, 2), mean 5/7) items, sizes
    # unequal as families are: the interval of the gap covers -3/7 about 95% of the time
    rng = np.random.default_rng(11)
    covered = 0
    for rep in range(300):
        inside, outside = list(rng.beta(5, 2, size=40)), list(rng.beta(2, 5, size=15))
        gap = independent_difference(inside, outside, resamples=1000, seed=rep)
        assert gap.mean == pytest.approx(np.mean(outside) - np.mean(inside))
        covered += gap.low <= -3 / 7 <= gap.high
    assert 0.90 <= covered / 300 <= 0.99, covered / 300


def test_difference_of_independent_groups_edge_cases():
    same = independent_difference([0.5, 0.6, 0.7], [0.7, 0.5, 0.6])
    assert same.mean == pytest.approx(0.0) and same.low < 0 < same.high and same.n == 6
    assert independent_difference([1.0, 0.0], []).mean is None
    one = independent_difference([1.0], [0.0])
    assert (one.mean, one.low, one.high) == (-1.0, -1.0, -1.0)
    # clustered groups (world-model items of a domain) resample whole domains
    clustered = independent_difference([1, 1, 0, 0], [0, 0, 0, 1], ["a", "a", "b", "b"],
                                       ["c", "c", "d", "d"])
    assert clustered.method == "domains" and clustered.clusters == 4
    # the order of the items does not matter, the seed is fixed
    assert independent_difference([0.1, 0.9, 0.4], [0.3, 0.2]) == \
        independent_difference([0.4, 0.1, 0.9], [0.2, 0.3])
