"""The response cache: keys, replay, offline misses, errors not cached, concurrent writers."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest
from _fake_provider_helpers import (
    DEFAULT_TOTAL,
    api_keys,
    fake,
    fake_server,
    judge_config,
    make_judge,
    run_judge,
)

from groundjudge.errors import UserError
from groundjudge.judging.cache import ResponseCache, cache_key
from groundjudge.judging.fakeprovider import FakeProvider, Fault

MESSAGES = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
PARAMS = {"max_tokens": 10, "temperature": 0.0}
SCHEMA = {"type": "object", "properties": {"a": {"type": "integer"}}}


URL = "http://127.0.0.1:8000/v1"


def test_key_depends_on_every_part():
    base = cache_key("openai", URL, "m", MESSAGES, PARAMS, SCHEMA)
    assert base == cache_key("openai", URL + "/", "m", [dict(m) for m in MESSAGES], dict(PARAMS), dict(SCHEMA))
    variants = [
        cache_key("anthropic", URL, "m", MESSAGES, PARAMS, SCHEMA),
        cache_key("openai", "http://127.0.0.1:8001/v1", "m", MESSAGES, PARAMS, SCHEMA),  # another server, same model id
        cache_key("openai", None, "m", MESSAGES, PARAMS, SCHEMA),  # the vendor's own API
        cache_key("openai", URL, "m2", MESSAGES, PARAMS, SCHEMA),
        cache_key("openai", URL, "m", [MESSAGES[0], {"role": "user", "content": "u2"}], PARAMS, SCHEMA),
        cache_key("openai", URL, "m", MESSAGES, {**PARAMS, "temperature": 0.5}, SCHEMA),
        cache_key("openai", URL, "m", MESSAGES, PARAMS, {**SCHEMA, "required": ["a"]}),
    ]
    assert len({base, *variants}) == 8


def test_two_servers_with_one_model_id_do_not_share_replies(fake, api_keys, tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    first = judge_config(fake, "openai", model="llama3")
    assert run_judge(make_judge(first, cache=cache)).valid and fake.total_requests == 1
    other = first.model_copy(update={"provider": "openai-compatible", "base_url": fake.url + "/v1/"})
    same_server = first.model_copy(update={"base_url": fake.openai_base_url + "/"})
    assert not run_judge(make_judge(other, cache=cache)).cached and fake.total_requests == 2
    with FakeProvider() as second:
        elsewhere = first.model_copy(update={"base_url": second.openai_base_url})
        assert not run_judge(make_judge(elsewhere, cache=cache)).cached and second.total_requests == 1
    assert run_judge(make_judge(same_server, cache=cache)).cached and fake.total_requests == 2  # a trailing / is the same URL
    cache.close()


def test_put_get_roundtrip(tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    assert cache.get("k") is None
    cache.put("k", "openai", "m", {"a": 1, "rationale": "r"}, 12, 3)
    hit = cache.get("k")
    assert hit is not None and hit.data == {"a": 1, "rationale": "r"} and (hit.input_tokens, hit.output_tokens) == (12, 3)
    cache.close()
    reopened = ResponseCache(tmp_path / "c.sqlite")
    assert len(reopened) == 1 and reopened.get("k").data["a"] == 1
    assert reopened._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_not_a_database_is_a_user_error(tmp_path):
    bad = tmp_path / "cache.sqlite"
    bad.write_bytes(b"this is not sqlite at all, just some text padding it out" * 20)
    with pytest.raises(UserError, match="not a usable response cache"):
        ResponseCache(bad)


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_second_call_is_replayed_without_a_request(fake, api_keys, tmp_path, provider):
    cache = ResponseCache(tmp_path / "c.sqlite")
    first = run_judge(make_judge(judge_config(fake, provider), cache=cache))
    assert first.valid and not first.cached and fake.total_requests == 1
    second = run_judge(make_judge(judge_config(fake, provider), cache=cache))
    assert second.cached and second.total == DEFAULT_TOTAL == first.total
    assert second.usage == first.usage  # the original call's usage is kept with the replay
    assert fake.total_requests == 1


def test_changed_prompt_misses(fake, api_keys, tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    run_judge(make_judge(judge_config(fake), cache=cache), user="answer one")
    run_judge(make_judge(judge_config(fake), cache=cache), user="answer two")
    assert fake.total_requests == 2 and len(cache) == 2


def test_errors_are_not_cached(fake, api_keys, tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    fake.add(Fault("out_of_range"), times=1)
    assert not run_judge(make_judge(judge_config(fake), cache=cache)).valid
    assert len(cache) == 0
    again = run_judge(make_judge(judge_config(fake), cache=cache))
    assert again.valid and not again.cached and fake.total_requests == 2


def test_offline_hit_and_miss(fake, api_keys, tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    run_judge(make_judge(judge_config(fake), cache=cache), user="seen")
    assert run_judge(make_judge(judge_config(fake), cache=cache, offline=True), user="seen").cached
    miss = run_judge(make_judge(judge_config(fake), cache=cache, offline=True), user="never seen")
    assert miss.error.startswith("offline: no cached response") and miss.scores is None
    assert fake.total_requests == 1  # only the first, online call


def test_offline_needs_no_credentials(fake, monkeypatch, tmp_path):
    cache = ResponseCache(tmp_path / "c.sqlite")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    run_judge(make_judge(judge_config(fake), cache=cache))
    monkeypatch.delenv("OPENAI_API_KEY")
    assert run_judge(make_judge(judge_config(fake), cache=cache, offline=True)).cached


WRITER = textwrap.dedent(
    """
    import sys
    from groundjudge.judging.cache import ResponseCache
    cache = ResponseCache(sys.argv[1])
    tag = sys.argv[2]
    for i in range(300):
        cache.put(f"{tag}-{i}", "openai", "m", {"i": i, "tag": tag}, i, 1)
        assert cache.get(f"{tag}-{i}").data["i"] == i
    cache.close()
    """
)


def test_two_processes_write_concurrently(tmp_path):
    path = tmp_path / "shared.sqlite"
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), tag], stderr=subprocess.PIPE) for tag in ("a", "b")]
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err.decode()
    cache = ResponseCache(path)
    assert len(cache) == 600
    assert cache.get("a-299").data == {"i": 299, "tag": "a"} and cache.get("b-0").data == {"i": 0, "tag": "b"}
