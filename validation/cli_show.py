"""``groundjudge show``: one answer of a run with its question, grounding verdicts and judges' scores.

Everything read from the run (answers, claims, reasons, rationales, errors) is untrusted text: it is
escaped before rich sees it, so an answer holding ``[bold]`` prints those characters, not bold.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from rich.console import Console

    from groundjudge.grounding.models import GroundingReport
    from groundjudge.judging.models import Judgement, RubricRef
    from groundjudge.questions import Question

_KINDS = ("answers", "grounding", "scores")
_SUFFIX = {"answers": ".md", "grounding": ".json", "scores": ".json"}
_VERDICT_STYLE = {
    "SUPPORTED": "green",
    "PARTIALLY_SUPPORTED": "yellow",
    "UNSUPPORTED": "red",
    "UNABLE_TO_VERIFY": "dim",
}
# Wide enough for a claim and its reason side by side when the output goes to a file or a pipe.
_PIPED_WIDTH = 160


def _cells(run_dir: Path) -> list[str]:
    return sorted(p.name for p in run_dir.iterdir() if p.is_dir() and any((p / kind).is_dir() for kind in _KINDS))


def _qids(cell_dir: Path) -> set[str]:
    return {p.stem for kind in _KINDS if (cell_dir / kind).is_dir() for p in (cell_dir / kind).glob(f"*{_SUFFIX[kind]}")}


def question_set(run_dir: Path, questions: Path | None) -> tuple[list[Question] | None, Path | None, str | None]:
    """(questions, their file, a note to print): from --questions, else the set the run manifest records,
    found as report finds it (``find_questions``), so that the texts shown are those of the questions counted."""
    from groundjudge.errors import UserError
    from groundjudge.judging.manifest import MANIFEST, RunManifest, find_questions
    from groundjudge.questions import load_questions
    from groundjudge.storage import read_model

    if questions is not None:
        return load_questions(questions), questions, None
    manifest_path = run_dir / MANIFEST
    if not manifest_path.is_file():
        return None, None, f"question not shown: no {MANIFEST} in {run_dir} (give --questions FILE)"
    try:
        manifest = read_model(manifest_path, RunManifest)
    except UserError as exc:
        return None, None, f"question not shown: {exc} (give --questions FILE)"
    found = find_questions(manifest, run_dir)
    if found.path is None:
        return None, None, f"question not shown: {found.problem} (give --questions FILE)"
    return load_questions(found.path), found.path, None


def read_grounding(cell_dir: Path, qid: str) -> tuple[GroundingReport | None, str | None]:
    """The answer's grounding report, or None and one line saying why there is none."""
    from groundjudge.errors import UserError
    from groundjudge.grounding.models import GroundingReport
    from groundjudge.storage import read_model

    path = cell_dir / "grounding" / f"{qid}.json"
    if not path.is_file():
        return None, "not grounded yet: run groundjudge score"
    try:
        return read_model(path, GroundingReport), None
    except UserError as exc:
        return None, f"unreadable grounding report: {exc}"


def answer_changed(answer: Path, recorded_sha256: str | None) -> bool:
    """Does the answer file differ from the text a grounding report or score file was made from?"""
    from groundjudge.hashing import sha256_file

    return answer.is_file() and recorded_sha256 is not None and sha256_file(answer) != recorded_sha256


GROUNDED_EARLIER = "the answer changed since it was grounded: the verdicts below are for the earlier text"
SCORED_EARLIER = "the answer changed since it was scored: the scores below are for the earlier text"


def _show_question(out: Console, qid: str, qs: list[Question] | None, path: Path | None) -> None:
    from rich.markup import escape

    if qs is None:
        return
    q = next((q for q in qs if q.id == qid), None)
    if q is None:
        out.print(f"question {escape(qid)} is not in {escape(str(path))}")
        return
    out.print(f"[bold]{escape(q.text)}[/bold]")
    out.print(f"category: {escape(q.category)}   difficulty: {escape(q.difficulty)}")
    if q.must_touch:
        out.print("must touch: " + ", ".join(escape(m) for m in q.must_touch))


def _show_answer(out: Console, answer: Path, report: GroundingReport | None) -> None:
    from rich.markup import escape
    from rich.panel import Panel
    from rich.table import Table

    if answer.is_file():
        out.print(
            Panel(escape(answer.read_text(encoding="utf-8", errors="replace").rstrip()), title="answer", title_align="left")
        )
    else:
        out.print(f"no answer file: {escape(str(answer))}")
    if report is None:
        return
    if answer_changed(answer, report.answer.sha256):
        out.print(GROUNDED_EARLIER)
    if not report.claims:
        out.print(f"no claims: {escape(report.note or 'the answer has no claim units')}")
        return
    table = Table(
        title=f"claims ({escape(report.extractor)}, corpus {escape(report.corpus.name)})", title_justify="left", show_lines=True
    )
    for column in ("id", "verdict", "claim", "reason"):
        table.add_column(column, overflow="fold")
    for c in report.claims:
        style = _VERDICT_STYLE.get(c.verdict.value, "")
        table.add_row(
            escape(c.id), f"[{style}]{c.verdict.value}[/{style}]" if style else c.verdict.value, escape(c.text), escape(c.reason)
        )
    out.print(table)
    out.print("  ".join(f"{v.value} {n}" for v, n in report.counts.items()))


def _score(value: float | None) -> str:
    return "–" if value is None else f"{value:g}"


def _show_judgement(out: Console, j: Judgement, rubric: RubricRef) -> None:
    from rich.markup import escape
    from rich.table import Table

    head = f"[bold]{escape(j.judge)}[/bold] ({escape(j.model)})"
    if j.error is not None:
        kind = f" ({j.error_kind.value})" if j.error_kind is not None else ""
        out.print(f"{head}: [red]failed{kind}[/red], no score (missing data): {escape(j.error)}")
        return
    table = Table(title=head, title_justify="left")
    table.add_column("dimension")
    table.add_column("score", justify="right")
    table.add_column("max", justify="right")
    scores = j.scores or {}
    for dim, top in rubric.dimensions.items():
        table.add_row(escape(dim), _score(scores.get(dim)), _score(top))
    table.add_row("[bold]total[/bold]", f"[bold]{_score(j.total)}[/bold]", _score(sum(rubric.dimensions.values())))
    out.print(table)
    missing = [d for d in rubric.dimensions if scores.get(d) is None]
    if missing:
        out.print("no score given for " + ", ".join(escape(d) for d in missing) + " (missing data, not 0)")
    if j.rationale:
        out.print(f"rationale: {escape(j.rationale)}")


def show(
    run_dir: Path = typer.Argument(..., help="Run directory holding <cell>/answers, <cell>/grounding and <cell>/scores."),
    cell: str = typer.Argument(..., help="The cell, e.g. tools-src."),
    qid: str = typer.Argument(..., help="The question id, e.g. q01."),
    questions: Path | None = typer.Option(
        None, "--questions", help="Question set (JSONL); default: the one RUN_DIR/manifest.json records."
    ),
) -> None:
    """Show one answer: its question, each claim's grounding verdict and reason, and each judge's
    scores per dimension against the maximum, total and rationale (or its error: a failed judgement
    has no score, never 0). Files not written yet are named in one line each."""
    from rich.console import Console
    from rich.markup import escape
    from rich.rule import Rule

    from groundjudge.errors import UserError
    from groundjudge.judging.models import ScoreFile
    from groundjudge.storage import read_model

    if not run_dir.is_dir():
        raise UserError("not a run directory", run_dir)
    cells = _cells(run_dir)
    if cell not in cells:
        raise UserError(
            f"no cell {cell!r}; cells: {', '.join(cells) or 'none (no <cell>/answers, grounding or scores)'}", run_dir
        )
    qs, qs_path, note = question_set(run_dir, questions)
    cell_dir = run_dir / cell
    known = _qids(cell_dir)
    if qid not in known and not (qs and any(q.id == qid for q in qs)):
        raise UserError(f"no question {qid!r} in cell {cell!r}; questions there: {', '.join(sorted(known)) or 'none'}", run_dir)

    out = Console(highlight=False)
    if not out.is_terminal:
        out.width = _PIPED_WIDTH
    out.print(Rule(f"{escape(run_dir.name)} / {escape(cell)} / {escape(qid)}"))
    if note:
        out.print(escape(note))
    _show_question(out, qid, qs, qs_path)

    out.print(Rule("answer and grounding"))
    answer = cell_dir / "answers" / f"{qid}.md"
    report, missing = read_grounding(cell_dir, qid)
    if missing:
        out.print(escape(missing))
    _show_answer(out, answer, report)

    out.print(Rule("judges"))
    scores_path = cell_dir / "scores" / f"{qid}.json"
    if not scores_path.is_file():
        out.print("not scored yet: run groundjudge score")
        return
    try:
        scores = read_model(scores_path, ScoreFile)
    except UserError as exc:
        out.print(f"unreadable score file: {escape(str(exc))}")
        return
    if answer_changed(answer, scores.answer_sha256):
        out.print(SCORED_EARLIER)
    if not scores.judgements:
        out.print("no judgement recorded")
    for j in scores.judgements:
        _show_judgement(out, j, scores.rubric)


def register(app: typer.Typer) -> None:
    app.command("show")(show)
