"""``groundjudge agreement`` end to end: hand-written inputs, CSV outputs, one-line errors."""

from __future__ import annotations

import csv
import json

import pytest
from _agreement_helpers import score_file, write_run
from typer.testing import CliRunner

from groundjudge.cli import app
from groundjudge.hashing import sha256_file
from groundjudge.judging.models import RubricRef
from groundjudge.storage import write_model

runner = CliRunner()


def _csv(path):
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def _ok(args):
    result = runner.invoke(app, ["agreement", *args])
    assert result.exit_code == 0, result.output
    return result


def _fails(args):
    result = runner.invoke(app, ["agreement", *args])
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Traceback" not in result.output
    return lines[0]


def _jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def test_judges_command_writes_csv_with_missing_data_left_out(tmp_path):
    run = write_run(
        tmp_path / "run",
        {
            "cell": {
                "q1": {"a": {"accuracy": 1, "usefulness": 2}, "b": {"accuracy": 1, "usefulness": 3}},
                "q2": {"a": {"accuracy": 2, "usefulness": 2}, "b": {"accuracy": 3, "usefulness": 2}},
                "q3": {"a": {"accuracy": 3, "usefulness": 4}, "b": {"accuracy": 3, "usefulness": 4}},
                "q4": {"a": {"accuracy": 4, "usefulness": 4}, "b": "truncated JSON"},
                "q5": {"a": "timeout", "b": "timeout"},
            }
        },
    )
    (run / "cell" / "scores" / "q6.json").write_text("{not json")
    result = _ok(["judges", str(run)])
    assert "excluded malformed score file cell/scores/q6.json" in result.output
    rows = _csv(run / "agreement_judges.csv")
    assert [r["dimension"] for r in rows] == ["accuracy", "usefulness", "total"]
    acc = rows[0]
    assert (acc["scope"], acc["judge_a"], acc["judge_b"], acc["n"]) == ("all cells", "a", "b", "3")
    assert float(acc["alpha"]) == pytest.approx(24 / 29)  # q4 and q5 are missing, never 0
    assert float(acc["mean_signed_diff"]) == pytest.approx(-1 / 3)
    manifest = json.loads((run / "agreement_judges.inputs.json").read_text())
    assert manifest["inputs"][str(run / "cell/scores/q1.json")] == sha256_file(run / "cell/scores/q1.json")
    assert "cell/scores/q6.json" in manifest["excluded"]
    assert manifest["outputs"] == ["agreement_judges.csv"]


def test_judges_undefined_written_as_undefined(tmp_path):
    run = write_run(
        tmp_path / "run",
        {
            "c": {
                "q1": {"a": {"accuracy": 5}, "b": {"accuracy": 5}},
                "q2": {"a": {"accuracy": 5}, "b": {"accuracy": 5}},
            }
        },
    )
    _ok(["judges", str(run), "--out", str(tmp_path / "out")])
    acc = _csv(tmp_path / "out" / "agreement_judges.csv")[0]
    assert acc["alpha"] == "undefined" and acc["spearman"] == "undefined"
    assert acc["mean_abs_diff"] == "0.0"


def test_judges_refuses_single_judge_and_missing_run(tmp_path):
    run = write_run(tmp_path / "run", {"c": {"q1": {"a": {"accuracy": 5}}}})
    assert "only one judge" in _fails(["judges", str(run)])
    assert "run directory not found" in _fails(["judges", str(tmp_path / "nope")])


def test_rubric_command_hand_worked(tmp_path):
    gen = _jsonl(
        tmp_path / "gen.jsonl",
        [
            {"item": "X", "candidate": "1", "score": 3},
            {"item": "X", "candidate": "2", "score": 2},
            {"item": "X", "candidate": "3", "score": 1},
            {"item": "Y", "candidate": "1", "score": 1},
            {"item": "Y", "candidate": "2", "score": 2},
            {"item": "Z", "candidate": "1", "score": 9},
        ],
    )
    ref = tmp_path / "ref.csv"
    ref.write_text("item,candidate,score\nX,1,5\nX,2,4\nX,3,4\nY,1,2\nY,2,1\n")
    result = _ok(["rubric", str(gen), str(ref), "--out", str(tmp_path)])
    assert "1 row(s) only in" in result.output
    row = _csv(tmp_path / "agreement_rubric.csv")[0]
    assert float(row["ordering_agreement"]) == pytest.approx(2 / 3)
    assert (row["pairs_concordant"], row["pairs_discordant"], row["pairs_tied"]) == ("2", "1", "1")
    assert float(row["spearman"]) == pytest.approx(4 / 85.5**0.5)
    assert json.loads((tmp_path / "agreement_rubric.inputs.json").read_text())["unmatched"] == {
        "only_generated": 1,
        "only_reference": 0,
    }


def test_verdicts_command_hand_worked(tmp_path):
    gen = tmp_path / "gen.csv"
    ref = tmp_path / "ref.csv"
    gen.write_text(
        "item,criterion,verdict\n" + "".join(f"i{k},c,{'pass' if v == '1' else 'fail'}\n" for k, v in enumerate("1101101110"))
    )
    ref.write_text(
        "item,criterion,verdict\n" + "".join(f"i{k},c,{'PASS' if v == '1' else 'fail'}\n" for k, v in enumerate("1101001111"))
    )
    _ok(["verdicts", str(gen), str(ref), "--out", str(tmp_path)])
    row = _csv(tmp_path / "agreement_verdicts.csv")[0]
    assert (row["n"], row["agree"], float(row["agreement"])) == ("10", "8", 0.8)
    assert float(row["kappa"]) == pytest.approx(0.5238, abs=1e-4)
    confusion = {(r["generated"], r["reference"]): r["count"] for r in _csv(tmp_path / "agreement_verdicts_confusion.csv")}
    assert confusion == {("fail", "fail"): "2", ("fail", "pass"): "1", ("pass", "fail"): "1", ("pass", "pass"): "6"}


def test_gate_command(tmp_path):
    gate = _jsonl(tmp_path / "gate.jsonl", [{"item": i, "needs_docs": v} for i, v in enumerate([1, 1, 1, 0, 0, 0, 1, 0])])
    maint = tmp_path / "maint.csv"
    maint.write_text(
        "item,needs_docs\n" + "".join(f"{i},{'yes' if v else 'no'}\n" for i, v in enumerate([1, 1, 0, 0, 0, 1, 1, 0]))
    )
    _ok(["gate", str(gate), str(maint), "--out", str(tmp_path)])
    row = _csv(tmp_path / "agreement_gate.csv")[0]
    assert (
        row["gate_yes_maintainer_yes"],
        row["gate_yes_maintainer_no"],
        row["gate_no_maintainer_yes"],
        row["gate_no_maintainer_no"],
    ) == ("3", "1", "1", "3")
    assert float(row["accuracy"]) == 0.75


def test_coverage_command(tmp_path):
    ref = tmp_path / "ref.csv"
    ref.write_text("item,id,priority\nA,R1,P0\nA,R2,P1\nA,R3,P3\nB,R1,P2\n")
    gen = tmp_path / "gen.csv"
    gen.write_text("item,id\nA,G1\nA,G2\nA,G3\nB,G1\n")
    matches = _jsonl(
        tmp_path / "m.jsonl",
        [
            {"item": "A", "generated": "G1", "reference": "R1", "match": "full"},
            {"item": "A", "generated": "G2", "reference": "R1", "match": "partial"},
            {"item": "A", "generated": "G2", "reference": "R2", "match": "partial"},
            {"item": "A", "generated": "G3", "reference": "R3", "match": "conflict"},
        ],
    )
    printed = _ok(["coverage", str(matches), str(ref), str(gen), "--out", str(tmp_path)]).output
    assert "priority_weighted_recall" in printed and "0.5500" in printed
    row = _csv(tmp_path / "agreement_coverage.csv")[0]
    assert float(row["recall"]) == 0.375
    assert float(row["priority_weighted_recall"]) == 0.55
    assert float(row["overlap_precision"]) == 0.5
    assert len(_csv(tmp_path / "agreement_coverage_criteria.csv")) == 4


# (file name, its content or None for a missing file, whether it is the GENERATED side, expected message)
BAD_RUBRIC_INPUTS = [
    ("bad.csv", "item,candidate,score\nX,1,three\n", False, "bad.csv: line 2: score"),
    ("dup.csv", "item,candidate,score\nX,1,3\nX,1,4\n", True, "duplicate row"),
    ("other.csv", "item,candidate,score\nY,1,3\n", False, "matches"),
    ("x.txt", "hi", True, "use a .jsonl or .csv file"),
    ("broken.jsonl", '{"item": "X", "candidate": "1", "score": 1}\n{oops\n', True, "broken.jsonl: line 2: not JSON"),
    ("extra.jsonl", '{"item": "X", "candidate": "1", "score": 1, "colour": "red"}\n', True, "colour"),
    ("missing.csv", None, True, "file not found"),
]


@pytest.mark.parametrize("name, content, generated_side, message", BAD_RUBRIC_INPUTS)
def test_bad_inputs_are_one_line_errors(tmp_path, name, content, generated_side, message):
    good = tmp_path / "good.csv"
    good.write_text("item,candidate,score\nX,1,3\n")
    bad = tmp_path / name
    if content is not None:
        bad.write_text(content)
    pair = [str(bad), str(good)] if generated_side else [str(good), str(bad)]
    assert message in _fails(["rubric", *pair])


def test_coverage_refuses_unknown_ids_and_missing_priority(tmp_path):
    ref = tmp_path / "ref.csv"
    ref.write_text("item,id,priority\nA,R1,P0\n")
    gen = tmp_path / "gen.csv"
    gen.write_text("item,id\nA,G1\n")
    m = tmp_path / "m.csv"
    m.write_text("item,generated,reference,match\nA,G1,R9,full\n")
    assert "'R9'" in _fails(["coverage", str(m), str(ref), str(gen)])
    m.write_text("item,generated,reference,match\nA,G1,R1,maybe\n")
    assert "m.csv: line 2: match" in _fails(["coverage", str(m), str(ref), str(gen)])
    noprio = tmp_path / "noprio.csv"
    noprio.write_text("item,id,priority\nA,R1,\n")
    m.write_text("item,generated,reference,match\nA,G1,R1,full\n")
    assert "has no priority" in _fails(["coverage", str(m), str(noprio), str(gen)])


def test_judges_cell_filter_and_by_cell(tmp_path):
    run = write_run(
        tmp_path / "run",
        {
            "x": {"q1": {"a": {"accuracy": 1}, "b": {"accuracy": 2}}, "q2": {"a": {"accuracy": 3}, "b": {"accuracy": 3}}},
            "y": {"q1": {"a": {"accuracy": 9}, "b": {"accuracy": 1}}},
        },
    )
    _ok(["judges", str(run), "--cell", "x", "--by-cell"])
    rows = _csv(run / "agreement_judges.csv")
    assert {r["scope"] for r in rows} == {"all cells", "x"}
    acc = next(r for r in rows if r["scope"] == "all cells" and r["dimension"] == "accuracy")
    assert (acc["n"], float(acc["mean_signed_diff"])) == ("2", -0.5)
    manifest = json.loads((run / "agreement_judges.inputs.json").read_text())
    assert sorted(manifest["inputs"]) == [str(run / "x/scores/q1.json"), str(run / "x/scores/q2.json")]
    assert "no cell named 'z'" in _fails(["judges", str(run), "--cell", "z"])


def test_csv_with_bom_and_numeric_ids(tmp_path):
    gen = tmp_path / "gen.csv"
    gen.write_bytes("\ufeffitem,candidate,score\n7,1,1\n7,2,2\n".encode())
    ref = _jsonl(tmp_path / "ref.jsonl", [{"item": 7, "candidate": 1, "score": 2}, {"item": 7, "candidate": 2, "score": 4}])
    _ok(["rubric", str(gen), str(ref), "--out", str(tmp_path)])
    row = _csv(tmp_path / "agreement_rubric.csv")[0]
    assert (row["n"], row["pairs_concordant"], float(row["ordering_agreement"])) == ("2", "1", 1.0)


def test_judges_refuses_a_dimension_named_total(tmp_path):
    sf = score_file(
        "c",
        "q1",
        {"a": {"total": 3}, "b": {"total": 4}},
        rubric=RubricRef(name="odd", sha256="d" * 64, dimensions={"total": 10.0}),
    )
    write_model(tmp_path / "run" / "c" / "scores" / "q1.json", sf)
    assert "dimension named 'total'" in _fails(["judges", str(tmp_path / "run")])
