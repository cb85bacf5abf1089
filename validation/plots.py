"""PNG plots for report.md (matplotlib, Agg backend: no display needed). Each function writes one file."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from validation.aggregate import TOTAL


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, path: Path) -> None:
    import io

    from groundjudge.storage import atomic_write_bytes

    buf = io.BytesIO()
    # No "Software" entry: the PNG bytes then depend on the data, not on the matplotlib version.
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight", metadata={"Software": None})
    atomic_write_bytes(path, buf.getvalue())


def cell_totals(ci: pd.DataFrame, path: Path) -> None:
    """Question-balanced total per cell with its bootstrap interval."""
    plt = _plt()
    t = ci[ci["dimension"].astype(str) == TOTAL].dropna(subset=["mean_question_balanced"]).sort_values("cell")
    fig, ax = plt.subplots(figsize=(7, 0.45 * max(len(t), 2) + 1))
    y = np.arange(len(t))
    err = np.vstack([t["mean_question_balanced"] - t["ci_low"], t["ci_high"] - t["mean_question_balanced"]])
    ax.errorbar(t["mean_question_balanced"], y, xerr=err, fmt="o", capsize=4)
    ax.set_yticks(y, t["cell"])
    ax.invert_yaxis()
    conf = t["confidence"].iloc[0] if len(t) else 0.95
    ax.set_xlabel(f"total, question-balanced mean ({conf:.0%} question-bootstrap interval)")
    ax.grid(axis="x", alpha=0.3)
    _save(fig, path)
    plt.close(fig)


def dimension_means(means: pd.DataFrame, bounds: dict[str, tuple[float, float]], path: Path) -> None:
    """Per-dimension means per cell, as a share of each dimension's range so dimensions compare."""
    plt = _plt()
    m = means[means["dimension"].astype(str) != TOTAL].copy()
    m["dimension"] = m["dimension"].astype(str)
    dims = list(dict.fromkeys(m["dimension"]))
    cells = sorted(set(m["cell"]))
    fig, ax = plt.subplots(figsize=(max(6, 1.2 * len(dims) * max(len(cells), 1) / 2), 4))
    width = 0.8 / max(len(cells), 1)
    x = np.arange(len(dims))
    for i, cell in enumerate(cells):
        row = m[m["cell"] == cell].set_index("dimension")["mean_question_balanced"]
        share = [(row.get(d, np.nan) - bounds[d][0]) / (bounds[d][1] - bounds[d][0]) for d in dims]
        ax.bar(x + i * width - 0.4 + width / 2, share, width, label=cell)
    ax.set_xticks(x, dims)
    ax.set_ylabel("question-balanced mean, share of the dimension's range")
    ax.set_ylim(0, 1)
    ax.legend(fontsize="small")
    _save(fig, path)
    plt.close(fig)


def judge_scatter(slots: pd.DataFrame, path: Path) -> bool:
    """Judge against judge on each answer's total, one panel per pair; False if under two judges."""
    t = slots[(slots["dimension"].astype(str) == TOTAL) & slots["value"].notna()]
    wide = t.pivot_table(index=["cell", "qid"], columns="judge", values="value", aggfunc="mean")
    pairs = list(combinations(sorted(wide.columns), 2))
    if not pairs:
        return False
    plt = _plt()
    fig, axes = plt.subplots(1, len(pairs), figsize=(4.2 * len(pairs), 4.2), squeeze=False)
    for ax, (ja, jb) in zip(axes[0], pairs):
        both = wide[[ja, jb]].dropna()
        for cell, g in both.groupby(level="cell"):
            ax.scatter(g[ja], g[jb], s=14, alpha=0.7, label=cell)
        lo = float(np.nanmin(both.to_numpy())) if len(both) else 0.0
        hi = float(np.nanmax(both.to_numpy())) if len(both) else 1.0
        ax.plot([lo, hi], [lo, hi], color="grey", linewidth=0.8)
        ax.set_xlabel(f"{ja} total")
        ax.set_ylabel(f"{jb} total")
        ax.set_title(f"n = {len(both)} answers")
        ax.legend(fontsize="x-small")
    _save(fig, path)
    plt.close(fig)
    return True


def retest_shifts(table: pd.DataFrame, floor: float, path: Path) -> None:
    """Shift of each cell's total between the two runs (B - A), with the range marked."""
    plt = _plt()
    t = table[table["dimension"].astype(str) == TOTAL].sort_values("cell")
    fig, ax = plt.subplots(figsize=(7, 0.45 * max(len(t), 2) + 1))
    y = np.arange(len(t))
    ax.barh(y, t["shift"])
    ax.set_yticks(y, t["cell"])
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    title = f"test-retest floor (range) = {floor:.2f}" if not np.isnan(floor) else "test-retest floor undefined"
    ax.set_title(title)
    ax.set_xlabel("shift of the total, run B - run A")
    _save(fig, path)
    plt.close(fig)
