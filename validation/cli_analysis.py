"""``groundjudge report``, ``groundjudge retest`` and ``groundjudge blind``."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def _split(values: list[str] | None) -> list[str] | None:
    """Repeatable options also accept comma-separated lists."""
    if not values:
        return None
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def report(
    run_dir: Path = typer.Argument(..., help="Run directory holding <cell>/answers and <cell>/scores."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the tables, report.md and plots (default RUN_DIR/report)."),
    questions: Optional[Path] = typer.Option(None, "--questions", help="Question set (JSONL) naming the expected questions; default: the run manifest's, else every question seen in the run."),
    floor_cell: Optional[str] = typer.Option(None, "--floor-cell", help="The blind control cell whose mean is the floor."),
    baseline_cell: Optional[str] = typer.Option(None, "--baseline-cell", help="The source-available baseline cell the floor is measured against."),
    retest_floor: Optional[str] = typer.Option(None, "--retest-floor", help="Test-retest floor on the total (a number, e.g. 3.89) or a test_retest.csv from `groundjudge retest`."),
    retest: Optional[Path] = typer.Option(None, "--retest", help="A second run of the same questions: adds test-retest shifts to the report."),
    seed: int = typer.Option(0, "--seed", help="Seed of the question-level bootstrap."),
    resamples: int = typer.Option(10_000, "--resamples", min=1, help="Bootstrap resamples."),
    confidence: float = typer.Option(0.95, "--confidence", min=0.5, max=0.999, help="Confidence level of the intervals."),
) -> None:
    """Aggregate the score files: exclusions, the three means, per-judge means, sensitivity, intervals,
    floors, and report.md with plots."""
    from validation.report import run_report

    run_report(
        run_dir, out or run_dir / "report", questions=questions, floor_cell=floor_cell, baseline_cell=baseline_cell,
        retest_floor=retest_floor, retest_run=retest, seed=seed, n_resamples=resamples, confidence=confidence,
    )


def retest(
    run_a: Path = typer.Argument(..., help="First run directory."),
    run_b: Path = typer.Argument(..., help="Second run of the same binary, questions and corpus snapshot."),
    cells: Optional[list[str]] = typer.Option(None, "--cells", help="Cells to compare (repeatable or comma-separated; default: every cell of both runs)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write test_retest.csv and test_retest_ranges.csv (default RUN_B/retest)."),
) -> None:
    """Test-retest noise floor: per cell and dimension the shift of the mean (B - A), the range of the
    shifts, and the paired movement per (question, judge)."""
    from validation.retest import run_retest

    run_retest(run_a, run_b, _split(cells), out or run_b / "retest")


def blind(
    run_dir: Path = typer.Argument(..., help="Run directory holding <cell>/events/<qid>.jsonl."),
    blind_cells: list[str] = typer.Option(..., "--blind-cells", help="Glob pattern(s) naming the blind cells (repeatable or comma-separated)."),
) -> None:
    """Verify blind cells from the agents' event streams; writes blind.csv, blind_cells.csv and the
    void list blind.json that `groundjudge report` excludes."""
    from validation.blind import run_blind

    run_blind(run_dir, _split(blind_cells) or [])


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("retest")(retest)
    app.command("blind")(blind)
