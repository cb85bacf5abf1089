"""Shared plumbing of groundjudge/storage.py and errors.py: file modes, JSONL lines, error lines."""

from __future__ import annotations

import stat
import subprocess
import sys

import pytest
from pydantic import BaseModel, ValidationError

from groundjudge.errors import UserError, first_problem
from groundjudge.storage import atomic_write_text, jsonl_objects


def test_atomic_write_gives_the_umask_mode_not_owner_only(tmp_path):
    """mkstemp makes 0600 files; a written report must get 0666 minus the umask like any new file."""
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    atomic_write_text(tmp_path / "atomic.txt", "x")
    mode = stat.S_IMODE((tmp_path / "atomic.txt").stat().st_mode)
    assert mode == stat.S_IMODE(plain.stat().st_mode)
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_atomic_write_follows_the_umask_of_the_moment_and_never_sets_it(tmp_path):
    """Importing and writing leave the process-wide umask alone; a file gets the umask in force when written."""
    script = (
        "import os, stat, sys\n"
        "os.umask(0o077)\n"
        "def refuse(mask): raise AssertionError('umask set')\n"
        "os.umask = refuse\n"
        "from groundjudge.storage import atomic_write_text\n"
        "atomic_write_text(sys.argv[1], 'x')\n"
        "print(oct(stat.S_IMODE(os.stat(sys.argv[1]).st_mode)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script, str(tmp_path / "f.txt")], capture_output=True, text=True)
    assert (done.returncode, done.stdout.strip()) == (0, "0o600"), done.stderr


def test_jsonl_objects_numbers_lines_and_skips_blank_ones():
    text = '{"id": "a"}\n\n  \n{"id": "b"}\n'
    assert list(jsonl_objects(text, "q.jsonl")) == [(1, {"id": "a"}), (4, {"id": "b"})]


@pytest.mark.parametrize(
    "text, problem",
    [
        ('{"id": "a"}\n{oops\n', "q.jsonl: line 2: not JSON (Expecting property name enclosed in double quotes: column 2)"),
        ('{"id": "a"}\n\n["a", "b"]\n', "q.jsonl: line 3: expected a JSON object"),
    ],
)
def test_jsonl_objects_first_bad_line_is_one_user_error(text, problem):
    with pytest.raises(UserError) as err:
        list(jsonl_objects(text, "q.jsonl"))
    assert str(err.value) == problem


class _Point(BaseModel):
    x: int
    y: int


def test_first_problem_names_the_field_or_the_root():
    with pytest.raises(ValidationError) as err:
        _Point.model_validate({"x": 1, "y": "two"})
    assert first_problem(err.value) == "y: Input should be a valid integer, unable to parse string as an integer"
    with pytest.raises(ValidationError) as err:
        _Point.model_validate([1, 2])
    assert first_problem(err.value, root="<row>").startswith("<row>: Input should be a valid dictionary")
