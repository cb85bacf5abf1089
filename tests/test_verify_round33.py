"""Issue E round 33: a quoted message is one token for the sentence splitter (`prints "I SMELL A WUMPUS! " for
J 2, "I FEEL A DRAFT " for 3` was cut after "WUMPUS!", and the closing quote then opened a bogus string, found
nowhere), and a quoted message matches the code's whatever its runs of blanks: a claim's text has them squashed
("libmagic. Check" for the code's "libmagic.  Check")."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Verdict


@pytest.mark.parametrize(
    ("md", "units"),
    [
        (
            '`585-line` prints "I SMELL A WUMPUS! " for `J` 2 and "BATS NEARBY! " for 5. It then loops.',
            ['`585-line` prints "I SMELL A WUMPUS! " for `J` 2 and "BATS NEARBY! " for 5.', "It then loops."],
        ),
        # a stop that ends the quote still ends the sentence, which keeps the closing quote
        ('It displays "Done." Then it stops.', ['It displays "Done."', "Then it stops."]),
        ("It stops (see `X`.) Then it ends.", ["It stops (see `X`.)", "Then it ends."]),
        # but not before the sentence's own citation, which follows the quote
        (
            'It raises `DeadlockError` with "No unblocked streams to schedule." (`priority.py:495-499`).',
            ['It raises `DeadlockError` with "No unblocked streams to schedule." (`priority.py:495-499`).'],
        ),
        ('It says "stop". Then `X` runs.', ['It says "stop".', "Then `X` runs."]),
    ],
)
def test_a_quoted_message_is_one_token_for_the_sentence_splitter(md, units):
    assert [c.text for c in MarkdownClaimExtractor().extract(md + "\n")] == units


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    files = {
        "loader.py": (
            "def load(candidates):\n    exc = []\n    for lib in candidates:\n        exc.append(lib)\n"
            '    raise ImportError(\n        "python-magic: failed to find libmagic.  Check your installation: \\n" + str(exc)\n    )\n'
        )
    }
    return fixture_grounder(tmp_path_factory.mktemp("round33"), files)


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        (
            '`load` raises an `ImportError` beginning "python-magic: failed to find libmagic.  Check your installation: ".',
            Verdict.SUPPORTED,
            None,
        ),
        (
            '`load` raises an `ImportError` beginning "python-magic: could not load libmagic.  Check your path: ".',
            Verdict.UNSUPPORTED,
            "'python-magic: could not load libmagic. Check your path: ' does not appear",
        ),
    ],
)
def test_a_message_matches_whatever_its_runs_of_blanks(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
