"""The validation commands end to end on a realistic hand-built run, through the real CLI.

The run: a manifest, a question set of five questions, a two-dimension rubric (accuracy 0-10,
usefulness 1-5, so the total runs 1-15), two judges, three cells:

- ``source`` (the corpus available): Q2's gpt judgement failed, Q5's score file is truncated JSON;
- ``context`` (partial context): Q3 has an answer but no score file;
- ``blind`` (no source): event streams in three formats; Q2 read a file (void), Q4 has no stream
  (unverified, kept), Q5 was never judged (both judges failed).

Every number asserted below is worked out by hand in the comments next to it.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.hashing import sha256_file, sha256_json
from groundjudge.judging.manifest import JudgeRecord, RunManifest
from groundjudge.judging.models import Judgement, RubricRef, ScoreFile
from groundjudge.storage import atomic_write_text, write_model

RUBRIC = RubricRef(
    name="docs-v1",
    sha256="d" * 64,
    dimensions={"accuracy": 10.0, "usefulness": 5.0},
    minimum={"usefulness": 1.0},
)
TREE = "e" * 64
JUDGES = ("claude", "gpt")
QIDS = ("Q1", "Q2", "Q3", "Q4", "Q5")

# cell -> qid -> judge -> (accuracy, usefulness) or an error message. A qid absent from a cell's
# table has an answer file and no score file.
SCORES: dict[str, dict[str, dict[str, tuple[float, float] | str]]] = {
    "source": {
        "Q1": {"claude": (8, 4), "gpt": (7, 4)},
        "Q2": {"claude": (9, 5), "gpt": "rate limited after 5 attempts"},
        "Q3": {"claude": (6, 3), "gpt": (5, 3)},
        "Q4": {"claude": (7, 4), "gpt": (8, 4)},
        "Q5": {"claude": (9, 4), "gpt": (9, 4)},  # written, then truncated: malformed
    },
    "context": {
        "Q1": {"claude": (6, 3), "gpt": (6, 2)},
        "Q2": {"claude": (5, 3), "gpt": (4, 2)},
        "Q4": {"claude": (7, 3), "gpt": (6, 3)},
        "Q5": {"claude": (4, 2), "gpt": (5, 2)},
    },
    "blind": {
        "Q1": {"claude": (3, 2), "gpt": (2, 2)},
        "Q2": {"claude": (7, 4), "gpt": (8, 4)},  # void: the agent read the source
        "Q3": {"claude": (2, 1), "gpt": (3, 2)},
        "Q4": {"claude": (4, 2), "gpt": "reply did not match the schema"},
        "Q5": {"claude": "timeout", "gpt": "timeout"},
    },
}

_CLAUDE_CLEAN = [
    {"type": "system", "subtype": "init", "cwd": "/tmp/blind-q1", "session_id": "s1", "tools": ["Task", "TodoWrite"]},
    {
        "type": "assistant",
        "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "From memory: it posts interest."}]},
    },
    {"type": "result", "subtype": "success", "is_error": False, "permission_denials": []},
]
_GENERIC_VOID = [
    {"type": "workdir", "path": "/tmp/blind-q2", "entries": []},
    {"type": "denied_tools", "tools": ["Grep", "Bash", "WebFetch"]},
    {"type": "tool_call", "name": "Read", "args": {"file_path": "app/cbl/CBACT04C.cbl"}},
]
_CODEX_CLEAN = [
    {"type": "thread.started", "thread_id": "t3"},
    {"type": "turn.started"},
    {"type": "item.completed", "item": {"id": "item_0", "type": "agent_message", "text": "It most likely batches the posting."}},
    {"type": "turn.completed", "usage": {"input_tokens": 900, "output_tokens": 80}},
]
EVENTS = {"Q1": _CLAUDE_CLEAN, "Q2": _GENERIC_VOID, "Q3": _CODEX_CLEAN, "Q5": _CLAUDE_CLEAN}


def _judgement(judge: str, entry: tuple[float, float] | str, bump: float) -> Judgement:
    if isinstance(entry, str):
        return Judgement(judge=judge, model=f"{judge}-model", error=entry, prompt_sha256="0" * 64)
    accuracy, usefulness = entry[0] + bump, entry[1]
    return Judgement(
        judge=judge,
        model=f"{judge}-model",
        scores={"accuracy": accuracy, "usefulness": usefulness},
        total=accuracy + usefulness,
        prompt_sha256="0" * 64,
    )


def write_realistic_run(root: Path, bumps: dict[str, float] | None = None) -> Path:
    """The run described in the module docstring. ``bumps`` adds a per-cell amount to every valid
    accuracy score (a rerun whose cell means moved by exactly that much)."""
    questions = root / "questions.jsonl"
    atomic_write_text(
        questions,
        "".join(
            json.dumps({"id": q, "text": f"What does step {q} do?", "category": "behaviour", "difficulty": "medium"}) + "\n"
            for q in QIDS
        ),
    )
    write_model(
        root / "manifest.json",
        RunManifest(
            tool_version="test",
            corpus_name="carddemo",
            corpus_tree_hash=TREE,
            questions_path="questions.jsonl",
            questions_sha256=sha256_file(questions),
            rubric=RUBRIC,
            template_name="default",
            template_sha256="f" * 64,
            schema_sha256="a" * 64,
            cells=sorted(SCORES),
            config_files=[],
            judges=[JudgeRecord(name=j, provider="fake", model=f"{j}-model", params={}, params_sha256="b" * 64) for j in JUDGES],
        ),
    )
    for cell, table in SCORES.items():
        for qid in QIDS:
            atomic_write_text(root / cell / "answers" / f"{qid}.md", f"# {qid}\n\nAnswer of cell {cell}.\n")
            if qid not in table:
                continue
            judgements = [_judgement(j, table[qid][j], (bumps or {}).get(cell, 0.0)) for j in JUDGES]
            score = ScoreFile(
                qid=qid,
                cell=cell,
                judged=any(j.valid for j in judgements),
                judgements=judgements,
                rubric=RUBRIC,
                corpus_tree_hash=TREE,
                tool_version="test",
            )
            path = root / cell / "scores" / f"{qid}.json"
            write_model(path, score)
            if (cell, qid) == ("source", "Q5"):
                atomic_write_text(path, path.read_text()[:200])
    for qid, events in EVENTS.items():
        atomic_write_text(root / "blind" / "events" / f"{qid}.jsonl", "".join(json.dumps(e) + "\n" for e in events))
    return root


runner = CliRunner()
# The console script installed beside the interpreter running the tests (a venv's bin/ or Scripts/).
GROUNDJUDGE = shutil.which("groundjudge", path=str(Path(sys.executable).parent)) or shutil.which("groundjudge")


def _ok(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Run A, and its rerun B in which every valid accuracy score moved by +1 (source), -1 (context)
    and +0.5 (blind); both blind-checked, A reported against B and its judges compared."""
    root = tmp_path_factory.mktemp("e2e")
    a = write_realistic_run(root / "A")
    b = write_realistic_run(root / "B", bumps={"source": 1.0, "context": -1.0, "blind": 0.5})
    # The real executable once, as a user runs it; the rest in-process (same app, faster).
    done = subprocess.run([str(GROUNDJUDGE), "blind", str(a), "--blind-cells", "bl*"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    _ok(["blind", str(b), "--blind-cells", "blind"])
    report_out = _ok(
        [
            "report",
            str(a),
            "--floor-cell",
            "blind",
            "--baseline-cell",
            "source",
            "--retest",
            str(b),
            "--resamples",
            "2000",
        ]
    )
    agreement_out = _ok(["agreement", "judges", str(a), "--out", str(root / "agreement")])
    retest_out = _ok(["retest", str(a), str(b), "--out", str(root / "retest")])
    return {
        "root": root,
        "A": a,
        "B": b,
        "report": report_out,
        "agreement": agreement_out,
        "retest": retest_out,
        "blind": done.stdout,
    }


def _csv(path: Path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=False, na_values=[""])


def test_blind_check_voids_the_file_reader_and_keeps_the_unstreamed_answer_unverified(runs):
    checks = _csv(runs["A"] / "blind.csv").set_index(["cell", "qid"])
    assert checks.loc[("blind", "Q2"), "status"] == "void"
    assert checks.loc[("blind", "Q2"), "reason"] == "tool calls: Read (file) x1"
    assert checks.loc[("blind", "Q4"), "status"] == "unverified"
    assert [checks.loc[("blind", q), "format"] for q in ("Q1", "Q2", "Q3", "Q4")] == ["claude-code", "generic", "codex", "none"]
    assert set(checks.loc["source", "status"]) == {"not_blind"}
    assert "1 void" in runs["blind"] and "1 unverified" in runs["blind"]


def test_report_three_means_and_sensitivity_of_the_source_cell_by_hand(runs):
    out = runs["A"] / "report"
    means = _csv(out / "cell_dimension.csv").set_index(["cell", "dimension"])
    # source totals (accuracy + usefulness): Q1 (12, 11), Q2 (14, gpt failed), Q3 (9, 8), Q4 (11, 12),
    # Q5 malformed. Question means 11.5, 14, 8.5, 11.5.
    src = means.loc[("source", "total")]
    assert src["mean_question_balanced"] == pytest.approx(45.5 / 4, abs=1e-6)  # 11.375
    assert src["mean_pooled"] == pytest.approx(77 / 7, abs=1e-6)  # 11.0
    # claude 46/4 = 11.5, gpt 31/3; their mean 10.9167
    assert src["mean_judge_balanced"] == pytest.approx((46 / 4 + 31 / 3) / 2, abs=1e-6)
    assert (src["n_questions"], src["n_judgements"]) == (4, 7)
    # accuracy alone: question means 7.5, 9, 5.5, 7.5
    assert means.loc[("source", "accuracy"), "mean_question_balanced"] == pytest.approx(29.5 / 4, abs=1e-6)
    per_judge = _csv(out / "cell_judge_dimension.csv").set_index(["cell", "judge", "dimension"])
    assert per_judge.loc[("source", "gpt", "total"), "mean_question_balanced"] == pytest.approx(31 / 3, abs=1e-6)
    assert per_judge.loc[("source", "gpt", "total"), "n"] == 3
    sens = _csv(out / "sensitivity.csv").set_index(["cell", "dimension"]).loc[("source", "total")]
    # The total runs 1 (0 + 1) to 15 (10 + 5). Judge failure Q2/gpt at 1: Q2 = 7.5 -> 39/4; at 15:
    # Q2 = 14.5 -> 46/4. Also the malformed Q5 (both judges, infrastructure) at 1 -> 40/5, at 15 -> 61/5.
    assert [
        sens[c] for c in ("judge_failures_at_min", "judge_failures_at_max", "all_missing_at_min", "all_missing_at_max")
    ] == pytest.approx([9.75, 11.5, 8.0, 12.2], abs=1e-6)
    assert (sens["n_judge_failures"], sens["n_infrastructure_failures"]) == (1, 2)
    ex = _csv(out / "exclusions.csv").set_index(["cell", "judge"])
    assert ex.loc[("source", "gpt"), ["expected", "excluded", "judge_error", "malformed_score_file"]].tolist() == [5, 2, 1, 1]
    assert ex.loc[("context", "claude"), ["excluded", "no_score_file"]].tolist() == [1, 1]
    inv = _csv(out / "run_inventory.csv").set_index("cell")
    assert inv.loc["source", "reason"] == "4 judged answers; 1 malformed score file"
    assert inv.loc["context", "reason"] == "4 judged answers; 1 answer without a score file"


def test_void_answer_is_left_out_of_the_report(runs):
    out = runs["A"] / "report"
    blind = _csv(out / "cell_dimension.csv").set_index(["cell", "dimension"]).loc[("blind", "total")]
    # Q2 (11, 12) is void; Q5 was never judged; Q4 is unverified but kept: Q1 (5, 4), Q3 (3, 5), Q4 (6).
    assert blind["mean_question_balanced"] == pytest.approx(14.5 / 3, abs=1e-6)
    assert blind["mean_pooled"] == pytest.approx(23 / 5, abs=1e-6)
    assert (blind["n_questions"], blind["n_judgements"]) == (3, 5)
    ex = _csv(out / "exclusions.csv").set_index(["cell", "judge"])
    assert ex.loc[("blind", "claude"), ["void_blind", "judge_error"]].tolist() == [1, 1]
    assert ex.loc[("blind", "gpt"), ["void_blind", "judge_error"]].tolist() == [1, 2]
    sens = _csv(out / "sensitivity.csv").set_index(["cell", "dimension"]).loc[("blind", "total")]
    # Void answers are never filled: only Q4/gpt and Q5 (both) are; at 1: Q4 3.5, Q5 1 -> 13/4.
    assert sens["judge_failures_at_min"] == pytest.approx(13 / 4, abs=1e-6)
    floors = _csv(out / "floors.csv").set_index(["cell", "dimension"]).loc[("context", "total")]
    # in 24ths: floor 116, context 189, baseline 273 -> share 73/157
    assert floors["share_of_gap"] == pytest.approx(73 / 157, abs=1e-6)
    assert floors["retest_floor"] == pytest.approx(2.0)
    assert floors["within_floor_noise"] == False  # noqa: E712 (3.04 is above the 2.00 floor)


def test_void_answer_is_left_out_of_judge_agreement_too(runs):
    rows = _csv(runs["root"] / "agreement" / "agreement_judges.csv").set_index("dimension")
    total = rows.loc["total"]
    # (claude, gpt) totals both valid: source Q1 (12, 11), Q3 (9, 8), Q4 (11, 12); context Q1 (9, 8),
    # Q2 (8, 6), Q4 (10, 9), Q5 (6, 7); blind Q1 (5, 4), Q3 (3, 5). Void blind Q2 (11, 12) is out.
    # Differences 1, 1, -1, 1, 2, 1, -1, 1, -2: signed 3/9, absolute 11/9.
    assert total["n"] == 9
    assert total["mean_signed_diff"] == pytest.approx(3 / 9)
    assert total["mean_abs_diff"] == pytest.approx(11 / 9)
    # Interval alpha = 1 - D_o / D_e with D_o = sum 2 d^2 / 18 = 30/18 and D_e = 2 SS / 17, where SS
    # = 1261 - 143^2 / 18 = 2249/18 is the sum of squares of the 18 values: alpha = 1994/2249.
    assert total["alpha"] == pytest.approx(1994 / 2249)
    manifest = json.loads((runs["root"] / "agreement" / "agreement_judges.inputs.json").read_text())
    assert manifest["inputs"][str(runs["A"] / "blind.json")] == sha256_file(runs["A"] / "blind.json")
    assert manifest["excluded"]["blind/scores/Q2.json"].startswith("void blind-cell answer")
    assert "source/scores/Q5.json" in manifest["excluded"]
    assert "excluded blind/scores/Q2.json: void blind-cell answer" in runs["agreement"]


def test_retest_headline_and_paired_movement(runs):
    # Cell shifts +1 (source), -1 (context), +0.5 (blind): the floor is their range, 2.00. Paired
    # |B - A| on the total: 7 source pairs x 1, 8 context pairs x 1, 5 blind pairs x 0.5 -> 17.5/20.
    assert "test-retest floor (range of cell-mean shifts on the total over 3 cells): 2.00" in runs["retest"]
    assert "mean |B - A| = 0.88 over 20 pairs" in runs["retest"]
    table = _csv(runs["root"] / "retest" / "test_retest.csv").set_index(["cell", "dimension"])
    assert table.loc[("blind", "total"), "shift"] == pytest.approx(0.5)
    assert table.loc[("source", "total"), "n_pairs"] == 7
    assert table.loc[("context", "usefulness"), "shift"] == 0.0
    ranges = _csv(runs["root"] / "retest" / "test_retest_ranges.csv").set_index("dimension")
    assert ranges.loc["total", "floor"] == pytest.approx(2.0)
    assert ranges.loc["usefulness", "floor"] == 0.0


def test_report_md_states_inputs_settings_and_exclusions(runs):
    a = runs["A"]
    md = (a / "report" / "report.md").read_text()
    score_files = {p.relative_to(a).as_posix(): sha256_file(p) for p in sorted(a.glob("*/scores/*.json"))}
    assert f"sha256 of that list (canonical JSON of path -> sha256): `{sha256_json(score_files)}`" in md
    for name in ("manifest.json", "questions.jsonl", "blind.json"):
        assert sha256_file(a / name) in md
    assert RUBRIC.sha256 in md and TREE in md
    assert "2000 resamples, seed 0, confidence 95%" in md
    # 30 expected judgements; out: 4 judge failures (source Q2/gpt, blind Q4/gpt, blind Q5 x2),
    # 4 infrastructure (source Q5 x2, context Q3 x2), 2 of the void answer.
    assert "Judgements expected: 30; excluded: 10 = 4 judge failures + 4 infrastructure failures + 2 of void" in md
    assert "| blind | Q2 | void | tool calls: Read (file) x1 |" in md
    assert "A/source/scores/Q5.json: invalid ScoreFile" in md
    inputs = json.loads((a / "report" / "report_inputs.json").read_text())
    assert inputs["score_files"] == score_files and inputs["seed"] == 0 and inputs["n_resamples"] == 2000


def test_outputs_are_sorted_and_byte_for_byte_reproducible(runs):
    a, root = runs["A"], runs["root"]
    _ok(
        [
            "report",
            str(a),
            "--out",
            str(root / "again"),
            "--floor-cell",
            "blind",
            "--baseline-cell",
            "source",
            "--retest",
            str(runs["B"]),
            "--resamples",
            "2000",
        ]
    )
    first, again = sorted((a / "report").iterdir()), sorted((root / "again").iterdir())
    assert [p.name for p in first] == [p.name for p in again]
    for p, q in zip(first, again):
        assert p.read_bytes() == q.read_bytes(), p.name
    dims = {"accuracy": 0, "usefulness": 1, "total": 2}
    for p in first:
        if p.suffix != ".csv":
            continue
        t = _csv(p)
        keys = [c for c in ("cell", "judge", "dimension", "qid") if c in t.columns]
        order = t[keys].assign(**({"dimension": t["dimension"].map(dims)} if "dimension" in keys else {}))
        assert order.equals(order.sort_values(keys, kind="stable")), p.name
    checks = _csv(a / "blind.csv")
    assert checks[["cell", "qid"]].equals(checks[["cell", "qid"]].sort_values(["cell", "qid"]))


def test_bad_input_is_one_line_on_the_real_executable(tmp_path):
    (tmp_path / "empty").mkdir()
    run = write_realistic_run(tmp_path / "run")
    bad = tmp_path / "questions.jsonl"
    bad.write_text('{"id": "Q1", "text": \n')
    cases = [
        (["report", str(tmp_path / "nope")], "nope: run directory not found"),
        (["retest", str(tmp_path / "empty"), str(run)], "empty: no cells"),
        (["report", str(run), "--questions", str(bad)], "questions.jsonl: line 1: not JSON"),
    ]
    for args, message in cases:
        done = subprocess.run([str(GROUNDJUDGE), *args], capture_output=True, text=True)
        lines = [line for line in (done.stdout + done.stderr).splitlines()]
        assert done.returncode == 2, done.stderr
        assert [line for line in lines if line.startswith("error: ")] == [lines[-1]] and message in lines[-1]
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    a_file = str(run / "manifest.json")
    for args in (
        ["blind", str(tmp_path / "empty"), "--blind-cells", "x"],
        ["agreement", "judges", str(tmp_path / "empty")],
        ["report", str(tmp_path / "empty")],
        ["report", str(run), "--out", a_file],
        ["agreement", "judges", str(run), "--out", a_file],
        ["retest", str(run), str(run), "--out", a_file],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 2 and result.output.count("\n") == 1 and result.output.startswith("error: "), result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "questions.jsonl", "run"]  # nothing half-written
    assert not (run / "report").exists() and list((tmp_path / "empty").iterdir()) == []


def test_retest_refuses_runs_not_blind_checked_alike(runs, tmp_path):
    # B without its blind.json would keep the void answer A leaves out: the shift would measure that.
    unchecked = tmp_path / "B"
    shutil.copytree(runs["B"], unchecked)
    (unchecked / "blind.json").unlink()
    result = runner.invoke(app, ["retest", str(runs["A"]), str(unchecked), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert "not blind-checked alike" in result.output and "no blind check" in result.output
    assert not (tmp_path / "out").exists()


def test_questions_outside_the_given_set_are_named_in_the_report(runs, tmp_path):
    subset = tmp_path / "four.jsonl"
    subset.write_text(
        "".join(line for line in (runs["A"] / "questions.jsonl").read_text().splitlines(keepends=True) if '"Q5"' not in line)
    )
    out = tmp_path / "out"
    printed = _ok(["report", str(runs["A"]), "--questions", str(subset), "--out", str(out), "--resamples", "200"])
    assert "1 question in the run is not in the question set and is ignored: Q5" in printed
    md = (out / "report.md").read_text()
    assert f"`{sha256_file(subset)}` (4 expected questions; ignored, not in the set: Q5)" in md
    # Without Q5 the source cell loses only its malformed file: 4 questions, 2 judges, 8 expected.
    ex = _csv(out / "exclusions.csv").set_index(["cell", "judge"])
    assert ex.loc[("source", "gpt"), ["expected", "excluded", "malformed_score_file"]].tolist() == [4, 1, 0]
