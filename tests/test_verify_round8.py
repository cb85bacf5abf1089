"""Issue E round 8: whose verb it is and what a cite speaks for. A relative clause after an object says what
the object does, not what the verb acted on; a name after a preposition is where or with what the actor
acts, not the actor of the next verb in a list; a table's column header speaks of every row, not of the
row's cited lines; "may" in a rule of what is allowed is no hedge; a paragraph that sets a group's items
uses the group; free-format COBOL is read as such when its headers start before column 8, with no
directive (a compiler option chose it); a parameter's default quoted as `name=value` in a clause about
defaults, or as a signature with no receiver, is compared with the declaration; a quoted message may be
what a code template renders; a call through a variable is the method of the one type that defines it; an attribute of the
snapshot's own module must exist; a quoted call the code makes only as another function of the same
module is contradicted; quoted returned expressions whole; "runs after" is no call; lists after
"after"/"rather than"; prose capitals; spacing inside code; file names with spaces; name patterns; module
metadata (`__version__`) as constants; "default" governing only the items after it; entries of a code table; a sentence-end cite that misses the
code of the function the sentence is about; names said to be absent; a sentence-end cite held by a statement
or message quoted anywhere in the sentence; names whose first search page is all prose; unpacked call
arguments; a program's own lines; a paragraph's reads and writes through the paragraphs it performs; "copies ... to `F`" as a write; a row's values in a call laid out one argument a line, and a number alone in its
cell; quoted intrinsic function calls (`FUNCTION NUMVAL`), unless proposed ("would be clearer with"); quoted
signatures with parameters and defaults; prose words in another case; a value named by an appositive
("`X`, a constant of 500"). Each on a small fixture corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

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

# Free format chosen by the compiler's option (`cobc -free`), with no directive in the source
FREE = """\
*> --- Main-Save ---
IDENTIFICATION DIVISION.
PROGRAM-ID. Main-Save.
DATA DIVISION.
WORKING-STORAGE SECTION.
    01 BUFFER                   PIC X(255).
PROCEDURE DIVISION.
    MOVE "Saving world" TO BUFFER
    CALL "Helper-Save"
    GOBACK.

    IDENTIFICATION DIVISION.
    PROGRAM-ID. Helper-Save.
    PROCEDURE DIVISION.
        DISPLAY "saved"
        GOBACK.
    END PROGRAM Helper-Save.
END PROGRAM Main-Save.
"""

TIMES = """\
def naturaltime(value, future=False, months=True, when=None):
    return value


def bump_build(version, token="build"):
    return version


def check(unit):
    if unit != "seconds":
        raise ValueError(f"Minimum unit '{unit}' not supported")
    return "%d Byte" % 1


def caller(ctx):
    with ctx.scope(cleanup=False):
        return bump_build("1.0.0", "dev")
"""

COMMAND = """\
package demo

type Command struct{}

type Shell struct{}

func (c *Command) ExecuteC() error { return nil }

func (c *Command) Run() error { return nil }

func (s *Shell) Run() error { return nil }

func (c *Command) Execute() error {
\treturn c.ExecuteC()
}

func Start(x *Shell) error {
\treturn x.Run()
}
"""

WINTERM = """\
class WinTerm:
    def fore(self, color):
        return color
"""

ANSI = """\
import bisect

from .winterm import WinTerm

winterm = WinTerm()
powers = [10**3, 10**6]


def paint(value):
    winterm.fore(value)
    return bisect.bisect_right(powers, value)
"""

WRAP = """\
__version__ = "1.2.0"
ANSI = "ansi"
MODE = 'A  B'
STYLES = {
    "dim": (ANSI, MODE),
}


class Wrapper:
    def __init__(self, stream):
        self.stream = stream
        self.convert = False
        self.strip = False

    def should_wrap(self):
        return self.convert or self.strip


def wrap_stream(stream):
    wrapper = Wrapper(stream)
    if wrapper.should_wrap():
        stream = wrapper.stream
    return stream


def validate_timeout(options):
    return options


def validate_encoding(options):
    return options


def normalize(options):
    validate_timeout(options)
    validate_encoding(options)
    return options


def is_error(value):
    return hasattr(value, "marker")


def report(options):
    return normalize(options)
"""

RETRY = """\
class Version:
    def __init__(self, major, minor):
        self.major = major


def attempt(retry_state):
    return retry_state


def make(ver):
    return Version(**ver)


def cache(maxsize, ttl, timer=time.monotonic, getsizeof=None):
    return maxsize


DEFAULT_CACHE = cache(128, 600)
CI_NAMES = ["CIRCLECI", "TRAVIS"]
TTY = True
"""

READER = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCRD01.
       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT CONFIG-FILE ASSIGN TO CONFIG.
       DATA DIVISION.
       FILE SECTION.
       FD  CONFIG-FILE.
       01  CONFIG-REC            PIC X(80).
       PROCEDURE DIVISION.
       1000-LOAD.
           OPEN INPUT CONFIG-FILE
           PERFORM 2500-NEXT.
       2000-OTHER.
           DISPLAY 'X'.
       2500-NEXT.
           PERFORM 9100-READ-CONFIG.
       9100-READ-CONFIG.
           READ CONFIG-FILE
               AT END DISPLAY 'EOF'
           END-READ.
       3000-SAVE.
           PERFORM 9200-WRITE-CONFIG.
       9200-WRITE-CONFIG.
           WRITE CONFIG-REC.
"""

ISSUES = """\
class Detector {
  companion object {
    val ISSUE_LOG = Issue.create(
      id = "LogNotTimber",
      priority = 5,
      severity = WARNING
    )
  }
}
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory):
    return fixture_grounder(
        tmp_path_factory.mktemp("round8") / "abc",
        {
            "java/Setup.java": SETUP,
            "java/Config.java": CONFIG,
            "java/RunInfo.java": RUNINFO,
            "java/Replace.java": REPLACE,
            "cbl/ABCKD01.cbl": CHILD,
            "cbl/ABCST01.cbl": STAMP,
            "src/save.cob": FREE,
            "py/times.py": TIMES,
            "go/command.go": COMMAND,
            "term/winterm.py": WINTERM,
            "term/ansi.py": ANSI,
            "py/wrap.py": WRAP,
            "etc/VSAM FILES.jcl": "//JOB1 JOB\n",
            "py/retry.py": RETRY,
            "cbl/ABCRD01.cbl": READER,
            "kt/Detector.kt": ISSUES,
            # prose that sorts before the code and names a parameter on every line of the first search page
            "README.rst": "Pass ``retry_state`` on.\n" * 60,
        },
    )


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
    # free format without a directive: the programs, their data and their CALLs are read
    ('`Main-Save` moves `"Saving world"` to `BUFFER` and calls `Helper-Save` (`src/save.cob:7-10`).', S),
    ('`Main-Save` moves `"Saving world"` to `BUFFER` and calls `Helper-Load`.', U),
    ("`Helper-Save` is a program at `src/save.cob:13-18`.", S),
    # a default quoted as the declaration spells it, in a clause about defaults
    ("`naturaltime` defaults to `months=True`.", S),
    ("`naturaltime` defaults to `months=False`, so months must be switched on.", U),
    ("The defaults of `naturaltime` are `future=False` and `months=True`.", S),
    ("`naturaltime` accepts `months=False`.", S),
    # "a `token` that defaults to": a relative pronoun before the verb
    ('`bump_build` takes a `token` that defaults to `"dev"`.', U),
    ('`bump_build` takes a `token` that defaults to `"build"`.', S),
    # a quoted signature states the declared defaults; with a receiver it is a call
    ('`bump_build(token="build")` returns the version.', S),
    ('`bump_build(token="dev")` returns the version.', U),
    ("`caller` enters `ctx.scope(cleanup=True)`.", U),
    # a message quoted as a template renders it, with the writer's "..." for a value left out
    ("`check` raises `ValueError` with `\"Minimum unit 'minutes' not supported\"`.", S),
    ("`check` raises `ValueError` with `\"Minimum unit '...' not supported\"`.", S),
    ("`check` raises `ValueError` with `\"Maximum unit '...' is not allowed\"`.", U),
    ('`check` builds `"1 Byte"`.', S),
    # a call through a variable of any name is the method of the one type that has it
    ("`Command.ExecuteC` is called when a command runs.", S),
    ("`Command.Execute` calls `Command.ExecuteC`.", S),
    # an attribute of the snapshot's own module (or of a variable named after it) must exist
    ("`paint` changes the icon through `winterm.set_icon`.", U),
    ("`paint` colours through `winterm.fore`.", S),
    # a quoted call of an outside module the code never makes, where it calls another of its functions
    ("`paint` finds the power with `bisect.bisect_left(powers, value)`.", U),
    ("`paint` finds the power with `bisect.bisect_right(powers, value)`.", S),
    # a quoted returned expression is compared whole; ".attr" is an attribute returned or a name of it
    ("`Wrapper.should_wrap` returns `self.convert or self.strip`.", S),
    ("`wrap_stream` returns the wrapper's `.stream`.", S),
    # "runs right after": it is run, it runs nothing; a list after such a word, or after a negation
    ("`validate_encoding` runs right after `validate_timeout` (`py/wrap.py:35-38`).", S),
    ("`Wrapper.should_wrap` is consulted after `validate_timeout`, `validate_encoding` and `normalize`.", S),
    ("`is_error` checks a marker rather than calling `validate_encoding`.", S),
    # a capitalised prose word is no name the subject must use
    ("`wrap_stream` wraps the stream as ANSI expects.", S),
    # spacing inside code is the code's; a file name with spaces; a pattern for names
    ("`MODE` is `'A  B'`.", S),
    ("`MODE` is `'A  C'`.", U),
    ("`VSAM FILES.jcl` holds the job.", S),
    ("The `validate_*` functions return their options.", N),
    # module metadata is a constant; where it is set may stand between the name and its value
    ('`__version__` set in `py/wrap.py` is `"1.2.0"`.', S),
    ('`__version__` set in `py/wrap.py` is `"1.3.0"`.', U),
    # "default" governs the quoted items right after it, not a later clause's
    ("`naturaltime` defaults to `months=False` unless you pass `months=True`.", U),
    # a cite ending a sentence about a function of the cited file must reach its code; a mention elsewhere is
    # not enough (a definition there would be: the cite is then that name's)
    ("`report` returns the `options` (`py/wrap.py:44-45`).", S),
    ("`report` returns the `options` (`py/wrap.py:35`).", P),
    # names said to be absent are not looked for at the cited lines; a cite that ends the sentence is
    # held by a statement the sentence quotes in any clause
    (
        "## `ABCKD01`\n\nIt puts the message with `EXEC CICS PUT CONTAINER(OUTCONT) FROM(WS-MSG)` and neither `MSG-HOUR`"
        " nor `MSG-MIN`, so the parent gets only the text (`cbl/ABCKD01.cbl:10-11`).",
        S,
    ),
    # a name whose first page of full-text hits is all prose is looked for in the code too
    ("`attempt` takes `retry_state` and returns it.", S),
    # a call that unpacks its arguments may pass the quoted ones
    ("`make` builds `Version(major=1, minor=2)`.", S),
    # a description of a program citing its own lines; a reserved word in capitals is no name to place
    ("`ABCKD01` is a child program that ends with a `RETURN` (`cbl/ABCKD01.cbl:1-2`).", S),
    # a quoted signature: bare names are parameters, `p=v` declared defaults (the code's calls pass others)
    ("`cache(maxsize, ttl, timer=time.monotonic)` builds a cache.", S),
    ("`cache(maxsize, ttl, timer=time.time)` builds a cache.", U),
    # a prose word written in its own case is no made-up name; nor need cited lines spell it
    ("Under CI, CircleCI and Travis are recognised through `CI_NAMES`.", S),
    ("`make` unpacks the arguments, for a TTY too (`py/retry.py:10-11`).", S),
    # an appositive naming a constant's value; a number ending a clause keeps its comma out
    ('`__version__` is `"1.2.0"`, and `DEFAULT_CACHE`, a cache with a default of 128, is built once.', N),  # computed
    ("`MODE`, a constant of 7, is unused.", U),
    # a paragraph reads a file through the paragraphs it performs
    ("`2500-NEXT` reads `CONFIG-FILE`.", S),
    ("`2000-OTHER` reads `CONFIG-FILE`.", U),
    # a quoted intrinsic function call is a statement the code must hold; a proposed one is not claimed there
    ("`ABCST01` stamps the time from `FUNCTION CURRENT-DATE(9:2)`.", S),
    ("`ABCST01` converts the hour with `FUNCTION NUMVAL`.", U),
    ("`ABCST01` would be clearer with `FUNCTION NUMVAL`.", N),
    # a quoted statement absent from the claim's files and from every other file is made up, not misplaced
    ("`1000-STAMP` displays `STATUS-MSG` after `FUNCTION NUMVAL(MSG-HOUR)` (`cbl/ABCST01.cbl:12-15`).", U),
    ("`1000-STAMP` displays `STATUS-MSG` after `FUNCTION CURRENT-DATE(9:2)` (`cbl/ABCST01.cbl:12-15`).", S),
    # "copies ... to `F`": where the copy goes is written, no copybook
    ("`3000-SAVE` copies the record to `CONFIG-FILE`.", S),
    ("`2000-OTHER` copies the record to `CONFIG-FILE`.", U),
    # an entry of a table in the code
    ('`"dim"` is mapped to `(ANSI, MODE)`.', S),
    ('`"dim"` is mapped to `(MODE, ANSI)`.', U),  # a pattern alone names nothing to check
]


@pytest.mark.parametrize(("md", "verdict"), CASES)
def test_round8_checks(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


def test_a_column_headers_names_are_not_placed_at_each_rows_lines(grounder):
    rows = "| Program | Delay | Message put in `OUTCONT` | Lines |\n|---|---|---|---|\n"
    rows += "| `ABCKD01` | 2 seconds | `'child finished'` | `cbl/ABCKD01.cbl:8-9` |\n"
    # the row's own names must still be at its lines
    rows += "| `WS-MSG` | 2 seconds | `'child finished'` | `cbl/ABCKD01.cbl:12` |\n"
    assert [c.verdict for c in grounder.claims(rows)] == [S, P]


@pytest.mark.parametrize(
    ("text", "free"),
    [
        (FREE, True),
        (STAMP, False),
        # sequence numbers in columns 1-6 are fixed format
        ("000100 IDENTIFICATION DIVISION.\n000200 PROGRAM-ID. ABC.\n", False),
        ("  PROGRAM-ID. ABC.\n", True),
    ],
)
def test_free_format_from_where_the_headers_start(text, free):
    from groundjudge.grounding.index.cobol_source import is_free_format

    assert is_free_format(text) is free


def test_a_free_format_file_without_a_directive_is_indexed_as_programs(grounder):
    from groundjudge.grounding.index.model import RefKind, SymbolKind

    programs = grounder.index.definitions(kind=SymbolKind.PROGRAM, path="src/save.cob")
    main, helper = sorted(programs, key=lambda p: p.start_line)
    assert (main.name.upper(), helper.name.upper()) == ("MAIN-SAVE", "HELPER-SAVE")
    # the nested program lies inside the one that contains it
    assert main.start_line <= 3 and main.end_line >= 17 and (helper.start_line, helper.end_line) == (13, 17)
    calls = grounder.index.references(kind=RefKind.CALL, path="src/save.cob")
    assert [(r.target.upper(), r.line) for r in calls] == [("HELPER-SAVE", 9)]


@pytest.mark.parametrize(
    ("template", "quoted", "rendered"),
    [
        ("%d Byte", "1 Byte", True),
        ("Minimum unit '{minimum_unit}' not supported", "Minimum unit '...' not supported", True),
        ("Run '%v --help' for usage.", "<path> --help", True),
        ("Hello ${name}!", "Hello world!", True),
        ("%d Bytes", "1 Byte", False),
        # placeholders with almost no text of their own render anything, so they say nothing
        ("%s %s", "3.00 MB", False),
        ("a moment", "a moment", False),  # no placeholder on either side: the plain search has it
    ],
)
def test_a_template_renders_a_quoted_message(template, quoted, rendered):
    from groundjudge.grounding.verify import renders

    assert renders(template, quoted) is rendered


def test_a_rows_cite_places_its_own_name_and_may_use_the_others(grounder):
    rows = "| Step | Item | Lines |\n|---|---|---|\n"
    rows += "| 1 | `WS-MSG` | `cbl/ABCKD01.cbl:9` |\n"  # the step's line uses the item
    rows += "| `WS-MSG` | the message | `cbl/ABCKD01.cbl:9` |\n"  # the item's own row: its definition is at line 6
    rows += "| `WS-MSG` | the message | `cbl/ABCKD01.cbl:6` |\n"
    assert [c.verdict for c in grounder.claims(rows)] == [S, P, S]


def test_a_rows_values_in_a_call_laid_out_one_argument_a_line(grounder):
    rows = "| Id | Constant | Severity | Priority |\n|---|---|---|---|\n"
    rows += "| `LogNotTimber` | `ISSUE_LOG` | `WARNING` | 5 |\n"
    rows += "| `LogNotTimber` | `ISSUE_LOG` | `WARNING` | 9 |\n"  # a number alone in its cell is the row's value
    assert [c.verdict for c in grounder.claims(rows)] == [S, U]
