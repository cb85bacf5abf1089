"""The run manifest: every input that shaped a scoring run, by content hash.

Where the question set lives is recorded three ways, so ``report`` finds it from any working
directory: as given to ``score`` (relative to where that ran; the only record in manifests written
before the other two), relative to the run directory (found again when the run and the questions
move together) and absolute. The question set is used only while its sha256 still matches.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from groundjudge.errors import UserError
from groundjudge.hashing import sha256_file
from groundjudge.judging.models import RubricRef
from groundjudge.storage import VersionedModel, read_model, write_model

MANIFEST = "manifest.json"


class JudgeRecord(BaseModel):
    name: str
    provider: str
    model: str
    base_url: str | None = None
    params: dict[str, Any]  # the sampling parameters actually sent
    params_sha256: str
    simulated: bool = False  # scores from judging/simulated.py, not a model: reports say so


class RunManifest(VersionedModel):
    schema_version: Literal[1] = 1
    tool_version: str
    corpus_name: str
    corpus_tree_hash: str
    questions_path: str  # as given to `score`: relative to the directory it ran in
    questions_sha256: str
    questions_relpath: str | None = None  # relative to the run directory (None in manifests written before it)
    questions_abspath: str | None = None  # resolved absolute path (None in manifests written before it)
    rubric: RubricRef
    template_name: str
    template_sha256: str
    schema_sha256: str  # the structured-output schema sent to every judge
    judges: list[JudgeRecord]
    cells: list[str]
    config_files: list[str]
    config_sha256: list[str] = []  # of each config file, in the order of config_files (prices, retry policy, defaults)
    run_json_sha256: str | None = None  # RUN_DIR/run.json, the answers' provenance, when present
    llm_claims: JudgeRecord | None = None  # the LLM claim extractor grounding used, if any
    llm_verify: JudgeRecord | None = None  # the LLM verifier of the facts the checks leave unchecked, if any


# Where the question set lives is not what it is (questions_sha256 says that): a run scored again from
# another directory, or with the questions moved, is the same run.
_LOCATION = {"questions_path", "questions_relpath", "questions_abspath"}


def questions_location(questions: str | Path, run_dir: str | Path) -> dict[str, str]:
    """The RunManifest fields recording where the question set is: ``RunManifest(**questions_location(...), ...)``."""
    absolute = Path(questions).resolve()
    return {
        "questions_path": str(questions),
        "questions_relpath": Path(os.path.relpath(absolute, Path(run_dir).resolve())).as_posix(),
        "questions_abspath": str(absolute),
    }


@dataclass(frozen=True)
class QuestionSet:
    path: Path | None  # the question set, unchanged since the run; None when not found or changed
    problem: str | None  # one line naming the file, when path is None


def find_questions(manifest: RunManifest, run_dir: Path) -> QuestionSet:
    """The manifest's question set, looked for relative to the run directory first, then at its
    absolute path, then (manifests written before those) as given, relative to the run directory or
    to the working directory; the first whose sha256 matches is the one."""
    given = Path(manifest.questions_path)
    # relpath was taken between resolved paths, so it is joined to the resolved run directory
    candidates = [
        Path(os.path.normpath(run_dir.resolve() / manifest.questions_relpath)) if manifest.questions_relpath else None,
        Path(manifest.questions_abspath) if manifest.questions_abspath else None,
        *([given] if given.is_absolute() else [run_dir / given, given]),
    ]
    tried = list(dict.fromkeys(c for c in candidates if c is not None))
    found = [c for c in tried if c.is_file()]
    for path in found:
        if sha256_file(path) == manifest.questions_sha256:
            return QuestionSet(path, None)
    where = run_dir / MANIFEST
    if found:
        return QuestionSet(
            None,
            f"{found[0]}: question set changed since the run (its sha256 is not the "
            f"{manifest.questions_sha256[:12]}... recorded in {where})",
        )
    return QuestionSet(
        None,
        f"{tried[0]}: question set named in {where} not found"
        + (f" (nor at {', '.join(map(str, tried[1:]))})" if len(tried) > 1 else ""),
    )


def write_manifest(run_dir: Path, manifest: RunManifest, echo: Callable[[str], None]) -> RunManifest:
    """Write RUN_DIR/manifest.json, keeping the cells of an earlier run made with the same inputs.

    Runs scoring different cells of one run directory (one after the other, or two processes at once)
    then share one manifest listing every cell. The read-merge-write holds an exclusive lock on the
    run directory, so two processes cannot lose each other's cells.
    """
    import fcntl

    path = run_dir / MANIFEST
    fd = os.open(run_dir, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            old = read_model(path, RunManifest) if path.is_file() else None
        except UserError:
            old = None  # unreadable: replaced by this run's
        if old is not None and old.model_dump(exclude={"cells"} | _LOCATION) == manifest.model_dump(
            exclude={"cells"} | _LOCATION
        ):
            manifest = manifest.model_copy(update={"cells": sorted(set(old.cells) | set(manifest.cells))})
        elif old is not None:
            dropped = sorted(set(old.cells) - set(manifest.cells))
            echo(
                f"warning: {path} described a run with other inputs (judges, rubric, template, corpus, questions or "
                "config); replaced by this run's"
                + (f" (cells {', '.join(dropped)} not scored in this run are no longer listed)" if dropped else "")
            )
        write_model(path, manifest)
    finally:
        os.close(fd)  # releases the lock
    return manifest
