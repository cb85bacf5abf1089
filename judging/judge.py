"""The one structured model call (``StructuredClient``: cache, credentials, budget, limits, retries,
deadlines, cost, health), and the judge on top of it producing one Judgement.

The LLM grounding helpers (``judging/llm_grounding.py``) call through the same client, so a helper's call
obeys ``--budget``, ``--rpm`` and ``--tpm`` exactly as a judgement does. Every way a call can fail ends in
a ``Reply`` with ``error`` set, and every way a judgement can fail in a Judgement with ``error`` set and
no scores: never an exception out of ``StructuredClient.call`` or ``Judge.judge``, never a zero score.
"""

from __future__ import annotations

import asyncio
import random
import time
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from pydantic import BaseModel, ValidationError

from groundjudge.judging.cache import ResponseCache, cache_key
from groundjudge.judging.config import JudgeConfig, Price, RetryPolicy
from groundjudge.judging.limits import RateLimiter
from groundjudge.judging.models import FailureKind, Judgement, Usage
from groundjudge.judging.providers import (
    JUDGEMENT_TOOL,
    CallResult,
    JudgeError,
    ProviderClient,
    RetryableError,
    tool_model,
    validation_error,
)
from groundjudge.judging.retry import with_retries

BUDGET_REACHED = "budget reached: not submitted"
BUDGET_STOPPED_RETRY = "budget reached: not retried after a transient error"
# A judge whose first calls are all refused with the same 4xx is stopped: the request itself is wrong
# (a model name, a parameter), and every later call would be refused, and maybe billed, the same way.
STOP_AFTER_REFUSALS = 3


def estimate_tokens(text: str) -> int:
    """A provider-neutral estimate: one token per four characters, rounded up."""
    return (len(text) + 3) // 4


@lru_cache(maxsize=32)
def _schema_json(schema: type[BaseModel], tool: str) -> dict[str, Any]:
    # The tool as sent (its name and description included): ~1 ms each time, worth doing once per schema.
    return tool_model(schema, tool).model_json_schema()


def request_key(config: JudgeConfig, system: str, user: str, schema: type[BaseModel], tool: str = JUDGEMENT_TOOL) -> str:
    messages = [{"role": "system", "content": system}, {"role": "user", "content": user}]
    return cache_key(
        config.provider, config.base_url, config.model, messages, config.sampling_params(), _schema_json(schema, tool)
    )


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
    stale_cache: int = 0  # cached replies that fail today's validation, called again instead


@dataclass
class Health:
    """The judge's first finished calls; once STOP_AFTER_REFUSALS of them in a row were refused with
    one and the same 4xx, ``stopped`` holds that error and no further call is sent."""

    refusals: list[str] = field(default_factory=list)
    settled: bool = False  # a first call succeeded, or failed otherwise: the judge works
    stopped: str | None = None

    def record(self, error: JudgeError | None) -> None:
        if self.settled or self.stopped:
            return
        if error is None or error.kind is not FailureKind.REFUSED_REQUEST:
            self.settled = True
            return
        self.refusals.append(str(error))
        if len(set(self.refusals)) > 1:
            self.settled = True
        elif len(self.refusals) >= STOP_AFTER_REFUSALS:
            self.stopped = self.refusals[0]


def _own_endpoint() -> Endpoint:
    return Endpoint(asyncio.Semaphore(1), RateLimiter())


@dataclass
class Reply:
    """One structured call's outcome: the validated reply, or the error in its place."""

    parsed: BaseModel | None
    error: JudgeError | None = None
    usage: Usage = field(default_factory=Usage)
    cost_usd: float | None = None  # what the reply cost (a cached one: when it was first made)
    cached: bool = False
    latency_s: float | None = None
    attempts: int = 0  # HTTP attempts this call made


@dataclass(kw_only=True)
class StructuredClient:
    """One model's structured-output calls, each through the response cache, the run's budget (checked
    per attempt), the endpoint's concurrency and rate limits, the retry policy with a wall-clock deadline
    per attempt, and the health check that stops a model whose first calls are all refused alike."""

    config: JudgeConfig
    policy: RetryPolicy
    price: Price | None = None
    endpoint: Endpoint = field(default_factory=_own_endpoint)
    cache: ResponseCache | None = None
    budget: Budget = field(default_factory=Budget)
    offline: bool = False
    rng: random.Random = field(default_factory=lambda: random.Random(0))
    counters: Counters = field(default_factory=Counters)
    health: Health = field(default_factory=Health)
    _client: ProviderClient | None = None

    def missing_credentials(self) -> str | None:
        """The environment variable to set, when the provider needs a key and none is set."""
        if self.config.provider == "openai-compatible" or self.config.api_key():
            return None
        return self.config.api_key_env

    def cost(self, input_tokens: int, output_tokens: int) -> float | None:
        return self.price.cost(input_tokens, output_tokens) if self.price else None

    async def call(self, system: str, user: str, schema: type[BaseModel], tool: str = JUDGEMENT_TOOL) -> Reply:
        key = request_key(self.config, system, user, schema, tool)
        hit = self.cache.get(key) if self.cache is not None else None
        if hit is not None:
            try:
                parsed = schema.model_validate(hit.data)
            except ValidationError:
                # Stored when it passed an older schema: today it is no answer, so it is asked again (and
                # replaced), never replayed as the same failure on every run.
                self.counters.stale_cache += 1
            else:
                self.counters.cache_hits += 1
                usage = Usage(input_tokens=hit.input_tokens, output_tokens=hit.output_tokens)
                return Reply(parsed, usage=usage, cost_usd=self.cost(hit.input_tokens, hit.output_tokens), cached=True)
        if self.offline:
            return Reply(None, JudgeError(f"offline: no cached response (cache key {key[:16]})", FailureKind.OFFLINE))
        missing = self.missing_credentials()
        if missing:
            return Reply(None, JudgeError(f"missing credentials: set {missing}", FailureKind.CREDENTIALS))
        if self.health.stopped:
            return Reply(None, JudgeError(self._stopped_message(), FailureKind.JUDGE_STOPPED))

        if self._client is None:
            self._client = ProviderClient(self.config, self.config.api_key())
        client = self._client
        tokens = estimate_tokens(system) + estimate_tokens(user) + self.config.max_tokens
        submitted = False
        attempts = 0
        started = time.perf_counter()

        async def attempt() -> CallResult:
            nonlocal submitted, attempts
            async with self.endpoint.semaphore:
                # Checked once a slot is free, not when the task is created: with hundreds of queued
                # tasks, a check at creation would let every one of them through. Checked again before
                # a retry, so the only spend past the budget is the replies in flight when it was reached:
                # at most one per concurrency slot.
                # An unpriced model's calls cost the run nothing it can count, so the budget never holds them.
                if self.price is not None and self.budget.reached:
                    if submitted:
                        raise JudgeError(BUDGET_STOPPED_RETRY, FailureKind.BUDGET)
                    self.budget.refused += 1
                    raise JudgeError(BUDGET_REACHED, FailureKind.BUDGET)
                if self.health.stopped:
                    raise JudgeError(self._stopped_message(), FailureKind.JUDGE_STOPPED)
                # The retry policy's total cap bounds the attempt in flight too, not only the waits.
                left = self.policy.max_total_s - (time.perf_counter() - started)
                if left <= 0:
                    raise RetryableError("timeout")
                submitted = True
                await self.endpoint.limiter.acquire(tokens)
                self.counters.calls += 1
                attempts += 1
                return await client.complete(system, user, schema, tool, deadline_s=min(self.config.timeout_s, left))

        try:
            result, _ = await with_retries(attempt, self.policy, self.rng)
        except JudgeError as exc:
            if exc.kind is not FailureKind.JUDGE_STOPPED:
                self.health.record(exc)
            usage = Usage(input_tokens=exc.input_tokens, output_tokens=exc.output_tokens)
            cost = self.cost(exc.input_tokens, exc.output_tokens) if (exc.input_tokens or exc.output_tokens) else None
            self.budget.spent_usd += cost or 0.0
            return Reply(None, exc, usage, cost, latency_s=round(time.perf_counter() - started, 4), attempts=attempts)
        self.health.record(None)
        latency = round(time.perf_counter() - started, 4)
        usage = Usage(input_tokens=result.input_tokens, output_tokens=result.output_tokens)
        cost = self.cost(result.input_tokens, result.output_tokens)
        self.budget.spent_usd += cost or 0.0
        try:
            parsed = schema.model_validate(result.data)
        except ValidationError as exc:
            return Reply(None, validation_error(exc), usage, cost, latency_s=latency, attempts=attempts)
        if self.cache is not None:
            self.cache.put(key, self.config.provider, self.config.model, result.data, result.input_tokens, result.output_tokens)
        return Reply(parsed, None, usage, cost, latency_s=latency, attempts=attempts)

    def _stopped_message(self) -> str:
        return (
            f"not submitted: judge stopped after its first {STOP_AFTER_REFUSALS} calls were all refused with "
            f"{self.health.stopped}"
        )

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


@dataclass(kw_only=True)
class Judge(StructuredClient):
    """A structured client whose replies are judgements on a rubric's dimensions."""

    def key(self, system: str, user: str, schema: type[BaseModel]) -> str:
        return request_key(self.config, system, user, schema)

    async def judge(
        self, system: str, user: str, prompt_sha256: str, schema: type[BaseModel], dimensions: list[str]
    ) -> Judgement:
        reply = await self.call(system, user, schema)
        if reply.error is not None:
            return Judgement(
                judge=self.config.name,
                model=self.config.model,
                error=str(reply.error),
                error_kind=reply.error.kind,
                usage=reply.usage,
                cost_usd=reply.cost_usd,
                prompt_sha256=prompt_sha256,
                latency_s=reply.latency_s,
                params_sha256=self.config.params_sha256,
            )
        assert reply.parsed is not None  # a reply without an error carries the parsed reply
        values = reply.parsed.model_dump()
        scores = {d: float(values[d]) for d in dimensions}
        return Judgement(
            judge=self.config.name,
            model=self.config.model,
            scores=scores,
            total=sum(scores.values()),
            rationale=values.get("rationale"),
            usage=reply.usage,
            cost_usd=reply.cost_usd,
            prompt_sha256=prompt_sha256,
            latency_s=reply.latency_s,
            params_sha256=self.config.params_sha256,
            cached=reply.cached,
        )
