"""Verdicts an audit of the grounding stage found wrong, each hand-checked against the sample corpora
(line numbers are physical lines; see corpora/*/SYMBOLS.md). Every case here once got a verdict a
careful reader would not give: a relation stated but not checked, a name scoped to the wrong program,
a context carried from a word that names no program."""

from __future__ import annotations

import pytest
from _grounding_helpers import Grounder

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY


@pytest.fixture(scope="module")
def g() -> Grounder:
    return Grounder("cobol-bank")


@pytest.fixture(scope="module")
def py() -> Grounder:
    return Grounder("pyledger")


# --- reads vs writes: the direction of the data is checked, not only that the file is used -----------


def test_reading_a_file_the_program_only_writes_is_contradicted(g):
    # BKACT01C opens REJECT-FILE OUTPUT (line 73) and only WRITEs REJECT-RECORD to it (line 158).
    c = g.one("BKACT01C reads `REJECT-FILE` to re-process earlier rejects.")
    assert c.verdict == U
    assert "BKACT01C only writes REJECT-FILE (file_write at cbl/BKACT01C.cbl:158), it never reads it" in c.reason
    c = g.one("BKACT01C writes `REJECT-FILE` in `8000-WRITE-REJECT`.")
    assert c.verdict == S
    assert "BKACT01C writes REJECT-FILE (file_write at cbl/BKACT01C.cbl:158)" in c.reason
    assert any(e.start_line == 158 and "WRITE REJECT-RECORD" in e.snippet for e in c.evidence)


def test_reads_evidence_is_the_read_not_the_open(g):
    # ACCTUPD is the DD of ACCTUPD-FILE: OPEN INPUT at line 71, READ at line 81.
    c = g.one("BKACT01C reads requests from ACCTUPD.")
    assert c.verdict == S
    assert "BKACT01C reads ACCTUPD (file_read at cbl/BKACT01C.cbl:81)" in c.reason


def test_cics_dataset_written_but_never_read(g):
    # BKAUD04C only does EXEC CICS WRITE DATASET('AUDITLG') (line 39).
    c = g.one("# BKAUD04C\n\nIt reads AUDITLG before writing to avoid duplicates.")
    assert c.verdict == P  # the read is contradicted, the write ("writing", same file) holds
    assert "BKAUD04C only writes AUDITLG (cics_write at cbl/BKAUD04C.cbl:39), it never reads it" in c.reason
    assert "BKAUD04C writes AUDITLG (cics_write at cbl/BKAUD04C.cbl:39)" in c.reason


def test_table_row_access_column_is_checked_against_the_row_file(g):
    table = (
        "# BKACT01C\n\n| File | SELECT name | Access |\n|---|---|---|\n"
        "| ACCTUPD | `ACCTUPD-FILE` | read |\n| ACCTREJ | `REJECT-FILE` | read |\n"
    )
    first, second = g.claims(table)
    assert first.verdict == S and "BKACT01C reads ACCTUPD-FILE (file_read at cbl/BKACT01C.cbl:81)" in first.reason
    assert second.verdict == U and "BKACT01C only writes REJECT-FILE" in second.reason


def test_assign_with_an_s_prefix_names_the_dd(g):
    # SELECT REPORT-FILE ASSIGN TO S-RPTOUT (line 13); WRITE REPORT-LINE at line 126.
    c = g.one("BKRPT03C writes the report to RPTOUT.")
    assert c.verdict == S
    assert "BKRPT03C writes RPTOUT (file_write at cbl/BKRPT03C.cbl:126)" in c.reason


# --- control transfer: XCTL, LINK and CALL are different things ---------------------------------------


def test_xctl_claimed_where_the_code_calls(g):
    # BKTRN02C reaches BKDTE01S by CALL 'BKDTE01S' (line 134), never by XCTL.
    c = g.one("# BKTRN02C\n\nIt XCTLs to BKDTE01S for date validation.")
    assert c.verdict == U
    assert "uses CALL to reach BKDTE01S (cbl/BKTRN02C.cbl:134), not XCTL" in c.reason


def test_inline_statement_states_its_relation(g):
    # BKMNU01C: EXEC CICS XCTL PROGRAM('BKUPD02C') at line 100; it never LINKs.
    c = g.one("# BKMNU01C\n\nIt then does an `EXEC CICS XCTL PROGRAM('BKUPD02C')` in `1200-TRANSFER-TO-ACCOUNT`.")
    assert c.verdict == S
    assert "BKMNU01C transfers control to BKUPD02C (xctl at cbl/BKMNU01C.cbl:100)" in c.reason
    c = g.one("# BKMNU01C\n\nIt does an `EXEC CICS LINK PROGRAM('BKUPD02C')` to show the account.")
    assert c.verdict == U
    assert "`EXEC CICS LINK PROGRAM('BKUPD02C')` is not in cbl/BKMNU01C.cbl" in c.reason
    assert "BKMNU01C uses XCTL to reach BKUPD02C (cbl/BKMNU01C.cbl:100), not LINK" in c.reason


def test_inline_statement_found_across_lines_and_without_sequence_numbers(g):
    # cbl/BKRPT03C.cbl:21 "002100     EXEC SQL INCLUDE SQLCA END-EXEC."; SQLCA is a reserved word.
    c = g.one("BKRPT03C includes SQLCA with `EXEC SQL INCLUDE SQLCA END-EXEC`.")
    assert c.verdict == S
    assert "`EXEC SQL INCLUDE SQLCA END-EXEC` is in cbl/BKRPT03C.cbl (line 21)" in c.reason
    # lines 200-201: EXEC CICS LINK PROGRAM('BKAUD04C') / COMMAREA(AUDIT-RECORD), one statement on two lines
    c = g.one("BKUPD02C does `EXEC CICS LINK PROGRAM('BKAUD04C') COMMAREA(AUDIT-RECORD)`.")
    assert c.verdict == S  # a quoted statement that is not in the file would be a mismatch
    assert any(e.start_line == 200 and "LINK PROGRAM('BKAUD04C')" in e.snippet for e in c.evidence)


# --- context: what "it" and "here" mean ---------------------------------------------------------------


def test_here_inside_a_program_section_is_the_program_not_the_copybook_just_cited(g):
    # Under a BKSGN00C heading, after a sentence citing cpy/BKCOMM.cpy, "here" is still BKSGN00C,
    # whose WS-MESSAGE is PIC X(79) (line 17); BKMNU01C's is X(78).
    md = (
        "### Sign-on (BKSGN00C)\n\n"
        "The commarea is `BK-COMMAREA`, from the copybook `BKCOMM` (cpy/BKCOMM.cpy lines 5-19).\n"
        "`WS-MESSAGE` is `PIC X(78)` here.\n"
        "It also writes a sign-on record to AUDITLG.\n"
    )
    commarea, message, audit = g.claims(md)
    assert commarea.verdict == S
    assert (message.context, message.topic) == ("cpy/BKCOMM.cpy", "BKSGN00C")
    assert message.verdict == P
    assert "WS-MESSAGE has PIC X(79) at cbl/BKSGN00C.cbl:17, not PIC X(78)" in message.reason
    # a copybook does nothing: the actor is the heading's program
    assert audit.verdict == U
    assert "BKSGN00C does not write AUDITLG" in audit.reason


def test_transaction_ids_and_names_in_quoted_code_do_not_become_the_context():
    units = MarkdownClaimExtractor().extract(
        "BKSGN00C is started by transaction BK00.\n"
        "It scans `USR-ALLOWED-TRAN` for BK01.\n"
        "It then does `EXEC CICS XCTL PROGRAM('BKMNU01C')`.\n"
        "It receives map `MNUMAP0`.\n"
        "It abends.\n"
    )
    assert [c.context for c in units] == [None, "BKSGN00C", "BKSGN00C", "BKSGN00C", "BKSGN00C"]


def test_which_and_a_list_of_verbs_keep_the_right_subject(g):
    # BKPOST step POSTTRN runs BKTRN02C (jcl/proc/BKPOST.jcl:14); BKTRN02C READs DAILY-TRAN-FILE
    # (DD DALYTRAN, line 97) and WRITEs HIST-RECORD to TRAN-HIST-FILE (DD TRANHIST, line 189).
    c = g.one("Step POSTTRN then runs BKTRN02C, which reads DALYTRAN, updates ACCTDAT and appends to TRANHIST.")
    assert c.verdict == S
    assert "BKTRN02C reads DALYTRAN (file_read at cbl/BKTRN02C.cbl:97)" in c.reason
    assert "BKTRN02C writes TRANHIST (file_write at cbl/BKTRN02C.cbl:189)" in c.reason


def test_programs_named_before_with_xctl(g):
    # BKUPD02C XCTLs to BKSGN00C (line 35) and to BKMNU01C (line 208); BKAUD04C is LINKed (line 200).
    c = g.one("# BKUPD02C\n\nIt goes back to BKSGN00C or BKMNU01C, both with XCTL.")
    assert c.verdict == S
    assert "BKUPD02C transfers control to BKSGN00C (xctl at cbl/BKUPD02C.cbl:35)" in c.reason
    assert "BKUPD02C transfers control to BKMNU01C (xctl at cbl/BKUPD02C.cbl:208)" in c.reason
    c = g.one("# BKUPD02C\n\nIt reaches BKMNU01C and BKAUD04C, both with XCTL.")
    assert c.verdict == P
    assert "BKUPD02C uses LINK to reach BKAUD04C (cbl/BKUPD02C.cbl:200), not XCTL" in c.reason


# --- values and places ----------------------------------------------------------------------------------


def test_pic_belongs_to_the_item_named_just_before_it(g):
    # cpy/BKAUDR.cpy: AUD-KEY (line 6) is a group; AUD-TIMESTAMP (line 7) is PIC X(21).
    c = g.one("The audit key `AUD-KEY` is made of `AUD-TIMESTAMP` (`PIC X(26)`) and `AUD-TERMID`.")
    assert c.verdict == P
    assert c.reason.startswith("AUD-TIMESTAMP has PIC X(21) at cpy/BKAUDR.cpy:7, not PIC X(26)")
    c = g.one("The audit key `AUD-KEY` is made of `AUD-TIMESTAMP` (`PIC X(21)`) and `AUD-TERMID` (`PIC X(4)`).")
    assert c.verdict == S


def test_made_up_directory_in_front_of_a_real_file_is_partial(g):
    c = g.one("The batch side is driven by BKACT01C, which lives in `src/main/cobol/BKACT01C.cbl`.")
    assert c.verdict == P
    assert "no file src/main/cobol/BKACT01C.cbl in the snapshot; BKACT01C.cbl is cbl/BKACT01C.cbl" in c.reason
    # a cited range is then checked on the real file: 0000-MAIN is at lines 60-68
    c = g.one("`0000-MAIN` is at `src/BKACT01C.cbl:60-68`.")
    assert c.verdict == P
    assert "cbl/BKACT01C.cbl:60-68 holds paragraph 0000-MAIN" in c.reason
    # the corpus's own directory in front is no error
    assert g.one("See `cobol-bank/cbl/BKACT01C.cbl`.").verdict == S


def test_numbers_with_thousands_separators(g):
    # cbl/BKUPD02C.cbl:22 VALUE 10000.00; line 105 'LIMITS ABOVE 10,000.00 NEED AN ADMINISTRATOR'
    c = g.one("# BKUPD02C\n\nThe regular-user limit is held in `WS-MAX-REGULAR-LIMIT` (10,000.00).")
    assert c.verdict == S
    assert "10000.00 appears at cbl/BKUPD02C.cbl:22" in c.reason


def test_two_sentences_when_the_second_starts_with_code(g):
    claims = g.claims("The limit is in `WS-MAX-REGULAR-LIMIT`. `2200-CLOSE-ACCOUNT` deletes the record.")
    assert [c.text for c in claims] == ["The limit is in `WS-MAX-REGULAR-LIMIT`.", "`2200-CLOSE-ACCOUNT` deletes the record."]


def test_quoted_block_evidence_starts_where_the_block_would(g):
    # The first quoted line is wrong ('AUDITLOG'); the evidence must show the real line 39 ('AUDITLG').
    c = g.one(
        "BKAUD04C writes the record like this:\n\n```cobol\n           EXEC CICS WRITE DATASET('AUDITLOG')\n"
        "                     FROM(AUDIT-RECORD)\n```\n"
    )
    assert c.verdict == P
    code = next(e for e in c.evidence if e.start_line == 39)
    assert "WRITE DATASET('AUDITLG')" in code.snippet.splitlines()[0]


# --- Python ------------------------------------------------------------------------------------------------


def test_backticked_reserved_cobol_word_is_a_python_name(py):
    # pyledger/money.py:5 CURRENCY = "EUR"
    c = py.one('`CURRENCY` is "USD".')
    assert c.verdict == U  # a wrong constant contradicts the claim (it was PARTIALLY_SUPPORTED before the has-value check)
    assert 'CURRENCY is "EUR" (pyledger/money.py:5), not "USD"' in c.reason
    assert c.evidence[0].start_line == 5


def test_imported_by_each_named_module(py):
    # report.py:9 imports format_amount from pyledger.money; storage.py does not import it.
    c = py.one("`format_amount` is imported by `pyledger/report.py` and by `pyledger/storage.py`.")
    assert c.verdict == P
    assert "pyledger/storage.py does not import format_amount" in c.reason
    assert "pyledger/report.py imports format_amount (pyledger/report.py:9)" in c.reason


def test_dataclass_field_resolves(py):
    # pyledger/ledger.py:19 "    amount: int  # cents ..." inside class Posting (lines 17-19)
    c = py.one("Every posting has an `Posting.amount` in cents.")
    assert c.verdict == S
    assert "Posting.amount appears at pyledger/ledger.py:19" in c.reason


def test_and_calls_keeps_the_sentence_subject(py):
    # __main__.py: main (56-63) calls run (line 59); build_parser (16-33) does not.
    c = py.one("`main()` builds the parser with `build_parser()` and calls `run()`.")
    assert c.verdict == S
    assert "main calls/performs run (call at pyledger/__main__.py:59)" in c.reason


def test_made_up_prefix_on_a_python_path(py):
    c = py.one("`MAX_AMOUNT_CENTS` is in src/pyledger/money.py.")
    assert c.verdict == P
    assert "no file src/pyledger/money.py in the snapshot; money.py is pyledger/money.py" in c.reason


# --- plain words ---------------------------------------------------------------------------------------


def test_tech_vocabulary_and_capitalised_prose_never_count_against_a_claim(g):
    md = (
        "This Application Is Written In COBOL For IBM z/OS, Using CICS And VSAM. The Batch Jobs Run Under JES2.\n"
        "Dates follow ISO-8601.\n"
    )
    assert [c.verdict for c in g.claims(md)] == [N, N, N]
    # backticked COBOL words are checked literally: BKTRN02C ends with GOBACK (line 83)
    c = g.one("BKTRN02C ends with `GOBACK`.")
    assert c.verdict == S and "GOBACK appears at cbl/BKTRN02C.cbl:83" in c.reason


def test_a_dd_is_shown_where_the_program_names_it(g):
    # ACCTDAT is a DD in two JCL members, and BKTRN02C's SELECT ACCOUNT-FILE ASSIGN TO ACCTDAT (line 17).
    c = g.one("# BKTRN02C\n\nThe account master is ACCTDAT.")
    assert c.verdict == S
    assert c.reason == "ACCTDAT appears at cbl/BKTRN02C.cbl:17"


def test_passive_with_an_auxiliary_and_a_place_word(g):
    # BKACT01C line 64: PERFORM 3000-APPLY-REQUEST THRU 3000-EXIT, inside 0000-MAIN (lines 60-68).
    c = g.one("`3000-APPLY-REQUEST` is performed with THRU `3000-EXIT` from `0000-MAIN` in BKACT01C.")
    assert c.verdict == S
    assert "0000-MAIN calls/performs 3000-APPLY-REQUEST (perform at cbl/BKACT01C.cbl:64)" in c.reason
    # "in BKACT01C" places the COPY (line 58); it is not a second thing copied, and no carried context acts
    c = g.one("`BKDTE01S` is called by BKTRN02C.\n\nThe COPY of `BKDATEWS` in BKACT01C uses REPLACING.")
    assert c.verdict == S
    assert "BKACT01C copies BKDATEWS (copy at cbl/BKACT01C.cbl:58)" in c.reason
