"""Issue E round 8: whose verb it is and what a cite speaks for. A relative clause after an object says what
the object does, not what the verb acted on; a name after a preposition is where or with what the actor
acts, not the actor of the next verb in a list; a table's column header speaks of every row, not of the
row's cited lines; "may" in a rule of what is allowed is no hedge; a paragraph that sets a group's items
uses the group. Each on a small fixture corpus."""

from __future__ import annotations

from pathlib import Path

import pytest

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

SETUP = """\
package demo;

public class Setup {
    public void loadSettings() {
        String where = Config.DEFAULT_PATH;
        Config.load();
    }

    public void prepare() {
        RunInfo.record(name);
        Replace.inspect(source);
    }
}
"""

CONFIG = """\
package demo;

public class Config {
    public static final String DEFAULT_PATH = "config.properties";

    public static void load() {
        read("config.properties");
    }
}
"""

RUNINFO = """\
package demo;

public class RunInfo {
    public static void record(String name) {
    }
}
"""

REPLACE = """\
package demo;

public class Replace {
    public static void inspect(String source) {
    }
}
"""

CHILD = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCKD01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  OUTCONT               PIC X(16) VALUE 'OUTCONT'.
       01  WS-MSG                PIC X(20).
       PROCEDURE DIVISION.
           EXEC CICS DELAY FOR SECONDS(2) END-EXEC.
           MOVE 'child finished' TO WS-MSG.
           EXEC CICS PUT CONTAINER(OUTCONT) FROM(WS-MSG)
           END-EXEC.
           EXEC CICS RETURN END-EXEC.
"""

STAMP = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCST01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  STATUS-MSG.
           02  MSG-TIME.
               03  MSG-HOUR      PIC 99.
               03  MSG-MIN       PIC 99.
           02  MSG-TEXT          PIC X(20).
       01  WS-OTHER              PIC X.
       PROCEDURE DIVISION.
       1000-STAMP.
           MOVE FUNCTION CURRENT-DATE(9:2) TO MSG-HOUR
           MOVE FUNCTION CURRENT-DATE(11:2) TO MSG-MIN
           DISPLAY STATUS-MSG.
       2000-OTHER.
           MOVE 'X' TO WS-OTHER.
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory):
    from _grounding_helpers import Grounder

    root: Path = tmp_path_factory.mktemp("round8") / "abc"
    for rel, text in {
        "java/Setup.java": SETUP,
        "java/Config.java": CONFIG,
        "java/RunInfo.java": RUNINFO,
        "java/Replace.java": REPLACE,
        "cbl/ABCKD01.cbl": CHILD,
        "cbl/ABCST01.cbl": STAMP,
    }.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return Grounder(root)


CASES = [
    # the relative clause's name is what the called method does, not a second thing loadSettings calls
    ("`Setup.loadSettings` calls `Config.load`, which loads `config.properties`.", S),
    # without the relative clause, every object after the verb is the verb's
    ("`Setup.loadSettings` calls `Config.load` and `Replace.inspect`.", P),
    # a name after a preposition is where the actor records, not the actor of "runs"
    ("`Setup.prepare` records the name in `RunInfo`, runs `Replace.inspect` on the source.", S),
    ("`Setup.prepare` records the name in `RunInfo`, runs `Config.load` on the source.", U),
    # "may" in a rule of what is allowed states a fact; as a hedge, a judgement
    ("A name passed to `RunInfo.record` may contain spaces.", S),
    ("`Replace.inspect` may also be `null`-safe.", S),
    ("`Replace.inspect` may fail on large sources.", N),
    # a paragraph that sets a group's items uses the group
    ("`1000-STAMP` stamps `MSG-TIME` from the clock and displays `STATUS-MSG`.", S),
    ("`2000-OTHER` stamps `MSG-TIME` from the clock.", U),
]


@pytest.mark.parametrize(("md", "verdict"), CASES)
def test_round8_checks(grounder, md, verdict):
    c = grounder.one(md)
    assert c.verdict == verdict, c.reason


def test_a_column_headers_names_are_not_placed_at_each_rows_lines(grounder):
    rows = "| Program | Delay | Message put in `OUTCONT` | Lines |\n|---|---|---|---|\n"
    rows += "| `ABCKD01` | 2 seconds | `'child finished'` | `cbl/ABCKD01.cbl:8-9` |\n"
    # the row's own names must still be at its lines
    rows += "| `WS-MSG` | 2 seconds | `'child finished'` | `cbl/ABCKD01.cbl:12` |\n"
    assert [c.verdict for c in grounder.claims(rows)] == [S, P]
