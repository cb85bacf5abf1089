"""Statistics helpers against hand-worked numbers, plus invariants checked by hypothesis."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundjudge.validation import stats

NAN = float("nan")


# --- Krippendorff's interval alpha -----------------------------------------------------------------


def test_interval_alpha_with_missing_value_is_24_over_29():
    # Unit 4 has one rating and drops out, leaving units (1,1) (2,3) (3,3); worked below.
    assert stats.krippendorff_interval_alpha([[1, 2, 3, 4], [1, 3, 3, NAN]]) == pytest.approx(24 / 29)


def test_interval_alpha_by_hand_for_two_raters():
    # n = 6 pairable values 1,1,2,3,3,3. Ordered within-unit pairs (m_u = 2, weight 1/(m_u - 1) = 1):
    # only unit (2,3) differs, 2 ordered pairs x 1^2 = 2, so D_o = 2/6 = 1/3.
    # All unordered pairs: 1-2 twice x 1 + 1-3 six times x 4 + 2-3 three times x 1 = 29, ordered 58,
    # D_e = 58 / (6 * 5) = 29/15. alpha = 1 - (1/3)/(29/15) = 1 - 5/29 = 24/29.
    assert stats.krippendorff_interval_alpha([[1, 2, 3], [1, 3, 3]]) == pytest.approx(24 / 29)


@pytest.mark.parametrize(
    "data",
    [
        [[2, 2, 2], [2, 2, 2]],  # no variation at all
        [[1, NAN, 2], [NAN, 3, NAN]],  # no unit rated twice
        [[1, 1, 5], [1, 1, NAN]],  # the only pairable ratings are identical
        [[NAN, NAN], [NAN, NAN]],
    ],
)
def test_interval_alpha_undefined_is_none_never_one(data):
    assert stats.krippendorff_interval_alpha(data) is None


def test_interval_alpha_can_be_negative():
    assert stats.krippendorff_interval_alpha([[1, 2, 5], [2, 1, NAN]]) == pytest.approx(-0.5)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 10), min_size=2, max_size=20).filter(lambda v: len(set(v)) > 1))
def test_property_identical_nonconstant_raters_have_alpha_one(values):
    assert stats.krippendorff_interval_alpha([values, values]) == pytest.approx(1.0)


# --- Wilson ---------------------------------------------------------------------------------------


def test_wilson_seven_of_ten():
    lo, hi = stats.wilson_interval(7, 10)
    assert (lo, hi) == pytest.approx((0.396778, 0.892209), abs=1e-6)


def test_wilson_by_formula_and_arrays():
    # 22/130: centre (p + z^2/2n)/(1 + z^2/n), half-width z sqrt(p(1-p)/n + z^2/4n^2)/(1 + z^2/n)
    z, n, p = 1.959964, 130, 22 / 130
    d = 1 + z * z / n
    centre, half = (p + z * z / (2 * n)) / d, z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    lo, hi = stats.wilson_interval(np.array([22, 0]), np.array([130, 0]))
    assert lo[0] == pytest.approx(centre - half, abs=1e-6) and hi[0] == pytest.approx(centre + half, abs=1e-6)
    assert (round(lo[0], 4), round(hi[0], 4)) == (0.1145, 0.2430)
    assert np.isnan(lo[1]) and np.isnan(hi[1])


def test_wilson_zero_of_zero_is_nan():
    lo, hi = stats.wilson_interval(0, 0)
    assert np.isnan(lo) and np.isnan(hi)


@pytest.mark.parametrize("k,n", [(3, 2), (-1, 4), (1.5, 4)])
def test_wilson_rejects_impossible_counts(k, n):
    with pytest.raises(ValueError):
        stats.wilson_interval(k, n)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(1, 500), data=st.data())
def test_property_wilson_contains_k_over_n(n, data):
    k = data.draw(st.integers(0, n))
    lo, hi = stats.wilson_interval(k, n)
    assert 0.0 <= lo <= k / n + 1e-12 and k / n - 1e-12 <= hi <= 1.0


# --- Holm, Fisher -----------------------------------------------------------------------------------


def test_holm_hand_worked():
    # sorted 0.01,0.03,0.04,0.2 times 4,3,2,1 = 0.04,0.09,0.08,0.2, then made monotone: 0.04,0.09,0.09,0.2
    adjusted = stats.holm_adjust([0.01, 0.04, 0.03, 0.2])
    assert adjusted == pytest.approx([0.04, 0.09, 0.09, 0.20])


def test_holm_keeps_nan_in_place_and_does_not_count_it():
    adjusted = stats.holm_adjust([0.01, NAN, 0.04, 0.03, 0.2])
    assert np.isnan(adjusted[1])
    assert np.delete(adjusted, 1) == pytest.approx([0.04, 0.09, 0.09, 0.20])
    assert np.isnan(stats.holm_adjust([NAN])).all()


def test_fisher_hand_worked():
    odds, p = stats.fisher_exact([[8, 2], [1, 5]])
    assert odds == pytest.approx(20.0)  # (8*5)/(2*1)
    assert p == pytest.approx(0.034965, abs=1e-6)


def test_fisher_p_by_hypergeometric_sum():
    # Margins rows 10,6, column 9, N 16: P(a) = C(10,a)C(6,9-a)/C(16,9); two-sided sums every table
    # no more likely than the observed a = 8.
    from math import comb

    probs = {a: comb(10, a) * comb(6, 9 - a) / comb(16, 9) for a in range(3, 10)}
    expected = sum(p for p in probs.values() if p <= probs[8] * (1 + 1e-7))
    assert stats.fisher_exact([[8, 2], [1, 5]])[1] == pytest.approx(expected)


def test_fisher_zero_cell_and_bad_table():
    assert stats.fisher_exact([[5, 0], [1, 5]])[0] == float("inf")
    with pytest.raises(ValueError):
        stats.fisher_exact([[1, 2, 3], [4, 5, 6]])


# --- Bootstrap difference of proportions ----------------------------------------------------------


def test_difference_of_proportions_matches_z_test_for_large_groups():
    # 60/100 vs 45/100: pooled 0.525, se sqrt(.525 * .475 * 2/100) = 0.070622, z = 2.1240,
    # two-sided normal p = 0.0337; the interval is about 0.15 +- 1.96 * sqrt(.6*.4/100 + .45*.55/100).
    res = stats.bootstrap_difference_of_proportions(60, 100, 45, 100, n_resamples=40_000, seed=0)
    assert res.diff == pytest.approx(0.15)
    assert res.p_value == pytest.approx(0.0337, abs=0.01)
    half = 1.96 * np.sqrt(0.6 * 0.4 / 100 + 0.45 * 0.55 / 100)
    assert res.ci_low == pytest.approx(0.15 - half, abs=0.015)
    assert res.ci_high == pytest.approx(0.15 + half, abs=0.015)


def test_difference_of_proportions_equal_groups_and_edges():
    same = stats.bootstrap_difference_of_proportions(5, 10, 5, 10, n_resamples=1000)
    assert same.diff == 0.0 and same.p_value == 1.0
    # All successes in both groups: no variation, every null difference is 0 = observed, p = 1.
    full = stats.bootstrap_difference_of_proportions(4, 4, 7, 7, n_resamples=100)
    assert (full.diff, full.ci_low, full.ci_high, full.p_value) == (0.0, 0.0, 0.0, 1.0)
    empty = stats.bootstrap_difference_of_proportions(0, 0, 1, 2)
    assert np.isnan(empty.diff) and np.isnan(empty.p_value)
    # p never reaches 0 with a finite number of resamples
    extreme = stats.bootstrap_difference_of_proportions(100, 100, 0, 100, n_resamples=999)
    assert extreme.p_value == pytest.approx(1 / 1000)
    with pytest.raises(ValueError):
        stats.bootstrap_difference_of_proportions(5, 4, 1, 2)


def test_difference_of_proportions_deterministic():
    a = stats.bootstrap_difference_of_proportions(7, 20, 3, 20, n_resamples=500, seed=4)
    assert a == stats.bootstrap_difference_of_proportions(7, 20, 3, 20, n_resamples=500, seed=4)


# --- Kappa, confusion -----------------------------------------------------------------------------

A = [int(c) for c in "1101101110"]
B = [int(c) for c in "1101001111"]


def test_cohen_kappa_hand_worked():
    # p_o = 8/10; both raters say 1 seven times: p_e = .7*.7 + .3*.3 = .58; (0.8-.58)/.42 = 0.5238
    assert stats.cohen_kappa(A, B) == pytest.approx(0.22 / 0.42)
    assert round(stats.cohen_kappa(A, B), 4) == 0.5238


def test_cohen_kappa_agrees_with_statsmodels_on_three_labels():
    from statsmodels.stats.inter_rater import cohens_kappa

    a = ["met", "met", "partial", "unmet", "met", "partial", "unmet", "unmet", "met"]
    b = ["met", "partial", "partial", "unmet", "met", "met", "unmet", "partial", "met"]
    _, table = stats.confusion_matrix(a, b)
    assert stats.cohen_kappa(a, b) == pytest.approx(cohens_kappa(table).kappa)


def test_cohen_kappa_undefined_when_one_label():
    assert np.isnan(stats.cohen_kappa([1, 1, 1], [1, 1, 1]))
    assert np.isnan(stats.cohen_kappa([], []))


def test_confusion_matrix_counts():
    labels, table = stats.confusion_matrix(A, B)
    assert labels == [0, 1]
    assert table.tolist() == [[2, 1], [1, 6]]  # rows: A says 0/1; columns: B says 0/1
    labels, table = stats.confusion_matrix(["y"], ["y"], labels=["y", "n"])
    assert table.tolist() == [[1, 0], [0, 0]]
    with pytest.raises(ValueError, match="label"):
        stats.confusion_matrix(["maybe"], ["y"], labels=["y", "n"])


# --- Spearman, mean differences -------------------------------------------------------------------


def test_spearman_hand_worked_with_missing_pair():
    # After the nan pair: a ranks 1,2,3,4 and b ranks 1,3,2,4: d^2 = 0+1+1+0 = 2,
    # rho = 1 - 6*2/(4*15) = 0.8
    assert stats.spearman([1, 2, 3, 4, 5], [10, 30, 20, 40, NAN]) == pytest.approx(0.8)


def test_spearman_constant_or_short_is_nan():
    assert np.isnan(stats.spearman([1, 2, 3], [2, 2, 2]))
    assert np.isnan(stats.spearman([1, NAN], [1, 2]))


def test_mean_differences_hand_worked():
    res = stats.mean_differences([4, 5, 1, NAN], [2, 5, 3, 1])
    # pairs (4,2) (5,5) (1,3): differences +2, 0, -2
    assert res == stats.MeanDifference(0.0, 4 / 3, 3)
    empty = stats.mean_differences([NAN], [1])
    assert empty.n == 0 and np.isnan(empty.signed)


# --- Within-item ordering agreement ----------------------------------------------------------------


def test_ordering_agreement_hand_worked():
    # Item X: a = 3,2,1 and b = 5,4,4: pairs (c1,c2) same order, (c1,c3) same, (c2,c3) tied under b.
    # Item Y: a = 1,2 and b = 2,1: opposite. Item Z: one candidate, no pair. Item W: the second
    # candidate has no score under b, so no pair.
    items = ["X", "X", "X", "Y", "Y", "Z", "W", "W"]
    a = [3, 2, 1, 1, 2, 7, 1, 2]
    b = [5, 4, 4, 2, 1, 7, 1, NAN]
    res = stats.ordering_agreement(items, a, b)
    assert res == stats.OrderingAgreement(pairs=4, concordant=2, discordant=1, tied=1, share=2 / 3)


def test_ordering_agreement_no_ordered_pair_is_nan():
    res = stats.ordering_agreement(["X", "X"], [1, 1], [1, 2])
    assert res.tied == 1 and res.pairs == 1 and np.isnan(res.share)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 5)), min_size=0, max_size=25))
def test_property_ordering_against_itself_is_perfect(rows):
    items = [r[0] for r in rows]
    scores = [float(r[1]) for r in rows]
    res = stats.ordering_agreement(items, scores, scores)
    assert res.discordant == 0
    assert res.pairs == sum(items.count(i) * (items.count(i) - 1) // 2 for i in set(items))


@settings(max_examples=50, deadline=None)
@given(st.lists(st.one_of(st.floats(0, 1), st.just(NAN)), min_size=1, max_size=12))
def test_property_holm_is_at_least_raw_and_order_preserving(ps):
    adj = stats.holm_adjust(ps)
    raw = np.array(ps)
    present = ~np.isnan(raw)
    assert np.array_equal(np.isnan(adj), ~present)
    assert np.all(adj[present] >= raw[present] - 1e-12) and np.all(adj[present] <= 1.0)
    order = np.argsort(raw[present], kind="stable")
    assert np.all(np.diff(adj[present][order]) >= -1e-12)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.sampled_from(["pass", "fail", "violated"]), min_size=2, max_size=30).filter(lambda v: len(set(v)) > 1))
def test_property_kappa_is_one_for_identical_raters(labels):
    assert stats.cohen_kappa(labels, labels) == pytest.approx(1.0)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.tuples(st.integers(-10, 10), st.integers(-10, 10)), min_size=3, max_size=20))
def test_property_spearman_unchanged_by_monotone_transform(pairs):
    a = np.array([p[0] for p in pairs], dtype=float)  # integers: the transforms stay strictly monotone in floats
    b = np.array([p[1] for p in pairs], dtype=float)
    rho = stats.spearman(a, b)
    again = stats.spearman(np.exp(a / 5), b * 3 + 1)
    assert (np.isnan(rho) and np.isnan(again)) or rho == pytest.approx(again, abs=1e-9)
