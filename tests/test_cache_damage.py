"""A damaged response cache: a corrupt file stops in one line saying how to rebuild it; a row whose
reply is not readable JSON is a miss, never a crash."""

from __future__ import annotations

import logging
import sqlite3

import pytest
from _fake_provider_helpers import api_keys, fake, fake_server, judge_config, make_judge, run_judge

from groundjudge.errors import UserError
from groundjudge.judging.cache import ResponseCache

REPLY = {"accuracy": 3, "rationale": "x" * 400}  # long enough that 400 rows fill many pages


def _filled(path, rows: int = 400):
    cache = ResponseCache(path)
    for i in range(rows):
        cache.put(f"key{i:04d}", "openai", "m", {**REPLY, "n": i}, 10, 2)
    cache.close()  # the last connection checkpoints the WAL into the file
    return [f"key{i:04d}" for i in range(rows)]


def _read_all(path, keys) -> None:
    cache = ResponseCache(path)
    try:
        for key in keys:
            cache.get(key)
    finally:
        cache.close()


def _assert_rebuild_message(err: pytest.ExceptionInfo, path) -> None:
    message = str(err.value)
    assert "\n" not in message and message.startswith(f"{path}: ")
    assert "damaged (" in message and "move it away or delete it" in message and "rebuilt on the next run" in message


def test_garbage_over_the_middle_of_a_cache_is_one_line_naming_it(tmp_path):
    path = tmp_path / "cache.sqlite"
    keys = _filled(path)
    size = path.stat().st_size
    assert size > 100_000
    with open(path, "r+b") as fh:
        fh.seek(size // 2)
        fh.write(b"\xa5" * 20_000)
    with pytest.raises(UserError) as err:
        _read_all(path, keys)
    _assert_rebuild_message(err, path)
    assert "malformed" in str(err.value)


def test_garbage_over_the_header_is_the_same_message(tmp_path):
    path = tmp_path / "cache.sqlite"
    _filled(path, rows=5)
    with open(path, "r+b") as fh:
        fh.write(b"\xa5" * 100)
    with pytest.raises(UserError) as err:
        ResponseCache(path)
    _assert_rebuild_message(err, path)


def test_a_damaged_cache_stops_a_judge_in_one_line(fake, api_keys, tmp_path):
    path = tmp_path / "cache.sqlite"
    _filled(path)
    with open(path, "r+b") as fh:  # every page but the first (the schema): any lookup meets the damage
        fh.seek(4096)
        fh.write(b"\xa5" * (path.stat().st_size - 4096))
    cache = ResponseCache(path)
    with pytest.raises(UserError) as err:
        run_judge(make_judge(judge_config(fake, "openai"), cache=cache))
    _assert_rebuild_message(err, path)
    assert fake.total_requests == 0
    cache.close()


def _insert(path, key: str, data, input_tokens=1, output_tokens=2) -> None:
    db = sqlite3.connect(path)
    db.execute(
        "INSERT INTO responses (key, provider, model, data, input_tokens, output_tokens) VALUES (?, ?, ?, ?, ?, ?)",
        (key, "openai", "m", data, input_tokens, output_tokens),
    )
    db.commit()
    db.close()


def test_a_row_with_invalid_json_is_a_miss_counted_and_logged_once(tmp_path, caplog):
    path = tmp_path / "cache.sqlite"
    ResponseCache(path).close()
    _insert(path, "broken", '{"accuracy": 3, "rationale": "cut sh')
    _insert(path, "not-an-object", "[1, 2]")
    _insert(path, "not-text", b"\xff\xfe binary")
    _insert(path, "bad-tokens", '{"accuracy": 3}', input_tokens="many")
    cache = ResponseCache(path)
    with caplog.at_level(logging.WARNING, logger="groundjudge.judging.cache"):
        assert [cache.get(k) for k in ("broken", "not-an-object", "not-text", "bad-tokens")] == [None] * 4
    assert cache.unreadable_rows == 4
    warnings = [r for r in caplog.records if r.name == "groundjudge.judging.cache"]
    assert len(warnings) == 1 and str(path) in warnings[0].getMessage()
    cache.put("broken", "openai", "m", {"accuracy": 4}, 5, 6)  # the call made again replaces the row
    assert cache.get("broken").data == {"accuracy": 4}
    cache.close()


def test_a_judge_asks_again_when_its_cached_row_is_invalid_json(fake, api_keys, tmp_path):
    path = tmp_path / "cache.sqlite"
    cache = ResponseCache(path)
    config = judge_config(fake, "openai")
    assert run_judge(make_judge(config, cache=cache)).valid and fake.total_requests == 1
    cache._db.execute("UPDATE responses SET data = '{oops'")
    again = run_judge(make_judge(config, cache=cache))
    assert again.valid and not again.cached and fake.total_requests == 2 and cache.unreadable_rows == 1
    assert run_judge(make_judge(config, cache=cache)).cached and fake.total_requests == 2  # replaced by the new reply
    cache.close()
