"""Issue E round 26: what the claim says nothing does. "`format_amount` is never called anywhere", "Nothing
calls `X`", "`P` never performs `X`" and "`X` is declared but never referenced" came out SUPPORTED whatever
the code did: the negated verb was (rightly) no relation, and nothing else checked it. They are now facts of
their own (`unused`): the first statement calling X (or, for "used", the first line of code naming it, outside
its definitions and imports; in COBOL, in procedure code) contradicts it, within P's code when the claim names
P; no such line holds it. A mere mention of a function ("never called") or of an item ("never tested") may be
a callback or a MOVE, and leaves it unchecked."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

S, U, V = Verdict.SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

APP = """\
from money import fmt, parse


def post(amount):
    return fmt(amount)


def cli(text):
    return post(parse(text))


def legacy(x):
    return x


def hooks():
    return [legacy]


def orphan(x):
    return x
"""

MONEY = """\
def fmt(amount):
    return str(amount)


def parse(text):
    return int(text)
"""

PAY = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. PAY.
       ENVIRONMENT DIVISION.
       CONFIGURATION SECTION.
       REPOSITORY.
           FUNCTION TAXOF.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01 WS-TOTAL PIC 9(5).
       01 WS-SPARE PIC X(10).
       01 WS-STATUS PIC 9.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO WS-TOTAL
           MOVE 1 TO WS-STATUS
           PERFORM 1000-ADD
           STOP RUN.
       1000-ADD.
           ADD 1 TO WS-TOTAL.
       9000-UNUSED.
           DISPLAY WS-TOTAL.
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round26"), {"app.py": APP, "money.py": MONEY, "PAY.cbl": PAY})


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        # the first call contradicts it, with its place; an import is no use
        ("`fmt` is never called anywhere.", U, "fmt is called (call at app.py:5)"),
        ("Nothing calls `parse`.", U, "parse is called (call at app.py:9)"),
        ("`orphan` is defined but never called.", S, "no code of the snapshot calls orphan outside its definition"),
        ("`orphan` is unused.", S, "no code of the snapshot uses orphan outside its definition"),
        # within the code of the name the claim gives
        ("`post` does not call `parse`.", S, "no code of post calls parse outside its definition"),
        ("`parse` is never called by `post`.", S, "no code of post calls parse outside its definition"),
        ("`post` never calls `fmt`.", U, "fmt is called by post (call at app.py:5)"),
        # a function passed on may be called: a mention that is no call settles nothing
        ("`legacy` is never called.", V, "no statement calls legacy, but code names it at app.py:17"),
        ("`legacy` is never used.", U, "legacy is used (app.py:17)"),
        # COBOL: PERFORM is a call; a paragraph's own program, or another
        ("`9000-UNUSED` is never performed.", S, None),
        ("`1000-ADD` is never performed.", U, "1000-ADD is called (perform at PAY.cbl:16)"),
        ("`0000-MAIN` never performs `1000-ADD`.", U, "1000-ADD is called by 0000-MAIN (perform at PAY.cbl:16)"),
        ("`1000-ADD` never performs `9000-UNUSED`.", S, None),
        # a data item: procedure code names it or not; a MOVE to it is no test
        ("`WS-SPARE` is declared but never referenced.", S, "no code of the snapshot uses WS-SPARE outside its definition"),
        ("`WS-TOTAL` is declared but never used.", U, "WS-TOTAL is used (PAY.cbl:14)"),
        ("`WS-STATUS` is never tested.", V, "code names WS-STATUS at PAY.cbl:15, which may or may not read it"),
        # a function the REPOSITORY paragraph declares is not used there
        ("`TAXOF` is declared in the repository but never used.", S, None),
        # a time or a place of running is no claim about the code ("in production", "outside tests"): no fact,
        # so the other words and names decide; the code as a whole is ("in its procedure division")
        ("`fmt` is not used in production.", V, '"in production" states a judgement or a runtime behaviour'),
        ("`fmt` is never called outside tests.", S, "fmt is a function at money.py:1-2"),
        ("`WS-TOTAL` is never used in its procedure division.", U, "WS-TOTAL is used (PAY.cbl:14)"),
    ],
)
def test_what_the_claim_says_nothing_does(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


def test_a_negated_relation_is_no_involvement_of_the_actor(grounder):
    # before, "`post` does not call `parse`" also made "post never names parse, so it does not use it" a
    # contradiction, since the word before the name was not read as a negation
    claim = grounder.one("`post` does not call `parse`.")
    assert "does not use it" not in claim.reason
