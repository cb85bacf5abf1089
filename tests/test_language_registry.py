"""The language registry (grounding/index/registry.py, data in grounding/index/languages/): each language's
extensions, the one lookup the index, the claim extractor and the renamer share, and the ASSIGN rule."""

from __future__ import annotations

import pytest

from groundjudge.grounding.claims import extract_refs
from groundjudge.grounding.index.registry import (
    Kind,
    assign_dd,
    case_insensitive,
    grammar_for,
    kind_of,
    kind_of_path,
    language,
    languages,
    needs_parser,
    reserved_words,
    split_assign,
)
from groundjudge.rename.lexer import language_of, sniff

EXTENSIONS = {
    Kind.COBOL: {".cbl", ".cob", ".cpy", ".cobol", ".ccp", ".cbk", ".copy", ".sqb", ".pco"},
    Kind.JCL: {".jcl", ".proc", ".prc", ".cntl"},
    Kind.BMS: {".bms"},
    Kind.PYTHON: {".py", ".pyi"},
    Kind.JAVA: {".java"},
    Kind.JAVASCRIPT: {".js", ".jsx", ".mjs"},
    Kind.TYPESCRIPT: {".ts", ".tsx"},
    Kind.GO: {".go"},
    Kind.C: {".c", ".h"},
    Kind.CPP: {".cc", ".cpp", ".hpp"},
    Kind.RUST: {".rs"},
    Kind.KOTLIN: {".kt"},
    Kind.CSHARP: {".cs"},
    Kind.SQL: {".sql", ".ddl"},
}


def test_every_kind_has_a_data_file_and_its_extensions():
    assert set(languages()) == set(Kind)
    for kind, extensions in EXTENSIONS.items():
        assert set(language(kind).extensions) == extensions
        for ext in extensions:
            assert kind_of_path(f"src/X{ext.upper()}") is kind


@pytest.mark.parametrize(
    ("path", "text", "kind"),
    [
        ("app/proc/REPROC.prc", "", Kind.JCL),
        ("app/jcl/RUN", "//RUN JOB\n", Kind.JCL),  # no extension: the leading // says JCL
        ("notes/RUN", "RUN\n", Kind.TEXT),
        ("tools/x.py", "//x", Kind.PYTHON),  # a known extension wins over the text
        ("cpy/BOOK.CBK", "", Kind.COBOL),
        ("a.b/c", "", Kind.TEXT),  # a dot in a directory is no extension
    ],
)
def test_kind_of(path, text, kind):
    assert kind_of(path, text) is kind


def test_the_index_and_the_renamer_read_a_file_alike():
    for kind in Kind:
        for ext in language(kind).extensions:
            expected = "code" if not language(kind).hyphen_in_names else kind.value
            assert language_of(f"x{ext}") == expected, ext
    assert sniff("jobs/RUN", "//RUN JOB") == "jcl"


def test_an_answer_may_cite_a_file_of_every_known_extension():
    for kind in Kind:
        for ext in language(kind).extensions:
            refs = extract_refs(f"See PROG01{ext} for it.")  # no directory: only a known extension makes it a path
            assert [(r.kind, r.text) for r in refs] == [("path", f"PROG01{ext}")], ext


def test_parsers_and_grammars():
    assert needs_parser("cobol") and needs_parser("python") and not needs_parser("jcl") and not needs_parser("text")
    assert all(needs_parser(k) for k in ("csharp", "kotlin", "rust"))  # tag queries of their own
    assert grammar_for("ui/App.tsx", "typescript") == "tsx" and grammar_for("a.ts", "typescript") == "typescript"
    assert grammar_for("a.cbl", "cobol") is None and grammar_for("m.bms", "bms") is None


def test_case_and_reserved_words():
    assert case_insensitive() == {Kind.COBOL, Kind.JCL, Kind.BMS, Kind.SQL}
    cobol = language(Kind.COBOL)
    assert {"PERFORM", "WORKING-STORAGE", "FOREVER"} <= cobol.reserved
    assert "DFHCOMMAREA" in cobol.vocabulary and "DFHCOMMAREA" not in cobol.reserved  # CICS, not COBOL itself
    assert "lambda" in language(Kind.PYTHON).reserved
    assert {"PERFORM", "DFHCOMMAREA", "IEFBR14", "DFHMDF", "LAMBDA", "SYSOUT"} <= reserved_words()


@pytest.mark.parametrize(
    ("name", "split"),
    [
        ("S-RPTOUT", ("S-", "RPTOUT")),
        ("UT-S-RPTOUT", ("UT-S-", "RPTOUT")),
        ("AS-ACCTFILE", ("AS-", "ACCTFILE")),
        ("DA-R-KEYS", ("DA-R-", "KEYS")),
        ("ut-s-rptout", ("ut-s-", "rptout")),
        ("V-X", ("V-", "X")),
        ("ACCTFILE", None),
        ("SYSOUT", None),
        ("S-", None),  # a prefix alone names no DD
        ("UT-ACCT", None),  # a device class needs an organisation after it
        ("X-S-ACCT", None),
    ],
)
def test_assign_prefix_rule(name, split):
    assert split_assign(name) == split
    assert assign_dd(name) == (split[1] if split else name)
