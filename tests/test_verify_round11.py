"""Issue E round 11: another library's name may be real, but a call, read or raise of it that the claim
says the snapshot's code makes is made up when no line of the snapshot spells the name. Named only in
passing (not what a verb of the claim acts on), it stays a name the snapshot neither holds nor denies."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

S, U, N = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

APP_PY = """\
import requests


def fetch(url):
    return requests.get(url, timeout=5)
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("outside")
    return fixture_grounder(root, {"app.py": APP_PY})


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        (
            "`fetch` calls `requests.get_everything()` with the URL.",
            U,
            "get_everything appears nowhere in the snapshot, so none of its code uses requests.get_everything",
        ),
        ("`fetch` calls `requests.get()` with the URL.", S, None),
        # in passing: a comparison, not a call the code makes
        ("`fetch` is simpler than a `requests.Session.mount()` setup would be.", N, None),
    ],
)
def test_another_librarys_name_the_snapshot_never_spells(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
