"""The optional LLM claim extractor and verifier, against the loopback provider."""

from __future__ import annotations

import asyncio
import json

import pytest
from _fake_provider_helpers import CONFIG, FAST_RETRY, PROGRAM, QUESTIONS, api_keys, fake, fake_server, indexed, judge_config

from groundjudge.grounding.claims import MarkdownClaimExtractor
from groundjudge.grounding.index import load_index
from groundjudge.grounding.models import GroundingReport, Verdict, VerifierKind
from groundjudge.grounding.snapshot import snapshot_directory
from groundjudge.judging.cache import ResponseCache
from groundjudge.judging.config import Price
from groundjudge.judging.fakeprovider import Fault
from groundjudge.judging.judge import Budget, Endpoint, StructuredClient
from groundjudge.judging.limits import RateLimiter
from groundjudge.judging.llm_grounding import GroundingCaller, LLMClaimExtractor, LLMVerifier
from groundjudge.judging.models import FailureKind
from groundjudge.judging.runner import Runner, ScoreOptions
from groundjudge.storage import read_model

ANSWER = "BKX01C starts in `0000-MAIN`.\nThen it adds one to a counter for every record it sees.\n"


@pytest.fixture
def caller(fake, tmp_path):
    config = judge_config(fake, "openai-compatible", model="fake-small")
    return GroundingCaller(StructuredClient(config=config, policy=FAST_RETRY, cache=ResponseCache(tmp_path / "cache.sqlite")))


def test_extractor_builds_claims_with_refs(fake, caller):
    fake.add(
        Fault(
            arguments={
                "claims": [
                    {"text": "BKX01C  performs `1000-COUNT-RECORDS`.", "answer_line": 1},
                    {"text": "It adds one to WS-COUNT.", "answer_line": 40},
                ]
            }
        ),
        times=None,
    )
    extractor = LLMClaimExtractor(caller)
    claims = extractor.extract(ANSWER)
    assert extractor.name == "llm:fake-small"
    assert [(c.id, c.text, c.answer_line) for c in claims] == [
        ("c1", "BKX01C performs `1000-COUNT-RECORDS`.", 1),
        ("c2", "It adds one to WS-COUNT.", 2),  # line 40 clipped to the answer's 2 lines
    ]
    assert "1000-COUNT-RECORDS" in [r.value for r in claims[0].refs] and "calls" in claims[0].relations
    # The answer reached the model with numbered lines; a second extraction is replayed from the cache.
    assert "   1 | BKX01C starts in" in fake.requests[0]["messages"][1]["content"]
    extractor.extract(ANSWER)
    assert fake.total_requests == 1


def test_extractor_falls_back_when_the_call_fails(fake, caller):
    fake.add(Fault("refusal"), times=None)
    extractor = LLMClaimExtractor(caller)
    claims = extractor.extract(ANSWER)
    assert extractor.name.startswith("markdown-v1 (llm:fake-small failed: refusal")
    assert [c.id for c in claims] == ["c1", "c2"]  # the Markdown extractor's two sentences


def _held(reason: str = "ADD 1 TO WS-COUNT.") -> Fault:
    return Fault(arguments={"answers": [{"fact": 1, "answer": "held", "reason": reason, "cites": []}]})


def test_runner_llm_verify_is_off_by_default_and_cached(fake, api_keys, tmp_path):
    run = _one_answer_project(tmp_path, fake)
    fake.add(_held(), model="fake-small", times=None)
    plain = run()[1]
    assert all(c.verifier == "deterministic" for c in plain.claims)
    assert any(c.verdict == Verdict.UNABLE_TO_VERIFY for c in plain.claims)  # the counter sentence names nothing checkable
    small = f"v=openai-compatible:fake-small@{fake.openai_base_url}"
    with_llm = run(llm_verify=small)[1]
    # The counter sentence names nothing checkable: the model is asked about it as a whole.
    counter = with_llm.claims[-1]
    assert (counter.verdict, counter.verifier, counter.verifier_kind) == (Verdict.SUPPORTED, "llm:fake-small", VerifierKind.LLM)
    assert counter.reason.startswith("the claim as a whole held: ADD 1 TO WS-COUNT. (decided by the LLM verifier")
    # Its facts held: the model is asked to confirm the claim as a whole.
    assert (with_llm.claims[0].verdict, with_llm.claims[0].verifier) == (Verdict.SUPPORTED, "llm:fake-small")
    fake.clear()
    run(llm_verify=small)  # same answer, same grounders: the report is reused and nothing is called
    assert fake.total_requests == 0


def test_runner_llm_claims_failure_is_regrounded_next_run(fake, api_keys, tmp_path):
    run = _one_answer_project(tmp_path, fake)
    small = f"x=openai-compatible:fake-small@{fake.openai_base_url}"
    fake.add(Fault("truncated"), model="fake-small", times=1)
    failed = run(llm_claims=small)[1]
    assert failed.extractor.startswith("markdown-v1 (llm:fake-small failed: truncated output")
    fake.add(
        Fault(arguments={"claims": [{"text": "BKX01C starts in `0000-MAIN`.", "answer_line": 1}]}), model="fake-small", times=None
    )
    again = run(llm_claims=small)[1]
    assert again.extractor == "llm:fake-small" and [c.text for c in again.claims] == ["BKX01C starts in `0000-MAIN`."]


SMALL_PRICE = "[prices.fake-small]\ninput_per_mtok = 5.0\noutput_per_mtok = 50.0\n"


def _one_answer_project(tmp_path, fake, config: str = CONFIG, answer: str = ANSWER):
    """One answer (c/q01) about the one-program corpus, and a function that scores it with judge ``j`` and
    returns (summary, grounding report)."""
    (tmp_path / "corpus" / "cbl").mkdir(parents=True)
    (tmp_path / "corpus" / "cbl" / "BKX01C.cbl").write_text(PROGRAM)
    (tmp_path / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS))
    (tmp_path / "run" / "c" / "answers").mkdir(parents=True)
    (tmp_path / "run" / "c" / "answers" / "q01.md").write_text(answer)
    (tmp_path / "groundjudge.toml").write_text(config)

    def run(**kw):
        opts = ScoreOptions(
            run_dir=tmp_path / "run",
            corpus=str(tmp_path / "corpus"),
            questions=tmp_path / "questions.jsonl",
            judges=[f"j=openai:fake-gpt@{fake.openai_base_url}"],
            config=tmp_path / "groundjudge.toml",
            cache=tmp_path / "cache.sqlite",
            progress=False,
            **kw,
        )
        summary = Runner(opts, echo=lambda line: None).run()
        return summary, read_model(tmp_path / "run" / "c" / "grounding" / "q01.json", GroundingReport)

    return run


def test_llm_grounding_usage_is_recorded_and_counts_toward_budget(fake, api_keys, tmp_path):
    from groundjudge.judging.models import ScoreFile

    run = _one_answer_project(tmp_path, fake, CONFIG + SMALL_PRICE)
    small = f"v=openai-compatible:fake-small@{fake.openai_base_url}"
    fake.add(_held(), model="fake-small", times=None)
    # Any spend reaches a budget of $1e-9: the first verifier call goes out, nothing after it does.
    summary, _ = run(llm_verify=small, budget_usd=1e-9)
    sf = read_model(tmp_path / "run" / "c" / "scores" / "q01.json", ScoreFile)
    [llm] = sf.grounding.llm
    assert (llm.role, llm.model, llm.calls, llm.cache_hits) == ("verify", "fake-small", 1, 0)
    # cost = (input * $5 + output * $50) / 1e6, from the usage the server reported
    assert llm.usage.input_tokens > 0 and llm.cost_usd == pytest.approx(
        (llm.usage.input_tokens * 5 + llm.usage.output_tokens * 50) / 1e6
    )
    assert summary.llm_grounding_calls == 1 and summary.spent_usd == pytest.approx(llm.cost_usd)
    assert summary.llm_grounding_spent_usd == pytest.approx(llm.cost_usd)
    assert [j.error for j in sf.judgements] == ["budget reached: not submitted"] and summary.budget_refused == 1
    assert fake.counts == {"/v1/chat/completions": 1}
    from groundjudge.judging.manifest import RunManifest

    manifest = read_model(tmp_path / "run" / "manifest.json", RunManifest)
    assert (manifest.llm_verify.model, manifest.llm_verify.provider, manifest.llm_claims) == (
        "fake-small",
        "openai-compatible",
        None,
    )
    assert llm.failures == {FailureKind.BUDGET: 1}  # the second claim's call was not sent
    # Without a budget: the claim the budget refused is asked now, the other answered from the cache; the judge is called.
    fake.clear()
    summary, _ = run(llm_verify=small)
    again = read_model(tmp_path / "run" / "c" / "scores" / "q01.json", ScoreFile)
    [llm] = again.grounding.llm
    assert again.judged and (llm.calls, llm.cache_hits, llm.failures) == (1, 1, {}) and summary.llm_grounding_calls == 1
    assert [r["model"] for r in fake.requests] == ["fake-small", "fake-gpt"]


def test_runner_llm_verify_failure_is_asked_again_next_run(fake, api_keys, tmp_path):
    run = _one_answer_project(tmp_path, fake)
    small = f"v=openai-compatible:fake-small@{fake.openai_base_url}"
    fake.add(Fault("refusal"), model="fake-small", times=None)
    report = run(llm_verify=small)[1]
    failed = report.claims[-1]
    assert (failed.verifier, failed.verifier_kind, failed.verdict) == (
        "llm:fake-small (failed)",
        VerifierKind.LLM_FAILED,
        Verdict.UNABLE_TO_VERIFY,
    )
    assert "the LLM verifier failed: refusal" in failed.reason
    fake.clear()
    fake.add(_held(), model="fake-small", times=None)
    report = run(llm_verify=small)[1]
    assert fake.counts["/v1/chat/completions"] >= 1 and not any(c.verifier.endswith("(failed)") for c in report.claims)
    assert any(c.verifier == "llm:fake-small" and c.verdict == Verdict.SUPPORTED for c in report.claims)


class _CountingLimiter(RateLimiter):
    def __init__(self) -> None:
        super().__init__(rpm=1000)
        self.acquired: list[int] = []

    async def acquire(self, tokens: int = 0) -> None:
        self.acquired.append(tokens)
        await super().acquire(tokens)


def test_helper_calls_share_the_judges_client_path(fake, tmp_path, indexed):
    """The helpers' calls go through the judges' StructuredClient: the endpoint's limiter (--rpm/--tpm),
    one provider client and one event loop for every call, a typed failure tally, a typed verifier kind."""
    snap, index = indexed
    limiter = _CountingLimiter()
    client = StructuredClient(
        config=judge_config(fake, "openai-compatible", model="fake-small"),
        policy=FAST_RETRY,
        endpoint=Endpoint(asyncio.Semaphore(1), limiter),
    )
    caller = GroundingCaller(client, "verify")
    claim = MarkdownClaimExtractor().extract(ANSWER)[1]  # "Then it adds one ...": nothing checkable, BKX01C its context
    fake.add(_held(), times=1)
    first = LLMVerifier(caller).verify(claim, index, snap)
    provider_client = client._client
    fake.add(Fault("refusal"), times=1)
    second = LLMVerifier(caller).verify(claim, index, snap)
    try:
        assert (first.verifier_kind, second.verifier_kind) == (VerifierKind.LLM, VerifierKind.LLM_FAILED)
        assert len(limiter.acquired) == 2 and client._client is provider_client
        tally = caller.take_tally()
        assert (tally.calls, tally.failures) == (2, {FailureKind.REFUSAL: 1})
    finally:
        caller.close()
    assert client._client is None


def test_helper_stops_at_the_budget_and_tallies_failures_by_kind(fake, tmp_path):
    """A refused reply is billed; once that reaches the budget the helper's next call is not sent."""
    budget = Budget(limit_usd=1e-9)
    client = StructuredClient(
        config=judge_config(fake, "openai-compatible", model="fake-small"),
        policy=FAST_RETRY,
        price=Price(input_per_mtok=5.0, output_per_mtok=50.0),
        budget=budget,
    )
    caller = GroundingCaller(client, "claims")
    fake.add(Fault("refusal"), times=1)  # billed: the budget is reached by the first reply
    extractor = LLMClaimExtractor(caller)
    try:
        extractor.extract(ANSWER)
        assert extractor.failure is not None and extractor.failure.kind is FailureKind.REFUSAL
        extractor.extract("Another answer.\n")
        assert extractor.failure is not None and extractor.failure.kind is FailureKind.BUDGET
    finally:
        caller.close()
    assert fake.total_requests == 1 and budget.refused == 1
    assert caller.tally.failures == {FailureKind.REFUSAL: 1, FailureKind.BUDGET: 1}


def test_runner_asks_per_claim_and_counts_the_calls(fake, api_keys, tmp_path):
    """The claims with an unchecked fact, and the SUPPORTED ones as a whole, are asked, one call each, and the
    summary counts the calls."""
    answer = (
        "`0000-MAIN` performs `1000-COUNT-RECORDS`, presumably to count the records.\n\n"
        "`0000-MAIN` performs `1000-COUNT-RECORDS`.\n\n`1000-COUNT-RECORDS` returns `WS-COUNT`.\n"
    )
    run = _one_answer_project(tmp_path, fake, answer=answer)
    both = [{"fact": n, "answer": "held", "reason": "ADD 1 TO WS-COUNT.", "cites": []} for n in (1, 2)]
    fake.add(Fault(arguments={"answers": both}), model="fake-small", times=None)
    summary, report = run(llm_verify=f"v=openai-compatible:fake-small@{fake.openai_base_url}")
    assert [(c.verdict, c.verifier_kind) for c in report.claims] == [
        (Verdict.SUPPORTED, VerifierKind.LLM),
        (Verdict.SUPPORTED, VerifierKind.LLM),  # nothing unchecked: confirmed as a whole
        (Verdict.SUPPORTED, VerifierKind.LLM),  # a fact no checker reached, and the claim as a whole
    ]
    asked = [r for r in fake.requests if r["model"] == "fake-small"]
    assert len(asked) == 3 and summary.llm_grounding_calls == 3
    assert ['unknown "presumably"' in r["messages"][1]["content"] for r in asked] == [True, False, False]
    assert ["the claim as a whole" in r["messages"][1]["content"] for r in asked] == [False, True, True]
