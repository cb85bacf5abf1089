"""Token rules per language, so that a name is only ever matched as a whole token.

COBOL, JCL, BMS and plain text: a word is a run of letters, digits, ``-`` and ``_`` (in COBOL the hyphen
belongs to the word, so ``ACCT`` and ``ACCT-ID`` are different tokens). In fixed-format COBOL the
sequence area (columns 1-6), the indicator (column 7) and the identification area (73-80) are
separate fields: a token never runs across their borders. Python, Java, JS, Go, C: letters, digits
and ``_`` only, since there ``-`` is an operator.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Sequence

from groundjudge.grounding.index.cobol_source import is_free_format  # one reading of the format directives, as the index has
from groundjudge.grounding.index.registry import Kind, kind_of, kind_of_path, language

WORD_RE = re.compile(r"[A-Za-z0-9_-]+")
CODE_WORD_RE = re.compile(r"[A-Za-z0-9_]+")


def language_of(path: str) -> str:
    """cobol, jcl, bms, code or text, from the file name (JCL also from a leading ``//``, see ``sniff``)."""
    return _token_rules(kind_of_path(path))


def sniff(path: str, text: str) -> str:
    return _token_rules(kind_of(path, text))


def _token_rules(kind: Kind) -> str:
    """Every language whose names cannot hold a hyphen is tokenised alike, as code."""
    return kind.value if language(kind).hyphen_in_names else "code"


def shape(token: str) -> str:
    """A for upper case, a for lower case, 9 for a digit, any other character as itself."""
    return "".join("A" if c.isupper() else "a" if c.islower() else "9" if c.isdigit() else c for c in token)


def recase(new: str, occurrence: str) -> str:
    """``new`` written in the case pattern of ``occurrence`` (same length, letters at the same places; a
    longer ``new``, possible only in a hand-edited map, keeps its tail so the verifier reports it whole)."""
    head = "".join(n.upper() if o.isupper() else n.lower() if o.islower() else n for n, o in zip(new, occurrence))
    return head + new[len(occurrence) :]


def _cobol_segments(line: str) -> list[tuple[int, int]]:
    """Column fields of one fixed-format line, as (start, end) offsets."""
    n = len(line)
    if n <= 6:
        return [(0, n)]
    cuts = [0]
    if line[:6].isdigit() and line[6] in "-Dd":
        cuts.append(6)
        cuts.append(7)
    if n > 72:
        cuts.append(72)
    cuts.append(n)
    return list(itertools.pairwise(cuts))


# A fixed-format line where two fields touch with word characters on both sides: the identification
# area glued to code ending in column 72, or a numeric sequence area followed by a - or D indicator.
_FIELDS_TOUCH_RE = re.compile(r"^(?:[^\n]{71}[A-Za-z0-9_-][A-Za-z0-9_-]|\d{6}[-Dd])", re.M)


def token_spans(text: str, lang: str) -> list[tuple[int, int]]:
    """(start, end) offsets of every token in text under the language's rules. File and directory
    names are tokenised as ``text``: ``CBACT01C.cbl`` is ``CBACT01C`` and ``cbl``."""
    if lang == "code":
        return [m.span() for m in CODE_WORD_RE.finditer(text)]
    if lang != "cobol" or is_free_format(text) or not _FIELDS_TOUCH_RE.search(text):
        # no field border has word characters on both sides: whole-text matching splits the same way
        return [m.span() for m in WORD_RE.finditer(text)]
    spans: list[tuple[int, int]] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        for a, b in _cobol_segments(line):
            spans.extend((pos + m.start(), pos + m.end()) for m in WORD_RE.finditer(line, a, b))
        pos += len(line)
    return spans


def tokens(text: str, lang: str) -> Iterator[str]:
    for a, b in token_spans(text, lang):
        yield text[a:b]


def substitute(
    text: str,
    lang: str,
    replace: Callable[[str], str | None],
    data: Sequence[tuple[int, int]] = (),
    replace_data: Callable[[str], str | None] | None = None,
) -> str:
    """text with every token for which ``replace`` returns a string swapped for it (same length).
    Tokens inside the sorted ``data`` spans go to ``replace_data`` instead (see ``in_spans``)."""
    out: list[str] = []
    last = 0
    inside = in_spans(data)
    for a, b in token_spans(text, lang):
        new = (replace_data or replace)(text[a:b]) if inside(a) else replace(text[a:b])
        if new is not None:
            out.append(text[last:a])
            out.append(new)
            last = b
    if last == 0:
        return text
    out.append(text[last:])
    return "".join(out)


def in_spans(spans: Sequence[tuple[int, int]]) -> Callable[[int], bool]:
    """A test for "offset lies in one of ``spans``" (sorted, disjoint), to be asked in increasing
    offset order, as a walk over a text's tokens does."""
    i = 0

    def inside(offset: int) -> bool:
        nonlocal i
        while i < len(spans) and spans[i][1] <= offset:
            i += 1
        return i < len(spans) and spans[i][0] <= offset

    return inside
