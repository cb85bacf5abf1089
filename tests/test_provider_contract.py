"""The providers' request contract, proved offline: the loopback provider refuses what the real services
refuse (HTTP 400 in each one's error shape), and every request the engine sends passes it, for every
model family the capability table knows; replies with no, two or another tool's call are errors."""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
from _fake_provider_helpers import FAST_RETRY, api_keys, fake, fake_server, judge_config, make_judge
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.errors import UserError
from groundjudge.judging.cache import ResponseCache
from groundjudge.judging.config import JudgeEntry, JudgingConfig, load_config, parse_judge_spec, select_judges
from groundjudge.judging.fakeprovider import Fault
from groundjudge.judging.models import FailureKind
from groundjudge.judging.prompts import judgement_schema
from groundjudge.rubrics import load_rubric

SCHEMA = judgement_schema(load_rubric("reference-free"))
DIMS = ["accuracy", "completeness", "traceability", "usefulness"]


def run(judge):
    async def go():
        try:
            return await judge.judge("system text", "user text", "p" * 64, SCHEMA, DIMS)
        finally:
            await judge.aclose()

    return asyncio.run(go())


# -- the stand-in refuses what the services refuse ---------------------------------------------------


def _openai_request(**over):
    body = {
        "model": "gpt-4.1",
        "messages": [{"role": "user", "content": "hi"}],
        "max_completion_tokens": 10,
        "tools": [{"type": "function", "function": {"name": "submit_judgement", "parameters": {"type": "object"}}}],
        "tool_choice": {"type": "function", "function": {"name": "submit_judgement"}},
    }
    body.update(over)
    return {k: v for k, v in body.items() if v is not None}


def _anthropic_request(**over):
    body = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 10,
        "system": "s",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "submit_judgement", "input_schema": {"type": "object"}}],
        "tool_choice": {"type": "tool", "name": "submit_judgement"},
    }
    body.update(over)
    return {k: v for k, v in body.items() if v is not None}


OPENAI_BROKEN = [
    (
        "tool name with spaces",
        dict(
            tools=[{"type": "function", "function": {"name": "Judgement on rubric reference-free"}}],
            tool_choice={"type": "function", "function": {"name": "Judgement on rubric reference-free"}},
        ),
        "Invalid 'tools[0].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    ),
    (
        "tool name of 65 characters",
        dict(tools=[{"type": "function", "function": {"name": "x" * 65}}], tool_choice=None),
        "string too long. Expected a string with maximum length 64",
    ),
    (
        "tool_choice names a tool not sent",
        dict(tool_choice={"type": "function", "function": {"name": "RubricJudgement"}}),
        "function 'RubricJudgement' is not among the tools provided",
    ),
    ("tool_choice without tools", dict(tools=None), "'tool_choice' is only allowed when 'tools' are specified"),
    (
        "o-series and parallel_tool_calls",
        dict(model="o3-mini", parallel_tool_calls=False),
        "Unsupported parameter: 'parallel_tool_calls' is not supported with this model.",
    ),
    (
        "reasoning model and max_tokens",
        dict(model="gpt-5", max_completion_tokens=None, max_tokens=10),
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
    ),
    (
        "reasoning model and temperature 0",
        dict(model="o3", temperature=0),
        "Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.",
    ),
    ("temperature above 2", dict(temperature=2.5), "Invalid 'temperature': decimal above maximum value. Expected a value <= 2"),
    ("unknown argument", dict(top_k=3), "Unrecognized request argument supplied: top_k"),
]

ANTHROPIC_BROKEN = [
    (
        "tool name with spaces",
        dict(tools=[{"name": "Judgement on rubric reference-free", "input_schema": {"type": "object"}}], tool_choice=None),
        "tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'",
    ),
    (
        "tool_choice names a tool not sent",
        dict(tool_choice={"type": "tool", "name": "RubricJudgement"}),
        "Tool 'RubricJudgement' not found",
    ),
    (
        "duplicate tool names",
        dict(tools=[{"name": "a", "input_schema": {}}, {"name": "a", "input_schema": {}}], tool_choice=None),
        "tools: Tool names must be unique.",
    ),
    ("no max_tokens", dict(max_tokens=None), "max_tokens: Field required"),
    (
        "system as a message",
        dict(messages=[{"role": "system", "content": "s"}, {"role": "user", "content": "hi"}]),
        'Unexpected role "system"',
    ),
    (
        "first message from the assistant",
        dict(messages=[{"role": "assistant", "content": "a"}, {"role": "user", "content": "b"}]),
        'first message must use the "user" role',
    ),
    (
        "two user turns in a row",
        dict(messages=[{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]),
        'roles must alternate between "user" and "assistant"',
    ),
    ("temperature above 1", dict(temperature=1.5), "temperature: Input should be less than or equal to 1"),
    ("seed", dict(seed=7), "seed: Extra inputs are not permitted"),
]


@pytest.mark.parametrize("case,over,message", OPENAI_BROKEN, ids=[c[0] for c in OPENAI_BROKEN])
def test_stand_in_refuses_what_openai_refuses(fake, case, over, message):
    reply = httpx.post(
        f"{fake.openai_base_url}/chat/completions", json=_openai_request(**over), headers={"authorization": "Bearer k"}
    )
    assert reply.status_code == 400
    error = reply.json()["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["type"] == "invalid_request_error"
    assert message in error["message"]


@pytest.mark.parametrize("case,over,message", ANTHROPIC_BROKEN, ids=[c[0] for c in ANTHROPIC_BROKEN])
def test_stand_in_refuses_what_anthropic_refuses(fake, case, over, message):
    reply = httpx.post(
        f"{fake.anthropic_base_url}/v1/messages",
        json=_anthropic_request(**over),
        headers={"x-api-key": "k", "anthropic-version": "2023-06-01"},
    )
    assert reply.status_code == 400
    body = reply.json()
    assert body["type"] == "error" and body["error"]["type"] == "invalid_request_error"
    assert message in body["error"]["message"]


def test_stand_in_accepts_well_formed_requests(fake):
    ok = httpx.post(f"{fake.openai_base_url}/chat/completions", json=_openai_request(), headers={"authorization": "Bearer k"})
    assert ok.status_code == 200
    ok = httpx.post(
        f"{fake.anthropic_base_url}/v1/messages",
        json=_anthropic_request(),
        headers={"x-api-key": "k", "anthropic-version": "2023-06-01"},
    )
    assert ok.status_code == 200 and not fake.refused


# -- what the engine sends passes, for every family -------------------------------------------------

FAMILIES = [
    ("openai", "gpt-4.1", {"max_completion_tokens": 512, "temperature": 0.0, "seed": 7, "parallel_tool_calls": False}),
    ("openai", "o3-mini", {"max_completion_tokens": 512}),
    ("openai", "gpt-5", {"max_completion_tokens": 512, "parallel_tool_calls": False}),
    (
        "openai-compatible",
        "qwen2.5-7b-instruct",
        {"max_tokens": 512, "temperature": 0.0, "seed": 7, "parallel_tool_calls": False},
    ),
    ("anthropic", "claude-sonnet-4-5", {"max_tokens": 512}),
]
SENT = ("max_tokens", "max_completion_tokens", "temperature", "seed", "parallel_tool_calls")


@pytest.mark.parametrize("provider,model,params", FAMILIES, ids=[f[1] for f in FAMILIES])
def test_every_family_gets_a_valid_judgement(fake, api_keys, provider, model, params):
    j = run(make_judge(judge_config(fake, provider, model=model)))
    assert j.valid, j.error
    assert not fake.refused
    req = fake.requests[0]
    assert {k: req[k] for k in SENT if k in req} == params
    if provider == "anthropic":
        assert req["tools"][0]["name"] == req["tool_choice"]["name"] == "submit_judgement"
        assert "Judgement on rubric reference-free" in req["tools"][0]["description"]
    else:
        assert req["tools"][0]["function"]["name"] == req["tool_choice"]["function"]["name"] == "submit_judgement"


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize(
    "kind,needle",
    [
        ("two_tool_calls", "malformed output: the reply has 2 tool calls, not one"),
        ("wrong_tool", "malformed output"),
        ("no_tool_call", "malformed output"),
    ],
)
def test_a_reply_that_is_not_one_call_of_the_tool_is_an_error(fake, api_keys, provider, kind, needle):
    fake.add(Fault(kind), times=None)
    j = run(make_judge(judge_config(fake, provider)))
    assert not j.valid and j.scores is None and j.total is None
    assert j.error_kind is FailureKind.MALFORMED
    assert needle in j.error and "\n" not in j.error and len(j.error) <= 240


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_trickling_reply_is_cut_at_the_attempt_deadline(fake, api_keys, provider):
    # One byte every 50 ms: the whole reply would take about a minute; the SDK's timeout bounds each
    # read only, so without a deadline of its own the attempt waits for all of it.
    fake.add(Fault("trickle", byte_interval=0.05), times=None)
    once = FAST_RETRY.model_copy(update={"max_attempts": 1})
    started = time.monotonic()
    j = run(make_judge(judge_config(fake, provider, timeout_s=0.5), policy=once))
    assert time.monotonic() - started < 5
    assert not j.valid and j.error_kind is FailureKind.TRANSIENT and "timeout" in j.error


def test_the_total_cap_bounds_the_attempt_in_flight(fake, api_keys):
    fake.add(Fault("trickle", byte_interval=0.05), times=None)
    capped = FAST_RETRY.model_copy(update={"max_total_s": 0.5})
    started = time.monotonic()
    j = run(make_judge(judge_config(fake, "openai", timeout_s=30), policy=capped))
    assert time.monotonic() - started < 5 and not j.valid and "timeout" in j.error


def test_a_cached_reply_that_fails_todays_validation_is_a_cache_miss(fake, api_keys, tmp_path):
    cache = ResponseCache(tmp_path / "cache.sqlite")
    judge = make_judge(judge_config(fake, "openai"), cache=cache)
    bad = {"accuracy": 31, "completeness": 1, "traceability": 1, "usefulness": 1, "rationale": "r"}
    cache.put(judge.key("system text", "user text", SCHEMA), "openai", "fake-model", bad, 10, 10)
    j = run(judge)
    assert j.valid and not j.cached and fake.total_requests == 1 and judge.counters.stale_cache == 1
    again = run(make_judge(judge_config(fake, "openai"), cache=cache))
    assert again.valid and again.cached and fake.total_requests == 1  # the fresh reply replaced the stale one
    cache.close()


def judge_in_turn(judge, n):
    """n judgements of different prompts by one judge, one after the other (so its health sees each)."""

    async def go():
        try:
            return [await judge.judge("s", f"user {i}", "p" * 64, SCHEMA, DIMS) for i in range(n)]
        finally:
            await judge.aclose()

    return asyncio.run(go())


def test_a_judge_refused_three_times_alike_is_stopped(fake, api_keys):
    fake.add(Fault("status", status=404), times=None)
    out = judge_in_turn(make_judge(judge_config(fake, "openai"), concurrency=1), 6)
    assert fake.total_requests == 3
    assert [j.error_kind for j in out] == [FailureKind.REFUSED_REQUEST] * 3 + [FailureKind.JUDGE_STOPPED] * 3
    assert out[3].error.startswith("not submitted: judge stopped after its first 3 calls were all refused with HTTP 404")


def test_different_refusals_do_not_stop_a_judge(fake, api_keys):
    fake.add(Fault("status", status=400), times=1)
    fake.add(Fault("status", status=404), times=1)
    fake.add(Fault("status", status=400), times=1)
    out = judge_in_turn(make_judge(judge_config(fake, "openai"), concurrency=1), 4)
    assert fake.total_requests == 4 and out[3].valid


# -- parameters a model refuses are reported before the run --------------------------------------------


@pytest.mark.parametrize(
    "entry,needle",
    [
        (
            JudgeEntry(name="c", provider="anthropic", model="claude-sonnet-4-5", temperature=0.2),
            "Anthropic models take only their default temperature",
        ),
        (JudgeEntry(name="g", provider="openai", model="gpt-5", temperature=0.0), "take only their default temperature"),
        (
            JudgeEntry(name="g", provider="openai", model="gpt-4.1", temperature=2.5),
            "OpenAI takes a temperature from 0 to 2, not 2.5",
        ),
    ],
)
def test_a_temperature_the_model_refuses_is_an_error_before_any_call(entry, needle):
    with pytest.raises(UserError, match="would be refused") as info:
        JudgingConfig(judges=[entry]).resolve(entry, "groundjudge.toml")
    assert needle in str(info.value) and str(info.value).startswith("groundjudge.toml: judge")


def test_the_default_temperature_is_left_out_for_models_that_take_none(tmp_path):
    judges = select_judges(load_config(cwd=tmp_path), ["g=openai:gpt-5", "o=openai:o4-mini"])
    assert [j.sampling_params() for j in judges] == [{"max_completion_tokens": 1024}] * 2


def test_a_judge_spec_with_two_base_urls_is_refused():
    with pytest.raises(UserError, match="holds '@'"):
        parse_judge_spec("x=openai:gpt-4.1@http://127.0.0.1:1/v1@x")


# -- groundjudge judges check --------------------------------------------------------------------------


def test_judges_check_prints_ok_or_the_providers_error(fake, api_keys):
    fake.add(Fault("status", status=400), model="broken-model", times=None)
    result = CliRunner(env={"COLUMNS": "200"}).invoke(
        app,
        [
            "judges",
            "check",
            "--judge",
            f"good=openai:gpt-4.1@{fake.openai_base_url}",
            "--judge",
            f"claude=anthropic:claude-sonnet-4-5@{fake.anthropic_base_url}",
            "--judge",
            f"bad=openai:broken-model@{fake.openai_base_url}",
        ],
    )
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[0].startswith("good (openai gpt-4.1): OK (total 73")
    assert lines[1].startswith("claude (anthropic claude-sonnet-4-5): OK")
    assert lines[2] == "bad (openai broken-model): FAILED: HTTP 400: scripted 400"


def test_judges_check_passes_when_every_judge_answers(fake, api_keys):
    result = CliRunner().invoke(app, ["judges", "check", "--judge", f"good=openai:o3@{fake.openai_base_url}"])
    assert result.exit_code == 0 and "good (openai o3): OK" in result.stdout
    assert json.dumps(fake.requests[0]).count("submit_judgement") == 2 and not fake.refused
