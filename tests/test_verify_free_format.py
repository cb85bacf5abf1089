"""Verdicts on a free-format COBOL program (a GnuCOBOL directive on line 1; line numbers as written below)."""

from __future__ import annotations

import pytest
from _grounding_helpers import Grounder

from groundjudge.grounding.models import Verdict

# Statements indented eight, as much free-format code is: such a line starts like a fixed-format card
# (six blanks) but runs on past column 72.
PROGRAM = """>>SOURCE FORMAT FREE
IDENTIFICATION DIVISION.
PROGRAM-ID. FREEPAY.
DATA DIVISION.
WORKING-STORAGE SECTION.
01 WS-TOTAL PIC 9(7)V99 VALUE 0.
PROCEDURE DIVISION.
MAIN-PARA.
        *> totals first, then the report line
        PERFORM ADD-TOTALS
        DISPLAY "PAYROLL TOTAL FOR THE PERIOD, ALL DEPARTMENTS TOGETHER:" WS-TOTAL UPON CONSOLE
        STOP RUN.
ADD-TOTALS.
        ADD 1 TO WS-TOTAL.
"""


@pytest.fixture(scope="module")
def g(tmp_path_factory) -> Grounder:
    root = tmp_path_factory.mktemp("free") / "payroll"
    (root / "src").mkdir(parents=True)
    (root / "src" / "FREEPAY.cob").write_text(PROGRAM)
    return Grounder(root)


def test_a_quoted_statement_past_column_72_is_found_on_its_line(g):
    c = g.one(
        'In `src/FREEPAY.cob`, `MAIN-PARA` ends with `DISPLAY "PAYROLL TOTAL FOR THE PERIOD, ALL DEPARTMENTS TOGETHER:" WS-TOTAL UPON CONSOLE`.'
    )
    assert c.verdict == Verdict.SUPPORTED, c.reason
    assert [(e.path, e.start_line) for e in c.evidence if e.start_line == 11] == [("src/FREEPAY.cob", 11)]


def test_paragraph_and_perform_in_free_format(g):
    c = g.one("In `src/FREEPAY.cob`, `MAIN-PARA` performs `ADD-TOTALS`.")
    assert c.verdict == Verdict.SUPPORTED, c.reason
    assert any((e.path, e.start_line) == ("src/FREEPAY.cob", 10) for e in c.evidence)
