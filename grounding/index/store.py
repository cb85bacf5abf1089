"""The index on disk (one SQLite file per tree hash) and the read-only query interface over it."""

from __future__ import annotations

import bisect
import json
import sqlite3
from collections.abc import Callable, Iterable
from functools import lru_cache
from operator import itemgetter
from pathlib import Path, PurePosixPath

from groundjudge.grounding.index.model import FileInfo, Ref, RefKind, Source, Symbol, SymbolKind
from groundjudge.grounding.index.registry import case_insensitive
from groundjudge.grounding.snapshot import normalize_relpath

# the note of a text file over the size limit (build.max_file_bytes): listed as skipped, never read
TOO_LARGE = "too large to index"

SCHEMA_VERSION = 3  # 2: file_text and a contentless lines_fts replace line_text; 3: files.free_format

SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
-- free_format: COBOL whose lines are read by the free-format rules (lookup.is_comment), decided from its text
-- once here rather than by scanning it again on every open
CREATE TABLE files(path TEXT PRIMARY KEY, language TEXT NOT NULL, lines INTEGER NOT NULL, status TEXT NOT NULL,
                   note TEXT, first_row INTEGER NOT NULL, free_format INTEGER NOT NULL);
CREATE TABLE symbols(kind TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL, path TEXT NOT NULL,
                     start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, language TEXT NOT NULL,
                     source TEXT NOT NULL, detail TEXT NOT NULL);
CREATE TABLE refs(kind TEXT NOT NULL, target TEXT NOT NULL, target_key TEXT NOT NULL, path TEXT NOT NULL,
                  line INTEGER NOT NULL, context TEXT, language TEXT NOT NULL, detail TEXT NOT NULL);
CREATE TABLE file_text(path TEXT PRIMARY KEY, text TEXT NOT NULL);
-- One FTS row per line, numbered from files.first_row; for COBOL, columns 7-72 (cobol_source.searchable).
-- Contentless: a line's text is read from file_text, so it is stored once (measured: a quarter less CPU
-- than a line table plus an external-content rebuild). columnsize=0: no per-row token counts, which only
-- ranking (bm25) reads.
CREATE VIRTUAL TABLE lines_fts USING fts5(text, content='', columnsize=0);
"""
INDEXES = """
CREATE INDEX symbols_name ON symbols(name_key);
CREATE INDEX symbols_path ON symbols(path, start_line);
CREATE INDEX refs_target ON refs(target_key);
CREATE INDEX refs_path ON refs(path, line);
"""


def match_key(name: str, language: str) -> str:
    """COBOL, JCL and BMS names match case-insensitively; other languages exactly."""
    return name.upper() if language in case_insensitive() else name


_quote = json.encoder.encode_basestring_ascii  # json.dumps's own string encoder


def _detail_json(detail: dict[str, str] | None) -> str:
    """json.dumps(detail or {}, sort_keys=True) for a str -> str dict, written out: this runs for every symbol and ref."""
    if not detail:
        return "{}"
    return "{" + ", ".join(f"{_quote(k)}: {_quote(v)}" for k, v in sorted(detail.items())) + "}"


# The row layouts of the symbols and refs tables, defined once: the extractors build rows in the parse
# workers (so only plain tuples cross the process pipe, and no model is made per entry on the build
# path), the writer inserts them as they are, and the queries read them back into Symbol and Ref.
# Both begin with (kind, name or target, line), the key entries are deduplicated on.
SYMBOL_COLUMNS = ("kind", "name", "start_line", "end_line", "path", "language", "source", "detail", "name_key")
REF_COLUMNS = ("kind", "target", "line", "path", "context", "language", "detail", "target_key")
SymbolRow = tuple  # in SYMBOL_COLUMNS order
RefRow = tuple  # in REF_COLUMNS order
KIND, NAME, LINE, LANGUAGE = 0, 1, 2, 5  # positions that mean the same in both layouts


def symbol_row(
    kind: SymbolKind,
    name: str,
    path: str,
    start_line: int,
    end_line: int,
    language: str,
    source: Source,
    detail: dict[str, str] | None = None,
) -> SymbolRow:
    """A definition (see Symbol), as a row. detail is encoded now: later changes to the dict do not reach the row."""
    return (kind, name, start_line, end_line, path, language, source, _detail_json(detail), match_key(name, language))


def ref_row(
    kind: RefKind, target: str, path: str, line: int, context: str | None, language: str, detail: dict[str, str] | None = None
) -> RefRow:
    """A use of a name (see Ref), as a row."""
    return (kind, target, line, path, context, language, _detail_json(detail), match_key(target, language))


def _same_key(asked: str, stored: str, language: str) -> bool:
    return asked == stored or match_key(asked, language) == match_key(stored, language)


# a row's stored kind to its enum member by a dict look-up: the enum's own call costs more, per row read
_SYMBOL_KIND: dict[str, SymbolKind] = {k.value: k for k in SymbolKind}
_REF_KIND: dict[str, RefKind] = {k.value: k for k in RefKind}


# A NamedTuple's own constructor runs Python code; tuple.__new__ makes the same object without it, per row read.
_make = tuple.__new__


def symbol_of(row: SymbolRow) -> Symbol:
    return _symbols([row[:-1]], None)[0]


def ref_of(row: RefRow) -> Ref:
    return _refs([row[:-1]], None)[0]


# Rows as the queries read them (without the match key, which only their WHERE clauses use) into Symbols and
# Refs; with a name, only the rows whose stored name matches it by their language's case rule (the key may have
# matched the other rule). One comprehension rather than a function call per row: verification reads many rows.
def _symbols(rows: Iterable[tuple], name: str | None) -> list[Symbol]:
    return [
        _make(Symbol, (_SYMBOL_KIND[kind], stored, path, start, end, language, source, _detail(detail)))
        for kind, stored, start, end, path, language, source, detail in rows
        if name is None or _same_key(name, stored, language)
    ]


def _refs(rows: Iterable[tuple], target: str | None) -> list[Ref]:
    return [
        _make(Ref, (_REF_KIND[kind], stored, path, line, language, context, _detail(detail)))
        for kind, stored, line, path, context, language, detail in rows
        if target is None or _same_key(target, stored, language)
    ]


@lru_cache(maxsize=65536)
def _detail(stored: str) -> dict[str, str]:
    # details repeat (an empty one, a `PIC X(10)` at level 05), and decoding them per row shows in verification
    # time; rows with equal details share the decoded dict, which is why Symbol and Ref say never to change it
    return json.loads(stored)


def _insert(table: str, columns: tuple[str, ...]) -> str:
    return f"INSERT INTO {table}({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


_INSERT_SYMBOL = _insert("symbols", SYMBOL_COLUMNS)
_INSERT_REF = _insert("refs", REF_COLUMNS)
_SYMBOL_SELECT, _REF_SELECT = ", ".join(SYMBOL_COLUMNS[:-1]), ", ".join(REF_COLUMNS[:-1])
# The queries' orders, as keys of the rows read: symbols by path, start_line, kind, name, end_line, detail; refs by
# path, line, kind, target, context (NULL first, as SQLite puts it), detail. Sorting the few rows of a name or a
# file here costs less than SQLite's temporary B-tree for an ORDER BY (measured: verification reads thousands of
# rows this way). SQLite's BINARY order is Python's str order (UTF-8 keeps code point order), and no two rows
# of an index share a whole key, so the order is the one an ORDER BY gave.
_symbol_order = itemgetter(4, 2, 0, 1, 3, 7)


def _ref_order(row: tuple) -> tuple:
    kind, target, line, path, context, _, detail = row
    return path, line, kind, target, context is not None, context or "", detail


class IndexWriter:
    """Fills a fresh SQLite file. Line rows are numbered up front in path order (reserve), so files may
    then arrive in any order (add_file) and the stored index is the same whatever order parsing finished in.
    The text (add_text) goes in while the parse workers are still busy."""

    def __init__(self, path: Path):
        self.conn = sqlite3.connect(path)
        # the file is built under a temp name and renamed only when complete: durability buys nothing here
        self.conn.execute("PRAGMA journal_mode=OFF")
        self.conn.execute("PRAGMA synchronous=OFF")
        self.conn.executescript(SCHEMA)
        self._next_row = 1
        self._first_row: dict[str, int] = {}
        self._files: list[tuple] = []
        self._free_format: set[str] = set()

    def reserve(self, path: str, n_lines: int) -> None:
        """Call once per file, in path order, before add_lines and add_file."""
        self._first_row[path] = self._next_row
        self._next_row += n_lines

    def add_text(self, path: str, text: str, searchable: list[str], free_format: bool) -> None:
        """A file's text, what of each of its lines (text.splitlines()) the full-text table holds, and whether
        it is free-format COBOL."""
        first = self._first_row[path]
        if free_format:
            self._free_format.add(path)
        self.conn.execute("INSERT INTO file_text VALUES (?, ?)", (path, text))
        self.conn.executemany(
            "INSERT INTO lines_fts(rowid, text) VALUES (?, ?)", zip(range(first, first + len(searchable)), searchable)
        )

    def add_file(self, info: FileInfo, symbols: list[SymbolRow], refs: list[RefRow]) -> None:
        """Rows as made by symbol_row / ref_row."""
        self._files.append((info.path, info.language, info.lines, info.status, info.note, self._first_row[info.path]))
        self.conn.executemany(_INSERT_SYMBOL, symbols)
        self.conn.executemany(_INSERT_REF, refs)

    def abandon(self) -> None:
        self.conn.close()

    def finish(self, meta: dict[str, str]) -> None:
        c = self.conn
        files = sorted((*row, int(row[0] in self._free_format)) for row in self._files)
        c.executemany("INSERT INTO files VALUES (?, ?, ?, ?, ?, ?, ?)", files)
        c.executescript(INDEXES)
        c.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))
        c.commit()
        c.close()


def _fts_phrase(text: str) -> str:
    return '"' + text.replace('"', '""') + '"'


class Index:
    """Read-only queries over one built index. Results are sorted, so equal questions give equal answers."""

    def __init__(self, path: Path):
        self.path = path
        self.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
        self.meta = dict(self.conn.execute("SELECT key, value FROM meta"))
        self.tree_hash = self.meta["tree_hash"]
        self.cached = False  # set by load_index: reused from disk rather than built now
        self._paths: list[str] | None = None
        self._free_format: frozenset[str] | None = None
        self._file_rows: dict[str, tuple] | None = None
        self._starts: list[tuple[int, str]] | None = None
        # a file's lines, read once while in use: verification asks for many snippets of the same few files,
        # and a long run over a large corpus must not end up holding every file
        self._file_lines = lru_cache(maxsize=256)(self._read_lines)

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # files -----------------------------------------------------------------------------------
    def files(self) -> list[FileInfo]:
        rows = self.conn.execute("SELECT path, language, lines, status, note FROM files ORDER BY path")
        return [FileInfo(path=p, language=lang, lines=n, status=st, note=note) for p, lang, n, st, note in rows]

    def file_info(self, path: str) -> FileInfo | None:
        if self._file_rows is None:
            # the whole table, once: verification asks about file after file, and a query each costs more
            rows = self.conn.execute("SELECT path, language, lines, status, note FROM files")
            self._file_rows = {row[0]: row for row in rows}
        row = self._file_rows.get(normalize_relpath(path) or "")
        return FileInfo(path=row[0], language=row[1], lines=row[2], status=row[3], note=row[4]) if row else None

    def _all_paths(self) -> list[str]:
        if self._paths is None:
            self._paths = [p for (p,) in self.conn.execute("SELECT path FROM files ORDER BY path")]
        return self._paths

    def paths_matching(self, name: str) -> list[str]:
        """The exact relative path; else paths ending in those components; else a basename or stem match (any case)."""
        norm = normalize_relpath(name)
        if not norm:
            return []
        paths = self._all_paths()
        if norm in paths:
            return [norm]
        suffix = [p for p in paths if p.endswith("/" + norm)]
        if suffix:
            return suffix
        low = norm.rsplit("/", 1)[-1].lower()
        return [p for p in paths if PurePosixPath(p).name.lower() == low or PurePosixPath(p).stem.lower() == low]

    def free_format(self, path: str) -> bool:
        """Whether a file is COBOL in free format (a directive switches to it, or its headers start before column 8)."""
        if self._free_format is None:
            self._free_format = frozenset(p for (p,) in self.conn.execute("SELECT path FROM files WHERE free_format"))
        return normalize_relpath(path) in self._free_format

    # symbols and refs ----------------------------------------------------------------------------
    def _select(
        self,
        table: str,
        columns: str,
        order: Callable[[tuple], tuple],
        key: str | None,
        kind: SymbolKind | RefKind | None,
        path: str | None,
        lines: tuple[int, int] | None = None,
    ) -> list[tuple]:
        """Rows of symbols or refs filtered on name key, kind, path and (refs) lines, in order; the key's case
        rule is the row language's."""
        where: list[str] = []
        args: list[object] = []
        if lines is not None:
            where.append("line BETWEEN ? AND ?")
            args += list(lines)
        key_column = "name_key" if table == "symbols" else "target_key"
        if key is not None:
            # one look-up for a name already in upper case (most COBOL names): an OR of two equal keys is two
            keys = dict.fromkeys((key.upper(), key))
            where.append(f"{key_column} IN ({', '.join('?' * len(keys))})")
            args += keys
        if kind is not None:
            where.append("kind = ?")
            args.append(kind)
        if path is not None:
            where.append("path = ?")
            args.append(normalize_relpath(path) or "")
        sql = f"SELECT {columns} FROM {table}" + (" WHERE " + " AND ".join(where) if where else "")
        return sorted(self.conn.execute(sql, args), key=order)

    def definitions(self, name: str | None = None, kind: SymbolKind | None = None, path: str | None = None) -> list[Symbol]:
        return _symbols(self._select("symbols", _SYMBOL_SELECT, _symbol_order, name, kind, path), name)

    def definitions_starting(self, prefix: str, kinds: frozenset[SymbolKind]) -> list[Symbol]:
        """Definitions of the given kinds in a case-insensitive language (COBOL, JCL) whose name starts with
        prefix, any case: a range of the name index, so no scan."""
        key = prefix.upper()
        if not key:
            return []
        rows = self.conn.execute(
            f"SELECT {_SYMBOL_SELECT} FROM symbols WHERE name_key >= ? AND name_key < ?"
            f" AND kind IN ({','.join('?' * len(kinds))}) ORDER BY path, start_line, kind, name",
            (key, key[:-1] + chr(ord(key[-1]) + 1), *sorted(kinds)),
        )
        return _symbols((r for r in rows if r[LANGUAGE] in case_insensitive()), None)

    def references(
        self,
        target: str | None = None,
        kind: RefKind | None = None,
        path: str | None = None,
        lines: tuple[int, int] | None = None,
    ) -> list[Ref]:
        """References by target, kind, path and a window of lines (first, last), each filter optional."""
        return _refs(self._select("refs", _REF_SELECT, _ref_order, target, kind, path, lines), target)

    def enclosing(
        self,
        path: str,
        line: int,
        kinds=(
            SymbolKind.PARAGRAPH,
            SymbolKind.SECTION,
            SymbolKind.FUNCTION,
            SymbolKind.METHOD,
            SymbolKind.CLASS,
            SymbolKind.PROGRAM,
        ),
    ) -> Symbol | None:
        """The innermost symbol of one of kinds whose range holds line."""
        kinds = tuple(kinds)
        if not kinds:
            return None
        row = self.conn.execute(
            f"SELECT {_SYMBOL_SELECT} FROM symbols"
            f" WHERE path = ? AND start_line <= ? AND end_line >= ? AND kind IN ({','.join('?' * len(kinds))})"
            " ORDER BY start_line DESC, end_line ASC, kind, name LIMIT 1",
            (normalize_relpath(path) or "", line, line, *kinds),
        ).fetchone()
        return _symbols([row], None)[0] if row else None

    # text ----------------------------------------------------------------------------------------
    def _read_lines(self, path: str) -> list[str]:
        row = self.conn.execute("SELECT text FROM file_text WHERE path = ?", (path,)).fetchone()
        return row[0].splitlines() if row else []

    def lines(self, path: str, start: int, end: int) -> list[str]:
        """Lines start..end (1-based, inclusive), clipped to the file; [] for an unknown file or empty range."""
        norm = normalize_relpath(path)
        if not norm or max(1, start) > end:
            return []
        return self._file_lines(norm)[max(1, start) - 1 : end]

    def search(self, text: str, limit: int = 20) -> list[tuple[str, int, str]]:
        """Lines holding text as a phrase (FTS5 tokens, any case), as (path, line, text), in path and line order."""
        if not text.strip():
            return []
        rows = self.conn.execute(
            "SELECT rowid FROM lines_fts WHERE lines_fts MATCH ? ORDER BY rowid LIMIT ?", (_fts_phrase(text), limit)
        ).fetchall()
        if self._starts is None:
            self._starts = self.conn.execute("SELECT first_row, path FROM files WHERE lines > 0 ORDER BY first_row").fetchall()
        firsts = [f for f, _ in self._starts]
        out = []
        for (rowid,) in rows:
            first, path = self._starts[bisect.bisect_right(firsts, rowid) - 1]
            out.append((path, rowid - first + 1, self._file_lines(path)[rowid - first]))
        return out

    def counts(self) -> dict[str, int]:
        one = lambda sql: self.conn.execute(sql).fetchone()[0]  # noqa: E731
        return {
            "files": one("SELECT count(*) FROM files"),
            "definitions": one("SELECT count(*) FROM symbols"),
            "references": one("SELECT count(*) FROM refs"),
            "lexical_only": one("SELECT count(*) FROM files WHERE status IN ('lexical', 'timeout')"),
            "timeouts": one("SELECT count(*) FROM files WHERE status = 'timeout'"),
            "parse_errors": one("SELECT count(*) FROM files WHERE status = 'errors'"),
            "skipped": one("SELECT count(*) FROM files WHERE status = 'skipped'"),
            "too_large": one(f"SELECT count(*) FROM files WHERE status = 'skipped' AND note LIKE '{TOO_LARGE}%'"),
        }
