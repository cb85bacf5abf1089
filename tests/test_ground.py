"""`groundjudge ground` and `ground_answer`: report contents, directory mode, the example runs."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest
from _grounding_helpers import CORPORA, REPO, Grounder
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.grounding.ground import NO_CLAIMS_NOTE, ground_answer
from groundjudge.grounding.models import GroundingReport, Verdict
from groundjudge.grounding.snapshot import snapshot_directory
from groundjudge.hashing import sha256_file
from groundjudge.questions import load_questions
from groundjudge.storage import read_model

runner = CliRunner()
EXAMPLES = REPO / "examples"
RUNS = {"cobol-bank": EXAMPLES / "run", "pyledger": EXAMPLES / "run-pyledger"}


@pytest.fixture(scope="module")
def grounders() -> dict[str, Grounder]:
    return {name: Grounder(name) for name in RUNS}


def _answers(run: Path) -> list[Path]:
    return sorted(run.glob("*/answers/*.md"))


@pytest.mark.parametrize("corpus", sorted(RUNS))
def test_example_runs_cover_every_verdict(grounders, corpus):
    g = grounders[corpus]
    seen: set[Verdict] = set()
    for answer in _answers(RUNS[corpus]):
        report = ground_answer(g.snapshot, g.index, answer)
        assert set(report.counts) == set(Verdict)
        assert sum(report.counts.values()) == len(report.claims) > 0
        seen |= {c.verdict for c in report.claims}
    assert seen == set(Verdict)


def _claim(g: Grounder, answer: Path, cid: str):
    return next(c for c in ground_answer(g.snapshot, g.index, answer).claims if c.id == cid)


def test_hand_checked_example_claims(grounders):
    g = grounders["cobol-bank"]
    run = RUNS["cobol-bank"]
    # notools-nosrc/q07: "When the check passes, BKSGN00C links to BKMNU01C." (it XCTLs, line 68)
    c = _claim(g, run / "notools-nosrc/answers/q07.md", "c4")
    assert c.verdict == Verdict.UNSUPPORTED and "uses XCTL to reach BKMNU01C (cbl/BKSGN00C.cbl:68), not LINK" in c.reason
    # notools-nosrc/q05: ACCT-ID is PIC 9(11) at cpy/BKACCT.cpy:7, not 9(10)
    c = _claim(g, run / "notools-nosrc/answers/q05.md", "c2")
    assert c.verdict == Verdict.PARTIALLY_SUPPORTED and "ACCT-ID has PIC 9(11) at cpy/BKACCT.cpy:7, not PIC 9(10)" in c.reason
    # notools-nosrc/q08: the quoted WRITE names AUDITLOG; the program says AUDITLG (cbl/BKAUD04C.cbl:39)
    c = _claim(g, run / "notools-nosrc/answers/q08.md", "c6")
    assert c.verdict == Verdict.PARTIALLY_SUPPORTED and "quoted code lines are in cbl/BKAUD04C.cbl" in c.reason
    # tools-src/q02: "Only the main menu program BKMNU01C transfers control to it." (it = BKUPD02C)
    c = _claim(g, run / "tools-src/answers/q02.md", "c2")
    assert c.verdict == Verdict.SUPPORTED and "(xctl at cbl/BKMNU01C.cbl:100)" in c.reason
    g = grounders["pyledger"]
    c = _claim(g, RUNS["pyledger"] / "notools-nosrc/answers/q04.md", "c5")
    assert c.verdict == Verdict.UNSUPPORTED and "parse_amount does not call or perform format_amount" in c.reason


@pytest.mark.parametrize("corpus", sorted(RUNS))
def test_run_json_provenance_matches_the_material(corpus):
    run = RUNS[corpus]
    meta = json.loads((run / "run.json").read_text())
    assert meta["corpus"]["name"] == corpus
    assert meta["corpus"]["tree_hash"] == snapshot_directory(CORPORA / corpus, corpus).tree_hash
    assert meta["questions"]["sha256"] == sha256_file(REPO / meta["questions"]["path"])
    qids = {q.id for q in load_questions(REPO / meta["questions"]["path"])}
    assert sorted(p.name for p in run.iterdir() if p.is_dir()) == sorted(meta["cells"])
    for answer in _answers(run):
        assert answer.stem in qids


@pytest.mark.parametrize("corpus", sorted(RUNS))
def test_example_runs_answer_every_question_in_every_cell(corpus):
    """A missing answer is an infrastructure failure in the report: the bundled runs must have none."""
    run = RUNS[corpus]
    meta = json.loads((run / "run.json").read_text())
    qids = sorted(q.id for q in load_questions(REPO / meta["questions"]["path"]))
    for cell in meta["cells"]:
        assert sorted(p.stem for p in (run / cell / "answers").glob("*.md")) == qids, cell
    # The blind cell's answers each carry the event stream `groundjudge blind` checks.
    for cell in (c for c in meta["cells"] if c.startswith("notools-")):
        assert sorted(p.stem for p in (run / cell / "events").glob("*.jsonl")) == qids, cell


def test_cli_report_on_stdout_and_out_file(tmp_path):
    answer = RUNS["pyledger"] / "tools-src/answers/q02.md"
    result = runner.invoke(app, ["ground", "--corpus", str(CORPORA / "pyledger"), str(answer)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    report = GroundingReport.model_validate(data)
    assert data["schema_version"] == 1
    assert report.answer.sha256 == sha256_file(answer)
    assert report.corpus.tree_hash == snapshot_directory(CORPORA / "pyledger", "pyledger").tree_hash
    assert set(data["counts"]) == {"SUPPORTED", "PARTIALLY_SUPPORTED", "UNSUPPORTED", "UNABLE_TO_VERIFY"}
    assert data["extractor"] == "markdown-v1"
    for claim in data["claims"]:
        assert {"id", "text", "evidence", "verdict", "reason"} <= set(claim)
    out = tmp_path / "r.json"
    result = runner.invoke(app, ["ground", "--corpus", str(CORPORA / "pyledger"), str(answer), "--out", str(out)])
    assert result.exit_code == 0
    assert read_model(out, GroundingReport) == report  # deterministic: the same report twice


def test_cli_directory_mode_writes_one_report_per_answer(tmp_path):
    answers = RUNS["cobol-bank"] / "notools-nosrc/answers"
    out_dir = tmp_path / "reports"
    result = runner.invoke(app, ["ground", "--corpus", str(CORPORA / "cobol-bank"), str(answers), "--out-dir", str(out_dir)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out_dir.iterdir()) == sorted(f"{p.stem}.json" for p in answers.glob("*.md"))
    for report_path in out_dir.iterdir():
        report = read_model(report_path, GroundingReport)
        assert report.answer.path == (answers / f"{report_path.stem}.md").as_posix()
    assert "12 reports in" in result.output


def test_answer_without_claim_units_gets_a_complete_empty_report(tmp_path):
    answer = tmp_path / "a.md"
    answer.write_text("# Only a heading\n\n```\nsome code\n```\n")
    result = runner.invoke(app, ["ground", "--corpus", str(CORPORA / "pyledger"), str(answer)])
    assert result.exit_code == 0
    report = GroundingReport.model_validate_json(result.stdout)
    assert report.claims == []
    assert report.counts == {v: 0 for v in Verdict}
    assert report.note == NO_CLAIMS_NOTE


@pytest.mark.parametrize("corpus", sorted(RUNS))
def test_hand_checked_symbol_tables_are_all_supported(grounders, corpus):
    """Each corpus's SYMBOLS.md lists file | line | symbol rows checked by hand against the code: grounded
    against that code, every such row must come out SUPPORTED (no false alarms on true claims)."""
    g = grounders[corpus]
    rows = [c for c in g.claims((CORPORA / corpus / "SYMBOLS.md").read_text()) if " | lines " in c.text]
    assert len(rows) >= 25
    wrong = [(c.text, c.verdict.value, c.reason) for c in rows if c.verdict != Verdict.SUPPORTED]
    assert wrong == []


def test_symbol_table_rows_with_the_next_rows_line_are_caught(grounders):
    """Negative control for the test above: give each COBOL paragraph the start line of the paragraph
    listed after it in the same file (outside its own span), and every such row must stop being SUPPORTED."""
    import re

    text = (CORPORA / "cobol-bank" / "SYMBOLS.md").read_text()
    rows = re.findall(r"^\| (cbl/\S+) \| (\d+) \| (\S+) \| paragraph \|$", text, re.M)
    shifted = []
    for (path, _, name), (next_path, next_line, _) in itertools.pairwise(rows):
        if path == next_path:
            shifted.append(f"| File | Line | Paragraph |\n|---|---|---|\n| {path} | {next_line} | `{name}` |\n")
    assert len(shifted) >= 25
    g = grounders["cobol-bank"]
    verdicts = {g.one(md).verdict for md in shifted}
    assert verdicts == {Verdict.PARTIALLY_SUPPORTED}
