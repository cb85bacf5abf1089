"""A small hand-built mainframe corpus for the renamer's tests: every rule of issue 4 has a line here.

COBOL lines are built column by column (sequence area, indicator, code area, identification area),
so the fixed-format edge cases are exact.
"""

from __future__ import annotations

import json
from pathlib import Path


def cob(code: str, seq: int = 0, ind: str = " ", ident: str = "") -> str:
    """One fixed-format line: columns 1-6 sequence, 7 indicator, 8-72 code, 73-80 identification."""
    assert len(code) <= 65, code
    line = f"{seq:06d}{ind}{code}"
    return (line.ljust(72) + ident) if ident else line


def program(lines: list[tuple], name: str) -> str:
    out = []
    for i, item in enumerate(lines, start=1):
        code, *rest = item if isinstance(item, tuple) else (item,)
        ind = rest[0] if rest else " "
        out.append(cob(code, seq=i * 100, ind=ind, ident=name if i == 1 else ""))
    return "\n".join(out) + "\n"


ACCTPGM = program(
    [
        " IDENTIFICATION DIVISION.",
        " PROGRAM-ID. ACCTPGM.",
        ("ACCTPGM reads the account master; see also acctsub.", "*"),
        " DATA DIVISION.",
        " WORKING-STORAGE SECTION.",
        " 01  ACCT                 PIC X(10).",
        " 01  ACCT-ID              PIC 9(8).",
        " 01  WS-ACCT-ID           PIC 9(8).",
        " 01  WS-FILE              PIC X(8) VALUE 'ACCTFIL2'.",
        "     COPY ACCTREC.",
        "     COPY ACCTTAG REPLACING ==:TAG:== BY ==WS==.",
        "     COPY ACCTLDG REPLACING LEADING ==LDG== BY ==OUT==.",
        "     COPY DFHAID.",
        "     COPY ACCTSET.",
        " PROCEDURE DIVISION.",
        " MAIN-PARA.",
        "     MOVE ACCT-ID TO WS-ACCT-ID",
        "     CALL 'ACCTSUB' USING ACCT",
        "     CALL 'CEEDAYS' USING ACCT",
        "     EXEC CICS LINK PROGRAM('ACCTSUB') END-EXEC",
        "     EXEC CICS READ DATASET('ACCTFIL') INTO(ACCT)",
        "          RIDFLD(ACCT-ID) END-EXEC",
        "     EXEC CICS READ FILE(WS-FILE) INTO(ACCT) END-EXEC",
        "     MOVE ACCT TO ACCTNMO OF ACCTMAPO",
        "     EXEC CICS SEND MAP('ACCTMAP') MAPSET('ACCTSET')",
        "          FROM(ACCTMAPO) END-EXEC",
        "     MOVE 'Acctpgm done' TO ACCT",
        "     EXEC CICS RECEIVE MAP('ACCTMAP') INTO(ACCTMAPI) END-EXEC",
        "     EXEC CICS XCTL PROGRAM('ACCTSUB') END-EXEC.",
    ],
    "ACCTPGM",
)

ACCTSUB = program(
    [
        " IDENTIFICATION DIVISION.",
        " PROGRAM-ID. ACCTSUB.",
        " ENVIRONMENT DIVISION.",
        " INPUT-OUTPUT SECTION.",
        " FILE-CONTROL.",
        "     SELECT ACCT-FILE ASSIGN TO S-ACCTDD.",
        " DATA DIVISION.",
        " LINKAGE SECTION.",
        " 01  ACCT                 PIC X(10).",
        " PROCEDURE DIVISION USING ACCT.",
        " 1000-INIT.",
        "     OPEN INPUT ACCT-FILE",
        "     GOBACK.",
    ],
    "ACCTSUB",
)

ACCTREC = program([" 01  ACCT-REC.", "     05 ACCT-BAL            PIC S9(7)V99 COMP-3."], "ACCTREC")
ACCTTAG = program([" 01  :TAG:-ACCT-ID         PIC 9(8)."], "ACCTTAG")
ACCTLDG = program([" 01  LDG-ACCT-NAME         PIC X(30)."], "ACCTLDG")

# the symbolic map the BMS assembly generates: its data names are made from the map and field names
ACCTSET_CPY = program(
    [
        " 01  ACCTMAPI.",
        "     05 ACCTNML             PIC S9(4) COMP.",
        "     05 ACCTNMF             PIC X.",
        "     05 ACCTNMI             PIC X(10).",
        " 01  ACCTMAPO REDEFINES ACCTMAPI.",
        "     05 ACCTNMO             PIC X(10).",
        "     05 USERIDI             PIC X(8).",
    ],
    "ACCTSET",
)

ACCTSET_BMS = """ACCTSET  DFHMSD TYPE=&SYSPARM,MODE=INOUT,LANG=COBOL,STORAGE=AUTO
ACCTMAP  DFHMDI SIZE=(24,80),LINE=1,COLUMN=1
ACCTNM   DFHMDF POS=(1,1),LENGTH=10,ATTRB=(ASKIP,NORM)
USERID   DFHMDF POS=(2,1),LENGTH=8,ATTRB=(UNPROT,NORM)
         DFHMSD TYPE=FINAL
         END
"""

ACCTJOB = """//ACCTJOB  JOB (ACCT),'ACCOUNT RUN',CLASS=A,MSGCLASS=X
//* Runs ACCTPGM against BANKX.PRODA.ACCTMAST
//STEPLIB  DD DSN=SYS1.LINKLIB,DISP=SHR
//STEP1    EXEC PGM=ACCTPGM
//ACCTDD   DD DSN=BANKX.PRODA.ACCTMAST,DISP=SHR
//SYSOUT   DD SYSOUT=*
//STEP2    EXEC ACCTPRC
//STEP$3   EXEC PGM=IEFBR14
"""

ACCTPRC = """//ACCTPRC  PROC
//RUN      EXEC PGM=ACCTSUB
//ACCTDD   DD DSN=BANKX.PRODA.ACCTMAST,DISP=SHR
//         PEND
"""

CSD = """DEFINE TRANSACTION(ACT1) GROUP(BANKX) PROGRAM(ACCTPGM)
DEFINE FILE(ACCTFIL) GROUP(BANKX)
"""

NOTES = """# Account batch

ACCTPGM (source `cbl/ACCTPGM.cbl`) calls ACCTSUB; the job ACCTJOB runs it nightly.
Lower case acctpgm and mixed Acctpgm are the same program. ACCT-ID is a field; WS-ACCT-ID too.
"""

LEGACY_BYTES = "ACCTPGM caf\xe9 ledger\n".encode("latin-1")  # not UTF-8: copied byte-identical
BINARY_BYTES = b"\x00\x01ACCTPGM\x00\xff"


def make_bank(root: Path) -> Path:
    """Write the mini corpus under root/bank and return that directory."""
    bank = root / "bank"
    files = {
        "cbl/ACCTPGM.cbl": ACCTPGM,
        "cbl/ACCTSUB.cbl": ACCTSUB,
        "cpy/ACCTREC.cpy": ACCTREC,
        "cpy/ACCTTAG.cpy": ACCTTAG,
        "cpy/ACCTLDG.cpy": ACCTLDG,
        "bms/ACCTSET.bms": ACCTSET_BMS,
        "cpy/ACCTSET.cpy": ACCTSET_CPY,
        "jcl/ACCTJOB.jcl": ACCTJOB,
        "proc/ACCTPRC.prc": ACCTPRC,
        "csd/BANK.csd": CSD,
        "ACCTSUB/notes.md": NOTES,
    }
    for rel, text in files.items():
        p = bank / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    (bank / "data").mkdir()
    (bank / "data/legacy.dat").write_bytes(LEGACY_BYTES)
    (bank / "data/ACCTPGM.bin").write_bytes(BINARY_BYTES)
    return bank


QUESTIONS = [
    {
        "id": "q1",
        "text": "What does ACCTPGM do with ACCT-ID before it calls ACCTSUB?",
        "category": "flow",
        "difficulty": "easy",
        "must_touch": ["cbl/ACCTPGM.cbl", "ACCTSUB"],
    },
    {
        "id": "q2",
        "text": "Which job runs acctpgm, and which dataset does the ACCTDD DD read?",
        "category": "batch",
        "difficulty": "medium",
        "source": "hand",
    },
]


def write_questions(path: Path) -> Path:
    path.write_text("".join(json.dumps(q) + "\n" for q in QUESTIONS), encoding="utf-8")
    return path
