"""One COBOL file's index entries: the lexical backbone merged with what tree-sitter found."""

from __future__ import annotations

import re

from groundjudge.grounding.index.cobol_lexical import LANG, LEVEL_START, CobolFacts, extract
from groundjudge.grounding.index.cobol_source import CobolSource
from groundjudge.grounding.index.model import PROCEDURE_KINDS, SymbolKind
from groundjudge.grounding.index.registry import copybook_extensions
from groundjudge.grounding.index.store import KIND, LINE, NAME, SymbolRow, ref_row, symbol_row

COPYBOOK_EXTENSIONS = copybook_extensions()


_DIVISION = re.compile(r"^(?:IDENTIFICATION|ID|PROCEDURE)\s+DIVISION\b", re.I)


def is_copybook(path: str, source: str | CobolSource) -> bool:
    """A file with a copybook extension (.cpy, ...), or any COBOL file without an IDENTIFICATION or PROCEDURE DIVISION header."""
    if path.lower().endswith(COPYBOOK_EXTENSIONS):
        return True
    return not any(_DIVISION.match(s.text.lstrip()) for s in CobolSource.of(source).segments)


def copybook_kind(text: str | CobolSource) -> str:
    """How to wrap a copybook for the grammar: as data entries, or as procedure code."""
    return "data" if any(LEVEL_START.match(s.text.strip()) for s in CobolSource.of(text).segments) else "procedure"


def index_cobol(path: str, text: str | CobolSource, ts: dict | None) -> CobolFacts:
    """Merge, deduping on (kind, name, line): found by both -> "both"; by tree-sitter only -> "tree-sitter"."""
    copybook = is_copybook(path, text)
    ts_symbols = [s for s in (ts or {}).get("symbols", []) if s[1] and s[1] != "FILLER"]
    headers = [(k, n, line) for k, n, line, _ in ts_symbols if k in PROCEDURE_KINDS]
    ts_keys = {(k, n, line) for k, n, line, _ in ts_symbols}
    # a program spans from line 1, the grammar reports its PROGRAM-ID line: programs match on the name
    ts_programs = {n for k, n, _, _ in ts_symbols if k == SymbolKind.PROGRAM}
    facts = extract(path, text, copybook, headers, ts_keys, ts_programs)
    out: list[SymbolRow] = list(facts.symbols)
    have = {(s[KIND], s[NAME], s[LINE]) for s in out}
    programs = {s[NAME] for s in out if s[KIND] == SymbolKind.PROGRAM}
    book = {"copybook": out[0][NAME]} if copybook and out and out[0][KIND] == SymbolKind.COPYBOOK else {}
    for kind, name, line, detail in ts_symbols:
        if (kind, name, line) not in have and not (kind == SymbolKind.PROGRAM and name in programs):
            have.add((kind, name, line))
            out.append(symbol_row(kind, name, path, line, line, LANG, "tree-sitter", {**detail, **book}))
    refs = list(facts.refs)
    seen = {(r[KIND], r[NAME], r[LINE]) for r in refs}
    for kind, target, line in (ts or {}).get("refs", []):
        if target and (kind, target, line) not in seen:
            seen.add((kind, target, line))
            refs.append(ref_row(kind, target, path, line, facts.contexts.at(line), LANG))
    return CobolFacts(out, refs, facts.contexts)
