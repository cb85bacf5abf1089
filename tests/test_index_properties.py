"""Properties of the COBOL extractor on generated card images, and determinism of a whole build."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from _index_helpers import snapshot_of
from grounding.index import load_index
from grounding.index.cobol import index_cobol
from grounding.index.cobol_treesitter import facts
from grounding.index.pool import run_timed
from grounding.snapshot import snapshot_directory

FRAGMENTS = [
    "IDENTIFICATION DIVISION.", "PROGRAM-ID. GEN1.", "PROGRAM-ID GEN2", "DATA DIVISION.", "WORKING-STORAGE SECTION.",
    "01  WS-A PIC X(10).", "05  WS-B PIC S9(7)V99 COMP-3.", "88  WS-OK VALUE 'Y'.", "01  WS-C", "VALUE 'ABC", "PIC 9.",
    "PROCEDURE DIVISION.", "MAIN-PARA.", "A-SECTION SECTION.", "PERFORM SUB-PARA", "PERFORM X THRU Y.", "EXEC CICS",
    "READ DATASET('F1')", "END-EXEC", "EXEC SQL SELECT A FROM T1", "COPY BOOK1.", "CALL 'P1' USING A.", "GO TO",
    "STOP RUN.", "END PROGRAM GEN1.", ".", "'", "x", "SUB-PARA.", "OPEN INPUT F1 OUTPUT F2", "WRITE REC.",
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
    got = index_cobol(path, text, None)
    for s in got.symbols:
        assert 1 <= s.start_line <= s.end_line <= max(n, 1), s
    for r in got.refs:
        assert 1 <= r.line <= n and r.target, r
    paras = sorted((s.start_line, s.end_line) for s in got.symbols if s.kind == "paragraph")
    for (a_start, a_end), (b_start, _) in zip(paras, paras[1:]):
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
    lexical = {(s.kind, s.name, s.start_line) for s in index_cobol("g.cbl", text, None).symbols}
    merged = {(s.kind, s.name, s.start_line) for s in index_cobol("g.cbl", text, ts).symbols}
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
