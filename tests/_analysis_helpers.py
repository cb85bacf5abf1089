"""Hand-built run directories for the aggregation, retest, blind and report tests.

A judge's entry is either a dict of dimension scores (the total is their sum), a string (the
judgement failed with that error), or absent (the judge never answered).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from groundjudge.judging.manifest import JudgeRecord, RunManifest
from groundjudge.judging.models import Judgement, RubricRef, ScoreFile
from groundjudge.storage import atomic_write_text, write_model
from groundjudge.validation.scores_io import CellFiles, RunScores

RUBRIC_1D = RubricRef(name="one", sha256="a" * 64, dimensions={"accuracy": 5.0}, minimum={"accuracy": 1.0})
RUBRIC_2D = RubricRef(name="two", sha256="b" * 64, dimensions={"accuracy": 30.0, "usefulness": 20.0})


def manifest_for(
    questions_sha256: str,
    *,
    rubric: RubricRef = RUBRIC_1D,
    cells: Sequence[str] = ("src",),
    judges: Sequence[str | JudgeRecord] = ("j1", "j2"),
    **fields: Any,
) -> RunManifest:
    """A run manifest for a hand-built run: placeholder hashes for what these tests do not look at, a judge
    given by name gets a placeholder record; ``fields`` overrides any other field."""
    records = [
        j if isinstance(j, JudgeRecord) else JudgeRecord(name=j, provider="openai", model="m", params={}, params_sha256="0" * 64)
        for j in judges
    ]
    base: dict[str, Any] = dict(
        tool_version="test",
        corpus_name="c",
        corpus_tree_hash="t" * 64,
        questions_path="questions.jsonl",
        template_name="t",
        template_sha256="0" * 64,
        schema_sha256="0" * 64,
        config_files=[],
    )
    return RunManifest(**{**base, **fields}, questions_sha256=questions_sha256, rubric=rubric, cells=list(cells), judges=records)


def judgement(judge: str, entry: dict[str, float | None] | str) -> Judgement:
    if isinstance(entry, str):
        return Judgement(judge=judge, model=f"model-{judge}", error=entry, prompt_sha256="0" * 64)
    total = sum(v for v in entry.values() if v is not None)
    return Judgement(judge=judge, model=f"model-{judge}", scores=entry, total=total, prompt_sha256="0" * 64)


def score_file(
    cell: str, qid: str, judges: dict[str, dict | str], rubric: RubricRef = RUBRIC_1D, tree: str = "t" * 64
) -> ScoreFile:
    js = [judgement(name, entry) for name, entry in judges.items()]
    return ScoreFile(
        qid=qid,
        cell=cell,
        judged=any(j.valid for j in js),
        judgements=js,
        rubric=rubric,
        corpus_tree_hash=tree,
        tool_version="test",
    )


def write_run(
    root: Path,
    cells: dict[str, dict[str, dict[str, dict | str]]],
    *,
    rubric: RubricRef = RUBRIC_1D,
    answers_only: dict[str, list[str]] | None = None,
    tree: str = "t" * 64,
) -> Path:
    """cells: cell -> qid -> judge -> entry. Every scored question also gets an answer file;
    ``answers_only`` adds answer files with no score file."""
    for cell, questions in cells.items():
        for qid, judges in questions.items():
            atomic_write_text(root / cell / "answers" / f"{qid}.md", f"answer {cell} {qid}\n")
            write_model(root / cell / "scores" / f"{qid}.json", score_file(cell, qid, judges, rubric, tree))
    for cell, qids in (answers_only or {}).items():
        for qid in qids:
            atomic_write_text(root / cell / "answers" / f"{qid}.md", f"answer {cell} {qid}\n")
    return root


def run_scores(cells: dict[str, dict[str, dict[str, dict | str]]], *, rubric: RubricRef = RUBRIC_1D) -> RunScores:
    """The ``RunScores`` that ``load_run`` would read from ``write_run(root, cells)``, built in memory."""
    files = {
        cell: CellFiles(
            cell=cell, answers=frozenset(qs), scores={q: score_file(cell, q, js, rubric) for q, js in qs.items()}, malformed={}
        )
        for cell, qs in cells.items()
    }
    judges = sorted({name for qs in cells.values() for js in qs.values() for name in js})
    return RunScores(run_dir=Path("."), cells=files, rubric=rubric, judges=tuple(judges))


# The research note's hand-worked table: judgements (judge 1, judge 2) per question,
# Q1 = (4, 2), Q2 = (5, missing), Q3 = (1, 3).
THREE_MEANS_CELL = {
    "Q1": {"j1": {"accuracy": 4}, "j2": {"accuracy": 2}},
    "Q2": {"j1": {"accuracy": 5}, "j2": "timeout after 3 attempts"},
    "Q3": {"j1": {"accuracy": 1}, "j2": {"accuracy": 3}},
}
