"""Claims as typed facts, a checker per predicate, and the precision-first verdict rule: the seven
reproductions of issue E and one or more cases per predicate, on the sample corpora."""

from __future__ import annotations

import pytest
from _grounding_helpers import Grounder

from groundjudge.grounding.checks import normalize_value
from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.facts import Predicate
from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY


@pytest.fixture(scope="module")
def bank():
    return Grounder("cobol-bank")


@pytest.fixture(scope="module")
def py():
    return Grounder("pyledger")


def facts(md: str):
    return MarkdownClaimExtractor().extract(md)[-1].facts


# --- facts -------------------------------------------------------------------------------------------


def test_facts_carry_predicates_and_spans():
    text = "`AmountError` subclasses `KeyError`."
    (fact,) = facts(text)
    assert fact.predicate is Predicate.INHERITS
    assert (fact.subject.value, fact.object.value) == ("AmountError", "KeyError")
    assert text[slice(*fact.span)] == "subclasses"
    assert text[slice(*fact.subject.span)] == "`AmountError`"


def test_relation_cues_become_typed_predicates():
    got = [f.predicate for f in facts("`A-PARA` performs `B-PARA`, rewrites `ACCT-FILE` and XCTLs to `BKMNU01C`.")]
    assert got == [Predicate.CALLS, Predicate.REWRITES, Predicate.TRANSFERS_CONTROL]


def test_value_facts_and_conditions():
    (fact,) = [f for f in facts("`max_age` defaults to 3600 in `unsign`.") if f.predicate is Predicate.HAS_VALUE]
    assert (fact.subject.value, fact.value, fact.initial) == ("max_age", "3600", True)
    # A state inside a condition is not the name's value.
    assert not [f for f in facts("It loops until `UPD-EOF` is 'Y'.") if f.predicate is Predicate.HAS_VALUE]


def test_opinions_are_unknown_facts():
    assert [f.predicate for f in facts("`parse_amount` is probably the cleanest part.")] == [Predicate.UNKNOWN]


def test_a_relation_word_inside_the_judgement_is_no_relation():
    # "at run time" is the judgement itself: its "run" calls nothing
    assert [f.predicate for f in facts("Resolving `MD5` by name at run time is a neat trick.")] == [Predicate.UNKNOWN]
    # a relation beside the judgement's words is still one
    calls = facts("`POST-TXN` runs `VALIDATE` at run time.")
    assert [f.predicate for f in calls] == [Predicate.CALLS, Predicate.UNKNOWN]


def test_values_compare_normalised():
    assert normalize_value("VALUE 1") == normalize_value("1")
    assert normalize_value("10_000_000_00") == normalize_value("1,000,000,000") == "1000000000"
    assert normalize_value("b'.'") == normalize_value('"."')


# --- reproduction 1: a fabricated name inside a real program or class ---------------------------------


@pytest.mark.parametrize(
    "md",
    [
        "`BKACT01C` checks each request's limit in the paragraph `3250-CHECK-OVERDRAFT`.",
        "`BKACT01C` copies the copybook `BKLIMITS`.",
    ],
)
def test_fabricated_name_in_a_real_program_is_unsupported(bank, md):
    c = bank.one(md)
    assert c.verdict == U
    assert "appears nowhere in the snapshot" in c.reason.split(";")[0]


def test_fabricated_name_beside_a_real_method_is_unsupported(py):
    c = py.one("`Ledger.post` checks each posting with `validate_currency_code`.")
    assert c.verdict == U
    assert c.reason.startswith("validate_currency_code appears nowhere")


# --- reproduction 2: false predicates on real names (inherits, has-value) -----------------------------


def test_inherits_contradicted_and_held(py):
    c = py.one("`AmountError` subclasses `KeyError`.")
    assert c.verdict == U
    assert c.reason.startswith("AmountError inherits from ValueError (pyledger/money.py:10), not KeyError")
    assert (c.evidence[0].path, c.evidence[0].start_line) == ("pyledger/money.py", 10)
    assert py.one("`AmountError` is a subclass of `ValueError`.").verdict == S


def test_constant_value_contradicted_and_held(py):
    c = py.one("`REPORT_WIDTH` is 80.")
    assert c.verdict == U
    assert c.reason.startswith("REPORT_WIDTH is 60 (pyledger/report.py:11), not 80")
    assert (c.evidence[0].path, c.evidence[0].start_line) == ("pyledger/report.py", 11)
    assert py.one("`REPORT_WIDTH` is 60.").verdict == S


def test_default_argument_value(py):
    # pyledger/ledger.py:68 def totals(self, code, until=None)
    assert py.one("`until` defaults to `None` in `Ledger.totals`.").verdict == S
    c = py.one("`until` defaults to 0 in `Ledger.totals`.")
    assert c.verdict == U and "until of totals defaults to None" in c.reason


def test_cobol_initial_value(bank):
    # cbl/BKACT01C.cbl:57 WS-MAX-CREDIT-LIMIT PIC 9(7)V99 VALUE 50000.00
    assert bank.one("`WS-MAX-CREDIT-LIMIT` starts at `VALUE 50000.00`.").verdict == S
    c = bank.one("`WS-MAX-CREDIT-LIMIT` starts at `VALUE 90000.00`.")
    assert c.verdict == U and c.reason.startswith("WS-MAX-CREDIT-LIMIT is 50000.00 (cbl/BKACT01C.cbl:57)")


def test_runtime_behaviour_is_unable_to_verify(py):
    c = py.one("`Ledger.transfer` silently swaps debit and credit when the amount is negative.")
    assert c.verdict == N
    assert c.reason.startswith('"silently"')


def test_raises_held_and_contradicted(py):
    assert py.one("`parse_amount` raises `AmountError` on a malformed amount.").verdict == S
    c = py.one("`parse_amount` raises `LedgerError` on a malformed amount.")
    assert c.verdict == U
    assert c.reason.startswith("parse_amount raises AmountError")
    assert c.evidence[0].path == "pyledger/money.py"


# --- reproduction 3: an opinion naming one real thing --------------------------------------------------


def test_opinion_naming_a_real_function_is_unable_to_verify(py):
    c = py.one("Keeping money in integer cents is the cleanest design any ledger could choose, as `parse_amount` shows.")
    assert c.verdict == N
    assert c.evidence and c.evidence[0].path == "pyledger/money.py"  # what was found is attached


# --- reproduction 4: multi-clause sentences keep their subject ----------------------------------------


def test_list_of_verbs_keeps_the_sentence_subject(bank):
    c = bank.one(
        "`0000-MAIN` performs `1000-INITIALIZE`, reads the first request with `2000-READ-NEXT-REQUEST`, "
        "and then performs `3000-APPLY-REQUEST` until `UPD-EOF`."
    )
    assert c.verdict == S, c.reason
    assert "0000-MAIN calls/performs 3000-APPLY-REQUEST" in c.reason


# --- reproduction 5: the context of a claim that did not hold is not carried ----------------------------


def test_context_from_a_failed_claim_falls_back_to_the_heading(bank):
    claims = bank.claims(
        "# BKACT01C\n\n- The paragraph `9000-TERMINATE` is in cbl/BKMNU01C.cbl.\n- The program ends by performing `9000-TERMINATE`.\n"
    )
    assert claims[0].verdict != S
    assert claims[1].verdict == S, claims[1].reason
    assert claims[1].evidence[0].path == "cbl/BKACT01C.cbl"


def test_context_from_a_claim_that_held_is_carried(bank):
    claims = bank.claims(
        "# Programs\n\n- `9000-TERMINATE` is in cbl/BKACT01C.cbl.\n- The program ends by performing `9000-TERMINATE`.\n"
    )
    assert claims[0].verdict == S
    assert claims[1].context == "cbl/BKACT01C.cbl" and claims[1].verdict == S
