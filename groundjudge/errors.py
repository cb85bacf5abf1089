"""The one exception type the CLI turns into a one-line message and a non-zero exit."""

from __future__ import annotations

from pathlib import Path


class UserError(Exception):
    """Bad input or a refused operation. The message names the file and the problem on one line."""

    def __init__(self, message: str, path: str | Path | None = None):
        self.path = str(path) if path is not None else None
        super().__init__(f"{path}: {message}" if path is not None else message)
