"""Issue E round 28 (from the true claims the checks called made up, on sets 15 to 37): a COBOL table of
keywords spells each entry after its length (`"10NOKEYFOUND"`, `"02hi "`), which the full-text search and a
whole-word match read as another word, so "selects the `NOKEYFOUND` row" was a made-up name; and a message
quoted with code inside ("`min_val` cannot be greater than `max_val`") was looked for with its code spans
blanked out, so it was found nowhere."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Verdict

TABLE = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. TALK.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 KEYWORD-DATA.
           05  FILLER   PIC X(16)  VALUE "02hi ".
           05  FILLER   PIC X(16)  VALUE "10NOKEYFOUND".
      *    "05HELLO" IS NOT A KEYWORD ANY MORE
       PROCEDURE DIVISION.
       MAIN-PARA.
           DISPLAY KEYWORD-DATA.
"""

BETWEEN = """\
def between(value, min_val, max_val):
    if min_val > max_val:
        raise ValueError("`min_val` cannot be greater than `max_val`")
    return min_val <= value <= max_val
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round28"), {"TALK.cbl": TABLE, "between.py": BETWEEN})


def test_a_quoted_message_keeps_its_code_spans():
    (claim,) = MarkdownClaimExtractor().extract('It raises "`min_val` cannot be greater than `max_val`" (`between.py:3`).\n')
    assert [r.value for r in claim.refs if r.value_kind == "string"] == ["`min_val` cannot be greater than `max_val`"]


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        (
            "`KEYWORD-DATA` holds the `NOKEYFOUND` entry (`TALK.cbl:7`).",
            Verdict.SUPPORTED,
            "KEYWORD-DATA is a data_item at TALK.cbl:5-7; NOKEYFOUND appears at TALK.cbl:7, after the length a literal gives it",
        ),
        ("`KEYWORD-DATA` in `TALK.cbl` holds the `hi` entry.", Verdict.SUPPORTED, None),
        # the length must come right before it, in a literal of code, not a comment
        ("`KEYWORD-DATA` in `TALK.cbl` holds the `KEYFOUND` entry.", Verdict.UNSUPPORTED, "KEYFOUND appears nowhere"),
        ("`KEYWORD-DATA` in `TALK.cbl` holds the `HELLO` entry.", Verdict.UNSUPPORTED, None),
        # the cited line must spell it so
        ("The `NOKEYFOUND` entry is at `TALK.cbl:7`.", Verdict.SUPPORTED, None),
        ("The `NOKEYFOUND` entry is at `TALK.cbl:6`.", Verdict.PARTIALLY_SUPPORTED, "TALK.cbl:6 does not mention NOKEYFOUND"),
        # a message with code in it, as the code writes it
        ('`between` fails with "`min_val` cannot be greater than `max_val`" (`between.py:2-3`).', Verdict.SUPPORTED, None),
        ('`between` fails with "`min_val` must not exceed `max_val`" (`between.py:2-3`).', Verdict.UNSUPPORTED, None),
    ],
)
def test_claims_about_a_keyword_table_and_a_message(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
