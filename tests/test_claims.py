"""Claim extraction: units, references, relations and context, each checked against a hand-read answer."""

from __future__ import annotations

from groundjudge.grounding.claims import ClaimExtractor, MarkdownClaimExtractor, extract_refs, normalize_pic, relation_cues


def refs(text: str, context: str | None = None) -> list[tuple]:
    return [(r.kind, r.value, r.start_line, r.end_line, r.value_kind, r.strict) for r in extract_refs(text, context)]


def claims(md: str):
    return MarkdownClaimExtractor().extract(md)


ANSWER = """# Account update

## BKUPD02C

BKUPD02C is the online update program. It copies `BKACCT` and performs `2000-VALIDATE`, e.g. before writing.

- The paragraph `2000-VALIDATE` is at cbl/BKUPD02C.cbl:120-135.
- `ACCT-BAL` is declared as `PIC S9(9)V99` in cpy/BKACCT.cpy lines 5-6.
  It is packed.

| Program | Calls |
|---|---|
| BKUPD02C | `9000-ABEND` |

This part is quoted:

```cobol
           PERFORM 2000-VALIDATE
```

Setext heading
--------------

Unrelated closing sentence.
"""


def test_units_sentences_items_rows_and_code():
    cs = claims(ANSWER)
    assert [(c.id, c.answer_line, c.text) for c in cs] == [
        ("c1", 5, "BKUPD02C is the online update program."),
        ("c2", 5, "It copies `BKACCT` and performs `2000-VALIDATE`, e.g. before writing."),
        ("c3", 7, "The paragraph `2000-VALIDATE` is at cbl/BKUPD02C.cbl:120-135."),
        ("c4", 8, "`ACCT-BAL` is declared as `PIC S9(9)V99` in cpy/BKACCT.cpy lines 5-6. It is packed."),
        ("c5", 13, "BKUPD02C | Calls: `9000-ABEND`"),  # a row, its cells prefixed by their column header
        ("c6", 15, "This part is quoted:"),
        ("c7", 24, "Unrelated closing sentence."),
    ]
    # Headings are not claims; the code block goes with the unit that introduces it.
    assert cs[5].code == "           PERFORM 2000-VALIDATE"
    assert all(c.code is None for c in cs if c.id != "c6")


def test_relations_from_cue_words_and_table_header():
    cs = claims(ANSWER)
    assert cs[1].relations == ["copies", "calls", "writes"]  # "before writing" is a cue too
    assert cs[3].relations == ["defines"]
    assert cs[4].relations == ["calls"]  # from the "Calls" column header
    assert cs[0].relations == []


def test_context_carries_over_from_heading_and_preceding_unit():
    cs = claims(ANSWER)
    assert cs[0].context == "BKUPD02C"  # from the heading
    assert cs[1].context == "BKUPD02C"  # "It copies ..." names no program itself
    no_heading = claims("Some intro.\n\nIts main loop performs `2000-PROCESS-BATCH`.\n")
    assert [c.context for c in no_heading] == [None, None]  # nothing named: the whole snapshot
    carried = claims("BKACT01C reads the file.\n\nIts main loop performs `2000-PROCESS-BATCH`.\n")
    assert carried[1].context == "BKACT01C"


def test_paths_with_lines_and_ranges():
    assert refs("see cbl/BKUPD02C.cbl:120-135 now") == [("path", "cbl/BKUPD02C.cbl", 120, 135, None, True)]
    assert refs("see `cbl/BKUPD02C.cbl:42`") == [("path", "cbl/BKUPD02C.cbl", 42, 42, None, True)]
    assert refs("in BKACCT.cpy lines 10-40") == [("path", "BKACCT.cpy", 10, 40, None, True)]
    assert refs("at line 12 of ./cpy/BKACCT.cpy") == [("path", "cpy/BKACCT.cpy", 12, 12, None, True)]
    assert refs("[the copybook](cpy/BKACCT.cpy#L3-L9)") == [("path", "cpy/BKACCT.cpy", 3, 9, None, True)]
    assert refs("lines 10 to 40 of a.py") == [("path", "a.py", 10, 40, None, True)]
    # in backticks a directory may hold spaces and '#'; a sentence in backticks is no path
    spaced = "Course #2 - Learning COBOL/Labs/cbl/CBL0006.cobol"
    assert refs(f"see `{spaced}:14-15`") == [("path", spaced, 14, 15, None, True)]
    assert [r[0] for r in refs("`a sentence with a / slash in it`")] != ["path"]


def test_malformed_line_refs_are_kept_as_written():
    assert refs("cbl/X1.cbl:90-10") == [("path", "cbl/X1.cbl", 90, 10, None, True)]
    assert refs("line 0 of cbl/X1.cbl") == [("path", "cbl/X1.cbl", 0, 0, None, True)]


def test_paths_that_leave_the_root_stay_as_written():
    assert refs("read ../../etc/passwd and /etc/passwd") == [
        ("path", "../../etc/passwd", None, None, None, True),
        ("path", "/etc/passwd", None, None, None, True),
    ]
    # and they never become the context of later units
    cs = claims("See ../../etc/passwd here.\n\nIts loop performs `X-Y`.\n")
    assert cs[1].context is None


def test_line_cite_without_path_goes_to_program_then_context_then_identifier():
    assert refs("BKACT01C defines it at line 40") == [
        ("identifier", "BKACT01C", None, None, None, True),
        ("path", "BKACT01C", 40, 40, None, True),
    ]
    assert refs("defined at lines 5-9", context="cpy/BKACCT.cpy") == [("path", "cpy/BKACCT.cpy", 5, 9, None, True)]
    assert refs("`1000-INIT` starts at line 88") == [("identifier", "1000-INIT", 88, 88, None, True)]


def test_identifier_shapes_and_reserved_words():
    text = (
        "In WORKING-STORAGE the PERFORM of 1000-READ-NEXT uses WS-EOF; BKACT01C, ACCTFILE, CICS and VSAM, "
        "LedgerEntry, post_entry, JavaScript, The Account, END-PERFORM and COMP-3 items."
    )
    assert refs(text) == [
        ("identifier", "1000-READ-NEXT", None, None, None, True),
        ("identifier", "WS-EOF", None, None, None, True),
        ("identifier", "BKACT01C", None, None, None, True),
        ("identifier", "ACCTFILE", None, None, None, False),  # all caps without a digit: may be a word
        ("identifier", "LedgerEntry", None, None, None, True),
        ("identifier", "post_entry", None, None, None, True),
    ]


def test_backticked_names_are_strict_and_dotted_names_and_calls():
    # A backticked COBOL word is meant literally as well (`CURRENCY` in a Python answer names a constant).
    assert refs("`BKACCT` and `Ledger.post()` and `__init__` and `PERFORM`") == [
        ("identifier", "BKACCT", None, None, None, True),
        ("identifier", "Ledger.post", None, None, None, True),
        ("identifier", "__init__", None, None, None, True),
        ("identifier", "PERFORM", None, None, None, True),
    ]
    assert refs("calls validate() then ledger.Ledger.post") == [
        ("identifier", "validate", None, None, None, True),
        ("identifier", "ledger.Ledger.post", None, None, None, True),
    ]


def test_values_pic_usage_numbers_strings():
    assert refs("ACCT-BAL is PIC S9(9)V99 COMP-3, limit 5000, status 'Y' and \"NOT FOUND\".") == [
        ("identifier", "ACCT-BAL", None, None, None, True),
        ("value", "S9(9)V99", None, None, "pic", True),
        ("value", "COMP-3", None, None, "usage", True),
        ("value", "5000", None, None, "number", False),
        ("value", "Y", None, None, "string", True),
        ("value", "NOT FOUND", None, None, "string", True),
    ]
    assert refs("a `PIC X(10).` field (PIC 9(5)).") == [
        ("value", "X(10)", None, None, "pic", True),
        ("value", "9(5)", None, None, "pic", True),
    ]
    # level numbers are not values
    assert refs("an 88-level and level 01 item") == []


def test_code_span_fragments_yield_names_and_literals():
    # a quoted COBOL statement is itself a value that must be in the code as written
    assert refs("`EXEC CICS XCTL PROGRAM('BKMNU01C') COMMAREA(WS-COMMAREA)`") == [
        ("value", "EXEC CICS XCTL PROGRAM('BKMNU01C') COMMAREA(WS-COMMAREA)", None, None, "code", True),
        ("value", "BKMNU01C", None, None, "string", True),
        ("identifier", "BKMNU01C", None, None, None, True),  # a quoted literal shaped like a program
        ("identifier", "WS-COMMAREA", None, None, None, True),
    ]


def test_relation_cues_positions_and_passive():
    cues = relation_cues("`2000-X` is performed by `1000-MAIN`, which also reads ACCTFILE and XCTLs to BKMNU01C")
    assert [(c.relation, c.passive) for c in cues] == [("calls", True), ("reads", False), ("transfers", False)]
    # cue words inside names or hyphenated words are not cues
    assert relation_cues("`1000-READ-NEXT` is a well-written paragraph") == ()
    assert relation_cues("1000-READ-NEXT is at line 9") == ()
    # a noun after a determiner, a negated verb and an alias are no relations; the statement's name and an
    # adverb before the verb keep theirs
    assert relation_cues("`send` times the call with `preferred_clock`") == ()
    assert relation_cues("`SRCHBIN` writes no print file, and `P` does not call `Q`") == ()
    assert relation_cues("urllib3's `HTTPError`, imported as `BaseHTTPError`") == ()
    assert [c.relation for c in relation_cues("The COPY of `BKDATEWS` in BKACT01C")] == ["copies"]
    assert [c.relation for c in relation_cues("`A` first performs `B`")] == ["calls"]


def test_normalize_pic():
    assert normalize_pic("s9(7)v99.") == "S9(7)V99"
    assert normalize_pic("X(10))") == "X(10)"


def test_table_rows_with_a_lines_column():
    md = "| Paragraph | Lines | Purpose |\n|---|---:|---|\n| `2000-READ` | 96-102 | reads the next record |\n"
    cs = claims(md)
    assert cs[0].text == "`2000-READ` | lines 96-102 | Purpose: reads the next record"
    assert [(r.kind, r.value, r.start_line, r.end_line) for r in cs[0].refs] == [("identifier", "2000-READ", 96, 102)]
    assert cs[0].relations == ["reads"]


def test_no_units_and_determinism():
    assert claims("# Only a heading\n\n```\ncode only\n```\n") == []
    assert claims(ANSWER) == claims(ANSWER)
    assert isinstance(MarkdownClaimExtractor(), ClaimExtractor)
    assert MarkdownClaimExtractor().name == "markdown-v1"


def test_crlf_and_blockquote_and_nested_list():
    md = "> Quoted claim about `WS-A`.\r\n\r\n- outer `WS-B`\r\n  - inner `WS-C`\r\n"
    cs = claims(md)
    assert [(c.text, c.answer_line) for c in cs] == [
        ("Quoted claim about `WS-A`.", 1),
        ("outer `WS-B`", 3),
        ("inner `WS-C`", 4),
    ]


def test_code_block_inside_a_list_item_goes_with_that_item():
    md = "- `2130-AUDIT-CHANGES` does this:\n\n    ```cobol\n    PERFORM 4000-WRITE-AUDIT\n    ```\n- next item `WS-A`\n"
    cs = claims(md)
    assert [(c.text, c.code) for c in cs] == [
        ("`2130-AUDIT-CHANGES` does this:", "    PERFORM 4000-WRITE-AUDIT"),
        ("next item `WS-A`", None),
    ]
