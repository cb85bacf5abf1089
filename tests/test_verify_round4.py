"""Issue E round 4: claims that used to pass with no fact checked (history and usage wording, made-up
messages, wrong call arguments, types, arithmetic, never-set and never-used names, identical files)."""

from __future__ import annotations

import pytest

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY


@pytest.mark.parametrize(
    "md",
    [
        "`Ledger` is the class most accounting applications end up using.",
        "`Ledger.post` shows an API that grew by accretion.",
        "`parse_amount` is typically called before `Ledger.post`.",
    ],
)
def test_history_popularity_and_typical_usage_are_opinions(pyledger_grounder, md):
    assert pyledger_grounder.one(md).verdict == N


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`BKACT01C` rejects a closed account with `'ACCOUNT IS CLOSED'`.", S),
        # no line of the snapshot holds the message, not only the program's file
        ("`BKACT01C` rejects a dormant account with `'ACCOUNT IS DORMANT'`.", U),
    ],
)
def test_a_message_found_nowhere_is_made_up(bank_grounder, md, verdict):
    c = bank_grounder.one(md)
    assert c.verdict == verdict, c.reason


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`__main__.main` saves with `save_journal(ledger, args.journal)`.", S),
        ("`Ledger.transfer` builds its postings with `Posting(debit, amount)`.", S),  # Posting(credit, -amount) too
        # the code's calls of save_journal never pass a third argument
        ("`__main__.main` saves with `save_journal(ledger, args.journal, indent=2)`.", U),
        # types from the annotations
        ("The amount is kept in cents: `amount` is an `int`.", S),
        ("The amount is kept as text: `amount` is a `str`.", U),  # amount: int (ledger.py:19)
    ],
)
def test_quoted_call_arguments_and_declared_types(pyledger_grounder, md, verdict):
    c = pyledger_grounder.one(md)
    assert c.verdict == verdict, c.reason


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        # a data item set by a MOVE in the program is set; a group item nothing names again is unused
        ("`WS-REJECT-REASON` is never set anywhere in `BKACT01C`.", U),
        ("In `BKACT01C`, `WS-COUNTERS` is never used.", S),
        # a division in the actor's own paragraph, by the divisor the claim gives or another
        ("`2100-ADJUST-FOR-LEAP-YEAR` divides `LK-YYYY` by 400.", S),
        ("`2100-ADJUST-FOR-LEAP-YEAR` divides `LK-YYYY` by 7.", U),
        # a sentence about a paragraph speaks of data items in that paragraph's own code
        ("`1000-INITIALIZE` also displays `WS-UPD-STATUS`.", S),
        ("`9000-TERMINATE` also displays `WS-REJECT-REASON`.", U),
    ],
)
def test_never_set_divisions_and_the_paragraphs_own_items(bank_grounder, md, verdict):
    c = bank_grounder.one(md)
    assert c.verdict == verdict, c.reason
