"""Issue E round 14 (true claims of held-out sets 15-22 that came out UNSUPPORTED): names and text the code
holds in another shape than the claim writes them. Numbered items named by their stem ("the four
`WRK-PAY-RATE` fields") or with `n` for the number (`COMPUTE EOL-HOURSn ...`); a message split into literals
on consecutive lines; a name the claim says a comment holds; a Go package's member (`csv.Writer`); an escape
sequence (`\\xHH`) and a number in exponent form given as an example. Each beside the made-up case that must
stay UNSUPPORTED."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import extract_refs
from groundjudge.grounding.models import Verdict

S, P, U = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED

PRICER = """\
000100 IDENTIFICATION DIVISION.
000200 PROGRAM-ID.           HOSYY210.
000300 DATA DIVISION.
000400 WORKING-STORAGE SECTION.
000500 01  WRK-PAY-RATE1         PIC 9(04)V99.
000600 01  WRK-PAY-RATE2         PIC 9(04)V99.
000700 01  WRK-PAY-RATE3         PIC 9(04)V99.
000800 01  WS-HOURS.
000900     05  EOL-HOURS1        PIC 9(02)V99.
001000     05  EOL-HOURS2        PIC 9(02)V99.
001100     05  EOL-UNITS1        PIC 9(03).
001200     05  EOL-UNITS2        PIC 9(03).
001300 01  WS-MSG                PIC X(60).
001400 PROCEDURE DIVISION.
001500 1000-EOL.
001600     COMPUTE EOL-HOURS1 ROUNDED = (EOL-UNITS1 / 4).
001700     COMPUTE EOL-HOURS2 ROUNDED = (EOL-UNITS2 / 4).
001800 2000-MESSAGE.
001900     MOVE "The claim record is out of date, " &
002000          "please price it again."
002100       TO WS-MSG.
"""

CONTEXT_RS = """\
pub fn context<C>(self, context: C) -> Result<T, Error> {
    // Not using map_err to save 2 useless frames off the captured backtrace
    match self {
        Ok(ok) => Ok(ok),
        Err(error) => Err(error.ext_context(context)),
    }
}
"""

SLICE_GO = """\
package pflag

import (
	"bytes"
	"encoding/csv"
)

func writeAsCSV(vals []string) (string, error) {
	b := &bytes.Buffer{}
	w := csv.NewWriter(b)
	err := w.Write(vals)
	return b.String(), err
}
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round14")
    return fixture_grounder(root, {"Cobol/HOSYY210": PRICER, "src/context.rs": CONTEXT_RS, "string_slice.go": SLICE_GO})


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("`HOSYY210` declares the three `WRK-PAY-RATE` fields at the top of working storage.", S, None),
        ("`HOSYY210` declares the three `WRK-PAY-RATX` fields.", U, "WRK-PAY-RATX appears nowhere in the snapshot"),
        # one item is no family: a stem must be shared
        ("`HOSYY210` declares the `WS-HOUR` fields.", U, "WS-HOUR appears nowhere in the snapshot"),
        ("`1000-EOL` converts units to hours with `COMPUTE EOL-HOURSn ROUNDED = (EOL-UNITSn / 4)`.", S, None),
        ("`1000-EOL` converts units to hours with `COMPUTE EOL-HOURSn ROUNDED = (EOL-UNITSn / 8)`.", U, None),
        ("`EOL-HOURSn` holds the hours of each day.", S, None),
    ],
)
def test_numbered_items(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        (
            '`2000-MESSAGE` moves "The claim record is out of date, please price it again." to `WS-MSG`'
            " (`Cobol/HOSYY210:18-21`).",
            S,
            None,
        ),
        (
            '`2000-MESSAGE` moves "The claim record is out of date, please call the office." to `WS-MSG`'
            " (`Cobol/HOSYY210:18-21`).",
            U,
            "'The claim record is out of date, please call the office.' does not appear",
        ),
    ],
)
def test_a_message_split_into_literals(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        (
            "`context` matches on `self` instead of calling `map_err`, as the source comment explains (`src/context.rs:1-7`).",
            S,
            None,
        ),
        # said to be code, a name only a comment holds is still not the code's
        ("`context` calls `map_err` on `self` (`src/context.rs:1-7`).", U, "map_err appears only in prose or comments"),
    ],
)
def test_a_name_the_claim_puts_in_a_comment(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


def test_a_member_of_an_imported_go_package_is_another_librarys(grounder):
    expect_verdict(grounder, "`writeAsCSV` trims the trailing newline that `csv.Writer` writes (`string_slice.go:8-13`).", S)


def test_escape_sequences_and_exponents_are_no_names():
    refs = extract_refs(r"Inside double quotes, `\xHH` is decoded; a size such as `1e6` is in bytes.")
    assert [(r.kind, r.value) for r in refs] == [("value", "1e6")]


ARRAY_GO = """\
package pflag

type stringSliceValue struct {
	value *[]string
}

type stringArrayValue struct {
	value *[]string
}

func (s *stringSliceValue) Replace(val []string) error {
	*s.value = val
	return nil
}

func (s *stringArrayValue) Replace(val []string) error {
	out := make([]string, len(val))
	copy(out, val)
	*s.value = out
	return nil
}
"""


def test_a_table_cells_verb_acts_on_nothing_in_the_next_cell(tmp_path):
    grounder = fixture_grounder(tmp_path, {"slices.go": ARRAY_GO})
    row = "`Replace(vals)` | `stringSliceValue`: stores the given slice itself | `stringArrayValue`: copies it into a new slice first"
    claim = grounder.one(f"| Method | Slice | Array |\n|---|---|---|\n| {row} |")
    assert [(f.predicate.value, f.subject and f.subject.value, f.object) for f in claim.facts] == [
        ("writes", "stringSliceValue", None),
        ("copies", "stringArrayValue", None),
    ]
    assert "never names stringArrayValue" not in claim.reason
    assert claim.verdict != Verdict.UNSUPPORTED, claim.reason
