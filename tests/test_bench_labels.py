"""The labellers' agreement (bench/bench_labels.py) on a hand-worked example, and the committed second
labellings against the first."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from groundjudge.errors import UserError

_BENCH = Path(__file__).resolve().parent.parent / "bench"
_spec = importlib.util.spec_from_file_location("bench_labels", _BENCH / "bench_labels.py")
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
sys.path.insert(0, str(_BENCH / "grounding_set"))
from labels import Label, read_labels  # noqa: E402


def _label(line: int, expected: str, text: str | None = None) -> Label:
    return Label(answer="q01.md", line=line, text=text or f"unit {line}", expected=expected, kind="true", justification="a.py:1")


def test_agreement_and_kappa_worked_by_hand():
    """First S S U P, second S S P P. Agreement 3/4. Shares: first P 1, S 2, U 1; second P 2, S 2, U 0;
    chance agreement (1*2 + 2*2 + 1*0) / 16 = 0.375; kappa (0.75 - 0.375) / (1 - 0.375) = 0.6."""
    first = [_label(1, "SUPPORTED"), _label(2, "SUPPORTED"), _label(3, "UNSUPPORTED"), _label(4, "PARTIALLY_SUPPORTED")]
    second = [_label(4, "PARTIALLY_SUPPORTED"), _label(3, "PARTIALLY_SUPPORTED"), _label(1, "SUPPORTED"), _label(2, "SUPPORTED")]
    n, agreement, kappa, differ = bench.summary(bench.paired(first, second, Path("labels_b.jsonl")))
    assert (n, agreement, differ) == (4, 0.75, {("UNSUPPORTED", "PARTIALLY_SUPPORTED"): 1})
    assert kappa == pytest.approx(0.6)


def test_the_two_labellings_must_label_the_same_units_quoted_alike():
    first = [_label(1, "SUPPORTED"), _label(2, "SUPPORTED")]
    with pytest.raises(UserError, match="same units"):
        bench.paired(first, first[:1], Path("labels_b.jsonl"))
    with pytest.raises(UserError, match=r"q01\.md:2 is quoted differently"):
        bench.paired(first, [first[0], _label(2, "SUPPORTED", "another text")], Path("labels_b.jsonl"))


def test_every_committed_second_labelling_pairs_with_the_first():
    seconds = sorted((_BENCH / "grounding_set").glob("*/labels_b.jsonl"))
    assert seconds
    for second in seconds:
        pairs = bench.paired(read_labels(second.parent / "labels.jsonl"), read_labels(second), second)
        assert len(pairs) == len(read_labels(second))


def test_the_script_prints_each_codebase_and_all_of_them():
    out = subprocess.run(
        [sys.executable, str(_BENCH / "bench_labels.py"), "--only", "blinker"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    # one codebase: its line and the overall line give the same figures
    assert out[0].startswith("blinker ") and out[1].startswith("all ")
    assert out[0].split(maxsplit=1)[1] == out[1].split(maxsplit=1)[1]
    assert out[2] == "units labelled differently (first -> second):"
