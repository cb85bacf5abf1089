"""Input rows of ``groundjudge agreement`` (documented in docs/formats/agreement.md) and their reader.

Each input is a JSONL file (one object a line) or a CSV file with a header row, chosen by the file
extension. Every row validates against a pydantic model; the first bad row is reported with its line
number. ``schema_version`` may be given on a row (it must be 1) and defaults to 1.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Literal, TypeVar

from pydantic import ConfigDict, ValidationError, field_validator

from groundjudge.errors import UserError, first_problem
from groundjudge.storage import VersionedModel, jsonl_objects, read_input_text


class _Row(VersionedModel):
    # Ids written as numbers in JSON (item 7) are the same ids as in a CSV ("7").
    model_config = ConfigDict(extra="forbid", coerce_numbers_to_str=True)

    schema_version: Literal[1] = 1

    @field_validator("*", mode="before")
    @classmethod
    def _strip(cls, value):
        return value.strip() if isinstance(value, str) else value


class ScoreRow(_Row):
    """One candidate's rubric score for an item."""

    item: str
    candidate: str
    score: float

    @field_validator("score")
    @classmethod
    def _finite(cls, value: float) -> float:
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("score must be a finite number")
        return value


class VerdictRow(_Row):
    """One criterion verdict; ``candidate`` may be left empty when items have a single candidate."""

    item: str
    candidate: str = ""
    criterion: str
    verdict: str

    @field_validator("verdict")
    @classmethod
    def _lower(cls, value: str) -> str:
        if not value:
            raise ValueError("verdict is empty")
        return value.lower()


class GateRow(_Row):
    """Whether an item needs documentation, by the gate or by a maintainer."""

    item: str
    needs_docs: bool


class CriterionRow(_Row):
    """A criterion of a rubric; ``priority`` is required for reference criteria."""

    item: str = ""
    id: str
    priority: Literal["P0", "P1", "P2", "P3"] | None = None


class MatchRow(_Row):
    """A generated criterion judged to cover (fully or partly) or contradict a reference criterion."""

    item: str = ""
    generated: str
    reference: str
    match: Literal["full", "partial", "conflict"]


R = TypeVar("R", bound=_Row)


def _records(path: Path, text: str):
    suffix = path.suffix.lower()
    if suffix == ".jsonl":
        yield from jsonl_objects(text, path)
    elif suffix == ".csv":
        reader = csv.DictReader(io.StringIO(text, newline=""))
        if reader.fieldnames is None:
            return
        for row in reader:
            if None in row:
                raise UserError(f"line {reader.line_num}: more fields than the header names", path)
            # An empty CSV cell means "not given", so the field's default (or a missing-field error) applies.
            yield reader.line_num, {k: v for k, v in row.items() if v is not None and v.strip() != ""}
    else:
        raise UserError("unknown input format: use a .jsonl or .csv file", path)


def read_rows(path: str | Path, model: type[R]) -> list[R]:
    """Every row of a JSONL or CSV input, validated; an empty file is an error."""
    path = Path(path)
    text = read_input_text(path, encoding="utf-8-sig")  # a spreadsheet may prepend a BOM
    rows: list[R] = []
    for number, record in _records(path, text):
        try:
            rows.append(model.model_validate(record))
        except ValidationError as exc:
            raise UserError(f"line {number}: {first_problem(exc, root='<row>')}", path) from None
    if not rows:
        raise UserError(f"no {model.__name__} rows", path)
    return rows


class AgreementInputs(VersionedModel):
    """Written beside every agreement CSV: what produced it, from which exact inputs."""

    schema_version: Literal[1] = 1
    command: str
    tool_version: str
    inputs: dict[str, str]  # path -> sha256
    excluded: dict[str, str] = {}  # input left out -> why (e.g. a malformed score file)
    unmatched: dict[str, int] = {}  # rows present in only one of two joined inputs
    outputs: list[str]
