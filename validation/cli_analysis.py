"""``groundjudge report``, ``groundjudge retest`` and ``groundjudge blind``."""

from __future__ import annotations

from pathlib import Path

import typer


def _split(values: list[str] | None) -> list[str] | None:
    """Repeatable options also accept comma-separated lists."""
    if not values:
        return None
    return [v.strip() for value in values for v in value.split(",") if v.strip()]


def report(
    run_dir: Path = typer.Argument(..., help="Run directory holding <cell>/answers/<qid>.md and <cell>/scores/<qid>.json."),
    out: Path | None = typer.Option(
        None, "--out", help="Where to write the tables, report.md and plots (default RUN_DIR/report)."
    ),
    questions: Path | None = typer.Option(
        None,
        "--questions",
        help="Question set (JSONL) naming the expected questions; default: the run manifest's, else every question seen in the run.",
    ),
    floor_cell: str | None = typer.Option(
        None, "--floor-cell", help="The blind control cell whose mean is the floor (give with --baseline-cell)."
    ),
    baseline_cell: str | None = typer.Option(
        None,
        "--baseline-cell",
        help="The source-available baseline cell; each cell's share of the baseline-over-floor gap is reported.",
    ),
    retest_floor: str | None = typer.Option(
        None,
        "--retest-floor",
        help="Test-retest floor used to flag differences too small to trust: a number (the floor on the total, e.g. 3.89) or a test_retest.csv from `groundjudge retest` (a floor per dimension). Default: measured from --retest when given.",
    ),
    retest: Path | None = typer.Option(
        None,
        "--retest",
        help="A second run of the same binary, questions and corpus snapshot: adds the test-retest shifts and floor to the report.",
    ),
    seed: int = typer.Option(0, "--seed", help="Seed of the question-level bootstrap (same seed and inputs, same intervals)."),
    resamples: int = typer.Option(10_000, "--resamples", min=1, help="Resamples of the question-level bootstrap."),
    confidence: float = typer.Option(
        0.95, "--confidence", min=0.5, max=0.999, help="Confidence level of the bootstrap intervals."
    ),
) -> None:
    """Aggregate a run's score files into tables, report.md and plots.

    Failed judgements, missing or malformed score files are missing data (never 0) and counted in
    exclusions.csv; void answers listed by `groundjudge blind` in RUN_DIR/blind.json are left out.
    Writes cell_dimension.csv (question-balanced, pooled and judge-balanced means),
    cell_judge_dimension.csv, cell_intervals.csv, exclusions.csv, run_inventory.csv, sensitivity.csv,
    floors.csv and test_retest.csv when asked, report.md with PNG plots, and report_inputs.json (the
    sha256 of every input). Columns and definitions: docs/formats/report.md."""
    from groundjudge.validation.report import run_report

    run_report(
        run_dir,
        out or run_dir / "report",
        questions=questions,
        floor_cell=floor_cell,
        baseline_cell=baseline_cell,
        retest_floor=retest_floor,
        retest_run=retest,
        seed=seed,
        n_resamples=resamples,
        confidence=confidence,
    )


def retest(
    run_a: Path = typer.Argument(..., help="First run directory."),
    run_b: Path = typer.Argument(..., help="Second run of the same binary, questions and corpus snapshot."),
    cells: list[str] | None = typer.Option(
        None,
        "--cells",
        help="Cells to compare (repeatable or comma-separated); default: every cell. Both runs must have the same cells.",
    ),
    out: Path | None = typer.Option(
        None, "--out", help="Where to write test_retest.csv and test_retest_ranges.csv (default RUN_B/retest)."
    ),
) -> None:
    """Test-retest noise floor between two runs of the same binary, questions and corpus snapshot.

    Refuses runs whose corpus tree hashes, question sets or rubrics differ. Per cell and dimension: the
    shift of the question-balanced mean (B - A) and the paired movement per (question, judge) valid in
    both runs; the floor is the range of the cell shifts. Each run's void blind-cell answers
    (blind.json) are left out. Prints the headline floor on the total; writes test_retest.csv and
    test_retest_ranges.csv (docs/formats/report.md)."""
    from groundjudge.validation.retest import run_retest

    run_retest(run_a, run_b, _split(cells), out or run_b / "retest")


def blind(
    run_dir: Path = typer.Argument(
        ..., help="Run directory holding <cell>/answers/<qid>.md and the agents' event streams <cell>/events/<qid>.jsonl."
    ),
    blind_cells: list[str] = typer.Option(
        ...,
        "--blind-cells",
        help="Glob pattern(s) naming the cells answered without the source, e.g. 'blind-*' (repeatable or comma-separated).",
    ),
) -> None:
    """Verify blind cells from the agents' event streams (Claude Code stream-json, Codex exec --json
    or generic JSONL; docs/formats/events.md).

    In a blind cell an answer with a file, search, shell or web tool call that ran is void; one with no
    readable stream is unverified (kept, listed); a non-empty working directory or a forbidden tool
    left available is a violation. Writes blind.csv (per answer), blind_cells.csv (per cell) and
    RUN_DIR/blind.json, the void list that `groundjudge report`, `retest` and `agreement judges` leave
    out."""
    from groundjudge.validation.blind import run_blind

    run_blind(run_dir, _split(blind_cells) or [])


def register(app: typer.Typer) -> None:
    app.command("report")(report)
    app.command("retest")(retest)
    app.command("blind")(blind)
