"""The Verifier protocol: a second verifier takes over the claims the deterministic one cannot judge,
and arbitrary Markdown never makes extraction or verification crash."""

from __future__ import annotations

import pytest
from _grounding_helpers import Grounder
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Claim, Verdict, VerifiedClaim
from groundjudge.grounding.verify import DeterministicVerifier, FallbackVerifier, Verifier


class AbsoluteWordsVerifier:
    """A second opinion of the simplest kind: sweeping claims ('always', 'never') are unsupported."""

    @property
    def name(self) -> str:
        return "absolute-words"

    def verify(self, claim: Claim, index, snapshot) -> VerifiedClaim:
        sweeping = any(w in claim.text.lower().split() for w in ("always", "never"))
        verdict = Verdict.UNSUPPORTED if sweeping else Verdict.UNABLE_TO_VERIFY
        return VerifiedClaim(
            **claim.model_dump(), verdict=verdict, reason="sweeping claim" if sweeping else "no opinion", verifier=self.name
        )


@pytest.fixture(scope="module")
def g() -> Grounder:
    return Grounder("cobol-bank")


def test_fallback_only_sees_what_the_first_could_not_judge(g):
    verifier = FallbackVerifier(DeterministicVerifier(), AbsoluteWordsVerifier())
    assert isinstance(verifier, Verifier)
    assert verifier.name == "deterministic+absolute-words"
    claims = MarkdownClaimExtractor().extract(
        "`9999-NOPE` always runs. The batch never fails. The code is tidy. BKUPD02C copies `BKAUDR`.\n"
    )
    out = [verifier.verify(c, g.index, g.snapshot) for c in claims]
    assert [(v.verdict, v.verifier) for v in out] == [
        (Verdict.UNSUPPORTED, "deterministic"),  # the deterministic verdict stands, "always" or not
        (Verdict.UNSUPPORTED, "absolute-words"),
        (Verdict.UNABLE_TO_VERIFY, "absolute-words"),
        (Verdict.SUPPORTED, "deterministic"),
    ]


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
    assert decide([]) == (Verdict.UNABLE_TO_VERIFY, "names no file, symbol or value the snapshot could confirm or deny")
    assert decide([ok, rel_ok]) == (Verdict.SUPPORTED, "e present; a ok")  # facts that held before names
    assert decide([miss]) == (Verdict.UNSUPPORTED, "b missing")
    # A fabricated name decides, whatever else holds (it was PARTIALLY_SUPPORTED before the precision-first rule).
    assert decide([ok, rel_ok, miss]) == (Verdict.UNSUPPORTED, "b missing; e present; a ok")
    assert decide([ok, bad]) == (Verdict.PARTIALLY_SUPPORTED, "c wrong; a ok")
    assert decide([bad]) == (Verdict.UNSUPPORTED, "c wrong")
    assert decide([ok, ok, no_rel])[0] == Verdict.UNSUPPORTED  # the only fact is contradicted
    assert decide([ok, no_rel, rel_ok]) == (Verdict.PARTIALLY_SUPPORTED, "d absent; e present; a ok")
    assert decide([ok, rel_ok, opinion]) == (Verdict.UNABLE_TO_VERIFY, "f a judgement; e present; a ok")
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
