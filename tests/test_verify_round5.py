"""Issue E round 5: identical files, a table row's copybooks and line range, which field is moved into
which, a CICS option of the subject's command, and class attributes, each on a small fixture corpus."""

from __future__ import annotations

from pathlib import Path

import pytest
from _grounding_helpers import expect_verdict, fixture_grounder

from groundjudge.grounding.models import Verdict

S, P, U, N = Verdict.SUPPORTED, Verdict.PARTIALLY_SUPPORTED, Verdict.UNSUPPORTED, Verdict.UNABLE_TO_VERIFY

PROGRAM = """\
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ABCPGM1.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       COPY ABCWS.
       01  WS-IN-STATUS          PIC XX.
       01  WS-OUT-STATUS         PIC XX.
       01  WS-MSG.
           05  WS-MSG-CODE       PIC XX.
           05  WS-MSG-TEXT       PIC X(20).
       LINKAGE SECTION.
       COPY ABCLK.
       PROCEDURE DIVISION.
       0000-MAIN.
           PERFORM 1000-READ-IN
           PERFORM 2000-SHOW
           GOBACK.
       1000-READ-IN.
           IF WS-IN-STATUS NOT = '00'
               MOVE WS-OUT-STATUS
                   TO WS-MSG-CODE
               MOVE 'READ FAILED' TO WS-MSG-TEXT
           END-IF.
       2000-SHOW.
           EXEC CICS SEND MAP('ABCMAP')
                MAPSET('ABCSET')
                ERASE
           END-EXEC.
           EXEC CICS RETURN
           END-EXEC.
       3000-REFRESH.
           EXEC CICS SEND MAP('ABCMAP')
                DATAONLY
           END-EXEC.
"""

SIGNERS = """\
class Signer:
    pass


class StampSigner(Signer):
    pass


class Packer:
    default_signer = Signer
    default_fallbacks: list[
        type[Signer]
    ] = []
    default_extras: list[type[Signer]] = []

    def __init__(self, signer=None):
        self.signer = signer or self.default_signer
        self.default_extras.append(Signer)


class StampPacker(Packer):
    default_signer = StampSigner
"""


@pytest.fixture(scope="module")
def grounder(tmp_path_factory):
    return fixture_grounder(
        tmp_path_factory.mktemp("round5") / "abc",
        {
            "cbl/ABCPGM1.cbl": PROGRAM,
            "dup/ABCWS.cpy": "       01  WS-COUNT   PIC 9(4).\n       01  WS-LIMIT   PIC 9(5)V99 VALUE 25000.50.\n",
            "cpy/ABCWS.cpy": "       01  WS-COUNT   PIC 9(4).\n       01  WS-LIMIT   PIC 9(5)V99 VALUE 25000.50.\n",
            "cpy/ABCLK.cpy": "       01  LK-AREA    PIC X(10).\n",
            "cpy/ABCOLD.cpy": "       01  OLD-AREA   PIC X(10).\n       01  WS-SPARE   PIC 9(4).\n",
            "cpy/ABCNONE.cpy": "       01  NONE-AREA  PIC X(10).\n",
            "py/packers.py": SIGNERS,
            "res/resources.yaml": "programs:\n  - name: ABCPGM1\n    dynamic: NO\n",
        },
    )


CASES = [
    # identical files: the snapshot manifest's sha256 of each
    ("`cpy/ABCWS.cpy` and `dup/ABCWS.cpy` are identical.", S),
    ("`cpy/ABCLK.cpy` and `cpy/ABCOLD.cpy` are identical.", U),
    # existing paths are no held relation
    ("`ABCWS` exists both as `cpy/ABCWS.cpy` and as `cpy/ABCOLD.cpy`, and the two copies are identical.", U),
    ("`cpy/ABCLK.cpy` and `cpy/ABCOLD.cpy` differ.", S),
    # a table row's copybooks: ABCNONE is a copybook of the snapshot that ABCPGM1 never copies
    ("| Program | Copybooks |\n|---|---|\n| `ABCPGM1` | `ABCWS`, `ABCLK` |", S),
    ("| Program | Copybooks |\n|---|---|\n| `ABCPGM1` | `ABCWS`, `ABCNONE` |", P),
    # a line range in a table row is the row name's own span: it must hold the paragraph's first line
    ("| Paragraph | Lines | What it does |\n|---|---|---|\n| `0000-MAIN` | 14-17 | performs `1000-READ-IN` |", S),
    ("| Paragraph | Lines | What it does |\n|---|---|---|\n| `0000-MAIN` | 15-17 | performs `1000-READ-IN` |", P),
    # in prose, a range inside the paragraph still holds
    ("`1000-READ-IN` moves the status (`cbl/ABCPGM1.cbl` lines 20-21).", S),
    # which field is moved into which, in the subject's own span
    ("`1000-READ-IN` reports a failed read with `WS-OUT-STATUS` in `WS-MSG-CODE`.", S),
    ("`1000-READ-IN` reports a failed read with `WS-IN-STATUS` in `WS-MSG-CODE`.", U),
    ("`1000-READ-IN` moves `WS-IN-STATUS` into `WS-MSG-CODE`.", U),
    # a CICS option named for the subject's command must be in its own EXEC CICS statement
    ("`2000-SHOW` sends the map with `ERASE`.", S),
    ("`2000-SHOW` sends the map with `ERASE` and `DATAONLY`.", P),
    ("`2000-SHOW` sends the map with `DATAONLY`.", U),
    ("`3000-REFRESH` sends the map with `DATAONLY`.", S),
    # a class attribute named for the verb says what the class uses; a subclass's own value is not its
    ("By default, `Packer` signs with `Signer`.", S),
    ("By default, `Packer` signs with `StampSigner`.", U),
    ("`StampPacker` signs with `StampSigner`.", S),
    # a cited file that declares or lists a name must name it
    ("`res/resources.yaml` declares `ABCPGM1` as a program.", S),
    ("`res/resources.yaml` also declares `ABCWS` as a program.", U),
    # a telling number stated of a program is in its code or its copybooks
    ("`ABCPGM1` caps a count at 25000.50.", S),
    ("`ABCPGM1` caps a count at 99999.50.", U),
    # an item nothing uses feeds nothing
    ("`WS-SPARE` holds a count and feeds the message code.", U),
    ("`WS-OUT-STATUS` feeds the message code.", S),
    # a name only ever set empty holds nothing; one appended to may
    ("`default_fallbacks` holds a spare signer for old tokens.", U),
    ("`default_extras` holds a spare signer for old tokens.", S),
]


@pytest.mark.parametrize(("md", "verdict"), CASES)
def test_round5_checks(grounder, md, verdict):
    expect_verdict(grounder, md, verdict)
