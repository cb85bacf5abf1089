"""Issue E round 24 (from held-out set 35): a word of the answer's prose (a product or a service, "the request
limits of the CoinDesk API") that a comment of the snapshot names, and that no fact says the code has, is no
invention. Before, "appears only in prose or comments, nowhere in the code" made three opinions about it
UNSUPPORTED. A name a fact says the code calls, or one written in backticks, must still be in the code."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

U, V = Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

TICKER = """\
# Fetches the rate from the CoinDesk API every minute.
import time


def fetch(url):
    return url


def loop():
    while True:
        fetch("https://example.invalid/rate.json")
        time.sleep(60)
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round24"), {"ticker.py": TICKER})


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("One pass a minute is likely well inside the request limits of the CoinDesk API.", V, None),
        # a name a fact says the code acts on, or a backticked one, is a name of the code: a comment is no use
        ("`loop` calls CoinDesk once a minute.", U, "CoinDesk appears only in prose or comments"),
        ("The rate comes from `CoinDesk`.", U, "CoinDesk appears only in prose or comments"),
    ],
)
def test_a_prose_word_a_comment_names_is_no_invention(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
