"""The tree-sitter add-on for COBOL: pre-process so the grammar copes, parse, read headers, data items and refs.

Run only inside a worker process with a hard time limit (grounding.index.pool): the grammar's external
scanner can loop forever. Padding every input with a line of blanks avoided every hang measured, but the
time limit is what guarantees a build finishes.
"""

from __future__ import annotations

import re

from groundjudge.grounding.index.cobol_source import PROCEDURE_DIVISION, SKIPPED, CobolSource, search_word, unquote
from groundjudge.grounding.index.model import RefKind, SymbolKind

PAD = "\n        \n"
_COPYBOOK_DATA_HEADER = (
    "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. CPYWRAP.\n       DATA DIVISION.\n       WORKING-STORAGE SECTION.\n"
)
_COPYBOOK_PROC_HEADER = (
    "       IDENTIFICATION DIVISION.\n       PROGRAM-ID. CPYWRAP.\n       DATA DIVISION.\n       PROCEDURE DIVISION.\n"
)
HEADER_LINES = 4

_EXEC = re.compile(r"\bEXEC\s+(?:CICS|SQL|DLI)\b.*?\bEND-EXEC\b(?:[ \t]*\.)?", re.I | re.S)
_REPLACING = re.compile(r"(\bCOPY\s+\S+(?:\s+(?:OF|IN)\s+\S+)?)(\s+REPLACING\b.*?)(?=\.(?:\s|$))", re.I | re.S)
_REPLACING_UPPER = re.compile(r"(COPY\s+\S+(?:\s+(?:OF|IN)\s+\S+)?)(\s+REPLACING\b.*?)(?=\.(?:\s|$))", re.S)  # for search_word
_PROCEDURE_UPPER = re.compile(r"PROCEDURE\s+DIVISION\b")  # for search_word over upper-case ASCII


_EXEC_START = re.compile(r"EXEC\s+(?:CICS|SQL|DLI)\b")
_EXEC_END = re.compile(r"END-EXEC\b(?:[ \t]*\.)?")


def _exec_spans(body: str, upper: str) -> list[tuple[int, int]]:
    """Where _EXEC matches in body. Searched in upper case with no leading \\b or re.I, so the regex engine
    can skip ahead to its literal prefix instead of trying _EXEC at every character of a program."""
    if not _same_shape(body, upper):
        return [m.span() for m in _EXEC.finditer(body)]
    out: list[tuple[int, int]] = []
    pos = 0
    while m := search_word(_EXEC_START, upper, pos):
        end = search_word(_EXEC_END, upper, m.end())
        if end is None:
            break  # no block starting later can find an END-EXEC either
        out.append((m.start(), end.end()))
        pos = end.end()
    return out


def _same_shape(body: str, upper: str) -> bool:
    """True when upper is body in upper case letter for letter, so positions in one are positions in the other."""
    return len(upper) == len(body) and body.isascii()


def _cut_replacing(body: str) -> str:
    """body with the REPLACING clause of every COPY statement blanked. Searched in upper case like
    _exec_spans: _REPLACING, led by \\b and re.I, is tried at every character (measured: 1.6 ms for each
    CardDemo file holding a REPLACING)."""
    upper = body.upper()
    if not _same_shape(body, upper):
        return _REPLACING.sub(lambda m: m.group(1) + _blank(m.group(2)), body)
    pieces, done = [], 0
    while m := search_word(_REPLACING_UPPER, upper, done):
        pieces += [body[done : m.start(2)], _blank(body[m.start(2) : m.end(2)])]
        done = m.end(2)
    return "".join(pieces) + body[done:]


def _blank(text: str) -> str:
    """text with every character but a newline turned into a space."""
    return "\n".join(" " * len(part) for part in text.split("\n"))


def preprocess(text: str | CobolSource, copybook_kind: str | None = None) -> str:
    """Same line count as text (plus a 4-line header for copybooks): only what the grammar can parse."""
    # a comprehension, not a loop with append: cheaper on every line of every file
    lines = [
        "" if indicator in SKIPPED else (("      -" if indicator == "-" else "       ") + code).rstrip()
        for indicator, code in CobolSource.of(text).cards
    ]
    body = "\n".join(lines) + "\n"
    upper = body.upper()
    proc = search_word(_PROCEDURE_UPPER, upper) if _same_shape(body, upper) else PROCEDURE_DIVISION.search(body)
    proc_at = proc.start() if proc else (0 if copybook_kind == "procedure" else len(body))

    def exec_sub(start: int, block: str) -> str:
        blank = _blank(block)
        if start < proc_at:
            return blank  # a data-division EXEC (INCLUDE, DECLARE) and its period vanish
        # the period, if any, still ends the sentence
        return "CONTINUE" + blank[8:-1] + "." if block.endswith(".") else "CONTINUE" + blank[8:]

    if "EXEC" in upper:
        pieces, done = [], 0
        for start, end in _exec_spans(body, upper):
            pieces += [body[done:start], exec_sub(start, body[start:end])]
            done = end
        body = "".join(pieces) + body[done:]
    if "REPLACING" in upper:
        body = _cut_replacing(body)
    if copybook_kind:
        body = (_COPYBOOK_PROC_HEADER if copybook_kind == "procedure" else _COPYBOOK_DATA_HEADER) + body
    return body + PAD


_QUERY = """
(identification_division (program_name) @program)
(paragraph_header) @paragraph
(section_header) @section
(data_description (level_number) @level (entry_name) @entry (picture_clause)? @pic) @data
(copy_statement book: (_) @copy)
(perform_procedure (label) @perform)
(call_statement x: (_) @call)
"""

_parser = None
_query = None


def grammar():
    """The COBOL parser and query, made once per process (and inherited by forked workers)."""
    global _parser, _query
    if _parser is None:
        from tree_sitter import Parser, Query
        from tree_sitter_language_pack import get_language

        lang = get_language("cobol")
        _parser = Parser(lang)
        _query = Query(lang, _QUERY)
    return _parser, _query


_PIC_KEYWORD = re.compile(r"^PIC(?:TURE)?\s+(?:IS\s+)?", re.I)
# The capture that names each pattern's node, in _QUERY's order: a match's pattern index picks it.
_PROGRAM, _PARAGRAPH, _SECTION, _DATA, _COPY, _PERFORM, _CALL = range(7)
_NODE_CAPTURE = ("program", "paragraph", "section", "data", "copy", "perform", "call")


def facts(text: str | CobolSource, copybook_kind: str | None) -> dict:
    """Symbols and refs the grammar finds, as plain tuples (cheap to send back from a worker)."""
    from tree_sitter import QueryCursor

    parser, query = grammar()
    data = preprocess(text, copybook_kind).encode("utf-8")
    tree = parser.parse(data)
    # row r of the parsed source is line r + 1 - header of the file; a line before 1 is the copybook header
    header = HEADER_LINES if copybook_kind else 0
    symbols: list[tuple[SymbolKind, str, int, dict[str, str]]] = []
    refs: list[tuple[RefKind, str, int]] = []
    # one loop, the most frequent patterns first and no helper calls: it runs for every match in the corpus
    for pattern, caps in QueryCursor(query).matches(tree.root_node):
        node = caps[_NODE_CAPTURE[pattern]][0]
        line = node.start_point.row + 1 - header
        if line < 1:
            continue
        if pattern == _DATA:  # read from its level, name and PICTURE nodes
            level_node, entry_node = caps["level"][0], caps["entry"][0]
            level = data[level_node.start_byte : level_node.end_byte].decode("utf-8", "replace").strip()
            if not level.isdigit():
                continue
            name = data[entry_node.start_byte : entry_node.end_byte].decode("utf-8", "replace").strip().upper()
            detail = {"level": f"{int(level):02d}"}
            if "pic" in caps:
                pic = caps["pic"][0]
                clause = data[pic.start_byte : pic.end_byte].decode("utf-8", "replace").strip()
                keyword = _PIC_KEYWORD.match(clause)
                detail["pic"] = (clause[keyword.end() :] if keyword else clause).upper()
            symbols.append((SymbolKind.CONDITION if int(level) == 88 else SymbolKind.DATA_ITEM, name, line, detail))
            continue
        text = data[node.start_byte : node.end_byte].decode("utf-8", "replace")
        if pattern == _PERFORM:
            refs.append((RefKind.PERFORM, text.strip().upper(), line))
        elif pattern == _PARAGRAPH:
            symbols.append((SymbolKind.PARAGRAPH, text.rstrip(". \n").upper(), line, {}))
        elif pattern == _PROGRAM:
            if not copybook_kind:
                symbols.append((SymbolKind.PROGRAM, unquote(text).upper(), line, {}))
        elif pattern == _SECTION:
            symbols.append((SymbolKind.SECTION, re.sub(r"\s+SECTION.*$", "", text, flags=re.I | re.S).strip().upper(), line, {}))
        elif pattern == _COPY:
            refs.append((RefKind.COPY, unquote(text).upper(), line))
        elif node.type in ("string", "alphanumeric_literal") or text[:1] in "'\"":
            refs.append((RefKind.CALL, unquote(text).upper(), line))
    return {"symbols": symbols, "refs": refs, "errors": tree.root_node.has_error}
