"""Test-retest: the cell-level floor and the paired construction against hand-worked runs."""

from __future__ import annotations

import pytest
from _analysis_helpers import RUBRIC_2D, manifest_for, write_run
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.errors import UserError
from groundjudge.judging.manifest import RunManifest
from groundjudge.storage import write_model
from groundjudge.validation.retest import compare_runs, parse_retest_floor

SHIFTS = {"c1": -2.47, "c2": 1.03, "c3": -1.23, "c4": 1.42}


def _floor_runs(tmp_path):
    a = write_run(tmp_path / "A", {c: {"Q1": {"j1": {"accuracy": 20, "usefulness": 10}}} for c in SHIFTS}, rubric=RUBRIC_2D)
    b = write_run(
        tmp_path / "B", {c: {"Q1": {"j1": {"accuracy": 20 + s, "usefulness": 10}}} for c, s in SHIFTS.items()}, rubric=RUBRIC_2D
    )
    return a, b


def test_headline_floor_is_the_range_of_cell_shifts(tmp_path):
    _, _, table, ranges = compare_runs(*_floor_runs(tmp_path), None)
    total = table[table["dimension"] == "total"].set_index("cell")
    for cell, shift in SHIFTS.items():
        assert total.loc[cell, "shift"] == pytest.approx(shift)
    r = ranges.set_index("dimension")
    # max +1.42 minus min -2.47 = 3.89; usefulness never moved.
    assert r.loc["total", "floor"] == pytest.approx(3.89)
    assert r.loc["accuracy", "floor"] == pytest.approx(3.89)
    assert r.loc["usefulness", "floor"] == 0
    assert (r.loc["total", "min_shift"], r.loc["total", "max_shift"], r.loc["total", "n_cells"]) == (
        pytest.approx(-2.47),
        pytest.approx(1.42),
        4,
    )


def test_paired_movement_keeps_only_pairs_valid_in_both_runs(tmp_path):
    # A: Q1 (j1 10, j2 20), Q2 (j1 30, j2 failed)  -> question means 15, 30 -> 22.5
    # B: Q1 (j1 14, j2 18), Q2 (j1 failed, j2 25)  -> question means 16, 25 -> 20.5; shift -2
    # Pairs valid in both: (Q1, j1) +4 and (Q1, j2) -2: mean |move| 3, mean move +1.
    def e(v):
        return {"accuracy": v, "usefulness": 0}

    a = write_run(tmp_path / "A", {"c": {"Q1": {"j1": e(10), "j2": e(20)}, "Q2": {"j1": e(30), "j2": "429"}}}, rubric=RUBRIC_2D)
    b = write_run(
        tmp_path / "B", {"c": {"Q1": {"j1": e(14), "j2": e(18)}, "Q2": {"j1": "timeout", "j2": e(25)}}}, rubric=RUBRIC_2D
    )
    _, _, table, ranges = compare_runs(a, b, None)
    r = table[table["dimension"] == "total"].iloc[0]
    assert (r.mean_a, r.mean_b, r["shift"]) == (22.5, 20.5, -2.0)
    assert (r.n_pairs, r.mean_abs_pair_movement, r.mean_signed_pair_movement) == (2, 3.0, 1.0)
    assert ranges.set_index("dimension").loc["total"].isna()["floor"]  # one cell: no range


def test_runs_on_different_snapshots_are_refused(tmp_path):
    a = write_run(tmp_path / "A", {"c": {"Q1": {"j1": {"accuracy": 3}}}})
    b = write_run(tmp_path / "B", {"c": {"Q1": {"j1": {"accuracy": 3}}}}, tree="u" * 64)
    with pytest.raises(UserError, match="corpus tree hash uuuuuuuuuuuu differs from tttttttttttt"):
        compare_runs(a, b, None)


def test_runs_on_different_questions_are_refused(tmp_path):
    a = write_run(tmp_path / "A", {"c": {"Q1": {"j1": {"accuracy": 3}}}})
    b = write_run(tmp_path / "B", {"c": {"Q1": {"j1": {"accuracy": 3}}}}, answers_only={"c": ["Q2"]})
    with pytest.raises(UserError, match=r"question sets of cell 'c' differ: only in A \[\], only in B \['Q2'\]"):
        compare_runs(a, b, None)


def test_runs_whose_manifests_name_different_question_sets_are_refused(tmp_path):
    a = write_run(tmp_path / "A", {"c": {"Q1": {"j1": {"accuracy": 3}}}})
    b = write_run(tmp_path / "B", {"c": {"Q1": {"j1": {"accuracy": 3}}}})
    for run, qhash in ((a, "1" * 64), (b, "2" * 64)):
        write_model(
            run / "manifest.json",
            manifest_for(qhash, rubric=RUBRIC_2D, cells=["c"], judges=[], corpus_name="carddemo", questions_path="q.jsonl"),
        )
    with pytest.raises(UserError, match="manifest question set hash 222222222222 differs"):
        compare_runs(a, b, None)


def test_retest_floor_option_takes_a_number_or_a_csv(tmp_path):
    assert parse_retest_floor("3.89") == {"total": 3.89}
    a, b = _floor_runs(tmp_path)
    result = CliRunner().invoke(app, ["retest", str(a), str(b), "--out", str(tmp_path / "rt")])
    assert result.exit_code == 0, result.output
    assert "test-retest floor (range of cell-mean shifts on the total over 4 cells): 3.89" in result.output
    lines = (tmp_path / "rt" / "test_retest.csv").read_text().splitlines()
    assert lines[0] == ",".join(
        [
            "cell",
            "dimension",
            "mean_a",
            "mean_b",
            "shift",
            "n_questions_a",
            "n_questions_b",
            "n_pairs",
            "mean_abs_pair_movement",
            "mean_signed_pair_movement",
        ]
    )
    assert lines[1] == "c1,accuracy,20.000000,17.530000,-2.470000,1,1,1,2.470000,-2.470000"
    floors = parse_retest_floor(str(tmp_path / "rt" / "test_retest.csv"))
    assert floors["total"] == pytest.approx(3.89) and floors["usefulness"] == 0
    with pytest.raises(UserError, match="non-negative number"):
        parse_retest_floor("-1")


def test_retest_command_refusal_is_one_line(tmp_path):
    a = write_run(tmp_path / "A", {"c": {"Q1": {"j1": {"accuracy": 3}}}})
    b = write_run(tmp_path / "B", {"c": {"Q1": {"j1": {"accuracy": 3}}}}, tree="u" * 64)
    result = CliRunner().invoke(app, ["retest", str(a), str(b)])
    assert result.exit_code == 2
    assert result.output.strip().count("\n") == 0 and "corpus tree hash" in result.output


def test_cells_option_limits_the_comparison(tmp_path):
    a, b = _floor_runs(tmp_path)
    result = CliRunner().invoke(app, ["retest", str(a), str(b), "--cells", "c1,c4", "--out", str(tmp_path / "rt")])
    assert result.exit_code == 0, result.output
    # shifts -2.47 and +1.42 only: range 3.89 over two cells
    assert "over 2 cells): 3.89" in result.output
    result = CliRunner().invoke(app, ["retest", str(a), str(b), "--cells", "c9"])
    assert result.exit_code == 2 and "no cell named 'c9'" in result.output
