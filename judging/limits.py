"""Requests-per-minute and tokens-per-minute limits for one endpoint.

A sliding 60-second window: a call may start when fewer than ``rpm`` calls started in the last
60 s and the tokens they declared plus its own stay within ``tpm``. A single call larger than
``tpm`` is let through on an empty window rather than blocking forever.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Awaitable, Callable

WINDOW_S = 60.0


class RateLimiter:
    def __init__(
        self,
        rpm: int | None = None,
        tpm: int | None = None,
        clock: Callable[[], float] | None = None,
        sleep: Callable[[float], Awaitable[None]] | None = None,
    ):
        self.rpm = rpm
        self.tpm = tpm
        self._clock = clock
        self._sleep = sleep or asyncio.sleep
        self._events: deque[tuple[float, int]] = deque()  # (start time, tokens)
        self._lock = asyncio.Lock()

    def _now(self) -> float:
        return self._clock() if self._clock else asyncio.get_running_loop().time()

    def delay_for(self, tokens: int, now: float) -> float:
        """Seconds until a call of ``tokens`` may start (0: now). Drops events older than the window."""
        while self._events and self._events[0][0] <= now - WINDOW_S:
            self._events.popleft()
        if not self._events:
            return 0.0
        fits_rpm = self.rpm is None or len(self._events) < self.rpm
        fits_tpm = self.tpm is None or sum(t for _, t in self._events) + tokens <= self.tpm
        if fits_rpm and fits_tpm:
            return 0.0
        return self._events[0][0] + WINDOW_S - now

    async def acquire(self, tokens: int = 0) -> None:
        if self.rpm is None and self.tpm is None:
            return
        async with self._lock:  # first come, first served: a waiting call holds its place in line
            while True:
                now = self._now()
                wait = self.delay_for(tokens, now)
                if wait <= 0:
                    self._events.append((now, tokens))
                    return
                await self._sleep(wait)
