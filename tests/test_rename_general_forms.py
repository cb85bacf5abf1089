"""Issue M on an application nobody tuned on: what the renamer keeps because a tool or IBM fixes it is
general for the leak report and never scrubbed as prose. The BMS names of a field kept as a general word
(MESSAGEO of MESSAGE), IBM-prefixed names and libraries (DSNTEP2, SDFHAUTH), tool keywords and release
levels (UCTRAN, V3R0), and the common abbreviation etc (a directory too). A word inside an IBM name
(FSVSAMP in a commented-out DD beside IMS's DFSVSAMP) is not scrubbed: it would be left inside it. A
name the kit defines that spells a tool's keyword (the JCL symbol AMODE) is kept, like a reserved word."""

from __future__ import annotations

from test_rename_hiding import _rename, _verify, _write

from groundjudge.grounding.snapshot import snapshot_directory
from groundjudge.rename.leak import bms_general_forms, is_general, prose_names
from groundjudge.rename.vocabulary import ibm_supplied


def _cob(code: str) -> str:
    return f"{'':7}{code}"


BANK = {
    "src/zqset1.bms": "ZQSET1   DFHMSD TYPE=MAP,MODE=INOUT,LANG=COBOL\n"
    "ZQMAP1   DFHMDI SIZE=(24,80)\n"
    "MESSAGE  DFHMDF POS=(23,1),LENGTH=60\n"
    "ACTION   DFHMDF POS=(3,1),LENGTH=1\n"
    "ZQCUSTNO DFHMDF POS=(4,1),LENGTH=10\n"
    "PGMNAME  DFHMDF POS=(5,1),LENGTH=8\n"
    "         DFHMSD TYPE=FINAL\n"
    "         END\n",
    "src/ZQPGM01.cbl": "\n".join(
        [
            "       PROCESS CICS,NSYMBOL(NATIONAL)",
            _cob("IDENTIFICATION DIVISION."),
            _cob("PROGRAM-ID. ZQPGM01."),
            "      * Set the terminal UCTRAN back on. Needs CICS V3R0.",
            _cob("PROCEDURE DIVISION."),
            *[_cob("    MOVE SPACES TO MESSAGEO")] * 3,
            *[_cob("    MOVE ACTIONI TO ZQCUSTNOO")] * 3,
            _cob("    MOVE SPACES TO PGMNAMEO"),
            _cob("    EXEC CICS LINK PROGRAM('ZQPGM01') SYNCONRETURN END-EXEC"),
            _cob("    GOBACK."),
            "",
        ]
    ),
    "etc/install/zqdb2.jcl": "//ZQDB2J JOB 1,'X',CLASS=A\n"
    "//RUN EXEC PGM=IKJEFT01\n"
    "//STEPLIB DD DISP=SHR,DSN=&CICSHLQ..SDFHAUTH\n"
    "//DFSVSAMP DD DUMMY\n" + "//*FSVSAMP DD DUMMY\n" * 3 + "//SYSTSIN DD *\n" + " RUN PROGRAM(DSNTEP2) PLAN(DSNTEP12)\n" * 3,
    "etc/install/zqmapg.jcl": "//ZQMAPG PROC AMODE=31,ZQHLQ=ZQ\n"
    "//ASM EXEC PGM=ASMA90,PARM='AMODE(&AMODE)'\n"
    "//SYSADATA DD DSN=&ZQHLQ..ADATA,DISP=SHR\n",
    "README.md": "# Zqbank sample\n\n"
    "Zqbank runs on z/OS. Get it from https://github.com/zqorg/zqbank/tree/main/etc/install, docs etc.\n"
    "Bind the plan of DSNTEP2: ask which DSNTEP plan; the DSNTEP plan is DSNTEP12.\n"
    "Terminals need UCTRAN; Uctran off means NOUCTRAN. Needs CICS V3R0 (V3R0 or V5R4M0).\n"
    "The Messageo field shows it.\n",
}


def test_what_a_tool_or_ibm_fixes_is_general_and_never_scrubbed(tmp_path):
    root = _write(tmp_path / "bank", BANK)
    out, m = _rename(root, tmp_path, "--scrub-prose")
    new = m["identifiers"]
    for kept in (
        "DSNTEP",
        "DSNTEP12",
        "SDFHAUTH",
        "DFSVSAMP",
        "FSVSAMP",
        "UCTRAN",
        "NOUCTRAN",
        "V3R0",
        "ETC",
        "ZOS",
        "MESSAGEO",
        "ACTIONI",
    ):
        assert kept not in {k.upper() for k in new}, kept
    # the application's own: the product, its field and the field's derived name
    assert m["classes"]["ZQBANK"] == "prose" and "ZQCUSTNO" in new and new["ZQCUSTNOO"] == new["ZQCUSTNO"] + "O"
    assert (out / "etc" / "install").is_dir()
    # a JCL symbol and a library named as a tool's option keep the name: the tool reads the option
    assert m["kept"]["AMODE"] == m["kept"]["ADATA"] == "tool keyword (rename/tool_words.txt)"
    # a BMS field meets no tool's keyword where it is used: renamed, with its derived names
    assert new["PGMNAMEO"] == new["PGMNAME"] + "O"
    text = "\n".join(p.read_text() for p in out.rglob("*") if p.is_file())
    assert "DSN=&CICSHLQ..SDFHAUTH" in text and "PROGRAM(DSNTEP2) PLAN(DSNTEP12)" in text and "z/OS" in text
    assert "PARM='AMODE(&AMODE)'" in text and "..ADATA," in text
    assert "ZQBANK" not in text.upper() and "ZQCUSTNO" not in text
    rep = _verify(root, out, tmp_path)
    assert rep["ok"] and rep["leftover_count"] == 0
    assert rep["leak_tokens"] == [] and rep["leak_score"] == 0 < rep["leak_score_before"]


def test_the_bms_names_of_a_general_label_are_general(tmp_path):
    snap = snapshot_directory(_write(tmp_path / "bank", BANK))
    forms = bms_general_forms(snap)
    assert {"MESSAGEO", "MESSAGEI", "MESSAGEL", "ACTIONI", "ACTIONA"} <= forms
    # a map's label takes only I and O; the application's own field is no general word
    assert not any(f.startswith(("ZQCUSTNO", "ZQMAP1")) for f in forms)
    # so the prose rule does not take the field's name either, capitalised or not
    assert "MESSAGEO" not in prose_names(snap)


def test_ibm_prefixes_libraries_tool_keywords_and_release_levels_are_general():
    for word in ("DSNTEP2", "DSNTEP12", "CEEDAYS", "IGYCRCTL", "CSQ901", "EYUAUTH", "SDFHAUTH", "SDSNLOAD", "SEYUAUTH"):
        assert ibm_supplied(word) and is_general(word), word
    for word in ("ZQSDFH", "SDATA", "DSTEP", "SCSI"):
        assert not ibm_supplied(word), word
    # tool keywords, CICS-supplied transactions, a contraction's stem (doesn't), computing words
    for word in ("UCTRAN", "NOUCTRAN", "UCTRANST", "SYNCONRETURN", "NSYMBOL", "ASIS", "CARDINALITY", "ETC", "CEMT", "CSMI"):
        assert is_general(word), word
    for word in ("DOESN", "WASN", "SETUP", "LOGON", "ENQUEUE"):
        assert is_general(word), word
    assert is_general("V3R0") and is_general("V5R4M0") and not is_general("V3RX") and not is_general("ZQV3R0")
