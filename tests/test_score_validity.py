"""Score files holding numbers the rubric cannot have produced are malformed: never read, never averaged."""

from __future__ import annotations

import json
import math

import pandas as pd
import pytest
from _analysis_helpers import RUBRIC_2D, score_file, write_run
from pydantic import ValidationError
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.errors import UserError
from groundjudge.judging.models import RubricRef, ScoreFile, score_file_problem
from groundjudge.storage import read_model
from groundjudge.validation.scores_io import load_run


def _raw(accuracy, usefulness=10, total=None, **extra_scores) -> dict:
    """A RUBRIC_2D score file (accuracy 0-30, usefulness 0-20) as the JSON object written to disk."""
    data = score_file("src", "Q3", {"j1": {"accuracy": 20, "usefulness": 10}}, RUBRIC_2D).model_dump(mode="json")
    scores = {"accuracy": accuracy, "usefulness": usefulness, **extra_scores}
    data["judgements"][0]["scores"] = scores
    data["judgements"][0]["total"] = sum(scores.values()) if total is None else total
    return data


def _write(path, data: dict | str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(data if isinstance(data, str) else json.dumps(data))  # json writes nan, inf as NaN, Infinity


IMPOSSIBLE = {
    "above the maximum": (_raw(500), "accuracy = 500"),
    "below the minimum": (_raw(-40), "accuracy = -40"),
    "NaN literal": (_raw(float("nan"), total=30), "accuracy = nan"),
    "Infinity literal": (_raw(float("inf"), total=30), "accuracy = inf"),
    "-Infinity literal": (_raw(20, float("-inf"), total=30), "usefulness = -inf"),
    "overflow to Infinity": (json.dumps(_raw(20)).replace('"accuracy": 20', '"accuracy": 1e999'), "accuracy = inf"),
    "total not the sum": (_raw(20, 10, total=45), "total = 45"),
    "NaN total": (_raw(20, 10, total=float("nan")), "total = nan"),
    "unknown dimension": (_raw(20, 10, style=5), "dimension 'style' is not in rubric two"),
}


@pytest.mark.parametrize("case", IMPOSSIBLE, ids=list(IMPOSSIBLE))
def test_impossible_scores_are_refused_naming_the_file(tmp_path, case):
    data, reason = IMPOSSIBLE[case]
    path = tmp_path / "Q3.json"
    _write(path, data)
    with pytest.raises(UserError, match="invalid ScoreFile") as err:
        read_model(path, ScoreFile)
    assert str(path) in str(err.value) and reason in str(err.value) and "\n" not in str(err.value)
    assert score_file_problem(path) == str(err.value)


def test_a_possible_score_file_has_no_problem(tmp_path):
    path = tmp_path / "Q3.json"
    _write(path, _raw(30, 0, total=30.0000000001))  # rounding in a float total is allowed for
    assert read_model(path, ScoreFile).judgements[0].total == pytest.approx(30)
    assert score_file_problem(path) is None
    assert score_file_problem(tmp_path / "absent.json") is None  # never written: nothing to rewrite


def test_the_rubric_minimum_is_the_floor_of_a_score():
    rubric = RubricRef(name="one", sha256="a" * 64, dimensions={"accuracy": 5.0}, minimum={"accuracy": 1.0})
    with pytest.raises(ValidationError, match=r"accuracy = 0.0 is outside the rubric's range \[1, 5\]"):
        score_file("c", "Q1", {"j1": {"accuracy": 0}}, rubric)
    assert score_file("c", "Q1", {"j1": {"accuracy": 1}}, rubric).judgements[0].total == 1


def test_a_rubric_without_a_finite_range_is_refused():
    for dims, minimum in (({"a": math.inf}, {}), ({"a": math.nan}, {}), ({"a": 5.0}, {"a": 6.0}), ({"a": 5.0}, {"b": 1.0})):
        with pytest.raises(ValidationError):
            RubricRef(name="r", sha256="a" * 64, dimensions=dims, minimum=minimum)


def test_a_failed_judgement_naming_an_unknown_dimension_is_refused(tmp_path):
    data = score_file("src", "Q3", {"j1": "timeout", "j2": {"accuracy": 3}}).model_dump(mode="json")
    data["judgements"][0]["scores"] = {"style": None}
    _write(tmp_path / "Q3.json", data)
    assert "dimension 'style' is not in rubric one" in score_file_problem(tmp_path / "Q3.json")


def test_report_lists_impossible_score_files_and_never_averages_them(tmp_path):
    # Two good files: totals 30 and 40, so the cell mean is 35 whatever the bad files hold.
    run = write_run(
        tmp_path / "run",
        {
            "src": {
                "Q1": {"j1": {"accuracy": 20, "usefulness": 10}},
                "Q2": {"j1": {"accuracy": 25, "usefulness": 15}},
            }
        },
        rubric=RUBRIC_2D,
    )
    bad = {"Q3": _raw(500), "Q4": _raw(float("inf"), total=30), "Q5": _raw(20, 10, total=45), "Q6": _raw(20, 10, style=5)}
    for qid, data in bad.items():
        data["qid"] = qid
        _write(run / "src" / "scores" / f"{qid}.json", data)

    loaded = load_run(run)
    assert sorted(loaded.malformed_files()) == [f"src/scores/{q}.json" for q in bad]
    assert sorted(loaded.cells["src"].scores) == ["Q1", "Q2"]

    result = CliRunner().invoke(app, ["report", str(run), "--resamples", "50"])
    assert result.exit_code == 0, result.output
    means = pd.read_csv(run / "report" / "cell_dimension.csv").set_index("dimension")
    assert means.loc["total", "mean_question_balanced"] == 35.0
    assert means.loc["accuracy", "mean_question_balanced"] == 22.5
    ex = pd.read_csv(run / "report" / "exclusions.csv").iloc[0]
    assert (ex.expected, ex.excluded, ex.malformed_score_file) == (6, 4, 4)
    md = (run / "report" / "report.md").read_text()
    for qid, reason in (("Q3", "accuracy = 500"), ("Q4", "accuracy = inf"), ("Q5", "total = 45"), ("Q6", "'style'")):
        line = next(text for text in md.splitlines() if f"{qid}.json" in text and text.startswith("- "))
        assert reason in line
        assert f"{qid}.json" in result.output
    assert "inf" not in means.to_string() and (run / "report" / "cell_totals.png").exists()
