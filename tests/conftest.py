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


@pytest.fixture(scope="session")
def bank_grounder():
    """The cobol-bank sample corpus, indexed once for every test that grounds claims on it."""
    from _grounding_helpers import Grounder

    return Grounder("cobol-bank")


@pytest.fixture(scope="session")
def pyledger_grounder():
    from _grounding_helpers import Grounder

    return Grounder("pyledger")
