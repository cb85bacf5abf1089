"""Score files: what a judged answer looks like on disk, read by validation and reports.

A judgement that failed carries ``error`` and no scores: it is missing data, never a zero. A score
file whose numbers the rubric cannot have produced (a score outside the dimension's range, NaN or
Infinity, a dimension the rubric lacks, a total that is not the sum) fails validation, so every reader
treats it as malformed instead of averaging it.
"""

from __future__ import annotations

import math
from enum import Enum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, model_validator

from groundjudge.errors import UserError
from groundjudge.storage import VersionedModel, read_model

# A total is a sum of floats written as JSON and read back: allow for rounding, not for a wrong sum.
TOTAL_TOLERANCE = 1e-6


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

    @model_validator(mode="after")
    def _finite_ranges(self) -> RubricRef:
        for dim, hi in self.dimensions.items():
            lo = self.minimum.get(dim, 0.0)
            if not (math.isfinite(lo) and math.isfinite(hi)) or lo > hi:
                raise ValueError(f"dimension {dim!r} has no finite range (minimum {lo}, maximum {hi})")
        unknown = sorted(set(self.minimum) - set(self.dimensions))
        if unknown:
            raise ValueError(f"minimum given for {', '.join(map(repr, unknown))}, not a dimension of the rubric")
        return self

    def problem(self, j: Judgement) -> str | None:
        """Why judgement ``j`` cannot have been made with this rubric, or None.

        Every dimension named must be the rubric's. One left out, or None, is a dimension the judge gave no
        score for: counted as missing data, never as 0 (``dimension_missing``); the total is the sum of
        the scores given."""
        scores = j.scores or {}
        unknown = sorted(set(scores) - set(self.dimensions))
        if unknown:
            return f"dimension {', '.join(map(repr, unknown))} is not in rubric {self.name} ({', '.join(self.dimensions)})"
        if j.error is not None:
            return None
        for dim, value in scores.items():
            if value is None:
                continue
            lo, hi = self.minimum.get(dim, 0.0), self.dimensions[dim]
            if not math.isfinite(value) or not lo <= value <= hi:
                return f"{dim} = {value} is outside the rubric's range [{lo:g}, {hi:g}]"
        assert j.total is not None  # Judgement's own validation: no error means a total
        expected = sum(v for v in scores.values() if v is not None)
        if not math.isfinite(j.total) or not math.isclose(j.total, expected, rel_tol=0.0, abs_tol=TOTAL_TOLERANCE):
            return f"total = {j.total} is not the sum of the dimension scores ({expected:g})"
        return None


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
