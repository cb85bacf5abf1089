"""Test-retest noise floor: two runs of the same binary on the same questions and corpus snapshot.

The cell-level construction compares question-balanced cell means (B - A); the headline floor is
the range of those shifts on the total across cells, the smallest difference between cells that a
rerun alone could not produce. The paired construction matches (question, judge) and keeps only
pairs valid in both runs, so it measures judge-and-answer noise free of missing-data churn.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from groundjudge.errors import UserError
from groundjudge.validation.aggregate import TOTAL, three_means
from groundjudge.validation.scores_io import RunScores

RETEST_COLUMNS = [
    "cell",
    "dimension",
    "mean_a",
    "mean_b",
    "shift",
    "n_questions_a",
    "n_questions_b",
    "n_pairs",
    "mean_abs_pair_movement",
    "mean_signed_pair_movement",
]
RANGE_COLUMNS = ["dimension", "floor", "min_shift", "max_shift", "n_cells"]


def _manifest_hashes(run_dir: Path) -> dict[str, str] | None:
    from groundjudge.judging.manifest import RunManifest
    from groundjudge.storage import read_model

    path = run_dir / "manifest.json"
    if not path.exists():
        return None
    m = read_model(path, RunManifest)
    return {"corpus tree hash": m.corpus_tree_hash, "question set hash": m.questions_sha256}


def check_comparable(a: RunScores, b: RunScores) -> None:
    """Refuse, with the reason, two runs that differ in corpus snapshot or questions."""
    for run in (a, b):
        if len(run.corpus_tree_hashes()) > 1:
            raise UserError(f"score files name {len(run.corpus_tree_hashes())} different corpus tree hashes", run.run_dir)
    ha, hb = a.corpus_tree_hashes(), b.corpus_tree_hashes()
    if ha and hb and ha != hb:
        raise UserError(f"corpus tree hash {next(iter(hb))[:12]} differs from {next(iter(ha))[:12]} in {a.run_dir}", b.run_dir)
    ma, mb = _manifest_hashes(a.run_dir), _manifest_hashes(b.run_dir)
    if ma and mb:
        for key in ma:
            if ma[key] != mb[key]:
                raise UserError(
                    f"manifest {key} {mb[key][:12]} differs from {ma[key][:12]} in {a.run_dir}", b.run_dir / "manifest.json"
                )
    if set(a.cells) != set(b.cells):
        raise UserError(
            f"cells differ: only in A {sorted(set(a.cells) - set(b.cells))}, only in B {sorted(set(b.cells) - set(a.cells))}",
            b.run_dir,
        )
    for cell in sorted(a.cells):
        qa, qb = (_questions(r, cell) for r in (a, b))
        if qa != qb:
            raise UserError(
                f"question sets of cell {cell!r} differ: only in A {sorted(qa - qb)[:5]}, only in B {sorted(qb - qa)[:5]}",
                b.run_dir / cell,
            )


def _questions(run: RunScores, cell: str) -> set[str]:
    c = run.cells[cell]
    return set(c.answers) | set(c.scores) | set(c.malformed)


def retest_table(slots_a: pd.DataFrame, slots_b: pd.DataFrame) -> pd.DataFrame:
    """Per cell and dimension: both question-balanced means, their shift, and the paired movement."""
    ma = three_means(slots_a).set_index(["cell", "dimension"])
    mb = three_means(slots_b).set_index(["cell", "dimension"])
    keys = ["cell", "qid", "judge", "dimension"]
    va = slots_a.loc[slots_a["value"].notna(), [*keys, "value"]]
    vb = slots_b.loc[slots_b["value"].notna(), [*keys, "value"]]
    pairs = va.merge(vb, on=keys, suffixes=("_a", "_b"))
    pairs["move"] = pairs["value_b"] - pairs["value_a"]
    pairs["abs_move"] = pairs["move"].abs()
    g = pairs.groupby(["cell", "dimension"], observed=True)
    out = pd.DataFrame(
        {
            "mean_a": ma["mean_question_balanced"],
            "mean_b": mb["mean_question_balanced"],
            "n_questions_a": ma["n_questions"],
            "n_questions_b": mb["n_questions"],
        }
    )
    out["shift"] = out["mean_b"] - out["mean_a"]
    out["n_pairs"] = g.size().reindex(out.index).fillna(0).astype(int)
    out["mean_abs_pair_movement"] = g["abs_move"].mean().reindex(out.index)
    out["mean_signed_pair_movement"] = g["move"].mean().reindex(out.index)
    return out.reset_index()[RETEST_COLUMNS]


def shift_ranges(table: pd.DataFrame) -> pd.DataFrame:
    """Per dimension the range of cell-mean shifts; undefined (nan) with fewer than two cells."""
    rows = []
    for dimension, g in table.groupby("dimension", observed=True, sort=False):
        shifts = g["shift"].dropna()
        n = int(shifts.size)
        lo, hi = (float(shifts.min()), float(shifts.max())) if n else (np.nan, np.nan)
        rows.append(
            {"dimension": str(dimension), "floor": hi - lo if n >= 2 else np.nan, "min_shift": lo, "max_shift": hi, "n_cells": n}
        )
    return pd.DataFrame(rows, columns=RANGE_COLUMNS)


def floors_from_csv(path: str | Path) -> dict[str, float]:
    """Per-dimension floors recomputed from a ``test_retest.csv``."""
    path = Path(path)
    try:
        table = pd.read_csv(path)
    except (OSError, pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise UserError(f"cannot read test_retest.csv ({exc})", path) from None
    missing = [c for c in ("cell", "dimension", "shift") if c not in table.columns]
    if missing:
        raise UserError(f"not a test_retest.csv: missing columns {missing}", path)
    ranges = shift_ranges(table)
    return {str(d): float(f) for d, f in zip(ranges["dimension"], ranges["floor"]) if not np.isnan(f)}


def parse_retest_floor(value: str) -> dict[str, float]:
    """``--retest-floor``: a number (the floor on the total) or a test_retest.csv."""
    try:
        number = float(value)
    except ValueError:
        if not Path(value).is_file():
            raise UserError(f"--retest-floor {value!r} is neither a number nor an existing test_retest.csv") from None
        return floors_from_csv(value)
    if not number >= 0:
        raise UserError(f"--retest-floor must be a non-negative number or a test_retest.csv, got {value!r}")
    return {TOTAL: number}


def _blind_setup(run: RunScores, blind) -> str:
    """How a run was blind-checked (``blind``: its BlindFile or None), in words two runs can compare."""
    return f"blind cells {sorted(c for c in blind.blind_cells if c in run.cells)}" if blind else "no blind check"


def compare_runs(run_a: Path, run_b: Path, cells: list[str] | None):
    """Read, check and compare two runs, each with its own blind-check exclusions."""
    from groundjudge.validation.aggregate import slot_table
    from groundjudge.validation.blind import read_void_list
    from groundjudge.validation.scores_io import load_run_with_progress

    a, b = load_run_with_progress(run_a, cells), load_run_with_progress(run_b, cells)
    for run in (a, b):
        if not run.judges:
            raise UserError("no score file names a judge: nothing to compare (run `groundjudge score` first)", run.run_dir)
    check_comparable(a, b)
    if a.rubric != b.rubric:
        raise UserError("the two runs were scored with different rubrics", run_b)
    blinds = [read_void_list(run.run_dir)[0] for run in (a, b)]
    setup_a, setup_b = (_blind_setup(run, blind) for run, blind in zip((a, b), blinds))
    if setup_a != setup_b:
        # A shift between a run with void answers left out and one with them kept measures the exclusion.
        raise UserError(
            f"the runs were not blind-checked alike ({a.run_dir}: {setup_a}; {b.run_dir}: {setup_b}); "
            "run `groundjudge blind` on both with the same --blind-cells",
            b.run_dir,
        )
    slots = [slot_table(run, void=blind.void_keys() if blind else ()) for run, blind in zip((a, b), blinds)]
    table = retest_table(*slots)
    return a, b, table, shift_ranges(table)


def run_retest(run_a: Path, run_b: Path, cells: list[str] | None, out: Path) -> None:
    """The ``retest`` command."""
    from groundjudge.validation.tables import check_output_dir, output_dir, write_csv
    from groundjudge.validation.tables import console as make_console

    check_output_dir(out)
    a, b, table, ranges = compare_runs(run_a, run_b, cells)
    out = output_dir(out)
    console = make_console()
    for run in (a, b):
        for problem in run.malformed_files().values():
            console.print(f"[yellow]excluded malformed score file[/]: {problem}", highlight=False)
    write_csv(out / "test_retest.csv", table, RETEST_COLUMNS)
    write_csv(out / "test_retest_ranges.csv", ranges, RANGE_COLUMNS)
    total = ranges[ranges["dimension"] == TOTAL].iloc[0]
    pairs = table[table["dimension"] == TOTAL]
    headline = f"test-retest floor (range of cell-mean shifts on the total over {total.n_cells} cells): " + (
        f"{total.floor:.2f}" if not np.isnan(total.floor) else "undefined (needs at least two cells)"
    )
    console.print(headline, highlight=False)
    for r in ranges.itertuples():
        if r.dimension != TOTAL:
            console.print(
                f"  {r.dimension}: range {r.floor:.2f} (shifts {r.min_shift:+.2f} .. {r.max_shift:+.2f})", highlight=False
            )
    n_pairs = int(pairs["n_pairs"].sum())
    if n_pairs:
        mean_abs = float((pairs["mean_abs_pair_movement"] * pairs["n_pairs"]).sum() / n_pairs)
        console.print(
            f"paired (question, judge) movement on the total: mean |B - A| = {mean_abs:.2f} over {n_pairs} pairs", highlight=False
        )
    console.print(f"wrote {out / 'test_retest.csv'}", highlight=False)
