"""Hand-written score files for the agreement tests, built with the judging.models classes."""

from __future__ import annotations

from pathlib import Path

from groundjudge.storage import write_model
from judging.models import Judgement, RubricRef, ScoreFile

RUBRIC = RubricRef(name="two", sha256="c" * 64, dimensions={"accuracy": 10.0, "usefulness": 10.0})


def judgement(judge: str, entry: dict[str, float | None] | str) -> Judgement:
    """entry: dimension scores (total = their sum), or an error message for a failed judgement."""
    if isinstance(entry, str):
        return Judgement(judge=judge, model=f"m-{judge}", error=entry, prompt_sha256="0" * 64)
    total = sum(v for v in entry.values() if v is not None)
    return Judgement(judge=judge, model=f"m-{judge}", scores=entry, total=total, prompt_sha256="0" * 64)


def score_file(cell: str, qid: str, judges: dict[str, dict | str]) -> ScoreFile:
    js = [judgement(name, entry) for name, entry in judges.items()]
    return ScoreFile(qid=qid, cell=cell, judged=any(j.valid for j in js), judgements=js, rubric=RUBRIC,
                     corpus_tree_hash="t" * 64, tool_version="test")


def write_run(root: Path, cells: dict[str, dict[str, dict[str, dict | str]]]) -> Path:
    for cell, questions in cells.items():
        for qid, judges in questions.items():
            write_model(root / cell / "scores" / f"{qid}.json", score_file(cell, qid, judges))
    return root
