"""Issue E round 6: what a cited line speaks for, whose verb a name is the subject of, what "it" may mean,
the subject of a quoted CALL, a noun that looks like a verb, data items said to receive a value, a group's
PIC, PICs stated respectively, a modal inside a condition, and what a function returns through the call it
returns, each on a small fixture corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import Grounder, expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

MENU = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. XYZMN01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       COPY XYZCOM.
       01  WS-SAVE-AREA          PIC X(20).
       01  WS-TOTAL              PIC 9(7).
       LINKAGE SECTION.
       01  DFHCOMMAREA           PIC X(20).
       PROCEDURE DIVISION USING DFHCOMMAREA.
       0000-MAIN.
           EVALUATE TRUE
               WHEN WS-TOTAL = 0
                   PERFORM 1000-PRICE
               WHEN OTHER
                   EXEC CICS LINK PROGRAM('XYZCL01')
                   END-EXEC
           END-EVALUATE
           MOVE WS-SAVE-AREA TO DFHCOMMAREA
           GOBACK.
       1000-PRICE.
           COMPUTE XYZ-AMOUNT
                OF WS-COM
                = WS-TOTAL * 2
           COMPUTE XYZ-RATE = 5
           MOVE WS-TOTAL TO DFHCOMMAREA.
"""

CALC = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. XYZCL01.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       COPY XYZCOM.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 12 TO XYZ-TERM
           GOBACK.
"""

COPYBOOK = """\
       01  WS-COM.
           05  XYZ-AMOUNT        PIC 9(7).
           05  XYZ-TERM          PIC 9(3).
           05  XYZ-RATE          PIC 9V99.
       01  XYZ-ERR-TABLE.
           05  FILLER            PIC X(12)
               VALUE 'BAD REQUEST '.
           05  XYZ-ERR-CODE      PIC 99.
       01  XYZ-LIMIT             PIC 9(3) VALUE +250.
"""

OTHER = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. XYZOT01.
       PROCEDURE DIVISION.
       0000-MAIN.
           CALL 'XYZRP01'
           GOBACK.
"""

REPORT = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. XYZRP01.
       PROCEDURE DIVISION.
       0000-MAIN.
           GOBACK.
"""

STORE = """\
class Store:
    def dump(self, obj, f):
        f.write(self.dumps(obj))

    def dumps(self, obj):
        return str(obj)

    def load(self, f):
        return self.loads(f.read())

    def loads(self, text):
        return text

    def helper(self):
        return self.dumps(1)

    def digest(self, key):
        mac = hmac.new(key)
        return mac.digest()

    def checked(self, text):
        return self._checked_impl(text)

    def _checked_impl(self, text):
        if not text:
            return False
        return True, text

    def unknown(self, text):
        return json.loads(text)

    def json(self):
        return self.loads("{}")

    def parse(self, text):
        try:
            return int(text)
        except ValueError:
            raise ParseError(text)
        except KeyError as err:
            raise err


class Base:
    pass


class Child(Base):
    pass


class ParseError(ValueError):
    pass


METHODS = ["get", "post"]

import json  # noqa: E402 (at the end, so the lines the cases cite stay put)
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory):
    return fixture_grounder(
        tmp_path_factory.mktemp("round6") / "xyz",
        {
            "cbl/XYZMN01.cbl": MENU,
            "cbl/XYZCL01.cbl": CALC,
            "cbl/XYZOT01.cbl": OTHER,
            "cbl/XYZRP01.cbl": REPORT,
            "cpy/XYZCOM.cpy": COPYBOOK,
            "py/store.py": STORE,
            "java/Pet.java": "public class Pet {\n    private Set<Visit> visits = new LinkedHashSet<>();\n\n"
            "    public Set<Visit> getVisits() {\n        return visits;\n    }\n}\n",
            "jcl/XYZPROC.jcl": "//XYZPROC  PROC LNGPRFX='XYZ630'\n//COBOL    EXEC PGM=IGYCRCTL\n"
            "//STEPLIB  DD DSN=&LNGPRFX..SIGYCOMP,DISP=SHR\n",
        },
    )


@pytest.fixture(scope="module")
def bank():
    return Grounder("cobol-bank")


CASES = [
    # A cite in a clause that says what the code does with a name needs only a mention there; one in a
    # clause (or a table cell) that places the name needs its definition there.
    ("`XYZMN01` is defined in `cbl/XYZMN01.cbl` and its procedure division receives `DFHCOMMAREA` (`cbl/XYZMN01.cbl:10`).", S),
    ("Finally it moves `WS-SAVE-AREA` back to `DFHCOMMAREA` (`cbl/XYZMN01.cbl:19`).", S),
    ("`WS-SAVE-AREA` is at `cbl/XYZMN01.cbl:19`.", P),
    ("| `helper` | `py/store.py:3` | calls `dumps` |", P),
    # a class named like its file is still a name the cite can place (Python names keep their case)
    ("`Store` is defined in `py/store.py:1` and writes with `dump`.", S),
    # "and `load` reads ...": the name the next verb follows is that verb's subject, not an object
    ("`Store.dump` writes `self.dumps(obj)` to a file handle, and `load` reads the whole file and calls `loads`.", S),
    ("`Store.dump` writes `self.dumps(obj)` to a file handle, and `load` reads the whole file and calls `helper`.", P),
    # "it" after a clause whose verb acted on a paragraph is not that paragraph
    ("## `XYZMN01`\n\n`0000-MAIN` performs `1000-PRICE` when the total is zero; otherwise it links to `XYZCL01`.", S),
    # a quoted CALL is the sentence's subject's, not the called program's own
    ("`XYZCL01` also calls `XYZRP01` with a static `CALL 'XYZRP01'`.", U),
    ("`XYZOT01` calls `XYZRP01` with a static `CALL 'XYZRP01'`.", S),
    # data items said to receive a value must be set by the subject's (else the context's) code
    ("## `XYZMN01`\n\nThe amount ends up in `XYZ-AMOUNT` and the rate in `XYZ-RATE`.", S),
    ("## `XYZMN01`\n\nThe amount ends up in `XYZ-AMOUNT`, the term in `XYZ-TERM` and the rate in `XYZ-RATE`.", P),
    ("## `XYZCL01`\n\nThe term ends up in `XYZ-TERM`.", S),
    # what a named program does with a name it never names fails; placing the name there is a file off
    ("`XYZCL01` passes `WS-SAVE-AREA` through to `DFHCOMMAREA`.", U),
    ("`XYZMN01` passes `WS-SAVE-AREA` through to `DFHCOMMAREA`.", S),
    ("`WS-SAVE-AREA` is defined in `XYZCL01`.", P),
    # the statement a named program acts with must be its own
    ("`XYZCL01` reads the file with `EXEC CICS STARTBR`.", U),
    ("`XYZMN01` reaches `XYZCL01` with `EXEC CICS LINK`.", S),
    # a quoted verb is the mechanism of the transfer before it, not of a program named after it
    ("Zero totals are sent to `XYZCL01` with `EXEC CICS LINK`; the rest go to `XYZRP01`.", S),
    # "it" after a verb that acted on a paragraph is still the sentence's subject
    ("## `XYZMN01`\n\n`0000-MAIN` performs `1000-PRICE`; then it moves `WS-SAVE-AREA` to `DFHCOMMAREA`.", S),
    # superlatives of security or importance are judgements
    ("`XYZMN01` is the most secure program here.", N),
    # a backticked route or view name is no file of the snapshot, and no fabrication either
    ("Requests for `/owners/` and the view `owners/findOwners` are answered by `Store.helper`.", S),
    # judgements of ease or intent and advice to the reader name real code but state no fact of it
    ("Keeping `Store.dumps` separate makes `Store` easier to test.", N),
    ("2. Catch `ValueError` around `Store.load`.", N),
    ("4. `Store.load` always calls `loads`.", S),
    # a language's builtins are no fabricated names; a name right before a verb is its subject
    ("`Store.unknown` passes a `str` to `json.loads` and may raise `ValueError`.", N),
    ("`Store` has no base class, and `Child` subclasses `Base`.", S),
    ("`Store` has no base class, and `Child` subclasses `Store`.", U),
    # "copies" of a Python method is English, not a COPY statement; `Store.json` is a method, not a file
    ("`Store.dump` copies the text into the file with `Store.dumps`.", S),
    ("`Store.json` calls `loads`.", S),
    # maps-exception: the raise inside the block that catches the first must be of the second
    ("`Store.parse` turns a `ValueError` into a `ParseError`.", S),
    ("`Store.parse` turns a `ValueError` into a `KeyError`.", U),
    ("`Store.load` turns a `ValueError` into a `KeyError`.", N),
    # a sentence opening with a function speaks of the names it uses in its own code (or what it calls)
    ("`Store.digest` builds the signature with `hmac.new`.", S),
    ("`Store.helper` builds the signature with `hmac.new`.", U),
    ("`Store.loads` hands back the `text` the first time it is called.", S),
    # a name inside a quoted statement is placed by the statement, not by the cite's lines
    ("In `XYZMN01` the main paragraph runs `PERFORM 1000-PRICE` (`cbl/XYZMN01.cbl:13-14`).", S),
    # a JCL procedure the claim names holds its values, whatever the context
    ("## `XYZMN01`\n\n`XYZPROC` compiles with `IGYCRCTL` through `LNGPRFX='XYZ630'`.", S),
    # "it" after a verb that acted on a paragraph is the context, also for what "it" sets
    ("## `XYZMN01`\n\nOn a zero total it performs `1000-PRICE`; otherwise it moves `WS-SAVE-AREA` to `DFHCOMMAREA`.", S),
    # SORT, SEARCH, INSPECT ... and a table's KEY clause are COBOL quoted as written
    ("`XYZMN01` sorts the totals with `SORT WS-TOTAL`.", U),
    # a division or section named in prose is what a cite of it must hold
    ("The procedure division of `XYZMN01` is at `cbl/XYZMN01.cbl:10-26`.", S),
    ("The procedure division of `XYZMN01` is at `cbl/XYZMN01.cbl:2-8`.", P),
    # a list of subjects is not what the first one uses; a declared return type is the signature's claim
    ("`Store.load` and `Store.json` hand their text to `loads`.", S),
    ("`Store.checked` is declared to return `bool` but returns a tuple for good text.", S),
    ("`Store.loads` is rarely called in practice.", N),
    # a list of literals is a value, compared item by item
    ("`METHODS` is `['get', 'post']`.", S),
    ("`METHODS` is `['get', 'post', 'put']`.", U),
    # a module the code imports from outside owns its dotted names; a relative clause has its own subject
    ("`Store.unknown` parses with `json.decoder.JSONDecoder`.", S),
    ("`Store.dumps` returns `str(obj)`, which is what lets `Store.helper` print it.", S),
    # a typed field declaration of a Java class is the class's attribute
    ("`Pet.visits` is a `LinkedHashSet`.", S),
    ("`Pet.owners` is a `LinkedHashSet`.", U),
    # a negated verb states no relation for the checks to test
    ("`XYZCL01` writes no report, and `XYZMN01` links to `XYZCL01`.", S),
    # a VALUE clause on its own is the initial value of the item named before it
    ("`XYZ-LIMIT` has `VALUE +250`.", S),
    ("`XYZ-LIMIT` has `VALUE +300`.", U),
    # a quoted CICS verb alone takes the program named after it as its target
    ("## `XYZMN01`\n\n`0000-MAIN` uses `EXEC CICS LINK` to reach `XYZCL01`.", S),
    ("## `XYZMN01`\n\n`0000-MAIN` uses `EXEC CICS XCTL` to reach `XYZCL01`.", U),
    # a group has no PIC of its own: the PICs stated of it are its items', FILLERs included
    ("`XYZ-ERR-TABLE` starts with the text `'BAD REQUEST '` in a `PIC X(12)` filler and a `PIC 99` code.", S),
    ("`XYZ-ERR-TABLE` ends with a `PIC 9(4)` code.", P),
    # as many PICs after the names as names: respectively
    ("`XYZ-AMOUNT` and `XYZ-TERM` are `PIC 9(7)` and `PIC 9(3)`.", S),
    ("`XYZ-AMOUNT` and `XYZ-TERM` are `PIC 9(3)` and `PIC 9(7)`.", P),
    # a modal inside a condition says when the code acts; outside one it is a guess
    ("`Store.checked` returns `False` when the text could not be read.", S),
    ("`Store.checked` could return `False`.", N),
    # what a method returns through the call it returns; a compound value is confirmed only as written
    ("`Store.checked` returns `True`.", S),
    ("`Store.checked` returns `None`.", U),
    ("`Store.unknown` returns `None`.", N),
    # a method of another library's object on a local variable is no name of the corpus to fabricate
    ("`Store.digest` returns `mac.hexdigest()`.", U),
    ("`Store.digest` returns `mac.digest()`.", S),
    # a cited line after "returns" is where, not what
    ("`Store.helper` returns a string (`py/store.py:14-15`).", S),
]


@pytest.mark.parametrize(("md", "verdict"), CASES)
def test_round6_checks(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)


def test_a_file_handle_is_no_catch(grounder):
    c = grounder.one("`Store.dump` writes `self.dumps(obj)` to a file handle.")
    assert [f.predicate.value for f in c.facts if f.predicate.value == "catches"] == []


def test_receiving_check_names_the_item_and_place(grounder):
    c = grounder.one("## `XYZMN01`\n\nThe amount ends up in `XYZ-AMOUNT`, the term in `XYZ-TERM` and the rate in `XYZ-RATE`.")
    assert c.reason.startswith("XYZMN01 never sets XYZ-TERM (cbl/XYZMN01.cbl does not name it)"), c.reason
    assert "XYZMN01 sets XYZ-AMOUNT at cbl/XYZMN01.cbl:22" in c.reason, c.reason


def test_the_questions_subject_is_it_when_nothing_else_names_one(grounder):
    # no heading, no earlier claim: "it" is the question's subject, not the whole snapshot
    assert grounder.one("It links to `XYZCL01`.").verdict == S  # someone in the snapshot does
    c = grounder.one("It links to `XYZCL01`.", subject="cbl/XYZOT01.cbl")
    assert c.verdict == U and c.context == "cbl/XYZOT01.cbl", c.reason
    assert grounder.one("It links to `XYZCL01`.", subject="cbl/XYZMN01.cbl").verdict == S
    # after a claim whose facts did not hold, "the program" is the question's subject again
    md = "`0000-MAIN` is in `cbl/XYZRP01.cbl:99`.\n\nThe program links to `XYZCL01`."
    assert grounder.one(md, subject="cbl/XYZMN01.cbl").verdict == S
    assert grounder.report("It links to `XYZCL01`.", subject="cbl/XYZOT01.cbl").subject == "cbl/XYZOT01.cbl"


def test_a_questions_subject_is_its_first_must_touch_file():
    from groundjudge.questions import Question

    q = Question(id="q1", text="?", category="c", difficulty="d", must_touch=["3400-UPDATE", "cbl/BKTRN02C.cbl", "x.py"])
    assert q.subject == "cbl/BKTRN02C.cbl"
    assert Question(id="q2", text="?", category="c", difficulty="d", must_touch=["REWRITE"]).subject is None


@pytest.mark.parametrize(
    ("md", "verdict"),
    [
        ("`BKTRN02C` calls `BKDTE01S`, whose paragraph `2000-CHECK-DAY-OF-MONTH` performs `2100-ADJUST-FOR-LEAP-YEAR`.", S),
        ("`BKTRN02C` calls `BKDTE01S`, which performs `1000-CHECK-RANGES` first.", S),
        ("`BKTRN02C` calls `BKDTE01S`, which performs `3400-UPDATE-ACCOUNT` first.", P),
        ("`4000-WRITE-AUDIT` LINKs to `BKAUD04C`.", S),
    ],
)
def test_a_relative_clause_keeps_its_own_subject(bank, md, verdict):
    """ "calls `B`, which/whose ...": B's names are B's, not the first program's."""
    c = bank.one(md)
    assert c.verdict == verdict, c.reason
