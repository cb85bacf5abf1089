"""The product's name spelled out: "CICS Banking Sample Application (CBSA)", "General insurance
application (GenApp)". ``--scrub-prose`` renames the short name as a token, but its expansion is made
of English and general words, which are kept everywhere else; so the expansion is renamed as a
phrase, wherever its words occur in a row, word by word with new tokens of the words' shapes.

An expansion is read where a document introduces the product's short name the way texts introduce
an abbreviation, ``Long Form (SHORT)`` or ``SHORT (Long Form)``, by the rule of Schwartz and Hearst
(A simple algorithm for identifying abbreviation definitions in biomedical text, PSB 2003): the short
name's letters and digits are found in the long form in order, scanning from its end, and the first one
begins a word; the expansion runs from that word to the parenthesis. Only the product's names are
expanded: a short name a README title defines, or the name ``readme_title_words`` takes from a title.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from groundjudge.grounding.snapshot import Snapshot
from groundjudge.rename.generate import TokenRules, generate
from groundjudge.rename.leak import WORD_RE, is_document, is_general, readme_title_words, readme_titles
from groundjudge.rename.lexer import in_spans, token_spans
from groundjudge.rename.models import PHRASE_CLASS

if TYPE_CHECKING:  # mapping plans the phrases' tokens with ``phrase_tokens``: a run-time import would be circular
    from groundjudge.rename.mapping import Lookup

MIN_SHORT = 3  # a two-letter name (MQ) abbreviates too many phrases to say which one is the product
MIN_WORD = 3  # "of", "a" inside an expansion identify nothing, and a one-letter token has no room to vary
PAREN_RE = re.compile(r"\(([^()\n]*)\)")
# Markdown emphasis and code marks: "**C**ICS **B**ank **S**ample **A**pplication (CBSA)" spells the
# definition letter by letter
MARKS_RE = re.compile(r"[*`]")
# between two words of a phrase: one hyphen or underscore (a repository's slug,
# cics-banking-sample-application), or blanks with at most one line break (prose wrapped by an
# editor), with emphasis marks at the words' edges
SEPARATOR = r"(?:[-_]|\**(?:[ \t]+(?:\n[ \t]*)?|\n[ \t]*)\**)"
INSIDE_WORD = r"\**"  # emphasis inside a word: **C**ICS


def window(short: str) -> int:
    """How many words before the parenthesis a long form may take (Schwartz and Hearst)."""
    return min(len(short) + 5, 2 * len(short))


def long_form(short: str, words: list[str]) -> tuple[str, ...] | None:
    """The last words of ``words`` that spell ``short``: its characters matched from the end, the
    first at a word's start, the last in the last word. None unless that takes two words or more."""
    chars = [c.lower() for c in short if c.isalnum()]
    text = " ".join(words).lower()
    i = len(text)
    last = -1
    for k in range(len(chars) - 1, -1, -1):
        i -= 1
        while i >= 0 and not (text[i] == chars[k] and (k > 0 or i == 0 or text[i - 1] == " ")):
            i -= 1
        if i < 0:
            return None
        last = max(last, i)
    if " " in text[last:]:
        return None  # a word after the last match: the parenthesis does not close this long form
    span = words[text[:i].count(" ") :]
    return tuple(w.upper() for w in span) if len(span) >= 2 else None


def definitions(line: str) -> list[tuple[str, tuple[str, ...]]]:
    """(short name, upper-cased long form) of each abbreviation ``line`` defines, ``Long Form (SHORT)``
    or ``SHORT (Long Form)``."""
    line = MARKS_RE.sub("", line)
    found = []
    for m in PAREN_RE.finditer(line):
        inside, before = WORD_RE.findall(m.group(1)), WORD_RE.findall(line[: m.start()])
        if len(inside) == 1 and m.group(1).strip() == inside[0]:
            short, form = inside[0], long_form(inside[0], before[-window(inside[0]) :])
        elif before and len(inside) <= window(before[-1]):
            short, form = before[-1], long_form(before[-1], inside)
        else:
            continue
        if form and len(short) >= MIN_SHORT:
            found.append((short.upper(), form))
    return found


def product_phrases(snapshot: Snapshot) -> tuple[set[str], set[tuple[str, ...]]]:
    """The short names README titles define with their expansion ("Zorbix Widget Toolkit (ZWT)"; a
    general word, "Job Control Language (JCL)", names no product), and the expansions the documents
    give to the product's names: these and the titles' names (``readme_title_words``)."""
    titled = {short for title in readme_titles(snapshot) for short, _ in definitions(title) if not is_general(short)}
    shorts = titled | readme_title_words(snapshot)
    forms: set[tuple[str, ...]] = set()
    for entry in snapshot.files:
        if entry.kind == "text" and is_document(entry.path):
            for line in snapshot.read_text(entry.path).splitlines():
                forms.update(form for short, form in definitions(line) if short in shorts)
    return titled, forms


def phrase_tokens(phrases: Iterable[tuple[str, ...]], renamed: dict[str, str], rules: TokenRules, seed: int) -> dict[str, str]:
    """Each phrase (its words joined by a space) -> its replacement. A word renamed already (a prose
    name such as Zorbix, in ``renamed``: upper-cased original -> new token) keeps its token, so it reads
    the same inside and outside the phrase; a word shorter than ``MIN_WORD`` stays; every other word
    gets a new token, the same in every phrase, drawn under the identifiers' rules and distinct from
    their tokens."""
    phrases = sorted(set(phrases))
    words = sorted({w for p in phrases for w in p if len(w) >= MIN_WORD and w not in renamed})
    taken = replace(rules, corpus_tokens=rules.corpus_tokens | {t.upper() for t in renamed.values()})
    # a stream of its own: restarting the identifiers' stream would give the first phrase word the
    # letters the first identifier drew, a pattern repeated across the tree
    stream = int.from_bytes(hashlib.sha256(f"phrase {seed}".encode()).digest()[:8], "big")
    tokens, _ = generate([(w, "prose", []) for w in words], taken, stream)
    table = {w: t.upper() for w, t in renamed.items()} | tokens
    return {" ".join(p): " ".join(table.get(w, w) for w in p) for p in phrases}


class Phrases:
    """Finds the phrases of a map in a text, and replaces them character by character in the case of
    each occurrence. Characters renaming changes anyway (a renamed name, whole or as a part of a
    token) are left to it, so a token the map renames reads the same wherever a phrase crosses it."""

    def __init__(self, phrases: dict[str, str]):
        self.table = {_letters(p): _letters(new) for p, new in phrases.items() if p != new}
        alternatives = sorted((p.split() for p in phrases if _letters(p) in self.table), key=lambda w: (-len(" ".join(w)), w))
        body = "|".join(SEPARATOR.join(INSIDE_WORD.join(map(re.escape, w)) for w in words) for words in alternatives)
        self.regex = re.compile(rf"(?<![A-Za-z0-9])(?:{body})(?![A-Za-z0-9])", re.I) if body else None

    def find(self, text: str) -> list[re.Match[str]]:
        return list(self.regex.finditer(text)) if self.regex else []

    def apply(
        self, text: str, lang: str, lookup: Lookup, data: Sequence[tuple[int, int]] = (), data_lookup: Lookup | None = None
    ) -> tuple[str, int]:
        """``text`` with every phrase replaced, and how many were (a phrase inside a renamed name is the
        name's). Inside the ``data`` spans ``data_lookup`` applies, and a view that leaves phrases
        alone (a Python data string) keeps them."""
        matches = self.find(text)
        if not matches:
            return text, 0
        left = _renamed_positions(text, lang, matches, lookup, data, data_lookup)
        chars = list(text)
        replaced = 0
        for m in matches:
            new = iter(self.table[_letters(m.group(0))])
            mine = [pos for pos in range(m.start(), m.end()) if _is_word_char(text[pos])]
            for pos, c in zip(mine, new):
                if pos not in left:
                    chars[pos] = c.lower() if text[pos].islower() else c
            replaced += any(pos not in left for pos in mine)
        return "".join(chars), replaced

    def kept(self, offset: int, data: Sequence[tuple[int, int]], data_lookup: Lookup | None) -> bool:
        """A phrase at ``offset`` is data the map keeps as it is (a Python data string)."""
        return data_lookup is not None and PHRASE_CLASS in data_lookup.dropped and in_spans(data)(offset)


def _is_word_char(c: str) -> bool:
    return c.isascii() and c.isalnum()


def _letters(phrase: str) -> str:
    return "".join(c for c in phrase if _is_word_char(c)).upper()


def _renamed_positions(
    text: str,
    lang: str,
    matches: list[re.Match[str]],
    lookup: Lookup,
    data: Sequence[tuple[int, int]],
    data_lookup: Lookup | None,
) -> set[int]:
    """Offsets inside the matches that renaming replaces, or that data keeps."""
    out: set[int] = set()
    inside = in_spans(data)
    for a, b in token_spans(text, lang):
        if not any(m.start() < b and a < m.end() for m in matches):
            continue
        here = data_lookup if data_lookup is not None and inside(a) else lookup
        if PHRASE_CLASS in here.dropped:
            out.update(range(a, b))
        else:
            out.update(a + i for s, e in here.replaced(text[a:b]) for i in range(s, e))
    return out
