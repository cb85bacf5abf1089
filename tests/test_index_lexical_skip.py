"""The COBOL extractor's shortcuts (whole-file searches that skip lines, searches started at a keyword)
give exactly what the plain per-line rules they stand in for give."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from groundjudge.grounding.index.cobol_lexical import (
    _CARRY,
    _PIC,
    _REDEFINES,
    _STATEMENT_START,
    _TRIGGER,
    _VALUE,
    TRIGGER_WORDS,
    _clause,
    _statement_segments,
)
from groundjudge.grounding.index.cobol_source import CODE_END, CODE_START, CobolSource, lines_containing, search_word

LINE_PIECES = ["PERFORM", "perform", "GO", "COPY", "EXEC", "END-EXEC", "CALL", "X-", "-", "A", " ", ".", "é", "MOVE", "\t"]


def test_lines_containing_hand_worked():
    text = "A\nPERFORM X\nB\nCOPY Y. COPY Z\nGOGO\n"
    # line 1 holds PERFORM, line 3 COPY twice and line 4 GO twice (one entry each); lines 0, 2 and the
    # empty line 5 hold none of the words
    assert lines_containing(TRIGGER_WORDS, text) == [1, 3, 4]
    assert lines_containing(TRIGGER_WORDS, "") == []
    assert lines_containing(TRIGGER_WORDS, "GO") == [0]
    assert lines_containing(TRIGGER_WORDS, "\n\nEND-EXEC\nREWRITE") == [2, 3]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(st.sampled_from(LINE_PIECES), max_size=6).map("".join), max_size=12))
def test_lines_containing_is_a_per_line_search(lines):
    text = "\n".join(lines)
    expected = [k for k, line in enumerate(text.split("\n")) if any(w in line for w in TRIGGER_WORDS)]
    assert lines_containing(TRIGGER_WORDS, text) == expected


def _statement_segments_per_line(segs, procedural_flags):
    """The rule as first written, one look at every line: the specification the skipping version must meet."""
    out = []
    in_exec = False
    carry = 0
    for seg, procedural in zip(segs, procedural_flags):
        u = seg.text.upper()
        opens = "EXEC" in u.replace("END-EXEC", "")
        if in_exec or opens or "COPY" in u or (procedural and search_word(_TRIGGER, u, joiners="_-")):
            out.append(seg)
            carry = 0 if u.rstrip().endswith(".") else _CARRY
        elif procedural and carry:
            first = u.split(None, 1)[0]
            if first in _STATEMENT_START or first.startswith("END-"):
                carry = 0
            else:
                out.append(seg)
                carry = 0 if u.rstrip().endswith(".") else carry - 1
        if in_exec or opens:
            in_exec = "END-EXEC" not in u
    return out


STATEMENTS = [
    "PERFORM P1",
    "PERFORM P2.",
    "MOVE A TO B",
    "IF X",
    "END-IF",
    "EXEC CICS",
    "EXEC SQL",
    "END-EXEC",
    "END-EXEC.",
    "COPY BK.",
    "CALL 'X'",
    "GO TO P3",
    "A",
    "B.",
    "READ F",
    "SELECT X",
    "EXECUTE",
    "ALREADY",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(STATEMENTS), max_size=30), st.sets(st.integers(0, 40), max_size=6))
def test_skipping_statement_lines_matches_the_per_line_rule(statements, data_lines):
    # data_lines stand for lines outside a procedure division (only COPY and EXEC count there)
    source = CobolSource("\n".join("           " + s for s in statements))
    procedural = lambda line: line - 1 not in data_lines  # noqa: E731
    flags = [procedural(seg.line) for seg in source.segments]
    assert _statement_segments(source, procedural) == _statement_segments_per_line(source.segments, flags)


def test_statement_lines_hand_worked():
    text = "\n".join("           " + s for s in ["MOVE A TO B", "PERFORM P1", "  THRU P2", "MOVE C TO D", "ADD 1 TO E"])
    # PERFORM opens a statement that runs on to the THRU line; the next MOVE starts a new one
    assert [s.line for s in _statement_segments(CobolSource(text), lambda line: True)] == [2, 3]


ENTRY_PIECES = ["01", " ", "WS-A", "PIC", "PICTURE", "X(5)", "VALUE", "VALUES", "REDEFINES", "WS-B", ".", "IS", "-", "9"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(ENTRY_PIECES), max_size=12).map("".join))
def test_clause_search_from_its_keyword_is_a_plain_search(masked):
    for pattern, keyword in ((_PIC, "PIC"), (_VALUE, "VALUE"), (_REDEFINES, "REDEFINES")):
        for upper in (masked.upper(), None):
            got, want = _clause(pattern, keyword, masked, upper), pattern.search(masked)
            assert (got and got.span()) == (want and want.span())


def _cards_per_line(text):
    """Card images as the general loop makes them, for text without tabs or floating comments."""
    return [(raw[6], raw[CODE_START:CODE_END]) if len(raw) > 6 else (" ", "") for raw in text.splitlines()]


def test_cards_hand_worked():
    text = "000100 MOVE A TO B.\n12345\n000300*COMMENT\n" + "000400" + " " * 66 + "SEQ00001"
    assert CobolSource(text).cards == [(" ", "MOVE A TO B."), (" ", ""), ("*", "COMMENT"), (" ", " " * 65)]
    assert CobolSource(text).cards == _cards_per_line(text)
    # a floating comment is cut on the general path
    assert CobolSource("000100 MOVE A TO B. *> NOTE").cards == [(" ", "MOVE A TO B. ")]


def test_upper_code_holds_one_line_per_segment():
    source = CobolSource("000100 move a.\n000200*x\n000300 perform p1\n")
    assert source.code_upper == "MOVE A.\nPERFORM P1"
    assert re.findall(r"[^\n]+", source.code_upper) == [s.text.upper() for s in source.segments]
