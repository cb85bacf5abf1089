"""Issue E round 31 (from held-out set 40's first run): `HTTP/1.1` in a code span is a protocol and its version,
a string the code spells, not a file (it was "no file HTTP/1.0 in the snapshot"); and "as in `@my_deco`" or "even
as `@my_deco()`" gives an example, as "such as" does, which the LLM verifier is asked about like a value found
nowhere."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor, given_as_example
from groundjudge.grounding.models import Verdict


@pytest.mark.parametrize(
    ("md", "example"),
    [
        ("so the result is applied bare, as in `@my_deco`.", True),
        ("so it must always be called, even as `@my_deco()`.", True),
        # a name the claim says the code has is no example
        ("so the result is applied by `my_deco`.", False),
    ],
)
def test_as_in_gives_an_example(md, example):
    (claim,) = MarkdownClaimExtractor().extract(md + "\n")
    [ref] = [r for r in claim.refs if r.kind == "identifier"]
    assert given_as_example(claim.text, ref) is example


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    files = {"version.py": 'def parse_version(line):\n    return 1 if line.startswith("HTTP/1.1") else 0\n'}
    return fixture_grounder(tmp_path_factory.mktemp("round31"), files)


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("`parse_version` compares against `HTTP/1.1`.", Verdict.SUPPORTED, None),
        ("`parse_version` compares against `HTTP/2.0`.", Verdict.UNSUPPORTED, "'HTTP/2.0' does not appear"),
    ],
)
def test_a_protocol_version_is_a_string(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
