"""Issue E round 32: a hyphen joins a name's words in COBOL, JCL, BMS and prose, but in code it is also an
operator. Go's `for i := 0; i < c.si-1; i++` names `c.si` (it was "c.si appears nowhere in the snapshot"), while
a string's `Access-Control-Allow-Origin` or a comment's `R3100-00-PROCESSA` does not name `Origin` or `R3100`. And a
quoted message whose "..." stands for a value joined between literals on the statement's next line ("wildcard
segment ... conflicts with existing children" of `"wildcard segment '" + wildcard +` then `"' conflicts ..."`) is
what that statement renders (it was "does not appear ... anywhere else in the snapshot")."""

from __future__ import annotations

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.claims import relation_cues
from groundjudge.grounding.lookup import Lookup, word_pattern
from groundjudge.grounding.models import Verdict


@pytest.mark.parametrize(
    ("name", "line", "hyphen", "found"),
    [
        ("si", "for i := 0; i < c.si-1; i++ {", False, True),
        ("n", "return a[n-1]", False, True),
        ("offset", "x = -offset", False, True),
        ("verbose", 'parser.add_argument("--verbose")', False, True),
        ("n", "a[n-1x]", False, False),  # a hyphen and a number that go on are part of a word
        ("Origin", 'h = "Access-Control-Allow-Origin"', False, False),
        ("R3100", "// see R3100-00-PROCESSA in the COBOL source", False, False),
        ("dry", 'parser.add_argument("--dry-run")', False, False),
        ("alpha", 'v := "1.0.0-alpha"', False, False),
        ("SI", "05 SI-1 PIC X.", True, False),  # COBOL: SI-1 is one name
        ("ACCT", "MOVE ACCT-ID TO X", True, False),
    ],
)
def test_a_hyphen_ends_a_name_in_code_only_as_an_operator(name, line, hyphen, found):
    assert (word_pattern(name, hyphen).search(line) is not None) is found


@pytest.fixture(scope="module")
def files():
    return {
        "constraint.go": (
            "package version\n\n"
            "type Constraint struct {\n\tsi int\n}\n\n"
            "func (c *Constraint) pessimistic(v []int, s []int) bool {\n"
            "\tfor i := 0; i < c.si-1; i++ {\n\t\tif v[i] != s[i] {\n\t\t\treturn false\n\t\t}\n\t}\n\treturn true\n}\n"
        ),
        "tree.go": (
            "package router\n\nfunc insert(n *node, wildcard, fullPath string) {\n\tif len(n.children) > 0 {\n"
            '\t\tpanic("wildcard segment \'" + wildcard +\n'
            '\t\t\t"\' conflicts with existing children in path \'" + fullPath + "\'")\n\t}\n}\n'
        ),
        "PROG.cbl": "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. PROG.\n       DATA DIVISION.\n"
        "       WORKING-STORAGE SECTION.\n       01  CNT-1 PIC X.\n       PROCEDURE DIVISION.\n"
        "           MOVE 'A' TO CNT-1.\n           GOBACK.\n",
    }


@pytest.fixture(scope="module")
def grounder(tmp_path_factory: pytest.TempPathFactory, files):
    return fixture_grounder(tmp_path_factory.mktemp("round32"), files)


def test_mentions_follow_the_files_language(grounder):
    lookup = Lookup(grounder.index)
    assert lookup.mentions("constraint.go", "si", 8, 8) == [8]
    assert lookup.mentions("PROG.cbl", "CNT", 1, 8) == []


@pytest.mark.parametrize(
    ("md", "verdict", "reason"),
    [
        ("The loop `for i := 0; i < c.si-1; i++` in `pessimistic` reads `c.si` (`constraint.go:8`).", Verdict.SUPPORTED, None),
        ("`PROG` moves `'A'` to `CNT` (`PROG.cbl:7`).", Verdict.UNSUPPORTED, "CNT appears nowhere"),
        (
            '`insert` panics with "wildcard segment ... conflicts with existing children" (`tree.go:4-7`).',
            Verdict.SUPPORTED,
            None,
        ),
        (
            '`insert` panics with "wildcard segment ... replaces the existing children" (`tree.go:4-7`).',
            Verdict.UNSUPPORTED,
            "'wildcard segment ... replaces the existing children' does not appear",
        ),
    ],
)
def test_a_name_before_a_minus_is_found_in_code(grounder, md, verdict, reason):
    expect_verdict(grounder, md, verdict, reason)


@pytest.mark.parametrize(
    ("text", "cues"),
    [
        # an opinion's "the right call" is a noun with a judgement: no call for the checks to find
        ("Moving the rates into `HOSPRATE` was the right call: an update touches only the copybook.", []),
        ("Rejecting folded headers by default is the best call.", []),
        # an adjective of order is not one: "the first `X` call" may be the code span calling
        ("The first `Open` call, like the second, calls `Check`.", ["call", "calls"]),
        ("`P` calls `Q`.", ["calls"]),
    ],
)
def test_a_judgement_before_a_noun_is_no_relation(text, cues):
    assert [text[c.start : c.end] for c in relation_cues(text)] == cues
