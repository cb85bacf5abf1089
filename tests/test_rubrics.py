"""Dimension rubrics: the bundled reference-free rubric and the loader's validation."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from _rubrics_helpers import run

from groundjudge import rubrics
from groundjudge.errors import UserError
from groundjudge.rubrics import load_rubric
from groundjudge.rubrics.dimensions import RubricRef

BUNDLED_FILE = Path(rubrics.__file__).parent / "reference-free.toml"

LIKERT = """
schema_version = 1
kind = "dimensions"
name = "likert"
version = 2

[[dimensions]]
name = "clarity"
min = 1
max = 5
description = "How clear the answer is."
bands = [
  {min = 1, max = 2, descriptor = "Hard to follow."},
  {min = 3, max = 3, descriptor = "Followable with effort."},
  {min = 4, max = 5, descriptor = "Clear."},
]

[[dimensions]]
name = "correct_flow"
max = 10
description = "Is the described control flow right?"
bands = [
  {min = 6, max = 10, descriptor = "Right."},
  {min = 0, max = 5, descriptor = "Wrong."},
]
"""


def write(tmp_path: Path, text: str, name: str = "custom.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_reference_free_rubric_has_the_four_dimensions_and_100_points():
    rubric = load_rubric("reference-free")
    assert [(d.name, d.min, d.max) for d in rubric.dimensions] == [
        ("accuracy", 0, 30),
        ("completeness", 0, 25),
        ("traceability", 0, 25),
        ("usefulness", 0, 20),
    ]
    # 30 + 25 + 25 + 20 = 100
    assert rubric.total_max == 100
    assert rubric.name == "reference-free" and rubric.version == 1
    assert rubric.sha256 == hashlib.sha256(BUNDLED_FILE.read_bytes()).hexdigest()


def test_every_score_of_every_bundled_dimension_has_exactly_one_descriptor():
    rubric = load_rubric("reference-free")
    for dim in rubric.dimensions:
        for score in range(dim.min, dim.max + 1):
            holders = [b for b in dim.bands if b.min <= score <= b.max]
            assert len(holders) == 1, (dim.name, score)
            assert len(holders[0].descriptor) > 20


def test_ref_carries_name_hash_and_ranges():
    rubric = load_rubric("reference-free")
    assert rubric.ref() == RubricRef(
        name="reference-free",
        sha256=rubric.sha256,
        dimensions={"accuracy": 30.0, "completeness": 25.0, "traceability": 25.0, "usefulness": 20.0},
        minimum={"accuracy": 0.0, "completeness": 0.0, "traceability": 0.0, "usefulness": 0.0},
    )


def test_path_and_bundled_name_load_the_same_rubric():
    assert load_rubric(BUNDLED_FILE) == load_rubric("reference-free")
    assert load_rubric(str(BUNDLED_FILE)).sha256 == load_rubric("reference-free").sha256


def test_user_rubric_with_other_dimensions_minimum_and_unordered_bands(tmp_path):
    path = write(tmp_path, LIKERT)
    rubric = load_rubric(path)
    assert rubric.name == "likert" and rubric.version == 2
    # clarity 1..5 and correct_flow 0..10: total of maxima 5 + 10 = 15
    assert rubric.total_max == 15
    assert rubric.ref().dimensions == {"clarity": 5.0, "correct_flow": 10.0}
    assert rubric.ref().minimum == {"clarity": 1.0, "correct_flow": 0.0}
    assert [(b.min, b.max) for b in rubric.dimension("correct_flow").sorted_bands()] == [(0, 5), (6, 10)]
    assert rubric.source == str(path)
    assert rubric.sha256 == hashlib.sha256(path.read_bytes()).hexdigest()


def test_changing_one_descriptor_changes_the_hash(tmp_path):
    original = load_rubric(write(tmp_path, LIKERT, "a.toml"))
    edited = load_rubric(write(tmp_path, LIKERT.replace("Hard to follow.", "Very hard to follow."), "b.toml"))
    assert original.sha256 != edited.sha256


def test_bundled_rubrics_are_listed_by_kind():
    assert "reference-free" in rubrics.bundled_rubrics("dimensions")
    assert "criteria-example" in rubrics.bundled_rubrics("criteria")
    assert "criteria-example" not in rubrics.bundled_rubrics("dimensions")


BAD_RUBRICS = [
    (LIKERT.replace('name = "correct_flow"', 'name = "clarity"'), "duplicate dimension name 'clarity'"),
    (LIKERT.replace("max = 10\n", "max = 0\n"), "max must be positive"),
    (LIKERT.replace("max = 10\n", "max = -3\n"), "max must be positive"),
    (LIKERT.replace("{min = 6, max = 10,", "{min = 6, max = 11,"), "band 6-11 is outside 0-10"),
    (LIKERT.replace("{min = 6, max = 10,", "{min = 5, max = 10,"), "band 5-10 overlaps the previous band"),
    (LIKERT.replace("{min = 6, max = 10,", "{min = 7, max = 10,"), "leaves 6-6 without a band"),
    (LIKERT.replace("{min = 6, max = 10,", "{min = 6, max = 9,"), "scores 10-10 have no band"),
    (LIKERT.replace("{min = 3, max = 3,", "{min = 3, max = 2,"), "min is greater than max"),
    (LIKERT.replace('descriptor = "Clear."', 'descriptor = ""'), "at least 1 character"),
    (LIKERT.replace('name = "clarity"', 'name = "Clarity Score"'), "must match [a-z][a-z0-9_]*"),
    (LIKERT.replace('name = "clarity"', 'name = "rationale"'), "'rationale'"),
    (LIKERT.replace('name = "clarity"', 'name = "copy"'), "pydantic attribute name"),
    (LIKERT.replace("min = 1\nmax = 5", "min = 5\nmax = 5"), "min must be in 0..max-1"),
    (LIKERT.replace('kind = "dimensions"', 'kind = "criteria"'), "this is a criteria rubric"),
    (LIKERT.replace('kind = "dimensions"\n', ""), "kind: Field required"),
    (LIKERT.replace("schema_version = 1", "schema_version = 2"), "schema_version"),
    (LIKERT.replace("version = 2", "version = 2\ncolour = 'blue'"), "colour: Extra inputs are not permitted"),
    ("schema_version = 1\nkind = 'dimensions'\nname = 'x'\nversion = 1\ndimensions = []\n", "dimensions"),
    ("name = [unclosed", "not valid TOML"),
]


@pytest.mark.parametrize("text, problem", BAD_RUBRICS)
def test_bad_rubric_is_one_line_user_error_naming_file_and_problem(tmp_path, text, problem):
    path = write(tmp_path, text)
    with pytest.raises(UserError) as info:
        load_rubric(path)
    message = str(info.value)
    assert message.startswith(f"{path}: ")
    assert problem in message
    assert "\n" not in message


def test_error_names_the_dimension_by_name_not_index(tmp_path):
    path = write(tmp_path, LIKERT.replace('descriptor = "Clear."', 'descriptor = ""'))
    with pytest.raises(UserError, match=r"dimensions\['clarity'\]\.bands\[2\]\.descriptor"):
        load_rubric(path)


def test_non_utf8_and_missing_files_and_unknown_names(tmp_path):
    binary = tmp_path / "bin.toml"
    binary.write_bytes(b"\xff\xfe name = 1")
    with pytest.raises(UserError, match="not UTF-8"):
        load_rubric(binary)
    with pytest.raises(UserError, match="rubric file not found"):
        load_rubric(tmp_path / "absent.toml")
    with pytest.raises(UserError, match=r"unknown rubric 'no-such-rubric'; bundled: reference-free"):
        load_rubric("no-such-rubric")


# ---- groundjudge rubric list / check -------------------------------------------------------


def test_cli_list_shows_the_bundled_rubrics():
    result = run("list")
    assert result.exit_code == 0, result.output
    assert "reference-free" in result.output and "4 dimensions, 100" in result.output
    assert "criteria-example" in result.output and "3 items, 9 criteria" in result.output


def test_cli_check_shows_dimensions_and_bands(tmp_path):
    result = run("check", str(write(tmp_path, LIKERT)))
    assert result.exit_code == 0, result.output
    assert "likert v2: 15 points" in result.output
    assert "1-2, 3-3, 4-5" in result.output and "0-5, 6-10" in result.output
    assert "sha256 " + load_rubric(tmp_path / "custom.toml").sha256 in result.output


def test_cli_check_shows_criterion_items():
    result = run("check", "criteria-example")
    assert result.exit_code == 0, result.output
    # raise-overtime-rate: 2 requirements, 1 conditional, 2 guardrails, 2 of them P0
    assert "raise-overtime-rate" in result.output
    row = next(line for line in result.output.splitlines() if "raise-overtime-rate" in line)
    assert [cell.strip() for cell in row.strip("│ ").split("│")] == ["raise-overtime-rate", "yes", "2", "1", "2", "2"]


def test_cli_check_of_a_bad_rubric_is_one_line_and_exit_2(tmp_path):
    path = write(tmp_path, LIKERT.replace("max = 10\n", "max = 0\n"))
    result = run("check", str(path))
    assert result.exit_code == 2
    assert result.stderr.strip().splitlines() == [
        f"error: {path}: invalid rubric: dimensions['correct_flow']: max must be positive, got 0"
    ]
    no_kind = write(tmp_path, LIKERT.replace('kind = "dimensions"\n', ""), "nokind.toml")
    result = run("check", str(no_kind))
    assert result.exit_code == 2 and 'kind must be "dimensions" or "criteria"' in result.stderr
