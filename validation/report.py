"""``groundjudge report``: the aggregation tables as CSV, report.md with plots, and a record of the
exact inputs (sha256 of every score file, the blind check, the manifest, the question set)."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Literal

import numpy as np
import pandas as pd

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.hashing import sha256_file
from groundjudge.storage import VersionedModel, atomic_write_text, read_model, write_model
from groundjudge.validation import aggregate as agg
from groundjudge.validation.scores_io import RunScores, load_run_with_progress
from groundjudge.validation.tables import write_csv

if TYPE_CHECKING:
    from groundjudge.validation.blind import BlindFile


class ReportInputs(VersionedModel):
    """``report_inputs.json``: what the tables were computed from, so a number can be traced back."""

    schema_version: Literal[1] = 1
    tool_version: str
    run_dir: str
    score_files: dict[str, str]  # path relative to the run directory -> sha256
    blind_sha256: str | None
    manifest_sha256: str | None
    questions_sha256: str | None
    expected_questions: int | None  # None: the manifest's question set is missing or changed, so not known
    questions_problem: str | None = None  # why the manifest's question set could not be used
    ignored_questions: list[str] = []  # in the run's files but not in the question set
    seed: int
    n_resamples: int
    confidence: float
    floor_cell: str | None
    baseline_cell: str | None
    retest_floors: dict[str, float]
    retest_run: str | None
    retest_score_files: dict[str, str]


@dataclass
class Analysis:
    run: RunScores
    slots: pd.DataFrame
    means: pd.DataFrame
    per_judge: pd.DataFrame
    exclusions: pd.DataFrame
    inventory: pd.DataFrame
    sensitivity: pd.DataFrame
    intervals: pd.DataFrame
    void: list  # BlindEntry
    unverified: list  # BlindEntry


@dataclass(frozen=True)
class Expectations:
    """What the run should hold: the questions and judges, and the sha256 of where that came from."""

    qids: list[str] | None  # None: every question seen in the run
    judges: frozenset[str]  # the manifest's judges (a judge that never wrote a judgement still counts)
    questions_sha256: str | None
    manifest_sha256: str | None
    problem: str | None = None  # the manifest names a question set that is missing or changed: qids is None


def expectations(run_dir: Path, questions: Path | None) -> Expectations:
    from groundjudge.judging.manifest import RunManifest, find_questions
    from groundjudge.questions import load_questions

    manifest_path = run_dir / "manifest.json"
    manifest = read_model(manifest_path, RunManifest) if manifest_path.exists() else None
    manifest_sha = sha256_file(manifest_path) if manifest else None
    judges = frozenset(j.name for j in manifest.judges) if manifest else frozenset()
    if questions is not None:
        return Expectations([q.id for q in load_questions(questions)], judges, sha256_file(questions), manifest_sha)
    if manifest is not None:
        found = find_questions(manifest, run_dir)
        if found.path is None:
            return Expectations(None, judges, None, manifest_sha, found.problem)
        return Expectations([q.id for q in load_questions(found.path)], judges, manifest.questions_sha256, manifest_sha)
    return Expectations(None, judges, None, manifest_sha)


SIMULATED_BANNER = "Judges were SIMULATED: these numbers show the analysis, not any model's judgement."


def _simulated(run_dir: Path) -> bool:
    """Is a judge of the run's manifest simulated (``groundjudge demo`` without provider keys)?"""
    from groundjudge.judging.manifest import RunManifest

    path = run_dir / "manifest.json"
    return path.is_file() and any(j.simulated for j in read_model(path, RunManifest).judges)


def analyse(
    run: RunScores, *, expected_qids=None, void=(), unverified=(), seed=0, n_resamples=10_000, confidence=0.95
) -> Analysis:
    """``void`` and ``unverified``: BlindEntry lists from blind.json; void answers are left out."""
    void_keys = [(v.cell, v.qid) for v in void]
    slots = agg.slot_table(run, expected_qids=expected_qids, void=void_keys)
    return Analysis(
        run=run,
        slots=slots,
        means=agg.three_means(slots),
        per_judge=agg.per_judge_means(slots),
        exclusions=agg.exclusions(slots),
        inventory=agg.run_inventory(run, void_keys),
        sensitivity=agg.sensitivity(slots, agg.score_bounds(run)),
        intervals=agg.intervals(slots, n_resamples=n_resamples, confidence=confidence, seed=seed),
        void=list(void),
        unverified=list(unverified),
    )


def analyse_run(
    run: RunScores, exp: Expectations, blind: BlindFile | None, *, seed: int, n_resamples: int, confidence: float
) -> Analysis:
    """The analysis of a run as read, as report makes it: a judge of the manifest that never wrote a
    judgement still has its slots, and the answers the blind check voided are left out."""
    return analyse(
        replace(run, judges=tuple(sorted(set(run.judges) | exp.judges))),
        expected_qids=exp.qids,
        void=blind.void if blind else (),
        unverified=blind.unverified if blind else (),
        seed=seed,
        n_resamples=n_resamples,
        confidence=confidence,
    )


# The plots by their key in report.md, and the record of the inputs: each file named once.
PLOT_FILES = {
    "cell_totals": "cell_totals.png",
    "dimensions": "dimensions.png",
    "judge_scatter": "judge_scatter.png",
    "retest": "retest_shifts.png",
}
INPUTS_FILE = "report_inputs.json"


def _tables(a: Analysis, floors: pd.DataFrame | None, retest: tuple | None) -> dict[str, tuple[pd.DataFrame, list[str]] | None]:
    """Every CSV table a report can have, by file name: (frame, columns), or None for an optional table
    this report has not."""
    from groundjudge.validation.floors import FLOOR_COLUMNS
    from groundjudge.validation.retest import RANGE_COLUMNS, RETEST_COLUMNS

    return {
        "cell_dimension.csv": (a.means, agg.CELL_DIMENSION_COLUMNS),
        "cell_judge_dimension.csv": (a.per_judge, agg.CELL_JUDGE_DIMENSION_COLUMNS),
        "cell_intervals.csv": (a.intervals, agg.INTERVAL_COLUMNS),
        "exclusions.csv": (a.exclusions, agg.EXCLUSION_COLUMNS),
        "run_inventory.csv": (a.inventory, agg.INVENTORY_COLUMNS),
        "sensitivity.csv": (a.sensitivity, agg.SENSITIVITY_COLUMNS),
        "floors.csv": (floors, FLOOR_COLUMNS) if floors is not None else None,
        "test_retest.csv": (retest[0], RETEST_COLUMNS) if retest is not None else None,
        "test_retest_ranges.csv": (retest[1], RANGE_COLUMNS) if retest is not None else None,
    }


# --------------------------------------------------------------------------------------------------
# Markdown


def format_value(value: object) -> str:
    if value is None or (isinstance(value, float) and np.isnan(value)):
        return "–"
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (float, np.floating)):
        return f"{value:.2f}"
    return str(value).replace("|", "\\|")


def md_table(frame: pd.DataFrame) -> str:
    head = "| " + " | ".join(str(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---" for _ in frame.columns) + "|"
    body = ["| " + " | ".join(format_value(v) for v in row) + " |" for row in frame.itertuples(index=False)]
    return "\n".join([head, rule, *body])


def render_markdown(
    a: Analysis,
    *,
    plots: dict[str, str],
    floors: pd.DataFrame | None,
    retest: tuple | None,
    inputs: ReportInputs,
    simulated: bool = False,
    answer_pages: str | None = None,
) -> str:
    """``answer_pages``: the URL of the directory of ``groundjudge view``'s answer pages."""
    out = [f"# groundjudge report: {a.run.run_dir.name}", "", *([f"**{SIMULATED_BANNER}**", ""] if simulated else [])]
    rubric = a.run.rubric
    out += [
        f"Run `{a.run.run_dir}`, {len(a.run.cells)} cells, judges: {', '.join(a.run.judges) or 'none'}, "
        f"rubric: {rubric.name + ' (' + rubric.sha256[:12] + ')' if rubric else 'none'}, "
        + (
            f"{inputs.expected_questions} expected questions"
            if inputs.expected_questions is not None
            else "expected questions unknown (the run's question set is missing or changed)"
        )
        + f". groundjudge {__version__}. "
        f"Every input is listed by sha256 in `report_inputs.json`.",
        "",
        "Missing judgements are missing data, never zeros: every mean is over valid judgements only. "
        "The primary mean is question-balanced (average the judgements of a question, then the questions).",
        "",
        *_inputs_section(a, inputs),
        "## Run inventory",
        "",
        md_table(a.inventory),
        "",
    ]
    malformed = a.run.malformed_files()
    if malformed:
        out += ["Malformed score files (excluded):", "", *[f"- {p}" for p in malformed.values()], ""]
    t = a.intervals[a.intervals["dimension"].astype(str) == agg.TOTAL]
    conf = f"{inputs.confidence:.0%}"
    out += [
        "## Cell totals",
        "",
        f"Question-balanced mean of the total with a {conf} interval from a question-level bootstrap "
        f"({inputs.n_resamples} resamples, seed {inputs.seed}).",
        "",
        md_table(t[["cell", "mean_question_balanced", "ci_low", "ci_high", "n_questions"]]),
        "",
    ]
    if "cell_totals" in plots:
        out += [f"![cell totals]({plots['cell_totals']})", ""]
    m = a.means.copy()
    m["dimension"] = m["dimension"].astype(str)
    pivot = m.pivot(index="cell", columns="dimension", values="mean_question_balanced")[list(dict.fromkeys(m["dimension"]))]
    out += ["## Per-dimension means per cell (question-balanced)", "", md_table(pivot.reset_index()), ""]
    if "dimensions" in plots:
        out += [f"![per-dimension means]({plots['dimensions']})", ""]
    tot = m[m["dimension"] == agg.TOTAL]
    out += [
        "## Three means of the total",
        "",
        "Question-balanced (primary), pooled over judgements, and judge-balanced (mean of per-judge means). "
        "They differ only when judgements are missing unevenly.",
        "",
        md_table(tot[["cell", "mean_question_balanced", "mean_pooled", "mean_judge_balanced", "n_questions", "n_judgements"]]),
        "",
    ]
    pj = a.per_judge[a.per_judge["dimension"].astype(str) == agg.TOTAL]
    out += ["## Per-judge totals", "", md_table(pj[["cell", "judge", "mean_question_balanced", "n"]]), ""]
    if "judge_scatter" in plots:
        out += [f"![judge against judge]({plots['judge_scatter']})", ""]
    ex = a.exclusions.copy()
    ex["judge_failures"] = ex[list(agg.JUDGE_FAILURES[:2])].sum(axis=1)
    ex["infrastructure_failures"] = ex[list(agg.INFRASTRUCTURE_FAILURES)].sum(axis=1)
    out += [
        "## Exclusions",
        "",
        "Judge failures (a judgement with an error, or no judgement from that judge) are counted apart from "
        "infrastructure failures (no answer file, no score file, a malformed score file) and from void "
        "blind-cell answers. Full counts by reason: `exclusions.csv`.",
        "",
        md_table(
            ex[
                [
                    "cell",
                    "judge",
                    "expected",
                    "excluded",
                    "judge_failures",
                    "infrastructure_failures",
                    agg.VOID,
                    "dimension_missing",
                ]
            ]
        ),
        "",
    ]
    s = a.sensitivity[a.sensitivity["dimension"].astype(str) == agg.TOTAL]
    out += [
        "## Missing-data sensitivity (total)",
        "",
        "The question-balanced total if every excluded judgement had scored the rubric minimum or maximum: "
        "judge failures only, then also infrastructure failures. Void answers are never filled.",
        "",
        md_table(s[[c for c in agg.SENSITIVITY_COLUMNS if c != "dimension"]]),  # s holds the total only
        "",
    ]
    if a.void or a.unverified or inputs.blind_sha256:
        out += ["## Blind-cell verification", ""]
        out += [f"Void answers excluded: {len(a.void)}; unverified answers kept, but not vouched for: {len(a.unverified)}.", ""]
        rows = [{"cell": v.cell, "qid": v.qid, "status": "void", "reason": v.reason} for v in a.void]
        rows += [{"cell": v.cell, "qid": v.qid, "status": "unverified", "reason": v.reason} for v in a.unverified]
        if rows:
            out += [md_table(pd.DataFrame(rows)), ""]
    if floors is not None:
        f = floors[floors["dimension"] == agg.TOTAL]
        out += [
            "## Floors and effect sizes (total)",
            "",
            f"Floor cell `{inputs.floor_cell}`, baseline cell `{inputs.baseline_cell}`. share_of_gap is "
            "(cell - floor) / (baseline - floor). A difference smaller than the test-retest floor is flagged.",
            "",
            md_table(f.drop(columns=["dimension"])),
            "",
        ]
    if retest is not None:
        table, ranges = retest
        out += [
            "## Test-retest",
            "",
            f"Second run: `{inputs.retest_run}`. Shift = run B - this run (question-balanced).",
            "",
            md_table(table[table["dimension"].astype(str) == agg.TOTAL].drop(columns=["dimension"])),
            "",
            "Range of the cell shifts per dimension (the test-retest floor):",
            "",
            md_table(ranges),
            "",
        ]
        if "retest" in plots:
            out += [f"![test-retest shifts]({plots['retest']})", ""]
    written = [name for name, table in _tables(a, floors, retest).items() if table is not None]
    if answer_pages is not None:
        out += _answer_links(a, answer_pages)
    out += [
        "## Files",
        "",
        ", ".join(f"`{name}`" for name in [*written, INPUTS_FILE]) + ".",
        "",
    ]
    return "\n".join(out)


def _answer_links(a: Analysis, answer_pages: str) -> list[str]:
    """Each expected answer linked to its page in the run viewer."""
    from groundjudge.validation.view import page_href

    def label(qid: str) -> str:
        return qid.replace("\\", "\\\\").replace("[", "\\[").replace("]", "\\]")

    lines = [
        "## Answers",
        "",
        f"Each answer's page (its question, claims with their evidence, the judges side by side), written by "
        f"`groundjudge view {a.run.run_dir}`:",
        "",
    ]
    pairs = a.slots[["cell", "qid"]].drop_duplicates()
    for cell, g in pairs.groupby("cell", sort=True):
        links = ", ".join(f"[{label(str(q))}]({answer_pages}/{page_href(str(cell), str(q))})" for q in sorted(g["qid"]))
        lines.append(f"- {label(str(cell))}: {links}")
    return [*lines, ""]


def _inputs_section(a: Analysis, inputs: ReportInputs) -> list[str]:
    """What a reader needs to reproduce or trust the numbers: input hashes, bootstrap settings and
    how many judgements were left out, and why."""
    from groundjudge.hashing import sha256_json

    def sha(value: str | None, absent: str) -> str:
        return f"`{value}`" if value else absent

    rubric = a.run.rubric
    trees = sorted(a.run.corpus_tree_hashes())
    ex = a.exclusions
    if inputs.questions_problem:
        question_set = (
            f"- Question set: could not be used: {inputs.questions_problem}; the expected questions are not "
            f"known, so the tables cover only the {len(a.run.qids())} questions seen in the run"
        )
        expected = f"- Judgements expected: could not be computed (no question set); over the questions seen in the run: {int(ex['expected'].sum())}"
    else:
        question_set = (
            f"- Question set: {sha(inputs.questions_sha256, 'none given; the expected questions are every question seen in the run')} "
            f"({inputs.expected_questions} expected questions"
            + (f"; ignored, not in the set: {', '.join(inputs.ignored_questions)})" if inputs.ignored_questions else ")")
        )
        expected = f"- Judgements expected: {int(ex['expected'].sum())}"
    lines = [
        "## Inputs, settings and exclusions",
        "",
        f"- Score files: {len(inputs.score_files)} (malformed, excluded: {len(a.run.malformed_files())}), each listed with its sha256 in `report_inputs.json`; "
        f"sha256 of that list (canonical JSON of path -> sha256): `{sha256_json(inputs.score_files)}`",
        f"- Rubric: {rubric.name} `{rubric.sha256}`" if rubric else "- Rubric: none",
        f"- Corpus tree hash: {', '.join(f'`{t}`' for t in trees) or 'not recorded in the score files'}",
        f"- Run manifest (`manifest.json`): {sha(inputs.manifest_sha256, 'none')}",
        question_set,
        f"- Blind check (`blind.json`): {sha(inputs.blind_sha256, 'none; `groundjudge blind` was not run')}",
    ]
    if inputs.retest_run is not None:
        lines.append(
            f"- Second run `{inputs.retest_run}`: {len(inputs.retest_score_files)} score files, sha256 of their list: "
            f"`{sha256_json(inputs.retest_score_files)}`"
        )
    lines += [
        f"- Bootstrap: question-level (cluster) percentile intervals, {inputs.n_resamples} resamples, seed {inputs.seed}, "
        f"confidence {inputs.confidence:.0%}",
        f"{expected}; excluded: {int(ex['excluded'].sum())} = "
        f"{int(ex[list(agg.JUDGE_FAILURES[:2])].sum().sum())} judge failures + "
        f"{int(ex[list(agg.INFRASTRUCTURE_FAILURES)].sum().sum())} infrastructure failures + "
        f"{int(ex[agg.VOID].sum())} of void blind-cell answers (details below and in `exclusions.csv`)",
        "",
    ]
    return lines


# --------------------------------------------------------------------------------------------------
# The command


def run_report(
    run_dir: Path,
    out: Path,
    *,
    questions: Path | None = None,
    floor_cell: str | None = None,
    baseline_cell: str | None = None,
    retest_floor: str | None = None,
    retest_run: Path | None = None,
    seed: int = 0,
    n_resamples: int = 10_000,
    confidence: float = 0.95,
) -> Analysis:
    from groundjudge.validation import plots as P
    from groundjudge.validation.blind import read_void_list
    from groundjudge.validation.floors import floor_table
    from groundjudge.validation.retest import compare_runs, parse_retest_floor
    from groundjudge.validation.tables import check_output_dir, output_dir
    from groundjudge.validation.tables import console as make_console
    from groundjudge.validation.view import ANSWERS, VIEW_DIR

    if (floor_cell is None) != (baseline_cell is None):
        raise UserError("--floor-cell and --baseline-cell go together")
    check_output_dir(out)
    console = make_console()
    run_dir = Path(run_dir)
    run = load_run_with_progress(run_dir)
    if not run.judges:
        raise UserError("no score file names a judge: nothing to aggregate (run `groundjudge score` first)", run_dir)
    exp = expectations(run_dir, questions)
    expected, questions_sha, manifest_sha = exp.qids, exp.questions_sha256, exp.manifest_sha256
    if exp.problem:
        print(
            f"warning: {exp.problem}: the expected judgements cannot be computed; the report covers only the questions "
            "seen in the run (give the question set with --questions)",
            file=sys.stderr,
        )
    unexpected = sorted(set(run.qids()) - set(expected)) if expected is not None else []
    if unexpected:
        what = (
            "question in the run is not in the question set and is"
            if len(unexpected) == 1
            else "questions in the run are not in the question set and are"
        )
        console.print(f"[yellow]note[/]: {len(unexpected)} {what} ignored: {', '.join(unexpected[:5])}", highlight=False)
    for problem in run.malformed_files().values():
        console.print(f"[yellow]excluded malformed score file[/]: {problem}", highlight=False)
    blind, blind_sha = read_void_list(run_dir)
    if console.is_terminal:
        console.print(f"aggregating and bootstrapping ({n_resamples} resamples)...", highlight=False)
    a = analyse_run(run, exp, blind, seed=seed, n_resamples=n_resamples, confidence=confidence)
    run = a.run
    retest = None
    retest_files: dict[str, str] = {}
    floors_by_dim = parse_retest_floor(retest_floor) if retest_floor is not None else {}
    if retest_run is not None:
        _, b, table, ranges = compare_runs(run_dir, Path(retest_run), None)
        for problem in b.malformed_files().values():
            console.print(f"[yellow]excluded malformed score file of the second run[/]: {problem}", highlight=False)
        retest, retest_files = (table, ranges), b.input_hashes
        if retest_floor is None:
            floors_by_dim = {r.dimension: r.floor for r in ranges.itertuples() if not np.isnan(r.floor)}
    # Both or neither (checked above).
    floors = floor_table(a.means, floor_cell, baseline_cell, floors_by_dim) if floor_cell and baseline_cell else None

    out = output_dir(out)  # after every check and computation: a refused report leaves nothing behind
    tables = _tables(a, floors, retest)
    for name, table in tables.items():
        if table is not None:
            write_csv(out / name, *table)

    simulated = any(_simulated(Path(d)) for d in (run_dir, retest_run) if d is not None)
    note = " (simulated judges)" if simulated else ""
    plots: dict[str, str] = {}
    if a.means["n_judgements"].sum():
        P.cell_totals(a.intervals, out / PLOT_FILES["cell_totals"], note)
        plots["cell_totals"] = PLOT_FILES["cell_totals"]
        P.dimension_means(a.means, agg.score_bounds(run), out / PLOT_FILES["dimensions"], note)
        plots["dimensions"] = PLOT_FILES["dimensions"]
        if P.judge_scatter(a.slots, agg.score_bounds(run)[agg.TOTAL], out / PLOT_FILES["judge_scatter"], note):
            plots["judge_scatter"] = PLOT_FILES["judge_scatter"]
    if retest is not None:
        total_floor = retest[1].set_index("dimension").loc[agg.TOTAL, "floor"]
        P.retest_shifts(retest[0], float(total_floor), out / PLOT_FILES["retest"], note)
        plots["retest"] = PLOT_FILES["retest"]

    inputs = ReportInputs(
        tool_version=__version__,
        run_dir=str(run_dir),
        score_files=dict(sorted(run.input_hashes.items())),
        blind_sha256=blind_sha,
        manifest_sha256=manifest_sha,
        questions_sha256=questions_sha,
        expected_questions=len(expected) if expected is not None else None if exp.problem else len(run.qids()),
        questions_problem=exp.problem,
        ignored_questions=unexpected,
        seed=seed,
        n_resamples=n_resamples,
        confidence=confidence,
        floor_cell=floor_cell,
        baseline_cell=baseline_cell,
        retest_floors=floors_by_dim,
        retest_run=str(retest_run) if retest_run else None,
        retest_score_files=dict(sorted(retest_files.items())),
    )
    atomic_write_text(
        out / "report.md",
        render_markdown(
            a,
            plots=plots,
            floors=floors,
            retest=retest,
            inputs=inputs,
            simulated=simulated,
            # absolute: a report written to another --out is the same bytes
            answer_pages=(run_dir.resolve() / VIEW_DIR / ANSWERS).as_uri(),
        ),
    )
    # Optional outputs of an earlier report with other options would otherwise sit beside this one.
    absent = [name for name, table in tables.items() if table is None]
    for name in absent + [name for key, name in PLOT_FILES.items() if key not in plots]:
        (out / name).unlink(missing_ok=True)
    write_model(out / INPUTS_FILE, inputs)
    _print_summary(console, a, out)
    if simulated:
        console.print(SIMULATED_BANNER, highlight=False)
    return a


def _print_summary(console, a: Analysis, out: Path) -> None:
    from groundjudge.validation.tables import print_table

    t = a.intervals[a.intervals["dimension"].astype(str) == agg.TOTAL].set_index("cell")
    m = a.means[a.means["dimension"].astype(str) == agg.TOTAL].set_index("cell")
    excluded = a.exclusions.groupby("cell")["excluded"].sum()
    conf = f"{t['confidence'].iloc[0]:.0%}" if len(t) else ""
    rows = [
        {
            "cell": cell,
            "mean": format_value(r.mean_question_balanced),
            f"{conf} interval": f"[{format_value(r.ci_low)}, {format_value(r.ci_high)}]",
            "questions": str(int(r.n_questions)),
            "judgements": str(int(m["n_judgements"].get(cell, 0))),
            "excluded": str(int(excluded.get(cell, 0))),
        }
        for cell, r in t.iterrows()
    ]
    frame = pd.DataFrame(rows)
    print_table(console, "cell totals (question-balanced)", frame, right=[c for c in frame.columns if c != "cell"])
    console.print(f"wrote {out / 'report.md'} and its tables", highlight=False)
