"""Verdicts on the COBOL sample corpus, each hand-checked against the file and line it names
(corpora/cobol-bank; line numbers are physical lines, see its SYMBOLS.md)."""

from __future__ import annotations

import pytest
from _grounding_helpers import Grounder

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY


@pytest.fixture(scope="module")
def g() -> Grounder:
    return Grounder("cobol-bank")


def test_paragraph_at_the_cited_range(g):
    c = g.one("`1000-READ-ACCOUNT` is at cbl/BKUPD02C.cbl:58-67.")
    assert c.verdict == S
    assert "cbl/BKUPD02C.cbl:58-67 holds paragraph 1000-READ-ACCOUNT" in c.reason
    assert (c.evidence[0].path, c.evidence[0].start_line, c.evidence[0].end_line) == ("cbl/BKUPD02C.cbl", 58, 67)
    assert c.evidence[0].snippet.splitlines()[0] == "005800 1000-READ-ACCOUNT."


def test_right_paragraph_wrong_lines_is_partial(g):
    c = g.one("`2120-REWRITE-ACCOUNT` is at cbl/BKUPD02C.cbl lines 20-30.")
    assert c.verdict == P
    assert "2120-REWRITE-ACCOUNT is at cbl/BKUPD02C.cbl:111-128, not at cbl/BKUPD02C.cbl:20-30" in c.reason


def test_right_paragraph_wrong_file_is_partial(g):
    c = g.one("The paragraph `2200-CLOSE-ACCOUNT` is defined in cbl/BKACT01C.cbl.")
    assert c.verdict == P
    assert "2200-CLOSE-ACCOUNT exists (cbl/BKUPD02C.cbl:144-169) but not in cbl/BKACT01C.cbl" in c.reason
    assert c.evidence[0].path == "cbl/BKUPD02C.cbl" and c.evidence[0].start_line == 144


def test_pic_clause_right_and_equivalent_spellings(g):
    c = g.one("`WS-MAX-REGULAR-LIMIT` is `PIC S9(7)V99` COMP-3.")
    assert c.verdict == S
    assert (c.evidence[0].path, c.evidence[0].start_line, c.evidence[0].end_line) == ("cbl/BKUPD02C.cbl", 21, 22)
    # 9(11) written out in full is the same picture
    assert g.one("`ACCT-ID` is `PIC 99999999999`.").verdict == S


def test_pic_clause_wrong_is_partial_and_scoped_to_the_cited_file(g):
    # WS-MESSAGE is X(78) in BKUPD02C but X(79) in BKSGN00C: the cited file decides.
    c = g.one("`WS-MESSAGE` in cbl/BKUPD02C.cbl is `PIC X(80)`.")
    assert c.verdict == P
    assert "WS-MESSAGE has PIC X(78) at cbl/BKUPD02C.cbl:14, not PIC X(80)" in c.reason
    assert g.one("`WS-MESSAGE` in cbl/BKSGN00C.cbl is `PIC X(79)`.").verdict == S


def test_usage_clause(g):
    assert g.one("`ACCT-CURR-BAL` is `PIC S9(9)V99 COMP-3`.").verdict == S
    c = g.one("`WS-RESP` in cbl/BKUPD02C.cbl is `PIC S9(8) COMP-3`.")  # line 13: PIC S9(8) COMP
    assert c.verdict == P
    assert "WS-RESP has COMP at cbl/BKUPD02C.cbl:13, not COMP-3" in c.reason


def test_copy(g):
    c = g.one("BKUPD02C copies `BKAUDR`.")
    assert c.verdict == S
    assert "BKUPD02C copies BKAUDR (copy at cbl/BKUPD02C.cbl:25)" in c.reason
    c = g.one("BKRPT03C copies `BKACCT`.")  # BKRPT03C copies only BKDATEWS (and SQLCA)
    assert c.verdict == U
    assert "BKRPT03C does not copy or import BKACCT" in c.reason


def test_perform(g):
    c = g.one("`2130-AUDIT-CHANGES` performs `4000-WRITE-AUDIT`.")
    assert c.verdict == S
    assert "(perform at cbl/BKUPD02C.cbl:136)" in c.reason
    # 0000-MAIN (lines 33-57) performs 1000, 3000, 2000 and 8000 but never 2200-CLOSE-ACCOUNT
    c = g.one("`0000-MAIN` in cbl/BKUPD02C.cbl performs `2200-CLOSE-ACCOUNT`.")
    assert c.verdict == U
    assert "0000-MAIN does not call or perform 2200-CLOSE-ACCOUNT" in c.reason


def test_perform_in_a_paragraph_shared_by_name_uses_the_claims_program(g):
    # Several programs have a 0000-MAIN; in BKTRN02C it is a section that performs 2000-READ-NEXT-TRAN.
    c = g.one("## BKTRN02C\n\nIts `0000-MAIN` section performs `2000-READ-NEXT-TRAN`.")
    assert c.verdict == S
    assert "(perform at cbl/BKTRN02C.cbl:77)" in c.reason


def test_xctl_and_link(g):
    c = g.one("BKSGN00C transfers control to BKMNU01C with XCTL.")
    assert c.verdict == S
    assert "(xctl at cbl/BKSGN00C.cbl:68)" in c.reason
    c = g.one("BKSGN00C links to BKMNU01C.")  # it XCTLs, which never returns; LINK does
    assert c.verdict == U
    assert "BKSGN00C uses XCTL to reach BKMNU01C (cbl/BKSGN00C.cbl:68), not LINK" in c.reason
    c = g.one("BKSGN00C transfers control to BKUPD02C.")
    assert c.verdict == U
    assert "BKSGN00C does not XCTL or LINK to BKUPD02C" in c.reason
    c = g.one("`4000-WRITE-AUDIT` LINKs to BKAUD04C.")
    assert c.verdict == S
    assert "(link at cbl/BKUPD02C.cbl:200)" in c.reason


def test_call_and_file_io(g):
    assert "(call at cbl/BKTRN02C.cbl:134)" in g.one("BKTRN02C calls `BKDTE01S`.").reason
    c = g.one("`1000-READ-USER-RECORD` reads USRSEC.")
    assert c.verdict == S and "(cics_read at cbl/BKSGN00C.cbl:34)" in c.reason
    # ACCTDAT is the ASSIGN name of ACCOUNT-FILE, which 3200-LOOKUP-ACCOUNT reads at line 144
    c = g.one("`3200-LOOKUP-ACCOUNT` reads ACCTDAT.")
    assert c.verdict == S and "(file_read at cbl/BKTRN02C.cbl:144)" in c.reason


def test_context_carries_over_from_the_heading(g):
    c = g.one("## BKAUD04C\n\nIts main paragraph performs `1000-WRITE-AUDIT-RECORD`.")
    assert c.context == "BKAUD04C"
    assert c.verdict == S
    assert "BKAUD04C calls/performs 1000-WRITE-AUDIT-RECORD (perform at cbl/BKAUD04C.cbl:28)" in c.reason
    c = g.one("## BKSGN00C\n\nIt performs `1000-WRITE-AUDIT-RECORD`.")
    assert c.verdict == U
    assert "BKSGN00C does not call or perform 1000-WRITE-AUDIT-RECORD" in c.reason


def test_context_carries_over_from_a_preceding_unit(g):
    cs = g.claims("BKUPD02C is the update program. It displays 'ACCOUNT NOT FOUND' when the read fails.")
    assert cs[1].context == "BKUPD02C"
    assert cs[1].verdict == S
    assert "'ACCOUNT NOT FOUND' appears at cbl/BKUPD02C.cbl:66" in cs[1].reason
    cs = g.claims("BKUPD02C is the update program. It displays 'NO SUCH MESSAGE' on errors.")
    assert cs[1].verdict == U
    assert "'NO SUCH MESSAGE' does not appear in cbl/BKUPD02C.cbl" in cs[1].reason


def test_names_that_exist_nowhere(g):
    c = g.one("`9999-ABEND-ROUTINE` handles all errors.")
    assert c.verdict == U
    assert c.reason == "9999-ABEND-ROUTINE appears nowhere in the snapshot"
    assert c.evidence == []
    c = g.one("Errors are logged by calling BKERR01C.")  # program-shaped without backticks: still strict
    assert c.verdict == U


def test_an_invented_name_beside_a_real_one_is_unsupported(g):
    # A fabricated name decides the claim; it was PARTIALLY_SUPPORTED before the precision-first rule.
    c = g.one("`3100-VALIDATE-TRAN` and then `3400-POST-TO-ACCOUNT` handle each transaction.")
    assert c.verdict == U
    assert "3400-POST-TO-ACCOUNT appears nowhere in the snapshot" in c.reason


@pytest.mark.parametrize("path", ["../../etc/passwd", "/etc/passwd", "`../cobol-bank/cbl/BKUPD02C.cbl`"])
def test_paths_never_leave_the_snapshot(g, path):
    c = g.one(f"The user list is in {path}.")
    assert c.verdict == U
    assert "leaves the corpus root; nothing was read" in c.reason
    assert c.evidence == []


def test_missing_file(g):
    c = g.one("The parser is in cbl/BKPARSE.cbl.")
    assert (c.verdict, c.reason) == (U, "no file cbl/BKPARSE.cbl in the snapshot")
    # a cited directory must agree with the file's real one
    # BKTRN02C.cbl exists, but in cbl/: the right file under a wrong directory is half right
    c = g.one("See cpy/BKTRN02C.cbl.")
    assert c.verdict == P
    assert "no file cpy/BKTRN02C.cbl in the snapshot; BKTRN02C.cbl is cbl/BKTRN02C.cbl" in c.reason


@pytest.mark.parametrize(
    "cite, message",
    [
        ("cbl/BKUPD02C.cbl:90-10", "cbl/BKUPD02C.cbl:90-10: malformed range (ends before it starts)"),
        ("line 0 of cbl/BKUPD02C.cbl", "cbl/BKUPD02C.cbl:0: line 0 does not exist (lines start at 1)"),
        ("cbl/BKUPD02C.cbl:500", "cbl/BKUPD02C.cbl:500: line 500 is beyond the end of cbl/BKUPD02C.cbl (211 lines)"),
        ("cbl/BKUPD02C.cbl:200-300", "cbl/BKUPD02C.cbl:200-300: runs past the end of cbl/BKUPD02C.cbl (211 lines)"),
    ],
)
def test_malformed_line_references_get_a_partial_verdict(g, cite, message):
    c = g.one(f"See {cite}.")
    assert c.verdict == P  # the file is right, the lines are not
    assert message in c.reason


def test_statement_word_must_be_at_the_cited_line(g):
    assert g.one("In cbl/BKMNU01C.cbl the XCTL is at line 100.").verdict == S
    c = g.one("In cbl/BKMNU01C.cbl the XCTL is at line 10.")
    assert c.verdict == P
    assert "cbl/BKMNU01C.cbl:10 does not mention XCTL" in c.reason


def test_nothing_checkable_is_unable_to_verify(g):
    for text in ("The program is well designed and easy to maintain.", "It uses CICS and VSAM in the WORKING-STORAGE SECTION."):
        c = g.one(text)
        assert c.refs == []
        assert (c.verdict, c.evidence) == (N, [])


def test_quoted_code(g):
    exact = "BKAUD04C writes the record like this:\n\n```cobol\n           EXEC CICS WRITE DATASET('AUDITLG')\n                     FROM(AUDIT-RECORD)\n```\n"
    c = g.one(exact)
    assert c.verdict == S
    assert "the quoted code is in cbl/BKAUD04C.cbl (from line 39)" in c.reason
    c = g.one(exact.replace("AUDITLG", "AUDITLOG"))
    assert c.verdict == P
    assert "only 1 of 2 quoted code lines are in cbl/BKAUD04C.cbl (from line 39)" in c.reason


def test_evidence_snippets_are_at_most_15_lines(g):
    c = g.one("`3000-SEND-ACCOUNT-SCREEN` builds the screen.")  # lines 170-194
    assert c.verdict == S
    e = c.evidence[0]
    assert (e.path, e.start_line, e.end_line) == ("cbl/BKUPD02C.cbl", 170, 184)
    assert len(e.snippet.splitlines()) == 15


def test_table_rows_are_claims_with_the_header_relation(g):
    md = "| Program | Calls |\n|---|---|\n| BKTRN02C | `BKDTE01S` |\n| BKACT01C | `BKDTE01S` |\n"
    cs = g.claims(md)
    assert [(c.text, c.verdict) for c in cs] == [("BKTRN02C | Calls: `BKDTE01S`", S), ("BKACT01C | Calls: `BKDTE01S`", U)]


def test_report_counts_every_verdict_key(g):
    report = g.report("`9999-X-Y` is missing.\n\nIt is nice.\n")
    assert report.counts == {S: 0, P: 0, U: 1, N: 1}


def test_non_utf8_file_exists_but_its_lines_cannot_be_cited(g):
    c = g.one("The requests come from data/ACCTUPD.dat.")  # EBCDIC, no newlines
    assert (c.verdict, c.reason) == (S, "data/ACCTUPD.dat exists (a binary or non-text file, not read)")
    c = g.one("The first request is at data/ACCTUPD.dat:1-3.")
    assert c.verdict == P
    assert "data/ACCTUPD.dat is not a text file: its lines cannot be cited" in c.reason


def test_jcl_steps_and_programs(g):
    c = g.one("In jcl/proc/BKPOST.jcl step `POSTTRN` runs BKTRN02C.")
    assert c.verdict == S and "(exec_pgm at jcl/proc/BKPOST.jcl:14)" in c.reason
    # BKRPT03C runs under IKJEFT01, named in SYSTSIN at line 20
    c = g.one("jcl/BKDAILY.jcl runs BKRPT03C.")
    assert c.verdict == S and "jcl/BKDAILY.jcl:20" in c.reason
    c = g.one("BKDAILY runs BKACT01C after the report.")
    assert c.verdict == U and "BKDAILY does not call or perform BKACT01C" in c.reason


def test_relation_spelled_in_code_but_not_indexed_as_that_kind(g):
    # "calls" is loose English: BKMNU01C reaches BKUPD02C by XCTL (line 100), which still counts.
    c = g.one("BKMNU01C calls BKUPD02C.")
    assert c.verdict == S
    assert "BKMNU01C calls/performs BKUPD02C (xctl at cbl/BKMNU01C.cbl:100)" in c.reason
    # BKAUD04C names BKUPD02C only in a comment (line 5): that does not count
    c = g.one("BKAUD04C calls BKUPD02C.")
    assert c.verdict == U and "BKAUD04C does not call or perform BKUPD02C" in c.reason


def test_directory_citation(g):
    c = g.one("The copybooks live in `cpy/`.")
    assert (c.verdict, c.reason) == (S, "cpy/ is a directory of the snapshot (7 files)")
    assert g.one("The copybooks live in `copybooks/`.").verdict == U


def test_bare_numbers(g):
    # "3" is in BKAUD04C (line 16) but a lone small number confirms nothing
    assert g.one("## BKAUD04C\n\nIt retries 3 times.").verdict == N
    c = g.one("## BKTRN02C\n\nCode 102 means the amount is not positive.")  # MOVE 102 at line 128
    assert c.verdict == S and c.reason == "102 appears at cbl/BKTRN02C.cbl:128"
    # a loose number that is not there never counts against a claim
    assert g.one("BKTRN02C has 7 reject codes.").verdict == S


def test_several_ranges_in_one_claim_pair_with_their_own_names(g):
    right = "## BKTRN02C\n\n`3100-VALIDATE-TRAN` (lines 120-141) and `3200-LOOKUP-ACCOUNT` (lines 142-154) do the checks."
    assert g.one(right).verdict == S
    swapped = "## BKTRN02C\n\n`3100-VALIDATE-TRAN` (lines 142-154) and `3200-LOOKUP-ACCOUNT` (lines 120-141) do the checks."
    c = g.one(swapped)
    assert c.verdict == P
    assert "3100-VALIDATE-TRAN is at cbl/BKTRN02C.cbl:120-141, not at cbl/BKTRN02C.cbl:142-154" in c.reason
    assert "3200-LOOKUP-ACCOUNT is at cbl/BKTRN02C.cbl:142-154, not at cbl/BKTRN02C.cbl:120-141" in c.reason


def test_paths_with_the_corpus_directory_or_only_a_basename(g):
    c = g.one("See corpora/cobol-bank/cbl/BKSGN00C.cbl:68 for the XCTL.")
    assert (c.verdict, c.reason) == (S, "cbl/BKSGN00C.cbl:68 mentions XCTL")
    assert g.one("See bksgn00c.cbl line 68 for the XCTL.").verdict == S
