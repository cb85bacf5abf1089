"""``groundjudge demo`` as a new user runs it: with no provider, and with a judge on loopback."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.storage import read_model
from grounding.models import GroundingReport, Verdict
from judging.fakeprovider import FakeProvider
from judging.models import ScoreFile

runner = CliRunner()


def _reports(out):
    return {p.relative_to(out).as_posix(): read_model(p, GroundingReport) for p in sorted(out.glob("*/*/grounding/*.json"))}


def test_demo_without_credentials_grounds_both_corpora_and_scores_nothing(tmp_path, repo_root):
    out = tmp_path / "demo"
    result = runner.invoke(app, ["demo", "--out", str(out)])
    assert result.exit_code == 0, result.output
    answers = sorted(p.relative_to(repo_root / "examples").as_posix() for p in (repo_root / "examples").glob("*/*/answers/*.md"))
    reports = _reports(out)
    assert len(reports) == len(answers)
    assert {k.split("/")[0] for k in reports} == {"cobol-bank", "pyledger"}
    # The example answers are written so that every verdict occurs on each corpus.
    for corpus in ("cobol-bank", "pyledger"):
        seen = {c.verdict for key, r in reports.items() if key.startswith(corpus) for c in r.claims}
        assert seen == set(Verdict), corpus
    assert not list(out.glob("*/*/scores/*.json"))
    # The blind cell's event streams are checked: q08's agent ran Grep, so that answer is void.
    blind = json.loads((out / "cobol-bank" / "blind.json").read_text())
    assert [(v["cell"], v["qid"]) for v in blind["void"]] == [("notools-nosrc", "q08")]
    assert json.loads((out / "pyledger" / "blind.json").read_text())["void"] == []
    assert "No judge could be called" in result.output
    assert "export ANTHROPIC_API_KEY" in result.output and "openai-compatible" in result.output
    # The criterion scoring of examples/criteria-responses.json, worked by hand in docs/rubrics.md terms:
    # item 1: R = {rate-constant pass, picture-fits fail}, G = {no-unrelated-edits} -> q = 100*max(0, 1-1)/2 = 0;
    # item 2: 3 of 3 pass -> 100; D = (0+100)/2 = 50; N = 1/1 = 100; C = 2*50*100/150 = 66.7.
    assert "delivered quality D    │ 50.0" in result.output
    assert "composite C            │ 66.7" in result.output
    # The bundled example run is never written to.
    assert not list((repo_root / "examples").glob("*/*/grounding"))


def test_demo_with_a_local_judge_runs_the_whole_pipeline(tmp_path):
    out = tmp_path / "demo"
    with FakeProvider() as fp:
        spec = f"local=openai-compatible:fake-model@{fp.openai_base_url}"
        first = runner.invoke(app, ["demo", "--out", str(out), "--judge", spec])
        assert first.exit_code == 0, first.output
        calls = fp.total_requests
        again = runner.invoke(app, ["demo", "--out", str(out), "--judge", spec])
        assert again.exit_code == 0, again.output
        assert fp.total_requests == calls  # everything was already scored: no new call
    scores = [read_model(p, ScoreFile) for p in sorted(out.glob("*/*/scores/*.json"))]
    assert len(scores) == len(_reports(out)) == calls
    assert all(s.judged and [j.judge for j in s.judgements] == ["local"] for s in scores)
    for corpus in ("cobol-bank", "pyledger"):
        table = (out / corpus / "report" / "cell_dimension.csv").read_text().splitlines()
        assert table[0].startswith("cell,dimension,mean_question_balanced")
        assert (out / corpus / "report" / "report.md").is_file()
    exclusions = (out / "cobol-bank" / "report" / "exclusions.csv").read_text().splitlines()
    header = exclusions[0].split(",")
    void = {row.split(",")[0]: row.split(",")[header.index("void_blind")] for row in exclusions[1:]}
    assert void == {"notools-nosrc": "1", "tools-src": "0"}
    manifest = json.loads((out / "cobol-bank" / "manifest.json").read_text())
    assert manifest["judges"][0]["model"] == "fake-model"
