"""Aggregation against hand-worked tables: the three means, per-judge means, exclusions, inventory,
sensitivity, intervals, and how malformed or missing files are counted."""

from __future__ import annotations

import json

import numpy as np
import pytest
from _analysis_helpers import RUBRIC_2D, THREE_MEANS_CELL, score_file, write_run
from hypothesis import given, settings
from hypothesis import strategies as st

from groundjudge.errors import UserError
from groundjudge.storage import write_model
from groundjudge.validation import aggregate as agg
from groundjudge.validation.scores_io import load_run


def _row(frame, **match):
    sel = frame
    for k, v in match.items():
        sel = sel[sel[k].astype(str) == v]
    assert len(sel) == 1, sel
    return sel.iloc[0]


@pytest.fixture
def hand_run(tmp_path):
    # Q4 has an answer but no score file (infrastructure failure); everything else is the
    # research note's table.
    return load_run(write_run(tmp_path, {"src": THREE_MEANS_CELL}, answers_only={"src": ["Q4"]}))


def test_three_means_match_the_hand_worked_table(hand_run):
    means = agg.three_means(agg.slot_table(hand_run))
    assert list(means.columns) == agg.CELL_DIMENSION_COLUMNS
    for dim in ("accuracy", "total"):  # one-dimension rubric: the total equals the accuracy
        r = _row(means, cell="src", dimension=dim)
        assert r.mean_pooled == pytest.approx(15 / 5)  # (4+2+5+1+3)/5 = 3.0
        assert r.mean_question_balanced == pytest.approx((3 + 5 + 2) / 3)  # 3.333
        assert r.mean_judge_balanced == pytest.approx((10 / 3 + 5 / 2) / 2)  # 35/12 = 2.917
        assert (r.n_questions, r.n_judgements) == (3, 5)


def test_per_judge_means(hand_run):
    pj = agg.per_judge_means(agg.slot_table(hand_run))
    assert list(pj.columns) == agg.CELL_JUDGE_DIMENSION_COLUMNS
    assert _row(pj, judge="j1", dimension="total").mean_question_balanced == pytest.approx(10 / 3)
    assert _row(pj, judge="j1", dimension="total").n == 3
    assert _row(pj, judge="j2", dimension="total").mean_question_balanced == pytest.approx(2.5)
    assert _row(pj, judge="j2", dimension="total").n == 2


def test_exclusions_count_judge_and_infrastructure_failures_apart(hand_run):
    ex = agg.exclusions(agg.slot_table(hand_run))
    assert list(ex.columns) == agg.EXCLUSION_COLUMNS
    j1 = _row(ex, judge="j1")
    j2 = _row(ex, judge="j2")
    # Four expected questions each; Q4 never got a score file; j2 also failed on Q2.
    assert (j1.expected, j1.excluded, j1.no_score_file, j1.judge_error) == (4, 1, 1, 0)
    assert (j2.expected, j2.excluded, j2.no_score_file, j2.judge_error) == (4, 2, 1, 1)
    assert j1.no_answer == j2.no_answer == 0


def test_sensitivity_fills_excluded_judgements_with_the_rubric_bounds(hand_run):
    # Rubric: accuracy 1..5. Observed question means: Q1 3, Q2 5, Q3 2 -> 10/3.
    # Judge failures only (Q2/j2): at min Q2 = (5+1)/2 = 3 -> (3+3+2)/3 = 8/3; at max Q2 = 5 -> 10/3.
    # Also infrastructure (Q4, both judges): at min Q4 = 1 -> (3+3+2+1)/4 = 9/4;
    #                                        at max Q4 = 5 -> (3+5+2+5)/4 = 15/4.
    sens = agg.sensitivity(agg.slot_table(hand_run), agg.score_bounds(hand_run))
    assert list(sens.columns) == agg.SENSITIVITY_COLUMNS
    r = _row(sens, cell="src", dimension="accuracy")
    assert r.mean_question_balanced == pytest.approx(10 / 3)
    assert r.judge_failures_at_min == pytest.approx(8 / 3)
    assert r.judge_failures_at_max == pytest.approx(10 / 3)
    assert r.all_missing_at_min == pytest.approx(9 / 4)
    assert r.all_missing_at_max == pytest.approx(15 / 4)
    assert (r.n_judge_failures, r.n_infrastructure_failures) == (1, 2)


def test_void_answers_are_excluded_with_their_reason(hand_run):
    slots = agg.slot_table(hand_run, void=[("src", "Q3")])
    r = _row(agg.three_means(slots), cell="src", dimension="total")
    assert r.mean_question_balanced == pytest.approx((3 + 5) / 2)
    assert (r.n_questions, r.n_judgements) == (2, 3)
    ex = agg.exclusions(slots)
    assert _row(ex, judge="j1").void_blind == 1
    sens = _row(agg.sensitivity(slots, agg.score_bounds(hand_run)), cell="src", dimension="total")
    assert sens.all_missing_at_max == pytest.approx((3 + 5 + 5) / 3)  # the void Q3 is never filled
    inv = agg.run_inventory(hand_run, void=[("src", "Q3")])
    assert inv.iloc[0].judged == 2 and "1 void" in inv.iloc[0].reason


def test_inventory_and_missing_cells(tmp_path):
    write_run(tmp_path, {"a": {"Q1": {"j1": {"accuracy": 3}}}, "b": {"Q1": {"j1": "refused"}}}, answers_only={"c": ["Q1"]})
    (tmp_path / "d" / "answers").mkdir(parents=True)
    run = load_run(tmp_path)
    inv = agg.run_inventory(run)
    assert list(inv.columns) == agg.INVENTORY_COLUMNS
    assert inv.to_dict("records") == [
        {"cell": "a", "answers": 1, "judged": 1, "included": True, "reason": "1 judged answer"},
        {"cell": "b", "answers": 1, "judged": 0, "included": False, "reason": "no judged answers"},
        {"cell": "c", "answers": 1, "judged": 0, "included": False, "reason": "no score files"},
        {"cell": "d", "answers": 0, "judged": 0, "included": False, "reason": "no answers and no score files"},
    ]
    means = agg.three_means(agg.slot_table(run))
    d = _row(means, cell="d", dimension="total")
    assert np.isnan(d.mean_question_balanced) and d.n_judgements == 0
    ex = agg.exclusions(agg.slot_table(run))
    assert _row(ex, cell="d").no_answer == 1 and _row(ex, cell="b").judge_error == 1


def test_malformed_score_file_is_reported_by_name_and_counted(tmp_path):
    write_run(tmp_path, {"a": {"Q1": {"j1": {"accuracy": 3}}, "Q2": {"j1": {"accuracy": 4}}}})
    bad = tmp_path / "a" / "scores" / "Q2.json"
    data = json.loads(bad.read_text())
    data["judgements"][0]["total"] = None  # a valid judgement must carry a total
    bad.write_text(json.dumps(data))
    (tmp_path / "a" / "scores" / "Q3.json").write_text("{not json")
    run = load_run(tmp_path)
    assert set(run.cells["a"].malformed) == {"Q2", "Q3"}
    assert all("Q2.json" in p or "Q3.json" in p for p in run.cells["a"].malformed.values())
    ex = _row(agg.exclusions(agg.slot_table(run)), judge="j1")
    assert (ex.expected, ex.excluded, ex.malformed_score_file) == (3, 2, 2)
    assert "a/scores/Q3.json" in run.input_hashes


def test_score_file_naming_another_question_is_malformed(tmp_path):
    write_run(tmp_path, {"a": {"Q1": {"j1": {"accuracy": 3}}}})
    write_model(tmp_path / "a" / "scores" / "Q2.json", score_file("a", "Q1", {"j1": {"accuracy": 2}}))
    run = load_run(tmp_path)
    assert "does not match the file name" in run.cells["a"].malformed["Q2"]


def test_a_run_with_two_rubrics_is_refused(tmp_path):
    write_run(tmp_path, {"a": {"Q1": {"j1": {"accuracy": 3}}}})
    write_model(tmp_path / "b" / "scores" / "Q1.json", score_file("b", "Q1", {"j1": {"accuracy": 3, "usefulness": 2}}, RUBRIC_2D))
    with pytest.raises(UserError, match="one rubric"):
        load_run(tmp_path)


def test_missing_dimension_score_is_counted_not_zeroed(tmp_path):
    write_run(
        tmp_path,
        {
            "a": {
                "Q1": {"j1": {"accuracy": 20, "usefulness": None}, "j2": {"accuracy": 10, "usefulness": 10}},
            }
        },
        rubric=RUBRIC_2D,
    )
    run = load_run(tmp_path)
    slots = agg.slot_table(run)
    means = agg.three_means(slots)
    assert _row(means, dimension="usefulness").mean_pooled == 10
    assert _row(means, dimension="usefulness").n_judgements == 1
    assert _row(means, dimension="total").mean_pooled == pytest.approx((20 + 20) / 2)
    ex = _row(agg.exclusions(slots), judge="j1")
    assert (ex.excluded, ex.dimension_missing) == (0, 1)
    assert agg.score_bounds(run) == {"accuracy": (0, 30), "usefulness": (0, 20), "total": (0, 50)}


def test_intervals_resample_questions_with_a_fixed_seed(tmp_path):
    # Two questions with means 2 and 4: a resample of two questions has mean 2, 3 or 4 with
    # probabilities 1/4, 1/2, 1/4, so the 95% percentile interval is [2, 4].
    write_run(tmp_path, {"a": {"Q1": {"j1": {"accuracy": 1}, "j2": {"accuracy": 3}}, "Q2": {"j1": {"accuracy": 4}}}})
    slots = agg.slot_table(load_run(tmp_path))
    ci = agg.intervals(slots, n_resamples=2000, seed=7)
    assert list(ci.columns) == agg.INTERVAL_COLUMNS
    r = _row(ci, dimension="total")
    assert (r.mean_question_balanced, r.ci_low, r.ci_high, r.n_questions) == (3.0, 2.0, 4.0, 2)
    assert ci.equals(agg.intervals(slots, n_resamples=2000, seed=7))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.integers(1, 5), min_size=3, max_size=3), min_size=1, max_size=6))  # RUBRIC_1D: 1 to 5
def test_question_balanced_equals_pooled_when_nothing_is_missing(tmp_path_factory, table):
    root = tmp_path_factory.mktemp("prop")
    cells = {"c": {f"Q{i}": {f"j{k}": {"accuracy": v} for k, v in enumerate(row)} for i, row in enumerate(table)}}
    r = agg.three_means(agg.slot_table(load_run(write_run(root, cells)))).iloc[-1]
    assert r.mean_question_balanced == pytest.approx(r.mean_pooled)
    assert r.mean_judge_balanced == pytest.approx(r.mean_pooled)
    assert r.mean_pooled == pytest.approx(np.mean(table))


def test_a_judge_absent_from_a_score_file_is_judge_missing(tmp_path):
    # j2 judged Q1 but has no judgement at all in Q2's score file.
    write_run(tmp_path, {"a": {"Q1": {"j1": {"accuracy": 2}, "j2": {"accuracy": 4}}, "Q2": {"j1": {"accuracy": 5}}}})
    slots = agg.slot_table(load_run(tmp_path))
    ex = _row(agg.exclusions(slots), judge="j2")
    assert (ex.expected, ex.excluded, ex.judge_missing, ex.judge_error) == (2, 1, 1, 0)
    r = _row(agg.three_means(slots), dimension="total")
    assert (r.mean_question_balanced, r.mean_pooled, r.mean_judge_balanced) == (4.0, pytest.approx(11 / 3), 3.75)


def test_a_rubric_dimension_named_total_is_refused(tmp_path):
    from groundjudge.judging.models import RubricRef

    rubric = RubricRef(name="odd", sha256="c" * 64, dimensions={"total": 10.0})
    write_run(tmp_path, {"a": {"Q1": {"j1": {"total": 3}}}}, rubric=rubric)
    with pytest.raises(UserError, match="dimension named 'total'"):
        agg.slot_table(load_run(tmp_path))
