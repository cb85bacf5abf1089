"""PNG plots for report.md (matplotlib, Agg backend: no display needed). Each function writes one file;
``note`` is appended to its titles (the report says " (simulated judges)" there)."""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from groundjudge.validation.aggregate import TOTAL


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


_MARKERS = "osD^vP*Xph"
_MAX_LABELLED_BARS = 24


def cell_totals(ci: pd.DataFrame, path: Path, note: str = "") -> None:
    """Question-balanced total per cell with its bootstrap interval, the value written beside it."""
    plt = _plt()
    t = ci[ci["dimension"].astype(str) == TOTAL].dropna(subset=["mean_question_balanced"]).sort_values("cell")
    fig, ax = plt.subplots(figsize=(7, 0.5 * max(len(t), 2) + 1.2))
    y = np.arange(len(t))
    mean = t["mean_question_balanced"].to_numpy()
    err = np.vstack([mean - t["ci_low"], t["ci_high"] - mean])
    ax.errorbar(mean, y, xerr=err, fmt="o", capsize=4)
    for yi, m, lo, hi in zip(y, mean, t["ci_low"], t["ci_high"]):
        ax.annotate(f"{m:.2f} [{lo:.2f}, {hi:.2f}]", (m, yi), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    ax.set_yticks(y, t["cell"])
    ax.set_ylim(len(t) - 0.4, -0.6)
    conf = t["confidence"].iloc[0] if len(t) else 0.95
    n_res = int(t["n_resamples"].iloc[0]) if len(t) else 0
    ax.set_title("Cell totals (question-balanced mean)" + note)
    ax.set_xlabel(f"total, with {conf:.0%} interval (question-level bootstrap, {n_res} resamples)")
    ax.grid(axis="x", alpha=0.3)
    _save(fig, path)
    plt.close(fig)


def dimension_means(means: pd.DataFrame, bounds: dict[str, tuple[float, float]], path: Path, note: str = "") -> None:
    """Per-dimension means per cell, as a share of each dimension's range so dimensions compare; the
    raw mean is written on each bar and the range under each dimension."""
    plt = _plt()
    m = means[means["dimension"].astype(str) != TOTAL].copy()
    m["dimension"] = m["dimension"].astype(str)
    dims = list(dict.fromkeys(m["dimension"]))
    cells = sorted(set(m["cell"]))
    n_bars = len(dims) * max(len(cells), 1)
    labelled = n_bars <= _MAX_LABELLED_BARS  # past that the labels would overlap
    fig, ax = plt.subplots(figsize=(min(16, max(6, 0.45 * n_bars + 2)), 4.5))
    width = 0.8 / max(len(cells), 1)
    x = np.arange(len(dims))
    for i, cell in enumerate(cells):
        row = m[m["cell"] == cell].set_index("dimension")["mean_question_balanced"]
        raw = [row.get(d, np.nan) for d in dims]
        share = [(v - bounds[d][0]) / (bounds[d][1] - bounds[d][0]) for v, d in zip(raw, dims)]
        bars = ax.bar(x + i * width - 0.4 + width / 2, share, width, label=cell)
        if labelled:
            ax.bar_label(bars, labels=["" if np.isnan(v) else f"{v:.2f}" for v in raw], fontsize=7, padding=2)
    ax.set_xticks(x, [f"{d}\n({bounds[d][0]:g} to {bounds[d][1]:g})" for d in dims])
    ax.set_ylabel("mean as a share of the range\n(0 = rubric minimum, 1 = maximum)")
    ax.set_ylim(0, 1.08)
    ax.set_title(
        "Per-dimension means per cell (question-balanced); "
        + ("raw mean on each bar" if labelled else "raw means in cell_dimension.csv")
        + note
    )
    ax.legend(fontsize="small", loc="upper left", bbox_to_anchor=(1.01, 1.0), title="cell")
    _save(fig, path)
    plt.close(fig)


def judge_scatter(slots: pd.DataFrame, bounds: tuple[float, float], path: Path, note: str = "") -> bool:
    """Judge against judge on each answer's total, one panel per pair; False if under two judges.
    Answers with the same pair of scores in a cell are drawn once, the marker's area growing with
    their number, so overlapping points are not hidden."""
    t = slots[(slots["dimension"].astype(str) == TOTAL) & slots["value"].notna()]
    wide = t.pivot_table(index=["cell", "qid"], columns="judge", values="value", aggfunc="mean")
    pairs = list(combinations(sorted(wide.columns), 2))
    if not pairs:
        return False
    plt = _plt()
    ncols = min(len(pairs), 3)
    nrows = -(-len(pairs) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(5.2 * ncols, 4.6 * nrows), squeeze=False)
    for ax in axes.flat[len(pairs) :]:
        ax.set_visible(False)
    # The rubric's range, widened if a judge scored outside it (that point must still show).
    lo, hi = min(bounds[0], float(t["value"].min())), max(bounds[1], float(t["value"].max()))
    pad = (hi - lo) * 0.04
    for ax, (ja, jb) in zip(axes.flat, pairs):
        both = wide[[ja, jb]].dropna()
        for k, (cell, g) in enumerate(both.groupby(level="cell")):
            counts = g.groupby([ja, jb]).size().reset_index(name="n")
            ax.scatter(
                counts[ja],
                counts[jb],
                s=30 * counts["n"],
                marker=_MARKERS[k % len(_MARKERS)],
                facecolors="none",
                edgecolors=f"C{k}",
                linewidths=1.3,
                label=cell,
            )
        ax.plot([lo, hi], [lo, hi], color="grey", linewidth=0.8, linestyle="--", label="equal scores")
        ax.set_xlim(lo - pad, hi + pad)
        ax.set_ylim(lo - pad, hi + pad)
        ax.set_aspect("equal")
        ax.set_xlabel(f"{ja}: total")
        ax.set_ylabel(f"{jb}: total")
        ax.set_title(f"{ja} vs {jb}: total per answer (n = {len(both)}){note}", fontsize=10)
        ax.grid(alpha=0.3)
    fig.tight_layout()
    # One legend for every panel, under them, where it hides no point.
    handles, labels = axes.flat[0].get_legend_handles_labels()
    fig.legend(
        handles,
        labels,
        loc="upper center",
        bbox_to_anchor=(0.5, 0.0),
        ncol=min(len(labels), 6),
        fontsize="small",
        title="cell (a marker's area grows with the answers at that point)",
        title_fontsize="small",
    )
    _save(fig, path)
    plt.close(fig)
    return True


def shift_axis_limit(shifts: np.ndarray) -> float:
    """Half-width of the shift axis: 30% past the largest shift, and one point either side when every
    shift is 0 (an axis of +-1e-9 made rounding noise look like the whole scale)."""
    span = float(np.max(np.abs(shifts))) if len(shifts) else 0.0
    return 1.3 * span if span > 0 else 1.0


def retest_shifts(table: pd.DataFrame, floor: float, path: Path, note: str = "") -> None:
    """Shift of each cell's total between the two runs (B - A); the floor is the range they span."""
    plt = _plt()
    t = table[table["dimension"].astype(str) == TOTAL].sort_values("cell")
    fig, ax = plt.subplots(figsize=(7, 0.5 * max(len(t), 2) + 1.2))
    y = np.arange(len(t))
    bars = ax.barh(y, t["shift"])
    ax.bar_label(bars, labels=[f"{v:+.2f}" for v in t["shift"]], fontsize=8, padding=3)
    ax.set_yticks(y, t["cell"])
    ax.invert_yaxis()
    ax.axvline(0, color="black", linewidth=0.8)
    shifts = t["shift"].dropna()
    if len(shifts) >= 2:
        for v in (shifts.min(), shifts.max()):
            ax.axvline(v, color="grey", linewidth=0.8, linestyle="--")
    limit = shift_axis_limit(shifts.to_numpy(dtype=float))
    ax.set_xlim(-limit, limit)
    title = (
        f"Test-retest floor = range of the cell shifts = {floor:.2f}"
        if not np.isnan(floor)
        else "Test-retest floor undefined (fewer than two cells)"
    )
    ax.set_title(title + note)
    ax.set_xlabel("shift of the cell's total, run B - run A (question-balanced)")
    _save(fig, path)
    plt.close(fig)
