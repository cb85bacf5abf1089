"""Score files: what a judged answer looks like on disk, read by validation and reports.

A judgement that failed carries ``error`` and no scores: it is missing data, never a zero.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, model_validator

from groundjudge.storage import VersionedModel


class Usage(BaseModel):
    input_tokens: int = 0
    output_tokens: int = 0


class Judgement(BaseModel):
    judge: str
    model: str
    scores: dict[str, float | None] | None = None
    total: float | None = None
    rationale: str | None = None
    error: str | None = None
    usage: Usage = Usage()
    cost_usd: float | None = None
    prompt_sha256: str
    latency_s: float | None = None
    params_sha256: str | None = None  # sampling parameters that shaped the call
    cached: bool = False

    @model_validator(mode="after")
    def _error_means_no_scores(self) -> "Judgement":
        if self.error is not None:
            if self.total is not None or any(v is not None for v in (self.scores or {}).values()):
                raise ValueError("a failed judgement carries no scores")
        elif not self.scores or self.total is None:
            raise ValueError("a judgement without an error needs scores and a total")
        return self

    @property
    def valid(self) -> bool:
        return self.error is None


class LLMUsage(BaseModel):
    """What an optional LLM grounding helper (``--llm-claims`` / ``--llm-verify``) cost for one answer."""

    role: Literal["claims", "verify"]
    model: str
    calls: int = 0  # HTTP attempts made, retries included
    cache_hits: int = 0
    usage: Usage = Usage()
    cost_usd: float | None = None  # None: no price for the model


class GroundingSummary(BaseModel):
    path: str
    sha256: str
    counts: dict[str, int]
    llm: list[LLMUsage] = []  # optional addition: empty when grounding used no LLM


class RubricRef(BaseModel):
    name: str
    sha256: str
    dimensions: dict[str, float]  # dimension -> maximum; a missing-data sensitivity analysis needs the range
    minimum: dict[str, float] = {}  # dimension -> minimum; 0 when absent


class ScoreFile(VersionedModel):
    schema_version: Literal[1] = 1
    qid: str
    cell: str
    judged: bool
    judgements: list[Judgement]
    grounding: GroundingSummary | None = None
    answer_sha256: str | None = None
    rubric: RubricRef
    corpus_tree_hash: str | None = None
    template_sha256: str | None = None
    tool_version: str

    @model_validator(mode="after")
    def _judged_iff_any_valid(self) -> "ScoreFile":
        if self.judged != any(j.valid for j in self.judgements):
            raise ValueError("judged must be true exactly when at least one judgement has no error")
        return self
