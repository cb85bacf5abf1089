"""Criterion rubrics: per-item pass/fail criteria with priorities, as TOML data files.

Each item is one task (a question or change request) and says whether the codebase really needs an
update for it. Its criteria are requirements (always checked), conditionals (checked only when their
trigger holds) and guardrails (things a patch must not do). The scoring math that uses them is in
``judging.criterion``; the format is documented in docs/rubrics.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from groundjudge.hashing import sha256_bytes
from groundjudge.rubrics.files import first_duplicate, load_rubric_file
from groundjudge.storage import VersionedModel

CriterionType = Literal["requirement", "conditional", "guardrail"]
Priority = Literal["P0", "P1", "P2", "P3"]


class Criterion(BaseModel):
    """One checkable criterion. For a guardrail, ``fail`` describes the violation."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    id: str = Field(min_length=1)
    type: CriterionType
    priority: Priority
    pass_: str = Field(alias="pass", min_length=1)
    fail: str = Field(min_length=1)
    trigger: str | None = None

    @model_validator(mode="after")
    def _trigger_iff_conditional(self) -> Criterion:
        if self.type == "conditional" and not (self.trigger and self.trigger.strip()):
            raise ValueError(f"conditional criterion {self.id!r} needs a trigger")
        if self.type != "conditional" and self.trigger is not None:
            raise ValueError(f"{self.type} criterion {self.id!r} cannot have a trigger (only conditionals do)")
        return self


class CriterionItem(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    needs_update: bool
    description: str = ""
    criteria: list[Criterion] = []

    @model_validator(mode="after")
    def _unique(self) -> CriterionItem:
        if (dupe := first_duplicate(c.id for c in self.criteria)) is not None:
            raise ValueError(f"item {self.id!r}: duplicate criterion id {dupe!r}")
        return self

    def criterion(self, criterion_id: str) -> Criterion:
        for criterion in self.criteria:
            if criterion.id == criterion_id:
                return criterion
        raise KeyError(criterion_id)


class CriterionRubricFile(VersionedModel):
    """The on-disk TOML format of a criterion rubric."""

    schema_version: Literal[1] = 1
    kind: Literal["criteria"]
    name: str = Field(min_length=1)
    version: int = Field(ge=1)
    description: str = ""
    items: list[CriterionItem] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> CriterionRubricFile:
        if (dupe := first_duplicate(i.id for i in self.items)) is not None:
            raise ValueError(f"duplicate item id {dupe!r}")
        return self


class CriterionRubric(CriterionRubricFile):
    source: str
    sha256: str  # of the file's bytes

    def item(self, item_id: str) -> CriterionItem:
        for item in self.items:
            if item.id == item_id:
                return item
        raise KeyError(item_id)


def load_criterion_rubric(name_or_path: str | Path) -> CriterionRubric:
    """Load and validate a criterion rubric (bundled name or path); problems are a UserError naming the file."""
    content, path, raw = load_rubric_file(name_or_path, "criteria", CriterionRubricFile, "criterion rubric")
    return CriterionRubric(**content.model_dump(by_alias=True), source=str(path), sha256=sha256_bytes(raw))
