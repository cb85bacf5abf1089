"""Dimension rubrics: the file format, the loaded ``Rubric`` and its validating loader.

A rubric names the dimensions a judge scores, each with an integer range and a descriptor per
score band. The sha256 of the file's bytes identifies the rubric in every score file, so editing a
descriptor changes the recorded hash.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from groundjudge.hashing import sha256_bytes
from groundjudge.rubrics.files import first_duplicate, load_rubric_file
from groundjudge.storage import VersionedModel

# Dimension names become field names of the judge's structured-output model and keys of score
# files, so they must be plain identifiers that cannot clash with the model's own attributes.
_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
_RESERVED = {"rationale"}
# A total is a sum of floats written as JSON and read back: allow for rounding, not for a wrong sum.
TOTAL_TOLERANCE = 1e-6


class Band(BaseModel):
    """What an answer scoring ``min``..``max`` (inclusive) on one dimension looks like."""

    model_config = ConfigDict(extra="forbid")

    min: int
    max: int
    descriptor: str = Field(min_length=1)

    @model_validator(mode="after")
    def _ordered(self) -> Band:
        if self.min > self.max:
            raise ValueError(f"band {self.min}-{self.max}: min is greater than max")
        return self


class Dimension(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    min: int = 0
    max: int
    description: str = Field(min_length=1)
    bands: list[Band] = Field(min_length=1)

    @model_validator(mode="after")
    def _valid(self) -> Dimension:
        if (
            not _NAME.match(self.name)
            or self.name in _RESERVED
            or self.name.startswith("model_")
            or hasattr(BaseModel, self.name)
        ):
            raise ValueError(
                f"dimension name {self.name!r} must match [a-z][a-z0-9_]* (at most 40 characters) "
                "and not be 'rationale' or a pydantic attribute name"
            )
        if self.max <= 0:
            raise ValueError(f"max must be positive, got {self.max}")
        if not 0 <= self.min < self.max:
            raise ValueError(f"min must be in 0..max-1, got {self.min}")
        # A judge may give any integer in range, so every score needs exactly one descriptor.
        expected = self.min
        for band in sorted(self.bands, key=lambda b: b.min):
            if band.min < self.min or band.max > self.max:
                raise ValueError(f"band {band.min}-{band.max} is outside {self.min}-{self.max}")
            if band.min != expected:
                problem = (
                    "overlaps the previous band" if band.min < expected else f"leaves {expected}-{band.min - 1} without a band"
                )
                raise ValueError(f"band {band.min}-{band.max} {problem}")
            expected = band.max + 1
        if expected != self.max + 1:
            raise ValueError(f"scores {expected}-{self.max} have no band")
        return self

    def sorted_bands(self) -> list[Band]:
        return sorted(self.bands, key=lambda b: b.min)


class RubricFile(VersionedModel):
    """The on-disk TOML format of a dimension rubric."""

    schema_version: Literal[1] = 1
    kind: Literal["dimensions"]
    name: str = Field(min_length=1)
    version: int = Field(ge=1)
    description: str = ""
    dimensions: list[Dimension] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> RubricFile:
        if (dupe := first_duplicate(d.name for d in self.dimensions)) is not None:
            raise ValueError(f"duplicate dimension name {dupe!r}")
        return self


class Scored(Protocol):
    """What a rubric checks of a judgement (``judging.models.Judgement``), which sits above rubrics."""

    @property
    def scores(self) -> dict[str, float | None] | None: ...
    @property
    def total(self) -> float | None: ...
    @property
    def error(self) -> str | None: ...


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

    def problem(self, j: Scored) -> str | None:
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


class Rubric(RubricFile):
    """A loaded rubric: the file's content plus where it came from and the sha256 of its bytes."""

    source: str
    sha256: str

    @property
    def total_max(self) -> int:
        return sum(d.max for d in self.dimensions)

    def dimension(self, name: str) -> Dimension:
        for dim in self.dimensions:
            if dim.name == name:
                return dim
        raise KeyError(name)

    def ref(self) -> RubricRef:
        return RubricRef(
            name=self.name,
            sha256=self.sha256,
            dimensions={d.name: float(d.max) for d in self.dimensions},
            minimum={d.name: float(d.min) for d in self.dimensions},
        )


def load_rubric(name_or_path: str | Path) -> Rubric:
    """Load and validate a dimension rubric; any problem is a UserError naming the file."""
    content, path, raw = load_rubric_file(name_or_path, "dimensions", RubricFile, "rubric")
    return Rubric(**content.model_dump(), source=str(path), sha256=sha256_bytes(raw))
