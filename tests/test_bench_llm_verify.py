"""bench/bench_llm_verify.py: the LLM verifier's calls written out, and answered from a file of replies by
the call's id, with the verdict made by the verifier's own rule."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from _fake_provider_helpers import fake, fake_server, indexed

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.models import Verdict, VerifierKind
from groundjudge.judging.fakeprovider import Fault
from groundjudge.judging.llm_grounding import LLMVerifier

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
import bench_llm_verify as bench

RETURNS = "`1000-COUNT-RECORDS` returns `WS-COUNT`."  # a fact no checker reaches (returns: Python only)


def _verify(caller: bench.FileCaller, indexed, text: str):
    snap, index = indexed
    [claim] = MarkdownClaimExtractor().extract(text + "\n")
    return LLMVerifier(caller).verify(claim, index, snap)  # type: ignore[arg-type]


def test_a_call_is_recorded_and_fails_without_a_reply(indexed):
    caller = bench.FileCaller("m")
    out = _verify(caller, indexed, RETURNS)
    assert (out.verdict, out.verifier_kind) == (Verdict.SUPPORTED, VerifierKind.LLM_FAILED)
    [call] = caller.calls.values()
    assert call["id"] == bench.call_id(call["system"], call["user"])
    assert '1. returns(1000-COUNT-RECORDS, WS-COUNT) "returns"' in call["user"]


def test_the_reply_of_the_calls_id_decides(indexed):
    asked = bench.FileCaller("m")
    _verify(asked, indexed, RETURNS)
    [key] = asked.calls
    reply = {"answers": [{"fact": 1, "answer": "contradicted", "reason": "A paragraph returns nothing.", "cites": []}]}
    caller = bench.FileCaller("m", {key: reply})
    out = _verify(caller, indexed, RETURNS)
    assert (out.verdict, out.verifier, caller.answered) == (Verdict.UNSUPPORTED, "llm:m", 1)
    assert "is contradicted: A paragraph returns nothing. (decided by the LLM verifier, llm:m)" in out.reason


def test_a_reply_outside_the_schema_is_a_failed_call(indexed):
    asked = bench.FileCaller("m")
    _verify(asked, indexed, RETURNS)
    [key] = asked.calls
    caller = bench.FileCaller("m", {key: {"answers": [{"fact": 1, "answer": "probably"}]}})
    out = _verify(caller, indexed, RETURNS)
    assert (out.verdict, out.verifier_kind, caller.answered, caller.invalid) == (
        Verdict.SUPPORTED,
        VerifierKind.LLM_FAILED,
        0,
        [key],
    )


@pytest.mark.parametrize(
    ("lines", "error"),
    [
        (['{"id": "a", "reply": {}}', "{oops"], "replies.jsonl:2: not JSON: Expecting property name enclosed in double quotes"),
        (['{"id": "a"}'], 'replies.jsonl:1: expected an object with an "id" and a "reply"'),
        (['{"id": "a", "reply": {}}', '{"id": "a", "reply": {}}'], "replies.jsonl:2: a second reply to call a"),
    ],
)
def test_bad_replies_file_stops_with_its_line(tmp_path, lines, error):
    path = tmp_path / "replies.jsonl"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(SystemExit) as exc:
        bench.read_replies(path)
    assert str(exc.value) == f"{path}:{error.split(':', 1)[1]}"


def test_a_missing_replies_file_is_named(tmp_path):
    with pytest.raises(SystemExit) as exc:
        bench.read_replies(tmp_path / "none.jsonl")
    assert str(exc.value) == f"{tmp_path / 'none.jsonl'}: no such file"


def test_replies_by_id(tmp_path):
    path = tmp_path / "replies.jsonl"
    path.write_text(json.dumps({"id": "a", "reply": {"answers": []}}) + "\n\n" + json.dumps({"id": "b", "reply": {}}) + "\n")
    assert bench.read_replies(path) == {"a": {"answers": []}, "b": {}}


def test_a_real_model_is_asked_through_the_judges_client(fake, tmp_path, indexed):
    """--model: the calls go to the model (here the loopback provider), through the response cache."""
    reply = {"answers": [{"fact": 1, "answer": "contradicted", "reason": "It adds to WS-COUNT.", "cites": []}]}
    fake.add(Fault(arguments=reply), model="fake-small", times=None)
    spec = f"v=openai-compatible:fake-small@{fake.openai_base_url}"
    for _ in (1, 2):
        caller = bench.model_caller(spec, None, tmp_path / "cache.sqlite")
        out = _verify(caller, indexed, RETURNS)
        caller.close()
        assert (out.verdict, out.verifier) == (Verdict.UNSUPPORTED, "llm:fake-small")
    assert fake.total_requests == 1  # the second run is answered from the cache
