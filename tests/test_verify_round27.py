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


def test_a_claim_about_generated_names_is_judged_by_its_other_names(tmp_path):
    grounder = fixture_grounder(tmp_path, {"GEN.cbl": GEN})
    expect_verdict(grounder, "`WRITE-RULE` numbers each `RULnnnn.` tag with `RULINC`.", Verdict.SUPPORTED)


@pytest.mark.parametrize(
    ("message", "verdict"),
    [
        ("AUTO GOTO SUPPRESSED, GOTO MUST BE PROVIDED TO LEAVE EACH SET OF ACTIONS", Verdict.SUPPORTED),
        # joined, the literal must still be the whole message
        ("AUTO GOTO SUPPRESSED, GOTO MUST BE PROVIDED TO LEAVE EACH SET", Verdict.UNSUPPORTED),
    ],
)
def test_a_continued_literal_is_one_message(tmp_path, message, verdict):
    grounder = fixture_grounder(tmp_path, {"GEN.cbl": GEN})
    expect_verdict(grounder, f'`WARNING-5` holds "{message}".', verdict)


@pytest.mark.parametrize(
    ("phrase", "verdict"),
    [
        ("the decision table generator", Verdict.SUPPORTED),
        ("the decision table translator", Verdict.UNSUPPORTED),
    ],
)
def test_a_phrase_in_another_case_than_a_line_in_capitals(tmp_path, phrase, verdict):
    grounder = fixture_grounder(tmp_path, {"GEN.cbl": GEN})
    expect_verdict(grounder, f'`GEN.cbl` describes itself as "{phrase}".', verdict)
