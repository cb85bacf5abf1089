"""Statistics helpers: pure, numpy-vectorised functions, no I/O.

Conventions shared by every function here:
- Missing data is ``nan`` in float arrays and is dropped (never read as 0). A statistic that is not
  defined for its input returns ``nan`` (or ``None`` for Krippendorff's alpha), never a made-up 1 or 0.
- Random draws come from ``numpy.random.default_rng(seed)``; equal inputs and seed give equal outputs.
- Intervals are percentile intervals: the (1 - confidence)/2 and (1 + confidence)/2 quantiles
  (numpy's default linear interpolation) of the resampled statistic.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

# Resamples are drawn in blocks of at most this many indices: a 10,000 x 1,800 index matrix would be 144 MB.
_BLOCK_CELLS = 4_000_000


def _as_float_1d(values, name: str = "values") -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    return arr


def _check_confidence(confidence: float) -> None:
    if not 0.0 < confidence < 1.0:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")


def _check_resamples(n_resamples: int) -> None:
    if n_resamples < 1:
        raise ValueError(f"n_resamples must be at least 1, got {n_resamples}")


def _percentile_interval(stats: np.ndarray, confidence: float) -> tuple[float, float]:
    lo, hi = np.quantile(stats, [(1.0 - confidence) / 2.0, (1.0 + confidence) / 2.0])
    return float(lo), float(hi)


def _resampled(n_items: int, n_resamples: int, seed: int, statistic_of: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """``statistic_of`` applied to ``n_resamples`` rows of ``n_items`` indices drawn with replacement,
    drawn in blocks so that memory stays bounded (numpy fills sequential draws from one Generator in
    order, so blocking does not change results)."""
    rng = np.random.default_rng(seed)
    out = np.empty(n_resamples)
    size = max(1, _BLOCK_CELLS // max(n_items, 1))
    for start in range(0, n_resamples, size):
        block = min(size, n_resamples - start)
        out[start : start + block] = statistic_of(rng.integers(0, n_items, size=(block, n_items)))
    return out


# --------------------------------------------------------------------------------------------------
# Bootstrap


def cluster_bootstrap_ci(
    values,
    clusters,
    *,
    statistic: Literal["mean", "pooled"] = "mean",
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile interval of a mean by resampling whole clusters (e.g. questions) with replacement.

    ``statistic="mean"`` (the default) is the cluster-balanced mean: the mean of the per-cluster means,
    so a question judged five times weighs as much as one judged once. ``statistic="pooled"`` is the
    mean over all rows of the resampled clusters. Rows whose value is nan are dropped first; a cluster
    left with no rows drops out. No rows at all gives ``(nan, nan)``; a single cluster gives the
    degenerate interval at its mean (there is no between-cluster variation to resample).
    """
    vals = _as_float_1d(values)
    labels = np.asarray(clusters)
    if labels.shape != vals.shape:
        raise ValueError(f"clusters must match values in length ({labels.shape} vs {vals.shape})")
    if statistic not in ("mean", "pooled"):
        raise ValueError(f"statistic must be 'mean' or 'pooled', got {statistic!r}")
    _check_confidence(confidence)
    _check_resamples(n_resamples)
    keep = ~np.isnan(vals)
    vals, labels = vals[keep], labels[keep]
    if vals.size == 0:
        return (float("nan"), float("nan"))
    _, inverse = np.unique(labels, return_inverse=True)
    sums = np.bincount(inverse, weights=vals)
    counts = np.bincount(inverse).astype(float)
    if statistic == "mean":
        means = sums / counts
        boot = _resampled(sums.size, n_resamples, seed, lambda idx: means[idx].mean(axis=1))
    else:
        boot = _resampled(sums.size, n_resamples, seed, lambda idx: sums[idx].sum(axis=1) / counts[idx].sum(axis=1))
    return _percentile_interval(boot, confidence)


def percentile_bootstrap_ci(
    values,
    *,
    statistic: Callable[..., np.ndarray] = np.mean,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> tuple[float, float]:
    """Percentile interval of ``statistic`` by resampling rows with replacement.

    ``statistic`` is called as ``statistic(matrix, axis=1)`` on a resamples x rows matrix (numpy
    reductions such as ``np.mean`` and ``np.median`` work as they are). nan rows are dropped first; no
    rows gives ``(nan, nan)``.
    """
    vals = _as_float_1d(values)
    _check_confidence(confidence)
    _check_resamples(n_resamples)
    vals = vals[~np.isnan(vals)]
    if vals.size == 0:
        return (float("nan"), float("nan"))
    boot = _resampled(vals.size, n_resamples, seed, lambda idx: statistic(vals[idx], axis=1))
    return _percentile_interval(boot, confidence)


@dataclass(frozen=True)
class ProportionDifference:
    """``diff`` = k1/n1 - k2/n2 with its percentile interval and a two-sided bootstrap p-value."""

    diff: float
    ci_low: float
    ci_high: float
    p_value: float


def bootstrap_difference_of_proportions(
    k1: int,
    n1: int,
    k2: int,
    n2: int,
    *,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
    seed: int = 0,
) -> ProportionDifference:
    """Bootstrap the difference of two independent proportions.

    Resampling n rows of 0/1 outcomes with replacement is a Binomial(n, k/n) draw, so each group is
    drawn that way (exact, and fast). The interval resamples each group from its own proportion. The
    p-value tests equal proportions: both groups are resampled from the pooled proportion
    (k1 + k2) / (n1 + n2) and p = (1 + #{|null diff| >= |observed diff|}) / (1 + n_resamples), the
    usual +1 so that a finite number of resamples never claims p = 0. An empty group gives nan.
    """
    for k, n in ((k1, n1), (k2, n2)):
        if n < 0 or k < 0 or k > n:
            raise ValueError(f"need 0 <= k <= n, got k={k}, n={n}")
    _check_confidence(confidence)
    _check_resamples(n_resamples)
    if n1 == 0 or n2 == 0:
        nan = float("nan")
        return ProportionDifference(nan, nan, nan, nan)
    rng = np.random.default_rng(seed)
    observed = k1 / n1 - k2 / n2
    boot = rng.binomial(n1, k1 / n1, n_resamples) / n1 - rng.binomial(n2, k2 / n2, n_resamples) / n2
    pooled = (k1 + k2) / (n1 + n2)
    null = rng.binomial(n1, pooled, n_resamples) / n1 - rng.binomial(n2, pooled, n_resamples) / n2
    # Differences are ratios of small integers; the tolerance keeps exact ties counted as ties.
    extreme = np.count_nonzero(np.abs(null) >= abs(observed) - 1e-12)
    lo, hi = _percentile_interval(boot, confidence)
    return ProportionDifference(observed, lo, hi, (1 + extreme) / (1 + n_resamples))


# --------------------------------------------------------------------------------------------------
# Proportions and tests


def wilson_interval(k, n, *, confidence: float = 0.95):
    """Wilson score interval for k successes in n trials; scalars or arrays. n = 0 gives nan."""
    from statsmodels.stats.proportion import proportion_confint

    _check_confidence(confidence)
    k_arr = np.asarray(k, dtype=float)
    n_arr = np.asarray(n, dtype=float)
    if np.any(k_arr < 0) or np.any(k_arr > n_arr) or np.any(k_arr != np.round(k_arr)) or np.any(n_arr != np.round(n_arr)):
        raise ValueError("need whole numbers with 0 <= k <= n")
    empty = n_arr == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        lo, hi = proportion_confint(k_arr, np.where(empty, 1.0, n_arr), alpha=1.0 - confidence, method="wilson")
    lo = np.where(empty, np.nan, lo)
    hi = np.where(empty, np.nan, hi)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def holm_adjust(p_values) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values, in input order. nan p-values are not counted as tests and
    stay nan in place (statsmodels would count them)."""
    from statsmodels.stats.multitest import multipletests

    p = _as_float_1d(p_values, "p_values")
    if np.any((p < 0) | (p > 1)):
        raise ValueError("p-values must lie in [0, 1]")
    out = np.full(p.shape, np.nan)
    present = ~np.isnan(p)
    if present.any():
        out[present] = multipletests(p[present], method="holm")[1]
    return out


def fisher_exact(table) -> tuple[float, float]:
    """Fisher's exact test on a 2 x 2 table of counts: (odds ratio, two-sided p). A zero cell gives an
    odds ratio of inf or 0 (scipy's convention: the sample odds ratio ad/bc)."""
    from scipy.stats import fisher_exact as _fisher

    t = np.asarray(table)
    if t.shape != (2, 2) or np.any(t < 0) or np.any(t != np.round(t)):
        raise ValueError("need a 2 x 2 table of non-negative whole counts")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = _fisher(t.astype(int))
    return float(res.statistic), float(res.pvalue)


# --------------------------------------------------------------------------------------------------
# Agreement between two scorers or raters


def confusion_matrix(a: Sequence, b: Sequence, labels: Sequence | None = None) -> tuple[list, np.ndarray]:
    """Counts of (label under a, label under b): rows follow a, columns b, labels sorted unless given."""
    a_arr, b_arr = np.asarray(a), np.asarray(b)
    if a_arr.shape != b_arr.shape or a_arr.ndim != 1:
        raise ValueError("the two label sequences must be one-dimensional and of equal length")
    labs = list(labels) if labels is not None else sorted(set(a_arr.tolist()) | set(b_arr.tolist()))
    position = {lab: i for i, lab in enumerate(labs)}
    try:
        ia = np.array([position[x] for x in a_arr.tolist()], dtype=int)
        ib = np.array([position[x] for x in b_arr.tolist()], dtype=int)
    except KeyError as exc:
        raise ValueError(f"label {exc.args[0]!r} is not among the given labels") from None
    table = np.zeros((len(labs), len(labs)), dtype=int)
    np.add.at(table, (ia, ib), 1)
    return labs, table


def cohen_kappa(a: Sequence, b: Sequence) -> float:
    """Cohen's kappa for two raters' nominal labels: (p_o - p_e) / (1 - p_e), with p_e from the two
    raters' own label shares. nan when undefined (no items, or both used one and the same label)."""
    _, table = confusion_matrix(a, b)
    n = table.sum()
    if n == 0:
        return float("nan")
    p_o = np.trace(table) / n
    p_e = float(table.sum(axis=1) @ table.sum(axis=0)) / n**2
    if p_e >= 1.0:
        return float("nan")
    return float((p_o - p_e) / (1.0 - p_e))


def krippendorff_interval_alpha(reliability_data) -> float | None:
    """Krippendorff's alpha, interval level, for a raters x units matrix with nan for missing.

    Units with fewer than two ratings carry no agreement information and drop out. Returns None when
    alpha is undefined: no unit rated twice, or every pairable rating identical (no variation to
    agree about). Never reports 1 for those cases.
    """
    import krippendorff

    data = np.asarray(reliability_data, dtype=float)
    if data.ndim != 2:
        raise ValueError(f"reliability data must be raters x units, got shape {data.shape}")
    pairable = data[:, np.count_nonzero(~np.isnan(data), axis=0) >= 2]
    values = pairable[~np.isnan(pairable)]
    if values.size == 0 or np.all(values == values[0]):
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        alpha = krippendorff.alpha(reliability_data=pairable, level_of_measurement="interval")
    return None if np.isnan(alpha) else float(alpha)


def _paired(a, b) -> tuple[np.ndarray, np.ndarray]:
    x, y = _as_float_1d(a, "a"), _as_float_1d(b, "b")
    if x.shape != y.shape:
        raise ValueError(f"a and b must have equal length ({x.size} vs {y.size})")
    both = ~np.isnan(x) & ~np.isnan(y)
    return x[both], y[both]


def spearman(a, b) -> float:
    """Spearman's rho over the pairs where both values are present; nan when fewer than two pairs or
    either side is constant (rank correlation is undefined there)."""
    from scipy.stats import spearmanr

    x, y = _paired(a, b)
    if x.size < 2 or np.all(x == x[0]) or np.all(y == y[0]):
        return float("nan")
    return float(spearmanr(x, y).statistic)


@dataclass(frozen=True)
class MeanDifference:
    """Over pairs where both values are present: mean of (a - b), mean of |a - b|, and the pair count."""

    signed: float
    absolute: float
    n: int


def mean_differences(a, b) -> MeanDifference:
    x, y = _paired(a, b)
    if x.size == 0:
        return MeanDifference(float("nan"), float("nan"), 0)
    d = x - y
    return MeanDifference(float(d.mean()), float(np.abs(d).mean()), int(d.size))


@dataclass(frozen=True)
class OrderingAgreement:
    """Within-item pair ordering: ``share`` = concordant / (concordant + discordant); ``tied`` counts
    pairs tied under either scorer, which are left out of the share."""

    pairs: int
    concordant: int
    discordant: int
    tied: int
    share: float


def ordering_agreement(items, a, b) -> OrderingAgreement:
    """Over every pair of candidates of the same item (candidates missing a score under either scorer
    left out), do the two scorers order the pair the same way?"""
    x, y = _as_float_1d(a, "a"), _as_float_1d(b, "b")
    keys = np.asarray(items)
    if not (keys.shape == x.shape == y.shape):
        raise ValueError("items, a and b must have equal length")
    both = ~np.isnan(x) & ~np.isnan(y)
    keys, x, y = keys[both], x[both], y[both]
    _, inverse = np.unique(keys, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    bounds = np.flatnonzero(np.diff(inverse[order])) + 1
    concordant = discordant = tied = 0
    for group in np.split(order, bounds):
        if group.size < 2:
            continue
        i, j = np.triu_indices(group.size, k=1)
        sa = np.sign(x[group][i] - x[group][j])
        sb = np.sign(y[group][i] - y[group][j])
        tie = (sa == 0) | (sb == 0)
        tied += int(np.count_nonzero(tie))
        concordant += int(np.count_nonzero(~tie & (sa == sb)))
        discordant += int(np.count_nonzero(~tie & (sa != sb)))
    ordered = concordant + discordant
    share = concordant / ordered if ordered else float("nan")
    return OrderingAgreement(ordered + tied, concordant, discordant, tied, share)
