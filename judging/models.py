"""Score files: what a judged answer looks like on disk, read by validation and reports.

A judgement that failed carries ``error`` and no scores: it is missing data, never a zero. A score
file whose numbers the rubric cannot have produced (a score outside the dimension's range, NaN or
Infinity, a dimension the rubric lacks, a total that is not the sum) fails validation, so every reader
treats it as malformed instead of averaging it.
"""

from __future__ import annotations

from enum import Enum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, model_validator

from groundjudge.errors import UserError
from groundjudge.rubrics.dimensions import RubricRef
from groundjudge.storage import VersionedModel, read_model


class FailureKind(str, Enum):
    """Why a judgement has no scores. Recorded beside the message, so nothing parses error text."""

    REFUSED_REQUEST = "refused_request"  # the provider answered 4xx (other than 429): the request itself is wrong
    TRANSIENT = "transient"  # 429, 5xx, timeouts, connection errors, still failing after the last retry
    REFUSAL = "refusal"  # the model declined to answer
    TRUNCATED = "truncated"  # the reply hit the max-tokens limit
    MALFORMED = "malformed"  # not JSON, no tool call, two calls, another tool
    SCHEMA_VIOLATION = "schema_violation"
    OUT_OF_RANGE = "out_of_range"
    BUDGET = "budget"  # not submitted, or not retried, once --budget was reached
    OFFLINE = "offline"  # --offline and no cached reply
    CREDENTIALS = "credentials"  # no API key in the environment
    JUDGE_STOPPED = "judge_stopped"  # not submitted: the judge's first calls all failed the same way
    OTHER = "other"

    @property
    def recurs(self) -> bool:
        """A rerun with the same prompt will most likely meet the same failure (and pay for it again)."""
        return self in _RECURRING


_RECURRING = frozenset(
    {
        FailureKind.REFUSED_REQUEST,
        FailureKind.REFUSAL,
        FailureKind.TRUNCATED,
        FailureKind.MALFORMED,
        FailureKind.SCHEMA_VIOLATION,
        FailureKind.OUT_OF_RANGE,
    }
)


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
    error_kind: FailureKind | None = None  # set with error (absent from files written before it existed)
    usage: Usage = Usage()
    cost_usd: float | None = None
    prompt_sha256: str
    latency_s: float | None = None
    params_sha256: str | None = None  # sampling parameters that shaped the call
    cached: bool = False

    @model_validator(mode="after")
    def _error_means_no_scores(self) -> Judgement:
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
    failures: dict[FailureKind, int] = {}  # calls that gave no usable reply (the helper fell back), by kind


class GroundingSummary(BaseModel):
    path: str
    sha256: str
    counts: dict[str, int]
    llm: list[LLMUsage] = []  # optional addition: empty when grounding used no LLM
    grounder: str | None = None  # the report's grounder fingerprint: judgements made on another grounder's report are redone


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
    def _judged_iff_any_valid(self) -> ScoreFile:
        if self.judged != any(j.valid for j in self.judgements):
            raise ValueError("judged must be true exactly when at least one judgement has no error")
        for i, j in enumerate(self.judgements):
            problem = self.rubric.problem(j)
            if problem:
                raise ValueError(f"judgements.{i} (judge {j.judge}): {problem}")
        return self


def score_file_problem(path: str | Path) -> str | None:
    """Why the score file at ``path`` cannot be used (one line naming it), or None when it can.

    For a caller that redoes unusable score files and wants to say how many it rewrote and why; a
    missing file is not a problem (it was never written)."""
    path = Path(path)
    if not path.exists():
        return None
    try:
        read_model(path, ScoreFile)
    except UserError as exc:
        return str(exc)
    return None
