"""Issue E round 21 (from held-out sets 15 to 30): notations that name nothing in the code (a date picture,
`YYYY-MM-DD`, or `YYYYMMDD` without separators, added after set 36; a terminal escape sequence, `ESC[0m`; a
number's base prefix, `0x`, added after set 32) are no names, and a command line in backticks (`cobc -x -free cgiform.cob -o cgiform.exe`) is no file: its file
arguments are cited, its program and options are not checked. A made-up file in a command line still is."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import extract_refs
from groundjudge.grounding.models import Verdict

S, U = Verdict.SUPPORTED, Verdict.UNSUPPORTED

STAMP = """\
import time


def stamp(t):
    return time.strftime("%Y-%m-%d", t)


def reset(out):
    out.write("\\x1b[0m")
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round21"), {"stamp.py": STAMP})


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`stamp` formats the time as `YYYY-MM-DD` with `time.strftime`.", S),
        ("`stamp` formats the time as `YYYY-MM-DD` through `_format_date`.", U),
        ("`reset` writes `ESC[0m` to `out`.", S),
        ("`reset` writes `ESC[0m` through `reset_colours`.", U),
        ("`stamp.py` is run with `python -X dev stamp.py`.", S),
        ("`stamp.py` is run with `python -X dev stamp_all.py`.", U),
    ],
)
def test_notations_and_command_lines(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


@pytest.mark.parametrize(
    ("md", "refs"),
    [
        ("as `DD/Mon/YYYY:HH:MM:SS +0000`", []),
        ("`\\x1b[31m`", []),
        ("after a `0x` or `0o` prefix", []),
        # without separators (added after set 36)
        ("as `YYYYMMDD`, `CCYYMMDD`, `YYDDD` or `HHMMSS`", []),
        ("`cobc -x -W worldcities4.cbl commonroutines.cbl`", [("path", "worldcities4.cbl"), ("path", "commonroutines.cbl")]),
        # a statement with a minus is no command line, nor is an assignment
        ("`MOVE -1 TO WS-X`", [("value", "MOVE -1 TO WS-X"), ("identifier", "WS-X")]),
        ("`self.total = -1`", [("identifier", "self.total")]),
        # a date part alone may be a name
        ("`MM`", [("identifier", "MM")]),
    ],
)
def test_what_a_code_span_names(md, refs):
    assert [(r.kind, r.value) for r in extract_refs(md)] == refs
