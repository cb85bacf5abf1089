"""The manifest's question set is found from any working directory, used only while unchanged, and a
missing or changed one is said, never silently replaced by the questions seen in the run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
from _analysis_helpers import THREE_MEANS_CELL, manifest_for, write_run
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.hashing import sha256_file
from groundjudge.judging.manifest import MANIFEST, JudgeRecord, RunManifest, find_questions, questions_location, write_manifest
from groundjudge.storage import read_model, write_model


def _questions(path: Path, ids: list[str]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "".join(json.dumps({"id": q, "text": f"What does {q} do?", "category": "flow", "difficulty": "easy"}) + "\n" for q in ids)
    )
    return path


def _scored_run(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """A run scored, as `score` would, from tmp_path/cwd with --questions qs/questions.jsonl (4 questions,
    3 of them answered), the run directory beside it."""
    work = tmp_path / "cwd"
    qs = _questions(work / "qs" / "questions.jsonl", ["Q1", "Q2", "Q3", "Q4"])
    run = write_run(tmp_path / "run", {"src": THREE_MEANS_CELL})
    monkeypatch.chdir(work)
    manifest = manifest_for(sha256_file(qs), **questions_location(Path("qs/questions.jsonl"), run))
    write_model(run / MANIFEST, manifest)
    return run, qs


def test_the_location_is_recorded_relative_to_the_run_and_absolute(tmp_path, monkeypatch):
    run, qs = _scored_run(tmp_path, monkeypatch)
    m = read_model(run / MANIFEST, RunManifest)
    assert (m.questions_path, m.questions_relpath, m.questions_abspath) == (
        "qs/questions.jsonl",
        "../cwd/qs/questions.jsonl",
        str(qs.resolve()),
    )


def test_report_from_another_directory_counts_every_expected_judgement(tmp_path, monkeypatch):
    run, _ = _scored_run(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path)  # not where `score` ran: qs/questions.jsonl means nothing here
    result = CliRunner().invoke(app, ["report", str(run), "--resamples", "50"])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    ex = pd.read_csv(run / "report" / "exclusions.csv").set_index("judge")
    # 4 questions x 2 judges = 8 expected judgements, Q4 unanswered (was 3 x 2 = 6: Q4 silently left out)
    assert int(ex["expected"].sum()) == 8 and (ex.loc["j1", "expected"], ex.loc["j1", "no_answer"]) == (4, 1)
    assert json.loads((run / "report" / "report_inputs.json").read_text())["expected_questions"] == 4


def test_run_and_questions_moved_together_are_found_relative_to_the_run(tmp_path, monkeypatch):
    _run, _qs = _scored_run(tmp_path, monkeypatch)
    shutil.copytree(tmp_path, tmp_path.parent / f"{tmp_path.name}-moved")
    shutil.rmtree(tmp_path / "cwd")  # the absolute path now points nowhere
    moved = tmp_path.parent / f"{tmp_path.name}-moved"
    found = find_questions(read_model(moved / "run" / MANIFEST, RunManifest), moved / "run")
    assert found.problem is None and found.path.resolve() == (moved / "cwd" / "qs" / "questions.jsonl").resolve()


def test_run_moved_alone_finds_the_questions_at_their_absolute_path(tmp_path, monkeypatch):
    run, qs = _scored_run(tmp_path, monkeypatch)
    elsewhere = tmp_path / "deeper" / "run"
    shutil.move(run, elsewhere)
    found = find_questions(read_model(elsewhere / MANIFEST, RunManifest), elsewhere)
    assert found.problem is None and found.path == qs.resolve()


def test_a_missing_question_set_is_a_one_line_warning_and_no_expected_count(tmp_path, monkeypatch):
    run, qs = _scored_run(tmp_path, monkeypatch)
    qs.unlink()
    result = CliRunner().invoke(app, ["report", str(run), "--resamples", "50"])
    assert result.exit_code == 0, result.output
    warning = result.stderr.strip()
    assert "\n" not in warning and warning.startswith("warning: ") and "questions.jsonl" in warning
    assert "not found" in warning and "cannot be computed" in warning
    inputs = json.loads((run / "report" / "report_inputs.json").read_text())
    assert inputs["expected_questions"] is None and "not found" in inputs["questions_problem"]
    md = (run / "report" / "report.md").read_text()
    assert "Judgements expected: could not be computed" in md and "expected questions unknown" in md


def test_a_changed_question_set_is_not_used(tmp_path, monkeypatch):
    run, qs = _scored_run(tmp_path, monkeypatch)
    _questions(qs, ["Q1", "Q2"])
    result = CliRunner().invoke(app, ["report", str(run), "--resamples", "50"])
    assert result.exit_code == 0, result.output
    assert "changed since the run" in result.stderr and str(qs.resolve()) in result.stderr
    assert json.loads((run / "report" / "report_inputs.json").read_text())["expected_questions"] is None


def test_a_manifest_written_before_the_new_fields_still_reads(tmp_path, monkeypatch):
    # Schema 1 as first written: questions_path relative to where `score` ran, nothing else.
    run, _qs = _scored_run(tmp_path, monkeypatch)
    data = json.loads((run / MANIFEST).read_text())
    del data["questions_relpath"], data["questions_abspath"]
    (run / MANIFEST).write_text(json.dumps(data))
    old = read_model(run / MANIFEST, RunManifest)
    assert find_questions(old, run).path == Path("qs/questions.jsonl")  # from where `score` ran
    monkeypatch.chdir(tmp_path)
    assert "not found" in find_questions(old, run).problem


def test_scoring_again_from_elsewhere_keeps_the_cells_of_an_older_manifest(tmp_path, monkeypatch):
    run, qs = _scored_run(tmp_path, monkeypatch)
    sha = sha256_file(qs)
    write_model(run / MANIFEST, manifest_for(sha, cells=["a"], questions_path="qs/questions.jsonl"))  # no location fields
    monkeypatch.chdir(tmp_path)
    notes: list[str] = []
    merged = write_manifest(run, manifest_for(sha, cells=["b"], **questions_location(qs, run)), notes.append)
    assert merged.cells == ["a", "b"] and notes == []
    assert merged.questions_relpath == "../cwd/qs/questions.jsonl"
