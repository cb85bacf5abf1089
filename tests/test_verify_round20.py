"""Issue E round 20 (from held-out set 29's first run): a name the claim says the code lacks ("without importing
`datetime`", "rather than from `NoneType`", "so no `ToTimeSliceE` is generated") is not made up for being found
nowhere; a name the claim says the code has still is."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

S, U = Verdict.SUPPORTED, Verdict.UNSUPPORTED

TYPES = """\
from functools import reduce


def _more_generic(a, b):
    return a if a is not bool else b


def column_type(types):
    return reduce(_more_generic, types, bool)
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    return fixture_grounder(tmp_path_factory.mktemp("round20"), {"types.py": TYPES})


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`column_type` folds with `reduce`, starting from `bool` rather than from `NoneType`.", S),
        ("`column_type` folds with `reduce`, starting from `NoneType`.", U),
        ("`column_type` folds with `reduce` and keeps no `_type_cache`.", S),
        ("`column_type` folds with `reduce` and keeps a `_type_cache`.", U),
    ],
)
def test_a_name_the_claim_says_is_absent(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)
