"""The failure policy against the loopback provider, through the real SDKs and instructor."""

from __future__ import annotations

import time

import pytest
from _fake_provider_helpers import (
    DEFAULT_SCORES,
    DEFAULT_TOTAL,
    FAST_RETRY,
    api_keys,
    fake,
    fake_server,
    judge_config,
    make_judge,
    run_judge,
)

from groundjudge.judging.config import Price, RetryPolicy
from groundjudge.judging.fakeprovider import Fault
from groundjudge.judging.judge import Budget

PROVIDERS = ["openai", "anthropic"]
PATH = {"openai": "/v1/chat/completions", "anthropic": "/v1/messages"}


def assert_error(judgement, *needles: str) -> None:
    # A failure is recorded, carries no scores, and is never a zero.
    assert judgement.error is not None
    for needle in needles:
        assert needle in judgement.error, judgement.error
    assert judgement.scores is None and judgement.total is None
    assert not judgement.valid


@pytest.mark.parametrize("provider", PROVIDERS)
def test_valid_reply_is_scored(fake, api_keys, provider):
    j = run_judge(make_judge(judge_config(fake, provider)))
    assert j.valid and j.error is None
    assert j.scores == DEFAULT_SCORES
    assert j.total == DEFAULT_TOTAL
    assert j.rationale == "Scripted reply from the fake provider."
    assert j.usage.input_tokens > 0 and j.usage.output_tokens > 0
    assert j.cached is False
    assert fake.counts[PATH[provider]] == 1


def test_openai_request_carries_schema_and_sampling_params(fake, api_keys):
    run_judge(make_judge(judge_config(fake, "openai")))
    req = fake.requests[0]
    # max_completion_tokens: OpenAI's current name for the cap (max_tokens is refused by reasoning models).
    assert req["temperature"] == 0 and req["seed"] == 7 and req["max_completion_tokens"] == 512 and "max_tokens" not in req
    assert req["tool_choice"]["function"]["name"] == req["tools"][0]["function"]["name"] == "submit_judgement"
    assert req["parallel_tool_calls"] is False
    props = req["tools"][0]["function"]["parameters"]["properties"]
    assert props["accuracy"]["maximum"] == 30 and props["usefulness"]["maximum"] == 20


def test_anthropic_request_has_no_temperature(fake, api_keys):
    # The Anthropic SDK 2.x Messages API takes no temperature or seed; only max_tokens is sent.
    run_judge(make_judge(judge_config(fake, "anthropic")))
    req = fake.requests[0]
    assert req["max_tokens"] == 512 and "temperature" not in req and "seed" not in req
    assert req["tool_choice"] == {"type": "tool", "name": "submit_judgement", "disable_parallel_tool_use": True}
    assert req["tools"][0]["name"] == "submit_judgement"
    assert req["tools"][0]["input_schema"]["properties"]["traceability"]["maximum"] == 25


@pytest.mark.parametrize("provider", PROVIDERS)
def test_500_retried_then_succeeds(fake, api_keys, provider):
    fake.add(Fault("status", status=500), times=2)
    j = run_judge(make_judge(judge_config(fake, provider)))
    assert j.valid and j.total == DEFAULT_TOTAL
    assert fake.counts[PATH[provider]] == 3  # two 500s, then the success


@pytest.mark.parametrize("provider", PROVIDERS)
def test_500_exhausts_attempts(fake, api_keys, provider):
    fake.add(Fault("status", status=503), times=None)
    j = run_judge(make_judge(judge_config(fake, provider)))
    assert_error(j, "HTTP 503", "gave up after 3 attempts")
    assert fake.counts[PATH[provider]] == FAST_RETRY.max_attempts


def test_sdk_retries_are_off(fake, api_keys):
    # With one attempt allowed, exactly one request reaches the server: the SDK adds none of its own.
    once = FAST_RETRY.model_copy(update={"max_attempts": 1})
    fake.add(Fault("status", status=500), times=None)
    j = run_judge(make_judge(judge_config(fake, "openai"), policy=once))
    assert_error(j, "HTTP 500", "gave up after 1 attempt")
    assert fake.total_requests == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_429_honours_retry_after(fake, api_keys, provider):
    fake.add(Fault("status", status=429, retry_after=0.3), times=1)
    started = time.perf_counter()
    j = run_judge(make_judge(judge_config(fake, provider)))
    elapsed = time.perf_counter() - started
    assert j.valid
    assert fake.counts[PATH[provider]] == 2
    # The policy's own backoff is 0.01 s; only honouring Retry-After makes the run take 0.3 s.
    assert elapsed >= 0.3


def test_429_exhausted_is_recorded(fake, api_keys):
    fake.add(Fault("status", status=429, retry_after=0.01), times=None)
    j = run_judge(make_judge(judge_config(fake, "openai")))
    assert_error(j, "HTTP 429", "gave up after 3 attempts")
    assert fake.total_requests == 3


def test_total_time_bound_stops_retries(fake, api_keys):
    # Retry-After 0.5 s but only 0.2 s allowed in all: no second attempt is started.
    policy = RetryPolicy(max_attempts=5, max_total_s=0.2, initial_wait_s=0.01, max_wait_s=0.05, jitter_s=0.0)
    fake.add(Fault("status", status=429, retry_after=0.5), times=None)
    j = run_judge(make_judge(judge_config(fake, "openai"), policy=policy))
    assert_error(j, "HTTP 429", "gave up after 1 attempt")
    assert fake.total_requests == 1


@pytest.mark.parametrize("provider", PROVIDERS)
def test_timeout_is_retried_then_recorded(fake, api_keys, provider):
    fake.add(Fault("ok", delay=0.6), times=None)
    j = run_judge(make_judge(judge_config(fake, provider, timeout_s=0.15)))
    assert_error(j, "timeout", "gave up after 3 attempts")
    assert fake.counts[PATH[provider]] == 3


def test_timeout_then_success(fake, api_keys):
    fake.add(Fault("ok", delay=0.6), times=1)
    j = run_judge(make_judge(judge_config(fake, "openai", timeout_s=0.15)))
    assert j.valid and fake.total_requests == 2


def test_connection_refused_is_retried(fake, api_keys):
    config = judge_config(fake, "openai").model_copy(update={"base_url": "http://127.0.0.1:9/v1"})
    j = run_judge(make_judge(config))
    assert_error(j, "connection error", "gave up after 3 attempts")


# Output faults are not transient: one request each, recorded, never re-asked.
@pytest.mark.parametrize(
    "provider,kind,needle",
    [
        ("openai", "malformed_body", "malformed output"),
        ("anthropic", "malformed_body", "malformed output"),
        ("openai", "malformed_args", "malformed output"),
        ("openai", "truncated", "truncated output"),
        ("anthropic", "truncated", "truncated output"),
        ("openai", "schema_violation", "schema violation: accuracy"),
        ("anthropic", "schema_violation", "schema violation: accuracy"),
        ("openai", "out_of_range", "out-of-range score: accuracy"),
        ("anthropic", "out_of_range", "out-of-range score: accuracy"),
        ("openai", "refusal", "refusal"),
        ("anthropic", "refusal", "refusal"),
    ],
)
def test_output_faults_are_recorded_not_retried(fake, api_keys, provider, kind, needle):
    fake.add(Fault(kind), times=None)
    budget = Budget()
    j = run_judge(make_judge(judge_config(fake, provider), price=Price(input_per_mtok=1.0, output_per_mtok=10.0), budget=budget))
    assert_error(j, needle)
    assert fake.counts[PATH[provider]] == 1
    # A reply that arrived is billed even when it is unusable: its tokens and cost are recorded and spent.
    if kind == "malformed_body":
        assert j.usage.input_tokens == 0 and j.cost_usd is None and budget.spent_usd == 0
    else:
        assert j.usage.input_tokens > 0 and j.usage.output_tokens > 0
        assert j.cost_usd == pytest.approx((j.usage.input_tokens * 1.0 + j.usage.output_tokens * 10.0) / 1e6)
        assert budget.spent_usd == j.cost_usd


def test_out_of_range_value_is_named(fake, api_keys):
    fake.add(Fault("out_of_range"), times=1)
    j = run_judge(make_judge(judge_config(fake, "openai")))
    assert "(got 31)" in j.error  # accuracy max 30, the fake sends max + 1


def test_http_400_is_not_retried(fake, api_keys):
    fake.add(Fault("status", status=400), times=None)
    j = run_judge(make_judge(judge_config(fake, "openai")))
    assert_error(j, "HTTP 400")
    assert fake.total_requests == 1


def test_missing_credentials_make_no_call(fake, monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    j = run_judge(make_judge(judge_config(fake, "anthropic")))
    assert_error(j, "missing credentials: set ANTHROPIC_API_KEY")
    assert fake.total_requests == 0


def test_openai_compatible_needs_no_key(fake, monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    j = run_judge(make_judge(judge_config(fake, "openai-compatible")))
    assert j.valid and fake.counts["/v1/chat/completions"] == 1


def test_command_line_fault_specs():
    from groundjudge.judging.fakeprovider import parse_fault

    fault, rule = parse_fault("status,status=429,retry_after=1.5,times=3,model=m2")
    assert (fault.kind, fault.status, fault.retry_after, rule) == ("status", 429, 1.5, {"times": 3, "model": "m2"})
    fault, rule = parse_fault("refusal,match=q05,delay=0.5")
    assert (fault.kind, fault.delay, rule) == ("refusal", 0.5, {"times": None, "match": "q05"})
    assert parse_fault("truncated,times=inf")[1] == {"times": None}
    for bad, needle in [
        ("nope", "unknown fault kind"),
        ("refusal,colour=red", "unknown fault option"),
        ("refusal,q05", "key=value"),
    ]:
        with pytest.raises(ValueError, match=needle):
            parse_fault(bad)
