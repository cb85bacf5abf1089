"""Issue E round 30 (from the true claims the checks called made up on sets 15 to 39): a version given as a sample
input (`0.0.1-SNAPSHOT`) names nothing, where its tag was read as a COBOL name (`1-SNAPSHOT`); `./` alone is the
prefix a path starts with, not a path leaving the corpus; a method of one of the language's own types
(`dict.update`) is the language's; and a literal argument of a sample call (`Load("a.env", "b.env")`) is an
example wherever the claim names it, which the LLM verifier is asked about like a value found nowhere."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor, given_as_example
from groundjudge.grounding.models import Verdict


@pytest.mark.parametrize(
    ("md", "refs"),
    [
        ("so `0.0.1-SNAPSHOT` survives as one version.", []),
        ("a leading `./` is dropped.", []),
        # a number and a version's own name stay what they were
        ("it waits `1.5` seconds for `v1_2_3`.", [("value", "1.5"), ("identifier", "v1_2_3")]),
    ],
)
def test_what_a_code_span_names(md, refs):
    (claim,) = MarkdownClaimExtractor().extract(md + "\n")
    assert [(r.kind, r.value) for r in claim.refs] == refs


def test_a_literal_argument_of_a_sample_call_is_an_example():
    text = 'With `Load("a.env", "b.env")` the value from `a.env` wins; `CALL "BKUPD02C"` runs `BKUPD02C`.'
    (claim,) = MarkdownClaimExtractor().extract(text + "\n")
    example = {r.value for r in claim.refs if r.kind == "identifier" and given_as_example(claim.text, r)}
    # a COBOL CALL's literal is the program it calls, which must exist
    assert example == {"a.env"}


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    files = {"table.py": "def update(doc, fields):\n    doc.update(fields)\n    return doc\n"}
    return fixture_grounder(tmp_path_factory.mktemp("round30"), files)


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("`update` merges `fields` in with `dict.update`.", Verdict.SUPPORTED, None),
        # the head must be the language's type, not a name found nowhere
        ("`update` merges `fields` in with `dikt.update`.", Verdict.UNSUPPORTED, "dikt.update appears nowhere"),
    ],
)
def test_a_member_of_a_type_the_language_supplies(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
