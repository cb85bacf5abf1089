"""Issue E round 27 (from held-out set 37's dectrans, which generates paragraphs named `RUL0001.`): a name
written with its number as a placeholder (`RULnnnn.`, `ENDnnnn`, `TMPxxx`) is the template of names the code
makes, which no file spells. Before, "`RULnnnn` appears nowhere in the snapshot" made true claims about the
generated code UNSUPPORTED, and "`GO TO ENDnnnn`" was a statement to find as written. And a fixed-format
literal continued on the next line (a hyphen in column 7, the literal going on after a quote) is one message;
a quoted phrase a line written all in capitals holds in another case is there (set 32's "my 32 byte wide
version" of a banner comment)."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Verdict

GEN = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. GEN.
      * THIS IS THE DECISION TABLE GENERATOR FOR BATCH USE
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 RULE-TAG.
          05 FILLER PIC X(3) VALUE 'RUL'.
          05 RULINC PIC 9(4) VALUE ZERO.
       01 WARNING-5 PIC X(80) VALUE
           "AUTO GOTO SUPPRESSED, GOTO MUST BE PROVIDED TO LEAVE EACH SE
      -    "T OF ACTIONS".
       PROCEDURE DIVISION.
       WRITE-RULE.
           ADD 1 TO RULINC
           DISPLAY RULE-TAG.
"""


@pytest.mark.parametrize(
    ("md", "names"),
    [
        ("| `RULnnnn.` | `RULINC` | zero |", ["RULINC"]),
        ("`WRITE-RULE` writes the `ELSnnnn.` tag, then `GO TO ENDnnnn`.", ["WRITE-RULE"]),
        # a name that only has letters such as these is a name
        ("`CONNECTION` and `TAXX` stay.", ["CONNECTION", "TAXX"]),
    ],
)
def test_a_template_name_is_no_name(md, names):
    (claim,) = MarkdownClaimExtractor().extract(md + "\n")
    assert [r.value for r in claim.refs] == names


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round27"), {"GEN.cbl": GEN})


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        # a claim about generated names is judged by its other names
        ("`WRITE-RULE` numbers each `RULnnnn.` tag with `RULINC`.", Verdict.SUPPORTED),
        # a continued literal is one message, which must still be the whole message
        ('`WARNING-5` holds "AUTO GOTO SUPPRESSED, GOTO MUST BE PROVIDED TO LEAVE EACH SET OF ACTIONS".', Verdict.SUPPORTED),
        ('`WARNING-5` holds "AUTO GOTO SUPPRESSED, GOTO MUST BE PROVIDED TO LEAVE EACH SET".', Verdict.UNSUPPORTED),
        # a phrase in another case than a line in capitals
        ('`GEN.cbl` describes itself as "the decision table generator".', Verdict.SUPPORTED),
        ('`GEN.cbl` describes itself as "the decision table translator".', Verdict.UNSUPPORTED),
    ],
)
def test_claims_about_a_generator(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)
