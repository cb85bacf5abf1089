"""Finding and reading rubric files: bundled names or paths, TOML parsing, one-line error messages."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from groundjudge.errors import UserError
from groundjudge.storage import read_input_bytes

BUNDLED = Path(__file__).resolve().parent


def bundled_rubrics(kind: str = "dimensions") -> list[str]:
    """Names of the bundled rubric files of one kind ("dimensions" or "criteria"), sorted."""
    names = []
    for path in sorted(BUNDLED.glob("*.toml")):
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError):
            continue
        if data.get("kind") == kind:
            names.append(path.stem)
    return names


def resolve_rubric_path(name_or_path: str | Path, kind: str = "dimensions") -> Path:
    """A bundled rubric name ("reference-free") or a path to a TOML file."""
    spec = str(name_or_path)
    path = Path(spec)
    if path.is_file():
        return path
    if "/" in spec or "\\" in spec or spec.endswith(".toml") or spec.startswith("."):
        raise UserError("rubric file not found", path)
    bundled = BUNDLED / f"{spec}.toml"
    if bundled.is_file():
        return bundled
    raise UserError(
        f"unknown rubric {spec!r}; bundled: {', '.join(bundled_rubrics(kind)) or 'none'}; or give a path to a .toml file"
    )


def read_toml(path: Path) -> tuple[bytes, dict[str, Any]]:
    """The file's bytes (for hashing) and its parsed TOML, or a one-line UserError."""
    raw = read_input_bytes(path, "rubric file")
    try:
        return raw, tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise UserError("rubric file is not UTF-8 text", path) from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"not valid TOML ({exc})", path) from None


def check_kind(data: dict[str, Any], expected: str, path: Path) -> None:
    """A clear message when a criterion rubric is given where a dimension rubric is needed, or the reverse."""
    kind = data.get("kind")
    if kind in ("dimensions", "criteria") and kind != expected:
        raise UserError(f"this is a {kind} rubric (kind = {kind!r}); a {expected} rubric is needed here", path)


def validation_problem(exc: ValidationError, data: dict[str, Any]) -> str:
    """The first validation error as 'where: message', naming list entries by their name or id."""
    first = exc.errors()[0]
    where: list[str] = []
    node: Any = data
    for part in first.get("loc", ()):
        if isinstance(part, int) and isinstance(node, list) and part < len(node):
            node = node[part]
            label = node.get("name") or node.get("id") if isinstance(node, dict) else None
            where[-1] = f"{where[-1]}[{label!r}]" if label else f"{where[-1]}[{part}]"
            continue
        node = node.get(part) if isinstance(node, dict) else None
        where.append(str(part))
    msg = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{'.'.join(where)}: {msg}" if where else msg


def first_duplicate(names: Iterable[str]) -> str | None:
    """The first name seen twice, in input order, or None."""
    seen: set[str] = set()
    for name in names:
        if name in seen:
            return name
        seen.add(name)
    return None


M = TypeVar("M", bound=BaseModel)


def load_rubric_file(name_or_path: str | Path, kind: str, model: type[M], what: str) -> tuple[M, Path, bytes]:
    """Resolve, read and validate a rubric file of one kind: (content, path, bytes for the sha256)."""
    path = resolve_rubric_path(name_or_path, kind=kind)
    raw, data = read_toml(path)
    check_kind(data, kind, path)
    try:
        return model.model_validate(data), path, raw
    except ValidationError as exc:
        raise UserError(f"invalid {what}: {validation_problem(exc, data)}", path) from None
