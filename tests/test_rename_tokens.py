"""Token rules, shape and case transfer, and the token generator's refusals."""

from __future__ import annotations

import random

import pytest

import groundjudge.rename.generate as gen
from groundjudge.errors import UserError
from groundjudge.grounding.index.registry import reserved_words
from groundjudge.rename.generate import TokenRules, draw, generate, refusal
from groundjudge.rename.lexer import recase, shape, substitute, tokens


def _rules(**kw) -> TokenRules:
    base = dict(corpus_tokens=set(), reserved=frozenset(), keep_terms=[], originals=[], program_names=set())
    base.update(kw)
    return TokenRules(**base)


def test_cobol_words_keep_their_hyphens():
    line = "       MOVE ACCT TO WS-ACCT-ID ACCT-ID. CALL 'ACCT'"
    assert list(tokens(line, "cobol")) == ["MOVE", "ACCT", "TO", "WS-ACCT-ID", "ACCT-ID", "CALL", "ACCT"]


@pytest.mark.parametrize(
    "mapping, expected",
    [
        ({"ACCT": "QZXW"}, "MOVE QZXW TO WS-ACCT-ID ACCT-ID qzxw"),
        ({"ACCT-ID": "QZXW-PL"}, "MOVE ACCT TO WS-ACCT-ID QZXW-PL acct"),
        ({"WS-ACCT-ID": "XY-QZXW-PL"}, "MOVE ACCT TO XY-QZXW-PL ACCT-ID acct"),
    ],
)
def test_whole_token_replacement_never_touches_a_longer_hyphenated_name(mapping, expected):
    text = "MOVE ACCT TO WS-ACCT-ID ACCT-ID acct"
    up = {k.upper(): v for k, v in mapping.items()}
    assert substitute(text, "cobol", lambda t: recase(up[t.upper()], t) if t.upper() in up else None) == expected


def test_fixed_format_fields_are_token_borders():
    # code running to column 72 and the identification area from column 73 are two tokens, not one
    code = "MOVE X TO ACCT-ID".rjust(65)
    line = "000100 " + code + "ACCTPGM1"
    assert len(line) == 80 and line[71] == "D" and line[72] == "A"
    assert list(tokens(line, "cobol"))[-2:] == ["ACCT-ID", "ACCTPGM1"]
    # a numeric sequence area followed by a debug or continuation indicator is its own field
    assert list(tokens("000200DMOVE ACCT", "cobol")) == ["000200", "D", "MOVE", "ACCT"]
    # free-format source has no fields
    free = ">>SOURCE FORMAT FREE\n" + "X" * 70 + "ACCT\n"
    assert list(tokens(free, "cobol"))[-1] == "X" * 70 + "ACCT"
    micro_focus = '       $SET SOURCEFORMAT"FREE"\n' + "X" * 70 + "ACCT\n"
    assert list(tokens(micro_focus, "cobol"))[-1] == "X" * 70 + "ACCT"
    # a directive quoted in a comment line switches nothing: the fields stay
    quoted = "000100* SEE >>SOURCE FORMAT FREE\n" + "X" * 70 + "ACCT\n"
    assert list(tokens(quoted, "cobol"))[-2:] == ["X" * 70 + "AC", "CT"]


def test_code_languages_treat_hyphen_as_an_operator():
    assert list(tokens("total = acct_id-acct", "code")) == ["total", "acct_id", "acct"]


def test_shape_and_recase():
    assert shape("Ws-Acct_9x") == "Aa-Aaaa_9a"
    assert recase("QZXW-PL", "acct-Id") == "qzxw-Pl"


def test_draw_keeps_the_shape_and_is_seeded():
    for original in ("ACCT-ID", "1000-INIT", "calc_total2", "CBACT01C", "Acctpgm"):
        a = draw(original, random.Random(3), "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        b = draw(original, random.Random(3), "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        assert a == b and shape(a) == shape(original) and len(a) == len(original)


def _seed_whose_first_draw_is(word: str, original: str, letters: str) -> int:
    for seed in range(10_000):
        if draw(original, random.Random(seed), letters) == word:
            return seed
    raise AssertionError("no seed found")


def test_a_keep_term_the_generator_would_produce_is_refused():
    # with the alphabet {C, A, T} a 3-letter name draws CAT with probability 1/27: pick the seed whose
    # very first draw is CAT and show the generator refuses it and moves on
    seed = _seed_whose_first_draw_is("CAT", "XYZ", "CAT")
    mapping, rejections = generate([("XYZ", "program", [])], _rules(keep_terms=["CAT"]), seed, letters="CAT")
    assert (rejections[0].candidate, rejections[0].reason) == ("CAT", "contains keep term CAT")
    assert mapping["XYZ"] != "CAT" and "CAT" not in mapping["XYZ"]


def test_a_keep_term_inside_a_longer_token_is_refused():
    seed = _seed_whose_first_draw_is("TCAT", "WXYZ", "CAT")
    mapping, rejections = generate([("WXYZ", "program", [])], _rules(keep_terms=["CAT"]), seed, letters="CAT")
    assert (rejections[0].candidate, rejections[0].reason) == ("TCAT", "contains keep term CAT")
    assert "CAT" not in mapping["WXYZ"]


def test_refusal_reasons():
    rules = _rules(corpus_tokens={"QQQQ"}, reserved=reserved_words(), keep_terms=["LOAN"], originals=["ACCT"])
    assert refusal("QQQQ", rules, set()) == "already a token of the corpus"
    assert refusal("qqqq", rules, set()) == "already a token of the corpus"
    assert refusal("ZZZZ", rules, {"ZZZZ"}) == "already issued"
    assert refusal("MOVE", rules, set()) == "reserved word"
    assert refusal("DFHXQ", rules, set()) == "system prefix"
    assert refusal("EIBZQ", rules, set()) == "system prefix"
    assert refusal("QLOANQ", rules, set()) == "contains keep term LOAN"
    assert refusal("QXMOVEQ", rules, set()) == "contains reserved word MOVE"
    assert refusal("ZACCTZ", rules, set()) == "contains original identifier ACCT"
    assert refusal("QZXJQ", rules, set()) is None


def test_program_names_stay_unique_in_their_first_8_characters(monkeypatch):
    script = iter(["ABCDEFGHZ", "QRSTUVWXZ"])
    monkeypatch.setattr(gen, "draw", lambda original, rng, letters: next(script))
    rules = _rules(program_names={"ABCDEFGHIJ", "PROGNAME1"})
    mapping, rejections = generate([("PROGNAME1", "program", [])], rules, 1)
    assert [(r.candidate, r.reason) for r in rejections] == [("ABCDEFGHZ", "first 8 characters repeat a program name")]
    assert mapping == {"PROGNAME1": "QRSTUVWXZ"}


def test_derived_forms_must_pass_the_rules_too(monkeypatch):
    # map M -> T would make the symbolic map TI, already a token of the corpus: T is drawn again
    script = iter(["QWERT", "ZXCVB"])
    monkeypatch.setattr(gen, "draw", lambda original, rng, letters: next(script))
    mapping, rejections = generate([("MAPAA", "bms_map", ["+I", "+O"])], _rules(corpus_tokens={"QWERTI"}), 1)
    assert rejections[0].candidate == "QWERT" and rejections[0].reason.startswith("derived QWERTI")
    assert mapping == {"MAPAA": "ZXCVB"}


def test_an_exhausted_name_space_is_a_user_error():
    with pytest.raises(UserError, match="cannot generate a token for 'X1'"):
        generate([("X1", "program", [])], _rules(corpus_tokens={f"A{d}" for d in range(10)}), 1, letters="A")


def test_generation_is_deterministic_and_injective():
    names = [(f"ACCT{i:02d}", "program", []) for i in range(40)]
    rules = _rules(reserved=reserved_words(), originals=[n for n, _, _ in names])
    a, _ = generate(names, rules, 42)
    b, _ = generate(names, rules, 42)
    c, _ = generate(names, rules, 43)
    assert a == b and a != c
    assert len({v.upper() for v in a.values()}) == 40
    assert all(shape(k) == shape(v) for k, v in a.items())


def test_a_token_containing_an_english_word_is_refused():
    # AURAM36X (drawn for BKRPT03C by an earlier version) reads AURA: a word of 4+ letters is refused,
    # a 3-letter one is not (too many to avoid, too short to read as a cue)
    rules = _rules(words=frozenset({"AURA", "CASH", "ZAP"}))
    assert refusal("AURAM36X", rules, set()) == "contains English word AURA"
    assert refusal("QCASHZ", rules, set()) == "contains English word CASH"
    assert refusal("QZAPQ", rules, set()) is None
