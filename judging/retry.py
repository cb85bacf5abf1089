"""The failure policy for one judgement: bounded retries of transient errors, with backoff.

Exponential backoff with jitter, except that a server's Retry-After (capped) is honoured exactly.
Attempts stop at ``max_attempts``, or before a wait that would go past ``max_total_s``.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, TypeVar

from groundjudge.judging.config import RetryPolicy
from groundjudge.judging.models import FailureKind
from groundjudge.judging.providers import JudgeError, RetryableError

if TYPE_CHECKING:
    from tenacity import RetryCallState

T = TypeVar("T")


def backoff_s(policy: RetryPolicy, attempt: int, retry_after: float | None, rng: random.Random) -> float:
    """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
    if retry_after is not None:
        return min(max(retry_after, 0.0), policy.max_retry_after_s)
    base = min(policy.initial_wait_s * 2 ** (attempt - 1), policy.max_wait_s)
    return base + rng.uniform(0, policy.jitter_s)


async def with_retries(
    attempt_fn: Callable[[], Awaitable[T]],
    policy: RetryPolicy,
    rng: random.Random | None = None,
) -> tuple[T, int]:
    """Run attempt_fn until it succeeds; returns (result, attempts). Raises JudgeError when it gives up."""
    from tenacity import AsyncRetrying, RetryError, retry_if_exception_type, stop_after_attempt, stop_before_delay

    rng = rng or random.Random()

    def wait(state: RetryCallState) -> float:
        exc = state.outcome.exception() if state.outcome is not None else None  # set once an attempt has run
        return backoff_s(policy, state.attempt_number, getattr(exc, "retry_after", None), rng)

    retrying = AsyncRetrying(
        stop=stop_after_attempt(policy.max_attempts) | stop_before_delay(policy.max_total_s),
        wait=wait,
        retry=retry_if_exception_type(RetryableError),
        reraise=False,
    )
    attempts = 0
    try:
        async for attempt in retrying:
            with attempt:
                attempts = attempt.retry_state.attempt_number
                return await attempt_fn(), attempts
    except RetryError as exc:
        last = exc.last_attempt.exception()
        raise JudgeError(
            f"{last} (gave up after {attempts} attempt{'s' if attempts != 1 else ''})", FailureKind.TRANSIENT
        ) from last
    raise AssertionError("unreachable: tenacity either returns a result or raises")  # pragma: no cover
