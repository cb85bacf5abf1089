"""Shared test set-up. Every test runs against a private groundjudge store, never ~/.cache."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True, scope="session")
def _private_store(tmp_path_factory):
    os.environ["GROUNDJUDGE_HOME"] = str(tmp_path_factory.mktemp("groundjudge-home"))
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY"):
        os.environ.pop(var, None)
    yield


@pytest.fixture
def repo_root() -> Path:
    return REPO
