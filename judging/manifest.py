"""The run manifest: every input that shaped a scoring run, by content hash."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable, Literal

from pydantic import BaseModel

from groundjudge.errors import UserError
from groundjudge.storage import VersionedModel, read_model, write_model
from judging.models import RubricRef

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
    questions_path: str
    questions_sha256: str
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
    llm_verify: JudgeRecord | None = None  # the LLM verifier for UNABLE_TO_VERIFY claims, if any


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
        if old is not None and old.model_dump(exclude={"cells"}) == manifest.model_dump(exclude={"cells"}):
            manifest = manifest.model_copy(update={"cells": sorted(set(old.cells) | set(manifest.cells))})
        elif old is not None:
            dropped = sorted(set(old.cells) - set(manifest.cells))
            echo(f"warning: {path} described a run with other inputs (judges, rubric, template, corpus, questions or "
                 "config); replaced by this run's" + (f" (cells {', '.join(dropped)} not scored in this run are no longer "
                                                      "listed)" if dropped else ""))
        write_model(path, manifest)
    finally:
        os.close(fd)  # releases the lock
    return manifest
