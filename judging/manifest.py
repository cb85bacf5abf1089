"""The run manifest: every input that shaped a scoring run, by content hash."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel

from groundjudge.storage import VersionedModel
from judging.models import RubricRef


class JudgeRecord(BaseModel):
    name: str
    provider: str
    model: str
    base_url: str | None = None
    params: dict[str, Any]  # the sampling parameters actually sent
    params_sha256: str


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
    run_json_sha256: str | None = None  # RUN_DIR/run.json, the answers' provenance, when present
