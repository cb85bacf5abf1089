"""The checkers of issue E round 3, each scoped to the subject's own code span: returns, values set by code
(MOVE / SET / COMPUTE / assignment), lengths, counts, members and exports, raises through callees."""

from __future__ import annotations

import pytest

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY


def _first_reason(claim) -> str:
    return claim.reason.split(";")[0]


@pytest.mark.parametrize(
    ("md", "verdict", "line"),
    [
        ("`9000-TERMINATE` sets `RETURN-CODE` to 4.", S, 166),
        # 12 is moved to RETURN-CODE in 1000-INITIALIZE, not in the paragraph the claim is about
        ("`9000-TERMINATE` sets `RETURN-CODE` to 12.", U, 166),
        ("`1000-INITIALIZE` moves 12 to `RETURN-CODE`.", S, 77),
        ("`3300-CLOSE-ACCOUNT` sets `ACCT-CLOSED` to TRUE.", S, 149),
        ("`3100-ADD-ACCOUNT` moves zero to `ACCT-CURR-BAL`.", S, 111),
    ],
)
def test_value_set_by_the_subjects_own_statements(bank_grounder, md, verdict, line):
    c = bank_grounder.one(md)
    assert c.verdict == verdict, c.reason
    assert (c.evidence[0].path, c.evidence[0].start_line) == ("cbl/BKACT01C.cbl", line)


def test_python_assignment_in_the_class_body(pyledger_grounder):
    c = pyledger_grounder.one("`Ledger` sets `accounts` to `None`.")
    assert c.verdict == U, c.reason
    assert "never to None" in _first_reason(c)


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`UPD-ACTION` is 3 characters long.", S),
        ("`UPD-ACTION` is 5 characters long.", P),  # the item is right, its size is off
        ("`MCURDT` is 10 characters long.", S),  # a BMS field's LENGTH=010
        ("`MCURDT` is 8 characters long.", P),
    ],
)
def test_lengths_of_fields_and_items(bank_grounder, md, verdict):
    assert bank_grounder.one(md).verdict == verdict


@pytest.mark.parametrize(
    ("md", "verdict"),
    [("`9000-TERMINATE` closes all three files.", S), ("`9000-TERMINATE` closes all four files.", P)],
)
def test_counts_the_subjects_own_statements(bank_grounder, md, verdict):
    c = bank_grounder.one(md)
    assert c.verdict == verdict
    assert "closes 3 files (ACCTUPD-FILE, ACCOUNT-FILE, REJECT-FILE" in _first_reason(c)


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`ACCTUPD-RECORD` has a field `UPD-ACCT-ID`.", S),
        ("`ACCTUPD-RECORD` has a field `ACCT-ID`.", U),  # ACCT-ID is real, but another record's
    ],
)
def test_record_fields(bank_grounder, md, verdict):
    assert bank_grounder.one(md).verdict == verdict


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`Account` has a method `signed_balance`.", S),
        ("`Account` has a method `post`.", U),  # Ledger.post exists, not on Account
        ("`pyledger/__init__.py` exports `Ledger`.", S),
        ("It also exports `JournalError` from `pyledger/__init__.py`.", U),
    ],
)
def test_members_and_exports(pyledger_grounder, md, verdict):
    assert pyledger_grounder.one(md).verdict == verdict


@pytest.mark.parametrize(
    ("md", "verdict", "said"),
    [
        ("`Account.type` returns `TYPE_BY_FIRST_DIGIT`.", S, "returns TYPE_BY_FIRST_DIGIT[self.code[0]]"),
        ("`Account.signed_balance` returns `True`.", U, "not True"),
        ("`main` returns the parsed command rather than `0`.", U, "main returns 0"),
        # a name in the expression is returned; an ordinal must match the subscript
        ("`Account.type` returns the first entry of `TYPE_BY_FIRST_DIGIT`.", U, "not the first entry"),
    ],
)
def test_returns_against_the_functions_own_return_statements(pyledger_grounder, md, verdict, said):
    c = pyledger_grounder.one(md)
    assert c.verdict == verdict, c.reason
    assert said in _first_reason(c)
    assert c.evidence[0].path.startswith("pyledger/")


def test_a_return_in_a_condition_states_no_fact(pyledger_grounder):
    c = pyledger_grounder.one("`Ledger.post` checks whether `Transaction.is_balanced` returns `False`.")
    assert c.verdict == S


@pytest.mark.parametrize(
    ("md", "verdict", "said"),
    [
        ("`load_journal` raises `LedgerError`.", S, "through open_account"),  # one call deep
        # nothing save_journal reaches raises the snapshot's own JournalError
        ("`save_journal` raises `JournalError`.", U, "3 levels deep"),
    ],
)
def test_raises_follows_calls(pyledger_grounder, md, verdict, said):
    c = pyledger_grounder.one(md)
    assert c.verdict == verdict, c.reason
    assert said in _first_reason(c)


def test_raises_after_and_keeps_the_sentence_subject(pyledger_grounder):
    c = pyledger_grounder.one("`load_journal` replays each record through `Ledger.post` and raises `JournalError`.")
    assert c.verdict == S, c.reason


# --- VALUE in a quoted data entry, definitions, names only in prose -------------------------------------


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`WS-MAX-REGULAR-LIMIT` is `PIC S9(7)V99 COMP-3 VALUE 10000.00`.", S),
        ("`WS-MAX-REGULAR-LIMIT` is `PIC S9(7)V99 COMP-3 VALUE 50000.00`.", U),  # the value is wrong
        ("`WS-MAX-REGULAR-LIMIT` is `PIC S9(5)V99 COMP-3 VALUE 10000.00`.", P),  # only the width is off
    ],
)
def test_value_inside_a_quoted_pic_clause(bank_grounder, md, verdict):
    assert bank_grounder.one(md).verdict == verdict


def test_defined_in_a_file_that_only_uses_it(pyledger_grounder):
    c = pyledger_grounder.one("`Ledger` is defined in `pyledger/storage.py`.")
    assert c.verdict == P
    assert "is defined at pyledger/ledger.py:33" in _first_reason(c)


def test_a_name_only_in_comments_is_not_in_the_code(tmp_path):
    from _grounding_helpers import Grounder

    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "mod.py").write_text("# OldSerializer was removed in 2.0\n\n\ndef dumps(obj):\n    return str(obj)\n")
    (tmp_path / "CHANGES.rst").write_text("2.0: ``LegacySigner`` is gone.\n")
    g = Grounder(tmp_path)
    for name in ("OldSerializer", "LegacySigner"):
        c = g.one(f"`pkg/mod.py` exports `dumps` and `{name}`.")
        assert c.verdict == U
        assert "only in prose or comments" in c.reason


# --- reproduction 6: the subject's own code, not a same-named one ---------------------------------------


def test_xctl_must_be_in_the_program_said_to_transfer(bank_grounder):
    # BKMNU01C XCTLs to BKUPD02C; BKSGN00C does not
    assert bank_grounder.one("`BKMNU01C` hands control to `BKUPD02C` with an XCTL.").verdict == S
    c = bank_grounder.one("The sign-on program `BKSGN00C` hands control to `BKUPD02C` with an XCTL.")
    assert c.verdict == U
    assert "cbl/BKMNU01C.cbl" not in c.reason


def test_method_of_the_named_class_not_a_stub_elsewhere(tmp_path):
    from _grounding_helpers import Grounder

    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "base.py").write_text(
        "class StoreError(Exception):\n    pass\n\n\nclass Base:\n    def save(self, data):\n        raise NotImplementedError\n\n\n"
        "class FileStore(Base):\n    def save(self, data):\n        if not data:\n            raise StoreError('empty')\n"
        "        return len(data)\n"
    )
    g = Grounder(tmp_path)
    assert g.one("In `FileStore`, `save` raises `StoreError`.").verdict == S
    c = g.one("In `Base`, `save` raises `StoreError`.")
    assert c.verdict == U
    assert "Base.save raises NotImplementedError" in _first_reason(c)
