"""One judge producing one Judgement: cache, credentials, budget, limits, retries, cost.

Every way a judgement can fail ends in a Judgement with ``error`` set and no scores, never an
exception out of ``Judge.judge`` and never a zero score.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from judging.cache import ResponseCache, cache_key
from judging.config import JudgeConfig, Price, RetryPolicy
from judging.limits import RateLimiter
from judging.models import Judgement, Usage
from judging.providers import CallResult, JudgeError, ProviderClient, validation_message
from judging.retry import with_retries

BUDGET_REACHED = "budget reached: not submitted"
BUDGET_STOPPED_RETRY = "budget reached: not retried after a transient error"


def estimate_tokens(text: str) -> int:
    """A provider-neutral estimate: one token per four characters, rounded up."""
    return (len(text) + 3) // 4


@lru_cache(maxsize=32)
def _schema_json(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()  # ~1 ms each time: worth computing once per schema, not per call


def request_key(config: JudgeConfig, system: str, user: str, schema: type[BaseModel]) -> str:
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return cache_key(config.provider, config.base_url, config.model, messages, config.sampling_params(), _schema_json(schema))


@dataclass
class Budget:
    """Spend of uncached calls in this run; once it reaches ``limit_usd`` no new call is submitted."""

    limit_usd: float | None = None
    spent_usd: float = 0.0
    refused: int = 0

    @property
    def reached(self) -> bool:
        return self.limit_usd is not None and self.spent_usd >= self.limit_usd


@dataclass
class Endpoint:
    """What judges talking to the same provider endpoint share."""

    semaphore: asyncio.Semaphore
    limiter: RateLimiter


@dataclass
class Counters:
    calls: int = 0  # HTTP attempts made, retries included
    cache_hits: int = 0


@dataclass
class Judge:
    config: JudgeConfig
    price: Price | None
    endpoint: Endpoint
    policy: RetryPolicy
    cache: ResponseCache | None
    budget: Budget
    offline: bool = False
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    counters: Counters = field(default_factory=Counters)
    _client: ProviderClient | None = None

    def missing_credentials(self) -> str | None:
        """The environment variable to set, when the provider needs a key and none is set."""
        if self.config.provider == "openai-compatible" or self.config.api_key():
            return None
        return self.config.api_key_env

    def key(self, system: str, user: str, schema: type[BaseModel]) -> str:
        return request_key(self.config, system, user, schema)

    def cost(self, input_tokens: int, output_tokens: int) -> float | None:
        return self.price.cost(input_tokens, output_tokens) if self.price else None

    def _failed(self, prompt_sha256: str, error: str, **extra: Any) -> Judgement:
        return Judgement(judge=self.config.name, model=self.config.model, error=error, prompt_sha256=prompt_sha256,
                         params_sha256=self.config.params_sha256, **extra)

    def _scored(self, prompt_sha256: str, data: dict[str, Any], schema: type[BaseModel], dimensions: list[str],
                usage: Usage, cached: bool, latency_s: float | None) -> Judgement:
        try:
            parsed = schema.model_validate(data)  # a cached reply is re-checked against today's schema
        except ValidationError as exc:
            return self._failed(prompt_sha256, validation_message(exc), usage=usage, cached=cached)
        values = parsed.model_dump()
        scores = {d: float(values[d]) for d in dimensions}
        return Judgement(
            judge=self.config.name, model=self.config.model, scores=scores, total=sum(scores.values()),
            rationale=values.get("rationale"), usage=usage, cost_usd=self.cost(usage.input_tokens, usage.output_tokens),
            prompt_sha256=prompt_sha256, latency_s=latency_s, params_sha256=self.config.params_sha256, cached=cached,
        )

    async def judge(self, system: str, user: str, prompt_sha256: str, schema: type[BaseModel], dimensions: list[str]) -> Judgement:
        key = self.key(system, user, schema)
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is not None:
            self.counters.cache_hits += 1
            return self._scored(prompt_sha256, hit.data, schema, dimensions, Usage(input_tokens=hit.input_tokens, output_tokens=hit.output_tokens), True, None)
        if self.offline:
            return self._failed(prompt_sha256, f"offline: no cached response (cache key {key[:16]})")
        missing = self.missing_credentials()
        if missing:
            return self._failed(prompt_sha256, f"missing credentials: set {missing}")

        if self._client is None:
            self._client = ProviderClient(self.config, self.config.api_key())
        client = self._client
        tokens = estimate_tokens(system) + estimate_tokens(user) + self.config.max_tokens
        submitted = False

        async def attempt() -> CallResult:
            nonlocal submitted
            async with self.endpoint.semaphore:
                # Checked once a slot is free, not when the task is created: with hundreds of queued
                # tasks, a check at creation would let every one of them through. Checked again before
                # a retry, so the only spend past the budget is the replies in flight when it was reached:
                # at most one per concurrency slot.
                if self.budget.reached:
                    if submitted:
                        raise JudgeError(BUDGET_STOPPED_RETRY)
                    self.budget.refused += 1
                    raise JudgeError(BUDGET_REACHED)
                submitted = True
                await self.endpoint.limiter.acquire(tokens)
                self.counters.calls += 1
                return await client.complete(system, user, schema)

        started = time.perf_counter()
        try:
            result, _ = await with_retries(attempt, self.policy, self.rng)
        except JudgeError as exc:
            usage = Usage(input_tokens=exc.input_tokens, output_tokens=exc.output_tokens)
            cost = self.cost(exc.input_tokens, exc.output_tokens) if (exc.input_tokens or exc.output_tokens) else None
            self.budget.spent_usd += cost or 0.0
            return self._failed(prompt_sha256, str(exc), usage=usage, cost_usd=cost, latency_s=round(time.perf_counter() - started, 4))
        latency = round(time.perf_counter() - started, 4)
        usage = Usage(input_tokens=result.input_tokens, output_tokens=result.output_tokens)
        cost = self.cost(result.input_tokens, result.output_tokens)
        self.budget.spent_usd += cost or 0.0
        judgement = self._scored(prompt_sha256, result.data, schema, dimensions, usage, False, latency)
        if judgement.valid and self.cache is not None:
            self.cache.put(key, self.config.provider, self.config.model, result.data, result.input_tokens, result.output_tokens)
        return judgement

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
