"""Issue M, the installation kit: names that REXX execs, WSim scripts, JCL symbols, CSD and CPSM
definitions, DB2 DDL and CICS abend codes define are renamed with one map everywhere; --scrub-prose also
takes sample data, literals and JOB-card owners, but never a word the code uses."""

from __future__ import annotations

from test_rename_hiding import _rename, _verify, _write

from groundjudge.rename.leak import is_data, is_general
from groundjudge.rename.mapping import Lookup
from groundjudge.rename.toolnames import asm_names, ddl_names, is_assembler, jcl_symbols, resources, rexx_variables, wsim_names


def _cob(code: str) -> str:
    return f"{'':6} {code}"


KIT = {
    "exec/setup.rexx": "/* REXX */\n"
    "SRCLIBX = 'userid.ZORBA.SRC'\n"
    "'ISPEXEC VPUT (SRCLIBX POOLONLY)'\n"
    "'ISPEXEC LMZQOPEN DATAID(IN)'\n"
    "/* Lmzqopen opens it */\n"
    "RC = 0\n"
    "PRODHLQ = 'userid.ZORBIX.LOAD'\n",
    "README.md": "# Zorbix installation kit\n\nRun setup first. Get it from http://www.zqorbix.com/kit; its requests use\n"
    "the namespace http://www.w3.org/2001/XMLSchema.\n",
    "exec/fixup.rexx": '/* REXX */\n"Isredit (mbrnmz) = MEMBER"\n"Isredit Change \'<SRCLIBX>\' \'"SRCLIBX"\' All"\n',
    "cntl/build.jcl": "//ZBUILDJ JOB ,S9JONES,CLASS=A\n"
    "//         SET TGTQUAL=ZQA1\n"
    "//COMP     EXEC PGM=IGYCRCTL\n"
    "//SYSIN    DD DISP=SHR,DSN=<SRCLIBX>(&TGTQUAL)\n"
    "//SYSUT2   DD DSN=&&TMPZQW,DISP=(,PASS)\n"
    "//CSD      DD *\n"
    " DEFINE PROGRAM(ZQPGM01) GROUP(ZQGRP)\n"
    " ADD GROUP(ZQGRP) LIST(ZQLISTX)\n"
    " DEFINE CONNECTION(ZQR1) REMOTESYSTEM(ZQR1)\n"
    " CREATE TABLE <DBQUAL>.policyx (\n"
    "   policyNumz INTEGER NOT NULL,\n"
    "   zqColour CHAR(8),\n"
    "   PRIMARY KEY(policyNumz))\n"
    "   CCSID EBCDIC;\n"
    " INSERT INTO <DBQUAL>.policyx VALUES (1, 'Zanzibarr');\n"
    "/*\n",
    "cntl/close.jcl": "//ZCLOSEJ JOB 1,CLASS=A\n//S1 EXEC PGM=IEFBR14\n /F ZQREGNX,'CEMT SET FIL(ZQFILE) CLO'\n",
    "csd/list.csd": "  DEFINE FILE(ZQFILE) GROUP(ZQGRP)\n  CHANGEUSRID(QWCHNGR)\n",
    "cntl/zproc.jcl": "//ZPROCX   PROC MEMBX=ABC,\n//         OUTQX=Z\n//S1       EXEC PGM=IEFBR14\n",
    "wsim/vars.txt": "Integer Shared ZCount_web\nString Unshared Zq_Msg\n",
    "wsim/soap.txt": 'Say \' xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:q0="http://www.zqorbix.com/Request"\'\n',
    "wsim/zqs1a1.txt": "ZQS1A1: msgtxt\nZCount_web = ZCount_web + 1\nSay 'Zqlabel done'\nSay 'Zqlabel again'\nendtxt\n",
    "wsim/net.txt": "ZQNET    NTWRK BUFSIZE=1920\nZQPATHX  PATH  ZQS1A1\n",
    "src/zqprog.cbl": "\n".join(
        _cob(line)
        for line in (
            " IDENTIFICATION DIVISION.",
            " PROGRAM-ID. ZQPROG.",
            " AUTHOR. Otto Boolezq.",
            " DATA DIVISION.",
            " WORKING-STORAGE SECTION.",
            " 01  WS-REQ               PIC X(6).",
            " PROCEDURE DIVISION.",
            "     EXEC SQL DECLARE ZQCUR CURSOR FOR",
            "          SELECT policyNumz FROM policyx END-EXEC",
            "     MOVE '01ZQRQ' TO WS-REQ",
            "     IF WS-REQ = '01ZQRQ' OR '01ZQRQ'",
            "        EXEC CICS ABEND ABCODE('ZQAB') NODUMP END-EXEC",
            "     END-IF",
            "     EXEC CICS ABEND ABCODE('ASRA') END-EXEC.",
        )
    )
    + "\n",
    "data/rows.txt": "0001ZANZIBARR SMYTHE\n0002ZANZIBARR SMYTHE\n0003ALICE     SMYTHE\n",
    "ims/zqdbd.dbd": "         DBD     NAME=ZQDBD01,ACCESS=(HIDAM,VSAM)\n"
    "         SEGM    NAME=ZQSEGRT,PARENT=0,BYTES=100\n"
    "         FIELD   NAME=(ZQKEYF,SEQ,U),BYTES=8,START=1\n",
    "sched/daily.controlm": '<FOLDER FOLDER_NAME="DAILY-ZqBackup">\n'
    '  <JOB JOBNAME="ZBUILDJ" MEMNAME="ZBUILDJ" CREATED_BY="QWOWNER" RUN_AS="qwowner">\n'
    '    <OUTCOND NAME="DAILY-ZqBackup-ZBUILDJ" ODATE="ODAT" SIGN="+" />\n'
    "  </JOB>\n</FOLDER>\n",
    "asm/zqsub.asm": "ZQSUB    CSECT\n"
    "R13      EQU   13\n"
    "         LA    R13,ZQSAVE\n"
    "         AIF   ('&ZQPARM' EQ '').ZQSKIP\n"
    ".ZQSKIP  ANOP\n"
    "ZQSAVE   DS    18F\n"
    "* ZQCOMMENT is no label\n"
    "         MACRO\n"
    "         ZQMAC &ZQPARM=,&ZQOTHER=\n"
    "         MEND\n",
}


def test_each_tool_reader_takes_what_its_statements_define():
    assert sorted(rexx_variables(KIT["exec/setup.rexx"])) == ["POOLONLY", "PRODHLQ", "RC", "SRCLIBX", "SRCLIBX"]
    assert list(rexx_variables(KIT["exec/fixup.rexx"])) == ["mbrnmz"]
    assert list(wsim_names(KIT["wsim/vars.txt"])) == ["ZCount_web", "Zq_Msg"]
    assert list(wsim_names(KIT["wsim/net.txt"])) == ["ZQNET", "ZQPATHX"]
    assert list(jcl_symbols(KIT["cntl/zproc.jcl"])) == ["MEMBX", "OUTQX"]
    assert list(jcl_symbols(KIT["cntl/build.jcl"])) == ["TGTQUAL", "SRCLIBX", "DBQUAL", "DBQUAL"]
    assert sorted(set(resources(KIT["cntl/build.jcl"]))) == ["ZQGRP", "ZQLISTX", "ZQPGM01", "ZQR1"]
    # a placeholder qualifier is not the table's name; a constraint is no column
    assert list(ddl_names(KIT["cntl/build.jcl"])) == ["policyx", "policyNumz", "zqColour"]
    assert list(ddl_names("EXEC SQL DECLARE ZQCUR SCROLL CURSOR FOR")) == ["ZQCUR"]
    assert list(resources(KIT["ims/zqdbd.dbd"])) == ["ZQDBD01", "ZQSEGRT", "ZQKEYF"]
    sched = list(resources(KIT["sched/daily.controlm"]))
    assert sched == ["DAILY-ZqBackup", "ZBUILDJ", "ZBUILDJ", "DAILY-ZqBackup-ZBUILDJ"]
    # labels, sequence symbols, a macro and its parameters; a register equate and a comment are not
    assert list(asm_names(KIT["asm/zqsub.asm"])) == ["ZQSUB", "ZQSKIP", "ZQSAVE", "ZQMAC", "ZQPARM", "ZQOTHER"]
    assert is_assembler("notes.txt", "ZQSUB    CSECT\n") and not is_assembler("notes.txt", "The CSECT is loaded\n")
    assert list(resources(KIT["cntl/close.jcl"])) == ["ZQREGNX"]  # the region an operator command modifies
    # a CPSM definition names what follows on its own line only
    assert list(resources("  DEFINE CLUSTER\n  NAME(ZQX)\n  CONTEXT ZQPLEX\n")) == ["ZQPLEX"]


def test_the_kit_is_renamed_with_one_map_and_still_verifies(tmp_path):
    root = _write(tmp_path / "kit", KIT)
    out, m = _rename(root, tmp_path)
    cls, new = m["classes"], m["identifiers"]
    expected = {
        "SRCLIBX": "variable",
        "POOLONLY": "variable",
        "mbrnmz": "variable",
        "TGTQUAL": "variable",
        "MEMBX": "variable",
        "ZCount_web": "variable",
        "Zq_Msg": "variable",
        "ZQNET": "variable",
        "ZQPATHX": "variable",
        "TMPZQW": "dataset",
        "ZQGRP": "resource",
        "ZQLISTX": "resource",
        "ZQR1": "resource",
        "policyx": "sql_name",
        "policyNumz": "sql_name",
        "ZQCUR": "sql_name",
        "ZQAB": "abend_code",
        "fixup": "member",
    }
    assert {k: cls.get(k) for k in expected} == expected
    # REXX's own RC and the CICS-reserved abend code stay; so does the system program
    assert "RC" not in new and "ASRA" not in new and "IGYCRCTL" not in new
    fixup = (out / "exec" / f"{new['fixup']}.rexx").read_text()
    assert f"'<{new['SRCLIBX']}>' '\"{new['SRCLIBX']}\"'" in fixup  # the exec fills the renamed placeholder
    assert "build" in m["kept"]  # a reserved word: the member build.jcl keeps its name
    build = (out / "cntl" / "build.jcl").read_text()
    assert f"DSN=<{new['SRCLIBX']}>(&{new['TGTQUAL']})" in build and f"&&{new['TMPZQW']}" in build
    assert f"GROUP({new['ZQGRP']}) LIST({new['ZQLISTX']})" in build
    rep = _verify(root, out, tmp_path)
    assert rep["ok"] and rep["leftover_count"] == 0

    # the same seed gives the same tree and map, byte for byte
    out2, m2 = _rename(root, tmp_path, name="again")
    assert m2["identifiers"] == new
    files = sorted(p.relative_to(out) for p in out.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(out2) for p in out2.rglob("*") if p.is_file())
    assert all((out / f).read_bytes() == (out2 / f).read_bytes() for f in files)


def test_scrub_prose_takes_sample_data_literals_and_job_owners_but_not_code_words(tmp_path):
    root = _write(tmp_path / "kit", KIT)
    out, m = _rename(root, tmp_path, "--scrub-prose")
    text = "\n".join(p.read_text() for p in out.rglob("*") if p.is_file()).upper()
    # an INSERT's row, a data file's records, a WSim message, a COBOL code value, the JOB's programmer,
    # a scheduler's owner, the program's AUTHOR, the CSD's last changer
    for gone in ("ZANZIBARR", "SMYTHE", "ZQLABEL", "01ZQRQ", "S9JONES", "QWOWNER", "BOOLEZQ", "QWCHNGR"):
        assert gone not in text, gone
    # the product's name (a README's title) goes even from a REXX string, which is code
    assert "ZORBIX" not in text
    # a REXX host command's word is code even where a comment spells it capitalised; DDL keywords stay
    assert "LMZQOPEN" not in m["identifiers"] and "LMZQOPEN" in text and "CCSID EBCDIC" in text
    # a standard's namespace stays byte for byte (SOAP and XML compare it); the corpus's own URL does not
    readme = (out / "README.md").read_text()
    assert "http://www.w3.org/2001/XMLSchema" in readme and "ZQORBIX" not in readme.upper()
    assert 'xmlns:xsd="http://www.w3.org/2001/XMLSchema"' in (out / "wsim/soap.txt").read_text()
    assert _verify(root, out, tmp_path)["ok"]


def test_fixed_length_records_are_data():
    assert is_data(KIT["data/rows.txt"])
    assert not is_data(KIT["wsim/vars.txt"]) and not is_data("one line\n")


def test_numbers_are_general_and_names_with_digits_are_not():
    assert is_general("0D25") and is_general("FF00") and is_general("900M") and is_general("64KB")
    assert not is_general("DOR1") and not is_general("ZQA1") and not is_general("0D2")
    # an assembler DC/DS operand is syntax (duplication, type, length), not a name
    assert is_general("CL79") and is_general("2XL4") and is_general("PL8") and not is_general("APDRVP1")
    # a company suffix, CICS global user exit keywords and IDCAMS's dump DD are nobody's names
    assert all(is_general(w) for w in ("CORP", "LTD", "GALENGTH", "UEPGAA", "AMSDUMP", "RLSACCESS"))


def test_the_application_part_of_an_ibm_prefixed_name_is_renamed():
    lookup = Lookup({"GENA": "QZRX", "COMMER": "XQWPLT"}, {"GENA": "resource", "COMMER": "prose"})
    # a coupling-facility server of the pool GENA: the pool is the application's
    assert lookup("DFHNCLS_GENA") == "DFHNCLS_QZRX"
    assert lookup("DFHGENA") is None  # IBM's whole
    # an English or reserved word is no name glued to letters
    assert lookup("COMMERCIAL") is None and lookup("COMMERX") == "XQWPLTX"


def test_the_map_lists_the_new_classes(tmp_path):
    root = _write(tmp_path / "kit", KIT)
    _, m = _rename(root, tmp_path)
    assert {"variable", "resource", "sql_name", "abend_code", "member"} <= set(m["classes_selected"])
