"""The scoring runner end to end: real grounding, real SDKs and instructor, the loopback provider."""

from __future__ import annotations

import gc
import json
import os
import signal
from pathlib import Path

import pytest
from _fake_provider_helpers import (
    ANSWERS,
    CONFIG,
    DEFAULT_SCORES,
    DEFAULT_TOTAL,
    api_keys,
    fake,
    fake_server,
    write_project,
)

from groundjudge.errors import UserError
from groundjudge.grounding.models import GroundingReport
from groundjudge.hashing import sha256_file
from groundjudge.judging.fakeprovider import Fault
from groundjudge.judging.manifest import RunManifest
from groundjudge.judging.models import ScoreFile
from groundjudge.judging.runner import Runner, ScoreOptions
from groundjudge.storage import read_model


@pytest.fixture
def project(tmp_path):
    return write_project(tmp_path)


def options(project: Path, fake, **kw) -> ScoreOptions:
    judges = kw.pop(
        "judges",
        [f"judge-claude=anthropic:fake-claude@{fake.anthropic_base_url}", f"judge-gpt=openai:fake-gpt@{fake.openai_base_url}"],
    )
    return ScoreOptions(
        run_dir=project / "run",
        corpus=str(project / "corpus"),
        questions=project / "questions.jsonl",
        judges=judges,
        config=project / "groundjudge.toml",
        cache=project / "cache.sqlite",
        progress=False,
        **kw,
    )


def run(project, fake, **kw):
    messages: list[str] = []
    summary = Runner(options(project, fake, **kw), echo=messages.append).run()
    return summary, messages


def score(project, cell, qid) -> ScoreFile:
    return read_model(project / "run" / cell / "scores" / f"{qid}.json", ScoreFile)


def all_outputs(project) -> dict[str, bytes]:
    return {p.relative_to(project).as_posix(): p.read_bytes() for p in sorted((project / "run").rglob("*.json"))}


def test_full_run_writes_grounding_scores_and_manifest(project, fake, api_keys):
    summary, messages = run(project, fake)
    assert messages == []
    assert (summary.answers, summary.done, summary.failed, summary.calls, summary.cache_hits) == (3, 6, 0, 6, 0)
    assert fake.counts == {"/v1/messages": 3, "/v1/chat/completions": 3}
    for cell, qid in ANSWERS:
        sf = score(project, cell, qid)
        assert sf.judged and [j.judge for j in sf.judgements] == ["judge-claude", "judge-gpt"]
        assert all(j.scores == DEFAULT_SCORES and j.total == DEFAULT_TOTAL for j in sf.judgements)
        report = read_model(project / "run" / cell / "grounding" / f"{qid}.json", GroundingReport)
        assert report.answer.path == f"{cell}/answers/{qid}.md"
        assert sf.grounding.path == f"{cell}/grounding/{qid}.json"
        assert sf.grounding.counts == {k.value: v for k, v in report.counts.items()}
        assert sf.answer_sha256 == report.answer.sha256
        # Both judges saw the same rendered prompt, built from the one shared grounding report.
        assert len({j.prompt_sha256 for j in sf.judgements}) == 1
        for j in sf.judgements:
            # cost = (input * in_price + output * out_price) / 1e6, from the recorded usage
            price = {"fake-claude": (1.0, 10.0), "fake-gpt": (2.0, 20.0)}[j.model]
            assert j.cost_usd == pytest.approx((j.usage.input_tokens * price[0] + j.usage.output_tokens * price[1]) / 1e6)
            assert j.latency_s is not None and j.params_sha256
    assert summary.spent_usd == pytest.approx(sum(j.cost_usd for c, q in ANSWERS for j in score(project, c, q).judgements))
    manifest = read_model(project / "run" / "manifest.json", RunManifest)
    assert manifest.corpus_tree_hash == score(project, "cell-a", "q01").corpus_tree_hash
    assert manifest.rubric.name == "reference-free" and manifest.template_name == "judge-dimensions-v1"
    assert [(j.name, j.provider, j.model) for j in manifest.judges] == [
        ("judge-claude", "anthropic", "fake-claude"),
        ("judge-gpt", "openai", "fake-gpt"),
    ]
    assert manifest.judges[1].params == {"max_completion_tokens": 1024, "temperature": 0.0, "seed": 20240601}
    assert manifest.cells == ["cell-a", "cell-b"] and len(manifest.questions_sha256) == 64
    assert manifest.run_json_sha256 is None  # this run directory has no run.json
    assert manifest.config_sha256 == [sha256_file(p) for p in manifest.config_files]
    assert manifest.config_files[-1] == str(project / "groundjudge.toml")


def test_rerun_makes_zero_calls_and_rewrites_nothing(project, fake, api_keys):
    run(project, fake)
    before = all_outputs(project)
    fake.clear()
    summary, _ = run(project, fake)
    assert fake.total_requests == 0
    assert (summary.answers_skipped, summary.judgements_kept, summary.score_files_written) == (3, 6, 0)
    assert all_outputs(project) == before


def test_force_redoes_from_the_cache(project, fake, api_keys):
    run(project, fake)
    fake.clear()
    summary, _ = run(project, fake, force=True)
    assert fake.total_requests == 0 and summary.cache_hits == 6 and summary.score_files_written == 3
    assert all(j.cached for j in score(project, "cell-a", "q01").judgements)


def test_resume_redoes_only_what_is_missing_or_changed(project, fake, api_keys):
    run(project, fake)
    (project / "run" / "cell-a" / "scores" / "q02.json").unlink()  # missing: replayed from the cache
    (project / "run" / "cell-b" / "answers" / "q01.md").write_text("`BKX01C` performs `1000-COUNT-RECORDS`.\n")  # changed
    untouched = (project / "run" / "cell-a" / "scores" / "q01.json").read_bytes()
    fake.clear()
    summary, _ = run(project, fake)
    assert fake.total_requests == 2  # the changed answer, once per judge
    assert summary.cache_hits == 2 and summary.score_files_written == 2 and summary.answers_skipped == 1
    assert (project / "run" / "cell-a" / "scores" / "q01.json").read_bytes() == untouched
    changed = score(project, "cell-b", "q01")
    assert changed.judged and not any(j.cached for j in changed.judgements)


def test_failures_are_recorded_and_never_zero(project, fake, api_keys):
    # cell-b/q01 fails for both judges; cell-a/q02 only for judge-claude; 500s on cell-a/q01 are retried away.
    fake.add(Fault("out_of_range"), match="9999-MISSING-PARA", times=None)
    fake.add(Fault("refusal"), match="PIC 9(4)", model="fake-claude", times=None)
    fake.add(Fault("status", status=500), match="performs `1000-COUNT-RECORDS`", model="fake-gpt", times=1)
    summary, _ = run(project, fake)
    assert (summary.done, summary.failed) == (3, 3)
    dead = score(project, "cell-b", "q01")
    assert dead.judged is False
    assert all(
        j.error.startswith("out-of-range score: accuracy") and j.scores is None and j.total is None for j in dead.judgements
    )
    half = score(project, "cell-a", "q02")
    claude, gpt = half.judgements
    assert half.judged and claude.error.startswith("refusal") and claude.total is None and gpt.total == DEFAULT_TOTAL
    assert score(project, "cell-a", "q01").judged and fake.counts["/v1/chat/completions"] == 4  # 3 + one retry
    # A rerun retries exactly the failed judgements; the valid ones are kept without a call.
    fake.clear()
    summary, _ = run(project, fake)
    assert summary.failed == 0, summary
    assert (fake.total_requests, summary.judgements_kept) == (3, 3), (summary, fake.requests)
    assert score(project, "cell-b", "q01").judged


def test_budget_stops_new_calls(project, fake, api_keys):
    # One call at a time: the first call costs more than $0.000001, so nothing after it is submitted.
    summary, _ = run(
        project, fake, budget_usd=0.000001, concurrency=1, judges=[f"judge-gpt=openai:fake-gpt@{fake.openai_base_url}"]
    )
    assert fake.total_requests == 1 and summary.done == 1 and summary.budget_refused == 2
    refused = [j for c, q in ANSWERS for j in score(project, c, q).judgements if not j.valid]
    assert len(refused) == 2 and all(j.error == "budget reached: not submitted" and j.total is None for j in refused)
    assert summary.spent_usd > 0.000001
    # A later run without a budget finishes only what was refused.
    fake.clear()
    summary, _ = run(project, fake, judges=[f"judge-gpt=openai:fake-gpt@{fake.openai_base_url}"])
    assert fake.total_requests == 2 and summary.judgements_kept == 1


def test_dry_run_calls_no_one_and_writes_nothing(project, fake, api_keys):
    summary, _ = run(project, fake, dry_run=True)
    assert fake.total_requests == 0
    assert all_outputs(project) == {}
    claude, gpt = summary.estimates
    assert (claude.judgements, claude.cached, gpt.judgements) == (3, 0, 3)
    assert claude.output_tokens == 3 * 300  # expected_output_tokens per judgement, three answers
    assert claude.input_tokens > 0 and claude.input_tokens == gpt.input_tokens
    assert claude.cost_usd == pytest.approx((claude.input_tokens * 1.0 + claude.output_tokens * 10.0) / 1e6)
    assert gpt.cost_usd == pytest.approx(2 * claude.cost_usd)  # every fake-gpt price is double
    # After a real run, a dry run finds nothing left to do.
    run(project, fake)
    summary, _ = run(project, fake, dry_run=True)
    assert summary.judgements_planned == 0 and [e.judgements for e in summary.estimates] == [0, 0]


def test_dry_run_counts_cached_judgements(project, fake, api_keys):
    run(project, fake)
    summary, _ = run(project, fake, dry_run=True, force=True)
    assert [(e.judgements, e.cached, e.input_tokens) for e in summary.estimates] == [(3, 3, 0), (3, 3, 0)]
    assert [e.cost_usd for e in summary.estimates] == [0.0, 0.0]


def test_offline_miss_is_a_recorded_error(project, fake, api_keys):
    summary, _ = run(project, fake, offline=True)
    assert fake.total_requests == 0 and summary.failed == 6
    sf = score(project, "cell-a", "q01")
    assert not sf.judged and all(j.error.startswith("offline: no cached response") for j in sf.judgements)
    # Online once, then offline replays everything.
    run(project, fake)
    fake.clear()
    summary, _ = run(project, fake, offline=True, force=True)
    assert fake.total_requests == 0 and summary.cache_hits == 6 and summary.failed == 0


def test_missing_credentials_reported_up_front(project, fake, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    _summary, messages = run(project, fake)
    assert any("judge-claude: ANTHROPIC_API_KEY is not set" in m for m in messages)
    assert fake.counts == {"/v1/chat/completions": 3}
    for cell, qid in ANSWERS:
        claude, gpt = score(project, cell, qid).judgements
        assert claude.error == "missing credentials: set ANTHROPIC_API_KEY" and gpt.valid
        assert (project / "run" / cell / "grounding" / f"{qid}.json").is_file()


def test_unknown_qid_is_one_error_and_nothing_written(project, fake, api_keys):
    stray = project / "run" / "cell-a" / "answers" / "q99.md"
    stray.write_text("Something.\n")
    with pytest.raises(UserError, match="'q99'") as info:
        run(project, fake)
    assert str(stray) in str(info.value) and "\n" not in str(info.value)
    assert all_outputs(project) == {} and fake.total_requests == 0


def test_unknown_cell_is_an_error(project, fake, api_keys):
    with pytest.raises(UserError, match="no cell 'nope'"):
        run(project, fake, cells=["nope"])


def test_cells_filter(project, fake, api_keys):
    summary, _ = run(project, fake, cells=["cell-b"])
    assert summary.answers == 1 and not (project / "run" / "cell-a" / "scores").exists()


def test_crash_mid_run_leaves_only_complete_files(project, fake, api_keys, monkeypatch, caplog):
    real_fsync = os.fsync
    score_writes = []

    def failing_fsync(fd):
        # Ctrl-C arrives while the second score file is being written, and that write dies with its bytes
        # in the temporary file, not yet renamed.
        if "/scores/" in os.readlink(f"/proc/self/fd/{fd}"):
            score_writes.append(fd)
            if len(score_writes) == 2:
                os.kill(os.getpid(), signal.SIGINT)
                raise OSError("simulated crash during the write")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", failing_fsync)
    with pytest.raises((KeyboardInterrupt, OSError)):
        run(project, fake, concurrency=1)
    monkeypatch.setattr(os, "fsync", real_fsync)
    # Every task's outcome was collected: nothing is left to be logged when tasks are garbage-collected.
    gc.collect()
    assert not [r for r in caplog.records if "never retrieved" in r.getMessage()]
    leftovers = [p for p in (project / "run").rglob("*") if p.name.endswith(".tmp")]
    assert leftovers == []
    scores = sorted((project / "run").rglob("scores/*.json"))
    # Writes happen in worker threads: another answer's file may complete while the second one dies.
    assert 1 <= len(scores) <= 2
    for path in scores:
        assert read_model(path, ScoreFile).judged  # complete and valid, never half-written
    # Both judgements behind the lost second file finished (and were cached) before its write died, so
    # finishing calls only for the third answer, at most once per judge, and writes the two missing files.
    fake.clear()
    summary, _ = run(project, fake)
    assert fake.total_requests <= 2 and summary.cache_hits >= 2 and summary.score_files_written == 3 - len(scores)
    assert len(sorted((project / "run").rglob("scores/*.json"))) == 3


def test_changed_rubric_redoes_everything(project, fake, api_keys):
    run(project, fake)
    custom = project / "two-dims.toml"
    custom.write_text(
        'schema_version = 1\nkind = "dimensions"\nname = "two"\nversion = 1\n'
        '[[dimensions]]\nname = "accuracy"\nmax = 10\ndescription = "Right?"\n'
        '[[dimensions.bands]]\nmin = 0\nmax = 10\ndescriptor = "From wrong to right."\n'
        '[[dimensions]]\nname = "clarity"\nmax = 4\ndescription = "Clear?"\n'
        '[[dimensions.bands]]\nmin = 0\nmax = 4\ndescriptor = "From muddled to clear."\n'
    )
    fake.clear()
    _summary, _ = run(project, fake, rubric=str(custom))
    assert fake.total_requests == 6
    sf = score(project, "cell-a", "q01")
    # 3/4 of each maximum, rounded down: accuracy 10 -> 7, clarity 4 -> 3; total 10
    assert sf.judgements[0].scores == {"accuracy": 7.0, "clarity": 3.0} and sf.judgements[0].total == 10.0
    assert sf.rubric.name == "two" and sf.rubric.dimensions == {"accuracy": 10.0, "clarity": 4.0}


def test_example_run_dir(repo_root, tmp_path, fake, api_keys):
    """The bundled example run (hand-written answers about corpora/cobol-bank) scores end to end."""
    example = repo_root / "examples" / "run"
    if not example.is_dir() or not (repo_root / "questions" / "cobol-bank.jsonl").is_file():
        pytest.skip("examples/run is not in this checkout")
    import shutil

    shutil.copytree(example, tmp_path / "run")
    (tmp_path / "groundjudge.toml").write_text(CONFIG)
    opts = ScoreOptions(
        run_dir=tmp_path / "run",
        corpus=str(repo_root / "corpora" / "cobol-bank"),
        questions=repo_root / "questions" / "cobol-bank.jsonl",
        config=tmp_path / "groundjudge.toml",
        cache=tmp_path / "cache.sqlite",
        progress=False,
        judges=[
            f"judge-claude=anthropic:fake-claude@{fake.anthropic_base_url}",
            f"judge-gpt=openai:fake-gpt@{fake.openai_base_url}",
        ],
    )
    summary = Runner(opts, echo=lambda line: None).run()
    answers = sorted((tmp_path / "run").rglob("answers/*.md"))
    assert summary.answers == len(answers) and summary.done == 2 * len(answers) and summary.failed == 0
    verdicts = set()
    for path in answers:
        cell, qid = path.parent.parent.name, path.stem
        sf = read_model(tmp_path / "run" / cell / "scores" / f"{qid}.json", ScoreFile)
        assert sf.judged and sf.grounding is not None
        verdicts |= {k for k, v in sf.grounding.counts.items() if v}
    manifest = read_model(tmp_path / "run" / "manifest.json", RunManifest)
    assert manifest.run_json_sha256 == sha256_file(example / "run.json")
    # The example answers were written so that grounding meets every verdict; the judges saw them all.
    assert verdicts == {"SUPPORTED", "PARTIALLY_SUPPORTED", "UNSUPPORTED", "UNABLE_TO_VERIFY"}


def test_manifest_lists_every_cell_scored_with_the_same_inputs(project, fake, api_keys):
    run(project, fake, cells=["cell-a"])
    _, messages = run(project, fake, cells=["cell-b"])
    assert messages == [] and read_model(project / "run" / "manifest.json", RunManifest).cells == ["cell-a", "cell-b"]
    # Other judges: the manifest describes this run only, and says what it replaced.
    _, messages = run(project, fake, cells=["cell-b"], judges=[f"judge-gpt=openai:fake-gpt@{fake.openai_base_url}"])
    manifest = read_model(project / "run" / "manifest.json", RunManifest)
    assert manifest.cells == ["cell-b"] and [j.name for j in manifest.judges] == ["judge-gpt"]
    assert (
        len(messages) == 1
        and "described a run with other inputs" in messages[0]
        and "cells cell-a not scored in this run are no longer listed" in messages[0]
    )


def test_budget_stops_retries_too(project, fake, api_keys):
    # Two slots. cell-a/q02 is answered at once and its cost reaches the budget; cell-b/q01 then takes the free
    # slot and is not sent; cell-a/q01 gets a 429 after 0.2 s (retry after 0.1 s), and its retry is not made.
    fake.add(Fault("status", status=429, retry_after=0.1, delay=0.2), match="BKX01C is defined in", times=1)
    summary, _ = run(
        project, fake, budget_usd=0.000001, concurrency=2, judges=[f"judge-gpt=openai:fake-gpt@{fake.openai_base_url}"]
    )
    assert fake.total_requests == 2 and summary.done == 1 and summary.budget_refused == 1
    errors = {(c, q): score(project, c, q).judgements[0].error for c, q in ANSWERS}
    assert errors == {
        ("cell-a", "q01"): "budget reached: not retried after a transient error",
        ("cell-a", "q02"): None,
        ("cell-b", "q01"): "budget reached: not submitted",
    }


def test_one_edited_band_descriptor_redoes_every_judgement(project, fake, api_keys, repo_root):
    rubric = project / "mine.toml"
    rubric.write_bytes((repo_root / "rubrics" / "reference-free.toml").read_bytes())
    run(project, fake, rubric=str(rubric))
    fake.clear()
    run(project, fake, rubric=str(rubric))
    assert fake.total_requests == 0  # same bytes under another name: same rubric sha256, nothing redone
    text = rubric.read_text()
    rubric.write_text(text.replace('descriptor = "', 'descriptor = "EDITED ', 1))
    summary, _ = run(project, fake, rubric=str(rubric))
    # Neither the score files nor the cache may answer: the rubric text is in the prompt (the cache key's messages).
    assert fake.total_requests == 6 and summary.cache_hits == 0
    assert all("EDITED " in json.dumps(r) for r in fake.requests)
