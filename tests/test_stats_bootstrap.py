"""Bootstrap intervals against exactly enumerable resampling distributions."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundjudge.validation import stats


def test_cluster_mean_two_clusters_exact_distribution():
    # Cluster means 0 and 1; a resample of two clusters has mean 0, 0.5 or 1 with probability
    # 1/4, 1/2, 1/4. The 30% and 70% quantiles both fall on 0.5; the 2.5% and 97.5% on 0 and 1.
    values = [0.0, 0.0, 0.0, 1.0]
    clusters = ["a", "a", "a", "b"]
    assert stats.cluster_bootstrap_ci(values, clusters, confidence=0.4, seed=1) == (0.5, 0.5)
    assert stats.cluster_bootstrap_ci(values, clusters, confidence=0.95, seed=1) == (0.0, 1.0)


def test_cluster_pooled_weighs_rows_not_clusters():
    # Pooled over rows: resamples {a,a} -> 0, {a,b} -> 1/4 (one 1 among four rows), {b,b} -> 1.
    values = [0.0, 0.0, 0.0, 1.0]
    clusters = ["a", "a", "a", "b"]
    lo, hi = stats.cluster_bootstrap_ci(values, clusters, statistic="pooled", confidence=0.4, seed=1)
    assert (lo, hi) == pytest.approx((0.25, 0.25))


def test_cluster_nan_rows_are_dropped_not_zero():
    values = [5.0, np.nan, 5.0, 5.0]
    assert stats.cluster_bootstrap_ci(values, [1, 1, 2, 3], n_resamples=200) == (5.0, 5.0)


def test_cluster_empty_and_single_cluster():
    lo, hi = stats.cluster_bootstrap_ci([np.nan], ["q"], n_resamples=10)
    assert np.isnan(lo) and np.isnan(hi)
    assert stats.cluster_bootstrap_ci([1.0, 3.0], ["q", "q"], n_resamples=10) == (2.0, 2.0)


def test_cluster_blocking_does_not_change_result(monkeypatch):
    rng = np.random.default_rng(3)
    values = rng.normal(size=300)
    clusters = np.repeat(np.arange(60), 5)
    whole = stats.cluster_bootstrap_ci(values, clusters, n_resamples=500, seed=7)
    monkeypatch.setattr(stats, "_BLOCK_CELLS", 60 * 7)  # blocks of 7 resamples
    assert stats.cluster_bootstrap_ci(values, clusters, n_resamples=500, seed=7) == whole
    # and equals a naive one-shot draw of the same stream
    means = values.reshape(60, 5).mean(axis=1)
    idx = np.random.default_rng(7).integers(0, 60, size=(500, 60))
    naive = np.quantile(means[idx].mean(axis=1), [0.025, 0.975])
    assert whole == pytest.approx(tuple(naive), abs=0)


def test_cluster_interval_matches_normal_theory_for_many_clusters():
    rng = np.random.default_rng(0)
    means = rng.normal(10.0, 2.0, size=400)
    values = np.repeat(means, 3)
    clusters = np.repeat(np.arange(400), 3)
    lo, hi = stats.cluster_bootstrap_ci(values, clusters, n_resamples=4000, seed=0)
    half = 1.96 * means.std(ddof=1) / np.sqrt(400)
    assert lo == pytest.approx(means.mean() - half, abs=0.03)
    assert hi == pytest.approx(means.mean() + half, abs=0.03)


def test_cluster_is_deterministic_per_seed():
    values = np.arange(20, dtype=float)
    clusters = np.arange(20) // 4
    a = stats.cluster_bootstrap_ci(values, clusters, n_resamples=300, seed=11)
    assert a == stats.cluster_bootstrap_ci(values, clusters, n_resamples=300, seed=11)
    assert a != stats.cluster_bootstrap_ci(values, clusters, n_resamples=300, seed=12)


@pytest.mark.parametrize(
    "kwargs",
    [{"statistic": "median"}, {"confidence": 1.0}, {"confidence": 0.0}, {"n_resamples": 0}],
)
def test_cluster_rejects_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        stats.cluster_bootstrap_ci([1.0, 2.0], [1, 2], **kwargs)


def test_cluster_rejects_mismatched_lengths():
    with pytest.raises(ValueError, match="length"):
        stats.cluster_bootstrap_ci([1.0, 2.0], [1])


def test_percentile_bootstrap_exact_two_values():
    # Resampling [0, 1] twice: mean 0, 0.5, 1 with probability 1/4, 1/2, 1/4.
    assert stats.percentile_bootstrap_ci([0.0, 1.0], confidence=0.4, seed=2) == (0.5, 0.5)
    assert stats.percentile_bootstrap_ci([0.0, 1.0], confidence=0.95, seed=2) == (0.0, 1.0)


def test_percentile_bootstrap_custom_statistic():
    # nan is dropped, leaving [0, 10]; the median of two draws is 0, 5 or 10 (p = 1/4, 1/2, 1/4).
    lo, hi = stats.percentile_bootstrap_ci([0.0, 10.0, np.nan], statistic=np.median, n_resamples=2000)
    assert (lo, hi) == (0.0, 10.0)


@settings(max_examples=40, deadline=None)
@given(
    value=st.floats(-1e6, 1e6, allow_nan=False),
    sizes=st.lists(st.integers(1, 5), min_size=1, max_size=8),
    pooled=st.booleans(),
)
def test_property_constant_values_give_that_constant(value, sizes, pooled):
    clusters = np.repeat(np.arange(len(sizes)), sizes)
    values = np.full(clusters.size, value)
    lo, hi = stats.cluster_bootstrap_ci(values, clusters, statistic="pooled" if pooled else "mean", n_resamples=50)
    assert lo == pytest.approx(value) and hi == pytest.approx(value)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.floats(-100, 100, allow_nan=False), min_size=1, max_size=30))
def test_property_interval_is_ordered_and_within_data_range(xs):
    clusters = np.arange(len(xs)) // 3
    lo, hi = stats.cluster_bootstrap_ci(xs, clusters, n_resamples=100)
    assert min(xs) - 1e-9 <= lo <= hi <= max(xs) + 1e-9


@settings(max_examples=30, deadline=None)
@given(
    per_cluster=st.integers(1, 4),
    data=st.lists(st.floats(-50, 50, allow_nan=False), min_size=2, max_size=40),
)
def test_property_equal_cluster_sizes_make_mean_and_pooled_identical(per_cluster, data):
    # With every cluster the same size, the mean of cluster means is the row mean of every resample.
    n = len(data) - len(data) % per_cluster or per_cluster
    values = (data * per_cluster)[:n]
    clusters = np.arange(n) // per_cluster
    a = stats.cluster_bootstrap_ci(values, clusters, statistic="mean", n_resamples=64, seed=5)
    b = stats.cluster_bootstrap_ci(values, clusters, statistic="pooled", n_resamples=64, seed=5)
    assert a == pytest.approx(b, abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(-100, 100, allow_nan=False), min_size=1, max_size=30), st.floats(0.5, 0.99))
def test_property_percentile_interval_within_range_and_nested(xs, confidence):
    lo, hi = stats.percentile_bootstrap_ci(xs, n_resamples=200, confidence=confidence, seed=3)
    wide_lo, wide_hi = stats.percentile_bootstrap_ci(xs, n_resamples=200, confidence=0.995, seed=3)
    assert min(xs) - 1e-9 <= wide_lo <= lo <= hi <= wide_hi <= max(xs) + 1e-9
