"""``groundjudge score`` through the real CLI: output lines, exit codes, one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from _fake_provider_helpers import api_keys, fake, fake_server, score_args, write_project
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.judging.fakeprovider import Fault


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path)


def _args(project, fake, *extra: str) -> list[str]:
    judges = [
        f"judge-claude=anthropic:fake-claude@{fake.anthropic_base_url}",
        f"judge-gpt=openai:fake-gpt@{fake.openai_base_url}",
    ]
    return score_args(project, judges, *extra)


def invoke(project, fake, *extra: str):
    return CliRunner(env={"COLUMNS": "200"}).invoke(app, _args(project, fake, *extra))


def test_score_then_rerun(project, fake, api_keys):
    result = invoke(project, fake)
    assert result.exit_code == 0, result.output
    assert "3 answers (0 already complete): 6 judged, 0 failed, 0 kept; 6 provider calls, 0 cache hits" in result.stdout
    assert not fake.refused  # both requests met the services' rules, as the stand-in enforces them
    again = invoke(project, fake)
    assert "3 answers (3 already complete): 0 judged, 0 failed, 6 kept; 0 provider calls" in again.stdout
    assert fake.total_requests == 6


def test_failures_are_listed(project, fake, api_keys):
    fake.add(Fault("refusal"), model="fake-gpt", times=None)
    result = invoke(project, fake)
    assert result.exit_code == 0
    assert "3 judged, 3 failed" in result.stdout
    assert "3 failed judgements are recorded with their error and no scores (never as 0):" in result.stdout
    assert "  judge-gpt: 3 x refusal: I can't help with that.  [will recur: same prompt, same reply]" in result.stdout
    assert "errors are never cached: every rerun calls these judges again" in result.stdout
    # And so it does: a rerun calls judge-gpt again for exactly the three refused judgements.
    again = invoke(project, fake)
    assert "0 judged, 3 failed, 3 kept; 3 provider calls" in again.stdout and fake.counts["/v1/chat/completions"] == 6


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
    assert "  judge-claude: 2 x budget reached: not submitted" in result.stdout
    assert "  judge-gpt: 2 x budget reached: not submitted" in result.stdout
    assert "a rerun of the same command retries exactly the failed judgements" in result.stdout


def test_offline_misses_are_counted_together(project, fake, api_keys):
    result = invoke(project, fake, "--offline")
    # Every judgement failed: exit 3, so a script does not take a run that scored nothing for a success.
    assert result.exit_code == 3 and fake.total_requests == 0
    assert "exit 3: every judgement failed" in result.stderr
    # Each judgement's error names its own cache key; the summary counts them as one kind per judge.
    assert "  judge-claude: 3 x offline: no cached response\n  judge-gpt: 3 x offline: no cached response\n" in result.stdout


def test_help_shows_the_judge_grammar():
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, ["score", "--help"])
    assert "NAME=PROVIDER:MODEL[@BASE_URL]" in result.stdout  # not eaten as console markup


def test_missing_credentials_warning(project, fake, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    result = invoke(project, fake)
    assert result.exit_code == 0
    assert "warning: judge-claude: ANTHROPIC_API_KEY is not set" in result.stderr
    assert "  judge-claude: 3 x missing credentials: set ANTHROPIC_API_KEY" in result.stdout


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


def test_ctrl_c_then_resume(project, fake, api_keys):
    """SIGINT to a real `groundjudge score` process: exit 130 with a one-line hint, only complete files, and a
    rerun that finishes the rest."""
    import os
    import signal
    import subprocess
    import sys
    import time

    fake.latency = 0.3  # one call at a time per endpoint: the first answer's file lands well before the last
    args = [sys.executable, "-c", "from groundjudge.cli import main; main()", *_args(project, fake), "--concurrency", "1"]
    # a suite started in the background of a shell without job control inherits SIGINT ignored, and so would the
    # child, which would then never see the signal: it gets the default a terminal's Ctrl-C meets
    proc = subprocess.Popen(
        args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "COLUMNS": "200"},
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    scores = project / "run"
    deadline = time.monotonic() + 30
    while not list(scores.rglob("scores/*.json")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, (out, err)
    assert "interrupted: every score file on disk is complete; run the same command again" in err
    written = sorted(scores.rglob("scores/*.json"))
    assert 1 <= len(written) < 3 and not [p for p in scores.rglob("*") if ".tmp" in p.name]
    fake.latency = 0.0
    again = invoke(project, fake)
    assert again.exit_code == 0 and f"3 answers ({len(written)} already complete)" in again.stdout
    assert len(list(scores.rglob("scores/*.json"))) == 3


def test_strict_exits_3_when_any_judgement_failed(project, fake, api_keys):
    fake.add(Fault("refusal"), model="fake-gpt", times=1)
    assert invoke(project, fake).exit_code == 0  # some judgements failed, not all
    fake.add(Fault("refusal"), model="fake-gpt", times=1)
    result = invoke(project, fake, "--strict")
    assert result.exit_code == 3 and "exit 3: a judgement failed" in result.stderr


def test_a_judge_whose_calls_are_all_refused_is_stopped_and_said(project, fake, api_keys):
    fake.add(Fault("status", status=400), model="fake-gpt", times=None)
    result = invoke(project, fake, "--concurrency", "1")
    # Three answers: three refused calls stop the judge; with more answers the rest are not submitted.
    assert fake.counts["/v1/chat/completions"] == 3
    assert "judge judge-gpt stopped: its first calls were all refused with HTTP 400: scripted 400" in result.stdout
    assert "  judge-gpt: 3 x HTTP 400: scripted 400  [will recur: same prompt, same reply]" in result.stdout


def test_malformed_score_files_are_rewritten_and_said(project, fake, api_keys):
    assert invoke(project, fake).exit_code == 0
    path = next((project / "run").glob("*/scores/*.json"))
    data = json.loads(path.read_text())
    data["judgements"][0]["scores"]["accuracy"] = 500.0
    path.write_text(json.dumps(data))
    result = invoke(project, fake)
    assert "1 score files could not be used and were treated as missing" in result.stdout
    assert str(path) in result.stdout
    assert "1 judged" in result.stdout or "2 judged" in result.stdout  # only that answer is judged again
    again = invoke(project, fake)
    assert "could not be used" not in again.stdout and "0 provider calls" in again.stdout


def test_two_score_processes_call_each_judgement_once(project, fake, api_keys, tmp_path):
    # Two real processes started together on the same cells: whichever locks a cell first scores it, the
    # other skips it (or finds it scored): 6 judgements, 6 calls, never 12.
    fake.latency = 0.2
    env = {**os.environ, "COLUMNS": "200", "GROUNDJUDGE_HOME": str(tmp_path / "home")}
    args = [sys.executable, "-m", "groundjudge", *_args(project, fake)]
    procs = [subprocess.Popen(args, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    assert fake.total_requests == 6


def test_a_corpus_other_than_the_runs_is_refused_unless_forced(project, fake, api_keys, tmp_path):
    assert invoke(project, fake).exit_code == 0
    other = tmp_path / "other"
    (other / "cbl").mkdir(parents=True)
    (other / "cbl" / "ZZ.cbl").write_text("       IDENTIFICATION DIVISION.\n       PROGRAM-ID. ZZ.\n")
    args = _args(project, fake)
    args[args.index("--corpus") + 1] = str(other)
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2 and fake.total_requests == 6
    assert "manifest.json: an earlier score records corpus tree" in result.stderr and "--force" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert CliRunner().invoke(app, [*args, "--force"]).exit_code == 0


def test_a_question_set_other_than_run_json_records_is_refused(project, fake, api_keys):
    (project / "run" / "run.json").write_text(json.dumps({"questions": {"sha256": "0" * 64}}))
    result = invoke(project, fake)
    assert result.exit_code == 2 and fake.total_requests == 0
    assert "run.json: run.json records a question set with sha256 000000000000" in result.stderr


def test_the_summary_totals_the_grounding_verdicts(project, fake, api_keys):
    result = invoke(project, fake)
    line = next(x for x in result.stdout.splitlines() if x.startswith("grounding: "))
    assert line.endswith(" claims") and "SUPPORTED" in line


def test_budget_0_does_not_hold_a_model_without_a_price(project, fake, api_keys):
    # The warning says unpriced calls do not count toward --budget: so --budget 0 must not stop them.
    args = _args(project, fake, "--budget", "0")
    args = [a.replace("fake-gpt", "unpriced-model") for a in args]
    result = CliRunner(env={"COLUMNS": "200"}).invoke(app, args)
    assert "no price for model 'unpriced-model'" in result.stderr
    assert "  judge-gpt:" not in result.stdout  # none of judge-gpt's judgements failed
    assert "3 x budget reached: not submitted" in result.stdout  # the priced judge is held at 0
