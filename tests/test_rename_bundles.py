"""Issue M round 3: a CICS bundle's resource definitions (CICS Explorer's .program, .transaction, .urimap,
... files and the META-INF/cics.xml manifest) define the application's resources, which are renamed; the
keywords of XML Schema, WSDL, CICS bundles, HTML and the Java standard library, lower camel-case compounds
of general words and the names Java imports from outside the corpus are general for the leak report."""

from __future__ import annotations

from test_rename_hiding import _rename, _verify, _write

from groundjudge.grounding.snapshot import snapshot_directory
from groundjudge.rename.leak import camel_general, distinctive_words, imported_names, is_general
from groundjudge.rename.toolnames import resources

NS = 'xmlns="http://www.ibm.com/xmlns/prod/CICS/smw2int"'
BUNDLE = {
    "zq-async-app/ZQPIPEX.pipeline": f'<?xml version="1.0"?><cicsdefinitionpipeline {NS} configfile="x.xml" name="ZQPIPEX"/>\n',
    "zq-async-app/ZQURIM1.urimap": f'<?xml version="1.0"?><cicsdefinitionurimap {NS} name="ZQURIM1" pipeline="ZQPIPEX" '
    'transaction="CPIH" usage="PIPELINE"/>\n',
    "zq-async-app/ZQTR.transaction": f'<?xml version="1.0"?><cicsdefinitiontransaction {NS} localq="N_A" name="ZQTR" '
    'program="ZQPGM"/>\n',
    "zq-async-app/META-INF/cics.xml": '<?xml version="1.0"?>\n<manifest xmlns="http://www.ibm.com/xmlns/prod/cics/bundle" '
    'id="zq-async-app" bundleMajorVer="1" bundleMicroVer="0">\n'
    '  <define name="ZQPIPEX" type="http://www.ibm.com/xmlns/prod/cics/bundle/PIPELINE" path="ZQPIPEX.pipeline"/>\n'
    '  <define name="ZQURIM1" type="http://www.ibm.com/xmlns/prod/cics/bundle/URIMAP" path="ZQURIM1.urimap"/>\n'
    '  <define name="ZQTR" type="http://www.ibm.com/xmlns/prod/cics/bundle/TRANSACTION" path="ZQTR.transaction"/>\n'
    "</manifest>\n",
}


def test_a_bundle_definition_names_the_resource_it_defines():
    assert list(resources(BUNDLE["zq-async-app/ZQURIM1.urimap"])) == ["ZQURIM1"]  # not the pipeline it uses
    manifest = BUNDLE["zq-async-app/META-INF/cics.xml"]
    assert list(resources(manifest)) == ["ZQPIPEX", "ZQURIM1", "ZQTR", "zq-async-app"]  # its resources and its id
    # a <define> of another kind of document, or an element that only refers to a name, defines nothing here
    assert list(resources('<define name="ZQOTHER" type="text/plain"/>\n<ref name="ZQREF"/>')) == []


def test_a_bundle_is_renamed_with_its_file_names_and_references(tmp_path):
    root = _write(tmp_path / "app", BUNDLE)
    out, m = _rename(root, tmp_path)
    new, cls = m["identifiers"], m["classes"]
    assert cls["ZQPIPEX"] == "resource" and cls["ZQURIM1"] == "resource"
    urimap = (out / new["zq-async-app"] / f"{new['ZQURIM1']}.urimap").read_text()
    assert f'name="{new["ZQURIM1"]}" pipeline="{new["ZQPIPEX"]}"' in urimap and 'transaction="CPIH"' in urimap
    assert not (out / "zq-async-app").exists()  # the bundle's directory carries its id
    manifest = (out / new["zq-async-app"] / "META-INF" / "cics.xml").read_text()
    assert f'path="{new["ZQPIPEX"]}.pipeline"' in manifest and "ZQTR" not in manifest
    rep = _verify(root, out, tmp_path)
    assert rep["ok"] and rep["leftover_count"] == 0 and rep["leak_left"] == 0


def test_standards_and_products_keywords_are_general():
    # XML Schema, WSDL and the web services assistant's namespace prefixes; CICS bundles and Eclipse;
    # HTML; the Java standard library, alone or in a compound
    for word in (
        "APPINFO",
        "NILLABLE",
        "MINOCCURS",
        "PORTTYPE",
        "REQNS",
        "RESNS",
        "SMW2INT",
        "LOCALQ",
        "BUNDLEMICROVER",
        "MICROVERSION",
        "PREFS",
        "META",
        "HREF",
        "PRINTLN",
        "ITERATOR",
        "CHILDITERATOR",
    ):
        assert is_general(word), word
    assert is_general("30T15")  # the day and hour of an ISO 8601 time stamp
    for word in ("ZQPIPEX", "ZQURIM1", "NOTAUTHORISEDEXCEPTION"):
        assert not is_general(word), word


def test_a_lower_camel_case_compound_of_general_words_is_general():
    assert camel_general("numberOfAccounts") and camel_general("getCustomerName2")
    # a capitalised compound names a product or a class; a hump that is nobody's word is distinctive
    assert not camel_general("CardDemo") and not camel_general("zqAccounts") and not camel_general("numberOfZqx")
    assert not camel_general("number")  # one word is the vocabulary's business


def test_what_java_imports_from_outside_the_corpus_is_the_librarys():
    src = "package zq.bank;\nimport com.acme.server.ZqDeniedException;\nimport static org.zq.Util.zqHelp;\n"
    src += "import zq.bank.model.ZqLedger;\nimport java.util.*;\n"
    assert imported_names(src, {"zq/bank/model", "bank/model", "model"}) == {"ZQDENIEDEXCEPTION", "UTIL", "ZQHELP"}


def test_the_leak_report_does_not_count_a_library_class_or_a_camel_compound(tmp_path):
    java = (
        "package zq;\nimport com.acme.server.ZqDeniedException;\nclass ZqLedgerx {\n  short numberOfAccounts;\n"
        "  void zqPost() throws ZqDeniedException { numberOfAccounts++; numberOfAccounts--; zqPost(); zqPost(); }\n"
        "  void zqTwo() throws ZqDeniedException { throw new ZqDeniedException(); }\n}\n"
    )
    snap = snapshot_directory(_write(tmp_path / "j", {"src/zq/ZqLedgerx.java": java}), name="zq-leak-java")
    marks = distinctive_words(snap)
    assert "ZQPOST" in marks and "ZQDENIEDEXCEPTION" not in marks and "NUMBEROFACCOUNTS" not in marks
