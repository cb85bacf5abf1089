"""Reading a run directory: ``RUN_DIR/<cell>/answers/<qid>.md`` and ``RUN_DIR/<cell>/scores/<qid>.json``.

A malformed score file is never silently dropped: it is kept, by name and problem, so the
aggregation can count it as excluded and the report can list it. Everything read is hashed so the
outputs can name the exact inputs they came from.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from groundjudge.errors import UserError
from groundjudge.hashing import sha256_file
from groundjudge.judging.models import RubricRef, ScoreFile
from groundjudge.storage import read_model


@dataclass(frozen=True)
class CellFiles:
    cell: str
    answers: frozenset[str]  # qids with an answer file
    scores: dict[str, ScoreFile]  # qid -> valid score file
    malformed: dict[str, str]  # qid -> problem (a score file that failed validation)


@dataclass(frozen=True)
class RunScores:
    run_dir: Path
    cells: dict[str, CellFiles]
    rubric: RubricRef | None  # None when the run has no valid score file
    judges: tuple[str, ...]  # every judge named in any score file, sorted
    input_hashes: dict[str, str] = field(default_factory=dict)  # path relative to run_dir -> sha256

    def qids(self) -> list[str]:
        """Every question seen anywhere in the run: answer, score file or malformed score file."""
        seen: set[str] = set()
        for c in self.cells.values():
            seen |= c.answers | set(c.scores) | set(c.malformed)
        return sorted(seen)

    def malformed_files(self) -> dict[str, str]:
        """Every malformed score file (path relative to run_dir, sorted) -> its one-line problem."""
        return {
            f"{cell}/scores/{qid}.json": problem
            for cell in sorted(self.cells)
            for qid, problem in sorted(self.cells[cell].malformed.items())
        }

    def corpus_tree_hashes(self) -> set[str]:
        return {s.corpus_tree_hash for c in self.cells.values() for s in c.scores.values() if s.corpus_tree_hash}


def cell_dirs(run_dir: Path) -> list[Path]:
    """Cells are the subdirectories holding answers, scores or events, sorted by name."""
    if not run_dir.is_dir():
        raise UserError("run directory not found", run_dir)
    return sorted(
        d for d in run_dir.iterdir() if d.is_dir() and any((d / sub).is_dir() for sub in ("answers", "scores", "events"))
    )


def _check_identity(score: ScoreFile, qid: str, cell: str) -> str | None:
    if score.qid != qid:
        return f"qid {score.qid!r} does not match the file name"
    if score.cell != cell:
        return f"cell {score.cell!r} does not match the directory {cell!r}"
    judges = [j.judge for j in score.judgements]
    if len(judges) != len(set(judges)):
        return "a judge appears more than once"
    return None


def read_cell(run_dir: Path, cell_dir: Path, hashes: dict[str, str], progress: Callable[[], None] | None = None) -> CellFiles:
    cell = cell_dir.name
    answers = frozenset(p.stem for p in (cell_dir / "answers").glob("*.md")) if (cell_dir / "answers").is_dir() else frozenset()
    scores: dict[str, ScoreFile] = {}
    malformed: dict[str, str] = {}
    for path in sorted((cell_dir / "scores").glob("*.json")) if (cell_dir / "scores").is_dir() else []:
        qid = path.stem
        if progress is not None:
            progress()
        hashes[path.relative_to(run_dir).as_posix()] = sha256_file(path)
        try:
            score = read_model(path, ScoreFile)
        except UserError as exc:
            malformed[qid] = str(exc)
            continue
        problem = _check_identity(score, qid, cell)
        if problem:
            malformed[qid] = f"{path}: {problem}"
            continue
        scores[qid] = score
    return CellFiles(cell=cell, answers=answers, scores=scores, malformed=malformed)


def load_run(run_dir: str | Path, cells: list[str] | None = None, progress: Callable[[], None] | None = None) -> RunScores:
    """Read every cell (or the named ones). One rubric per run: score files disagreeing on it are refused.
    ``progress`` is called once per score file."""
    run_dir = Path(run_dir)
    dirs = cell_dirs(run_dir)
    if not dirs:
        raise UserError("no cells (subdirectories with answers/, scores/ or events/)", run_dir)
    if cells is not None:
        known = {d.name for d in dirs}
        for name in cells:
            if name not in known:
                raise UserError(f"no cell named {name!r} (cells: {', '.join(sorted(known)) or 'none'})", run_dir)
        dirs = [d for d in dirs if d.name in set(cells)]
    hashes: dict[str, str] = {}
    read = {d.name: read_cell(run_dir, d, hashes, progress) for d in dirs}
    rubric: RubricRef | None = None
    rubric_from = ""
    judges: set[str] = set()
    for c in read.values():
        for qid, s in sorted(c.scores.items()):
            judges |= {j.judge for j in s.judgements}
            if rubric is None:
                rubric, rubric_from = s.rubric, f"{c.cell}/scores/{qid}.json"
            elif s.rubric != rubric:
                raise UserError(
                    f"rubric {s.rubric.name} ({s.rubric.sha256[:12]}) differs from {rubric.name} "
                    f"({rubric.sha256[:12]}) in {rubric_from}; a run is scored with one rubric",
                    run_dir / c.cell / "scores" / f"{qid}.json",
                )
    return RunScores(run_dir=run_dir, cells=read, rubric=rubric, judges=tuple(sorted(judges)), input_hashes=hashes)


def load_run_with_progress(run_dir: str | Path, cells: list[str] | None = None) -> RunScores:
    """``load_run`` with a rich progress bar over the score files (a large run has tens of thousands)."""
    from groundjudge.validation.tables import console, progress

    run_dir = Path(run_dir)
    total = sum(1 for d in cell_dirs(run_dir) for _ in (d / "scores").glob("*.json"))
    with progress(console()) as bar:
        task = bar.add_task(f"reading score files of {run_dir.name}", total=total)
        return load_run(run_dir, cells, progress=lambda: bar.advance(task))
