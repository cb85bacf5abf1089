"""``groundjudge score`` through the real CLI: output lines, exit codes, one-line errors."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from groundjudge.cli import app
from judging.fakeprovider import Fault
from _fake_provider_helpers import api_keys, fake, fake_server, write_project  # noqa: F401


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path)


def invoke(project, fake, *extra: str):
    args = ["score", str(project / "run"), "--corpus", str(project / "corpus"), "--questions", str(project / "questions.jsonl"),
            "--config", str(project / "groundjudge.toml"), "--cache", str(project / "cache.sqlite"), "--no-progress",
            "--judge", f"judge-claude=anthropic:fake-claude@{fake.anthropic_base_url}",
            "--judge", f"judge-gpt=openai:fake-gpt@{fake.openai_base_url}", *extra]
    return CliRunner(env={"COLUMNS": "200"}).invoke(app, args)


def test_score_then_rerun(project, fake, api_keys):
    result = invoke(project, fake)
    assert result.exit_code == 0, result.output
    assert "3 answers (0 already complete): 6 judged, 0 failed, 0 kept; 6 provider calls, 0 cache hits" in result.stdout
    again = invoke(project, fake)
    assert "3 answers (3 already complete): 0 judged, 0 failed, 6 kept; 0 provider calls" in again.stdout
    assert fake.total_requests == 6


def test_failures_are_listed(project, fake, api_keys):
    fake.add(Fault("refusal"), model="fake-gpt", times=None)
    result = invoke(project, fake)
    assert result.exit_code == 0
    assert "3 judged, 3 failed" in result.stdout
    assert "3 x refusal: I can't help with that." in result.stdout


def test_dry_run_prints_projection(project, fake, api_keys):
    result = invoke(project, fake, "--dry-run")
    assert result.exit_code == 0, result.output
    assert "dry run: nothing was called or written" in result.stdout
    assert "fake-claude" in result.stdout and "projected USD" in result.stdout
    assert "3 answers, 6 judgements to do, 0 already scored" in result.stdout
    assert fake.total_requests == 0 and not (project / "run" / "manifest.json").exists()


def test_budget_message(project, fake, api_keys):
    result = invoke(project, fake, "--budget", "0.000001", "--concurrency", "1")
    assert result.exit_code == 0
    # Two endpoints (Anthropic, OpenAI), one call in flight on each: both first calls go out, the 4 others do not.
    assert "2 judged, 4 failed" in result.stdout and "2 provider calls" in result.stdout
    assert "budget of $1e-06 reached: 4 judgements not submitted" in result.stdout
    assert "  4 x budget reached: not submitted" in result.stdout


def test_missing_credentials_warning(project, fake, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = invoke(project, fake)
    assert result.exit_code == 0
    assert "warning: judge-claude: ANTHROPIC_API_KEY is not set" in result.stderr
    assert "3 x missing credentials: set ANTHROPIC_API_KEY" in result.stdout


@pytest.mark.parametrize(
    "setup,args,needle",
    [
        ("stray", (), "q99.md: answer for question id 'q99'"),
        (None, ("--judge", "x=bogus:m"), "invalid --judge 'x=bogus:m': unknown provider 'bogus'"),
        (None, ("--rubric", "no-such-rubric"), "unknown rubric 'no-such-rubric'"),
        (None, ("--cells", "nope"), "no cell 'nope'"),
        ("badconfig", (), "groundjudge.toml: invalid config: defaults.concurrency"),
    ],
)
def test_bad_input_is_one_line_exit_2(project, fake, api_keys, setup, args, needle):
    if setup == "stray":
        (project / "run" / "cell-a" / "answers" / "q99.md").write_text("x\n")
    if setup == "badconfig":
        (project / "groundjudge.toml").write_text("[defaults]\nconcurrency = 0\n")
    result = invoke(project, fake, *args)
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], result.stderr
    assert fake.total_requests == 0 and not list((project / "run").rglob("*.json"))
