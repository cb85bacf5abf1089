"""``groundjudge agreement``: agreement between judges, rubrics, verdicts, a gate, and criterion coverage.

Each subcommand reads documented inputs (docs/formats/agreement.md), writes a CSV atomically plus an
``.inputs.json`` naming the sha256 of every input, and prints the same numbers as a table. Heavy
libraries load inside the commands so that ``groundjudge --help`` stays fast.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from groundjudge.errors import UserError

if TYPE_CHECKING:
    import pandas as pd

agreement_app = typer.Typer(
    help="Agreement statistics: between judges, generated vs reference rubrics, verdicts, gate, coverage. "
    "Input formats: docs/formats/agreement.md. Each command writes a CSV (undefined statistics spelled "
    "'undefined') and an .inputs.json with the sha256 of every input.",
    no_args_is_help=True,
)

OUT_HELP = "Directory for the CSV and its .inputs.json (created if missing)."
UNDEFINED = "undefined"


def register(app: typer.Typer) -> None:
    app.add_typer(agreement_app, name="agreement")


def _fmt(value) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return UNDEFINED
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _write_outputs(
    out_dir: Path,
    name: str,
    tables: dict[str, pd.DataFrame],
    *,
    command: str,
    inputs: dict[str, str],
    excluded: dict[str, str] | None = None,
    unmatched: dict[str, int] | None = None,
) -> list[Path]:
    from groundjudge import __version__
    from groundjudge.storage import write_model
    from groundjudge.validation.agreement_formats import AgreementInputs
    from groundjudge.validation.tables import output_dir, write_csv

    out_dir = output_dir(out_dir)
    written = []
    for stem, df in tables.items():
        path = out_dir / f"{stem}.csv"
        # Full precision in the file; undefined statistics are spelled out, never left as 0 or blank.
        write_csv(path, df, list(df.columns), float_format=None, na_rep=UNDEFINED)
        written.append(path)
    manifest = AgreementInputs(
        command=command,
        tool_version=__version__,
        inputs=dict(sorted(inputs.items())),
        excluded=dict(sorted((excluded or {}).items())),
        unmatched=unmatched or {},
        outputs=[p.name for p in written],
    )
    write_model(out_dir / f"{name}.inputs.json", manifest)
    return written


def _print_table(title: str, df: pd.DataFrame) -> None:
    import pandas as pd

    from groundjudge.validation.tables import console, print_table

    if len(df) == 1:
        # One result row reads better as a list of statistics than as a table too wide for a terminal;
        # formatted per column, so counts stay integers.
        df = pd.DataFrame({"statistic": [str(c) for c in df.columns], "value": [_fmt(df[c].iloc[0]) for c in df.columns]})
        print_table(console(), title, df, right=["value"])
        return
    print_table(console(), title, df, _fmt)


def _print_done(written: list[Path], notes: list[str]) -> None:
    for note in notes:
        typer.echo(note, err=True)
    typer.echo("wrote " + ", ".join(str(p) for p in written))


def _hashes(*paths: Path) -> dict[str, str]:
    from groundjudge.hashing import sha256_file

    return {str(p): sha256_file(p) for p in paths}


def _join(gen_path: Path, ref_path: Path, model, keys: list[str], value: str):
    import pandas as pd

    from groundjudge.validation.agreement import join_pairs
    from groundjudge.validation.agreement_formats import read_rows

    tables = []
    for path in (gen_path, ref_path):
        rows = read_rows(path, model)
        df = pd.DataFrame([r.model_dump(include=set(keys) | {value}) for r in rows], columns=[*keys, value])
        dup = df.duplicated(subset=keys)
        if dup.any():
            first = df.loc[dup, keys].iloc[0].tolist()  # the first duplicate
            raise UserError(f"duplicate row for {dict(zip(keys, first))}", path)
        tables.append(df)
    pairs, only_gen, only_ref = join_pairs(tables[0], tables[1], keys, value)
    if pairs.empty:
        raise UserError(f"no row of {gen_path} matches a row of this file on {', '.join(keys)}", ref_path)
    unmatched = {"only_generated": only_gen, "only_reference": only_ref}
    notes = [f"note: {n} row(s) only in {p}, left out" for n, p in ((only_gen, gen_path), (only_ref, ref_path)) if n]
    return pairs, unmatched, notes


@agreement_app.command("judges")
def judges_cmd(
    run_dir: Path = typer.Argument(..., help="Run directory holding <cell>/scores/<qid>.json score files."),
    cells: list[str] | None = typer.Option(None, "--cell", help="Only this cell (repeatable); default every cell."),
    by_cell: bool = typer.Option(False, "--by-cell", help="Also report each cell on its own, not only pooled."),
    out: Path = typer.Option(None, "--out", help=OUT_HELP + " Default: RUN_DIR."),
) -> None:
    """Agreement between judges, per dimension and total.

    Interval alpha, Spearman, mean signed and absolute difference, n, over the answers both judges
    scored. Failed judgements and unjudged answers are missing data, never 0; malformed score files
    and the void blind-cell answers listed in RUN_DIR/blind.json (`groundjudge blind`) are left out,
    exactly as in `groundjudge report`."""
    from groundjudge.validation.aggregate import slot_table
    from groundjudge.validation.agreement import judge_agreement, judgement_rows
    from groundjudge.validation.blind import BLIND_FILE, read_void_list
    from groundjudge.validation.scores_io import load_run
    from groundjudge.validation.tables import check_output_dir

    check_output_dir(out or run_dir)
    run = load_run(run_dir, cells or None)
    blind, blind_sha = read_void_list(run_dir)
    void = [v for v in blind.void if v.cell in run.cells] if blind else []
    rows = judgement_rows(slot_table(run, void=[(v.cell, v.qid) for v in void]))
    if rows.empty:
        raise UserError("no valid judgement in any score file", run_dir)
    if rows["judge"].nunique() < 2:
        raise UserError(f"only one judge ({rows['judge'].iloc[0]}) has valid scores; nothing to compare", run_dir)
    result = judge_agreement(rows, by_cell=by_cell)
    malformed = run.malformed_files()
    voided = {f"{v.cell}/scores/{v.qid}.json": f"void blind-cell answer ({v.reason})" for v in void}
    inputs = {str(Path(run_dir) / k): v for k, v in run.input_hashes.items()}
    if blind_sha is not None:
        inputs[str(Path(run_dir) / BLIND_FILE)] = blind_sha
    written = _write_outputs(
        out or run_dir,
        "agreement_judges",
        {"agreement_judges": result},
        command="agreement judges",
        inputs=inputs,
        excluded=malformed | voided,
    )
    _print_table("Agreement between judges", result)
    _print_done(
        written,
        [f"excluded malformed score file {k}: {why}" for k, why in malformed.items()]
        + [f"excluded {k}: {why}" for k, why in voided.items()],
    )


@agreement_app.command("rubric")
def rubric_cmd(
    generated: Path = typer.Argument(..., help="Scores under the generated rubric (JSONL/CSV: item, candidate, score)."),
    reference: Path = typer.Argument(..., help="Scores under the reference (maintainer) rubric, same format."),
    out: Path = typer.Option(Path("."), "--out", help=OUT_HELP),
) -> None:
    """Generated vs reference rubric scores on the same candidates.

    Pooled Spearman, interval alpha and the share of within-item candidate pairs both order the same
    way (ties left out and counted)."""
    import pandas as pd

    from groundjudge.validation.agreement import rubric_agreement
    from groundjudge.validation.agreement_formats import ScoreRow

    pairs, unmatched, notes = _join(generated, reference, ScoreRow, ["item", "candidate"], "score")
    result = pd.DataFrame([rubric_agreement(pairs)])
    written = _write_outputs(
        out,
        "agreement_rubric",
        {"agreement_rubric": result},
        command="agreement rubric",
        inputs=_hashes(generated, reference),
        unmatched=unmatched,
    )
    _print_table("Generated vs reference rubric scores", result)
    _print_done(written, notes)


@agreement_app.command("verdicts")
def verdicts_cmd(
    generated: Path = typer.Argument(..., help="Verdicts to check (JSONL/CSV: item, candidate, criterion, verdict)."),
    reference: Path = typer.Argument(..., help="Human reference verdicts, same format."),
    out: Path = typer.Option(Path("."), "--out", help=OUT_HELP),
) -> None:
    """Criterion verdicts vs a human reference.

    Agreement with its Wilson interval, Cohen's kappa, and the confusion counts."""
    import pandas as pd

    from groundjudge.validation.agreement import verdict_agreement
    from groundjudge.validation.agreement_formats import VerdictRow

    pairs, unmatched, notes = _join(generated, reference, VerdictRow, ["item", "candidate", "criterion"], "verdict")
    summary, confusion = verdict_agreement(pairs)
    result = pd.DataFrame([summary])
    written = _write_outputs(
        out,
        "agreement_verdicts",
        {"agreement_verdicts": result, "agreement_verdicts_confusion": confusion},
        command="agreement verdicts",
        inputs=_hashes(generated, reference),
        unmatched=unmatched,
    )
    _print_table("Verdicts vs reference", result)
    _print_table("Confusion (rows: generated, reference)", confusion)
    _print_done(written, notes)


@agreement_app.command("gate")
def gate_cmd(
    gate: Path = typer.Argument(..., help="Gate decisions (JSONL/CSV: item, needs_docs)."),
    maintainer: Path = typer.Argument(..., help="Maintainer decisions, same format."),
    out: Path = typer.Option(Path("."), "--out", help=OUT_HELP),
) -> None:
    """A documentation-need gate vs maintainer decisions.

    Confusion matrix, accuracy (Wilson interval) and Cohen's kappa."""
    import pandas as pd

    from groundjudge.validation.agreement import gate_agreement
    from groundjudge.validation.agreement_formats import GateRow

    pairs, unmatched, notes = _join(gate, maintainer, GateRow, ["item"], "needs_docs")
    result = pd.DataFrame([gate_agreement(pairs)])
    written = _write_outputs(
        out,
        "agreement_gate",
        {"agreement_gate": result},
        command="agreement gate",
        inputs=_hashes(gate, maintainer),
        unmatched=unmatched,
    )
    _print_table("Documentation gate vs maintainers", result)
    _print_done(written, notes)


def _criteria(path: Path, *, need_priority: bool):
    import pandas as pd

    from groundjudge.validation.agreement_formats import CriterionRow, read_rows

    rows = read_rows(path, CriterionRow)
    seen: set[tuple[str, str]] = set()
    for r in rows:
        if (r.item, r.id) in seen:
            raise UserError(f"duplicate criterion {r.id!r} (item {r.item!r})", path)
        seen.add((r.item, r.id))
        if need_priority and r.priority is None:
            raise UserError(f"reference criterion {r.id!r} (item {r.item!r}) has no priority", path)
    return pd.DataFrame([r.model_dump(include={"item", "id", "priority"}) for r in rows], columns=["item", "id", "priority"])


@agreement_app.command("coverage")
def coverage_cmd(
    matches: Path = typer.Argument(
        ..., help="Match file (JSONL/CSV: item, generated, reference, match = full|partial|conflict)."
    ),
    reference_criteria: Path = typer.Argument(..., help="Reference criteria (JSONL/CSV: item, id, priority P0-P3)."),
    generated_criteria: Path = typer.Argument(..., help="Generated criteria (JSONL/CSV: item, id)."),
    out: Path = typer.Option(Path("."), "--out", help=OUT_HELP),
) -> None:
    """Criterion coverage of reference criteria by generated ones, from a match file.

    Recall of reference criteria (full 1, partial 0.5), priority-weighted recall (P0 4, P1 3, P2 2,
    P3 1) and overlap precision of the generated criteria."""
    import pandas as pd

    from groundjudge.validation.agreement import criterion_coverage
    from groundjudge.validation.agreement_formats import MatchRow, read_rows

    ref = _criteria(reference_criteria, need_priority=True)
    gen = _criteria(generated_criteria, need_priority=False)
    rows = read_rows(matches, MatchRow)
    ref_ids, gen_ids = set(zip(ref["item"], ref["id"])), set(zip(gen["item"], gen["id"]))
    for r in rows:
        if (r.item, r.reference) not in ref_ids:
            raise UserError(f"reference criterion {r.reference!r} (item {r.item!r}) is not in {reference_criteria}", matches)
        if (r.item, r.generated) not in gen_ids:
            raise UserError(f"generated criterion {r.generated!r} (item {r.item!r}) is not in {generated_criteria}", matches)
    match_df = pd.DataFrame(
        [r.model_dump(include={"item", "generated", "reference", "match"}) for r in rows],
        columns=["item", "generated", "reference", "match"],
    )
    summary, per_reference = criterion_coverage(match_df, ref, gen)
    result = pd.DataFrame([summary])
    written = _write_outputs(
        out,
        "agreement_coverage",
        {"agreement_coverage": result, "agreement_coverage_criteria": per_reference},
        command="agreement coverage",
        inputs=_hashes(matches, reference_criteria, generated_criteria),
    )
    _print_table("Criterion coverage", result)
    _print_done(written, [])
