"""Discovery reads COBOL names from the index: statements its old line rules misread are read as COBOL."""

from __future__ import annotations

import pytest
from _rename_helpers import program

from groundjudge.grounding.snapshot import open_corpus
from groundjudge.rename.discover import Discovery, discover

SQLPGM = program(
    [
        " IDENTIFICATION DIVISION.",
        " PROGRAM-ID. SQLPGM1.",
        " ENVIRONMENT DIVISION.",
        " INPUT-OUTPUT SECTION.",
        " FILE-CONTROL.",
        "     SELECT CUSTFILE ASSIGN TO CUSTDD.",
        " DATA DIVISION.",
        " FILE SECTION.",
        " FD  CUSTFILE.",
        " 01  CUST-REC             PIC X(80).",
        " WORKING-STORAGE SECTION.",
        " 01  WS-BAL               PIC S9(7)V99 COMP-3.",
        " 01  WS-INVOKER           PIC X(8).",
        " 01  INVPGM               PIC X(8).",
        " 01  WS-CUST-FILE         PIC X(8) VALUE 'Custvsm '.",
        " 01  WS-TABLE.",
        "     05                   PIC X(20) VALUE 'UNNAMED'.",
        " PROCEDURE DIVISION.",
        " MAIN-PARA.",
        "     EXEC SQL",
        "         SELECT ACCT_BAL INTO :WS-BAL FROM ACCOUNTS",
        "     END-EXEC",
        "     EXEC CICS ASSIGN INVOKINGPROG(WS-INVOKER) END-EXEC",
        "     PERFORM SEND-MAP-PARA",
        "     EXEC CICS LOAD PROGRAM('LOADPGM1') END-EXEC",
        "     EXEC CICS LINK PROGRAM(INVPGM) END-EXEC",
        "     EXEC CICS ENDBR FILE(WS-CUST-FILE) END-EXEC",
        "     GOBACK.",
        " SEND-MAP-PARA",
        "     .",
        "     EXIT.",
    ],
    "SQLPGM1",
)


@pytest.fixture
def found(tmp_path) -> Discovery:
    (tmp_path / "cbl").mkdir()
    (tmp_path / "asm").mkdir()
    (tmp_path / "cbl/SQLPGM1.cbl").write_text(SQLPGM)
    (tmp_path / "asm/LOADPGM1.asm").write_text("LOADPGM1 CSECT\n")
    return discover(open_corpus(tmp_path))


def test_a_select_inside_exec_sql_is_not_a_file(found):
    assert found.found["CUSTFILE"] == ("CUSTFILE", "data_name")
    assert "ACCT_BAL" not in found.found and "ACCT_BAL" not in found.kept


def test_exec_cics_assign_is_not_an_assign_clause(found):
    assert found.found["CUSTDD"] == ("CUSTDD", "jcl_dd")
    assert "INVOKINGPROG" not in found.found and "INVOKINGPROG" not in found.kept


def test_a_paragraph_whose_period_is_on_the_next_line_is_a_paragraph(found):
    assert found.found["SEND-MAP-PARA"] == ("SEND-MAP-PARA", "paragraph")


def test_an_unnamed_data_entry_names_nothing(found):
    # ``05 PIC X(20)`` is an implicit FILLER: neither PIC nor FILLER is a name of the program
    assert not {"PIC", "FILLER"} & set(found.kept)


def test_program_and_file_operands_literal_or_through_a_value(found):
    # LOAD names a program as LINK does; a data name given as PROGRAM(...) is no program name
    assert found.found["LOADPGM1"] == ("LOADPGM1", "program")
    assert found.found["INVPGM"] == ("INVPGM", "data_name") and "INVPGM" not in found.kept
    # ENDBR names a file; through a data name, its VALUE spelled as written, without the padding
    assert found.found["CUSTVSM"] == ("Custvsm", "dataset")
