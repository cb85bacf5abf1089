"""COBOL extraction on hand-written fixed-format fixtures: every expectation below was worked out by reading
tests/fixtures/index/cobol/*.cbl|cpy line by line (line numbers are the files' own)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _index_helpers import FREE_FORMAT, as_models

from groundjudge.grounding.index.cobol import index_cobol
from groundjudge.grounding.index.cobol_lexical import extract
from groundjudge.grounding.index.cobol_source import segments
from groundjudge.grounding.index.cobol_treesitter import HEADER_LINES, facts, preprocess

FIX = Path(__file__).parent / "fixtures" / "index" / "cobol"


@pytest.fixture(scope="module")
def acctupd():
    text = (FIX / "ACCTUPD.cbl").read_text()
    return as_models(index_cobol("cbl/ACCTUPD.cbl", text, facts(text, None)))


@pytest.fixture(scope="module")
def custrec():
    text = (FIX / "CUSTREC.cpy").read_text()
    return as_models(index_cobol("cpy/CUSTREC.cpy", text, facts(text, "data")))


def by(symbols, kind):
    return {s.name: s for s in symbols if s.kind == kind}


def test_program_id_without_period_spans_the_file(acctupd):
    programs = by(acctupd.symbols, "program")
    assert list(programs) == ["ACCTUPD"]
    assert (programs["ACCTUPD"].start_line, programs["ACCTUPD"].end_line) == (1, 75)


def test_paragraph_and_section_ranges(acctupd):
    paras = {n: (s.start_line, s.end_line) for n, s in by(acctupd.symbols, "paragraph").items()}
    assert paras == {
        "0000-MAIN": (34, 42),
        "1000-INIT": (43, 46),
        "1000-INIT-EXIT": (47, 49),  # the comment line 49 belongs to the paragraph before the section
        "2100-READ-TRANS": (51, 69),
        "2200-SEND": (70, 73),
        "2900-DONE": (74, 75),
    }
    sections = {n: (s.start_line, s.end_line) for n, s in by(acctupd.symbols, "section").items()}
    assert sections == {"2000-PROCESS": (50, 75)}  # data-division sections are not procedure sections


def test_no_symbol_from_sequence_area_comments_or_debug_lines(acctupd):
    names = {s.name for s in acctupd.symbols}
    assert "D" not in names and "DEBUG" not in names
    # "ACCTUPD" sits in columns 73-80 of every line; it may only be the program name
    assert [s.kind for s in acctupd.symbols if s.name == "ACCTUPD"] == ["program"]
    assert all(r.target != "ACCTUPD" for r in acctupd.refs)


def test_data_items_levels_pics_usage_parents(acctupd):
    items = by(acctupd.symbols, "data_item")
    want = {
        "TRANS-RECORD": (14, 16, {"level": "01", "fd": "TRANS-FILE"}),
        "TR-ACCT-ID": (15, 15, {"level": "05", "pic": "9(11)", "parent": "TRANS-RECORD", "fd": "TRANS-FILE"}),
        "TR-AMOUNT": (
            16,
            16,
            {"level": "05", "pic": "S9(7)V99", "usage": "COMP-3", "parent": "TRANS-RECORD", "fd": "TRANS-FILE"},
        ),
        "REPORT-LINE": (18, 18, {"level": "01", "pic": "X(132)", "fd": "REPORT-FILE"}),
        "WS-FLAGS": (20, 23, {"level": "01"}),
        "WS-EOF": (21, 23, {"level": "05", "pic": "X", "value": "'N'", "parent": "WS-FLAGS"}),
        "WS-ACCTFILE": (24, 24, {"level": "01", "pic": "X(8)", "value": "'ACCTDAT '"}),
        "WS-NEXT-PGM": (25, 25, {"level": "01", "pic": "X(8)", "value": "'COMEN01C'"}),
        # a literal continued on line 27 (indicator '-') joins without the resuming quote
        "WS-MESSAGE": (26, 27, {"level": "01", "pic": "X(60)", "value": "'THIS MESSAGE IS LONGER THAN ONE LINE'"}),
        "WS-DATE": (28, 28, {"level": "01", "pic": "X(21)"}),
        "WS-TAB-ITEM": (29, 29, {"level": "01", "pic": "9(4)", "usage": "COMP"}),  # line 29 starts with a tab
        "WS-COUNT": (30, 30, {"level": "77", "pic": "S9(4)", "usage": "BINARY", "value": "0"}),
    }
    assert {n: (s.start_line, s.end_line, s.detail) for n, s in items.items()} == want


def test_condition_names_fd_select(acctupd):
    conds = {n: (s.start_line, s.detail) for n, s in by(acctupd.symbols, "condition").items()}
    assert conds == {
        "END-OF-FILE": (22, {"level": "88", "values": "'Y'", "parent": "WS-EOF"}),
        "NOT-END-OF-FILE": (23, {"level": "88", "values": "'N'", "parent": "WS-EOF"}),
    }
    fds = {n: (s.start_line, s.end_line) for n, s in by(acctupd.symbols, "fd").items()}
    assert fds == {"TRANS-FILE": (12, 16), "REPORT-FILE": (17, 18)}
    selects = {n: (s.start_line, s.end_line, s.detail) for n, s in by(acctupd.symbols, "select").items()}
    assert selects == {"TRANS-FILE": (7, 8, {"assign": "TRANSIN"}), "REPORT-FILE": (9, 9, {"assign": "RPTOUT"})}


def test_every_reference_with_context(acctupd):
    got = sorted((r.line, r.kind, r.target, r.context, tuple(sorted(r.detail.items()))) for r in acctupd.refs)
    assert got == sorted(
        [
            (31, "copy", "CUSTREC", None, ()),
            (32, "copy", "SQLCA", None, (("via", "EXEC SQL INCLUDE"),)),
            (35, "perform", "1000-INIT", "0000-MAIN", ()),
            (35, "perform", "1000-INIT-EXIT", "0000-MAIN", (("thru_from", "1000-INIT"),)),
            (36, "perform", "2000-PROCESS", "0000-MAIN", ()),  # PERFORM 3 TIMES on line 38 is inline: no ref
            (41, "xctl", "COMEN01C", "0000-MAIN", (("via", "WS-NEXT-PGM"),)),  # resolved through the VALUE
            (44, "file_open", "TRANS-FILE", "1000-INIT", (("mode", "INPUT"),)),
            (45, "file_open", "REPORT-FILE", "1000-INIT", (("mode", "OUTPUT"),)),
            (52, "file_read", "TRANS-FILE", "2100-READ-TRANS", ()),
            (56, "cics_read", "ACCTDAT", "2100-READ-TRANS", ()),
            (60, "cics_rewrite", "ACCTDAT", "2100-READ-TRANS", (("via", "WS-ACCTFILE"),)),
            (64, "sql_table", "ACCOUNTS", "2100-READ-TRANS", (("op", "SELECT"),)),
            (64, "sql_table", "CUSTOMERS", "2100-READ-TRANS", (("op", "SELECT"),)),
            (67, "call", "DATEUTIL", "2100-READ-TRANS", ()),
            (68, "file_write", "REPORT-LINE", "2100-READ-TRANS", (("file", "REPORT-FILE"), ("verb", "WRITE"))),
            (69, "goto", "2900-DONE", "2100-READ-TRANS", ()),
            (71, "cics_send_map", "ACCTMAP", "2200-SEND", (("mapset", "ACCTSET"),)),
            (73, "link", "AUDITLOG", "2200-SEND", ()),
        ]
    )


def test_copybook_items_carry_the_copybook(custrec):
    book = by(custrec.symbols, "copybook")["CUSTREC"]
    assert (book.start_line, book.end_line) == (1, 16)
    items = by(custrec.symbols, "data_item")
    assert sorted(items) == [
        "CUST-BALANCE",
        "CUST-FIRST-NAME",
        "CUST-HIST-AMT",
        "CUST-HISTORY",
        "CUST-ID",
        "CUST-LAST-NAME",
        "CUST-NAME",
        "CUST-RECORD",
        "CUST-STATUS",
    ]  # FILLER is not a name
    assert all(s.detail["copybook"] == "CUSTREC" for s in items.values())
    assert (items["CUST-RECORD"].start_line, items["CUST-RECORD"].end_line) == (4, 16)
    assert (items["CUST-NAME"].start_line, items["CUST-NAME"].end_line) == (6, 8)
    # PIC on line 9, USAGE COMPUTATIONAL-3 on line 10: one entry, usage normalised
    bal = items["CUST-BALANCE"]
    assert (bal.start_line, bal.end_line, bal.detail["pic"], bal.detail["usage"]) == (9, 10, "S9(9)V99", "COMP-3")
    assert items["CUST-HISTORY"].detail == {"level": "05", "occurs": "12", "parent": "CUST-RECORD", "copybook": "CUSTREC"}
    assert items["CUST-HIST-AMT"].detail["parent"] == "CUST-HISTORY"
    conds = by(custrec.symbols, "condition")
    assert conds["CUST-CLOSED"].detail == {"level": "88", "values": "'C' 'X'", "parent": "CUST-STATUS", "copybook": "CUSTREC"}


def test_tree_sitter_and_lexical_are_merged_with_their_source(acctupd, custrec):
    sources = {(s.kind, s.name): s.source for s in acctupd.symbols}
    # the grammar reads the first paragraphs and the data items, then loses itself after the EXEC blocks
    assert sources[("paragraph", "0000-MAIN")] == "both"
    assert sources[("data_item", "TR-AMOUNT")] == "both"
    assert sources[("paragraph", "2200-SEND")] == "lexical"
    # wrapped in a program header, the copybook parses cleanly: every item is found by both
    assert {s.source for s in custrec.symbols if s.kind in ("data_item", "condition")} == {"both"}
    keys = [(s.kind, s.name, s.start_line) for s in acctupd.symbols]
    assert len(keys) == len(set(keys))


def test_a_paragraph_only_the_grammar_found_is_added_and_ranges_recomputed():
    text = (FIX / "ACCTUPD.cbl").read_text()
    ts = {"symbols": [("paragraph", "EXTRA-PARA", 62, {})], "refs": [("perform", "EXTRA-PARA", 40)], "errors": True}
    merged = as_models(index_cobol("ACCTUPD.cbl", text, ts))
    paras = {s.name: (s.start_line, s.end_line, s.source) for s in merged.symbols if s.kind == "paragraph"}
    assert paras["EXTRA-PARA"] == (62, 69, "tree-sitter")
    assert paras["2100-READ-TRANS"] == (51, 61, "lexical")
    ref = next(r for r in merged.refs if r.target == "EXTRA-PARA")
    assert (ref.line, ref.context) == (40, "0000-MAIN")


def test_preprocess_keeps_line_numbers_and_removes_what_breaks_the_grammar():
    text = (FIX / "ACCTUPD.cbl").read_text()
    out = preprocess(text, None).split("\n")
    src = text.split("\n")
    assert len(out) == len(src) + 2 and out[-2] == " " * 8  # same lines, then the padding line
    assert out[2] == ""  # comment line 3
    assert out[36] == ""  # debug line 37
    assert "ACCTUPD" not in out[0]  # columns 73-80 cut
    assert out[31].strip() == ""  # EXEC SQL INCLUDE in the data division: blanked
    assert out[40].strip() == "CONTINUE"  # EXEC CICS XCTL in the procedure division
    assert out[72].split() == ["CONTINUE", "."]  # EXEC CICS LINK ... END-EXEC. keeps its period
    assert "END-EXEC" not in "\n".join(out)
    book = preprocess((FIX / "CUSTREC.cpy").read_text(), "data").split("\n")
    assert book[HEADER_LINES + 3].strip() == "01  CUST-RECORD."  # line 4 of the copybook, after the header


def test_segments_join_continuations_and_drop_comments():
    text = (FIX / "ACCTUPD.cbl").read_text()
    segs = {s.line: s for s in segments(text)}
    assert 3 not in segs and 37 not in segs and 27 not in segs
    assert segs[26].end == 27 and "LONGER THAN ONE LINE'." in segs[26].text
    assert segs[29].text.strip().startswith("01  WS-TAB-ITEM")


def test_program_id_on_the_next_line_and_end_program():
    text = (
        "000100 IDENTIFICATION DIVISION.\n"
        "000200 PROGRAM-ID.\n"
        "000300     'NEXTLN'.\n"
        "000400 PROCEDURE DIVISION.\n"
        "000500 MAIN-PARA.\n"
        "000600     STOP RUN.\n"
        "000700 END PROGRAM NEXTLN.\n"
        "000800*   TRAILING COMMENT\n"
    )
    got = as_models(extract("NEXTLN.cbl", text, copybook=False))
    assert [(s.kind, s.name, s.start_line, s.end_line) for s in got.symbols] == [
        ("program", "NEXTLN", 1, 7),
        ("paragraph", "MAIN-PARA", 5, 6),
    ]


def test_a_copybook_is_known_by_extension_or_by_having_no_division():
    from groundjudge.grounding.index.cobol import is_copybook

    body = (FIX / "CUSTREC.cpy").read_text()
    assert is_copybook("lib/CUSTREC.cpy", body) and is_copybook("lib/CUSTREC.CPY", "")
    assert is_copybook("lib/CUSTREC.cbl", body)  # a copybook stored as .cbl: no division header
    assert not is_copybook("cbl/ACCTUPD.cbl", (FIX / "ACCTUPD.cbl").read_text())
    got = as_models(index_cobol("lib/CUSTREC.cbl", body, facts(body, "data")))
    assert [(s.kind, s.name) for s in got.symbols[:2]] == [("copybook", "CUSTREC"), ("data_item", "CUST-RECORD")]


def test_a_program_name_moved_into_a_variable_is_a_possible_target():
    text = (
        "000100 IDENTIFICATION DIVISION.\n"
        "000200 PROGRAM-ID. MOVER.\n"
        "000300 DATA DIVISION.\n"
        "000400 WORKING-STORAGE SECTION.\n"
        "000500 01  WS-TO-PGM   PIC X(8).\n"
        "000600 01  WS-FILE     PIC X(8) VALUE 'COADM01C'.\n"
        "000700 PROCEDURE DIVISION.\n"
        "000800 MAIN-PARA.\n"
        "000900     MOVE 'COMEN01C' TO WS-TO-PGM\n"
        "001000     IF WS-TO-PGM = SPACES MOVE WS-FILE TO WS-TO-PGM END-IF\n"
        "001100     MOVE 'COMEN01C' TO WS-TO-PGM\n"
        "001200     EXEC CICS XCTL PROGRAM(WS-TO-PGM) END-EXEC\n"
        "001300     CALL WS-DYN USING WS-TO-PGM\n"
        "001400     EXEC CICS LOAD PROGRAM('LOADPGM') END-EXEC\n"
        "001500     EXEC CICS ENDBR FILE(WS-FILE) END-EXEC\n"
        "001600     GOBACK.\n"
    )
    refs = sorted(
        (r.kind, r.target, r.line, tuple(sorted(r.detail.items()))) for r in as_models(extract("MOVER.cbl", text, False)).refs
    )
    assert refs == [
        ("call", "WS-DYN", 13, (("operand", "data_name"),)),  # nothing known about WS-DYN: the name alone
        ("cics_file", "COADM01C", 15, (("command", "ENDBR"), ("via", "WS-FILE"))),  # a file named without I/O
        ("cics_program", "LOADPGM", 14, (("command", "LOAD"),)),  # a literal: no operand detail
        ("xctl", "COADM01C", 12, (("moved_at", "10"), ("via", "WS-TO-PGM"))),  # moved from WS-FILE's VALUE
        ("xctl", "COMEN01C", 12, (("moved_at", "9"), ("via", "WS-TO-PGM"))),  # first MOVE of each literal
        ("xctl", "WS-TO-PGM", 12, (("operand", "data_name"),)),
    ]


def test_free_format_source_is_read_whole_lines_after_its_directive():
    # lines 1-16 as written above: no sequence area, no indicator column, `*>` and `>>D` lines skipped
    got = as_models(index_cobol("src/FREEPGM.cob", FREE_FORMAT, facts(FREE_FORMAT, None)))
    spans = {(s.kind, s.name): (s.start_line, s.end_line) for s in got.symbols}
    assert spans[("program", "FREEPGM")] == (1, 16)
    assert spans[("paragraph", "MAIN-PARA")] == (10, 14) and spans[("paragraph", "WORK-PARA")] == (15, 16)
    item = by(got.symbols, "data_item")["WS-COUNTER"]
    assert (item.start_line, item.detail["pic"], item.detail["value"]) == (8, "9(4)", "0")
    assert sorted((r.kind, r.target, r.line, r.context) for r in got.refs) == [
        ("perform", "WORK-PARA", 11, "MAIN-PARA"),
        ("perform", "WORK-PARA", 12, "MAIN-PARA"),
    ]
    assert [s.line for s in segments(FREE_FORMAT)] == [2, 3, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]


def test_a_directive_inside_a_fixed_format_comment_switches_nothing():
    text = "000100* SEE >>SOURCE FORMAT FREE IN THE MANUAL\n" + "000200 IDENTIFICATION DIVISION.".ljust(72) + "TAGTAG\n"
    assert [(s.line, s.text) for s in segments(text)] == [(2, "IDENTIFICATION DIVISION.")]
