"""The response cache: every successful provider call, keyed by what shaped it.

SQLite in WAL mode with a busy timeout, so many tasks of one process and several processes can
write at once. Only validated replies are stored; errors never are, so a rerun retries them.
The key includes the base URL: two OpenAI-compatible servers (or a gateway and the vendor's own API)
may serve different weights, quantizations or versions under one model id, so the endpoint is part
of "the provider". ``None`` is the provider's own API. The API key is left out: it does not change
the reply.

The cache only saves calls, so damage never loses a result: a row that does not hold a reply is a miss
(the call is made again and the row replaced), and a damaged database file stops the run with one line
saying to move it away, since SQLite cannot tell which rows the damage reached.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from groundjudge.errors import UserError
from groundjudge.hashing import sha256_json
from groundjudge.storage import home

log = logging.getLogger(__name__)

# SQLite's primary result codes for a damaged file (an extended code carries one in its low byte).
_DAMAGE_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB

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


def cache_key(
    provider: str,
    base_url: str | None,
    model: str,
    messages: list[dict[str, str]],
    params: dict[str, Any],
    schema: dict[str, Any],
) -> str:
    endpoint = base_url.rstrip("/") if base_url else None  # written as given otherwise: localhost and 127.0.0.1 differ
    return sha256_json(
        {"provider": provider, "base_url": endpoint, "model": model, "messages": messages, "params": params, "schema": schema}
    )


@dataclass
class CachedResponse:
    data: dict[str, Any]
    input_tokens: int
    output_tokens: int


def _damaged(exc: sqlite3.DatabaseError) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _DAMAGE_CODES


class ResponseCache:
    def __init__(self, path: str | Path | None = None):
        self.path = Path(path) if path is not None else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.unreadable_rows = 0  # rows whose reply could not be read: answered as misses
        try:
            # autocommit: each put is its own short transaction, so writers hold the lock briefly
            self._db = sqlite3.connect(self.path, timeout=30.0, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA busy_timeout = 30000")
            self._set_up(time.monotonic() + 30.0)
        except sqlite3.DatabaseError as exc:
            raise self._refusal(exc) from None

    def _refusal(self, exc: sqlite3.DatabaseError) -> UserError:
        if _damaged(exc):
            return UserError(
                f"not a usable response cache: it is damaged ({exc}); move it away or delete it: it will be "
                "rebuilt on the next run, and the calls it held will be made again",
                self.path,
            )
        return UserError(f"not a usable response cache ({exc})", self.path)

    def _one(self, sql: str, args: tuple = ()) -> tuple | None:
        """Run one statement and fetch its first row; a damaged file, met at any read, is a UserError."""
        try:
            return self._db.execute(sql, args).fetchone()
        except sqlite3.DatabaseError as exc:
            if not _damaged(exc):
                raise
            raise self._refusal(exc) from None

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
        row = self._one("SELECT data, input_tokens, output_tokens FROM responses WHERE key = ?", (key,))
        if row is None:
            return None
        data, input_tokens, output_tokens = row
        try:
            reply = json.loads(data)
        except (TypeError, ValueError):  # ValueError: bad JSON or bytes not UTF-8; TypeError: not text at all
            reply = None
        if not isinstance(reply, dict) or not isinstance(input_tokens, int) or not isinstance(output_tokens, int):
            self._unreadable(key)
            return None
        return CachedResponse(reply, input_tokens, output_tokens)

    def _unreadable(self, key: str) -> None:
        self.unreadable_rows += 1
        if self.unreadable_rows == 1:  # one line for the run, however many rows are bad
            log.warning(
                "response cache %s: a cached reply (key %s) is not a readable JSON object; answered as a "
                "miss, so the call is made again and the row replaced",
                self.path,
                key[:16],
            )

    def put(self, key: str, provider: str, model: str, data: dict[str, Any], input_tokens: int, output_tokens: int) -> None:
        self._one(
            "INSERT OR REPLACE INTO responses (key, provider, model, data, input_tokens, output_tokens) VALUES (?, ?, ?, ?, ?, ?)",
            (key, provider, model, json.dumps(data, sort_keys=True), input_tokens, output_tokens),
        )

    def __len__(self) -> int:
        row = self._one("SELECT COUNT(*) FROM responses")
        assert row is not None  # COUNT(*) always has a row
        return row[0]

    def close(self) -> None:
        self._db.close()
