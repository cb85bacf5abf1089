"""The one exception type the CLI turns into a one-line message and a non-zero exit."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic import ValidationError


class UserError(Exception):
    """Bad input or a refused operation. The message names the file and the problem on one line."""

    def __init__(self, message: str, path: str | Path | None = None):
        self.path = str(path) if path is not None else None
        super().__init__(f"{path}: {message}" if path is not None else message)


def first_problem(exc: ValidationError, root: str = "<root>") -> str:
    """The first error of a pydantic validation as 'where: message', for a one-line UserError."""
    first = exc.errors()[0]
    where = ".".join(str(p) for p in first.get("loc", ())) or root
    return f"{where}: {first.get('msg')}"
