"""Issue E round 23 (from held-out sets 15 to 33): a relation word whose actor is a person ("for people who call
the inner `cors`", "if you pass it to `f`") or a gerund opening a clause as its subject ("calling `Validate`
first is the safer choice") states no relation of the code: the name before it is not its subject. Before,
"`Parse` does not call `Validate`" made such an opinion UNSUPPORTED."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Verdict
from groundjudge.grounding.outcomes import describe

S, U, V = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

UUID = """\
def parse(s):
    return s.strip("{}")


def validate(s):
    if s.startswith("{"):
        raise ValueError(s)
    return parse(s)
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round23"), {"uuid.py": UUID})


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("Because `parse` accepts braces, calling `validate` first is the safer choice.", V),
        ("The strip in `parse` was most likely kept for people who call `validate` directly.", V),
        # the name before the word is its subject when no person or gerund stands between
        ("`validate` calls `parse`.", S),
        ("`parse` calls `validate`.", U),
        ("`validate` checks the braces, calling `parse` after that.", S),
    ],
)
def test_a_person_or_a_gerund_acts_not_the_name_before(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


@pytest.mark.parametrize(
    ("md", "facts"),
    [
        ("If you pass the text to `validate`, it strips the braces.", []),
        ("Callers that read `CONFIG` see the old value.", []),
        ("`load` opens the file, calling `parse` for each line.", ['calls(load, parse) "calling"']),
    ],
)
def test_relation_facts(md, facts):
    claim = MarkdownClaimExtractor().extract(md)[0]
    assert [describe(f, claim.text) for f in claim.facts] == facts
