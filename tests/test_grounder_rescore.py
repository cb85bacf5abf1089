"""Reproduction 7: a grounding report made by another grounder (other extractor or verifier code, other
LLM helper settings) is redone on resume, and the judgements made on it are redone too."""

from __future__ import annotations

from _fake_provider_helpers import api_keys, fake, fake_server
from test_runner import project, run, score

from groundjudge.grounding.fingerprint import grounder_fingerprint
from groundjudge.grounding.models import GroundingReport
from groundjudge.hashing import sha256_file
from groundjudge.storage import read_model, write_model


def test_report_of_another_grounder_is_regrounded_and_rejudged(project, fake, api_keys):
    run(project, fake)
    path = project / "run" / "cell-a" / "grounding" / "q01.json"
    report = read_model(path, GroundingReport)
    assert report.grounder == grounder_fingerprint()
    assert score(project, "cell-a", "q01").grounding.grounder == report.grounder
    # As if an older verifier had made it: same tool version, same answer and corpus, other grounder.
    write_model(path, report.model_copy(update={"grounder": "0" * 64}))
    old = score(project, "cell-a", "q01")
    grounding = old.grounding.model_copy(update={"grounder": "0" * 64, "sha256": sha256_file(path)})
    write_model(project / "run" / "cell-a" / "scores" / "q01.json", old.model_copy(update={"grounding": grounding}))
    fake.clear()
    summary, _ = run(project, fake)
    assert summary.regrounded == 1
    assert read_model(path, GroundingReport).grounder == grounder_fingerprint()
    # That answer is judged again, once per judge (the same prompt is answered from the response cache);
    # the others are kept.
    assert (summary.judgements_planned, summary.cache_hits, summary.judgements_kept) == (2, 2, 4)
    assert score(project, "cell-a", "q01").grounding.grounder == grounder_fingerprint()


def test_a_changed_question_subject_regrounds_that_answer(project, fake, api_keys):
    import json

    run(project, fake)
    path = project / "run" / "cell-a" / "grounding" / "q01.json"
    assert read_model(path, GroundingReport).subject is None
    questions = project / "questions.jsonl"
    rows = [json.loads(line) for line in questions.read_text().splitlines()]
    rows[0]["must_touch"] = ["cbl/BKX01C.cbl"]
    questions.write_text("".join(json.dumps(r) + "\n" for r in rows))
    before = {p.name: p.read_bytes() for p in (project / "run" / "cell-b" / "grounding").glob("*.json")}
    fake.clear()
    run(project, fake, force=True)
    assert read_model(path, GroundingReport).subject == "cbl/BKX01C.cbl"
    # the other questions' reports are kept as they were
    after = {p.name: p.read_bytes() for p in (project / "run" / "cell-b" / "grounding").glob("*.json") if p.name != "q01.json"}
    assert after == {k: v for k, v in before.items() if k != "q01.json"}
