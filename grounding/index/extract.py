"""One file's index entries, whatever its language. `extract_file` is what the parse workers run."""

from __future__ import annotations

from dataclasses import dataclass, field

from groundjudge.grounding.index import bms, jcl, tags
from groundjudge.grounding.index.cobol import copybook_kind, index_cobol, is_copybook
from groundjudge.grounding.index.cobol_source import CobolSource, is_free_format
from groundjudge.grounding.index.model import ParseStatus
from groundjudge.grounding.index.registry import grammar_for
from groundjudge.grounding.index.store import RefRow, SymbolRow


@dataclass
class FileRows:
    """One file's parse status and its entries as rows ready for SQLite: what a parse worker sends back."""

    path: str
    language: str
    status: ParseStatus
    note: str | None = None
    symbols: list[SymbolRow] = field(default_factory=list)
    refs: list[RefRow] = field(default_factory=list)


def warm_up(files: list[tuple[str, str]]) -> None:
    """Build the parsers and queries (path, language) pairs need before the workers fork, so each worker
    inherits them instead of building its own (measured: less CPU and wall than loading in each worker)."""
    if any(lang == "cobol" for _, lang in files):
        from groundjudge.grounding.index.cobol_treesitter import grammar

        grammar()
    for name in sorted({g for p, lang in files if (g := grammar_for(p, lang)) is not None}):
        tags.tools(name)


def extract_file(path: str, language: str, text: str) -> FileRows:
    """Parse and extract. Runs in a worker process under a time limit (see grounding.index.pool)."""
    if language == "cobol":
        from groundjudge.grounding.index.cobol_treesitter import facts

        source = CobolSource(text)
        ts = facts(source, copybook_kind(source) if is_copybook(path, source) else None)
        merged = index_cobol(path, source, ts)
        return FileRows(path, language, "errors" if ts["errors"] else "ok", _format_note(text), merged.symbols, merged.refs)
    grammar = grammar_for(path, language)
    if grammar:
        symbols, refs, errors = tags.extract(path, language, text, grammar)
        return FileRows(path, language, "errors" if errors else "ok", None, symbols, refs)
    return extract_lexical(path, language, text)


def _format_note(text: str) -> str | None:
    """Free-format COBOL is read by the same rules as fixed: a name in columns 1-4 stands in area A."""
    return "free-format source: paragraph names are read from columns 1-4" if is_free_format(text) else None


def extract_lexical(path: str, language: str, text: str, status: ParseStatus = "lexical", note: str | None = None) -> FileRows:
    """Rules only, no parser: JCL, BMS, plain text, and any COBOL file whose parse timed out or failed."""
    if language == "cobol":
        merged = index_cobol(path, text, None)
        return FileRows(path, language, status, note or _format_note(text), merged.symbols, merged.refs)
    if language == "jcl":
        symbols, refs = jcl.extract(path, text)
        return FileRows(path, language, status, note, symbols, refs)
    if language == "bms":
        symbols, refs = bms.extract(path, text)
        return FileRows(path, language, status, note, symbols, refs)
    return FileRows(path, language, status, note)
