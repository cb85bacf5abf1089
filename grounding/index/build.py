"""Build the index of a snapshot once per tree hash; parse in worker processes under a time limit per file."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from functools import cache
from pathlib import Path

from groundjudge import __version__
from groundjudge.hashing import sha256_text
from groundjudge.storage import home
from grounding.index.extract import FileRows, extract_lexical, extract_rows, needs_parser, to_rows, warm_up
from grounding.index.languages import language_for
from grounding.index.model import FileInfo
from grounding.index.pool import Failed, TimedOut, run_timed
from grounding.index.store import SCHEMA_VERSION, Index, IndexWriter
from grounding.snapshot import Snapshot

_PACKAGE = Path(__file__).parent


def index_path(tree_hash: str) -> Path:
    return home() / "indexes" / f"{tree_hash}.sqlite"


@cache
def extractor_fingerprint() -> str:
    """sha256 of the extractor's own code and queries: an index built by other rules is rebuilt, not reused."""
    files = sorted([*_PACKAGE.glob("*.py"), *(_PACKAGE / "queries").glob("*.scm")])
    return sha256_text("".join(f"{p.name}\0{p.read_text()}\0" for p in files))


def parse_time_limit(text: str) -> float:
    """Generous: parsing runs at ~12 MB/s, so a healthy file never comes near this."""
    return 5.0 + len(text) / 200_000


def open_cached(tree_hash: str) -> Index | None:
    path = index_path(tree_hash)
    if not path.exists():
        return None
    try:
        idx = Index(path)
    except (sqlite3.DatabaseError, KeyError):
        return None
    if idx.meta.get("schema_version") == str(SCHEMA_VERSION) and idx.meta.get("extractor") == extractor_fingerprint():
        return idx
    idx.close()
    return None


def build_index(
    snapshot: Snapshot,
    progress: bool = False,
    workers: int = 2,
    time_limit: Callable[[str], float] = parse_time_limit,
    parse: Callable[[str, str, str], FileRows] = extract_rows,
) -> Path:
    """Write <home>/indexes/<tree_hash>.sqlite via a temp file and a rename: an interrupted build leaves nothing.

    parse runs in the workers; tests substitute one that hangs to prove the time limit holds.
    """
    target = index_path(snapshot.tree_hash)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    writer = None
    try:
        writer = IndexWriter(tmp)
        with _progress(progress, len(snapshot.files)) as advance:
            _index_files(snapshot, writer, advance, workers, time_limit, parse)
        writer.finish({
            "schema_version": str(SCHEMA_VERSION),
            "tree_hash": snapshot.tree_hash,
            "extractor": extractor_fingerprint(),
            "tool_version": __version__,
        })
        os.replace(tmp, target)
    except BaseException:
        if writer is not None:
            writer.abandon()
        tmp.unlink(missing_ok=True)
        raise
    return target


def _index_files(snapshot: Snapshot, writer: IndexWriter, advance, workers: int, time_limit, parse) -> None:
    files: dict[str, tuple[str, str, list[str]]] = {}  # path -> (language, text, lines)
    for entry in snapshot.files:
        if entry.kind != "text":
            writer.reserve(entry.path, 0)
            info = FileInfo(path=entry.path, language=language_for(entry.path, ""), lines=0, status="skipped", note=f"{entry.kind} file")
            writer.add_file(info, [], [], [])
            advance()
            continue
        text = snapshot.read_text(entry.path)
        lines = text.splitlines()
        writer.reserve(entry.path, len(lines))
        files[entry.path] = (language_for(entry.path, text), text, lines)
    parsed = sorted((p for p, (lang, _, _) in files.items() if needs_parser(lang)), key=lambda p: (-len(files[p][1]), p))
    warm_up([(p, files[p][0]) for p in parsed])
    # longest first balances the workers; the main process does the rule-only files meanwhile
    results = run_timed(parse, [(p, (p, files[p][0], files[p][1]), time_limit(files[p][1])) for p in parsed], workers=workers)
    for path, (lang, text, lines) in files.items():
        if not needs_parser(lang):
            _add(writer, to_rows(extract_lexical(path, lang, text)), lines)
            advance()
    for path, result in results:
        lang, text, lines = files[path]
        if isinstance(result, TimedOut):
            result = to_rows(extract_lexical(path, lang, text, "timeout", f"parse exceeded {result.seconds:.1f} s; indexed lexically"))
        elif isinstance(result, Failed):
            result = to_rows(extract_lexical(path, lang, text, "lexical", f"parser failed ({result.error}); indexed lexically"))
        _add(writer, result, lines)
        advance()


def _add(writer: IndexWriter, result: FileRows, lines: list[str]) -> None:
    info = FileInfo(path=result.path, language=result.language, lines=len(lines), status=result.status, note=result.note)
    writer.add_file(info, lines, result.symbol_rows, result.ref_rows)


class _progress:
    """A rich progress bar on stderr, refreshed by hand: no refresh thread may exist when workers fork."""

    def __init__(self, enabled: bool, total: int):
        self.enabled, self.total = enabled, total

    def __enter__(self):
        if not self.enabled:
            return lambda: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(TextColumn("indexing"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=Console(stderr=True), auto_refresh=False, transient=True)
        self.bar.start()
        task = self.bar.add_task("index", total=self.total)

        def advance() -> None:
            self.bar.advance(task)
            self.bar.refresh()

        return advance

    def __exit__(self, *exc) -> None:
        if self.enabled:
            self.bar.stop()
