"""Memoised, read-only queries on one index, and the line rules they read code by.

The verifier asks the same questions of an index claim after claim: where a name is defined, which lines
mention it (outside comments), where a quoted statement stands, which files a cited path names. `Lookup`
answers them once per index handle; a `Resolution` is where one name lives. The index is immutable for its
tree hash, so nothing here is ever stale.
"""

from __future__ import annotations

import bisect
import re
import sqlite3
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import accumulate, repeat
from operator import add
from pathlib import PurePosixPath
from typing import Any, Generic, TypeVar, overload

from groundjudge.grounding.index.cobol_source import PROCEDURE_DIVISION
from groundjudge.grounding.index.model import DATA_KINDS, PROCEDURE_KINDS, Ref, RefKind, Symbol, SymbolKind
from groundjudge.grounding.index.registry import comment_starts
from groundjudge.grounding.index.registry import language as registered_language
from groundjudge.grounding.models import Evidence
from groundjudge.grounding.snapshot import normalize_relpath

SNIPPET_LINES = 15
SEARCH_LIMIT = 50
FULL_SEARCH_LIMIT = 20000
CHAIN_WINDOW = 8  # lines: how close the parts of an attribute chain must be used to make one chain
_PACKAGE_LINES = 40  # a package clause comes after at most a licence header
_PACKAGE_CLAUSE = re.compile(r"^\s*package\s+([A-Za-z_][\w.]*)\s*;?\s*$")


_T = TypeVar("_T")


class cached_property(Generic[_T]):  # named after functools.cached_property, which it stands in for
    """functools.cached_property without the lock Python 3.11 takes on every first read (3.12 dropped it): a
    claim's checker works out a handful of these once each, claim after claim, and that lock showed in the
    verification time. As with functools', the value goes into the instance's __dict__, which later reads find
    first; an object is computed on by one thread."""

    def __init__(self, func: Callable[[Any], _T]):
        self.func = func
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> cached_property[_T]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> _T: ...

    def __get__(self, instance: object | None, owner: type | None = None) -> _T | cached_property[_T]:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


@dataclass
class Resolution:
    """Where a name lives: its definitions, the references to it, the files it names, lines mentioning it."""

    defs: list[Symbol] = field(default_factory=list)
    refs: list[Ref] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    hits: list[tuple[str, int]] = field(default_factory=list)

    @property
    def found(self) -> bool:
        return bool(self.defs or self.refs or self.files or self.hits)

    # Claim after claim asks what kinds of thing a name is and where it is, and a name many programs share has
    # as many definitions: each is worked out once (a Resolution is complete before it is read, never changed after).
    @cached_property
    def kinds(self) -> frozenset[SymbolKind]:
        return frozenset(d.kind for d in self.defs)

    @cached_property
    def paths(self) -> frozenset[str]:
        return frozenset({d.path for d in self.defs} | {r.path for r in self.refs} | set(self.files) | {p for p, _ in self.hits})


# a paragraph or section's leading number, as written alone (R3100, P100, 3100): letters, then digits, no hyphen
NUMBERED = re.compile(r"[A-Za-z]{0,3}\d{3,5}")
# a COBOL name with a lower-case `n` where its items put a number (EOL-HOURSn for EOL-HOURS1 to EOL-HOURS7)
NUMBER_PLACEHOLDER = re.compile(r"(?<![\w-])([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*[A-Z])n(?![\w-])")


@lru_cache(maxsize=4096)
def word_pattern(name: str, hyphen: bool = True) -> re.Pattern[str]:
    """A name as a whole word; COBOL-style names (upper case, hyphens) match case-insensitively; the dots of
    a dotted name match a Rust or C++ path's `::` too (`LevelFilter.Info` is written `LevelFilter::Info`).
    `hyphen`: whether a hyphen joins words into one name in the text searched (COBOL's `ACCT-ID`, prose). In
    code it is also an operator: a name ends before a hyphen and a number (Go's `c.si-1`) and starts after a
    minus or an option's dashes (`-offset`, `"--verbose"`), but the words of a string's `Access-Control-Allow-Origin`
    or a comment's `R3100-00-PROCESSA` stay joined.
    Compiled once per name: claim after claim looks for the same names, more of them than re's own cache holds."""
    flags = re.I if name.upper() == name else 0
    body = re.escape(name).replace(r"\.", r"(?:\.|::)")
    if hyphen:
        return re.compile(rf"(?<![\w-]){body}(?![\w-])", flags)
    return re.compile(rf"(?:(?<![\w-])|(?<=\W-)|(?<=^-)){body}(?!\w)(?!-(?!\d+(?![\w-])))", flags)


_FREE_COBOL = "cobol (free format)"  # how the line rules below tell free-format COBOL from fixed


def is_comment(line: str, language: str) -> bool:
    if language == "cobol":
        return line[6:7] in ("*", "/")
    if language == _FREE_COBOL:
        return line.lstrip().startswith("*>")
    if language == "jcl":
        return line.startswith("//*")
    stripped = line.lstrip()
    # `#calculateDelay` in TypeScript is a private method, not a comment: each language its own markers
    starts = comment_starts(language)
    return stripped.startswith(starts if starts is not None else ("#", "//", "/*", "* "))


def code_part(line: str, language: str) -> str:
    """The statement text of a line: COBOL's fixed format keeps it in columns 8-72."""
    return line[7:72] if language == "cobol" else line


MAX_STATEMENT_LINES = 200


def last_part(name: str) -> str:
    return name.rsplit(".", 1)[-1]


class Lookup:
    """Memoised read-only queries on one index (the index is immutable for its tree hash)."""

    def __init__(self, index: Any, root_name: str = ""):
        self.index = index
        self.root_name = root_name.lower()
        self.definitions = lru_cache(maxsize=8192)(self._definitions)
        self.references = lru_cache(maxsize=8192)(self._references)
        self.file_lines = lru_cache(maxsize=512)(self._file_lines)
        self.search = lru_cache(maxsize=4096)(self._search)
        self.paths_matching = lru_cache(maxsize=4096)(self._paths_matching)
        self.file_info = lru_cache(maxsize=4096)(index.file_info)
        self.line_language = lru_cache(maxsize=4096)(self._line_language)
        self.call_argument_line = lru_cache(maxsize=4096)(self._call_argument_line)
        # claim after claim names the same programs and paragraphs; a Resolution is only ever read
        self.resolve_name = lru_cache(maxsize=8192)(self._resolve_name)
        self.definitions_starting = lru_cache(maxsize=4096)(self._definitions_starting)
        self.procedure_division_line = lru_cache(maxsize=512)(self._procedure_division_line)
        self._paths: list[str] | None = None
        self._directories: dict[str, list[str]] | None = None  # a directory's name -> the files under it
        self._code_text: dict[str, tuple[str, list[int]]] = {}
        self._joined_text: dict[str, tuple[str, list[int]]] = {}
        self._upper: dict[str, str] = {}
        self._hyphen: dict[str, bool] = {}
        self._by_path: dict[str, dict[str, tuple[Symbol, ...]]] = {}

    def _definitions(
        self, name: str | None = None, kind: SymbolKind | None = None, path: str | None = None
    ) -> tuple[Symbol, ...]:
        if name is not None and (kind is not None or path is not None):
            # a name's definitions are asked for on their own first (resolve_name), then by kind or file: the
            # rows already read, filtered, are the same rows in the same order as another query's
            found = (
                self.definitions(name) if path is None else self._definitions_by_path(name).get(normalize_relpath(path) or "", ())
            )
            return tuple(s for s in found if kind in (None, s.kind))
        return tuple(self.index.definitions(name=name, kind=kind, path=path))

    def _definitions_by_path(self, name: str) -> dict[str, tuple[Symbol, ...]]:
        """A name's definitions grouped by file, each group in the order of all of them: a name shared by many
        programs is asked for file by file."""
        if name not in self._by_path:
            groups: dict[str, list[Symbol]] = {}
            for s in self.definitions(name):
                groups.setdefault(s.path, []).append(s)
            self._by_path[name] = {p: tuple(group) for p, group in groups.items()}
        return self._by_path[name]

    def _procedure_division_line(self, path: str) -> int | None:
        """The line of a COBOL file's PROCEDURE DIVISION header (not in a comment), if it has one."""
        language = self.line_language(path)
        return next(
            (
                n
                for n, text in enumerate(self.file_lines(path), start=1)
                if PROCEDURE_DIVISION.search(text) and not is_comment(text, language)
            ),
            None,
        )

    def _definitions_starting(self, prefix: str, kinds: frozenset[SymbolKind]) -> tuple[Symbol, ...]:
        return tuple(self.index.definitions_starting(prefix, kinds))

    def _references(
        self,
        target: str | None = None,
        kind: RefKind | None = None,
        path: str | None = None,
        lines: tuple[int, int] | None = None,
    ) -> tuple[Ref, ...]:
        if target is None and path is not None and lines is not None:
            # windows of one file are asked for again and again (the statements around each cited line)
            first, last = lines
            return tuple(r for r in self.references(None, kind, path) if first <= r.line <= last)
        return tuple(self.index.references(target=target, kind=kind, path=path, lines=lines))

    def _file_lines(self, path: str) -> tuple[str, ...]:
        info = self.file_info(path)
        if info is None or info.status == "skipped":
            return ()
        return tuple(self.index.lines(path, 1, max(info.lines, 1)))

    def _search(self, text: str, limit: int = SEARCH_LIMIT) -> tuple[tuple[str, int, str], ...]:
        try:
            return tuple(self.index.search(text, limit=limit))
        except sqlite3.Error:
            return ()  # text the full-text syntax cannot express is looked up by scanning instead

    def _paths_matching(self, name: str) -> tuple[str, ...]:
        return tuple(self.index.paths_matching(name))

    def snippet(self, path: str, start: int, end: int, note: str | None = None) -> Evidence:
        lines = self.file_lines(path)
        start = max(1, min(start, len(lines) or 1))
        end = max(start, min(end, len(lines), start + SNIPPET_LINES - 1))
        return Evidence(path=path, start_line=start, end_line=end, snippet="\n".join(lines[start - 1 : end]), note=note)

    def mentions(self, path: str, name: str, start: int = 1, end: int | None = None) -> list[int]:
        """Lines start..end naming a name as a whole word."""
        return list(self._mention_lines(path, name, start, end))

    def _mention_lines(self, path: str, name: str, start: int = 1, end: int | None = None) -> Iterator[int]:
        """The lines of mentions, lazily: the file is scanned as one text (much faster than a search per
        line), one hit per line."""
        text, starts = self._joined(path)
        first = max(start, 1)
        stop = len(starts) if end is None else min(end, len(starts))
        if not starts or first > stop:
            return
        limit = starts[stop] - 1 if stop < len(starts) else len(text)
        at = starts[first - 1]
        while (found := self._find_word(path, name, at, limit)) >= 0:
            n = bisect.bisect_right(starts, found)
            yield n
            if n >= len(starts):
                return
            at = starts[n]

    def _find_word(self, path: str, name: str, at: int, limit: int) -> int:
        """Where word_pattern(name).search(text, at, limit) matches in a file's joined text, or -1. A regex whose
        first step is a look-behind tries every position of the file; str.find jumps to the name, and the two
        boundaries are checked by hand (\\w is isalnum() or '_'). A name the pattern matches in any case is
        found in the upper-cased text when both are ASCII: re.I folds more than upper() does (the Kelvin sign
        matches k), and upper() may change a non-ASCII text's length, so its offsets."""
        joined = self._joined(path)[0]
        text = (self._upper_text(path) if name.isascii() else "") if name.upper() == name else joined
        hyphen = self.hyphen_in_names(path)
        if not name or "." in name or not text:
            match = word_pattern(name, hyphen).search(joined, at, limit)
            return -1 if match is None else match.start()
        while (i := text.find(name, at, limit)) >= 0:
            j = i + len(name)
            if _bounded(text, i, j, limit, hyphen):
                return i
            at = i + 1
        return -1

    def _upper_text(self, path: str) -> str:
        """The joined text upper-cased, or "" when it is not ASCII."""
        if path not in self._upper:
            text = self._joined(path)[0]
            self._upper[path] = text.upper() if text.isascii() else ""
        return self._upper[path]

    def _joined(self, path: str) -> tuple[str, list[int]]:
        if path not in self._joined_text:
            lines = self.file_lines(path)
            # a line starts one past the end of the one before: summed by accumulate, not a Python loop per line
            starts = list(accumulate(map(add, map(len, lines), repeat(1)), initial=0))
            starts.pop()  # where a line after the last would start
            self._joined_text[path] = ("\n".join(lines), starts)
        return self._joined_text[path]

    def _call_argument_line(self, program: str, name: str) -> tuple[str, int] | None:
        """The first line of a CALL of a program, from its first line to its period or END-CALL, that names a
        name among what it passes."""
        for ref in self.references(program, RefKind.CALL):
            lines = self.file_lines(ref.path)
            for n in range(ref.line, min(ref.line + MAX_STATEMENT_LINES, len(lines)) + 1):
                if self.code_mentions(ref.path, name, n, n):
                    return ref.path, n
                if _CALL_END.search(code_part(lines[n - 1], "cobol")):
                    break
        return None

    def _line_language(self, path: str) -> str:
        """The file's language for the line rules: _FREE_COBOL for COBOL after a free-format directive."""
        language = self.language(path)
        if language == "cobol" and self.index.free_format(path):
            return _FREE_COBOL
        return language

    def code_mentions(self, path: str, name: str, start: int = 1, end: int | None = None) -> list[int]:
        """Like mentions, without comment lines (each language's own markers; COBOL column 7 `*` or `/`,
        `*>` in free format; JCL `//*`)."""
        return list(self.code_mention_lines(path, name, start, end))

    def first_code_mention(self, path: str, name: str, start: int = 1, end: int | None = None) -> int | None:
        return next(self.code_mention_lines(path, name, start, end), None)

    def code_mention_lines(self, path: str, name: str, start: int = 1, end: int | None = None) -> Iterator[int]:
        lines = self.file_lines(path)
        language = self.line_language(path)
        return (n for n in self._mention_lines(path, name, start, end) if not is_comment(lines[n - 1], language))

    def text_hits(self, text: str, limit: int = 5) -> list[tuple[str, int]]:
        """Lines containing text (whole word when it is a name), from the full-text table, confirmed by
        scanning; lines of source code come before lines of prose files (a README only describes the code)."""
        name = re.fullmatch(r"[\w$#@.-]+", text) is not None
        phrase = re.compile(re.escape(text))

        def holds(path: str, line: str) -> bool:
            return (word_pattern(text, self.hyphen_in_names(path)) if name else phrase).search(line) is not None

        found = self.search(text, FULL_SEARCH_LIMIT if limit > SEARCH_LIMIT else SEARCH_LIMIT)
        hits = {(p, n) for p, n, line in found if holds(p, line)}
        if len(found) == SEARCH_LIMIT and all(self.is_prose(p) for p, _ in hits):
            # The phrase's tokens fill the first page with other spellings (RETURN-CODE: "return code" in
            # comments), or with prose files that sort first (README.rst before the package): a name is called
            # absent, or only described, after every line holding its tokens was looked at.
            hits = {(p, n) for p, n, line in self.search(text, FULL_SEARCH_LIMIT) if holds(p, line)}
        return sorted(hits, key=lambda h: (self.is_prose(h[0]), h))[:limit]

    def language(self, path: str) -> str:
        """The file's language; "text" (prose) for a file the index does not hold."""
        info = self.file_info(path)
        return "text" if info is None else info.language

    def hyphen_in_names(self, path: str) -> bool:
        """Does a hyphen join a name in the file's language (COBOL, JCL, prose), or is it an operator (code)?"""
        if path not in self._hyphen:
            self._hyphen[path] = registered_language(self.language(path)).hyphen_in_names
        return self._hyphen[path]

    def is_prose(self, path: str) -> bool:
        return self.language(path) == "text"

    def resolve_files(self, cited: str) -> list[str]:
        """Snapshot files a cited path (or program/file name) names; [] when it leaves the root or names none."""
        norm = normalize_relpath(cited)
        if norm is None:
            return []
        if self.file_info(norm) is not None:
            return [norm]
        if "/" not in norm and "." not in norm:
            owners = sorted({d.path for kind in (SymbolKind.PROGRAM, SymbolKind.COPYBOOK) for d in self.definitions(norm, kind)})
            if owners:
                return owners
        if "/" not in norm:
            return list(self.paths_matching(norm))
        # A cited directory must agree: cpy/X.cpy is not src/X.cpy. A shorter path is an abbreviation
        # (cbl/X.cbl for app/cbl/X.cbl); a longer one only when the extra part is the corpus's own
        # directory (corpora/cobol-bank/cbl/X.cbl), not a made-up one (src/main/cobol/X.cbl).
        matches = [p for p in self.paths_matching(norm) if p == norm or p.endswith("/" + norm)]
        return matches or [p for p in self.all_paths() if norm.endswith("/" + p) and self._is_root_prefix(norm[: -len(p) - 1])]

    def _is_root_prefix(self, prefix: str) -> bool:
        last = prefix.rsplit("/", 1)[-1].lower()
        return bool(self.root_name) and (self.root_name in last or last in self.root_name)

    def code_text(self, path: str) -> tuple[str, list[int]]:
        """A file's code as one upper-case string with runs of white space squashed, without COBOL
        sequence and comment areas, and the offset where each line starts (for line numbers)."""
        if path not in self._code_text:
            language = self.line_language(path)
            chunks: list[str] = []
            starts: list[int] = []
            size = 0
            for line in self.file_lines(path):
                if language == "cobol" and re.match(r"[\d ]{6}", line):  # fixed format: code is columns 8-72
                    line = "" if is_comment(line, language) else line[7:72]
                elif language == _FREE_COBOL and is_comment(line, language):
                    line = ""
                text = squash(line).upper()
                starts.append(size)
                chunks.append(text)
                size += len(text) + 1
            self._code_text[path] = (" ".join(chunks), starts)
        return self._code_text[path]

    def statement_line(self, path: str, parts: list[str], start: int = 1, end: int | None = None) -> int | None:
        """Line where the parts of a quoted statement start, in order, within lines start..end, or None.
        Spacing next to a parenthesis or comma is the writer's (`concatenate("views/", trim(x))` for the
        code's `concatenate("views/",trim(x))`)."""
        text, starts = self.code_text(path)
        lo = starts[start - 1] if 1 <= start <= len(starts) else 0
        hi = starts[end] if end is not None and end < len(starts) else len(text)
        at = first = lo - 1
        for part in parts:
            found = _statement_pattern(part).search(text, at + 1, hi)
            if found is None:
                return None
            i = found.start()
            first = i if first < lo else first
            at = i
        return bisect.bisect_right(starts, first)

    def concatenated_literal(self, path: str, text: str) -> int | None:
        """The first line of string literals on consecutive lines that spell text when joined (a message too
        long for one line: `"The book record is not up to date, " &` then `"please select it again."`)."""
        wanted = " ".join(text.split())
        lines = self.file_lines(path)
        if self.line_language(path) == "cobol":
            found = next((n for n in range(1, len(lines) + 1) if _continued_literal(lines, n) == wanted), None)
            if found is not None:
                return found
        for n, line in enumerate(lines, start=1):
            pieces = string_literals(line)
            joined = pieces[-1] if pieces else ""
            if not joined.strip() or not wanted.startswith(" ".join(joined.split())):
                continue
            for later in lines[n : n + MAX_LITERAL_LINES]:
                following = string_literals(later)
                joined += "".join(following)
                flat = " ".join(joined.split())
                if flat == wanted:
                    return n
                if not following or not wanted.startswith(flat):
                    break
        return None

    def quoted_statement_line(self, path: str, quoted: str, start: int = 1, end: int | None = None) -> int | None:
        """Line of a quoted statement within lines start..end: as written ("..." skipping any text), else as
        an EXEC command with its options in another order."""
        parts = statement_parts(quoted)
        if not parts:
            return None
        if NUMBER_PLACEHOLDER.search(quoted):
            # `COMPUTE EOL-HOURSn ROUNDED = (EOL-UNITSn / 4)`: the statement of each numbered item, one number for
            # every `n` of the quote
            return next(
                (
                    line
                    for k in range(1, 10)
                    if (line := self.statement_line(path, [NUMBER_PLACEHOLDER.sub(rf"\g<1>{k}", p) for p in parts], start, end))
                ),
                None,
            )
        return self.statement_line(path, parts, start, end) or self.command_line(path, quoted, start, end)

    def command_line(self, path: str, quoted: str, start: int = 1, end: int | None = None) -> int | None:
        """Line of an EXEC CICS/SQL/DLI command that matches a quoted one in any order of its options
        (`EXEC CICS FETCH CHILD(T)` for `EXEC CICS FETCH CHANNEL(C) CHILD(T) ... END-EXEC`); an option
        written `NAME(...)` takes any argument. None when the quote is no such command or none matches."""
        tokens = _COMMAND_TOKEN.findall(squash(quoted).upper())
        if len(tokens) < 3 or tokens[0] != "EXEC" or tokens[1] not in ("CICS", "SQL", "DLI"):
            return None
        verb = tokens[2].split("(", 1)[0]
        options = ([tokens[2]] if "(" in tokens[2] else []) + tokens[3:]
        text, starts = self.code_text(path)
        head = re.compile(rf"\bEXEC {tokens[1]} {re.escape(verb)}\b")
        for m in head.finditer(text):
            closing = text.find("END-EXEC", m.end())
            block = text[m.start() : closing if closing >= 0 else m.end() + 2000]
            line = bisect.bisect_right(starts, m.start())
            if start <= line <= (end or line) and all(_option_in(option, block) for option in options):
                return line
        return None

    def context_files(self, name: str) -> list[str]:
        """Files a carried context names; a path under a made-up directory (src/main/cobol/X.cbl) still
        means the one snapshot file of that name."""
        return self.resolve_files(name) or self.same_basename(name)

    def same_basename(self, cited: str) -> list[str]:
        norm = normalize_relpath(cited)
        if norm is None or "/" not in norm:
            return []
        base = PurePosixPath(norm).name.lower()
        return [p for p in self.paths_matching(PurePosixPath(norm).name) if PurePosixPath(p).name.lower() == base]

    def is_copybook(self, path: str) -> bool:
        return bool(self.definitions(None, SymbolKind.COPYBOOK, path))

    def all_paths(self) -> list[str]:
        if self._paths is None:
            self._paths = [f.path for f in self.index.files()]
        return self._paths

    def directory_files(self, name: str) -> list[str]:
        """The snapshot's files under a directory of that name, at any depth."""
        if self._directories is None:
            self._directories = {}
            for path in self.all_paths():
                for part in dict.fromkeys(path.split("/")[:-1]):
                    self._directories.setdefault(part, []).append(path)
        return self._directories.get(name, [])

    def _resolve_name(self, name: str) -> Resolution:
        defs = list(self.definitions(name))
        if "." in name and not defs:
            return self._resolve_dotted(name)
        res = Resolution(defs=defs)
        if not defs:
            res.refs = list(self.references(name))
            if not res.refs:
                # A file stem (CBACT01C -> cbl/CBACT01C.cbl); hyphenated COBOL data and paragraph names never are one.
                res.files = self.resolve_files(name) if re.fullmatch(r"[\w$#@]+", name) else []
                if not res.files:
                    res.hits = self.text_hits(name)
                if not res.found:
                    res.defs = self._copy_replaced(name)
                if not res.found and NUMBERED.fullmatch(name):
                    # `R3100` for the section R3100-00-PROCESSA-COSG-CED: COBOL shops number their paragraphs
                    # and sections and speak of them by the number
                    res.defs = list(self.definitions_starting(name + "-", PROCEDURE_KINDS))
                if not res.found and (placeholder := NUMBER_PLACEHOLDER.fullmatch(name)):
                    res.defs = self.numbered(placeholder.group(1))
                if not res.found and name.endswith("-"):
                    res.hits = self._unnamed_presence(name)
        return res

    def numbered(self, stem: str) -> list[Symbol]:
        """COBOL data items named stem and a number (WRK-PAY-RATE1 to WRK-PAY-RATE4), when there are several."""
        items = [d for d in self.definitions_starting(stem, DATA_KINDS) if d.name[len(stem) :].isdigit()]
        return items if len({d.name.upper() for d in items}) > 1 else []

    def _copy_replaced(self, name: str) -> list[Symbol]:
        """A COBOL name made by COPY ... REPLACING ==:TAG:== BY ==CUST==: CUST-ID is the copybook's
        :TAG:-ID, defined under its placeholder."""
        placeholders = {
            placeholder + name[len(by) :].upper()
            for _, _, line in self.search("REPLACING", FULL_SEARCH_LIMIT)
            for placeholder, by in _REPLACING.findall(line)
            if name.upper().startswith(by.upper() + "-")
        }
        return [d for placeholder in sorted(placeholders) for d in self.definitions(placeholder)]

    def _names_module(self, word: str) -> bool:
        """Is word a package directory or a module file of the snapshot?"""
        return any(word in PurePosixPath(p).with_suffix("").parts for p in self.all_paths())

    def name_part(self, part: str) -> tuple[str, int, str] | None:
        """The first code line with a COBOL-style name that holds part between hyphens (QSAM-STAT in
        WS-OCOR1-QSAM-STAT), and that name."""
        within = re.compile(
            r"(?<![\w-])(?:[\w]+-)+"
            + re.escape(part)
            + r"(?:-[\w]+)*(?![\w-])|(?<![\w-])"
            + re.escape(part)
            + r"(?:-[\w]+)+(?![\w-])",
            re.I,
        )
        for path, n, line in self.search(part, FULL_SEARCH_LIMIT):
            m = within.search(line)
            if m is not None and not self.is_prose(path):
                return path, n, m.group(0)
        return None

    def _unnamed_presence(self, name: str) -> list[tuple[str, int]]:
        """Lines showing that a name no definition or whole word accounts for is still real: a prefix of
        names (EPSPDATA-), or an attribute chain whose every part is in the code (value.timestamp.signature)."""
        if name.endswith("-"):
            prefix = re.compile(r"(?<![\w-])" + re.escape(name), re.I)
            return [(p, n) for p, n, line in self.search(name.rstrip("-"), FULL_SEARCH_LIMIT) if prefix.search(line)][:5]
        if "." in name and not self._names_module(name.split(".")[0]):
            # A chain is real when its parts are used together, within a few lines of one code file. A chain
            # that starts with a package or file names a module, which exists only as a file.
            first, *others = [[h for h in self.text_hits(part, 50) if not self.is_prose(h[0])] for part in name.split(".")]
            for path, n in first:
                near = [next((h for h in hits if h[0] == path and abs(h[1] - n) <= CHAIN_WINDOW), None) for hits in others]
                if all(near):
                    return [(path, n)]
        return []

    def field_lines(self, owner: str, attr: str) -> list[tuple[str, int]]:
        """Where class `owner` declares field `attr` (``attr: int`` in a dataclass, ``self.attr = ...``, and in
        the C-family languages a typed declaration: ``private Set<Visit> visits = new LinkedHashSet<>();``)."""
        name = re.escape(attr)
        field = re.compile(
            r"^\s*(?:(?:self|this)\.)?" + name + r"\s*(?::|=(?!=))"
            r"|^\s*(?:[\w.<>\[\],?]+\s+)+" + name + r"\s*(?:=(?!=).*)?;"
        )
        out: list[tuple[str, int]] = []
        for cls in self.definitions(owner, SymbolKind.CLASS):
            lines = self.file_lines(cls.path)
            out.extend(
                (cls.path, n) for n in range(cls.start_line, min(cls.end_line, len(lines)) + 1) if field.match(lines[n - 1])
            )
        return out[:5]

    def declared_package(self, path: str) -> str | None:
        """The package a file's own clause declares (`package xidb` in Go, `package org.a.b;` in Java and Kotlin),
        read from its first lines; None when it has none."""
        for line in self.file_lines(path)[:_PACKAGE_LINES]:
            m = _PACKAGE_CLAUSE.match(line)
            if m is not None:
                return m.group(1)
        return None

    def _resolve_dotted(self, name: str) -> Resolution:
        qualifier, last = name.rsplit(".", 1)
        if qualifier in ("self", "cls", "this"):  # an attribute of the enclosing object, never a module
            defs = list(self.definitions(last))
            refs = [] if defs else list(self.references(last))
            return Resolution(defs=defs, refs=refs, hits=[] if defs or refs else self.text_hits(name))
        owner = last_part(qualifier)
        module = qualifier.replace(".", "/")
        candidates = list(self.definitions(last))
        matched = [
            d
            for d in candidates
            if d.detail.get("parent") == owner
            or PurePosixPath(d.path).stem == owner
            or PurePosixPath(d.path).with_suffix("").as_posix().endswith(module)
            # `jwt.InvalidTokenError`: a name a package's modules define (and its __init__ re-exports)
            or PurePosixPath(d.path).parent.as_posix().endswith(module)
            # `xidb.ID`: a Go, Java or Kotlin file belongs to the package its clause names, wherever it sits
            or self.declared_package(d.path) in (qualifier, owner)
        ]
        if matched:
            return Resolution(defs=matched)
        field_lines = self.field_lines(owner, last)
        if field_lines:
            return Resolution(hits=field_lines)
        res = Resolution(refs=[r for r in self.references(name)] or [r for r in self.references(last) if r.target == name])
        if not res.refs and not candidates:
            # `difflib.get_close_matches` where the code says `from difflib import get_close_matches`
            res.hits = [h for h in self.text_hits(f"{qualifier} import {last}") if not self.is_prose(h[0])]
            if res.hits:
                return res
            # a dotted module name: pyledger.ledger
            whole = name.replace(".", "/")
            res.files = list(self.paths_matching(whole + ".py")) or list(self.paths_matching(whole))
        if not res.found:
            res.hits = self.text_hits(name) or self._unnamed_presence(name)
        return res


def _bounded(text: str, i: int, j: int, limit: int, hyphen: bool) -> bool:
    """Is text[i:j] a whole word by word_pattern's boundaries (checked by hand: \\w is isalnum() or '_')?"""
    before, after = text[i - 1] if i else "", text[j] if j < limit else ""
    if _is_word_char(before) or _is_word_char(after):
        return False
    if before == "-" and (hyphen or (i >= 2 and _is_word_char(text[i - 2]))):
        return False
    return after != "-" or (not hyphen and _NUMBER_OPERAND.match(text, j + 1, limit) is not None)


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


_NUMBER_OPERAND = re.compile(r"\d+(?![\w-])")  # `-1` after a name in code: a subtraction, not a name's part


_CALL_END = re.compile(r"\.\s*$|\bEND-CALL\b", re.I)
MAX_LITERAL_LINES = 4  # lines a message split into literals may run on for
_REPLACING = re.compile(r"==\s*(:[\w-]+:)\s*==\s+BY\s+==\s*([\w-]+)\s*==", re.I)
# a command's words and options: NAME(argument) or a bare word
_COMMAND_TOKEN = re.compile(r"[^\s(]+(?:\([^)]*\))?")


def _option_in(option: str, block: str) -> bool:
    """Is a quoted option (`CHILD(T)`, `NOSUSPEND`, `PROGRAM(...)` for any program) in a command's text?"""
    name, _, argument = option.partition("(")
    if not argument or argument.rstrip(")").strip() in ("...", "…"):
        return re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", block) is not None
    return re.search(rf"(?<![\w-]){re.escape(name)}\s*\(\s*{re.escape(argument.rstrip(')').strip())}\s*\)", block) is not None


def statement_parts(quoted: str) -> list[str]:
    """A quoted statement's parts between "..." (or "…"), which stands for any text in the code."""
    return [p.strip() for p in re.split(r"\.\.\.|…", quoted) if p.strip()]


def squash(line: str) -> str:
    return re.sub(r"\s+", " ", line).strip()


@lru_cache(maxsize=1024)
def _statement_pattern(part: str) -> re.Pattern[str]:
    """A quoted statement as code_text holds it: upper case, white space squashed, and a space or none on
    either side of a parenthesis or comma."""
    pieces = re.split(r"\s*([(),])\s*", squash(part).upper())
    return re.compile("".join(re.escape(p) if i % 2 == 0 else f" ?{re.escape(p)} ?" for i, p in enumerate(pieces)))


_STRING_LITERAL = re.compile(r"""(["'`])((?:\\.|(?!\1).)*)\1""")


def _continued_literal(lines: tuple[str, ...] | list[str], n: int) -> str | None:
    """A fixed-format COBOL literal left open on line n (it runs to column 72) and continued on the lines after,
    each with a hyphen in column 7 and the literal going on after its first quote; its white space squashed.
    None when line n leaves no literal open or no continuation line follows."""
    code = lines[n - 1].ljust(72)[7:72]
    quote = next((q for q in "\"'" if code.count(q) % 2 == 1), None)
    if quote is None or n >= len(lines) or lines[n][6:7] != "-":
        return None
    joined = code[code.rindex(quote) + 1 :]
    for line in lines[n : n + MAX_LITERAL_LINES]:
        more = line.ljust(72)[7:72]
        if line[6:7] != "-" or quote not in more:
            return None
        more = more[more.index(quote) + 1 :]
        if quote in more:
            return " ".join((joined + more[: more.index(quote)]).split())
        joined += more
    return None


def string_literals(line: str) -> list[str]:
    return [m.group(2) for m in _STRING_LITERAL.finditer(line)]
