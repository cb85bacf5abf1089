"""The response cache: every successful provider call, keyed by what shaped it.

SQLite in WAL mode with a busy timeout, so many tasks of one process and several processes can
write at once. Only validated replies are stored; errors never are, so a rerun retries them.
The key includes the base URL: two OpenAI-compatible servers (or a gateway and the vendor's own API)
may serve different weights, quantizations or versions under one model id, so the endpoint is part
of "the provider". ``None`` is the provider's own API. The API key is left out: it does not change
the reply.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundjudge.errors import UserError
from groundjudge.hashing import sha256_json
from groundjudge.storage import home

SCHEMA = """
CREATE TABLE IF NOT EXISTS responses (
    key TEXT PRIMARY KEY,
    provider TEXT NOT NULL,
    model TEXT NOT NULL,
    data TEXT NOT NULL,
    input_tokens INTEGER NOT NULL,
    output_tokens INTEGER NOT NULL
)
"""


def default_cache_path() -> Path:
    return home() / "cache.sqlite"


def cache_key(provider: str, base_url: str | None, model: str, messages: list[dict[str, str]], params: dict[str, Any],
              schema: dict[str, Any]) -> str:
    endpoint = base_url.rstrip("/") if base_url else None  # written as given otherwise: localhost and 127.0.0.1 differ
    return sha256_json({"provider": provider, "base_url": endpoint, "model": model, "messages": messages,
                        "params": params, "schema": schema})


@dataclass
class CachedResponse:
    data: dict[str, Any]
    input_tokens: int
    output_tokens: int


class ResponseCache:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            # autocommit: each put is its own short transaction, so writers hold the lock briefly
            self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout = 30000")
            self._set_up(time.monotonic() + 30.0)
        except sqlite3.DatabaseError as exc:
            raise UserError(f"not a usable response cache ({exc})", self.path) from None

    def _set_up(self, deadline: float) -> None:
        """WAL mode and the table. Two processes opening the same cache at once can get "database is
        locked" here at once, without the busy timeout being waited out (SQLite refuses a lock upgrade
        that could deadlock): try again until the deadline."""
        while True:
            try:
                self._db.execute("PRAGMA journal_mode = WAL")
                self._db.execute("PRAGMA synchronous = NORMAL")
                self._db.execute(SCHEMA)
                return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
                time.sleep(0.05)

    def get(self, key: str) -> CachedResponse | None:
        row = self._db.execute("SELECT data, input_tokens, output_tokens FROM responses WHERE key = ?", (key,)).fetchone()
        return CachedResponse(json.loads(row[0]), row[1], row[2]) if row else None

    def put(self, key: str, provider: str, model: str, data: dict[str, Any], input_tokens: int, output_tokens: int) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO responses (key, provider, model, data, input_tokens, output_tokens) VALUES (?, ?, ?, ?, ?, ?)",
            (key, provider, model, json.dumps(data, sort_keys=True), input_tokens, output_tokens),
        )

    def __len__(self) -> int:
        return self._db.execute("SELECT COUNT(*) FROM responses").fetchone()[0]

    def close(self) -> None:
        self._db.close()
