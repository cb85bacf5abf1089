"""Question sets: JSONL files, one ``{"id", "text", "category", "difficulty"}`` object a line.

Optional ``must_touch`` lists the files or symbols a complete answer must mention. Extra keys are
kept (renaming passes them through untouched).
"""

from __future__ import annotations

from pathlib import Path, PurePosixPath

from pydantic import BaseModel, ConfigDict, ValidationError

from groundjudge.errors import UserError, first_problem
from groundjudge.storage import jsonl_objects, read_input_text

BUNDLED = Path(__file__).resolve().parent


class Question(BaseModel):
    model_config = ConfigDict(extra="allow")

    id: str
    text: str
    category: str
    difficulty: str
    must_touch: list[str] = []

    @property
    def subject(self) -> str | None:
        """The first file a complete answer must mention: what "the program" or "it" means in an answer
        whose headings name nothing (the grounder's fallback subject)."""
        return next((m for m in self.must_touch if "/" in m or PurePosixPath(m).suffix), None)


def load_questions(path: str | Path) -> list[Question]:
    """Parse and validate a question set; the first bad line is reported with its number."""
    path = Path(path)
    raw = read_input_text(path, "question set")
    questions: list[Question] = []
    seen: set[str] = set()
    for number, obj in jsonl_objects(raw, path):
        try:
            q = Question.model_validate(obj)
        except ValidationError as exc:
            raise UserError(f"line {number}: {first_problem(exc)}", path) from None
        if q.id in seen:
            raise UserError(f"line {number}: duplicate question id {q.id!r}", path)
        seen.add(q.id)
        questions.append(q)
    if not questions:
        raise UserError("question set is empty", path)
    return questions
