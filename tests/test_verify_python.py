"""Verdicts on the Python sample corpus (corpora/pyledger), each hand-checked against the file."""

from __future__ import annotations

import pytest
from _grounding_helpers import Grounder

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY


@pytest.fixture(scope="module")
def g() -> Grounder:
    return Grounder("pyledger")


def test_method_at_the_cited_range(g):
    c = g.one("`Ledger.post` is at pyledger/ledger.py:44-58.")
    assert c.verdict == S
    assert "pyledger/ledger.py:44-58 holds method post" in c.reason
    assert c.evidence[0].snippet.splitlines()[0] == "    def post(self, transaction: Transaction) -> None:"


def test_method_at_wrong_lines_is_partial_even_if_the_name_is_used_there(g):
    # line 65 (inside Ledger.transfer) says self.post(...), but the definition is at 44-58
    c = g.one("`Ledger.post` is at pyledger/ledger.py:60-70.")
    assert c.verdict == P
    assert "post is at pyledger/ledger.py:44-58, not at pyledger/ledger.py:60-70" in c.reason


def test_class_in_wrong_module_is_partial(g):
    c = g.one("`JournalError` is defined in pyledger/ledger.py.")
    assert c.verdict == P
    assert "JournalError exists (pyledger/storage.py:16-18) but not in pyledger/ledger.py" in c.reason


def test_calls(g):
    c = g.one("`load_journal` calls `Ledger.post` for every transaction.")
    assert c.verdict == S
    assert "(call at pyledger/storage.py:38)" in c.reason  # ledger.post(Transaction(...))
    c = g.one("`save_journal` calls `Ledger.post` for every transaction.")
    assert c.verdict == U
    assert "save_journal does not call or perform Ledger.post" in c.reason
    c = g.one("`Ledger.transfer` calls `Ledger.post`.")  # self.post(transaction) inside class Ledger
    assert c.verdict == S
    assert "(call at pyledger/ledger.py:65)" in c.reason


def test_qualified_call_needs_the_right_qualifier(g):
    c = g.one("`save_journal` calls `os.replace`.")
    assert c.verdict == S and "(call at pyledger/storage.py:65)" in c.reason
    # parse_amount calls cleaned.replace(...) (money.py:16), which is str.replace, not os.replace
    c = g.one("`parse_amount` calls `os.replace`.")
    assert c.verdict == U
    assert "parse_amount does not call or perform os.replace" in c.reason


def test_called_by_is_passive(g):
    c = g.one("`format_amount` is called by `parse_amount` to normalise the text.")
    assert c.verdict == U
    assert "parse_amount does not call or perform format_amount" in c.reason
    c = g.one("`Transaction.is_balanced` is called by `Ledger.post`.")
    assert c.verdict == S
    assert "(call at pyledger/ledger.py:48)" in c.reason


def test_imports(g):
    c = g.one("pyledger/storage.py imports `pyledger.ledger`.")
    assert c.verdict == S and "(import at pyledger/storage.py:11)" in c.reason
    c = g.one("pyledger/money.py imports `pyledger.ledger`.")
    assert c.verdict == U


def test_context_from_a_file_heading(g):
    c = g.one("## pyledger/storage.py\n\nIt calls `os.replace` last.")
    assert c.context == "pyledger/storage.py"
    assert c.verdict == S
    c = g.one("## pyledger/money.py\n\nIt calls `os.replace` last.")
    assert c.verdict == U


def test_invented_names(g):
    for text, name in [
        ("Amounts are rounded with `round_amount()`.", "round_amount"),
        ("Unknown accounts raise AccountNotFoundError.", "AccountNotFoundError"),
    ]:
        c = g.one(text)
        assert (c.verdict, c.reason) == (U, f"{name} appears nowhere in the snapshot")


def test_mixed_real_and_invented_names_is_unsupported(g):
    # A fabricated name decides the claim; it was PARTIALLY_SUPPORTED before the precision-first rule.
    c = g.one("The ledger validates in `Ledger.validate_transaction` before `Ledger.post`.")
    assert c.verdict == Verdict.UNSUPPORTED
    assert "Ledger.validate_transaction appears nowhere in the snapshot" in c.reason


def test_string_and_number_values(g):
    c = g.one('## pyledger/ledger.py\n\nOut-of-order dates fail with "transactions must be posted in date order".')
    assert c.verdict == S
    assert "'transactions must be posted in date order' appears at pyledger/ledger.py:57" in c.reason
    c = g.one('In pyledger/money.py `CENTS_PER_UNIT` is 100 and `CURRENCY` is "USD".')  # it is "EUR"
    assert c.verdict == P
    # a value no file holds is a wrong value of the claim's file, not a misplaced one
    assert "'USD' appears nowhere in pyledger/money.py nor anywhere else in the snapshot" in c.reason


@pytest.mark.parametrize("path", ["/etc/passwd", "../pyledger/pyledger/money.py", "`~/.ssh/id_rsa`"])
def test_paths_never_leave_the_snapshot(g, path):
    c = g.one(f"Secrets are in {path}.")
    assert c.verdict == U
    assert "leaves the corpus root" in c.reason


def test_ranges_past_the_end_and_missing_module(g):
    c = g.one("`format_amount` is at pyledger/money.py:30-40.")
    assert c.verdict == P
    assert "pyledger/money.py:30-40: runs past the end of pyledger/money.py (35 lines)" in c.reason
    assert g.one("The parser is in pyledger/parse.py.").verdict == U


def test_dotted_module_name_resolves(g):
    c = g.one("The journal code is the module `pyledger.storage`.")
    assert c.verdict == S
    assert c.reason == "pyledger.storage is used (import) at pyledger/__main__.py:13"
    assert g.one("The journal code is the module `pyledger.journal`.").verdict == U


def test_no_checkable_reference(g):
    assert g.one("The design is simple and easy to follow.").verdict == N
