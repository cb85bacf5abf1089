"""Issue E round 15 (from held-out set 23's first run): CMS distributes its pricers' COBOL members as `.txt`
files (`Cobol/ircal201.txt`), and a name that says only "text" does not say which text: such a file is
COBOL when its first lines hold a program's IDENTIFICATION DIVISION or a copybook's level-01 entry, so
its names are indexed and checked like any program's; a `.txt` of prose or data stays text. And every
Python class inherits from `object` (Java's from `Object`), whether or not it names it."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import extract_refs
from groundjudge.grounding.index.registry import Kind, kind_of
from groundjudge.grounding.models import Verdict

S, U = Verdict.SUPPORTED, Verdict.UNSUPPORTED

CALC = """\
000100 IDENTIFICATION DIVISION.                                         00010000
000200 PROGRAM-ID.    IRCALX01.                                         00020000
000300 DATA DIVISION.                                                   00030000
000400 WORKING-STORAGE SECTION.                                         00040000
000500 01  PPS-NAT-LABOR-PCT          PIC 9(01)V9(05) VALUE .72700.     00050000
000600 PROCEDURE DIVISION.                                              00060000
000700 0000-MAINLINE.                                                   00070000
000800     PERFORM 0100-INITIAL-ROUTINE.                                00080000
000900     GOBACK.                                                      00090000
001000 0100-INITIAL-ROUTINE.                                            00100000
001100     MOVE .72700 TO PPS-NAT-LABOR-PCT.                            00110000
"""

COPYBOOK = """\
000100*  PROVIDER TABLE                                                 00010000
000200 01  PROVIDER-LIST.                                               00020000
000300     05  PROV-NUMBER            PIC X(06).                        00030000
"""

README = "FY2020 IRF PRICER\n\n1. Install the files.\n2. Run the driver.\nCBSA 01 20061001 is the first wage index row.\n"
WAGES = "   01 20061001 007446 000000 ALABAMA\n   01 20061001 007447 000000 ALASKA\n"


@pytest.mark.parametrize(
    ("path", "text", "kind"),
    [
        ("Cobol/ircalx01.txt", CALC, Kind.COBOL),
        ("Cobol/r2uprov.txt", COPYBOOK, Kind.COBOL),
        ("Cobol/readme.txt", README, Kind.TEXT),
        ("Cobol/ircbs200.txt", WAGES, Kind.TEXT),  # wage-index data: a level number, then no name
        ("docs/notes.md", CALC, Kind.TEXT),  # an extension that names a kind of document is never second-guessed
    ],
)
def test_a_txt_file_is_read_by_what_it_holds(path, text, kind):
    assert kind_of(path, text) is kind


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round15")
    return fixture_grounder(root, {"Cobol/ircalx01.txt": CALC, "Cobol/r2uprov.txt": COPYBOOK, "Cobol/readme.txt": README})


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("`0000-MAINLINE` performs `0100-INITIAL-ROUTINE` (`Cobol/ircalx01.txt:7-9`).", S, None),
        ("`PPS-NAT-LABOR-PCT` in `IRCALX01` is `PIC 9(01)V9(05)`.", S, None),
        ("`PROV-NUMBER` is `PIC X(06)` in `Cobol/r2uprov.txt`.", S, None),
        ("`0000-MAINLINE` performs `0200-EDIT-BILL`.", U, "0200-EDIT-BILL appears nowhere in the snapshot"),
    ],
)
def test_names_of_a_txt_member(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


JOBS_PY = """\
class CancelJob:
    \"\"\"Return this from a job to cancel it.\"\"\"


class ScheduleError(Exception):
    pass
"""


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`CancelJob` is a plain marker class that subclasses nothing but `object`.", S),
        ("`ScheduleError` subclasses `object` through `Exception`.", S),
        ("`CancelJob` subclasses `Exception`.", U),
    ],
)
def test_every_python_class_inherits_from_object(tmp_path, md, verdict):
    expect_verdict(fixture_grounder(tmp_path, {"jobs.py": JOBS_PY}), md, verdict)


def test_a_cobol_decimal_without_a_leading_zero_is_a_number():
    refs = extract_refs("`PPS-NAT-LABOR-PCT` is set to `.72700`.")
    assert [(r.kind, r.value, r.value_kind) for r in refs] == [
        ("identifier", "PPS-NAT-LABOR-PCT", None),
        ("value", ".72700", "number"),
    ]


def test_a_moved_decimal_is_found(grounder):
    expect_verdict(grounder, "`0100-INITIAL-ROUTINE` moves `.72700` to `PPS-NAT-LABOR-PCT` (`Cobol/ircalx01.txt:10-11`).", S)
