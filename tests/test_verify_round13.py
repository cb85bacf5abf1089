"""Issue E round 13 (from held-out set 20): a mainframe member downloaded without a file extension
(`Cobol/HOSPR210`) is COBOL when its first lines hold a program's IDENTIFICATION DIVISION or a copybook's
level-01 entry, so its names are indexed and checked like any program's; and what a quoted call calls
(`sdsfreeargv(argv, argc)`) is a name the code must hold, so a made-up one is UNSUPPORTED."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.index.registry import Kind, kind_of
from groundjudge.grounding.models import Verdict

S, U = Verdict.SUPPORTED, Verdict.UNSUPPORTED

MEMBER = """\
000100 IDENTIFICATION DIVISION.
000200 PROGRAM-ID.           HOSXX210.
000300 DATA DIVISION.
000400 WORKING-STORAGE SECTION.
000500 01  WS-RATE               PIC 999V99 VALUE 111.23.
000600 PROCEDURE DIVISION.
000700 0000-MAIN.
000800     PERFORM 1000-PRICE.
000900     GOBACK.
001000 1000-PRICE.
001100     MOVE 0 TO WS-RATE.
"""

RATES = """\
000100* RATES COPYBOOK
000200 01  2016-DATA-VALUES.
000300     05  2016-EFF-DATE             PIC X(08)  VALUE '20151001'.
"""

SDS_C = """\
#include <stdlib.h>

void sdsfree(char *s) {
    free(s);
}
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round13")
    return fixture_grounder(root, {"Cobol/HOSXX210": MEMBER, "Cobol/HOSRATES": RATES, "sds.c": SDS_C})


@pytest.mark.parametrize(
    ("path", "text", "kind"),
    [
        ("Cobol/HOSXX210", MEMBER, Kind.COBOL),
        ("Cobol/HOSRATES", RATES, Kind.COBOL),  # a copybook: comments, then its first 01 entry
        ("README", "1 Install.\nChapter 01 Intro.\n", Kind.TEXT),  # prose with numbers is no copybook
        ("notes.md", MEMBER, Kind.TEXT),  # an extension a language names is never second-guessed
        ("data/CBSA2021", "10180 20061001 008397 000000 Abilene, TX\n", Kind.TEXT),
    ],
)
def test_a_member_without_an_extension_is_read_by_what_it_holds(path, text, kind):
    assert kind_of(path, text) is kind


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("`HOSXX210` performs `1000-PRICE` (`Cobol/HOSXX210:8`).", S, None),
        ("`WS-RATE` is `PIC 999V99` in `HOSXX210`.", S, None),
        ("`2016-EFF-DATE` in `Cobol/HOSRATES` is `PIC X(08)`.", S, None),
        ("`HOSXX210` performs `2000-ROUND`.", U, "2000-ROUND appears nowhere in the snapshot"),
    ],
)
def test_names_of_a_member_without_an_extension(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("The string is released with `sdsfree(s)`.", S, None),
        ("The vector is released with `sdsfreeargv(argv, argc)`.", U, "sdsfreeargv appears nowhere in the snapshot"),
    ],
)
def test_a_quoted_call_names_its_callee(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)
