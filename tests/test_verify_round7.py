"""Issue E round 7: what a claim attaches to a relation that held must be where the relation holds: a
condition's values in the conditions governing the statement, a table row's values with the row's name,
an annotation on the class it is said to annotate, steps in the order stated; and a "catches" with no
function named, judged on the except blocks of the claim's files. Each on a small fixture corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict
from groundjudge.grounding.verify import governed_region

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

INQUIRY = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCIQ01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP               PIC S9(8) COMP.
       01  WS-CUSTNO             PIC 9(10).
       01  WS-FAIL-CD            PIC X.
       PROCEDURE DIVISION.
       0000-MAIN.
           IF WS-CUSTNO = 9999999999
              PERFORM 2000-LAST
           END-IF
           IF WS-RESP = DFHRESP(NOTFND) AND
              WS-CUSTNO = 0000000000
                PERFORM 3000-AGAIN
           ELSE
                PERFORM 4000-FOUND
           END-IF
           GOBACK.
       2000-LAST.
           MOVE '1' TO WS-FAIL-CD.
       3000-AGAIN.
           MOVE '2' TO WS-FAIL-CD.
       4000-FOUND.
           MOVE '0' TO WS-FAIL-CD.
"""

SHIM = """\
try:
    from ._speedups import escape
except ImportError:
    from ._native import escape
"""

VALIDATOR = """\
@Component
public class PetValidator {
    public boolean supports(Class<?> clazz) {
        return true;
    }
}
"""

OTHER = """\
@Controller
public class OwnerPage {
    public String show() {
        return "owner";
    }
}
"""

FILES = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCFL01.
       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT HOST001 ASSIGN TO 'HOST01.TXT'
               ORGANIZATION IS SEQUENTIAL.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-REQUEST-ID         PIC X(6).
       PROCEDURE DIVISION.
       0000-MAIN.
           EVALUATE WS-REQUEST-ID
               WHEN '01IEND'
                   DISPLAY 'ENDOWMENT'
               WHEN OTHER
                   DISPLAY 'OTHER'
           END-EVALUATE
           STOP RUN.
"""

INSERT = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCDB01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-ID                 PIC 9(10).
       01  WS-RC                 PIC XX.
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC SQL
               INSERT INTO CUSTOMER VALUES (:WS-ID)
           END-EXEC
           .
           IF SQLCODE NOT EQUAL 0
               MOVE '90' TO WS-RC
               GOBACK
           END-IF
           MOVE '98' TO WS-RC
           GOBACK.
"""

LABELS = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCUI01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WK-LABELS.
           05  WK-LBL-CODE       PIC X(10) VALUE 'CODE : '.
           05  WK-LBL-NAME       PIC X(10) VALUE 'NAME : '.
       01  WK-TITLE              PIC X(20) VALUE 'TITLE'.
       PROCEDURE DIVISION.
       1000-START.
           DISPLAY WK-TITLE.
       2000-LABELS.
           DISPLAY WK-LBL-CODE
           DISPLAY WK-LBL-NAME.
"""

FETCH = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCCH01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CHAN               PIC X(16).
       01  WS-TKN                PIC X(16).
       01  WS-STATUS             PIC S9(8) COMP.
       01  WS-TRAN               PIC X(4) VALUE 'PTNR'.
       PROCEDURE DIVISION.
       0000-MAIN.
           IF WS-STATUS = 0
           THEN
              MOVE WS-CHAN TO WS-TKN
           END-IF
           EXEC CICS FETCH CHANNEL(WS-CHAN)
                CHILD(WS-TKN)
                COMPSTATUS(WS-STATUS)
           END-EXEC
           EXEC CICS RETURN END-EXEC.
"""

TOKENS = """\
DEFAULT_SEP = " "


class DecodeError(Exception):
    pass


class ImmatureSignatureError(Exception):
    pass


class InvalidIssuedAtError(Exception):
    pass


def validate_nbf(payload, now, leeway):
    try:
        nbf = int(payload["nbf"])
    except ValueError:
        raise DecodeError("nbf must be an integer")
    if nbf > (now + leeway):
        raise ImmatureSignatureError("not yet valid")
"""

MARKERS = """\
def evaluate(environment=None, context="metadata"):
    # environment is ignored here
    return context
"""

VERSION = """\
import zlib
from difflib import get_close_matches


class InvalidVersion(ValueError):
    pass


def parse(version):
    msg = f"Invalid version: {version!r}"
    raise InvalidVersion(msg)


def pack(json):
    return zlib.compress(json)


_RANK_STABLE = 3
_SUFFIX = (_RANK_STABLE, 0)


def route(args):
    mode = "*" if args else None
    return mode


def fail_missing(ctx):
    ctx.fail(_("Missing command."))


def suggest(word, names):
    return get_close_matches(word, names)
"""

CLIENT = """\
import {EventEmitter} from 'eventemitter3';
export class Client extends EventEmitter {
\t#calculateDelay(attempt: number) {
\t\treturn attempt * 2;
\t}
}
"""

ESCAPE = """\
def escape_inner(s):
    s = s.replace("&", "&amp;")
    s = s.replace(">", "&gt;")
    s = s.replace("<", "&lt;")
    return s
"""

REDIRECT = """\
REDIRECTS = (codes.moved, codes.temporary_redirect)


def rebuild_method(method, status):
    if status == codes.see_other and method != "HEAD":
        method = "GET"
    if status == codes.moved and method == "POST":
        method = "GET"
    return method
"""

OPTIONS = """\
const retryAfterStatusCodes = [413, 429, 503];

const defaultOptions = {
\tlimit: 2,
\tafterStatusCodes: retryAfterStatusCodes,
\tretryOnTimeout: false,
\ttimeout: 10_000,
};

const maxBodySize = 10 * 1024 * 1024;
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory):
    return fixture_grounder(
        tmp_path_factory.mktemp("round7") / "abc",
        {
            "cbl/ABCIQ01.cbl": INQUIRY,
            "py/shim.py": SHIM,
            "java/PetValidator.java": VALIDATOR,
            "java/OwnerPage.java": OTHER,
            "ts/options.ts": OPTIONS,
            "py/escape.py": ESCAPE,
            "py/redirect.py": REDIRECT,
            "cbl/ABCFL01.cbl": FILES,
            "py/markers.py": MARKERS,
            "cbl/ABCDB01.cbl": INSERT,
            "cbl/ABCUI01.cbl": LABELS,
            "cbl/ABCCH01.cbl": FETCH,
            "py/tokens.py": TOKENS,
            "jwtlike/__init__.py": "from .exceptions import TokenError\n",
            "jwtlike/exceptions.py": "class TokenError(Exception):\n    pass\n",
            "ts/client.ts": CLIENT,
            "py/version.py": VERSION,
            "ts/timeout.ts": "export function timeout(ms: number) {\n\treturn ms;\n}\n",
        },
    )


CASES = [
    # a condition's value is in the test that governs the PERFORM, or the PERFORM does not happen as said
    ("## `ABCIQ01`\n\nFor customer number 9999999999 it performs `2000-LAST`.", S),
    ("## `ABCIQ01`\n\nFor customer number 9999999999 it performs `3000-AGAIN`.", U),
    # the same beside a clause that holds
    ("## `ABCIQ01`\n\nFor customer number 9999999999 it performs `3000-AGAIN`; `3000-AGAIN` moves `'2'` to `WS-FAIL-CD`.", P),
    ("## `ABCIQ01`\n\n`0000-MAIN` performs `3000-AGAIN` when `WS-RESP` is `NOTFND`.", S),
    ("## `ABCIQ01`\n\n`0000-MAIN` performs `2000-LAST` when `WS-RESP` is `NOTFND`.", P),
    # an ELSE branch is governed by the IF that heads it
    ("## `ABCIQ01`\n\n`0000-MAIN` performs `4000-FOUND` unless `WS-RESP` is `NOTFND`.", S),
    # "on `X`" opening the clause is a condition too
    ("## `ABCIQ01`\n\nOn `NOTFND` it performs `3000-AGAIN`.", S),
    ("## `ABCIQ01`\n\nOn `NOTFND` it performs `2000-LAST`.", U),
    # an annotation sits right above the class it annotates
    ("`PetValidator` is annotated with `@Component`.", S),
    ("`OwnerPage` is annotated with `@Component`.", U),
    # no function named: the except blocks of the claim's file
    ("## `py/shim.py`\n\nThe fallback catches `ImportError`.", S),
    ("## `py/shim.py`\n\nThe fallback catches `ModuleNotFoundError` only.", U),
    # advice to the reader states no fact of the code
    ("## `py/shim.py`\n\nCatch `ModuleNotFoundError` to fall back.", N),
    # a computed value quoted as the code spells it
    ("`maxBodySize` is `10 * 1024 * 1024`.", S),
    ("`maxBodySize`, the cap on a read, is 5 MiB (`5 * 1024 * 1024`).", U),
    # a file the program opens at run time is named by its code, not held by the snapshot
    ("`ABCFL01` assigns `HOST001` to `HOST01.TXT`.", S),
    ("`ABCFL01` assigns `HOST001` to `HOST09.TXT`.", U),
    # a verb of the language said to be absent is no made-up name
    ("`ABCFL01` declares its file but has no `READ` or `CLOSE`.", S),
    # a noun between the name and its verb
    ('The `context` parameter defaults to `"metadata"`.', S),
    ('The `context` parameter defaults to `"requirement"`.', U),
    # "forces X to V" sets X
    ("`3000-AGAIN` forces `WS-FAIL-CD` to `'2'`.", S),
    ("`3000-AGAIN` forces `WS-FAIL-CD` to `'7'`.", U),
    # a COBOL name's hyphens are no subtraction: no value is read into "is performed only when `WS-CUSTNO`"
    ("## `ABCIQ01`\n\n`2000-LAST` is performed only when `WS-CUSTNO` is 9999999999.", S),
    # a cited range that names a name only in a comment does not show the code using it
    ("The `environment` argument is passed on (`py/markers.py:2-2`).", P),
    # `#name` is a TypeScript private method, not a comment
    ("`#calculateDelay` doubles the attempt (`ts/client.ts:3-5`).", S),
    # hypotheticals and judgements of fitness or speed are opinions; a "fast path" is a name for code
    ("`parse` would be simpler with a regular expression.", N),
    ("Raising on every bad string is acceptable for a parser.", N),
    ("`pack` takes the fast path and calls `zlib.compress`.", S),
    # a private module constant, and a tuple stated through other constants
    ("`_RANK_STABLE` is `3`.", S),
    ("`_SUFFIX` = `(3, 0)`.", S),
    ("`_SUFFIX` = `(4, 0)`.", U),
    # "Like `P`, it ...": the other program is a comparison, not the place of the claim's names
    ("Like `ABCFL01`, `ABCIQ01` moves `'2'` into `WS-REQUEST-ID`.", U),
    ("Like `ABCFL01`, `ABCIQ01` moves `'2'` into `WS-FAIL-CD`.", S),
    # a cite right after a name inside the sentence places that name; one ending the sentence is the sentence's
    ("`3000-AGAIN` (`cbl/ABCIQ01.cbl:9-12`) moves `'2'` to `WS-FAIL-CD`.", P),
    ("`3000-AGAIN` (`cbl/ABCIQ01.cbl:22-23`) moves `'2'` to `WS-FAIL-CD`.", S),
    ("`0000-MAIN` performs `3000-AGAIN` (`cbl/ABCIQ01.cbl:9-19`).", S),
    # "A failed `X` sets ...": the quoted statement is the one the test governing the MOVE follows
    ("## `ABCDB01`\n\nA failed `INSERT INTO CUSTOMER` sets `WS-RC` to `'90'`.", S),
    ("## `ABCDB01`\n\nA failed `INSERT INTO CUSTOMER` sets `WS-RC` to `'98'`.", U),
    # "the labels of `G`": the paragraph names the group or an item inside it
    ("`2000-LABELS` displays the labels of `WK-LABELS`.", S),
    ("`1000-START` displays the labels of `WK-LABELS`.", U),
    # a quoted EXEC command matches its statement in any order of its options; `(...)` is any argument
    ("`ABCCH01` waits for its child with `EXEC CICS FETCH CHILD(WS-TKN)`.", S),
    ("`ABCCH01` waits for its child with `EXEC CICS FETCH CHILD(...) CHANNEL(WS-CHAN)`.", S),
    ("`ABCCH01` waits for its child with `EXEC CICS FETCH CHILD(WS-TKN) NOSUSPEND`.", U),
    # a package's name for a class its modules define; the language's own classes by their full name
    ("`jwtlike.TokenError` is a class.", S),
    ("`OwnerPage.show` returns a string, never a `java.lang.Exception`.", S),
    # a cite places the names of its own clause, not those a sentence passes on the way
    ("`rebuild_method` returns the method, which `escape_inner` never touches (`py/escape.py:1-5`).", S),
    # a quoted call with names for arguments: a signature or the caller's variables, not other values
    ("`pack` calls `zlib.compress(data)`.", S),
    # "such as `-5`": an example of an input, not a value of the code
    ("`parse` refuses input such as `-5`.", S),
    # a condition quoted as code is found with its names though the code parenthesises it
    ("`validate_nbf` raises `ImmatureSignatureError` when `nbf > now + leeway`.", S),
    # a clause whose actor is a variable: the sentence's function raises, or does not
    ("`validate_nbf` raises `ImmatureSignatureError` when `nbf` is late, and a non-integer `nbf` raises `DecodeError`.", S),
    (
        "`validate_nbf` raises `ImmatureSignatureError` when `nbf` is late, and a non-integer `nbf` raises `InvalidIssuedAtError`.",
        P,
    ),
    # judgements of difficulty, cost, realism and design
    ("`validate_nbf` is the hardest part of the module to reason about.", N),
    ("Checking `nbf` eagerly is the right design: a late token fails early.", N),
    ("Splitting `validate_nbf` out is a sound design.", N),
    # "right" as a side is no judgement
    ("`validate_nbf` compares `nbf` with the right operand `now + leeway`.", S),
    # a THEN on a line of its own belongs to the IF above it
    ("When `WS-STATUS` is 0, `ABCCH01` moves `WS-CHAN` to `WS-TKN`.", S),
    # a cited range that holds the quoted statement holds what the sentence says
    ("It starts the child `PTNR` with `EXEC CICS FETCH CHILD(WS-TKN)` (`cbl/ABCCH01.cbl:15-18`).", S),
    # "from `module`": where a name comes from, not what the class uses
    ("`Client` extends `EventEmitter` from `eventemitter3`.", S),
    # a message wrapped for translation; one branch of a conditional assignment; a from-import's module path
    ('`fail_missing` calls `ctx.fail("Missing command.")`.', S),
    ('`route` sets `mode` to `"*"`.', S),
    ("`suggest` finds the nearest names with `difflib.get_close_matches`.", S),
    # a purpose is intent, which no code shows
    ("`escape_inner` exists so that nothing is escaped twice.", N),
    # steps said to come in an order: the body's first lines naming them
    ("`escape_inner` replaces `&` before it replaces `<`.", S),
    ("`escape_inner` replaces `<` before it replaces `>`.", U),
    ("`escape_inner` replaces `>`, then `<`.", S),
    ("`escape_inner` replaces `<` after it replaces `&`.", S),
    ("`escape_inner` replaces `&` after it replaces `<`.", U),
    # a later verb's object is no step of the order word ("after decoding, returns `s`")
    ("`escape_inner` replaces `<` and, after escaping the rest, returns `s`.", S),
]


@pytest.mark.parametrize(("md", "verdict"), CASES)
def test_round7_checks(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


TABLE = (
    "| Option | Default | Where |\n|---|---|---|\n"
    "| `limit` | `2` | `ts/options.ts` |\n"
    "| `afterStatusCodes` | 413, 429 and 500 | `retryAfterStatusCodes` |\n"
    "| `afterStatusCodes` | 413, 429 and 503 | `retryAfterStatusCodes` |\n"
    "| `retryOnTimeout` | `true` | `defaultOptions` |\n"
    "| `retryOnTimeout` | `false` | `defaultOptions` |\n"
    # `timeout` is also a function elsewhere: the option's own statement holds its value
    "| `timeout` | `10_000` milliseconds | |\n"
    "| `timeout` | `30_000` milliseconds | |\n"
)


def test_a_rows_values_go_with_its_name(grounder):
    verdicts = [c.verdict for c in grounder.claims(TABLE)]
    assert verdicts == [S, U, S, U, S, S, U]


def test_a_rows_upper_case_words_are_values_too(grounder):
    rows = "| Status | Method before | Method after |\n|---|---|---|\n"
    rows += "| 301 `moved` | `POST` | `GET` |\n| 307 `temporary_redirect` | `POST` | `GET` |\n"
    assert [c.verdict for c in grounder.claims(rows)] == [S, U]


def test_a_rows_examples_and_a_row_keyed_by_a_value(grounder):
    rows = "| Name | Picture | Holds |\n|---|---|---|\n"
    # "such as" gives an example of what the item may hold, not a statement naming it
    rows += "| `WS-REQUEST-ID` | `X(6)` | an operation code such as `01IEND` |\n"
    # a row keyed by a value (a request id) names no statement that holds the other cells
    rows += "| `01IEND` | `ENDOWMENT` | the endowment request |\n"
    assert [c.verdict for c in grounder.claims(rows)] == [S, S]


def test_a_quoted_call_with_a_literal_where_the_code_passes_a_variable(grounder):
    # the message is built at run time: the call is neither confirmed nor contradicted by its argument
    c = grounder.one('`parse` raises `InvalidVersion("Invalid version: None")`.')
    assert c.verdict is not U and "never as" not in c.reason, c.reason
    # another number of arguments than the code passes is a different call (the call itself holds)
    c = grounder.one("`pack` calls `zlib.compress(json, 9)`.")
    assert c.verdict is P and c.reason.startswith("zlib.compress is called as zlib.compress(json)"), c.reason


def test_a_pic_column_without_the_keyword(grounder):
    rows = "| Item | Picture |\n|---|---|\n| `WS-CUSTNO` | `9(10)` |\n| `WS-CUSTNO` | `9(8)` |\n"
    first, second = grounder.claims(rows)
    assert first.verdict is S, first.reason
    assert second.verdict is P and second.reason.startswith("WS-CUSTNO has PIC 9(10)"), second.reason


def test_a_row_about_a_program_is_no_table_of_its_values(grounder):
    # what a row says of a program (a message it is paired with) may be held anywhere: no row contradiction
    row = grounder.claims("| Program | Message |\n|---|---|\n| `ABCIQ01` | `'ENDOWMENT'` |\n")[0]
    assert "no statement naming" not in row.reason, row.reason


def test_a_rows_string_value_is_a_quoted_literal(grounder):
    # `"="` is not the assignment's equals sign
    rows = '| Constant | Value |\n|---|---|\n| `DEFAULT_SEP` | `" "` |\n| `DEFAULT_SEP` | `"="` |\n'
    assert [c.verdict for c in grounder.claims(rows)] == [S, U]


def test_a_rows_missing_value_is_named(grounder):
    row = grounder.claims(TABLE)[1]
    assert row.reason.startswith("no statement naming afterStatusCodes holds 500"), row.reason


def test_the_condition_check_names_the_statement(grounder):
    c = grounder.one("## `ABCIQ01`\n\nFor customer number 9999999999 it performs `3000-AGAIN`.")
    assert c.reason.startswith("9999999999 not in the statement nor its conditions where"), c.reason
    assert c.evidence[0].path == "cbl/ABCIQ01.cbl" and (c.evidence[0].start_line, c.evidence[0].end_line) == (13, 15)


def test_governed_region_climbs_to_the_heading_test():
    lines = tuple(INQUIRY.splitlines())
    # PERFORM 3000-AGAIN (line 15) is governed by the IF on lines 13-14; the IF block before it (10-12) is a
    # sibling test, not what line 13 tests
    assert governed_region(lines, "cobol", 15, 9) == (13, 15)
    # PERFORM 4000-FOUND (line 17) sits under ELSE, which the IF on line 13 heads
    assert governed_region(lines, "cobol", 17, 9) == (13, 17)
    # a statement at the paragraph's own level has no governing test: itself only
    assert governed_region(lines, "cobol", 19, 9) == (19, 19)
    # the statement a test follows belongs to it, from its first line over its END-EXEC and a lone period
    insert = tuple(INSERT.splitlines())
    assert governed_region(insert, "cobol", 14, 8) == (9, 14)
    # Python: the body of an except block, and a statement's continuation lines
    py = ("def f(x):", "    try:", "        g(x)", "    except KeyError:", "        h(", "            x)", "    return x")
    assert governed_region(py, "python", 5, 1) == (4, 6)  # the try block before the except is a sibling
    py = ("def f(x):", "    r = parse(x)", "    if r is None:", "        raise ValueError(x)")
    assert governed_region(py, "python", 4, 1) == (2, 4)  # the statement the test follows
