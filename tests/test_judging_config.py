"""Judge specs, config layering, prices, retry backoff and the rate limiter (pure parts)."""

from __future__ import annotations

import asyncio
import random

import pytest

from groundjudge.errors import UserError
from groundjudge.judging.config import Price, RetryPolicy, load_config, parse_judge_spec, select_judges
from groundjudge.judging.judge import Budget, estimate_tokens
from groundjudge.judging.limits import RateLimiter
from groundjudge.judging.retry import backoff_s


def test_parse_judge_spec_forms():
    e = parse_judge_spec("j1=openai:gpt-4.1")
    assert (e.name, e.provider, e.model, e.base_url) == ("j1", "openai", "gpt-4.1", None)
    e = parse_judge_spec("local=openai-compatible:llama3:8b@http://127.0.0.1:11434/v1")
    assert (e.provider, e.model, e.base_url) == ("openai-compatible", "llama3:8b", "http://127.0.0.1:11434/v1")
    e = parse_judge_spec("c=anthropic:claude-x@http://127.0.0.1:8080")
    assert (e.provider, e.model, e.base_url) == ("anthropic", "claude-x", "http://127.0.0.1:8080")


@pytest.mark.parametrize(
    "spec,problem",
    [
        ("openai:gpt", "expected NAME=PROVIDER:MODEL"),
        ("j=openai", "model missing"),
        ("j=gemini:x", "unknown provider 'gemini'"),
        ("j=openai-compatible:llama", "needs @BASE_URL"),
        ("j=openai:m@ftp://x", "must start with http"),
    ],
)
def test_bad_judge_spec(spec, problem):
    with pytest.raises(UserError, match=problem):
        parse_judge_spec(spec)


def test_bundled_defaults(tmp_path):
    config = load_config(cwd=tmp_path)  # no ./groundjudge.toml there
    judges = select_judges(config, None)
    assert [(j.name, j.provider) for j in judges] == [("judge-claude", "anthropic"), ("judge-gpt", "openai")]
    assert judges[0].sampling_params() == {"max_tokens": 1024}
    assert judges[1].sampling_params() == {"max_completion_tokens": 1024, "temperature": 0.0, "seed": 20240601}
    assert judges[0].api_key_env == "ANTHROPIC_API_KEY" and judges[1].api_key_env == "OPENAI_API_KEY"


def test_local_config_overlays_defaults(tmp_path):
    (tmp_path / "groundjudge.toml").write_text(
        "[defaults]\nmax_tokens = 200\n[retry]\nmax_attempts = 2\n"
        '[[judges]]\nname = "solo"\nprovider = "openai-compatible"\nmodel = "qwen"\nbase_url = "http://127.0.0.1:1/v1"\nseed = 3\n'
        "[prices.qwen]\ninput_per_mtok = 0.5\noutput_per_mtok = 1.0\n"
    )
    config = load_config(cwd=tmp_path)
    assert config.retry.max_attempts == 2 and config.retry.initial_wait_s == 1.0  # untouched keys keep defaults
    assert config.defaults.timeout_s == 60.0
    (solo,) = select_judges(config, None)
    assert solo.sampling_params() == {"max_tokens": 200, "temperature": 0.0, "seed": 3}
    assert config.price("qwen").input_per_mtok == 0.5 and config.price("gpt-4.1") is not None  # prices merge


def test_judge_specs_replace_configured_judges(tmp_path):
    judges = select_judges(load_config(cwd=tmp_path), ["a=openai:gpt-4.1", "b=anthropic:claude-sonnet-4-5"])
    assert [j.name for j in judges] == ["a", "b"]
    with pytest.raises(UserError, match="judge name used twice: a"):
        select_judges(load_config(cwd=tmp_path), ["a=openai:x", "a=openai:y"])


@pytest.mark.parametrize(
    "text,problem",
    [
        ("[defaults\n", "not valid TOML"),
        ("[defaults]\nmax_tokens = -1\n", "invalid config: defaults.max_tokens"),
        ("[defaults]\nbogus = 1\n", "invalid config: defaults.bogus"),
        ('[[judges]]\nname = "x"\nprovider = "nope"\nmodel = "m"\n', "invalid config: judges.0.provider"),
    ],
)
def test_bad_config_names_the_file(tmp_path, text, problem):
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(UserError, match=problem) as info:
        load_config(path)
    assert str(path) in str(info.value)


def test_missing_config_file(tmp_path):
    with pytest.raises(UserError, match="config file not found"):
        load_config(tmp_path / "nope.toml")


def test_params_hash_tracks_what_is_sent(tmp_path):
    config = load_config(cwd=tmp_path)
    (a,) = select_judges(config, ["a=openai:gpt-4.1"])
    b = a.model_copy(update={"temperature": 0.5})
    c = a.model_copy(update={"timeout_s": 5.0})  # not sent to the model: same hash
    d = a.model_copy(update={"base_url": "http://127.0.0.1:8000/v1"})  # another server: a judgement made elsewhere is redone
    e = a.model_copy(update={"base_url": "http://127.0.0.1:8000/v1/"})
    assert a.params_sha256 != b.params_sha256 and a.params_sha256 == c.params_sha256
    assert d.params_sha256 not in (a.params_sha256, b.params_sha256) and d.params_sha256 == e.params_sha256


def test_sdk_base_url_environment_is_resolved_into_the_judge(tmp_path, monkeypatch):
    """OPENAI_BASE_URL / ANTHROPIC_BASE_URL redirect the SDKs; the judge must carry that endpoint, so
    its params hash and cache key differ from the provider's own API. An explicit @BASE_URL wins."""
    from pydantic import BaseModel

    from groundjudge.judging.judge import request_key

    class Reply(BaseModel):
        score: int

    config = load_config(cwd=tmp_path)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    monkeypatch.delenv("ANTHROPIC_BASE_URL", raising=False)
    plain_gpt, plain_claude = select_judges(config, ["g=openai:gpt-4.1", "c=anthropic:claude-x"])
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9000/v1")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9001")
    gpt, claude, explicit, compat = select_judges(
        config,
        [
            "g=openai:gpt-4.1",
            "c=anthropic:claude-x",
            "x=openai:gpt-4.1@http://127.0.0.1:7000/v1",
            "l=openai-compatible:m@http://127.0.0.1:7001/v1",
        ],
    )
    assert (plain_gpt.base_url, plain_claude.base_url) == (None, None)
    assert (gpt.base_url, claude.base_url) == ("http://127.0.0.1:9000/v1", "http://127.0.0.1:9001")
    assert (explicit.base_url, compat.base_url) == ("http://127.0.0.1:7000/v1", "http://127.0.0.1:7001/v1")
    assert gpt.params_sha256 != plain_gpt.params_sha256 and claude.params_sha256 != plain_claude.params_sha256
    assert request_key(gpt, "s", "u", Reply) != request_key(plain_gpt, "s", "u", Reply)


def test_price_cost_hand_worked():
    # 1,000 input tokens at $3/M = 0.003; 500 output at $15/M = 0.0075; sum 0.0105
    assert Price(input_per_mtok=3.0, output_per_mtok=15.0).cost(1000, 500) == pytest.approx(0.0105)


def test_estimate_tokens_rounds_up():
    assert [estimate_tokens(t) for t in ("", "a", "abcd", "abcde")] == [0, 1, 1, 2]


def test_budget_reached():
    assert not Budget().reached and not Budget(limit_usd=1.0, spent_usd=0.99).reached
    assert Budget(limit_usd=1.0, spent_usd=1.0).reached


def test_backoff_hand_worked():
    policy = RetryPolicy(initial_wait_s=0.5, max_wait_s=3.0, jitter_s=0.0, max_retry_after_s=10.0)
    rng = random.Random(0)
    # 0.5 * 2^(n-1): 0.5, 1, 2, then capped at 3
    assert [backoff_s(policy, n, None, rng) for n in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 3.0]
    assert backoff_s(policy, 1, 7.0, rng) == 7.0  # Retry-After wins over the exponential
    assert backoff_s(policy, 1, 99.0, rng) == 10.0  # ... up to its cap
    jittered = RetryPolicy(initial_wait_s=1.0, max_wait_s=30.0, jitter_s=0.5)
    waits = [backoff_s(jittered, 1, None, random.Random(s)) for s in range(20)]
    assert all(1.0 <= w <= 1.5 for w in waits) and len(set(waits)) > 1


class FakeClock:
    def __init__(self):
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_rpm_limiter_hand_worked():
    clock = FakeClock()
    limiter = RateLimiter(rpm=2, clock=clock, sleep=clock.sleep)

    async def go():
        starts = []
        for _ in range(5):
            await limiter.acquire()
            starts.append(clock.now)
            clock.now += 1.0  # each call starts one second after the previous one could
        return starts

    # 2 per 60 s window: t=0, t=1; third waits until the t=0 start leaves the window (t=60), fourth until 61,
    # fifth until 120.
    assert asyncio.run(go()) == [0.0, 1.0, 60.0, 61.0, 120.0]


def test_tpm_limiter_hand_worked():
    clock = FakeClock()
    limiter = RateLimiter(tpm=100, clock=clock, sleep=clock.sleep)

    async def go():
        starts = []
        for tokens in (60, 40, 10, 150):
            await limiter.acquire(tokens)
            starts.append(clock.now)
        return starts

    # 60 + 40 = 100 fit at t=0; 10 more must wait for the window to clear (t=60); 150 alone exceeds the limit
    # and waits for an empty window (t=120), then goes through rather than blocking forever.
    assert asyncio.run(go()) == [0.0, 0.0, 60.0, 120.0]


def test_unlimited_limiter_never_waits():
    clock = FakeClock()
    limiter = RateLimiter(clock=clock, sleep=clock.sleep)

    async def go():
        await asyncio.gather(*(limiter.acquire(10**6) for _ in range(100)))

    asyncio.run(asyncio.wait_for(go(), 5))
    assert clock.slept == []
