"""A small run for the viewer tests: two cells, simulated judges in the manifest, a failed judgement,
a void blind answer, a missing answer and an answer written to attack the page.

Cell ``src``: q1 grounded (a SUPPORTED claim with evidence, an UNSUPPORTED one) and scored, judge j2
failed; q2 holds script, a javascript: link and an onerror attribute, and a rationale with markup.
Cell ``blind``: q1 scored and void in blind.json (a Read call in its event stream); q2 not answered.
"""

from __future__ import annotations

import json
from pathlib import Path

from _analysis_helpers import RUBRIC_2D

from groundjudge.grounding.models import (
    AnswerRef,
    ClaimRef,
    CorpusRef,
    Evidence,
    GroundingReport,
    Verdict,
    VerifiedClaim,
)
from groundjudge.hashing import sha256_file
from groundjudge.judging.manifest import JudgeRecord, RunManifest
from groundjudge.judging.models import FailureKind, Judgement, ScoreFile
from groundjudge.storage import atomic_write_text, write_model
from groundjudge.validation.blind import run_blind

ANSWER = """# Posting

BKTRN02C posts with **REWRITE** in `3400-UPDATE-ACCOUNT` (cbl/BKTRN02C.cbl:178). It calls BKERR01C.

- The account file is `ACCTFILE`.
"""
# Each would set document.title (or a global) if it ran.
ATTACK = """# Attack

<script>document.title = "pwned-script"; window.pwned = 1;</script>

Click [here](javascript:document.title='pwned-link') or [there](JAVASCRIPT:window.pwned=2).

<img src="x" onerror="document.title='pwned-onerror'">

![pic](x onerror=alert(1))

The program <b onmouseover="window.pwned=3">BKTRN02C</b> posts transactions.
"""
ERROR = "HTTP 503 <i>after</i> 3 retries"
RATIONALE_ATTACK = "<script>window.pwned = 4</script> good answer"


def _report(answer: Path, claims: list[VerifiedClaim]) -> GroundingReport:
    return GroundingReport(
        tool_version="test",
        corpus=CorpusRef(name="bank", tree_hash="t" * 64),
        answer=AnswerRef(path=str(answer), sha256=sha256_file(answer)),
        extractor="markdown-v1",
        claims=claims,
        counts={v: sum(c.verdict == v for c in claims) for v in Verdict},
    )


def _claims() -> list[VerifiedClaim]:
    snippet = "\n".join(f"{n:06d}     LINE {n}." for n in range(176, 181))
    return [
        VerifiedClaim(
            id="c1",
            text="BKTRN02C posts with REWRITE in `3400-UPDATE-ACCOUNT` (cbl/BKTRN02C.cbl:178).",
            answer_line=3,
            refs=[ClaimRef(kind="path", text="cbl/BKTRN02C.cbl:178", value="cbl/BKTRN02C.cbl", start_line=178, end_line=178)],
            verdict=Verdict.SUPPORTED,
            reason="3400-UPDATE-ACCOUNT writes ACCOUNT-RECORD (cbl/BKTRN02C.cbl:178)",
            evidence=[Evidence(path="cbl/BKTRN02C.cbl", start_line=176, end_line=180, snippet=snippet, note="paragraph")],
        ),
        VerifiedClaim(
            id="c2",
            text="It calls BKERR01C.",
            answer_line=3,
            verdict=Verdict.UNSUPPORTED,
            reason="BKERR01C appears nowhere in the snapshot",
        ),
        VerifiedClaim(
            id="c3",
            text="The account file is `ACCTFILE`.",
            answer_line=5,
            verdict=Verdict.PARTIALLY_SUPPORTED,
            reason="ACCTFILE is a DD name, not a file",
        ),
    ]


def _judgement(judge: str, scores: dict[str, float], rationale: str = "Cites the right section.") -> Judgement:
    return Judgement(
        judge=judge,
        model=f"model-{judge}",
        scores=scores,
        total=sum(scores.values()),
        rationale=rationale,
        prompt_sha256="0" * 64,
        latency_s=1.25,
        cost_usd=0.0012,
    )


def _score_file(cell: str, qid: str, answer: Path, judgements: list[Judgement]) -> ScoreFile:
    return ScoreFile(
        qid=qid,
        cell=cell,
        judged=any(j.valid for j in judgements),
        judgements=judgements,
        rubric=RUBRIC_2D,
        answer_sha256=sha256_file(answer),
        corpus_tree_hash="t" * 64,
        tool_version="test",
    )


def write_view_run(root: Path) -> Path:
    src = root / "src"
    a1 = src / "answers" / "q1.md"
    atomic_write_text(a1, ANSWER)
    write_model(src / "grounding" / "q1.json", _report(a1, _claims()))
    failed = Judgement(judge="j2", model="model-j2", error=ERROR, error_kind=FailureKind.TRANSIENT, prompt_sha256="0" * 64)
    write_model(
        src / "scores" / "q1.json", _score_file("src", "q1", a1, [_judgement("j1", {"accuracy": 21, "usefulness": 15.5}), failed])
    )
    a2 = src / "answers" / "q2.md"
    atomic_write_text(a2, ATTACK)
    attack_claim = VerifiedClaim(
        id="c1",
        text='The program <b onmouseover="window.pwned=3">BKTRN02C</b> posts transactions.',
        answer_line=11,
        verdict=Verdict.SUPPORTED,
        reason='<img src=x onerror="window.pwned=5"> BKTRN02C is a program',
        evidence=[Evidence(path="cbl/<script>.cbl", start_line=1, end_line=1, snippet="<script>window.pwned=6</script>")],
    )
    write_model(src / "grounding" / "q2.json", _report(a2, [attack_claim]))
    write_model(
        src / "scores" / "q2.json",
        _score_file(
            "src",
            "q2",
            a2,
            [
                _judgement("j1", {"accuracy": 5, "usefulness": 2}, RATIONALE_ATTACK),
                _judgement("j2", {"accuracy": 25, "usefulness": 18}),
            ],
        ),
    )

    blind = root / "blind"
    b1 = blind / "answers" / "q1.md"
    atomic_write_text(b1, "BKTRN02C posts transactions.\n")
    write_model(
        blind / "scores" / "q1.json", _score_file("blind", "q1", b1, [_judgement("j1", {"accuracy": 10, "usefulness": 10})])
    )
    events = blind / "events" / "q1.jsonl"
    atomic_write_text(events, json.dumps({"type": "tool_call", "name": "Read", "args": {"path": "cbl/BKTRN02C.cbl"}}) + "\n")
    run_blind(root, ["blind"])  # the real check: q1's Read call makes it void

    questions = root / "questions.jsonl"
    atomic_write_text(
        questions,
        "".join(
            json.dumps(q) + "\n"
            for q in [
                {
                    "id": "q1",
                    "text": "How is a <em>transaction</em> posted?",
                    "category": "data-flow",
                    "difficulty": "medium",
                    "must_touch": ["cbl/BKTRN02C.cbl"],
                },
                {"id": "q2", "text": "What rejects a transaction?", "category": "business-rule", "difficulty": "easy"},
            ]
        ),
    )
    write_model(
        root / "manifest.json",
        RunManifest(
            tool_version="test",
            corpus_name="bank",
            corpus_tree_hash="t" * 64,
            questions_path="questions.jsonl",
            questions_relpath="questions.jsonl",
            questions_sha256=sha256_file(questions),
            rubric=RUBRIC_2D,
            template_name="t",
            template_sha256="0" * 64,
            schema_sha256="0" * 64,
            config_files=[],
            cells=["blind", "src"],
            judges=[
                JudgeRecord(
                    name=n,
                    provider="openai",
                    model=f"model-{n}",
                    params={"temperature": 0},
                    params_sha256="0" * 64,
                    simulated=True,
                )
                for n in ("j1", "j2")
            ],
        ),
    )
    return root
