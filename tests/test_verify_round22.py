"""Issue E round 22 (from held-out set 32's first run): a GnuCOBOL user-defined function (`FUNCTION-ID.` to
`END FUNCTION`) is indexed as a program with its own lines, as a nested program is; lines cited in one of a
file's programs are that program's, so another program the claim names there must be mentioned in them,
unless the claim names the program the lines are in too."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.index.model import SymbolKind
from groundjudge.grounding.models import Verdict

S, P, U = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED

LIB = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. MAINPROG.
       PROCEDURE DIVISION.
       MAIN-PARA.
           DISPLAY 'HELLO'
           STOP RUN.
       END PROGRAM MAINPROG.
       IDENTIFICATION DIVISION.
       FUNCTION-ID. DBOPEN.
       DATA DIVISION.
       LINKAGE SECTION.
       01 DB-NAME PIC X(8).
       01 DB-RESULT PIC S9(4) COMP.
       PROCEDURE DIVISION USING DB-NAME RETURNING DB-RESULT.
       DBOPEN-MAIN.
           MOVE -2 TO DB-RESULT
           GOBACK.
       END FUNCTION DBOPEN.
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round22"), {"lib.cob": LIB})


def test_a_user_defined_function_is_a_program_with_its_own_lines(grounder):
    programs = [(s.name, s.start_line, s.end_line) for s in grounder.index.definitions(kind=SymbolKind.PROGRAM)]
    assert programs == [("MAINPROG", 1, 7), ("DBOPEN", 9, 18)]


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`DBOPEN` is a user-defined function (`lib.cob:9-18`).", S),
        ("`DBCLOSE` is a user-defined function (`lib.cob:9-18`).", U),
        ("`DBOPEN` moves `-2` to `DB-RESULT` before its `GOBACK` (`lib.cob:15-17`).", S),
        # the lines are the main program's, which never names the function's item
        ("`DBOPEN` moves `-2` to `DB-RESULT` before its `GOBACK` (`lib.cob:4-6`).", P),
        # the main program's lines, which the claim names too: the function is said beside it
        ("`DBOPEN` is a function of its own, and `MAINPROG` only displays a greeting (`lib.cob:4-6`).", S),
    ],
)
def test_lines_cited_in_one_of_a_files_programs(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)
