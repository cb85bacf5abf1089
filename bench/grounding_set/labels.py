"""One line of a grounding set's labels.jsonl: a claim unit of an answer and the verdict a reader gave it.

A unit is a sentence, a list item or a table row, located by its answer file and the answer line it
starts on; ``text`` is the line as written, so a reader can find it without counting lines and the
bench can tell apart two sentences that start on the same line. ``expected`` follows the precision-first
rule of bench/grounding_set/README.md; ``kind`` says what sort of claim it is, true or which way false.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from groundjudge.errors import UserError, first_problem
from groundjudge.grounding.models import Verdict
from groundjudge.storage import jsonl_objects

Kind = Literal["true", "fabricated-name", "wrong-relation", "wrong-value", "wrong-line", "opinion", "partial"]


class Label(BaseModel):
    model_config = ConfigDict(extra="forbid")

    schema_version: Literal[1] = 1
    answer: str  # file name under the codebase's answers/
    line: int = Field(ge=1)  # 1-based answer line the unit starts on
    text: str
    expected: Verdict
    kind: Kind
    justification: str  # what was checked, with file:line in the snapshot


def read_labels(path: Path) -> list[Label]:
    """Every label of a labels.jsonl; a malformed line is a UserError naming it."""
    labels = []
    for number, obj in jsonl_objects(path.read_text(encoding="utf-8"), path):
        try:
            labels.append(Label.model_validate(obj))
        except ValidationError as exc:
            raise UserError(f"line {number}: {first_problem(exc)}", path) from None
    return labels
