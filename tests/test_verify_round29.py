"""Issue E round 29 (from held-out set 39's first run, where a made-up PERFORM range came out SUPPORTED with the
checks alone): a PERFORM range quoted in lower case (`dl-delete-file thru dl-exit`) names two paragraphs. Before,
a lower-case hyphenated name counted as a name only when backticked alone, so the range's made-up paragraphs
were never looked up."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Verdict

PROGRAM = """\
       identification division.
       program-id. cleanup.
       procedure division.
       main-para.
           perform rm-remove-file thru rm-exit
           goback.
       rm-remove-file.
           display "removing".
       rm-exit.
           exit.
"""


@pytest.mark.parametrize(
    ("md", "names"),
    [
        ("It performs `dl-delete-file thru dl-exit` last.", ["dl-delete-file", "dl-exit"]),
        ("It performs `dl-delete-file through dl-exit` last.", ["dl-delete-file", "dl-exit"]),
        # without a range, a lower-case phrase of hyphenated words names nothing by itself
        ("It sends `content-type text/plain` first.", []),
    ],
)
def test_a_lower_case_perform_range_names_its_paragraphs(md, names):
    (claim,) = MarkdownClaimExtractor().extract(md + "\n")
    assert [r.value for r in claim.refs if r.kind == "identifier"] == names


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round29"), {"cleanup.cob": PROGRAM})


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("`main-para` performs `rm-remove-file thru rm-exit` before its `goback`.", Verdict.SUPPORTED, None),
        (
            "`main-para` performs `dl-delete-file thru dl-exit` before its `goback`.",
            Verdict.UNSUPPORTED,
            "dl-delete-file appears nowhere in the snapshot",
        ),
    ],
)
def test_claims_about_a_perform_range(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
