"""Fixed-format COBOL source as the compiler sees it: code area only, comments gone, continuations joined.

Columns 1-6 (sequence area) and 73+ are ignored; column 7 is the indicator (`*` or `/` comment, `D`
debug line, `-` continuation). Tabs are expanded first, at 8 columns, as GnuCOBOL does. Every result
keeps the 1-based physical line number it came from, so both extractors report real source lines.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from groundjudge.grounding.index.registry import cobol_indicators

CODE_START = 7  # 0-based column of area A (column 8)
CODE_END = 72
AREA_B = 11  # 0-based column 12: a header must start before it, in area A


SKIPPED = cobol_indicators("comment", "debug")  # a comment or debug line holds no code
# A NamedTuple's own constructor runs Python code; tuple.__new__ makes the same object without it.
_make = tuple.__new__


class Segment(NamedTuple):
    """One physical code line, with any continuation lines appended; `line` is where it starts."""

    line: int
    text: str  # code area text; a continued line's fragments are joined in
    column: int  # 0-based column of the first non-blank code character, in the expanded line
    end: int  # the last physical line, after any continuation lines


class Token(NamedTuple):
    text: str
    line: int
    kind: str  # "word", "string" or "punct"


# A directive choosing the reference format for the lines after it, first on its line (after a sequence
# area, in fixed format): GnuCOBOL `>>SOURCE [FORMAT] [IS] FREE`, Micro Focus `$SET SOURCEFORMAT"FREE"`.
_FORMAT_DIRECTIVE = re.compile(
    r"""^(?:[^\n]{6})?[ \t]*(?:>>[ \t]*SOURCE(?:[ \t]+FORMAT)?(?:[ \t]+IS)?[ \t]+"""
    r"""|\$[ \t]*SET[ \t]+SOURCEFORMAT[ \t]*[("']?[ \t]*)(FREE|FIXED|VARIABLE)\b""",
    re.I | re.M,
)


def _may_switch_format(text: str) -> bool:
    """False when text surely holds no format directive (both kinds start with a character code rarely has)."""
    return ">>" in text or ("$" in text and re.search(r"\$[ \t]*SET", text, re.I) is not None)


# A compiler option (`cobc -free`) can choose free format with no directive in the source. A division header
# or PROGRAM-ID (FUNCTION-ID) that starts in the sequence or indicator area (columns 1-7) cannot be fixed format, where code
# starts in column 8 and column 7 holds only an indicator.
# a COBOL program's PROCEDURE DIVISION header, where its statements start
PROCEDURE_DIVISION = re.compile(r"\bPROCEDURE\s+DIVISION\b", re.I)
_FREE_HEADER = re.compile(r"^ {0,6}(?:(?:IDENTIFICATION|ID)[ \t]+DIVISION|(?:PROGRAM|FUNCTION)-ID)[ \t]*\.", re.I | re.M)


def _implicitly_free(text: str) -> bool:
    return _FREE_HEADER.search(text.expandtabs(8) if "\t" in text else text) is not None


def is_free_format(text: str) -> bool:
    """Some of text is in free format (a directive switches to it, or its headers start before column 8)."""
    if _implicitly_free(text):
        return True
    return _may_switch_format(text) and any(m.group(1).upper() == "FREE" for m in _FORMAT_DIRECTIVE.finditer(text))


def _cards(text: str) -> list[tuple[str, str]]:
    """(indicator, code area) per physical line, tabs expanded, floating `*>` comments cut. Plain code:
    it sees every line of every COBOL file.

    Lines after a free-format directive (all lines, when the headers show free format) have no sequence or
    indicator area: the whole line is code, `*>` starts a comment line and `>>D` a debug line. Their code
    starts in column 8 of the card, so an unindented paragraph name stands in area A and statements
    indented four or more stand in area B. The directive's own line is no code."""
    blank = (" ", "")
    free = _implicitly_free(text)
    if "\t" not in text and "*>" not in text and not _may_switch_format(text) and not free:
        # the common case, nothing to expand or cut: a comprehension, cheaper than the loop
        return [(raw[6], raw[CODE_START:CODE_END]) if len(raw) > 6 else blank for raw in text.splitlines()]
    cards: list[tuple[str, str]] = []
    append = cards.append
    for raw in text.splitlines():
        if "\t" in raw:
            raw = raw.expandtabs(8)
        directive = _FORMAT_DIRECTIVE.match(raw) if ">>" in raw or "$" in raw else None
        if directive:
            free = directive.group(1).upper() == "FREE"
            append(("*", ""))
            continue
        if free:
            head = raw.lstrip()[:3].upper()
            if head.startswith("*>") or head == ">>D":
                append(("*" if head.startswith("*>") else "D", ""))
            else:
                append((" ", _cut_floating_comment(raw)))
            continue
        if len(raw) <= 6:
            append(blank)
            continue
        code = raw[CODE_START:CODE_END]
        append((raw[6], _cut_floating_comment(code) if "*>" in code else code))
    return cards


def _cut_floating_comment(code: str) -> str:
    if "*>" not in code:
        return code
    quote = None
    for i, ch in enumerate(code):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "*" and code.startswith("*>", i):
            return code[:i]
    return code


def _open_quote(text: str) -> str | None:
    """The quote character of a literal left unterminated at the end of text, if any."""
    quote = None
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
    return quote


def searchable(lines: list[str]) -> list[str]:
    """Columns 7-72 of each line (indicator and code areas, tabs expanded): what a lexical look-up should
    see. The sequence area and columns 73-80 hold numbers and tags, often the program's own name on
    every line, which would make every line of a program a hit for that name."""
    return [(raw.expandtabs(8) if "\t" in raw else raw)[6:CODE_END] for raw in lines]


def segments(text: str) -> list[Segment]:
    """Code lines of a fixed-format source; comment, debug and blank lines dropped, continuations merged."""
    return CobolSource.of(text).segments


class CobolSource:
    """One file read once as card images; both extractors and the pre-processor share it."""

    def __init__(self, text: str):
        self.text = text
        self.cards = _cards(text)
        self._segments: list[Segment] | None = None
        self._code_upper: str | None = None
        self._upper_lines: list[str] | None = None

    @staticmethod
    def of(source: str | CobolSource) -> CobolSource:
        return source if isinstance(source, CobolSource) else CobolSource(source)

    @property
    def n_lines(self) -> int:
        return len(self.cards)

    @property
    def segments(self) -> list[Segment]:
        if self._segments is None:
            self._segments = self._join()
        return self._segments

    @property
    def code_upper(self) -> str:
        """Every segment's text upper-cased, one per line (a segment never holds a line break): one regex
        search over it finds the few segments worth a Python look."""
        if self._code_upper is None:
            self._code_upper = "\n".join([seg.text for seg in self.segments]).upper()
        return self._code_upper

    @property
    def upper_lines(self) -> list[str]:
        """Each segment's text in upper case (code_upper, split)."""
        if self._upper_lines is None:
            self._upper_lines = self.code_upper.split("\n")
        return self._upper_lines

    def _join(self) -> list[Segment]:
        out: list[Segment] = []
        append = out.append
        for number, (indicator, code) in enumerate(self.cards, start=1):
            if indicator in SKIPPED:
                continue
            if indicator == "-" and out:
                prev = out[-1]
                piece = code.lstrip()
                quote = _open_quote(prev.text)
                if quote and piece.startswith(quote):
                    # A continued literal runs to column 72 and resumes after the quote on the next line.
                    joined = prev.text.ljust(CODE_END - CODE_START) + piece[1:]
                else:
                    joined = prev.text.rstrip() + piece
                out[-1] = Segment(prev.line, joined, prev.column, number)
                continue
            stripped = code.lstrip()
            if not stripped:
                continue
            append(_make(Segment, (number, code.rstrip(), CODE_START + len(code) - len(stripped), number)))
        return out


# The leading blanks are eaten in one step (possessively): without them the engine would try all three
# kinds of token at every blank of a line's indentation.
# One group, so findall returns the tokens' own text: a literal, a word, or a punctuation character.
_TOKEN = re.compile(
    r"""[ \t]*+((?:[XxNnGgZz]?"(?:[^"]|"")*"?|[XxNnGgZz]?'(?:[^']|'')*'?)"""
    r"""|[A-Za-z0-9_#@$:][A-Za-z0-9_#@$:-]*(?:\.[A-Za-z0-9_#@$-]+)*"""
    r"""|[().,;=<>*+/&|-])"""
)
_WORD_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_#@$:")


def token_kind(text: str) -> str:
    """A literal is the only token holding a quote, a word the only other one starting as a name does."""
    if "'" in text or '"' in text:
        return "string"
    return "word" if text[0] in _WORD_START else "punct"


class Tokens:
    """The tokens of some segments as parallel lists: their text, their line, and each word in upper case
    (None for a literal or punctuation). The ref reader looks at a few tokens around each verb, so a Token
    is made only for those it hands on: making one for every token costs more than the tokenising."""

    def __init__(self, segs: list[Segment]):
        texts: list[str] = []
        lines: list[int] = []
        for seg in segs:
            found = _TOKEN.findall(seg.text)
            texts += found
            lines += [seg.line] * len(found)
        self.texts, self.lines = texts, lines
        # token_kind's test for a word, written out: it runs for every token
        self.words: list[str | None] = [
            t.upper() if t[0] in _WORD_START and "'" not in t and '"' not in t else None for t in texts
        ]

    def __len__(self) -> int:
        return len(self.texts)

    def token(self, k: int) -> Token:
        return _make(Token, (self.texts[k], self.lines[k], token_kind(self.texts[k])))

    def span(self, start: int, stop: int) -> list[Token]:
        return [self.token(k) for k in range(start, min(stop, len(self.texts)))]


def search_word(pattern: re.Pattern, text: str, pos: int = 0, joiners: str = "_") -> re.Match | None:
    """pattern's first match at or after pos not preceded by a letter, digit or one of joiners.

    Stands in for a leading \\b (joiners "_") or (?<![\\w-]) (joiners "_-"): a pattern written without it
    starts with a literal, which the regex engine skips ahead to instead of trying every position.
    """
    while m := pattern.search(text, pos):
        start = m.start()
        if not start or not (text[start - 1].isalnum() or text[start - 1] in joiners):
            return m
        pos = start + 1
    return None


def lines_containing(words: tuple[str, ...], text: str) -> list[int]:
    """0-based numbers of the lines of text ("\\n"-separated) holding any of words, in order. One str.find
    scan per word: a regex alternation of the words, tried at every character, took nearly twice the
    instructions on the bench corpus."""
    hits: list[int] = []
    for word in words:
        at = text.find(word)
        while at >= 0:
            hits.append(at)
            at = text.find(word, at + len(word))
    hits.sort()
    out: list[int] = []
    pos = line = 0
    for at in hits:
        line += text.count("\n", pos, at)
        pos = at
        if not out or out[-1] != line:
            out.append(line)
    return out


def unquote(literal: str) -> str:
    """The value of a COBOL literal ('ABC  ' -> ABC), or the text itself when it is not quoted."""
    s = literal
    if len(s) >= 2 and s[0] in "XxNnGgZz" and s[1] in "'\"":
        s = s[1:]
    if s[:1] in "'\"":
        q = s[0]
        s = s[1:-1] if s.endswith(q) and len(s) > 1 else s[1:]
        s = s.replace(q + q, q)
    return s.strip()
