"""``groundjudge demo`` as a new user runs it: with no provider key (simulated judges), and with a judge on loopback."""

from __future__ import annotations

import csv
import json
import os

from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.grounding.models import GroundingReport, Verdict
from groundjudge.judging.fakeprovider import FakeProvider
from groundjudge.judging.models import ScoreFile
from groundjudge.storage import read_model
from groundjudge.validation import plots

runner = CliRunner()


def _reports(out):
    return {p.relative_to(out).as_posix(): read_model(p, GroundingReport) for p in sorted(out.glob("*/*/grounding/*.json"))}


def _csv(path):
    with path.open(newline="") as f:
        return list(csv.DictReader(f))


def test_demo_without_credentials_runs_the_whole_pipeline_with_simulated_judges(tmp_path, repo_root, monkeypatch):
    monkeypatch.setenv("GROUNDJUDGE_HOME", str(tmp_path / "home"))
    for var in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    titles: list[str] = []
    save = plots._save

    def record_titles(fig, path):
        titles.extend(t for ax in fig.axes if (t := ax.get_title()))
        save(fig, path)

    monkeypatch.setattr(plots, "_save", record_titles)
    out = tmp_path / "demo"
    result = runner.invoke(app, ["demo", "--out", str(out)])
    assert result.exit_code == 0, result.output
    # The dummy keys the SDKs were given are gone again.
    assert "OPENAI_API_KEY" not in os.environ and "ANTHROPIC_API_KEY" not in os.environ

    answers = sorted(p.relative_to(repo_root / "examples").as_posix() for p in (repo_root / "examples").glob("*/*/answers/*.md"))
    reports = _reports(out)
    assert len(reports) == len(answers)
    assert {k.split("/")[0] for k in reports} == {"cobol-bank", "pyledger"}
    # The example answers are written so that every verdict occurs on each corpus.
    for corpus in ("cobol-bank", "pyledger"):
        seen = {c.verdict for key, r in reports.items() if key.startswith(corpus) for c in r.claims}
        assert seen == set(Verdict), corpus

    # Every answer is scored by both simulated judges, in the run and in its replicate, each judgement
    # reading the grounding counts the prompt carried.
    for root in (out, out / "replicate"):
        scores = {p.relative_to(root).as_posix(): read_model(p, ScoreFile) for p in sorted(root.glob("*/*/scores/*.json"))}
        assert len(scores) == len(answers)
        for score in scores.values():
            assert [j.judge for j in score.judgements] == ["simulated-a", "simulated-b"]
            assert all(j.valid and j.rationale.startswith("SIMULATED judgement (no model was called)") for j in score.judgements)
            counts = score.grounding.counts
            assert (
                f"grounding {counts.get('SUPPORTED', 0)} supported, {counts.get('PARTIALLY_SUPPORTED', 0)} partially"
                in score.judgements[0].rationale
            )
    for manifest_path in sorted(out.glob("**/manifest.json")):
        judges = json.loads(manifest_path.read_text())["judges"]
        assert [(j["provider"], j["model"], j["simulated"]) for j in judges] == [
            ("openai", "simulated-judge-a", True),
            ("anthropic", "simulated-judge-b", True),
        ], manifest_path
    assert len(list(out.glob("**/manifest.json"))) == 4

    for corpus in ("cobol-bank", "pyledger"):
        report_dir = out / corpus / "report"
        report_md = (report_dir / "report.md").read_text()
        assert "Judges were SIMULATED" in report_md.splitlines()[2]
        assert "## Test-retest" in report_md
        totals = [r for r in _csv(report_dir / "cell_intervals.csv") if r["dimension"] == "total"]
        assert len(totals) == 2 and all(float(r["ci_high"]) - float(r["ci_low"]) > 0 for r in totals), totals
        floor = [r for r in _csv(out / corpus / "retest" / "test_retest_ranges.csv") if r["dimension"] == "total"]
        assert float(floor[0]["floor"]) > 0
        agreement = [r for r in _csv(out / corpus / "agreement" / "agreement_judges.csv") if r["dimension"] == "total"]
        assert agreement and all(r["alpha"] != "undefined" and r["spearman"] != "undefined" for r in agreement)
        assert all(-1 <= float(r["alpha"]) <= 1 and -1 <= float(r["spearman"]) <= 1 for r in agreement)
    # Four plots per report (totals, dimensions, judge against judge, retest shifts), every title labelled.
    assert len(titles) >= 8 and all(t.endswith("(simulated judges)") for t in titles), titles

    # The blind cell's event streams are checked: q08's agent ran Grep, so that answer is void.
    for root in (out, out / "replicate"):
        blind = json.loads((root / "cobol-bank" / "blind.json").read_text())
        assert [(v["cell"], v["qid"]) for v in blind["void"]] == [("notools-nosrc", "q08")]
        assert json.loads((root / "pyledger" / "blind.json").read_text())["void"] == []

    output = result.output
    assert output.count("Judges were SIMULATED") == 2 and "scoring with SIMULATED judges" in output
    assert "would make" in output  # the projections for the configured real judges
    # The closing lines name the three ways to real judges.
    assert "export ANTHROPIC_API_KEY=... OPENAI_API_KEY=..." in output
    assert "--judge local=openai-compatible:qwen2.5-7b-instruct@http://127.0.0.1:8080/v1" in output
    assert "python -m groundjudge.judging.fakeprovider" in output
    # The criterion scoring of examples/criteria-responses.json, worked by hand in docs/rubrics.md terms:
    # item 1: R = {rate-constant pass, picture-fits fail}, G = {no-unrelated-edits} -> q = 100*max(0, 1-1)/2 = 0;
    # item 2: 3 of 3 pass -> 100; D = (0+100)/2 = 50; N = 1/1 = 100; C = 2*50*100/150 = 66.7.
    assert "delivered quality D    │ 50.0" in output
    assert "composite C            │ 66.7" in output
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
    assert [(j["model"], j["simulated"]) for j in manifest["judges"]] == [("fake-model", False)]
    assert "SIMULATED" not in (out / "cobol-bank" / "report" / "report.md").read_text()
    assert "SIMULATED" not in first.output and not (out / "replicate").exists()
