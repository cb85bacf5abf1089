"""Floors and effect sizes: where each cell stands between a blind control (the floor, what a
model scores without the source) and its source-available baseline."""

from __future__ import annotations

import numpy as np
import pandas as pd

from groundjudge.errors import UserError

FLOOR_COLUMNS = [
    "cell",
    "dimension",
    "raw",
    "floor",
    "minus_floor",
    "share_of_gap",
    "retest_floor",
    "within_floor_noise",
    "within_baseline_noise",
]


def floor_table(
    means: pd.DataFrame,
    floor_cell: str,
    baseline_cell: str,
    retest_floors: dict[str, float] | None = None,
) -> pd.DataFrame:
    """From ``cell_dimension`` means (question-balanced): for every cell but the floor, the raw
    mean, the mean minus the floor, and the share of the baseline-over-floor gap it reaches.
    ``within_floor_noise`` / ``within_baseline_noise`` flag a difference from the floor / baseline
    smaller than the test-retest floor of that dimension (empty where no floor is known)."""
    cells = set(means["cell"])
    for name, option in ((floor_cell, "--floor-cell"), (baseline_cell, "--baseline-cell")):
        if name not in cells:
            raise UserError(f"{option} {name!r} is not a cell of this run (cells: {', '.join(sorted(cells))})")
    if floor_cell == baseline_cell:
        raise UserError("--floor-cell and --baseline-cell must differ")
    by = means.set_index(["cell", "dimension"])["mean_question_balanced"]
    rows = []
    for r in means.itertuples():
        if r.cell == floor_cell:
            continue
        dim = str(r.dimension)
        floor = by[(floor_cell, dim)]
        gap = by[(baseline_cell, dim)] - floor
        raw = r.mean_question_balanced
        noise = (retest_floors or {}).get(dim, np.nan)
        known = not np.isnan(noise)
        rows.append(
            {
                "cell": r.cell,
                "dimension": dim,
                "raw": raw,
                "floor": floor,
                "minus_floor": raw - floor,
                "share_of_gap": (raw - floor) / gap if gap != 0 else np.nan,
                "retest_floor": noise,
                "within_floor_noise": bool(abs(raw - floor) < noise) if known else None,
                "within_baseline_noise": bool(abs(raw - floor - gap) < noise) if known else None,
            }
        )
    return pd.DataFrame(rows, columns=FLOOR_COLUMNS)
