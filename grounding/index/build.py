"""Build the index of a snapshot once per tree hash; parse in worker processes under a time limit per file.

Only what the cached path needs is imported at module level: the extractors, the worker pool and
tree-sitter load when a build actually starts.
"""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache, partial
from pathlib import Path

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.grounding.index.model import FileInfo
from groundjudge.grounding.index.registry import kind_of, kind_of_path, needs_parser
from groundjudge.grounding.index.store import SCHEMA_VERSION, TOO_LARGE, Index, IndexWriter
from groundjudge.grounding.snapshot import Snapshot, env_byte_limit
from groundjudge.hashing import sha256_text
from groundjudge.storage import home

_PACKAGE = Path(__file__).parent


def index_path(tree_hash: str) -> Path:
    return home() / "indexes" / f"{tree_hash}.sqlite"


@cache
def extractor_fingerprint() -> str:
    """sha256 of the extractor's own code, queries and language data: an index built by other rules is
    rebuilt, not reused."""
    files = sorted([*_PACKAGE.glob("*.py"), *(_PACKAGE / "queries").glob("*.scm"), *(_PACKAGE / "languages").glob("*.toml")])
    files.append(_PACKAGE.parent / "snapshot.py")  # how files are classified and decoded decides what is indexed
    return sha256_text("".join(f"{p.name}\0{p.read_text()}\0" for p in files))


def default_workers() -> int:
    """One parse worker per CPU this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # no affinity call on this platform
        return max(1, os.cpu_count() or 1)


def parse_time_limit(size: int) -> float:
    """Seconds allowed to parse a file of size bytes. Generous: parsing runs at ~12 MB/s, so a healthy
    file never comes near this."""
    return 5.0 + size / 200_000


MAX_FILE_BYTES = 10_000_000
MAX_FILE_ENV = "GROUNDJUDGE_MAX_FILE_BYTES"


def max_file_bytes() -> int:
    """The largest corpus text file the index reads: GROUNDJUDGE_MAX_FILE_BYTES, else MAX_FILE_BYTES.
    Indexing takes about 40 times a file's size in memory (a 50 MB file took 1.9 GB); a larger file is
    listed in the index as skipped, with a note saying why, and counted in the `corpus index` summary."""
    return env_byte_limit(MAX_FILE_ENV, MAX_FILE_BYTES)


def _same_size_limit(meta: dict[str, str], limit: int) -> bool:
    """Whether the index would come out the same under limit: every file it read is within it, and every
    file it left out as too large is still over it (a changed limit rebuilds only when it matters)."""
    try:
        largest, smallest = int(meta["largest_read"]), meta["smallest_too_large"]
    except (KeyError, ValueError):
        return False
    return largest <= limit and (smallest == "" or int(smallest) > limit)


def open_cached(tree_hash: str) -> Index | None:
    path = index_path(tree_hash)
    if not path.exists():
        return None
    try:
        idx = Index(path)
    except (sqlite3.DatabaseError, KeyError):
        return None
    if (
        idx.meta.get("schema_version") == str(SCHEMA_VERSION)
        and idx.meta.get("extractor") == extractor_fingerprint()
        and _same_size_limit(idx.meta, max_file_bytes())
    ):
        return idx
    idx.close()
    return None


def build_index(
    snapshot: Snapshot,
    progress: bool = False,
    workers: int | None = None,
    time_limit: Callable[[int], float] = parse_time_limit,
    parse: Callable | None = None,
    verify: bool = False,
) -> Path:
    """Write <home>/indexes/<tree_hash>.sqlite via a temp file and a rename: an interrupted build leaves nothing.

    workers: parse worker processes (default: one per CPU).
    parse(path, language, text) runs in the workers (default: extract.extract_file); tests substitute one
    that hangs to prove the time limit holds. time_limit(size in bytes) is each file's limit in seconds.
    verify re-hashes the snapshot's stored files as the main process reads them while the workers parse,
    refusing a moved corpus. Text files larger than max_file_bytes() are listed as skipped, never read.
    """
    limit = max_file_bytes()
    read_sizes = [e.size for e in snapshot.files if e.kind == "text" and e.size <= limit]
    too_large_sizes = [e.size for e in snapshot.files if e.kind == "text" and e.size > limit]
    target = index_path(snapshot.tree_hash)
    target.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_temporaries(target.parent)
    tmp = target.with_name(f".{target.name}.{_HOST}-{os.getpid()}.tmp")
    tmp.unlink(missing_ok=True)
    writer = None
    try:
        with _terminate_cleanly():
            writer = IndexWriter(tmp)
            with _progress(progress, len(snapshot.files)) as advance:
                _index_files(snapshot, writer, advance, workers or default_workers(), time_limit, parse, verify, limit)
            writer.finish(
                {
                    "schema_version": str(SCHEMA_VERSION),
                    "tree_hash": snapshot.tree_hash,
                    "extractor": extractor_fingerprint(),
                    "tool_version": __version__,
                    "largest_read": str(max(read_sizes, default=0)),
                    "smallest_too_large": str(min(too_large_sizes)) if too_large_sizes else "",
                }
            )
            os.replace(tmp, target)
    except BaseException:
        if writer is not None:
            writer.abandon()
        tmp.unlink(missing_ok=True)
        raise
    return target


# A build's temp file is named for its host and pid, so a later build can tell one whose builder is dead.
_HOST = re.sub(r"[^A-Za-z0-9-]", "-", socket.gethostname())[:64] or "host"
_TEMP_RE = re.compile(r"^\.[0-9a-f]{64}\.sqlite\.([A-Za-z0-9-]+)-(\d+)\.tmp$")
# A temp file untouched this long is abandoned whoever holds its pid now (a reused pid, another host's
# build): a live build writes to its file all the time it runs.
STALE_TEMP_SECONDS = 24 * 3600


def remove_stale_temporaries(folder: Path) -> list[Path]:
    """Delete the temp files of index builds that died without cleaning up (SIGKILL, a power cut): those of
    this host whose pid is not running, and any untouched for STALE_TEMP_SECONDS. Returns what it deleted."""
    removed = []
    now = time.time()
    for path in folder.iterdir():
        m = _TEMP_RE.match(path.name)
        if m is None:
            continue
        host, pid = m.group(1), int(m.group(2))
        try:
            idle = now - path.stat().st_mtime
        except FileNotFoundError:  # its build just finished or cleaned up
            continue
        if (host == _HOST and pid != os.getpid() and not _running(pid)) or idle > STALE_TEMP_SECONDS:
            path.unlink(missing_ok=True)
            removed.append(path)
    return removed


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process
        return True
    return True


@contextmanager
def _terminate_cleanly() -> Iterator[None]:
    """SIGTERM (and SIGHUP) during a build unwind it like an exception, so the workers are stopped and the
    temp file deleted, then exit 128 + the signal. Signal handlers can only be set from the main thread;
    a build in another thread relies on the next build's remove_stale_temporaries instead."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, _frame) -> None:
        raise SystemExit(128 + signum)

    # only where the signal would kill the process outright: an ignored SIGHUP (nohup) stays ignored, and
    # a handler of the caller's own stays in charge
    caught = [
        sig
        for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None))
        if sig is not None and signal.getsignal(sig) == signal.SIG_DFL
    ]
    previous = {sig: signal.signal(sig, stop) for sig in caught}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _parse_stored(parse: Callable, snapshot: Snapshot, path: str, language: str):
    """What a worker runs: read the file from the store itself, so no source text crosses the pipe."""
    return parse(path, language, snapshot.read_text(path))


def _index_files(
    snapshot: Snapshot, writer: IndexWriter, advance, workers: int, time_limit, parse, verify: bool, limit: int
) -> None:
    from groundjudge.grounding.index.cobol_source import is_free_format, searchable
    from groundjudge.grounding.index.extract import extract_file, extract_lexical, warm_up
    from groundjudge.grounding.index.pool import Failed, TimedOut, run_timed

    text_entries = [e for e in snapshot.files if e.kind == "text" and e.size <= limit]
    read = {e.path for e in text_entries}
    # Line rows are numbered from the manifest's line counts (checked as each file is read), so nothing
    # need be read before the workers start: the workers parse the files whose name says their language; one
    # told only by its text (a COBOL member without an extension) is indexed lexically as it is read.
    for entry in snapshot.files:
        writer.reserve(entry.path, entry.lines if entry.path in read else 0)
    parsed = sorted(
        (e for e in text_entries if needs_parser(kind_of_path(e.path))),
        key=lambda e: (-e.size, e.path),  # longest first balances the workers
    )
    scheduled = {e.path for e in parsed}
    warm_up([(e.path, kind_of_path(e.path)) for e in parsed])
    tasks = [(e.path, (e.path, kind_of_path(e.path)), time_limit(e.size)) for e in parsed]

    def own_work():
        """The main process's share, in small steps run while the workers parse (see run_timed's idle).
        With verify, each stored file is re-hashed as it is read here, in manifest order like
        Snapshot.verify, so the first changed file is the one named."""
        for entry in snapshot.files:
            if entry.path not in read:
                if verify:
                    snapshot.read_bytes(entry.path, verify=True)
                note = (
                    f"{entry.kind} file"
                    if entry.kind != "text"
                    else f"{TOO_LARGE}: {entry.size} bytes, over the limit of {limit} ({MAX_FILE_ENV})"
                )
                info = FileInfo(path=entry.path, language=kind_of(entry.path, ""), lines=0, status="skipped", note=note)
                writer.add_file(info, [], [])
                advance()
                continue
            text = snapshot.read_text(entry.path, verify=verify)
            lines = text.splitlines()
            if len(lines) != entry.lines:
                raise UserError(
                    f"snapshot {snapshot.name} lists {entry.lines} lines for this file, which has {len(lines)}", entry.path
                )
            lang = kind_of(entry.path, text)
            cobol = lang == "cobol"
            free = cobol and is_free_format(text)
            read_free = cobol and _read_free_format(text, lines, free)
            writer.add_text(entry.path, text, searchable(lines) if cobol and not free else lines, read_free)
            if entry.path not in scheduled:
                _add(writer, extract_lexical(entry.path, lang, text), entry.lines)
                advance()
            yield

    work = own_work()
    lines_of = {e.path: e.lines for e in text_entries}
    results = run_timed(
        partial(_parse_stored, parse or extract_file, snapshot),
        tasks,
        workers=workers,
        idle=lambda: next(work, StopIteration) is not StopIteration,
    )
    try:
        for path, result in results:
            if isinstance(result, (TimedOut, Failed)):
                lang = kind_of_path(path)
                text = snapshot.read_text(path, verify=verify)  # rare: read again rather than hold every file
                if isinstance(result, TimedOut):
                    result = extract_lexical(
                        path, lang, text, "timeout", f"parse exceeded {result.seconds:.1f} s; indexed lexically"
                    )
                else:
                    result = extract_lexical(path, lang, text, "lexical", f"parser failed ({result.error}); indexed lexically")
            _add(writer, result, lines_of[path])
            advance()
        for _ in work:  # whatever of its own work the main process has left
            pass
    finally:
        results.close()


def _read_free_format(text: str, lines: list[str], free: bool) -> bool:
    """is_free_format as the verifier's line rules read a COBOL file: of its lines joined by newlines. That
    is its text, whose answer free already is, unless it ends lines otherwise (CRLF, a form feed)."""
    from groundjudge.grounding.index.cobol_source import is_free_format

    joined = "\n".join(lines)
    return free if text in (joined, joined + "\n") else is_free_format(joined)


def _add(writer: IndexWriter, result, n_lines: int) -> None:
    info = FileInfo(path=result.path, language=result.language, lines=n_lines, status=result.status, note=result.note)
    writer.add_file(info, result.symbols, result.refs)


class _progress:
    """A rich progress bar on stderr, refreshed by hand at most ten times a second: no refresh thread may
    exist when workers fork. Drawn only on a terminal, where it can be seen."""

    def __init__(self, enabled: bool, total: int):
        self.enabled, self.total = enabled and sys.stderr.isatty(), total

    def __enter__(self):
        if not self.enabled:
            return lambda: None
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        self.bar = Progress(
            TextColumn("indexing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            auto_refresh=False,
            transient=True,
        )
        self.bar.start()
        task = self.bar.add_task("index", total=self.total)
        last = [0.0]

        def advance() -> None:
            self.bar.advance(task)
            now = time.monotonic()
            if now - last[0] >= 0.1:
                last[0] = now
                self.bar.refresh()

        return advance

    def __exit__(self, *exc) -> None:
        if self.enabled:
            self.bar.stop()
