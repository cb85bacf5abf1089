"""Atomic writes and validated reads of the on-disk formats.

Every on-disk format is a pydantic model carrying a ``schema_version``; writers validate before
writing and write to a temporary file in the same directory, then rename, so an interrupted run
never leaves a half-written file behind.
"""

from __future__ import annotations

import json
import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from groundjudge.errors import UserError, first_problem


class VersionedModel(BaseModel):
    """Base of every on-disk format. Subclasses pin ``schema_version`` with a Literal."""

    model_config = ConfigDict(extra="forbid")

    schema_version: int


M = TypeVar("M", bound=BaseModel)


def home() -> Path:
    """The groundjudge store: snapshots, indexes, the response cache."""
    root = os.environ.get("GROUNDJUDGE_HOME")
    path = Path(root) if root else Path.home() / ".cache" / "groundjudge"
    path.mkdir(parents=True, exist_ok=True)
    return path


def _create_temp(path: Path) -> tuple[int, Path]:
    """A new, uniquely named file beside ``path``, opened for writing.

    Created with mode 0666 for the kernel to apply the umask, so a written report or score file gets the
    mode any other new file gets and can be shared like the user's other files (mkstemp makes them 0600;
    reading the umask instead would mean setting it, process-wide)."""
    while True:
        tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = _create_temp(path)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def write_model(path: str | Path, model: BaseModel) -> None:
    """Re-validate, then write atomically as indented JSON."""
    type(model).model_validate(model.model_dump())
    atomic_write_text(path, model.model_dump_json(indent=2) + "\n")


def read_input_bytes(path: str | Path, what: str = "file") -> bytes:
    """A file the user named; missing or unreadable is a one-line UserError saying what it was meant to be."""
    path = Path(path)
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise UserError(f"{what} not found", path) from None
    except OSError as exc:
        raise UserError(f"cannot read {what} ({exc.strerror})", path) from None


def read_input_text(path: str | Path, what: str = "file", encoding: str = "utf-8") -> str:
    """Like read_input_bytes, decoded; non-UTF-8 text is a one-line UserError too."""
    data = read_input_bytes(path, what)
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise UserError(f"{what} is not UTF-8 text", path) from None


def read_model(path: str | Path, cls: type[M]) -> M:
    """Read and validate; any problem becomes a one-line UserError naming the file."""
    raw = read_input_bytes(path)
    try:
        return cls.model_validate_json(raw)
    except ValidationError as exc:
        raise UserError(f"invalid {cls.__name__}: {first_problem(exc)}", path) from None


def jsonl_objects(text: str, path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, object) for each non-blank line of a JSONL file; the first bad line is a UserError."""
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise UserError(f"line {number}: not JSON ({exc.msg}: column {exc.colno})", path) from None
        if not isinstance(obj, dict):
            raise UserError(f"line {number}: expected a JSON object", path)
        yield number, obj
