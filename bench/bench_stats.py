"""Cluster bootstrap speed: 10,000 resamples over 1,800 rows (target: under 3 s).

Run: python bench/bench_stats.py
The baseline, measured in the same run, is the floor any resampling bootstrap pays: drawing the
same 10,000 x clusters index matrix and taking np.mean over the gathered 10,000 x clusters values.
A second line does the same at one cluster per row (1,800 clusters, the worst case).
"""

from __future__ import annotations

import functools
import time

import numpy as np

from groundjudge.validation.stats import cluster_bootstrap_ci

ROWS, RESAMPLES, REPEATS = 1_800, 10_000, 3


def _best(fn) -> float:
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def _baseline(values: np.ndarray, k: int) -> None:
    idx = np.random.default_rng(0).integers(0, k, size=(RESAMPLES, k))
    np.quantile(values[:k][idx].mean(axis=1), [0.025, 0.975])


def main() -> None:
    rng = np.random.default_rng(0)
    values = rng.normal(60, 15, ROWS)
    for n_clusters in (60, ROWS):
        clusters = np.arange(ROWS) % n_clusters  # 60 questions x 30 judgements, then one row per cluster
        base = _best(functools.partial(_baseline, values, n_clusters))
        for statistic in ("mean", "pooled"):
            t = _best(
                functools.partial(cluster_bootstrap_ci, values, clusters, statistic=statistic, n_resamples=RESAMPLES, seed=0)
            )
            print(
                f"cluster_bootstrap_ci({statistic}): {RESAMPLES:,} resamples, {ROWS:,} rows, {n_clusters:,} clusters: "
                f"{t:.3f} s (target < 3 s); baseline draw+gather+mean {base:.3f} s; ratio {t / base:.2f}x"
            )


if __name__ == "__main__":
    main()
