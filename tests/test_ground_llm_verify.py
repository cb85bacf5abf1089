"""`groundjudge ground --llm-verify`: the LLM verifier on the grounding command, as `score --llm-verify` uses
it, against the strict loopback provider."""

from __future__ import annotations

import json
from pathlib import Path

from _fake_provider_helpers import CONFIG, PROGRAM, api_keys, fake, fake_server
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.judging.fakeprovider import Fault

runner = CliRunner()
CLAIM = "`0000-MAIN` performs `1000-COUNT-RECORDS` and then prints the count.\n"


def _project(tmp_path: Path) -> Path:
    (tmp_path / "corpus" / "cbl").mkdir(parents=True)
    (tmp_path / "corpus" / "cbl" / "BKX01C.cbl").write_text(PROGRAM)
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / "q01.md").write_text(CLAIM)
    (tmp_path / "groundjudge.toml").write_text(CONFIG)
    return tmp_path


def _ground(project: Path, spec: str, *extra: str):
    args = ["ground", str(project / "answers" / "q01.md"), "--corpus", str(project / "corpus")]
    args += ["--out", str(project / "q01.json"), "--llm-verify", spec]
    args += ["--config", str(project / "groundjudge.toml"), "--cache", str(project / "cache.sqlite"), *extra]
    return runner.invoke(app, args)


def _claim(project: Path) -> dict:
    [claim] = json.loads((project / "q01.json").read_text())["claims"]
    return claim


def test_the_model_judges_each_claim_and_a_rerun_is_answered_from_the_cache(fake, tmp_path):
    project = _project(tmp_path)
    spec = f"v=openai-compatible:fake-small@{fake.openai_base_url}"
    # the checks alone find the PERFORM, which holds: the claim says more, and nothing prints the count
    plain = runner.invoke(app, ["ground", str(project / "answers" / "q01.md"), "--corpus", str(project / "corpus")])
    assert json.loads(plain.stdout)["claims"][0]["verdict"] == "SUPPORTED"

    reply = {"fact": 1, "answer": "contradicted", "reason": "Nothing displays the count.", "cites": []}
    fake.add(Fault(arguments={"answers": [reply]}))
    result = _ground(project, spec)
    assert result.exit_code == 0, result.output
    claim = _claim(project)
    assert (claim["verdict"], claim["verifier"], claim["verifier_kind"]) == ("UNSUPPORTED", "llm:fake-small", "llm")
    assert claim["reason"].startswith("the claim as a whole is contradicted: Nothing displays the count.")
    assert fake.total_requests == 1
    assert "--llm-verify fake-small: requests sent 1 (retries included), calls answered from the cache 0" in result.stderr

    again = _ground(project, spec)
    assert again.exit_code == 0 and fake.total_requests == 1
    assert "requests sent 0 (retries included), calls answered from the cache 1" in again.stderr
    assert _claim(project)["verdict"] == "UNSUPPORTED"


def test_a_failed_call_leaves_the_checks_verdict_and_says_so(fake, tmp_path):
    project = _project(tmp_path)
    fake.add(Fault("status", status=500), times=None)
    result = _ground(project, f"v=openai-compatible:fake-small@{fake.openai_base_url}")
    assert result.exit_code == 0, result.output
    claim = _claim(project)
    # a failed call changes no verdict, and the report says the model was not heard
    assert (claim["verdict"], claim["verifier"], claim["verifier_kind"]) == ("SUPPORTED", "llm:fake-small (failed)", "llm_failed")
    assert "ERROR" not in result.stderr  # instructor's own log stays quiet
    assert "calls failed 1 (their claims keep the checks' verdicts; a rerun asks again)" in result.stderr


def test_offline_sends_nothing_and_a_missing_key_stops_before_any_work(fake, tmp_path, monkeypatch):
    project = _project(tmp_path)
    offline = _ground(project, f"v=openai-compatible:fake-small@{fake.openai_base_url}", "--offline")
    assert offline.exit_code == 0 and fake.total_requests == 0
    assert _claim(project)["verifier_kind"] == "llm_failed"

    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    (project / "q01.json").unlink()
    refused = _ground(project, f"v=openai:gpt-x@{fake.openai_base_url}")
    assert refused.exit_code == 2
    assert "--llm-verify v: set OPENAI_API_KEY (or run with --offline to replay from the cache)" in refused.output
    assert not (project / "q01.json").exists() and fake.total_requests == 0
