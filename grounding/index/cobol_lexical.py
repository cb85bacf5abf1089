"""Column-aware lexical COBOL extractor: the backbone of the COBOL index.

The tree-sitter grammar fails on most real fixed-format programs (see cobol_treesitter), so this
module alone must find every program, section, paragraph, data item, FD, SELECT, COPY, PERFORM, CALL,
GO TO, file I/O and EXEC CICS / EXEC SQL target, by rules over the code area only.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from groundjudge.grounding.index.cobol_source import (
    AREA_B,
    CobolSource,
    Segment,
    Token,
    Tokens,
    lines_containing,
    search_word,
    token_kind,
    unquote,
)
from groundjudge.grounding.index.model import PROCEDURE_KINDS, RefKind, Source, SymbolKind
from groundjudge.grounding.index.registry import Kind, language
from groundjudge.grounding.index.store import RefRow, SymbolRow, ref_row, symbol_row

LANG = Kind.COBOL

# A reserved word is never a paragraph name, a PERFORM target or a data name.
RESERVED = language(Kind.COBOL).reserved
DATA_SECTIONS = frozenset(
    ["FILE", "WORKING-STORAGE", "LOCAL-STORAGE", "LINKAGE", "COMMUNICATION", "REPORT", "SCREEN", "CONFIGURATION", "INPUT-OUTPUT"]
)
_CLAUSE_WORDS = frozenset(
    [
        "PIC",
        "PICTURE",
        "VALUE",
        "VALUES",
        "REDEFINES",
        "OCCURS",
        "USAGE",
        "COMP",
        "COMP-1",
        "COMP-2",
        "COMP-3",
        "COMP-4",
        "COMP-5",
        "BINARY",
        "COMPUTATIONAL",
        "COMPUTATIONAL-3",
        "PACKED-DECIMAL",
        "DISPLAY",
        "INDEX",
        "POINTER",
        "SIGN",
        "JUSTIFIED",
        "JUST",
        "BLANK",
        "SYNC",
        "SYNCHRONIZED",
        "EXTERNAL",
        "GLOBAL",
        "RENAMES",
    ]
)
_FILE_MODES = frozenset({"INPUT", "OUTPUT", "I-O", "EXTEND"})
_VERBS = frozenset({"PERFORM", "CALL", "GO", "OPEN", "READ", "WRITE", "REWRITE"})
_STARTS = _VERBS | {"EXEC", "COPY"}

_DIVISION = re.compile(r"^(IDENTIFICATION|ID|ENVIRONMENT|DATA|PROCEDURE)\s+DIVISION\b", re.I)
_SECTION = re.compile(r"^([A-Z0-9][A-Z0-9_-]*)\s+SECTION(?:\s+\d+)?\s*\.", re.I)
_PARAGRAPH = re.compile(r"^([A-Z0-9][A-Z0-9_-]*)\s*\.(?:\s|$)", re.I)
_LONE_NAME = re.compile(r"^([A-Z0-9][A-Z0-9_-]*)$", re.I)
_PROGRAM_ID = re.compile(r"\b(?:PROGRAM|FUNCTION)-ID\b\s*\.?\s*(?:(['\"])?([A-Z0-9][A-Z0-9_-]*)\1?)?", re.I)
_MAY_END_DIVISION = re.compile(r"^(?:END\s+(?:PROGRAM|FUNCTION)|(?:IDENTIFICATION|ID)\s+DIVISION)\b", re.I)
_END_PROGRAM = re.compile(r"^END\s+(?:PROGRAM|FUNCTION)\s+['\"]?([A-Z0-9][A-Z0-9_-]*)", re.I)
_LEVEL = re.compile(r"^(\d{1,2})(?=[\s.]|$)")
# a level number, then a name: one may start with a digit when a letter follows (2016-EFF-DATE), FILLER, or
# a COPY REPLACING tag (:TAG:-ID)
LEVEL_START = re.compile(r"^\d{1,2}\s+(?:[A-Z:]|\d[\d-]*[A-Z])", re.I)
_FD = re.compile(r"^(FD|SD)\s+([A-Z0-9][A-Z0-9_-]*)", re.I)
_SELECT = re.compile(r"^SELECT\s+(?:OPTIONAL\s+)?([A-Z0-9][A-Z0-9_-]*)(?:.*?\bASSIGN\s+(?:TO\s+)?(\S+))?", re.I | re.S)
_LITERAL = re.compile(r"""[XxNnGgZz]?"(?:[^"]|"")*"?|[XxNnGgZz]?'(?:[^']|'')*'?""")
_PIC = re.compile(r"\bPIC(?:TURE)?\s+(?:IS\s+)?(\S+?)(?=\.?(?:\s|$))", re.I)
_USAGE = re.compile(r"\b(COMP(?:UTATIONAL)?(?:-[1-5X])?|BINARY|PACKED-DECIMAL|INDEX|POINTER|NATIONAL)(?=[\s.]|$)", re.I)
_ENTRY_NAME = re.compile(r"^[A-Z0-9:][A-Z0-9:_-]*$", re.I)
_VALUE = re.compile(r"\bVALUES?\s+(?:(?:IS|ARE)\s+)?", re.I)
_REDEFINES = re.compile(r"\bREDEFINES\s+([A-Z0-9:][A-Z0-9:_-]*)", re.I)
_OCCURS = re.compile(r"\bOCCURS\s+(\d+)(?:\s+TO\s+(\d+))?", re.I)


def _may_hold_usage(upper: str) -> bool:
    """False when upper holds none of the literals the _USAGE branches start with. Substring tests: a regex
    alternation of them would be tried at every character."""
    return (
        "COMP" in upper
        or "BINARY" in upper
        or "INDEX" in upper
        or "POINTER" in upper
        or "NATIONAL" in upper
        or "PACKED-DECIMAL" in upper
    )


_SENTENCE_END = re.compile(r"\.(?:[ \t]|\Z)")


def ends_sentence(text: str) -> bool:
    """True when text holds a period that ends a sentence (followed by a blank or the end), outside literals."""
    if "'" not in text and '"' not in text:
        return _SENTENCE_END.search(text) is not None  # no literal: one C-level scan
    if text.endswith(".") and (('"' not in text and not text.count("'") % 2) or ("'" not in text and not text.count('"') % 2)):
        return True  # one kind of quote, evenly many: every literal is closed, so the last period ends it
    quote = None
    for i, ch in enumerate(text):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "." and (i + 1 == len(text) or text[i + 1] in " \t"):
            return True
    return False


def _mask_literals(text: str) -> str:
    if "'" not in text and '"' not in text:
        return text
    return _LITERAL.sub(lambda m: m.group()[0] + "~" * (len(m.group()) - 1), text)


@dataclass
class _Entry:
    level: int
    name: str
    start: int
    end: int
    detail: dict[str, str]
    block: int  # entries in different blocks (sections, FDs) are never parent and child
    fd: str | None = None


@dataclass
class _Layout:
    """What the structural pass finds; refs are read from the tokens afterwards."""

    n_lines: int
    programs: list[tuple[str, int]] = field(default_factory=list)  # (name, PROGRAM-ID line)
    program_ends: list[tuple[str, int]] = field(default_factory=list)
    division_marks: list[tuple[int, str]] = field(default_factory=list)  # (line, division)
    headers: list[tuple[SymbolKind, str, int]] = field(default_factory=list)  # (kind, name, line)
    entries: list[_Entry] = field(default_factory=list)
    fds: list[tuple[str, str, int, int, int]] = field(default_factory=list)  # (kind FD/SD, name, start, end, block)
    selects: list[tuple[str, str | None, int, int]] = field(default_factory=list)


def _sentence(segs: list[Segment], i: int, first: str) -> tuple[str, int]:
    """Text of the sentence starting at segment i (whose stripped text is first) and the index of its last segment."""
    parts = [first]
    j = i
    while not ends_sentence(parts[-1]) and j + 1 < len(segs):
        nxt = segs[j + 1].text.strip()
        if LEVEL_START.match(nxt) or _DIVISION.match(nxt) or _SECTION.match(nxt) or _FD.match(nxt):
            break  # a missing period must not swallow the next entry
        j += 1
        parts.append(nxt)
    return " ".join(parts), j


def _may_end_division(text: str, upper: str) -> bool:
    """_MAY_END_DIVISION matches text, whose upper case is upper (see _scan_layout's keyword tests)."""
    keyword = "PROGRAM" in upper or "FUNCTION" in upper or "DIVISION" in upper or not upper.isascii()
    return keyword and _MAY_END_DIVISION.match(text) is not None


def _scan_layout(source: CobolSource) -> _Layout:
    segs, uppers = source.segments, source.upper_lines
    lay = _Layout(n_lines=source.n_lines)
    division: str | None = None
    block = 0
    fd_name: str | None = None
    pending_program_id = False
    i = 0
    while i < len(segs):
        seg = segs[i]
        text = seg.text.strip()
        # (the first-letter test spares the keyword tests on nearly every line)
        if division == "PROCEDURE" and seg.column >= AREA_B and (text[0] not in "EeIi" or not _may_end_division(text, uppers[i])):
            i += 1  # the bulk of a program: a statement line in area B
            continue
        if pending_program_id:
            pending_program_id = False
            m = re.match(r"['\"]?([A-Z0-9][A-Z0-9_-]*)", text, re.I)
            if m:
                lay.programs.append((m.group(1).upper(), seg.line))
                i += 1
                continue
        # Each anchored regex below runs only on a line holding its keyword: a substring test of the line in
        # upper case spares it on most lines, where the regex would otherwise be tried for nothing.
        # A line not ASCII in upper case is always tried: with re.I a letter such as U+0130 matches an ASCII one.
        u = uppers[i]
        plain = u.isascii()
        m = _DIVISION.match(text) if "DIVISION" in u or not plain else None
        if m:
            division = "IDENTIFICATION" if m.group(1).upper() == "ID" else m.group(1).upper()
            lay.division_marks.append((seg.line, division))
            block += 1
            fd_name = None
            if division == "PROCEDURE":
                _, i = _sentence(segs, i, text)
            i += 1
            continue
        # (the word test spares the regex, which has no literal to skip ahead to, on every line of a copybook)
        may_name = division in (None, "IDENTIFICATION") and (not plain or "PROGRAM-ID" in u or "FUNCTION-ID" in u)
        m = _PROGRAM_ID.search(text) if may_name else None
        if m:
            if m.group(2):
                lay.programs.append((m.group(2).upper(), seg.line))
            else:
                pending_program_id = True
            i += 1
            continue
        m = _END_PROGRAM.match(text) if "PROGRAM" in u or "FUNCTION" in u or not plain else None
        if m:
            lay.program_ends.append((m.group(1).upper(), seg.line))
            lay.division_marks.append((seg.line, "END"))
            division = None
            i += 1
            continue
        sec = _SECTION.match(text) if "SECTION" in u or not plain else None
        if sec and sec.group(1).upper() in DATA_SECTIONS:
            block += 1
            fd_name = None
            i += 1
            continue
        if division in (None, "PROCEDURE") and seg.column < AREA_B:
            if sec:
                lay.headers.append((SymbolKind.SECTION, sec.group(1).upper(), seg.line))
                i += 1
                continue
            m = _PARAGRAPH.match(text)
            if not m and i + 1 < len(segs) and segs[i + 1].text.lstrip().startswith("."):
                m = _LONE_NAME.match(text)  # the header's period on the next line
            if m and m.group(1).upper() not in RESERVED and not (division is None and _LEVEL.match(text)):
                lay.headers.append((SymbolKind.PARAGRAPH, m.group(1).upper(), seg.line))
                i += 1
                continue
        if division in (None, "DATA"):
            m = _FD.match(text) if "FD" in u or "SD" in u or not plain else None
            if m:
                _, j = _sentence(segs, i, text)
                block += 1
                fd_name = m.group(2).upper()
                lay.fds.append((m.group(1).upper(), fd_name, seg.line, segs[j].end, block))
                i = j + 1
                continue
            m = _LEVEL.match(text)
            if m and (division == "DATA" or LEVEL_START.match(text)):
                sentence, j = _sentence(segs, i, text)
                entry = _parse_entry(int(m.group(1)), sentence, seg.line, segs[j].end, block)
                if entry.level == 1 and fd_name:
                    entry.fd = fd_name
                lay.entries.append(entry)
                i = j + 1
                continue
        if division in (None, "ENVIRONMENT") and _SELECT.match(text):
            sentence, j = _sentence(segs, i, text)
            m = _SELECT.match(sentence)
            assert m is not None  # the sentence starts with text, so it matches too
            assign = unquote(m.group(2).rstrip(".")) if m.group(2) else None
            lay.selects.append((m.group(1).upper(), assign, seg.line, segs[j].end))
            i = j + 1
            continue
        i += 1
    return lay


def _clause(pattern: re.Pattern, keyword: str, masked: str, upper: str | None) -> re.Match | None:
    """pattern's first match in masked. In ASCII text (upper given) a match can start no earlier than the
    keyword's first occurrence, so the search starts there (its regex, led by \\b and re.I, cannot skip ahead
    by itself) and is skipped when the keyword is absent: most entries hold one or two clauses."""
    if upper is None:
        return pattern.search(masked)
    at = upper.find(keyword)
    return pattern.search(masked, at) if at >= 0 else None


def _parse_entry(level: int, sentence: str, start: int, end: int, block: int) -> _Entry:
    masked = _mask_literals(sentence)
    words = masked.split(None, 2)  # the level and the name are all that is read
    name = "FILLER"
    if len(words) > 1:
        cand = words[1].rstrip(".")
        # ':' admits REPLACING tags such as :TAG:-DATE-AREA, named as written in the copybook
        if cand and cand.upper() not in _CLAUSE_WORDS and _ENTRY_NAME.match(cand):
            name = cand.upper()
    detail: dict[str, str] = {"level": f"{level:02d}"}
    upper = masked.upper() if masked.isascii() else None
    m = _clause(_PIC, "PIC", masked, upper)
    if m:
        detail["pic"] = sentence[m.start(1) : m.end(1)].upper()
    value = _clause(_VALUE, "VALUE", masked, upper)
    usage = (
        _USAGE.search(masked[: value.start()] if value else masked)  # never a word inside the VALUE list
        if upper is None or _may_hold_usage(upper)
        else None
    )
    if usage and level != 88:
        detail["usage"] = usage.group(1).upper().replace("COMPUTATIONAL", "COMP")
    if value:
        text = sentence[value.end() :].strip()
        detail["values" if level == 88 else "value"] = text[:-1].rstrip() if text.endswith(".") else text
    m = _clause(_REDEFINES, "REDEFINES", masked, upper)
    if m:
        detail["redefines"] = m.group(1).upper()
    m = _clause(_OCCURS, "OCCURS", masked, upper)
    if m:
        detail["occurs"] = m.group(2) or m.group(1)
    return _Entry(level, name, start, end, detail, block)


def _link_entries(entries: list[_Entry]) -> None:
    """Rebuild the level hierarchy: parent names, and group items spanning their children."""
    stack: list[_Entry] = []
    last_item: _Entry | None = None
    for e in entries:
        if stack and stack[-1].block != e.block:
            stack = []
            last_item = None
        if e.level == 88:
            if last_item is not None:
                e.detail["parent"] = last_item.name
            for anc in stack:
                anc.end = max(anc.end, e.end)
            continue
        if e.level == 77:
            stack = []
        elif e.level == 66:
            if stack:
                e.detail["parent"] = stack[0].name
        else:
            while stack and stack[-1].level >= e.level:
                stack.pop()
            if stack:
                e.detail["parent"] = stack[-1].name
            for anc in stack:
                anc.end = max(anc.end, e.end)
            stack.append(e)
            if stack[0].fd and e is not stack[0]:
                e.fd = stack[0].fd
        last_item = e


def _program_spans(lay: _Layout) -> list[tuple[str, int, int]]:
    spans = []
    for k, (name, line) in enumerate(lay.programs):
        start = 1 if k == 0 else line
        end = next((end_line for n, end_line in lay.program_ends if n == name and end_line >= line), lay.n_lines)
        spans.append((name, start, max(end, start)))
    return spans


def _header_spans(lay: _Layout) -> list[tuple[SymbolKind, str, int, int]]:
    """A paragraph runs to the line before the next header, section or END PROGRAM; a section to the next section."""
    stops = sorted(end_line for _, end_line in lay.program_ends)
    ordered = sorted(lay.headers, key=lambda h: h[2])
    section_lines = [line for kind, _, line in ordered if kind == SymbolKind.SECTION]
    out = []
    for k, (kind, name, line) in enumerate(ordered):
        if kind == SymbolKind.PARAGRAPH:
            following = ordered[k + 1][2] if k + 1 < len(ordered) else None
        else:
            j = bisect.bisect_right(section_lines, line)
            following = section_lines[j] if j < len(section_lines) else None
        j = bisect.bisect_right(stops, line)
        stop = min([lay.n_lines + 1] + stops[j : j + 1] + ([following] if following else []))
        out.append((kind, name, line, max(line, stop - 1)))
    return out


@dataclass
class CobolFacts:
    symbols: list[SymbolRow]
    refs: list[RefRow]
    contexts: _Contexts


def extract(
    path: str,
    text: str | CobolSource,
    copybook: bool,
    extra_headers: Sequence[tuple[SymbolKind, str, int]] = (),
    ts_keys: frozenset[tuple[SymbolKind, str, int]] | set = frozenset(),
    ts_programs: frozenset[str] | set = frozenset(),
) -> CobolFacts:
    """Every symbol and ref the rules find; extra_headers (from tree-sitter) join the paragraph/section list.

    A symbol whose (kind, name, line) is in ts_keys (a program: whose name is in ts_programs) was found by
    tree-sitter too, so its source is "both"; a header only in extra_headers has source "tree-sitter".
    """
    source = CobolSource.of(text)
    n_lines = source.n_lines
    lay = _scan_layout(source)
    known = set(lay.headers)
    lay.headers.extend(h for h in extra_headers if h not in known and h[0] in PROCEDURE_KINDS)
    _link_entries(lay.entries)
    book = {"copybook": path.rsplit("/", 1)[-1].rsplit(".", 1)[0].upper()} if copybook else {}
    symbols: list[SymbolRow] = []

    def source_of(kind: SymbolKind, name: str, start: int) -> Source:
        return "both" if (kind, name, start) in ts_keys or (kind == SymbolKind.PROGRAM and name in ts_programs) else "lexical"

    def add(
        kind: SymbolKind, name: str, start: int, end: int, detail: dict[str, str] | None = None, source: Source | None = None
    ) -> None:
        symbols.append(
            symbol_row(
                kind, name, path, start, end, LANG, source or source_of(kind, name, start), {**detail, **book} if detail else book
            )
        )

    if copybook:
        symbols.append(
            symbol_row(
                SymbolKind.COPYBOOK,
                book["copybook"],
                path,
                1,
                max(n_lines, 1),
                LANG,
                source_of(SymbolKind.COPYBOOK, book["copybook"], 1),
            )
        )
    programs = _program_spans(lay)
    for name, start, end in programs:
        add(SymbolKind.PROGRAM, name, start, end)
    spans = _header_spans(lay)
    for kind, name, start, end in spans:
        add(kind, name, start, end, source=None if (kind, name, start) in known else "tree-sitter")
    fd_ends: dict[str, int] = {}
    for e in lay.entries:
        if e.fd:
            fd_ends[e.fd] = max(fd_ends.get(e.fd, 0), e.end)
    for fd_type, name, start, end, _ in lay.fds:
        add(SymbolKind.FD, name, start, max(end, fd_ends.get(name, end)), {"type": fd_type})
    for name, assign, start, end in lay.selects:
        add(SymbolKind.SELECT, name, start, end, {"assign": assign} if assign else {})
    values: dict[str, str] = {}
    for e in lay.entries:
        if e.name == "FILLER":
            continue
        detail = dict(e.detail)
        if e.fd:
            detail["fd"] = e.fd
        add(SymbolKind.CONDITION if e.level == 88 else SymbolKind.DATA_ITEM, e.name, e.start, e.end, detail)
        if "value" in detail and _LITERAL.fullmatch(detail["value"]):
            values.setdefault(e.name, unquote(detail["value"]))
    record_files = {e.name: e.fd for e in lay.entries if e.fd}
    contexts = _Contexts(spans)
    return CobolFacts(symbols, _refs(path, source, lay, contexts, values, record_files), contexts)


class _Contexts:
    """The enclosing paragraph (or section) name of a line."""

    def __init__(self, spans: list[tuple[SymbolKind, str, int, int]]):
        # paragraphs, then sections: each (start, end, name) sorted, beside its start lines to bisect on
        self._tables = []
        for kind in (SymbolKind.PARAGRAPH, SymbolKind.SECTION):
            table = sorted((s, e, n) for k, n, s, e in spans if k == kind)
            self._tables.append(([s for s, _, _ in table], table))

    def at(self, line: int) -> str | None:
        for starts, table in self._tables:
            k = bisect.bisect_right(starts, line) - 1  # the last span starting at or before line
            if k >= 0 and line <= table[k][1]:
                return table[k][2]
        return None


# searched with search_word(..., joiners="_-"), which stands in for a leading (?<![\w-])
_TRIGGER = re.compile(r"(?:PERFORM|CALL|GO|OPEN|READ|WRITE|REWRITE|COPY|EXEC)(?![\w-])")
# A line starting with one of these begins a new statement: the one before it has ended.
_STATEMENT_START = frozenset(
    [
        "MOVE",
        "IF",
        "ELSE",
        "ADD",
        "SUBTRACT",
        "COMPUTE",
        "DISPLAY",
        "EVALUATE",
        "WHEN",
        "SET",
        "INITIALIZE",
        "STRING",
        "UNSTRING",
        "INSPECT",
        "ACCEPT",
        "CONTINUE",
        "EXIT",
        "GOBACK",
        "STOP",
        "MULTIPLY",
        "DIVIDE",
        "SEARCH",
        "CLOSE",
        "START",
        "DELETE",
        "RETURN",
        "RELEASE",
        "SORT",
        "MERGE",
    ]
)
_CARRY = 8  # lines a statement may still run on after the line that starts it


# Every line _statement_segments takes holds one of these (or continues a statement or EXEC block that
# did): searching the whole file for them finds those lines, instead of a Python look at every line.
TRIGGER_WORDS = ("EXEC", "COPY", "PERFORM", "CALL", "GO", "OPEN", "READ", "WRITE")


def _statement_segments(source: CobolSource, procedural: Callable[[int], bool]) -> list[Segment]:
    """The lines refs can be read from, so that only they are tokenised: lines holding PERFORM, CALL, GO,
    OPEN, READ, WRITE, REWRITE, COPY or EXEC, the lines their statements run on to, and EXEC blocks."""
    segs = source.segments
    uppers = source.upper_lines
    candidates = lines_containing(TRIGGER_WORDS, source.code_upper)
    out: list[Segment] = []
    in_exec = False
    carry = 0
    i = k = 0
    while True:
        if not in_exec and not carry:
            # nothing is open, so a line without a trigger word adds nothing: go to the next one with it
            while k < len(candidates) and candidates[k] < i:
                k += 1
            if k == len(candidates):
                break
            i = candidates[k]
        if i >= len(segs):
            break
        seg = segs[i]
        u = uppers[i]
        i += 1
        opens = "EXEC" in u and ("END-EXEC" not in u or "EXEC" in u.replace("END-EXEC", ""))
        if in_exec or opens or "COPY" in u or (procedural(seg.line) and search_word(_TRIGGER, u, joiners="_-")):
            out.append(seg)
            carry = 0 if u.rstrip().endswith(".") else _CARRY
        elif carry and procedural(seg.line):
            first = u.split(None, 1)[0]
            if first in _STATEMENT_START or first.startswith("END-"):
                carry = 0
            else:
                out.append(seg)
                carry = 0 if u.rstrip().endswith(".") else carry - 1
        if in_exec or opens:
            in_exec = "END-EXEC" not in u
    return out


_MOVE = re.compile(r"(?<![\w-])MOVE\s+('(?:[^']|'')*'|\"(?:[^\"]|\"\")*\"|[A-Z0-9][A-Z0-9-]*)\s+TO\s+([A-Z0-9][A-Z0-9-]*)", re.I)


class _Names:
    """What a data name used as a CALL, XCTL, LINK or DATASET operand holds: its VALUE literal, else every
    literal the program MOVEs into it (each a possible target), and the name itself when that is unknown."""

    def __init__(self, values: dict[str, str], source: CobolSource, procedural: Callable[[int], bool]):
        self.values = values
        self.source = source
        self.procedural = procedural
        self._moves: dict[str, list[tuple[str, int]]] | None = None

    @property
    def moves(self) -> dict[str, list[tuple[str, int]]]:
        """Computed on first need: most programs never name a target through a variable."""
        if self._moves is None:
            self._moves = {}
            # (the word test spares the regex, which has no literal to skip ahead to, on most lines)
            pairs = zip(self.source.segments, self.source.upper_lines)
            for seg in [seg for seg, u in pairs if "MOVE" in u and self.procedural(seg.line)]:
                for source, receiver in _MOVE.findall(seg.text):
                    # MOVE 'COMEN01C' TO X, or MOVE LIT-MENUPGM TO X where LIT-MENUPGM has a VALUE
                    literal = unquote(source) if source[0] in "'\"" else self.values.get(source.upper(), "")
                    if literal:
                        self._moves.setdefault(receiver.upper(), []).append((literal.upper(), seg.line))
        return self._moves

    def targets(self, operand: list[Token]) -> list[tuple[str, dict[str, str]]]:
        if len(operand) != 1 or operand[0].kind not in ("word", "string"):
            return []
        t = operand[0]
        if t.kind == "string":
            return [(unquote(t.text).upper(), {})]
        name = t.text.upper()
        if name in self.values:
            return [(self.values[name].upper(), {"via": name})]
        moved: dict[str, int] = {}
        for literal, line in self.moves.get(name, []):
            moved.setdefault(literal, line)
        # the operand detail tells the name itself from a literal target: the renamer takes a literal as a
        # program or file of the corpus, never a data name
        named = [(name, {"operand": "data_name"})]
        return named + [(lit, {"via": name, "moved_at": str(line)}) for lit, line in sorted(moved.items())]


def _procedural_lines(lay: _Layout) -> list[bool]:
    """Per line number: inside a procedure division, or in code outside any division (a copybook's)."""
    flags = [True] * (lay.n_lines + 2)
    marks = sorted(lay.division_marks)
    for k, (line, division) in enumerate(marks):
        stop = marks[k + 1][0] if k + 1 < len(marks) else len(flags)
        flags[line:stop] = [division in (None, "PROCEDURE")] * (stop - line)
    return flags


def _refs(
    path: str, source: CobolSource, lay: _Layout, ctx: _Contexts, values: dict[str, str], record_files: dict[str, str]
) -> list[RefRow]:
    out: list[RefRow] = []
    procedural = _procedural_lines(lay).__getitem__

    toks = Tokens(_statement_segments(source, procedural))
    texts, lines, words = toks.texts, toks.lines, toks.words
    names = _Names(values, source, procedural)

    def add(kind: RefKind, target: str, line: int, detail: dict[str, str] | None = None) -> None:
        if target:
            out.append(ref_row(kind, target, path, line, ctx.at(line), LANG, detail))

    def word(k: int) -> str | None:
        return words[k] if k < len(words) else None

    def name_at(k: int) -> str | None:
        w = word(k)
        return w if w and w not in RESERVED and not w.isdigit() else None

    n = len(toks)
    # only these words start what the loop reads; a list comprehension finds them faster than the loop can
    starts = [k for k, w in enumerate(words) if w in _STARTS]
    i = 0
    for start in starts:
        if start < i:
            continue  # inside an EXEC block or COPY statement already read
        i = start
        u = words[i]
        if u == "EXEC":
            j = i + 1
            while j < n and words[j] != "END-EXEC" and not (j > i + 1 and words[j] == "EXEC"):
                j += 1
            _exec_block(toks.span(i + 1, j), add, names)
            i = j + 1
            continue
        if u == "COPY" and i + 1 < n and token_kind(texts[i + 1]) != "punct":
            j = i + 2
            while j < n and texts[j] != "." and words[j] not in ("COPY", "EXEC"):
                j += 1
            rest = texts[i + 2 : j]
            upper = [t.upper() for t in rest]
            detail = {"replacing": " ".join(rest[upper.index("REPLACING") + 1 :])} if "REPLACING" in upper else {}
            add(RefKind.COPY, unquote(texts[i + 1]).upper(), lines[i + 1], detail)
            i = j
            continue
        if u not in _VERBS or not procedural(lines[i]):
            continue
        if u == "PERFORM":
            target = name_at(i + 1)
            if target and word(i + 2) != "TIMES":
                add(RefKind.PERFORM, target, lines[i + 1])
                if word(i + 2) in ("THRU", "THROUGH") and (thru := name_at(i + 3)):
                    add(RefKind.PERFORM, thru, lines[i + 3], {"thru_from": target})
        elif u == "CALL" and i + 1 < n:
            for target, detail in names.targets(toks.span(i + 1, i + 2)):
                add(RefKind.CALL, target, lines[i + 1], detail)
        elif u == "GO":
            k = i + 2 if word(i + 1) == "TO" else i + 1
            while goto := name_at(k):
                add(RefKind.GOTO, goto, lines[k])
                k += 1
        elif u == "OPEN":
            k, mode = i + 1, None
            while k < n:
                w = word(k)
                if w in _FILE_MODES:
                    mode = w
                elif w and mode and w not in RESERVED:
                    add(RefKind.FILE_OPEN, w, lines[k], {"mode": mode})
                elif texts[k] != ",":
                    break
                k += 1
        elif u == "READ" and (read := name_at(i + 1)):
            add(RefKind.FILE_READ, read, lines[i + 1])
        elif u in ("WRITE", "REWRITE") and (rec := name_at(i + 1)):
            detail = {"verb": u}
            if rec in record_files:
                detail["file"] = record_files[rec]
            add(RefKind.FILE_WRITE, rec, lines[i + 1], detail)
    return out


_CICS_DATASET = {
    "READ": RefKind.CICS_READ,
    "WRITE": RefKind.CICS_WRITE,
    "REWRITE": RefKind.CICS_REWRITE,
    "DELETE": RefKind.CICS_DELETE,
    "STARTBR": RefKind.CICS_STARTBR,
    "READNEXT": RefKind.CICS_READNEXT,
    "READPREV": RefKind.CICS_READPREV,
}
CICS_FILE_REFS = frozenset([*_CICS_DATASET.values(), RefKind.CICS_FILE])  # every ref naming a CICS file
_SQL_STOP = frozenset(
    [
        "WHERE",
        "GROUP",
        "ORDER",
        "HAVING",
        "JOIN",
        "INNER",
        "LEFT",
        "RIGHT",
        "FULL",
        "OUTER",
        "CROSS",
        "ON",
        "FOR",
        "WITH",
        "UNION",
        "EXCEPT",
        "INTERSECT",
        "FETCH",
        "SET",
        "VALUES",
        "SELECT",
        "INTO",
        "WHEN",
        "END-EXEC",
        "OPTIMIZE",
    ]
)


def _cics_options(body: list[Token]) -> dict[str, tuple[Token, list[Token]]]:
    opts: dict[str, tuple[Token, list[Token]]] = {}
    k = 0
    while k < len(body):
        t = body[k]
        if t.kind == "word" and k + 1 < len(body) and body[k + 1].text == "(":
            depth, j = 1, k + 2
            while j < len(body) and depth:
                depth += {"(": 1, ")": -1}.get(body[j].text, 0)
                j += 1
            opts.setdefault(t.text.upper(), (t, body[k + 2 : j - 1]))
            k = j
            continue
        k += 1
    return opts


def _exec_block(body: list[Token], add, names: _Names) -> None:
    if not body:
        return
    dialect = body[0].text.upper()
    rest = body[1:]
    if dialect == "CICS" and rest:
        _cics(rest, add, names)
    elif dialect == "SQL" and rest:
        _sql(rest, add)


def _cics(body: list[Token], add, names: _Names) -> None:
    command = body[0].text.upper()
    opts = _cics_options(body[1:])

    def each(option: str, kind: RefKind, extra: dict[str, str] | None = None) -> None:
        tok, arg = opts[option]
        for target, detail in names.targets(arg):
            add(kind, target, tok.line, {**(extra or {}), **detail})

    files = [option for option in ("DATASET", "FILE") if option in opts]
    if command in _CICS_DATASET:
        for option in files:
            each(option, _CICS_DATASET[command])
    elif command in ("XCTL", "LINK") and "PROGRAM" in opts:
        each("PROGRAM", RefKind(command.lower()))
    elif command in ("RETURN", "START") and "TRANSID" in opts:
        each("TRANSID", RefKind.CICS_TRANSID, {"command": command})
    elif command in ("SEND", "RECEIVE") and "MAP" in opts:
        mapsets = names.targets(opts["MAPSET"][1]) if "MAPSET" in opts else []
        each("MAP", RefKind(f"cics_{command.lower()}_map"), {"mapset": mapsets[0][0]} if mapsets else {})
    elif "PROGRAM" in opts:  # LOAD, RELEASE, INQUIRE, HANDLE ABEND name a program without passing control to it
        each("PROGRAM", RefKind.CICS_PROGRAM, {"command": command})
    else:  # ENDBR, UNLOCK, RESETBR, INQUIRE name a file without reading or writing it
        for option in files:
            each(option, RefKind.CICS_FILE, {"command": command})


def _sql(body: list[Token], add) -> None:
    words = [(t.text.upper(), t) for t in body]
    op = words[0][0]
    if op == "INCLUDE" and len(words) > 1:
        add(RefKind.COPY, unquote(words[1][1].text).upper(), words[1][1].line, {"via": "EXEC SQL INCLUDE"})
        return
    if op == "DECLARE" and len(words) > 2 and words[2][0] == "TABLE":
        add(RefKind.SQL_TABLE, words[1][0], words[1][1].line, {"op": "DECLARE"})
        return
    k = 0
    while k < len(words):
        w, _ = words[k]
        takes_list = w == "FROM"
        if w in ("FROM", "JOIN", "UPDATE") or (w == "INTO" and op == "INSERT") or (w == "TABLE" and op in ("LOCK", "TRUNCATE")):
            k += 1
            while k < len(words):
                name, nt = words[k]
                if nt.kind != "word" or name.startswith(":") or name in _SQL_STOP or name == "(":
                    break
                add(RefKind.SQL_TABLE, name, nt.line, {"op": op})
                k += 1
                if k < len(words) and words[k][1].kind == "word" and words[k][0] not in _SQL_STOP:
                    k += 1  # a correlation name
                if takes_list and k < len(words) and words[k][0] == ",":
                    k += 1
                    continue
                break
            continue
        k += 1
