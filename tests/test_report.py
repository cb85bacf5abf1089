"""The report command end to end, and floors against a hand-worked example."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from _analysis_helpers import RUBRIC_2D, THREE_MEANS_CELL, write_run
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.errors import UserError
from groundjudge.validation.floors import FLOOR_COLUMNS, floor_table

EVENTS = Path(__file__).parent / "fixtures" / "validation" / "events"


def test_floor_table_hand_worked():
    # floor 20, baseline 70 (gap 50); mid 45 is 25 over the floor = half the gap; low 22 is within
    # the 3.89 retest floor of the floor; near 68 is within it of the baseline.
    means = pd.DataFrame(
        {
            "cell": ["blind", "base", "mid", "low", "near"],
            "dimension": ["total"] * 5,
            "mean_question_balanced": [20.0, 70.0, 45.0, 22.0, 68.0],
        }
    )
    f = floor_table(means, "blind", "base", {"total": 3.89}).set_index("cell")
    assert list(f.reset_index().columns) == FLOOR_COLUMNS
    assert "blind" not in f.index
    assert (f.loc["mid", "minus_floor"], f.loc["mid", "share_of_gap"]) == (25.0, 0.5)
    assert f.loc["base", "share_of_gap"] == 1.0
    assert f.loc["low", "share_of_gap"] == pytest.approx(2 / 50)
    assert f.loc["low", "within_floor_noise"] and not f.loc["low", "within_baseline_noise"]
    assert f.loc["near", "within_baseline_noise"] and not f.loc["near", "within_floor_noise"]
    assert not f.loc["mid", "within_floor_noise"] and not f.loc["mid", "within_baseline_noise"]
    no_floor = floor_table(means, "blind", "base")
    assert no_floor["within_floor_noise"].isna().all()
    with pytest.raises(UserError, match="--floor-cell 'nope'"):
        floor_table(means, "nope", "base")


def _run(root: Path, shift: float = 0.0) -> Path:
    def e(acc, use=10):
        return {"accuracy": acc + shift, "usefulness": use}

    write_run(
        root,
        {
            "src": {
                "Q1": {"j1": e(25), "j2": e(21)},
                "Q2": {"j1": e(28), "j2": "schema violation"},
                "Q3": {"j1": e(15), "j2": e(19)},
            },
            "nosrc": {
                "Q1": {"j1": e(5, 2), "j2": e(9, 4)},
                "Q2": {"j1": e(6, 2), "j2": e(4, 2)},
                "Q3": {"j1": e(8, 6), "j2": e(10, 4)},
            },
            "ctx": {"Q1": {"j1": e(20), "j2": e(18)}, "Q2": {"j1": e(22), "j2": e(24)}},
        },
        rubric=RUBRIC_2D,
        answers_only={"ctx": ["Q3"]},
    )
    (root / "nosrc" / "events").mkdir()
    shutil.copy(EVENTS / "claude_void.jsonl", root / "nosrc" / "events" / "Q3.jsonl")
    for qid in ("Q1", "Q2"):
        shutil.copy(EVENTS / "claude_clean.jsonl", root / "nosrc" / "events" / f"{qid}.jsonl")
    return root


def test_report_end_to_end(tmp_path):
    run, rerun = _run(tmp_path / "A"), _run(tmp_path / "B", shift=1.0)
    runner = CliRunner()
    for r in (run, rerun):
        assert runner.invoke(app, ["blind", str(r), "--blind-cells", "nosrc"]).exit_code == 0
    args = ["report", str(run), "--floor-cell", "nosrc", "--baseline-cell", "src", "--retest", str(rerun), "--resamples", "500"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    out = run / "report"
    means = pd.read_csv(out / "cell_dimension.csv")
    tot = means[means["dimension"] == "total"].set_index("cell")
    # src totals: Q1 (35, 31), Q2 (38, failed), Q3 (25, 29) -> question means 33, 38, 27.
    assert tot.loc["src", "mean_question_balanced"] == pytest.approx((33 + 38 + 27) / 3, abs=1e-6)
    assert tot.loc["src", "mean_pooled"] == pytest.approx((35 + 31 + 38 + 25 + 29) / 5, abs=1e-6)
    assert tot.loc["src", "mean_judge_balanced"] == pytest.approx(((35 + 38 + 25) / 3 + (31 + 29) / 2) / 2, abs=1e-6)
    # nosrc Q3 is void (Grep and Read in its stream): question means 10, 7 -> 8.5 over two questions.
    assert tot.loc["nosrc", "mean_question_balanced"] == pytest.approx(8.5)
    assert tot.loc["nosrc", "n_questions"] == 2
    ex = pd.read_csv(out / "exclusions.csv").set_index(["cell", "judge"])
    assert ex.loc[("nosrc", "j1"), "void_blind"] == 1
    assert ex.loc[("ctx", "j2"), "no_score_file"] == 1
    assert ex.loc[("src", "j2"), "judge_error"] == 1
    inv = pd.read_csv(out / "run_inventory.csv")
    assert inv.columns.tolist() == ["cell", "answers", "judged", "included", "reason"]
    assert inv.set_index("cell").loc["ctx", "answers"] == 3
    floors = pd.read_csv(out / "floors.csv")
    f = floors[floors["dimension"] == "total"].set_index("cell")
    # floor 8.5, baseline 98/3; ctx totals Q1 (30, 28), Q2 (32, 34) -> (29 + 33)/2 = 31.
    assert f.loc["ctx", "share_of_gap"] == pytest.approx((31 - 8.5) / (98 / 3 - 8.5), abs=1e-6)
    rt = pd.read_csv(out / "test_retest.csv")
    assert rt[rt["dimension"] == "total"]["shift"].tolist() == pytest.approx([1.0, 1.0, 1.0])
    assert rt[rt["dimension"] == "total"]["mean_abs_pair_movement"].tolist() == pytest.approx([1.0, 1.0, 1.0])
    md = (out / "report.md").read_text()
    for heading in (
        "## Run inventory",
        "## Cell totals",
        "## Per-dimension means per cell",
        "## Exclusions",
        "## Missing-data sensitivity",
        "## Blind-cell verification",
        "## Floors and effect sizes",
        "## Test-retest",
    ):
        assert heading in md
    for png in ("cell_totals.png", "dimensions.png", "judge_scatter.png", "retest_shifts.png"):
        assert (out / png).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"]({png})" in md
    inputs = json.loads((out / "report_inputs.json").read_text())
    assert "src/scores/Q1.json" in inputs["score_files"] and inputs["blind_sha256"]
    assert inputs["retest_floors"] == {"accuracy": 0.0, "usefulness": 0.0, "total": 0.0}
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    assert runner.invoke(app, args).exit_code == 0
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before


def test_report_rejects_half_a_floor_pair_in_one_line(tmp_path):
    run = _run(tmp_path / "A")
    result = CliRunner().invoke(app, ["report", str(run), "--floor-cell", "nosrc"])
    assert result.exit_code == 2 and "go together" in result.output
    assert not (run / "report").exists()


def _questions(path: Path, ids: list[str]) -> Path:
    path.write_text(
        "".join(json.dumps({"id": q, "text": f"What does {q} do?", "category": "flow", "difficulty": "easy"}) + "\n" for q in ids)
    )
    return path


def test_questions_missing_from_a_run_count_as_no_answer(tmp_path):
    run = write_run(tmp_path / "A", {"src": THREE_MEANS_CELL})
    qs = _questions(tmp_path / "q.jsonl", ["Q1", "Q2", "Q3", "Q4"])
    result = CliRunner().invoke(app, ["report", str(run), "--questions", str(qs), "--resamples", "100"])
    assert result.exit_code == 0, result.output
    ex = pd.read_csv(run / "report" / "exclusions.csv").set_index("judge")
    assert (ex.loc["j1", "expected"], ex.loc["j1", "no_answer"]) == (4, 1)
    inputs = json.loads((run / "report" / "report_inputs.json").read_text())
    assert inputs["questions_sha256"] and inputs["expected_questions"] == 4


def test_expected_questions_come_from_the_run_manifest(tmp_path):
    from _analysis_helpers import manifest_for

    from groundjudge.hashing import sha256_file
    from groundjudge.storage import write_model

    run = write_run(tmp_path / "A", {"src": THREE_MEANS_CELL})
    qs = _questions(run / "questions.jsonl", ["Q1", "Q2", "Q3", "Q5"])
    write_model(run / "manifest.json", manifest_for(sha256_file(qs), judges=("j1", "j2", "j3")))
    result = CliRunner().invoke(app, ["report", str(run), "--resamples", "100"])
    assert result.exit_code == 0, result.output
    ex = pd.read_csv(run / "report" / "exclusions.csv").set_index("judge")
    assert (ex.loc["j1", "expected"], ex.loc["j1", "no_answer"]) == (4, 1)
    # j3 is in the manifest but wrote no judgement anywhere: every slot is missing, none silently.
    assert (ex.loc["j3", "expected"], ex.loc["j3", "excluded"], ex.loc["j3", "judge_missing"]) == (4, 4, 3)


def test_malformed_score_file_is_named_on_the_console_and_in_the_report(tmp_path):
    run = write_run(tmp_path / "A", {"src": THREE_MEANS_CELL})
    (run / "src" / "scores" / "Q3.json").write_text('{"schema_version": 1}')
    result = CliRunner().invoke(app, ["report", str(run), "--resamples", "100"])
    assert result.exit_code == 0, result.output
    assert "Q3.json" in result.output
    md = (run / "report" / "report.md").read_text()
    assert "Malformed score files (excluded):" in md and "Q3.json: invalid ScoreFile" in md


def test_a_run_without_score_files_is_refused(tmp_path):
    (tmp_path / "c" / "answers").mkdir(parents=True)
    (tmp_path / "c" / "answers" / "Q1.md").write_text("an answer\n")
    result = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "nothing to aggregate" in result.output


def test_a_later_report_without_floors_removes_the_old_floor_table(tmp_path):
    run = _run(tmp_path / "A")
    runner = CliRunner()
    assert (
        runner.invoke(app, ["report", str(run), "--floor-cell", "nosrc", "--baseline-cell", "src", "--resamples", "50"]).exit_code
        == 0
    )
    assert (run / "report" / "floors.csv").exists()
    assert runner.invoke(app, ["report", str(run), "--resamples", "50"]).exit_code == 0
    assert not (run / "report" / "floors.csv").exists()
    assert "## Floors" not in (run / "report" / "report.md").read_text()


def test_the_shift_axis_has_a_readable_scale_when_nothing_moved():
    import numpy as np

    from groundjudge.validation.plots import shift_axis_limit

    assert shift_axis_limit(np.array([0.0, 0.0, 0.0])) == 1.0
    assert shift_axis_limit(np.array([])) == 1.0
    assert shift_axis_limit(np.array([-2.0, 1.0])) == 2.6
