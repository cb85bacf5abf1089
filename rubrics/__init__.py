"""Rubric data files and their loaders.

Dimension rubrics (``reference-free.toml``: what a judge scores) are loaded by ``load_rubric`` from
``rubrics.dimensions``; criterion rubrics (P0-capped pass/fail criteria) by ``rubrics.criteria``.
Both formats are documented in docs/rubrics.md. The names below are imported on first use so that
``groundjudge --help``, which imports ``rubrics.cli``, does not pay for pydantic.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Band": "groundjudge.rubrics.dimensions",
    "Dimension": "groundjudge.rubrics.dimensions",
    "Rubric": "groundjudge.rubrics.dimensions",
    "RubricFile": "groundjudge.rubrics.dimensions",
    "load_rubric": "groundjudge.rubrics.dimensions",
    "BUNDLED": "groundjudge.rubrics.files",
    "bundled_rubrics": "groundjudge.rubrics.files",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'rubrics' has no attribute {name!r}")
