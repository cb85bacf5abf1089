"""Issue E round 17 (from held-out set 26's first run): a COBOL data item right before a verb is what a
statement acts on, never who acts; "`A` sets ... and `B` sets ..." gives B a clause of its own; names that
differ only in case are two names outside COBOL (Go's `Sprintln` and its helper `sprintln`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import extract_refs
from groundjudge.grounding.models import Verdict

S, U = Verdict.SUPPORTED, Verdict.UNSUPPORTED

# fixed format: the code starts in column 8
TALK = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. TALK.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-IN                PIC X(80).
       01  WS-LC                PIC X(80).
       01  WS-LAST              PIC X(80).
       PROCEDURE DIVISION.
       0000-MAIN.
           ACCEPT WS-IN
           MOVE FUNCTION LOWER-CASE(WS-IN) TO WS-LC
           MOVE WS-LC TO WS-LAST
           STOP RUN.
"""

COLOR = """\
package color

import "fmt"

type Color struct {
	params  []int
	noColor *bool
}

func boolPtr(v bool) *bool {
	return &v
}

func (c *Color) DisableColor() {
	c.noColor = boolPtr(true)
}

func (c *Color) EnableColor() {
	c.noColor = boolPtr(false)
}

func (c *Color) wrap(s string) string {
	return s
}

func (c *Color) Sprintln(a ...interface{}) string {
	return c.wrap(sprintln(a...)) + "\\n"
}

func (c *Color) Println(a ...interface{}) {
	fmt.Println(c.wrap(sprintln(a...)))
}

func sprintln(a ...interface{}) string {
	return fmt.Sprintln(a...)
}
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory):
    root: Path = tmp_path_factory.mktemp("round17")
    return fixture_grounder(root, {"talk.cbl": TALK, "color.go": COLOR})


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        # the data item before "copies" is what ACCEPT reads, not who copies
        ("`ACCEPT WS-IN` reads the line and `FUNCTION LOWER-CASE` copies it, lower-cased, into `WS-LC`.", S),
        ("`ACCEPT WS-IN` reads the line and `FUNCTION LOWER-CASE` copies it, lower-cased, into `WS-MIXED`.", U),
    ],
)
def test_a_data_item_before_the_verb_is_not_its_subject(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`DisableColor()` sets `c.noColor` to `boolPtr(true)` and `EnableColor()` sets it to `boolPtr(false)`.", S),
        # without a verb of its own, the second method is what the first one is said to use
        ("`DisableColor()` sets `c.noColor` to `boolPtr(true)` after checking `EnableColor()`.", U),
    ],
)
def test_a_name_a_verb_follows_opens_its_own_clause(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


def test_names_apart_by_case_stay_apart_outside_cobol():
    values = [r.value for r in extract_refs("`Println` and `Sprintln` go through the helper `sprintln`.")]
    assert values == ["Println", "Sprintln", "sprintln"]
    # COBOL names are one name in any case
    assert [r.value for r in extract_refs("`WS-LC` is set from `ws-lc`.")] == ["WS-LC"]


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`Println` and `Sprintln` go through the helper `sprintln`, which calls `fmt.Sprintln`.", S),
        ("`Println` and `Sprintln` go through the helper `sprintln`, which calls `fmt.Sprintf`.", U),
    ],
)
def test_the_relative_clause_belongs_to_the_helper_of_that_case(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)
