"""The Verifier protocol and the checks it records per fact, and arbitrary Markdown never makes extraction or
verification crash."""

from __future__ import annotations

import pytest
from _grounding_helpers import Grounder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import CheckOutcome, Verdict
from groundjudge.grounding.verify import DeterministicVerifier, Verifier


@pytest.fixture(scope="module")
def g() -> Grounder:
    return Grounder("cobol-bank")


def test_checks_are_recorded_per_fact(g):
    """Every check is recorded with the fact or reference it answered, and every fact no check reached
    as unchecked and outside the rule, so a later stage never re-derives them."""
    assert isinstance(DeterministicVerifier(), Verifier)
    [claim] = MarkdownClaimExtractor().extract("`0000-MAIN` in BKUPD02C performs `1000-READ-ACCOUNT`, probably.\n")
    verified = DeterministicVerifier().verify(claim, g.index, g.snapshot)
    checks = verified.checks or []
    facts = {c.fact: (c.outcome, c.relation, c.ruled) for c in checks if c.fact is not None}
    assert [f.predicate.value for f in claim.facts] == ["calls", "unknown"]
    assert facts == {0: (CheckOutcome.HELD, True, True), 1: (CheckOutcome.UNCHECKED, False, True)}
    assert {claim.refs[c.ref].value for c in checks if c.ref is not None} == {"0000-MAIN", "BKUPD02C", "1000-READ-ACCOUNT"}
    assert verified.verdict is Verdict.UNABLE_TO_VERIFY


TOKENS = [
    "`",
    "``",
    "```\n",
    "|",
    "| --- |",
    "\n",
    "\n\n",
    "# ",
    "- ",
    "1. ",
    "> ",
    ". ",
    ", ",
    "(",
    ")",
    "'",
    '"',
    "cbl/BKUPD02C.cbl",
    ":",
    "-",
    "90-10",
    "line 0",
    "lines 5-1",
    "../../etc/passwd",
    "/etc/passwd",
    "~",
    "BKUPD02C",
    "BKACCT",
    "1000-READ-ACCOUNT",
    "WS-MESSAGE",
    "PIC",
    "PIC X(",
    "S9(7)V99",
    "COMP-3",
    "XCTL",
    "performs",
    "copies",
    "reads",
    "writes",
    "transfers control to",
    "it",
    "which it",
    "by",
    "Ledger.post",
    "self.",
    "post_entry()",
    "x",
    "\t",
    "é",
    "#L3-L",
    "[a](",
    "](cbl/BKUPD02C.cbl#L1-L2)",
    "99999999999999999999",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(TOKENS), max_size=40).map("".join))
def test_any_markdown_grounds_without_crashing(g, text):
    report = g.report(text)
    assert sum(report.counts.values()) == len(report.claims)
    for c in report.claims:
        assert c.reason and "\n" not in c.reason
        assert all(len(e.snippet.splitlines()) <= 15 for e in c.evidence)


def test_verdict_rule_on_hand_built_checks():
    from groundjudge.grounding.verify import CheckResult, decide

    ok, miss, bad = CheckResult("ok", "a ok"), CheckResult("missing", "b missing"), CheckResult("mismatch", "c wrong")
    no_rel, rel_ok = CheckResult("contradicted", "d absent", relation=True), CheckResult("ok", "e present", relation=True)
    opinion = CheckResult("unchecked", "f a judgement")
    assert decide([])[:2] == (Verdict.UNABLE_TO_VERIFY, "names no file, symbol or value the snapshot could confirm or deny")
    assert decide([ok, rel_ok])[:2] == (Verdict.SUPPORTED, "e present; a ok")  # facts that held before names
    assert decide([miss])[:2] == (Verdict.UNSUPPORTED, "b missing")
    # A fabricated name decides, whatever else holds (it was PARTIALLY_SUPPORTED before the precision-first rule).
    assert decide([ok, rel_ok, miss])[:2] == (Verdict.UNSUPPORTED, "b missing; e present; a ok")
    assert decide([ok, rel_ok, miss]).deciding == [miss]
    assert decide([ok, rel_ok]).deciding == [rel_ok]  # a fact that held, not the name beside it
    assert decide([ok, bad])[:2] == (Verdict.PARTIALLY_SUPPORTED, "c wrong; a ok")
    assert decide([bad])[:2] == (Verdict.UNSUPPORTED, "c wrong")
    assert decide([ok, ok, no_rel])[0] == Verdict.UNSUPPORTED  # the only fact is contradicted
    assert decide([ok, no_rel, rel_ok])[:2] == (Verdict.PARTIALLY_SUPPORTED, "d absent; e present; a ok")
    assert decide([ok, rel_ok, opinion])[:2] == (Verdict.UNABLE_TO_VERIFY, "f a judgement; e present; a ok")
    assert decide([opinion, no_rel])[0] == Verdict.UNSUPPORTED  # a contradiction outranks a judgement
    long = decide([CheckResult("missing", "x" * 400)])[1]
    assert len(long) == 300 and long.endswith("...")


def test_pic_and_usage_normalisation():
    from groundjudge.grounding.verify import expand_pic, normalize_usage

    assert expand_pic("S9(7)V99") == "S9999999V99"
    assert expand_pic("x(3).") == expand_pic("XXX") == "XXX"  # case and a sentence full stop do not matter
    assert expand_pic("9(2)V9(2)") == "99V99"
    assert normalize_usage("COMPUTATIONAL-3") == normalize_usage("packed-decimal") == "COMP-3"
    assert normalize_usage("BINARY") == normalize_usage("COMP-4") == "COMP"
