"""Issue E round 19 (from held-out set 28's first run): what a claim quotes from a document it cites is that
document's, and a directory named alone is found as one."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

S, U = Verdict.SUPPORTED, Verdict.UNSUPPORTED

GAMES = {
    "games/life/gol.py": "def step(world):\n    return world\n",
    "games/life/README.md": "# Life\n\nSet `LIFE_WRAP=1` and a glider leaving the right edge comes back on the left.\n",
}


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round19"), GAMES)


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        # the README is cited: a word it holds is the README's, not a name the code lacks
        ("The README says that with `LIFE_WRAP` set a glider comes back on the left (`games/life/README.md:3`).", S),
        # not cited: a name only prose holds is still no name of the code
        ("`step` reads `LIFE_WRAP` to wrap the world around (`games/life/gol.py:1-2`).", U),
    ],
)
def test_a_word_of_a_cited_document_is_that_documents(games, md, verdict):
    expect_verdict(games, md, verdict)


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("The `life` folder holds `step` (`games/life/gol.py:1-2`).", S),
        ("The `breakout` folder holds `step` (`games/life/gol.py:1-2`).", U),
    ],
)
def test_a_directory_named_alone(games, md, verdict):
    expect_verdict(games, md, verdict)
