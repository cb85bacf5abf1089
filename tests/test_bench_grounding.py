"""The grounding bench's matching and scoring (bench/bench_grounding.py) on a small hand-worked example."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from groundjudge.grounding.models import Verdict as V

_PATH = Path(__file__).resolve().parent.parent / "bench" / "bench_grounding.py"
_spec = importlib.util.spec_from_file_location("bench_grounding", _PATH)
bench = importlib.util.module_from_spec(_spec)
sys.modules[_spec.name] = bench  # dataclasses look their module up by name
_spec.loader.exec_module(bench)


@pytest.mark.parametrize(
    ("verdicts", "expected"),
    [
        ([V.SUPPORTED], V.SUPPORTED),
        ([V.SUPPORTED, V.SUPPORTED], V.SUPPORTED),
        ([V.SUPPORTED, V.UNSUPPORTED], V.UNSUPPORTED),
        ([V.PARTIALLY_SUPPORTED, V.UNSUPPORTED, V.SUPPORTED], V.UNSUPPORTED),
        ([V.SUPPORTED, V.PARTIALLY_SUPPORTED], V.PARTIALLY_SUPPORTED),
        ([V.SUPPORTED, V.UNABLE_TO_VERIFY], V.PARTIALLY_SUPPORTED),
        ([V.UNABLE_TO_VERIFY, V.UNABLE_TO_VERIFY], V.UNABLE_TO_VERIFY),
        ([V.UNABLE_TO_VERIFY, V.PARTIALLY_SUPPORTED], V.PARTIALLY_SUPPORTED),
    ],
)
def test_combine_is_precision_first(verdicts, expected):
    assert bench.combine(verdicts) is expected


def test_combine_refuses_nothing():
    with pytest.raises(ValueError):
        bench.combine([])


def _example():
    """Five units in one answer, and what a grounder made of them:
    line 3: one claim, SUPPORTED            (expected SUPPORTED: agrees)
    line 5: split in two, SUP + UNSUP       (expected PARTIALLY_SUPPORTED, combined UNSUPPORTED)
    line 7: two sentences on one line; the claim sharing words with each goes to it
            "Foo calls Bar." -> SUPPORTED    (expected UNSUPPORTED: a false SUPPORTED)
            "It is elegant." -> UTV          (expected UNABLE_TO_VERIFY: agrees)
    line 9: no claim                        (expected UNSUPPORTED: not extracted)
    and a claim on line 1, above every unit (unowned)."""
    units = [
        bench.Unit("a.md", 3, "`X` is at x.py:1-4.", V.SUPPORTED, "true"),
        bench.Unit("a.md", 5, "`Y` holds 3; `Z` holds 4.", V.PARTIALLY_SUPPORTED, "partial"),
        bench.Unit("a.md", 7, "Foo calls Bar.", V.UNSUPPORTED, "wrong-relation"),
        bench.Unit("a.md", 7, "It is elegant.", V.UNABLE_TO_VERIFY, "opinion"),
        bench.Unit("a.md", 9, "`Ghost` does it.", V.UNSUPPORTED, "fabricated-name"),
    ]
    claims = [
        bench.Produced("a.md", 1, "Intro.", V.UNABLE_TO_VERIFY),
        bench.Produced("a.md", 3, "`X` is at x.py:1-4.", V.SUPPORTED),
        bench.Produced("a.md", 5, "`Y` holds 3;", V.SUPPORTED),
        bench.Produced("a.md", 6, "`Z` holds 4.", V.UNSUPPORTED),
        bench.Produced("a.md", 7, "It is elegant.", V.UNABLE_TO_VERIFY),
        bench.Produced("a.md", 7, "Foo calls Bar.", V.SUPPORTED),
        bench.Produced("b.md", 3, "Another answer, no labels.", V.SUPPORTED),
    ]
    return units, claims


def test_assign_by_line_span_and_shared_words():
    units, claims = _example()
    outcomes, stray = bench.assign(units, claims)
    assert [len(o.claims) for o in outcomes] == [1, 2, 1, 1, 0]
    assert [o.predicted for o in outcomes] == [V.SUPPORTED, V.UNSUPPORTED, V.SUPPORTED, V.UNABLE_TO_VERIFY, None]
    assert [c.text for c in stray] == ["Intro.", "Another answer, no labels."]


def test_score_confusion_precision_recall():
    units, claims = _example()
    s = bench.score(bench.assign(units, claims)[0])
    assert (s.units, s.extracted, s.agree) == (5, 4, 2)
    assert s.agreement == pytest.approx(0.5)
    assert s.confusion[V.SUPPORTED] == {V.SUPPORTED: 1}
    assert s.confusion[V.PARTIALLY_SUPPORTED] == {V.UNSUPPORTED: 1}
    assert s.confusion[V.UNSUPPORTED] == {V.SUPPORTED: 1, bench.NOT_EXTRACTED: 1}
    assert s.confusion[V.UNABLE_TO_VERIFY] == {V.UNABLE_TO_VERIFY: 1}
    # SUPPORTED said twice, right once; meant once (extracted), found once
    assert s.precision[V.SUPPORTED] == pytest.approx(0.5)
    assert s.recall[V.SUPPORTED] == pytest.approx(1.0)
    # UNSUPPORTED said once (wrongly); meant once among the extracted units, never found
    assert s.precision[V.UNSUPPORTED] == pytest.approx(0.0)
    assert s.recall[V.UNSUPPORTED] == pytest.approx(0.0)
    # PARTIALLY_SUPPORTED never said: no precision to give
    assert s.precision[V.PARTIALLY_SUPPORTED] is None
    assert s.recall[V.PARTIALLY_SUPPORTED] == pytest.approx(0.0)
    assert [o.unit.text for o in s.false_supported] == ["Foo calls Bar."]
    assert s.per_kind["fabricated-name"] == {bench.NOT_EXTRACTED: 1}
    assert s.per_kind["wrong-relation"] == {V.SUPPORTED: 1}


def test_nothing_extracted_has_no_agreement():
    s = bench.score([bench.Outcome(bench.Unit("a.md", 1, "x", V.SUPPORTED, "true"))])
    assert s.agreement is None
    assert s.precision[V.SUPPORTED] is None and s.recall[V.SUPPORTED] is None


def test_every_label_file_of_the_set_reads():
    """The committed labels parse, point into their answers, and quote the line they label."""
    sys.path.insert(0, str(bench.SET_DIR))
    from labels import read_labels

    sources = bench.load_sources()
    assert len(sources) >= 3
    for src in sources:
        for label in read_labels(src.folder / "labels.jsonl"):
            lines = (src.folder / "answers" / label.answer).read_text(encoding="utf-8").splitlines()
            assert lines[label.line - 1].strip() == label.text, (src.name, label.answer, label.line)


def test_fetch_commands_quote_a_snapshot_directory_with_spaces():
    src = bench.Source(
        name="assurance", folder=Path("."), repository="o/r", commit="c0ffee", snapshot_dir="Plan COBOL 30 jours/SYSTEM"
    )
    archive = src.fetch_commands(Path("/tmp/corpora/assurance"))[-1]
    assert archive == (
        "git -C /tmp/groundjudge-bench-clones/assurance archive c0ffee 'Plan COBOL 30 jours/SYSTEM'"
        " | tar x -C /tmp/corpora/assurance --strip-components=2"
    )
