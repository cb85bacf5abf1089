"""Properties of the COBOL extractor on generated card images, and determinism of a whole build."""

from __future__ import annotations

import itertools
import re

from _index_helpers import as_models, snapshot_of
from hypothesis import given, settings
from hypothesis import strategies as st

from groundjudge.grounding.index import load_index
from groundjudge.grounding.index.cobol import index_cobol
from groundjudge.grounding.index.cobol_treesitter import facts
from groundjudge.grounding.index.pool import run_timed
from groundjudge.grounding.snapshot import snapshot_directory

FRAGMENTS = [
    "IDENTIFICATION DIVISION.",
    "PROGRAM-ID. GEN1.",
    "PROGRAM-ID GEN2",
    "DATA DIVISION.",
    "WORKING-STORAGE SECTION.",
    "01  WS-A PIC X(10).",
    "05  WS-B PIC S9(7)V99 COMP-3.",
    "88  WS-OK VALUE 'Y'.",
    "01  WS-C",
    "VALUE 'ABC",
    "PIC 9.",
    "PROCEDURE DIVISION.",
    "MAIN-PARA.",
    "A-SECTION SECTION.",
    "PERFORM SUB-PARA",
    "PERFORM X THRU Y.",
    "EXEC CICS",
    "READ DATASET('F1')",
    "END-EXEC",
    "EXEC SQL SELECT A FROM T1",
    "COPY BOOK1.",
    "CALL 'P1' USING A.",
    "GO TO",
    "STOP RUN.",
    "END PROGRAM GEN1.",
    ".",
    "'",
    "x",
    "SUB-PARA.",
    "OPEN INPUT F1 OUTPUT F2",
    "WRITE REC.",
    ">>SOURCE FORMAT FREE",
    ">>SOURCE FIXED",
    '$SET SOURCEFORMAT"FREE"',
    "*> free-format comment",
    ">>D DISPLAY 'T'",
    "PERFORM SUB-PARA " + "X" * 70,
]
CARD = st.tuples(
    st.sampled_from(["      ", "000100", "\t", "", "ab"]),
    st.sampled_from([" ", " ", " ", "*", "/", "D", "-", ""]),
    st.sampled_from(["", " ", "    ", "\t"]),
    st.sampled_from(FRAGMENTS),
).map(lambda t: "".join(t))


@settings(max_examples=60, deadline=None)
@given(st.lists(CARD, max_size=30), st.booleans())
def test_any_card_deck_gives_in_range_non_overlapping_results(cards, copybook):
    text = "\n".join(cards)
    path = "gen/GEN.cpy" if copybook else "gen/GEN.cbl"
    n = len(text.splitlines())
    got = as_models(index_cobol(path, text, None))
    for s in got.symbols:
        assert 1 <= s.start_line <= s.end_line <= max(n, 1), s
    for r in got.refs:
        assert 1 <= r.line <= n and r.target, r
    paras = sorted((s.start_line, s.end_line) for s in got.symbols if s.kind == "paragraph")
    for (_a_start, a_end), (b_start, _) in itertools.pairwise(paras):
        assert a_end < b_start
    keys = [(s.kind, s.name, s.start_line) for s in got.symbols]
    assert len(keys) == len(set(keys))


@settings(max_examples=15, deadline=None)
@given(st.lists(CARD, min_size=1, max_size=25))
def test_merging_tree_sitter_never_loses_a_lexical_symbol(cards):
    text = "\n".join(cards)
    # the grammar runs where it always runs, in a worker under a time limit, never in the test process
    ((_, ts),) = list(run_timed(facts, [("deck", (text, None), 20.0)], workers=1))
    assert isinstance(ts, dict), ts  # padded and pre-processed input parses within the limit
    lexical = {(s.kind, s.name, s.start_line) for s in as_models(index_cobol("g.cbl", text, None)).symbols}
    merged = {(s.kind, s.name, s.start_line) for s in as_models(index_cobol("g.cbl", text, ts)).symbols}
    assert lexical <= merged


def test_two_builds_answer_identically(tmp_path, monkeypatch):
    snap = snapshot_of(tmp_path, "cobol", "langs", "jcl")
    first = load_index(snap)
    answers = (first.files(), first.definitions(), first.references(), first.search("PERFORM", limit=50))
    first.close()
    monkeypatch.setenv("GROUNDJUDGE_HOME", str(tmp_path / "other-home"))
    again = load_index(snapshot_directory(tmp_path / "corpus"))
    assert again.cached is False
    assert (again.files(), again.definitions(), again.references(), again.search("PERFORM", limit=50)) == answers
    again.close()


EXEC_PIECES = [
    "EXEC",
    "exec",
    "END-EXEC",
    "end-exec",
    "X-EXEC",
    "EXEC_",
    " ",
    "  ",
    "\t",
    "\n",
    ".",
    " .",
    "CICS",
    "cics",
    "SQL",
    "DLI",
    "DLIX",
    "READ",
    "-",
    "_",
    "A",
    "9",
    "é",
    "ß",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(EXEC_PIECES), max_size=40))
def test_the_fast_exec_block_search_finds_what_the_plain_regex_finds(pieces):
    from groundjudge.grounding.index.cobol_treesitter import _EXEC, _exec_spans

    body = "".join(pieces)
    assert _exec_spans(body, body.upper()) == [m.span() for m in _EXEC.finditer(body)]


REPLACING_PIECES = [
    "COPY",
    "copy",
    "XCOPY",
    "COPY_",
    " ",
    "  ",
    "\n",
    ".",
    ". ",
    "BOOK",
    "OF",
    "in",
    "LIB",
    "REPLACING",
    "replacing",
    "REPLACINGS",
    "==A==",
    "BY",
    "==B==",
    "-",
    "_",
    "é",
    "ß",
    # whole statements, which random pieces seldom make
    "COPY BOOK REPLACING ==A== BY ==B==. ",
    "copy book of lib\n replacing a by b.",
    "X-COPY B REPLACING X. ",
    "COPY_B REPLACING X. ",
    "COPY B IN L REPLACING X.\n",
    "COPY B REPLACINGX. ",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(REPLACING_PIECES), max_size=40))
def test_the_fast_replacing_cut_blanks_what_the_plain_regex_blanks(pieces):
    from groundjudge.grounding.index.cobol_treesitter import _REPLACING, _blank, _cut_replacing

    body = "".join(pieces)
    assert _cut_replacing(body) == _REPLACING.sub(lambda m: m.group(1) + _blank(m.group(2)), body)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(["COMP", "BINARY", "INDEX", "POINTER", "NATIONAL", "PACKED-DECIMAL", "PACKED", "CO", "X", " "]),
        max_size=6,
    ).map("".join)
)
def test_the_usage_word_test_is_a_search_for_any_usage_literal(upper):
    from groundjudge.grounding.index.cobol_lexical import _may_hold_usage

    assert _may_hold_usage(upper) == bool(re.search("COMP|BINARY|PACKED-DECIMAL|INDEX|POINTER|NATIONAL", upper))


def _ends_sentence_by_hand(text: str) -> bool:
    """The rule spelled out: a period followed by a blank or the end of text, outside a literal."""
    quote = None
    for i, ch in enumerate(text):
        if quote:
            quote = None if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "." and text[i + 1 : i + 2] in ("", " ", "\t"):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="AB. \t\n'\"-", max_size=30))
def test_ends_sentence_follows_the_rule(text):
    from groundjudge.grounding.index.cobol_lexical import ends_sentence

    assert ends_sentence(text) == _ends_sentence_by_hand(text)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=8), st.text(max_size=12), max_size=5))
def test_detail_json_is_what_json_dumps_writes(detail):
    import json

    from groundjudge.grounding.index.store import _detail_json

    assert _detail_json(detail) == json.dumps(detail, sort_keys=True)


WORD_PIECES = [
    "PERFORM",
    "GO",
    "READ",
    "REWRITE",
    "COPY",
    "EXEC",
    "PROCEDURE",
    "DIVISION",
    "X-",
    "-",
    "_",
    "A",
    "9",
    " ",
    "\t",
    ".",
    "é",
    "procedure",
    "division",
    "\n",
]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(WORD_PIECES), max_size=25))
def test_search_word_stands_in_for_the_leading_assertions(pieces):
    import re

    from groundjudge.grounding.index.cobol_lexical import _TRIGGER
    from groundjudge.grounding.index.cobol_source import PROCEDURE_DIVISION, search_word
    from groundjudge.grounding.index.cobol_treesitter import _PROCEDURE_UPPER

    text = "".join(pieces)
    trigger = re.compile(r"(?<![\w-])(?:PERFORM|CALL|GO|OPEN|READ|WRITE|REWRITE|COPY|EXEC)(?![\w-])")
    assert _span(search_word(_TRIGGER, text, joiners="_-")) == _span(trigger.search(text))
    if text.isascii():
        assert _span(search_word(_PROCEDURE_UPPER, text.upper())) == _span(PROCEDURE_DIVISION.search(text))


def _span(m):
    return m.span() if m else None


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="AB \t\n\r.é", max_size=30))
def test_blanking_keeps_only_newlines(text):
    import re

    from groundjudge.grounding.index.cobol_treesitter import _blank

    assert _blank(text) == re.sub(r"[^\n]", " ", text)


# The tokeniser's rule spelled out without its speed-up (the blanks before a token eaten in one step).
_TOKEN_RULE = (
    r"""(?P<string>[XxNnGgZz]?"(?:[^"]|"")*"?|[XxNnGgZz]?'(?:[^']|'')*'?)"""
    r"""|(?P<word>[A-Za-z0-9_#@$:][A-Za-z0-9_#@$:-]*(?:\.[A-Za-z0-9_#@$-]+)*)"""
    r"""|(?P<punct>[().,;=<>*+/&|-])"""
)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="AXx9-_:. \t'\"(),=!?", max_size=40))
def test_tokens_follow_the_rule(text):
    import re

    from groundjudge.grounding.index.cobol_source import Segment, Tokens

    expected = [(s or w or p, 7, "word" if w else "string" if s else "punct") for s, w, p in re.findall(_TOKEN_RULE, text)]
    toks = Tokens([Segment(7, text, 11, 7)])
    assert [tuple(t) for t in toks.span(0, len(toks))] == expected
    assert toks.words == [t.upper() if kind == "word" else None for t, _, kind in expected]
