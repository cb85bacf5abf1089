"""`groundjudge ground` on bad input: one line naming the file, exit 2, nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.errors import UserError
from groundjudge.grounding.ground import read_answer

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, ["ground", *args])


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    (root / "src").mkdir(parents=True)
    (root / "src" / "m.py").write_text("def f():\n    return 1\n")
    return root


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "answer is empty"),
        (b"  \n\t\n", "answer is empty"),
        (b"PK\x03\x04\x00\x00binary", "answer is a binary file, not Markdown text"),
        (b"caf\xe9 au lait\n", "answer is not UTF-8 text (bad byte at offset 3)"),
    ],
)
def test_unusable_answers_are_one_line_errors_and_write_nothing(tmp_path, corpus, content, message):
    answer = tmp_path / "a.md"
    answer.write_bytes(content)
    out = tmp_path / "out.json"
    result = _run("--corpus", str(corpus), str(answer), "--out", str(out))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {answer}: {message}"
    assert not out.exists()
    with pytest.raises(UserError, match="answer"):
        read_answer(answer)


def test_missing_answer_and_missing_corpus(tmp_path, corpus):
    result = _run("--corpus", str(corpus), str(tmp_path / "nope.md"))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {tmp_path / 'nope.md'}: answer file not found"

    answer = tmp_path / "a.md"
    answer.write_text("`f` is a function.\n")
    result = _run("--corpus", str(tmp_path / "no-such-dir"), str(answer))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {tmp_path / 'no-such-dir'}: corpus directory does not exist"
    result = _run("--corpus", "no-such-snapshot", str(answer))
    assert result.exit_code == 2
    assert "no stored snapshot named 'no-such-snapshot'" in result.output
    assert len(result.output.strip().splitlines()) == 1


def test_directory_mode_checks_every_answer_before_writing(tmp_path, corpus):
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "q1.md").write_text("`f` is defined in src/m.py.\n")
    (answers / "q2.md").write_bytes(b"")
    out_dir = tmp_path / "reports"
    result = _run("--corpus", str(corpus), str(answers), "--out-dir", str(out_dir))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {answers / 'q2.md'}: answer is empty"
    assert not out_dir.exists()


def test_directory_needs_out_dir_and_must_hold_answers(tmp_path, corpus):
    answers = tmp_path / "answers"
    answers.mkdir()
    result = _run("--corpus", str(corpus), str(answers))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {answers}: grounding a directory needs --out-dir"
    result = _run("--corpus", str(corpus), str(answers), "--out-dir", str(tmp_path / "o"))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {answers}: no *.md answers in directory"


def test_unusable_destinations_are_one_line_errors(tmp_path, corpus):
    answer = tmp_path / "a.md"
    answer.write_text("`f` is defined in src/m.py.\n")
    result = _run("--corpus", str(corpus), str(answer), "--out", str(tmp_path))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {tmp_path}: --out is a directory (use --out-dir for one report per answer)"
    result = _run("--corpus", str(corpus), str(answer), "--out-dir", str(answer))
    assert result.exit_code == 2
    assert result.output.strip() == f"error: {answer}: --out-dir exists and is not a directory"
    # a parent that is a file cannot be created: the write fails, one line, nothing left behind
    blocker = tmp_path / "blocker"
    blocker.write_text("x")
    result = _run("--corpus", str(corpus), str(answer), "--out", str(blocker / "r.json"))
    assert result.exit_code == 2
    assert result.output.strip().startswith(f"error: {blocker / 'r.json'}: cannot write report (")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.md", "blocker", "corpus"]


def test_interrupted_directory_run_leaves_only_complete_reports(tmp_path, corpus, monkeypatch):
    import json

    import groundjudge.grounding.ground as ground_module

    answers = tmp_path / "answers"
    answers.mkdir()
    for name in ("q1", "q2", "q3"):
        (answers / f"{name}.md").write_text("`f` is defined in src/m.py.\n")
    real = ground_module.ground_text
    calls = []

    def interrupted_on_the_third(*args, **kwargs):  # Ctrl-C while the third answer is being grounded
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(ground_module, "ground_text", interrupted_on_the_third)
    out_dir = tmp_path / "reports"
    result = _run("--corpus", str(corpus), str(answers), "--out-dir", str(out_dir))
    assert result.exit_code == 130
    assert result.output.strip().splitlines()[-1] == f"interrupted: 2 of 3 reports written to {out_dir} (each one complete)"
    assert sorted(p.name for p in out_dir.iterdir()) == ["q1.json", "q2.json"]  # no temporary file left
    for p in out_dir.iterdir():
        assert json.loads(p.read_text())["counts"]["SUPPORTED"] == 1
