"""When is a name fabricated? Only when it is nowhere in the snapshot: not a name the language supplies
(a special register, an attention key), not a copybook name filled in by COPY ... REPLACING, not a prefix
of names, not an attribute chain used in the code; a name nowhere at all stays UNSUPPORTED."""

from __future__ import annotations

import pytest

from groundjudge.grounding.index.registry import special_names
from groundjudge.grounding.models import Verdict

S, P, U = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED


@pytest.fixture
def bank(bank_grounder):
    return bank_grounder


@pytest.fixture
def py(pyledger_grounder):
    return pyledger_grounder


def test_special_names_come_from_the_language_data():
    assert {"RETURN-CODE", "TALLY", "PF12", "CLEAR"} <= special_names()


def test_a_special_register_found_past_the_first_page_of_search_hits(bank):
    c = bank.one("`BKTRN02C` moves 12 to `RETURN-CODE` when an open fails.")
    assert c.verdict is not U, c.reason
    assert "RETURN-CODE appears nowhere" not in c.reason


def test_an_attention_key_named_in_prose_is_no_fabrication(bank):
    c = bank.one("`BKMNU01C` ends the session on PF3 and ignores PF12.")
    assert "PF12 appears nowhere" not in c.reason
    assert c.verdict is not U


def test_a_placeholder_name_of_a_copybook(bank):
    c = bank.one("`BKDATEWS` declares `:TAG:-DATE-AREA` (`cpy/BKDATEWS.cpy:6`).")
    assert c.verdict is S, c.reason


def test_a_name_made_by_copy_replacing_resolves_to_the_placeholder(bank):
    c = bank.one("`WS-CURR-DATE-R` is `PIC X(8)`.")
    assert c.verdict is P, c.reason  # the item exists (:TAG:-CURR-DATE-R), it has no PIC of its own
    assert "appears nowhere" not in c.reason
    assert bank.one("`WS-CURR-DAY-OF-WEEK` holds the weekday.").verdict is U


def test_a_prefix_of_names(bank):
    assert bank.one("The date fields of `BKDATEWS` all start with `WS-CURR-` in `BKTRN02C`.").verdict is not U


def test_a_prefix_nothing_starts_with_is_fabricated(bank):
    assert bank.one("The fields of `BKDATEWS` all start with `ZZ-NOWHERE-`.").verdict is U


def test_an_attribute_chain_used_together_in_the_code(py):
    c = py.one("A posting's account is compared as `posting.account.code` in the ledger.")
    assert c.verdict is S, c.reason
    assert py.one("A posting's account is compared as `posting.account.iban` in the ledger.").verdict is U


def test_a_module_chain_still_needs_its_file(py):
    assert py.one("The journal code is the module `pyledger.journal`.").verdict is U


# --- a relation on a data item: the subject must use it in its own span -------------------------------


def test_a_relation_on_a_data_item_the_subject_uses(bank):
    c = bank.one("In `BKTRN02C`, `1000-OPEN-FILES` stores the date in `WS-CURR-DATE`.")
    assert c.verdict is S, c.reason
    assert c.evidence[0].path == "cbl/BKTRN02C.cbl" and c.evidence[0].start_line == 85


def test_a_relation_on_a_data_item_the_subject_never_names(bank):
    c = bank.one("In `BKTRN02C`, `9000-CLOSE-FILES` writes `WS-DALY-STATUS`.")
    assert c.verdict is U, c.reason
    assert c.reason.startswith("9000-CLOSE-FILES never names WS-DALY-STATUS (cbl/BKTRN02C.cbl:197-")
