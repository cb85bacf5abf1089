"""``groundjudge show RUN CELL QID`` on a small hand-built run."""

from __future__ import annotations

import json
from pathlib import Path

from _analysis_helpers import RUBRIC_2D, manifest_for
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.grounding.models import AnswerRef, CorpusRef, GroundingReport, Verdict, VerifiedClaim
from groundjudge.hashing import sha256_file
from groundjudge.judging.manifest import JudgeRecord, RunManifest
from groundjudge.judging.models import FailureKind, Judgement, ScoreFile
from groundjudge.storage import atomic_write_text, write_model

runner = CliRunner()
ANSWER = "# Posting\n\nBKTRN02C posts with [bold]REWRITE[/bold] in `3400-UPDATE-ACCOUNT`.\n"


def _report(answer: Path) -> GroundingReport:
    claims = [
        VerifiedClaim(
            id="c1",
            text="BKTRN02C posts with [bold]REWRITE[/bold] in `3400-UPDATE-ACCOUNT`.",
            answer_line=3,
            verdict=Verdict.SUPPORTED,
            reason="3400-UPDATE-ACCOUNT writes ACCOUNT-RECORD (cbl/BKTRN02C.cbl:178)",
        ),
        VerifiedClaim(
            id="c2",
            text="It calls BKERR01C.",
            answer_line=4,
            verdict=Verdict.UNSUPPORTED,
            reason="BKERR01C appears nowhere in the snapshot",
        ),
    ]
    counts = {v: sum(c.verdict == v for c in claims) for v in Verdict}
    return GroundingReport(
        tool_version="test",
        corpus=CorpusRef(name="bank", tree_hash="t" * 64),
        answer=AnswerRef(path=str(answer), sha256=sha256_file(answer)),
        extractor="markdown-v1",
        claims=claims,
        counts=counts,
    )


def _scores(answer: Path) -> ScoreFile:
    ok = Judgement(
        judge="j1",
        model="model-a",
        scores={"accuracy": 21.0, "usefulness": 15.5},
        total=36.5,
        rationale="Cites [/red] the right section.",
        prompt_sha256="0" * 64,
    )
    failed = Judgement(
        judge="j2", model="model-b", error="HTTP 503 after 3 retries", error_kind=FailureKind.TRANSIENT, prompt_sha256="0" * 64
    )
    return ScoreFile(
        qid="q1",
        cell="src",
        judged=True,
        judgements=[ok, failed],
        rubric=RUBRIC_2D,
        answer_sha256=sha256_file(answer),
        tool_version="test",
    )


def _run(root: Path, *, manifest: bool = True) -> Path:
    """Cell ``src``: q1 answered, grounded and scored (one judge failed); q2 answered only."""
    answer = root / "src" / "answers" / "q1.md"
    atomic_write_text(answer, ANSWER)
    atomic_write_text(root / "src" / "answers" / "q2.md", "Nothing grounded yet.\n")
    write_model(root / "src" / "grounding" / "q1.json", _report(answer))
    write_model(root / "src" / "scores" / "q1.json", _scores(answer))
    questions = root / "questions.jsonl"
    atomic_write_text(
        questions,
        "".join(
            json.dumps(q) + "\n"
            for q in [
                {
                    "id": "q1",
                    "text": "How is a transaction posted?",
                    "category": "data-flow",
                    "difficulty": "medium",
                    "must_touch": ["cbl/BKTRN02C.cbl", "3400-UPDATE-ACCOUNT"],
                },
                {"id": "q2", "text": "What rejects a transaction?", "category": "business-rule", "difficulty": "easy"},
                {"id": "q3", "text": "Not answered in this run.", "category": "business-rule", "difficulty": "easy"},
            ]
        ),
    )
    if manifest:
        write_model(root / "manifest.json", manifest_for(sha256_file(questions), rubric=RUBRIC_2D, corpus_name="bank"))
    return root


def _show(*args: str):
    return runner.invoke(app, ["show", *args])


def test_shows_question_verdicts_scores_and_a_failed_judge_without_a_score(tmp_path):
    run = _run(tmp_path / "run")
    result = _show(str(run), "src", "q1")
    assert result.exit_code == 0, result.output
    out = result.output
    # The question, from the set the manifest records.
    assert "How is a transaction posted?" in out
    assert "category: data-flow   difficulty: medium" in out
    assert "must touch: cbl/BKTRN02C.cbl, 3400-UPDATE-ACCOUNT" in out
    # Each claim with its verdict and reason, and the counts.
    assert "SUPPORTED" in out and "UNSUPPORTED" in out
    assert "BKERR01C appears nowhere in the snapshot" in out
    assert "SUPPORTED 1  PARTIALLY_SUPPORTED 0  UNSUPPORTED 1  UNABLE_TO_VERIFY 0" in out
    # The valid judge: each dimension against its maximum, the total against the rubric's, the rationale.
    rows = [" ".join(line.strip("│┃ ").split()) for line in out.splitlines()]
    assert "accuracy │ 21 │ 30" in rows
    assert "usefulness │ 15.5 │ 20" in rows
    assert "total │ 36.5 │ 50" in rows
    # The failed judge: its error and kind in place of scores; nothing after it reads as a score table.
    failed = next(i for i, line in enumerate(out.splitlines()) if line.startswith("j2 (model-b)"))
    assert out.splitlines()[failed] == "j2 (model-b): failed (transient), no score (missing data): HTTP 503 after 3 retries"
    assert not any("total" in line or "│" in line for line in out.splitlines()[failed + 1 :])
    assert "not grounded" not in out and "not scored" not in out


def test_missing_grounding_and_score_files_are_one_line_each(tmp_path):
    run = _run(tmp_path / "run")
    result = _show(str(run), "src", "q2")
    assert result.exit_code == 0, result.output
    assert "What rejects a transaction?" in result.output
    assert "Nothing grounded yet." in result.output
    assert "not grounded yet: run groundjudge score" in result.output.splitlines()
    assert "not scored yet: run groundjudge score" in result.output.splitlines()
    # A question of the set with no file at all in the cell is shown too, with its answer missing.
    result = _show(str(run), "src", "q3")
    assert result.exit_code == 0, result.output
    assert "Not answered in this run." in result.output
    assert any(line.startswith("no answer file: ") for line in result.output.splitlines())


def test_untrusted_text_is_printed_literally_not_as_markup(tmp_path):
    run = _run(tmp_path / "run")
    result = _show(str(run), "src", "q1")
    assert result.exit_code == 0, result.output
    # The answer and the claim keep their brackets; an unmatched closing tag in a rationale does not raise.
    assert "[bold]REWRITE[/bold]" in result.output
    assert result.output.count("[bold]REWRITE[/bold]") == 2  # the answer panel and the claim row
    assert "rationale: Cites [/red] the right section." in result.output


def test_question_set_from_the_option_when_the_run_has_no_manifest(tmp_path):
    run = _run(tmp_path / "run", manifest=False)
    result = _show(str(run), "src", "q1")
    assert result.exit_code == 0, result.output
    assert "question not shown: no manifest.json in" in result.output
    assert "How is a transaction posted?" not in result.output
    result = _show(str(run), "src", "q1", "--questions", str(run / "questions.jsonl"))
    assert result.exit_code == 0, result.output
    assert "How is a transaction posted?" in result.output


def test_unknown_cell_or_question_is_one_line_listing_what_exists(tmp_path):
    run = _run(tmp_path / "run")
    result = _show(str(run), "nosrc", "q1")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"error: {run}: no cell 'nosrc'; cells: src"]
    result = _show(str(run), "src", "q9")
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [f"error: {run}: no question 'q9' in cell 'src'; questions there: q1, q2"]
    result = _show(str(tmp_path / "absent"), "src", "q1")
    assert result.exit_code == 2 and "not a run directory" in result.output
