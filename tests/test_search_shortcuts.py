"""The two shortcuts the verifier takes past a regex search (c171ddf) find exactly what the regex finds:
Lookup._find_word (str.find and a boundary check by hand, for word_pattern(name).search), and claims.Stemmed
(a pattern skipped in an ASCII text that holds none of its stems). Each is compared with the search it
stands for, on generated text and on every unit of the grounding bench's answers."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groundjudge.grounding import claims, verify
from groundjudge.grounding.claims import Stemmed
from groundjudge.grounding.lookup import Lookup, word_pattern

ANSWERS = sorted((Path(__file__).resolve().parent.parent / "bench" / "grounding_set").glob("*/answers/*.md"))


class _NoIndex:
    def file_info(self, path: str) -> None:
        return None


def _find(text: str, name: str, at: int, limit: int) -> int:
    lookup = Lookup(_NoIndex())
    lookup._joined_text["f"] = (text, [0])  # what _joined reads a file's lines into
    return lookup._find_word("f", name, at, limit)


def _regex(text: str, name: str, at: int, limit: int) -> int:
    m = word_pattern(name).search(text, at, limit)
    return -1 if m is None else m.start()


# names and text built from the characters the boundary rules turn on: word characters, hyphens, dots, case,
# and letters whose case folds differ between re.I and str.upper (the Kelvin sign, the long s, the dotless i)
NAMES = st.sampled_from(["ab", "AB", "A-B", "a_b", "AB1", "a.b", "X", "K", "S", "\u212a", "\u017f", "ı", "ÄB"])
TEXT = st.text(alphabet="abABK-_.1 \n\u212a\u017fıäÄxX", max_size=40)


@settings(max_examples=3000, deadline=None)
@given(text=TEXT, name=NAMES, at=st.integers(0, 40), cut=st.integers(0, 40))
def test_find_word_finds_what_the_word_pattern_finds(text, name, at, cut):
    at, limit = min(at, len(text)), max(min(at, len(text)), len(text) - cut)
    assert _find(text, name, at, limit) == _regex(text, name, at, limit)


@pytest.mark.parametrize(
    ("text", "name", "expected"),
    [
        ("PERFORM A-B.", "A-B", 8),
        ("PERFORM A-BC.", "A-B", -1),  # a longer name
        ("perform a-b.", "A-B", 8),  # a COBOL name in any case
        ("x_ab ab", "ab", 5),
        ("call \u212a", "K", 5),  # re.I folds the Kelvin sign to k; the regex decides for a non-ASCII text
    ],
)
def test_find_word_cases(text, name, expected):
    assert _find(text, name, 0, len(text)) == _regex(text, name, 0, len(text)) == expected


STEMMED = {
    **{f"claims cue {relation}": pattern for relation, pattern in claims._CUES},
    **{name: value for name, value in vars(verify).items() if isinstance(value, Stemmed)},
}


@pytest.mark.parametrize("name", sorted(STEMMED))
def test_a_stemmed_pattern_finds_what_its_regex_finds_in_every_bench_answer(name):
    stemmed = STEMMED[name]
    lines = [line for path in ANSWERS for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(lines) > 5000
    for line in lines:
        assert [m.span() for m in stemmed.finditer(line)] == [m.span() for m in stemmed.pattern.finditer(line)], line
