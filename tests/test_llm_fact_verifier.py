"""The LLM verifier asked about each unchecked fact, against the strict loopback provider: its answers take
the facts' place and the deterministic rule (verify.decide) makes the verdict again."""

from __future__ import annotations

import json
from typing import get_args

import pytest
from _fake_provider_helpers import FAST_RETRY, fake, fake_server, indexed, judge_config
from _grounding_helpers import Grounder, fixture_grounder

from groundjudge.grounding.checks import Outcome
from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.fingerprint import grounder_fingerprint
from groundjudge.grounding.models import CheckOutcome, GroundingReport, Verdict, VerifiedClaim, VerifierKind
from groundjudge.grounding.verify import DeterministicVerifier, Verifier
from groundjudge.judging.cache import ResponseCache
from groundjudge.judging.fakeprovider import Fault
from groundjudge.judging.judge import StructuredClient
from groundjudge.judging.llm_grounding import OFF_SYSTEM, VERIFY_SYSTEM, GroundingCaller, LLMVerifier
from groundjudge.storage import read_model

HELD_AND_OPINION = "`0000-MAIN` performs `1000-COUNT-RECORDS`, presumably to count the records."
OPINION_ONLY = "`1000-COUNT-RECORDS` is probably slow."
RETURNS = "`1000-COUNT-RECORDS` returns `WS-COUNT`."  # a fact no checker reaches (returns: Python only)


@pytest.fixture
def verifier(fake, tmp_path):
    config = judge_config(fake, "openai-compatible", model="fake-small")
    client = StructuredClient(config=config, policy=FAST_RETRY, cache=ResponseCache(tmp_path / "cache.sqlite"))
    caller = GroundingCaller(client, "verify")
    yield LLMVerifier(caller)
    caller.close()


def _reply(*answers: tuple[int, str, str], cites: list[dict] | None = None) -> Fault:
    return Fault(arguments={"answers": [{"fact": n, "answer": a, "reason": r, "cites": cites or []} for n, a, r in answers]})


def _off(off: str, reason: str, where: str = "main") -> Fault:
    """A reply to the follow-up that asks what is off in a claim found partly held, and where."""
    return Fault(arguments={"off": off, "where": where, "reason": reason})


def _verify(verifier: LLMVerifier, indexed, text: str) -> VerifiedClaim:
    snap, index = indexed
    [claim] = MarkdownClaimExtractor().extract(text + "\n")
    return verifier.verify(claim, index, snap)


def test_held_answer_makes_a_claim_with_a_judgement_supported(fake, verifier, indexed):
    plain = _verify(DeterministicVerifier(), indexed, HELD_AND_OPINION)  # type: ignore[arg-type]
    assert plain.verdict is Verdict.UNABLE_TO_VERIFY
    opinion = next(c for c in plain.checks or [] if c.outcome is CheckOutcome.UNCHECKED)
    assert (opinion.fact, opinion.ruled, opinion.verifier_kind) == (1, True, VerifierKind.DETERMINISTIC)

    fake.add(_reply((1, "held", "It PERFORMs it once, to ADD 1 TO WS-COUNT."), cites=[{"excerpt": 2, "line": 11}]))
    out = _verify(verifier, indexed, HELD_AND_OPINION)
    assert (out.verdict, out.verifier, out.verifier_kind) == (Verdict.SUPPORTED, "llm:fake-small", VerifierKind.LLM)
    assert out.reason.startswith("0000-MAIN calls/performs 1000-COUNT-RECORDS (perform at cbl/BKX01C.cbl:8); ")
    assert (
        'unknown "presumably" held: It PERFORMs it once, to ADD 1 TO WS-COUNT. (decided by the LLM verifier, llm:fake-small)'
        in (out.reason)
    )
    answered = out.checks[3]  # type: ignore[index]
    assert (answered.fact, answered.outcome, answered.relation, answered.verifier_kind) == (
        1,
        CheckOutcome.HELD,
        True,
        VerifierKind.LLM,
    )
    # The cited line is the evidence, taken from the excerpt the model was shown.
    assert [(e.path, e.start_line, e.snippet.strip()) for e in answered.evidence] == [
        ("cbl/BKX01C.cbl", 11, "ADD 1 TO WS-COUNT.")
    ]
    # One call, showing the fact and the code the checks found (the fact has no subject of its own: all of it),
    # each excerpt widened to its paragraph: the PERFORM at line 8 is shown within 0000-MAIN, not on its own.
    [request] = fake.requests
    shown = request["messages"][1]["content"]
    assert 'Facts:\n1. unknown "presumably"\n' in shown
    assert "Excerpt 1 (cbl/BKX01C.cbl:7-9):\n    7 |        0000-MAIN.\n    8 |            PERFORM 1000-COUNT-RECORDS\n" in shown
    assert "Excerpt 2 (cbl/BKX01C.cbl:10-11)" in shown and "Excerpt 3" not in shown


def test_contradicted_answer_decides_by_the_same_rule(fake, verifier, indexed):
    fake.add(_reply((1, "contradicted", "Nothing says why.")), match="presumably")
    fake.add(_reply((1, "contradicted", "It is two lines long.")), match="probably")
    partly = _verify(verifier, indexed, HELD_AND_OPINION)
    assert partly.verdict is Verdict.PARTIALLY_SUPPORTED  # another fact of the claim held
    assert partly.reason.startswith('unknown "presumably" is contradicted: Nothing says why. (decided by the LLM verifier')
    alone = _verify(verifier, indexed, OPINION_ONLY)
    assert (alone.verdict, alone.verifier_kind) == (Verdict.UNSUPPORTED, VerifierKind.LLM)  # nothing else held
    assert fake.total_requests == 2


def test_facts_no_checker_reached_are_asked_too(fake, verifier, indexed):
    plain = _verify(DeterministicVerifier(), indexed, RETURNS)  # type: ignore[arg-type]
    assert plain.verdict is Verdict.SUPPORTED  # as applied, the unreached fact stays out of the rule
    unreached = plain.checks[-1]  # type: ignore[index]
    assert (unreached.outcome, unreached.ruled) == (CheckOutcome.UNCHECKED, False)
    assert unreached.message == 'no check settled returns(1000-COUNT-RECORDS, WS-COUNT) "returns"'

    fake.add(_reply((1, "contradicted", "It only adds 1 to WS-COUNT; a paragraph returns nothing.")), times=1)
    out = _verify(verifier, indexed, RETURNS)
    assert (out.verdict, out.verifier_kind) == (Verdict.UNSUPPORTED, VerifierKind.LLM)
    assert out.reason.startswith('returns(1000-COUNT-RECORDS, WS-COUNT) "returns" is contradicted: It only adds 1')
    # Its own excerpts: the code of its subject and object, as the name checks found them.
    shown = fake.requests[0]["messages"][1]["content"]
    assert '1. returns(1000-COUNT-RECORDS, WS-COUNT) "returns" (its code: excerpts 1, 2)' in shown
    # No line cited: the evidence is what the fact was shown of its own names, the paragraph and the item.
    assert [(e.start_line, e.end_line) for e in out.evidence[:2]] == [(10, 11), (5, 5)]


def test_cannot_tell_stays_unchecked(fake, verifier, indexed):
    fake.add(_reply((1, "cannot_tell", "Speed is not in the code.")), match="probably")
    fake.add(
        _reply((1, "cannot_tell", "A paragraph has no return value."), (2, "held", "It adds 1 to WS-COUNT.")), match="returns"
    )
    opinion = _verify(verifier, indexed, OPINION_ONLY)
    assert (opinion.verdict, opinion.verifier_kind) == (Verdict.UNABLE_TO_VERIFY, VerifierKind.DETERMINISTIC)
    assert opinion.reason.startswith('unknown "probably": the LLM verifier could not tell: Speed is not in the code.')
    # The unreached fact stays out of the rule, as the checks left it; the claim as a whole held.
    unreached = _verify(verifier, indexed, RETURNS)
    assert (unreached.verdict, unreached.verifier) == (Verdict.SUPPORTED, "llm:fake-small")
    record = next(c for c in unreached.checks or [] if c.fact == 0 and c.verifier_kind is VerifierKind.LLM)
    assert (record.outcome, record.ruled) == (CheckOutcome.UNCHECKED, False)


def test_a_supported_claim_is_asked_about_as_a_whole(fake, verifier, indexed):
    """Its facts held, but a claim says more than its facts: SUPPORTED stands only when the model finds the
    whole claim shown. The model's judgement of the whole is the verdict: contradicted (its core false) is
    UNSUPPORTED even beside a relation that held, partly (a detail off) PARTIALLY_SUPPORTED; a "cannot
    tell" (or no answer) leaves it UNABLE_TO_VERIFY, precision first."""
    text = "`0000-MAIN` performs `1000-COUNT-RECORDS` {}."
    fake.add(_reply((1, "held", "Line 8 PERFORMs it.")), match="once")
    fake.add(_reply((1, "contradicted", "Nothing displays the count.")), match="prints")
    fake.add(_reply((1, "partly", "It performs it, but from line 8, not line 9.")), match="line 9")
    fake.add(_off("place", "The PERFORM is on line 8."), match="<finding>")
    fake.add(_reply((1, "cannot_tell", "Nothing shows the file's size.")), match="thousand", times=None)
    confirmed = _verify(verifier, indexed, text.format("once"))
    assert (confirmed.verdict, confirmed.verifier_kind) == (Verdict.SUPPORTED, VerifierKind.LLM)
    assert "the claim as a whole held: Line 8 PERFORMs it." in confirmed.reason
    printed = _verify(verifier, indexed, text.format("and then prints the count"))
    assert (printed.verdict, printed.verifier_kind) == (Verdict.UNSUPPORTED, VerifierKind.LLM)
    assert printed.reason.startswith("the claim as a whole is contradicted: Nothing displays the count.")
    assert "0000-MAIN calls/performs 1000-COUNT-RECORDS" in printed.reason  # what held stays in the reason
    detail = _verify(verifier, indexed, text.format("on line 9"))
    assert (detail.verdict, detail.verifier_kind) == (Verdict.PARTIALLY_SUPPORTED, VerifierKind.LLM)
    assert detail.reason.startswith("the claim as a whole partly held: It performs it, but from line 8, not line 9.")
    unsure = _verify(verifier, indexed, text.format("for each of a thousand records"))
    assert unsure.verdict is Verdict.UNABLE_TO_VERIFY
    assert unsure.reason.startswith("the claim as a whole: the LLM verifier could not tell: Nothing shows the file's size.")
    # The question lists the whole claim after any fact left unchecked, and shows all the checks found.
    shown = fake.requests[0]["messages"][1]["content"]
    assert "Facts:\n1. the claim as a whole\n\nExcerpt 1 (cbl/BKX01C.cbl:7-9)" in shown


def test_what_is_off_in_a_claim_partly_held_is_asked_once_more(fake, verifier, indexed):
    """The rule counts a wrong value in what a claim chiefly states as its core being false, a wrong place,
    size or side step, or a false statement added to a main one that holds, as partly held. The model's
    "partly" is followed by one question, about its own finding: a value or name its main statement gives
    that is not the code's makes the claim contradicted, UNSUPPORTED; anything else leaves it
    PARTIALLY_SUPPORTED, and so does a follow-up that fails."""
    text = "`0000-MAIN` performs `1000-COUNT-RECORDS` {}."
    finding = "It performs 1000-COUNT-RECORDS, but it adds 1 to WS-COUNT, not 2."
    fake.add(_reply((1, "partly", finding)), match="adds 2")
    fake.add(_off("value", "WS-COUNT is increased by 1, not 2."), match="<finding>")
    value = _verify(verifier, indexed, text.format("and adds 2 to `WS-COUNT`"))
    assert (value.verdict, value.verifier_kind) == (Verdict.UNSUPPORTED, VerifierKind.LLM)
    assert value.reason.startswith(
        f"the claim as a whole is contradicted, a value it gives being wrong: {finding} "
        "(decided by the LLM verifier, llm:fake-small: WS-COUNT is increased by 1, not 2.)"
    )
    [verify, follow_up] = fake.requests
    assert (verify["messages"][0]["content"], follow_up["messages"][0]["content"]) == (VERIFY_SYSTEM, OFF_SYSTEM)
    claim = "`0000-MAIN` performs `1000-COUNT-RECORDS` and adds 2 to `WS-COUNT`."
    assert follow_up["messages"][1]["content"] == f"<claim>\n{claim}\n</claim>\n\n<finding>\n{finding}\n</finding>\n"

    # a wrong value in a statement added to a main one that holds leaves the claim partly held
    added = "It performs 1000-COUNT-RECORDS and then adds to WS-COUNT, but by 1, not 3."
    fake.add(_reply((1, "partly", added)), match="adds 3")
    fake.add(_off("value", "The added statement's increment is 1, not 3.", "added"), match="<finding>")
    side = _verify(verifier, indexed, text.format("and then adds 3 to `WS-COUNT`"))
    assert (side.verdict, side.verifier_kind) == (Verdict.PARTIALLY_SUPPORTED, VerifierKind.LLM)
    assert side.reason.startswith(f"the claim as a whole partly held: {added}")

    fake.add(_reply((1, "partly", "It performs it, but from line 8, not line 9.")), match="line 9")
    fake.add(_off("place", "The PERFORM is on line 8."), match="<finding>")
    place = _verify(verifier, indexed, text.format("on line 9"))
    assert place.verdict is Verdict.PARTIALLY_SUPPORTED
    assert place.reason.startswith("the claim as a whole partly held: It performs it, but from line 8, not line 9.")

    fake.add(_reply((1, "partly", finding)), match="adds 2")
    fake.add(Fault("status", status=500), match="<finding>", times=None)
    failed = _verify(verifier, indexed, text.format("and adds 2 to `WS-COUNT` each time"))  # not a cached call
    assert (failed.verdict, failed.verifier_kind) == (Verdict.PARTIALLY_SUPPORTED, VerifierKind.LLM)
    assert failed.reason.startswith(f"the claim as a whole partly held: {finding}")
    assert "; asking what is off failed: HTTP 500" in failed.reason
    # held, contradicted and cannot_tell are not followed up
    fake.add(_reply((1, "contradicted", "Nothing displays the count.")), match="prints")
    before = fake.total_requests
    _verify(verifier, indexed, text.format("and then prints the count"))
    assert fake.total_requests == before + 1


def test_one_call_per_claim_answers_each_fact_by_number(fake, verifier, indexed):
    """Two unchecked facts, one call; a fact the reply leaves out is a "cannot tell"."""
    fake.add(_reply((1, "contradicted", "Paragraphs return nothing."), (7, "held", "No such fact.")))
    out = _verify(verifier, indexed, "`1000-COUNT-RECORDS` returns `WS-COUNT`, presumably.")
    shown = fake.requests[0]["messages"][1]["content"]
    assert '1. returns(1000-COUNT-RECORDS, WS-COUNT) "returns"' in shown and '\n2. unknown "presumably"' in shown
    assert fake.total_requests == 1
    assert out.verdict is Verdict.UNSUPPORTED
    asked = sorted((c for c in out.checks or [] if c.verifier_kind is VerifierKind.LLM), key=lambda c: c.fact or 0)
    assert [(c.fact, c.outcome) for c in asked] == [(0, CheckOutcome.CONTRADICTED), (1, CheckOutcome.UNCHECKED)]
    assert asked[1].message == 'unknown "presumably": the LLM verifier gave no answer for it'


def test_failed_call_leaves_the_verdict_and_is_asked_again(fake, verifier, indexed):
    plain = _verify(DeterministicVerifier(), indexed, HELD_AND_OPINION)  # type: ignore[arg-type]
    fake.add(Fault("status", status=500), times=None)
    failed = _verify(verifier, indexed, HELD_AND_OPINION)
    assert failed.verdict is plain.verdict is Verdict.UNABLE_TO_VERIFY
    assert (failed.verifier, failed.verifier_kind) == ("llm:fake-small (failed)", VerifierKind.LLM_FAILED) and failed.llm_failed()
    assert failed.reason.startswith('unknown "presumably": unchecked, the LLM verifier failed: HTTP 500')
    assert failed.checks[3].outcome is CheckOutcome.UNCHECKED  # type: ignore[index]
    # Errors are never cached: the next run asks again.
    fake.clear()
    fake.add(_reply((1, "held", "ADD 1 TO WS-COUNT.")))
    again = _verify(verifier, indexed, HELD_AND_OPINION)
    assert again.verdict is Verdict.SUPPORTED and fake.total_requests == 1


def test_a_failed_call_leaves_a_supported_claim_supported(fake, verifier, indexed):
    fake.add(Fault("status", status=500), times=None)
    held = _verify(verifier, indexed, "`0000-MAIN` performs `1000-COUNT-RECORDS`.")
    assert (held.verdict, held.verifier_kind) == (Verdict.SUPPORTED, VerifierKind.LLM_FAILED) and held.llm_failed()


def test_no_call_beside_a_made_up_name(fake, verifier, indexed):
    # A made-up name decides UNSUPPORTED whatever the model would say about the judgement beside it.
    made_up = _verify(verifier, indexed, "`0000-MAIN` performs `9999-NOPE`, presumably.")
    assert made_up.verdict is Verdict.UNSUPPORTED
    assert fake.total_requests == 0


def test_the_worked_example_of_the_docs(fake, verifier):
    """docs/grounding.md, "The LLM verifier": a runtime claim the model contradicts from the method's code."""
    g = Grounder("pyledger")
    [claim] = MarkdownClaimExtractor().extract("`Ledger.transfer` silently swaps debit and credit when the amount is negative.\n")
    reason = "An amount <= 0 raises LedgerError; nothing swaps the accounts."
    fake.add(_reply((1, "contradicted", reason), cites=[{"excerpt": 1, "line": 62}, {"excerpt": 1, "line": 63}]))
    out = verifier.verify(claim, g.index, g.snapshot)
    shown = fake.requests[0]["messages"][1]["content"]
    assert 'Facts:\n1. unknown "silently"\n\nExcerpt 1 (pyledger/ledger.py:60-66):' in shown
    assert (out.verdict, out.verifier_kind) == (Verdict.UNSUPPORTED, VerifierKind.LLM)
    assert out.reason == (
        f'unknown "silently" is contradicted: {reason} (decided by the LLM verifier, llm:fake-small); '
        "Ledger.transfer is a method at pyledger/ledger.py:60-66"
    )
    assert [(e.path, e.start_line) for e in out.evidence[:2]] == [("pyledger/ledger.py", 62), ("pyledger/ledger.py", 63)]


def test_verifier_protocol_and_fingerprint(verifier):
    assert isinstance(verifier, Verifier) and verifier.name == "deterministic+llm:fake-small"
    # The prompt, reply schema, code, model and parameters make the fingerprint: another model, another grounder.
    config = verifier.caller.client.config.model_copy(update={"model": "m2"})
    other = LLMVerifier(GroundingCaller(StructuredClient(config=config, policy=FAST_RETRY)))
    assert len({grounder_fingerprint(), grounder_fingerprint(None, verifier), grounder_fingerprint(None, other)}) == 3


def test_recorded_outcomes_are_the_checkers_own_words():
    assert {o.value for o in CheckOutcome} == set(get_args(Outcome))


def test_a_report_from_before_checks_were_recorded_still_loads(tmp_path):
    old = {
        "schema_version": 1,
        "tool_version": "0",
        "corpus": {"name": "c", "tree_hash": "t"},
        "answer": {"path": "a.md", "sha256": "s"},
        "extractor": "markdown-v1",
        "claims": [{"id": "c1", "text": "x", "answer_line": 1, "verdict": "SUPPORTED", "reason": "r"}],
    }
    (tmp_path / "r.json").write_text(json.dumps(old))
    report = read_model(tmp_path / "r.json", GroundingReport)
    assert report.claims[0].checks is None and report.grounder is None  # so a run regrounds it


def test_the_claim_as_a_whole_is_shown_the_lines_it_cites_and_the_code_it_names(fake, verifier, indexed):
    fake.add(_reply((1, "held", "Line 8 PERFORMs it and line 11 adds 1.")))
    _verify(verifier, indexed, "`0000-MAIN` performs `1000-COUNT-RECORDS`, which adds 1 to `WS-COUNT` (`cbl/BKX01C.cbl:8`).")
    shown = fake.requests[0]["messages"][1]["content"]
    # The cited line within its paragraph, then the paragraph named (the cited one already holds 0000-MAIN);
    # what the checks found inside them is not shown again.
    # WS-COUNT, outside any paragraph, with the lines around it.
    excerpts = [line for line in shown.splitlines() if line.startswith("Excerpt ")]
    assert excerpts == [
        "Excerpt 1 (cbl/BKX01C.cbl:7-9):",
        "Excerpt 2 (cbl/BKX01C.cbl:10-11):",
        "Excerpt 3 (cbl/BKX01C.cbl:1-11):",
    ]


def test_an_excerpt_shows_its_code_unit_or_a_window_around_it(tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.models import Evidence
    from groundjudge.grounding.snapshot import snapshot_directory
    from groundjudge.judging.llm_grounding import AROUND, WIDE_LINES, _widened

    body = "".join(f"    x{n} = {n}\n" for n in range(100))
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "m.py").write_text("def short():\n    return 1\n\n\ndef long():\n" + body + "\nX = 1\n")
    index = load_index(snapshot_directory(tmp_path / "c"))

    def widened(line: int) -> tuple[int, int]:
        e = _widened(Evidence(path="m.py", start_line=line, end_line=line, snippet="", note="n"), index)
        return e.start_line, e.end_line

    assert widened(2) == (1, 2)  # a short function: all of it
    start, end = widened(95)  # far down a long one: a window holding the line, inside the function
    assert end - start + 1 == WIDE_LINES and 5 <= start <= 95 <= end <= 105
    assert widened(6)[0] == 5  # near its start: from its first line
    assert widened(107) == (107 - AROUND, 107)  # outside any function: the lines around it, to the file's end


def test_the_whole_claim_held_sets_aside_a_checks_contradiction(fake, verifier, indexed):
    """The checks read only 0000-MAIN's own lines ("never names WS-COUNT, so it does not write it"); the
    model, shown that report and the paragraph 0000-MAIN performs, finds the claim held: the contradiction
    stays in the record, out of the rule. Not settled by the model, the checks' verdict stands."""
    text = "`0000-MAIN` updates `WS-COUNT` through `1000-COUNT-RECORDS`{}."
    plain = _verify(DeterministicVerifier(), indexed, text.format(""))  # type: ignore[arg-type]
    assert plain.verdict is Verdict.PARTIALLY_SUPPORTED
    reported = "0000-MAIN never names WS-COUNT (cbl/BKX01C.cbl:7-9), so it does not write it"
    assert plain.reason.startswith(reported)
    fake.add(_reply((1, "held", "Line 8 PERFORMs 1000-COUNT-RECORDS, which adds 1 to WS-COUNT.")), match="through")
    held = _verify(verifier, indexed, text.format(""))
    assert (held.verdict, held.verifier_kind) == (Verdict.SUPPORTED, VerifierKind.LLM)
    aside = next(c for c in held.checks or [] if c.outcome is CheckOutcome.CONTRADICTED)
    assert not aside.ruled and aside.message.endswith("(set aside: the LLM verifier judged the claim as a whole held)")
    shown = fake.requests[0]["messages"][1]["content"]
    assert f"Reported by the automatic checks:\n- {reported}\n\nExcerpt 1" in shown  # the report, to judge
    assert "   11 |            ADD 1 TO WS-COUNT." in shown  # the paragraph it names
    fake.add(_reply((1, "cannot_tell", "Not shown.")), match="once")
    unsure = _verify(verifier, indexed, text.format(", once"))
    assert (unsure.verdict, unsure.verifier_kind) == (Verdict.PARTIALLY_SUPPORTED, VerifierKind.DETERMINISTIC)


def test_a_qualifier_off_is_put_to_the_model_with_the_claim(fake, verifier, indexed):
    """A cited range the checks find off is reported to the model, which judges it with the code: a cite
    that does show what the claim says (the checks' rule read it too narrowly) is held, SUPPORTED; one that
    misses it makes the claim partly held, PARTIALLY_SUPPORTED."""
    text = "`1000-COUNT-RECORDS` adds 1 to `WS-COUNT` (`cbl/BKX01C.cbl:7-8`){}."
    plain = _verify(DeterministicVerifier(), indexed, text.format(""))  # type: ignore[arg-type]
    reported = "1000-COUNT-RECORDS is at cbl/BKX01C.cbl:10-11, not at cbl/BKX01C.cbl:7-8"
    assert (plain.verdict, plain.reason.startswith(reported)) == (Verdict.PARTIALLY_SUPPORTED, True)
    fake.add(_reply((1, "held", "Line 8 performs it and line 11 adds 1.")), match="8`).")
    fake.add(_reply((1, "partly", "Line 11 adds 1, but lines 7-8 are 0000-MAIN.")), match="8`), once")
    fake.add(_off("place", "Lines 7-8 are 0000-MAIN."), match="<finding>")
    held = _verify(verifier, indexed, text.format(""))
    assert f"- {reported}" in fake.requests[0]["messages"][1]["content"]
    assert held.verdict is Verdict.SUPPORTED
    aside = next(c for c in held.checks or [] if c.outcome is CheckOutcome.MISMATCH)
    assert not aside.ruled and aside.message == f"{reported} (set aside: the LLM verifier judged the claim as a whole held)"
    partly = _verify(verifier, indexed, text.format(", once"))
    assert (partly.verdict, partly.verifier_kind) == (Verdict.PARTIALLY_SUPPORTED, VerifierKind.LLM)
    assert partly.reason.startswith("the claim as a whole partly held: Line 11 adds 1, but lines 7-8 are 0000-MAIN.")


def test_the_claim_as_a_whole_is_shown_where_its_names_are_used(fake, verifier, tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "limits.py").write_text("LIMIT = 3\n")
    (tmp_path / "c" / "check.py").write_text("from limits import LIMIT\n\n\ndef check(x):\n    return x < LIMIT\n")
    snap = snapshot_directory(tmp_path / "c")
    fake.add(_reply((1, "held", "check returns x < LIMIT.")))
    out = _verify(verifier, (snap, load_index(snap)), "`LIMIT` is the bound a value must stay under (`limits.py:1`).")
    assert out.verdict is Verdict.SUPPORTED
    shown = fake.requests[0]["messages"][1]["content"]
    # its definition, then its uses: the import, outside any function, with the lines around it, which hold
    # the use inside check as well
    excerpts = [line for line in shown.splitlines() if line.startswith("Excerpt ")]
    assert excerpts == ["Excerpt 1 (limits.py:1-1):", "Excerpt 2 (check.py:1-5):"]
    assert "    5 |     return x < LIMIT" in shown


def test_a_use_is_shown_where_code_uses_the_name_not_where_a_document_names_it(fake, verifier, tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "CHANGELOG.md").write_text("# Changes\n\n- `LIMIT` raised to 3.\n- `LIMIT` documented.\n")
    (tmp_path / "c" / "ci.yml").write_text("env:\n  LIMIT: 3\n")
    (tmp_path / "c" / "limits.py").write_text("LIMIT = 3\n")
    (tmp_path / "c" / "check.py").write_text("from limits import LIMIT\n\n\ndef check(x):\n    return x < LIMIT\n")
    snap = snapshot_directory(tmp_path / "c")
    fake.add(_reply((1, "held", "check returns x < LIMIT.")))
    _verify(verifier, (snap, load_index(snap)), "`LIMIT` is the bound a value must stay under (`limits.py:1`).")
    shown = fake.requests[0]["messages"][1]["content"]
    excerpts = [line for line in shown.splitlines() if line.startswith("Excerpt ")]
    # a changelog's or a CI file's line naming it is no use: the code's use takes the place
    assert excerpts == ["Excerpt 1 (limits.py:1-1):", "Excerpt 2 (check.py:1-5):"]


def test_code_that_runs_is_shown_before_declaration_files(fake, verifier, tmp_path):
    # `slots: bool = ...` in a stub shows no default: the definition that runs does
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "s" / "a").mkdir(parents=True)
    (tmp_path / "s" / "a" / "__init__.pyi").write_text("def define(slots: bool = ...) -> None: ...\n")
    (tmp_path / "s" / "a" / "_stubs.pyi").write_text("def define(slots: bool = ...) -> None: ...\n")
    (tmp_path / "s" / "a" / "make.py").write_text("def define(slots=True):\n    return slots\n")
    snap = snapshot_directory(tmp_path / "s")
    fake.add(_reply((1, "held", "define defaults slots to True.")))
    _verify(verifier, (snap, load_index(snap)), "`define` returns its `slots` flag unchanged.")
    shown = fake.requests[0]["messages"][1]["content"]
    excerpts = [line for line in shown.splitlines() if line.startswith("Excerpt ")]
    assert excerpts[0] == "Excerpt 1 (a/make.py:1-2):", excerpts


def test_a_short_file_the_claim_names_without_lines_is_shown_whole(fake, verifier, tmp_path):
    # "the `makefile` never defines X" is about all of the file: a short one is shown from its first line to its last
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "k").mkdir()
    (tmp_path / "k" / "cmd.c").write_text("#if USE_SOURCE\n#define DECLARATION_ONLY\n#endif\nint main(void) { return 0; }\n")
    (tmp_path / "k" / "makefile").write_text("CC=cc\n\nall:\n\t$(CC) -o cmd cmd.c\n")
    (tmp_path / "k" / "long.c").write_text("int x;\n" * 200)
    snap = snapshot_directory(tmp_path / "k")
    fake.add(_reply((1, "held", "The makefile sets only CC.")))
    claim = "The `makefile` never defines `USE_SOURCE`, so `cmd.c` does not define it either; `long.c` declares `x`."
    _verify(verifier, (snap, load_index(snap)), claim)
    shown = fake.requests[0]["messages"][1]["content"]
    excerpts = [line for line in shown.splitlines() if line.startswith("Excerpt ")]
    assert "Excerpt 1 (makefile:1-4):" in excerpts and "Excerpt 2 (cmd.c:1-4):" in excerpts, excerpts
    assert not any(e.startswith("Excerpt") and "long.c:1-200" in e for e in excerpts)


def _grow(tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "g").mkdir()
    (tmp_path / "g" / "grow.py").write_text(
        "LIMIT = 1048576\n\n\ndef grow(n):\n    if n < LIMIT:\n        return n * 2\n    return n + LIMIT\n"
    )
    snap = snapshot_directory(tmp_path / "g")
    return snap, load_index(snap)


@pytest.mark.parametrize(("answer", "verdict"), [("held", Verdict.SUPPORTED), ("contradicted", Verdict.UNSUPPORTED)])
@pytest.mark.parametrize(
    ("claim", "report"),
    [
        # a worked example's numbers are in no line of the code
        ("`grow` turns `614400` into `1228800`, as it is below `LIMIT`.", "1228800 does not appear in the snapshot"),
        # nor is a name given as a sample input or a worked-out result ("becomes `MULTI_WORD_KEY`", "such as `0x1F`")
        ("`grow` doubles a length below `LIMIT`, so `n` becomes `n_doubled`.", "n_doubled appears nowhere in the snapshot"),
        ("`grow` doubles lengths below `LIMIT`, such as `HEADER_LEN`.", "HEADER_LEN appears nowhere in the snapshot"),
        (
            "`grow` doubles lengths below `LIMIT`, e.g. `HEADER_LEN` or `TRAILER_LEN`.",
            "TRAILER_LEN appears nowhere in the snapshot",
        ),
        # or a file a sample input of the claim names as a parameter's value
        ("`grow` doubles lengths below `LIMIT`, so `size=10; name=a.txt` keeps `a.txt`.", "no file a.txt in the snapshot"),
    ],
)
def test_a_value_or_an_example_found_nowhere_is_put_to_the_model(fake, verifier, tmp_path, claim, report, answer, verdict):
    # the model is told it was found nowhere, and shown the code: it tells a right one from a wrong one
    fake.add(_reply((1, answer, "grow doubles a length below LIMIT.")))
    out = _verify(verifier, _grow(tmp_path), claim)
    shown = fake.requests[0]["messages"][1]["content"]
    assert "Reported by the automatic checks:" in shown and report in shown
    assert out.verdict is verdict, out.reason


def test_a_name_found_nowhere_is_still_not_put_to_the_model(fake, verifier, tmp_path):
    out = _verify(verifier, _grow(tmp_path), "`grow` turns `614400` into `1228800` through `grow_twice`.")
    assert out.verdict is Verdict.UNSUPPORTED
    assert fake.requests == []


def test_an_example_of_the_codes_own_things_is_a_name_it_says_the_code_has(fake, verifier, tmp_path):
    # "helpers such as `X`", "tests such as `Y`": set 40's made-up test name, which the model had found partly held
    out = _verify(verifier, _grow(tmp_path), "`grow` doubles lengths below `LIMIT` through helpers such as `grow_twice`.")
    assert out.verdict is Verdict.UNSUPPORTED and out.reason.startswith("grow_twice appears nowhere in the snapshot")
    assert fake.requests == []


def test_a_made_up_name_beside_an_example_is_not_put_to_the_model(fake, verifier, tmp_path):
    out = _verify(verifier, _grow(tmp_path), "`grow_twice` doubles lengths below `LIMIT`, such as `HEADER_LEN`.")
    assert out.verdict is Verdict.UNSUPPORTED
    assert fake.requests == []


def test_a_supported_claim_no_code_can_be_shown_for_is_not_confirmed(fake, verifier, tmp_path):
    # the checks hold it for a name the language supplies, but no line of the snapshot uses that name: with
    # nothing to show, no model confirms it, and SUPPORTED stands only when one does
    out = _verify(verifier, _grow(tmp_path), "The doubling is wrapped in `try`/`except ValueError`.")
    assert fake.requests == []
    assert out.verdict is Verdict.UNABLE_TO_VERIFY, out.reason
    assert out.reason.startswith("the claim as a whole: not put to the LLM verifier, since no code"), out.reason
    assert out.verifier_kind is VerifierKind.DETERMINISTIC


def _parse(tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "p" / "vendored").mkdir(parents=True)
    helper = "def _digits(s):\n    if not s.isdigit():\n        raise ValueError(s)\n    return int(s)\n"
    (tmp_path / "p" / "parse.py").write_text("def to_int(s):\n    return _digits(s)\n" + "\n" * 40 + helper)
    (tmp_path / "p" / "vendored" / "old.py").write_text(helper)  # a namesake elsewhere: not the code meant
    snap = snapshot_directory(tmp_path / "p")
    return snap, load_index(snap)


SIGN = "`to_int` rejects a leading sign."
NOT_SHOWN = "to_int returns `_digits(s)`, whose body is not in the excerpts."


def test_a_doubt_about_code_not_shown_is_asked_again_with_that_code(fake, verifier, tmp_path):
    # the first look shows to_int but not the helper it hands the string to; the model says so, naming it,
    # and is asked again with the helper's definition (from the file shown, not the namesake elsewhere)
    fake.add(
        _reply((1, "held", "_digits raises ValueError for a non-digit."), cites=[{"excerpt": 2, "line": 45}]), match="isdigit"
    )
    fake.add(_reply((1, "cannot_tell", NOT_SHOWN)))
    out = _verify(verifier, _parse(tmp_path), SIGN)
    assert fake.total_requests == 2
    first, second = (r["messages"][1]["content"] for r in fake.requests)
    assert "isdigit" not in first
    assert second.startswith(first) and "Excerpt 2 (parse.py:43-46):" in second and "old.py" not in second
    assert (out.verdict, out.verifier_kind) == (Verdict.SUPPORTED, VerifierKind.LLM), out.reason
    assert "the claim as a whole held: _digits raises ValueError" in out.reason
    # the line cited in the added excerpt is the evidence, beside the definition the checks found
    assert [(e.path, e.start_line) for e in out.evidence] == [("parse.py", 45), ("parse.py", 1)]


def test_a_failed_second_look_keeps_the_first_answers(fake, verifier, tmp_path):
    fake.add(Fault("status", status=500), match="isdigit", times=None)
    fake.add(_reply((1, "cannot_tell", NOT_SHOWN)), times=None)
    out = _verify(verifier, _parse(tmp_path), SIGN)
    assert fake.total_requests >= 2
    assert out.verdict is Verdict.UNABLE_TO_VERIFY
    assert out.reason.startswith(f"the claim as a whole: the LLM verifier could not tell: {NOT_SHOWN}")


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        # a detail found off in code it was shown: no doubt about what it was shown
        ("partly", "to_int calls `_digits`, but at line 2, not line 3."),
        # a doubt naming only code it was shown, or no code at all
        ("cannot_tell", "to_int is not shown doing anything with a sign."),
        ("cannot_tell", "Whether a sign is common in input is not shown by any code."),
    ],
)
def test_no_second_look_without_code_the_reason_names_and_no_excerpt_holds(fake, verifier, tmp_path, answer, reason):
    fake.add(_reply((1, answer, reason)), match="Facts:", times=None)
    _verify(verifier, _parse(tmp_path), SIGN)
    looks = [r["messages"][1]["content"] for r in fake.requests if r["messages"][0]["content"] == VERIFY_SYSTEM]
    assert len([u for u in looks if "no other line names them" not in u]) == 1  # the last look, every use, aside


def test_a_second_look_finds_the_names_a_reason_gives(tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory
    from groundjudge.judging.llm_grounding import _unshown

    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "RG.cbl").write_text(
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. RG.\n       PROCEDURE DIVISION.\n"
        "       R3100-00-ZERA.\n           PERFORM R4600-00-SELECT.\n"
        "       R4600-00-SELECT.\n           DISPLAY 'X'.\n"
    )
    (tmp_path / "m" / "conv.go").write_text(
        "package m\n\nfunc toNumberE(i any) int {\n\treturn 0\n}\n\nfunc Load() {}\n\nfunc load() {}\n"
    )
    snap = snapshot_directory(tmp_path / "m")
    index = load_index(snap)

    def found(reason: str) -> list[tuple[str, int]]:
        return [(e.path, e.start_line) for e in _unshown([reason], [], index)]

    # a camel-case name, a capitalised one inside a sentence, a paragraph by its number
    assert found("ToIntE goes through toNumberE, which is not shown.") == [("conv.go", 3)]
    assert found("Overload differs, but Load is not in these excerpts.") == [("conv.go", 7)]
    assert found("R4600's body is not in the excerpts.") == [("RG.cbl", 6)]
    # a plain word is English, and so is a capital that starts a sentence, unless backticked
    assert found("Load is not shown; load is not either.") == []
    assert found("`load` is not shown.") == [("conv.go", 9)]


def test_a_second_look_takes_a_type_the_reason_names_not_an_attribute(tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory
    from groundjudge.judging.llm_grounding import _unshown

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "arrow.py").write_text(
        "class Arrow:\n    def now(self):\n        return 1\n\n\nclass Clock:\n    def now(self):\n        return 2\n"
    )
    snap = snapshot_directory(tmp_path / "a")
    index = load_index(snap)

    def found(reason: str) -> list[int]:
        return [e.start_line for e in _unshown([reason], [], index)]

    # a class's method, of that class only
    assert found("`Clock.now` is not shown.") == [7]
    # through an attribute (`self.type`), whose type the reason does not say: either
    assert found("`self.type.now()` is not in the excerpts.") == [2, 7]


def test_a_second_look_shows_where_a_unit_shown_in_part_goes_on_to_name_a_name(tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory
    from groundjudge.judging.llm_grounding import _lines, _unshown

    (tmp_path / "l").mkdir()
    body = "".join(f"    step_{n}(data)\n" for n in range(80))
    (tmp_path / "l" / "load.py").write_text(
        "def post_load(data):\n    return data\n\n\ndef do_load(data):\n" + body + "    # post_load runs last\n"
        "    if not errors:\n        data = post_load(data)\n    return data\n"
    )
    snap = snapshot_directory(tmp_path / "l")
    index = load_index(snap)
    shown = [_lines(index, "load.py", 5, 64)]  # do_load's first 60 lines, as a widened excerpt shows them

    def found(reason: str) -> list[tuple[int, int]]:
        return [(e.start_line, e.end_line) for e in _unshown([reason], shown, index)]

    # the branch past the lines shown, around its first mention in code (not the comment), before the definition
    assert found("The shown part of `do_load` stops before the `post_load` branch.") == [(76, 89), (1, 2)]
    # a name the shown part already holds, or one the unit never names, adds nothing from it
    assert found("`step_3` is not shown.") == []


def test_a_second_look_shows_a_further_use_of_a_name_whose_definition_is_shown(tmp_path):
    from groundjudge.judging.llm_grounding import _lines, _unshown

    # v18, from set 16's blinker: "the method that checks is_muted is not shown" after the attribute's set-up
    # and the context manager that toggles it were; the method that reads it is where the claim is settled
    signal = (
        "class Signal:\n    def __init__(self):\n        self.is_muted = False\n\n"
        "    def muted(self):\n        self.is_muted = True\n\n"
        "    def send(self, sender):\n        # is_muted skips every receiver\n        if self.is_muted:\n"
        "            return []\n        return [sender]\n"
    )
    other = "def is_muted():\n    return False\n\n\nflag = is_muted()\n"
    index = fixture_grounder(tmp_path / "b", {"signal.py": signal, "other.py": other}).index
    shown = [_lines(index, "signal.py", 1, 6)]

    def found(reason: str) -> list[tuple[str, int, int]]:
        return [(e.path, e.start_line, e.end_line) for e in _unshown([reason], shown, index)]

    # the use in the file shown, widened to its method (the comment is no use), before another file's
    # definition and use of a namesake
    assert found("The method that checks is_muted is not shown.") == [("other.py", 1, 2), ("signal.py", 8, 12)]
    # a name with no use outside what was shown and its definitions adds no use
    assert found("`muted` is not in the excerpts.") == []


def test_a_claim_left_unable_to_verify_by_a_typed_fact_is_asked_about_as_a_whole(fake, verifier, indexed, tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    # the fact left unchecked is a package no index reads, not an opinion: held, it says nothing of the rest of
    # the claim, whose judgement ("flexible") no judgement word marked; only the claim as a whole can make it
    # SUPPORTED, and the model cannot tell
    (tmp_path / "u").mkdir()
    (tmp_path / "u" / "usage.go").write_text('package u\n\nimport "text/template"\n\nvar t = template.New("usage")\n')
    snap = snapshot_directory(tmp_path / "u")
    fake.add(_reply((1, "held", "usage.go imports it."), (2, "cannot_tell", "Whether it is flexible is a judgement.")))
    out = _verify(verifier, (snap, load_index(snap)), "Driving the output through `text/template` is a flexible design.")
    shown = fake.requests[0]["messages"][1]["content"]
    assert "Facts:\n1. defined-at(text/template)" in shown and "\n2. the claim as a whole" in shown
    assert out.verdict is Verdict.UNABLE_TO_VERIFY, out.reason
    # an opinion's judgement word still keeps the claim as a whole from being asked
    fake.clear()
    fake.add(_reply((1, "cannot_tell", "Speed is not in the code.")))
    _verify(verifier, indexed, OPINION_ONLY)
    assert "the claim as a whole" not in fake.requests[0]["messages"][1]["content"]


def test_an_opinion_the_model_cannot_tell_about_sets_the_checks_relation_reports_aside(fake, verifier, indexed):
    """An opinion's prose read as a relation the checks contradict: the model, shown the report, could not
    tell about the claim as a whole, so the report is set aside and the opinion is UNABLE_TO_VERIFY. A claim
    with no judgement keeps the checks' verdict when the model cannot tell, and a made-up name in an opinion is
    never asked about: made up is made up."""
    opinion = "`1000-COUNT-RECORDS` performs `0000-MAIN`, which is probably the cleanest design."
    fake.add(_reply((1, "cannot_tell", "Design is not code."), (2, "cannot_tell", "A judgement.")), match="cleanest")
    out = _verify(verifier, indexed, opinion)
    assert (out.verdict, out.verifier_kind) == (Verdict.UNABLE_TO_VERIFY, VerifierKind.DETERMINISTIC)
    aside = next(c for c in out.checks or [] if not c.ruled and c.outcome is CheckOutcome.CONTRADICTED)
    assert aside.message.endswith("(set aside: the LLM verifier could not tell about the claim as a whole, a judgement)"), (
        aside.message
    )
    assert "Reported by the automatic checks:" in fake.requests[0]["messages"][1]["content"]

    fake.add(_reply((1, "cannot_tell", "Nothing shown settles it.")), match="performs `0000-MAIN`.")
    plain = _verify(verifier, indexed, "`1000-COUNT-RECORDS` performs `0000-MAIN`.")
    assert plain.verdict is Verdict.UNSUPPORTED

    before = fake.total_requests
    made_up = _verify(verifier, indexed, "`1000-COUNT-RECORDS` performs `9999-MADE-UP`, probably the cleanest design.")
    assert made_up.verdict is Verdict.UNSUPPORTED and fake.total_requests == before


def test_a_fact_the_model_objects_to_beside_the_whole_claim_held_is_set_aside(fake, verifier, indexed):
    """The model holds the claim as a whole and objects to one typed fact: the objection is to the fact as the
    extractor paired it, not to the claim, which is SUPPORTED. An opinion's fact still counts (above)."""
    fake.add(
        _reply((1, "contradicted", "A paragraph returns nothing."), (2, "held", "It counts into WS-COUNT, its result.")),
        match="returns",
    )
    out = _verify(verifier, indexed, RETURNS)
    assert (out.verdict, out.verifier_kind) == (Verdict.SUPPORTED, VerifierKind.LLM)
    objected = next(c for c in out.checks or [] if c.fact == 0 and c.verifier_kind is VerifierKind.LLM)
    assert (objected.outcome, objected.ruled) == (CheckOutcome.CONTRADICTED, False)
    assert objected.message.endswith("(set aside: the LLM verifier judged the claim as a whole held)")


def test_a_claim_saying_only_where_a_name_is_is_never_contradicted_once_the_name_is_found(fake, verifier, indexed):
    """Its names found, what a claim that says only where they are gives wrong is the place: a qualifier off,
    PARTIALLY_SUPPORTED, whatever word the model used for it. A claim stating more keeps the model's answer."""
    reason = "1000-COUNT-RECORDS is at lines 10-11; lines 2-3 hold the PROGRAM-ID."
    fake.add(_reply((1, "contradicted", reason)), match="is at")
    place = _verify(verifier, indexed, "`1000-COUNT-RECORDS` is at `cbl/BKX01C.cbl:2-3`.")
    assert (place.verdict, place.verifier_kind) == (Verdict.PARTIALLY_SUPPORTED, VerifierKind.LLM)
    assert place.reason.startswith(
        "the claim as a whole partly held, the claim saying only where names the snapshot has are: "
        f"{reason} (decided by the LLM verifier, llm:fake-small)"
    )
    fake.add(_reply((1, "contradicted", "It adds 1, not 2.")), match="adds 2")
    more = _verify(verifier, indexed, "`1000-COUNT-RECORDS` adds 2 to `WS-COUNT` (`cbl/BKX01C.cbl:10-11`).")
    assert more.verdict is Verdict.UNSUPPORTED


def _indexed(tmp_path, name: str, text: str):
    """A snapshot of one file, and its index."""
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "s").mkdir()
    (tmp_path / "s" / name).write_text(text)
    snap = snapshot_directory(tmp_path / "s")
    return snap, load_index(snap)


def _slug(tmp_path):
    doc = "".join(f"    line {n} of a long docstring\n" for n in range(70))
    return _indexed(
        tmp_path,
        "slug.py",
        'DEFAULT_SEPARATOR = "-"\n\n\ndef join(parts):\n    return DEFAULT_SEPARATOR.join(parts)\n\n\n'
        "def split(text):\n    return text.split(DEFAULT_SEPARATOR)\n\n\n"
        f'def slugify(text, stopwords=()):\n    """Make a slug; stopwords are left out.\n{doc}    """\n'
        "    text = text.lower()\n"
        "    words = [w for w in text.split(DEFAULT_SEPARATOR) if w not in stopwords]\n"
        "    return DEFAULT_SEPARATOR.join(words)\n",
    )


STOPWORDS = "Stopwords are removed by splitting the text on `DEFAULT_SEPARATOR`."


def test_a_claim_still_in_doubt_for_want_of_code_is_shown_where_its_words_meet(fake, verifier, tmp_path):
    """The code that does what a claim says may name none of its names (here `slugify`): the model, still
    unable to tell for want of code, is asked once more with the units where most of the claim's words meet,
    each at the lines where they are densest (the code, not the docstring that lists the parameters)."""
    fake.add(_reply((1, "held", "slugify splits on DEFAULT_SEPARATOR and drops stopwords.")), match="if w not in stopwords")
    fake.add(_reply((1, "cannot_tell", "No excerpt shows where stopwords are removed.")))
    out = _verify(verifier, _slug(tmp_path), STOPWORDS)
    assert fake.total_requests == 2
    first, last = (r["messages"][1]["content"] for r in fake.requests)
    assert "if w not in stopwords" not in first
    added = last[len(first) :]
    assert last.startswith(first) and added.lstrip("\n").startswith("Excerpt 2 (slug.py:28-87):")
    assert "Make a slug" not in added and "if w not in stopwords" in added
    assert (out.verdict, out.verifier_kind) == (Verdict.SUPPORTED, VerifierKind.LLM), out.reason


def test_a_doubt_about_a_judgement_is_not_shown_more_code(fake, verifier, tmp_path):
    fake.add(_reply((1, "cannot_tell", "Whether removing stopwords this way is wise is an opinion.")), times=None)
    out = _verify(verifier, _slug(tmp_path), STOPWORDS)
    assert fake.total_requests == 1
    assert out.verdict is Verdict.UNABLE_TO_VERIFY


def test_where_a_claims_words_meet_names_or_numbers_lead_unless_the_unit_is_in_its_file(tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.models import Claim
    from groundjudge.grounding.snapshot import snapshot_directory
    from groundjudge.judging.llm_grounding import _meeting

    (tmp_path / "t").mkdir()
    loop = "    while True:\n        start = text.find('<!--')\n        # an unclosed comment stops the loop\n        break\n"
    (tmp_path / "t" / "strip.py").write_text(f"def striptags(text):\n{loop}    return text\n")
    (tmp_path / "t" / "other.py").write_text(f"def other(text):\n{loop}    return text\n")
    (tmp_path / "t" / "rows.py").write_text("def skip(row):\n    return row.product in (7705, 7716)\n")
    index = load_index(snapshot_directory(tmp_path / "t"))

    def met(text: str, context: str | None = None) -> list[str]:
        [claim] = MarkdownClaimExtractor().extract(text + "\n")
        claim = Claim(**{**claim.model_dump(), "context": context})
        return [e.path for e in _meeting(claim, [], index)]

    prose = "An unclosed comment stops the loop."
    assert met(prose) == []  # prose alone leads nowhere: the same words are in two files
    assert met(prose, "strip.py") == ["strip.py"]  # but the file the claim is about is where it looks
    assert met("It skips the products 7705 and 7716.") == ["rows.py"]  # a number of two digits or more is a value


@pytest.mark.parametrize(
    ("reason", "doubt"),
    [
        ("The currsize property is not among the excerpts.", True),
        ("The excerpts stop before the code that fills the header.", True),
        ("Nothing in this call's excerpts shows that it returns 1.", True),
        ("None of the excerpts shows start() choosing it.", True),
        ("The cited lines never show UEPFSETA holding '$'.", True),
        ("Only TTLCache is shown deriving from it.", True),
        ("The excerpts show neither the header nor the whole program.", True),
        # a detail found off in code it was shown
        ("It adds 1, not 2, and the excerpts do show the ADD.", False),
        ("REG-SIZE is 36, not 18 (line 56).", False),
        # a judgement no code settles, which more code would not settle either
        ("It tests only status 10, but calling that risky is a judgement the code cannot settle.", False),
    ],
)
def test_a_partly_held_whose_reason_says_code_was_not_shown_is_a_doubt(reason, doubt):
    from groundjudge.judging.llm_grounding import FactAnswer, _doubts, _FactReply

    assert bool(_doubts({1: _FactReply(fact=1, answer=FactAnswer.PARTLY, reason=reason)})) is doubt


def test_an_opinion_naming_a_thing_it_sets_the_code_against_is_unable_to_verify(fake, verifier, indexed):
    """A name found nowhere that an opinion sets the code against ("instead of `X`") is no made-up name of the
    code: the model is asked, and its `cannot_tell` about the judgement leaves it UNABLE_TO_VERIFY. A made-up name
    the claim says the code has is still never asked about."""
    contrast = "Counting in `1000-COUNT-RECORDS` instead of calling `CBL_COUNT_ALL` is probably slow."
    fake.add(
        _reply((1, "cannot_tell", "Whether it is slow is a judgement."), (2, "cannot_tell", "Whether it is slow is a judgement."))
    )
    out = _verify(verifier, indexed, contrast)
    assert (out.verdict, fake.total_requests) == (Verdict.UNABLE_TO_VERIFY, 1), out.reason
    made_up = _verify(verifier, indexed, "`1000-COUNT-RECORDS` calls `CBL_COUNT_ALL`, which is probably slow.")
    assert (made_up.verdict, fake.total_requests) == (Verdict.UNSUPPORTED, 1)


def _unused(tmp_path):
    from groundjudge.grounding.index import load_index
    from groundjudge.grounding.snapshot import snapshot_directory

    (tmp_path / "u").mkdir()
    (tmp_path / "u" / "fmt.py").write_text(
        "def _pad(text):\n    return text + ' '\n\n\ndef show(text):\n    # _pad was used here once\n    return text.strip()\n"
    )
    calls = "".join(f"    show('{n}')\n" for n in range(25))
    (tmp_path / "u" / "cli.py").write_text(f"from fmt import show\n\n\ndef main():\n{calls}")
    snap = snapshot_directory(tmp_path / "u")
    return snap, load_index(snap)


NEVER_CALLED = "`_pad` is never called, and `show` does its own trimming."


def test_a_claim_still_in_doubt_for_want_of_code_is_shown_every_use_of_its_names(fake, verifier, tmp_path):
    """No excerpt of some code shows that other code lacks something: a claim still in doubt for want of code
    is asked once more with every line of code naming its names (comments aside), listed with their text as all
    of them, and the lines around them. A name used in more than EVERY_USE lines is not listed: a partial list
    would settle nothing."""
    fake.add(_reply((1, "held", "Only line 1 of fmt.py names _pad, its definition.")), match="no other line names them")
    fake.add(_reply((1, "cannot_tell", "The excerpts do not show all the code, so whether _pad is called is not shown.")))
    out = _verify(verifier, _unused(tmp_path), NEVER_CALLED)
    *_, last = (r["messages"][1]["content"] for r in fake.requests)
    listed = last.split("no other line names them:\n", 1)[1].split("\n\n", 1)[0]
    assert listed == "- `_pad` (1 line):\n    fmt.py:1 | def _pad(text):"  # `show`: 27 lines of code, more than EVERY_USE
    assert (out.verdict, out.verifier_kind) == (Verdict.SUPPORTED, VerifierKind.LLM), out.reason


def test_no_use_look_when_every_name_is_used_too_often(fake, verifier, tmp_path):
    fake.add(_reply((1, "cannot_tell", "The excerpts do not show where show is called from.")), times=None)
    out = _verify(verifier, _unused(tmp_path), "`show` is called once for each of 25 numbers.")
    assert not any("no other line names them" in r["messages"][1]["content"] for r in fake.requests)
    assert out.verdict is Verdict.UNABLE_TO_VERIFY


def test_a_value_or_relation_off_in_any_cell_of_a_table_row_is_its_core(fake, verifier, indexed):
    """A table row is one record: each cell is what the row states about its subject, none a statement added
    to another. So a value, or a relation, off in any cell makes the row contradicted, wherever the model says
    it sits; a size or a place off is still a qualifier."""
    table = "| Paragraph | Performs | Adds |\n|---|---|---|\n| `0000-MAIN` | `1000-COUNT-RECORDS` | {} to `WS-COUNT` |"

    def row(cell: str, off: str, where: str) -> VerifiedClaim:
        snap, index = indexed
        fake.add(_reply((1, "partly", f"The row's {cell} is off.")), match=cell)
        fake.add(_off(off, f"The {cell} cell is off.", where), match=f"row's {cell}")
        [claim] = MarkdownClaimExtractor().extract(table.format(cell) + "\n")
        assert " | " in claim.text  # the row's cells, joined
        return verifier.verify(claim, index, snap)

    value = row("7772", "value", "added")
    assert value.verdict is Verdict.UNSUPPORTED
    assert value.reason.startswith("the claim as a whole is contradicted, a value it gives being wrong: The row's 7772 is off.")
    relation = row("7773", "relation", "added")
    assert relation.verdict is Verdict.UNSUPPORTED
    assert relation.reason.startswith("the claim as a whole is contradicted, a relation its row states being wrong")
    assert row("7774", "size", "main").verdict is Verdict.PARTIALLY_SUPPORTED
    # a relation off outside a table is a side step: partly held
    fake.add(_reply((1, "partly", "It adds to WS-COUNT, but not after it performs 1000-COUNT-RECORDS.")), match="then adds")
    fake.add(_off("relation", "The order is off.", "main"), match="<finding>")
    prose = _verify(verifier, indexed, "`0000-MAIN` performs `1000-COUNT-RECORDS` and then adds 1 to `WS-COUNT`.")
    assert prose.verdict is Verdict.PARTIALLY_SUPPORTED


def test_an_opinion_asked_about_alone_is_shown_the_lines_it_cites(tmp_path):
    """A claim left UNABLE_TO_VERIFY by a judgement word is asked only about its unchecked facts, whose own code
    (here `TABL-DEMO`'s declaration) is shown; the lines it cites are what it is about, so they are shown too."""
    from groundjudge.judging.llm_grounding import _bundle, questions

    notes = "".join(f"      * note {n}\n" for n in range(150))
    snap, index = _indexed(
        tmp_path,
        "demo.cob",
        "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. DEMO.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n       01 TABL-DEMO PIC X(40) OCCURS 5.\n       PROCEDURE DIVISION.\n"
        f"{notes}       10-SHOW.\n           MOVE 'DISPLAY X' TO TABL-DEMO (1).\n           PERFORM 20-PAINT.\n"
        "       20-PAINT.\n           DISPLAY TABL-DEMO (1).\n",
    )
    text = "Each demo moves the statement it is about to run into `TABL-DEMO` and performs `20-PAINT` (`demo.cob:157-159`).\n"
    [claim] = MarkdownClaimExtractor().extract(text)
    first = DeterministicVerifier().verify(claim, index, snap)
    asked = questions(first)
    assert first.verdict is Verdict.UNABLE_TO_VERIFY and all(q.at is not None for q in asked)  # no whole-claim question
    shown = _bundle(first, asked, index)
    assert any(e.path == "demo.cob" and e.start_line <= 157 and e.end_line >= 159 for e in shown)
