"""Frozen, content-addressed corpus snapshots.

A snapshot copies every regular file under a source directory into a content-addressed object store
and records a manifest. Everything downstream reads file contents through a ``Snapshot``, never from
the source directory, so a result is tied to the exact bytes named by the tree hash.
"""

from __future__ import annotations

import os
import re
import shlex
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import Literal

from pydantic import BaseModel

from groundjudge import __version__
from groundjudge.errors import UserError
from groundjudge.hashing import sha256_bytes, sha256_text
from groundjudge.storage import VersionedModel, atomic_write_bytes, home, read_model, write_model

FileKind = Literal["text", "binary", "non_utf8"]
# A text file that is not UTF-8 is read in the single-byte encodings mainframe sources are transferred in:
# Windows-1252 first (a superset of Latin-1's printable characters), then Latin-1, which decodes any byte.
TEXT_ENCODINGS = ("utf-8", "cp1252", "latin-1")
# Source in a single-byte encoding is mostly ASCII (names, keywords, layout) with a few accented letters in
# comments and literals; EBCDIC data or other binary-ish content is not, and stays unread (non_utf8).
_MIN_ASCII_SHARE = 0.9
_ASCII_TEXT = frozenset(b"\t\n\r\f" + bytes(range(0x20, 0x7F)))

_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


class FileEntry(BaseModel):
    path: str  # POSIX, relative to the corpus root
    sha256: str
    size: int
    lines: int  # 0 for binary and non_utf8 files
    kind: FileKind
    encoding: str = "utf-8"  # how a text file's bytes are decoded (one of TEXT_ENCODINGS)


class SkippedEntry(BaseModel):
    path: str
    reason: str


class Manifest(VersionedModel):
    schema_version: Literal[1] = 1
    name: str
    tree_hash: str
    source: str  # where the files were read from, for provenance only
    tool_version: str
    files: list[FileEntry]
    skipped: list[SkippedEntry] = []


def env_byte_limit(var: str, default: int) -> int:
    """A size limit in bytes from the environment variable var (default when unset or blank)."""
    raw = os.environ.get(var)
    if raw is None or not raw.strip():
        return default
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise UserError(f"{var}={raw!r} is not a positive number of bytes")
    return value


def tree_hash(entries: list[FileEntry]) -> str:
    """sha256 over the sorted (relative path, file sha256) pairs: independent of mtimes and location."""
    body = "".join(f"{e.path}\0{e.sha256}\n" for e in sorted(entries, key=lambda e: e.path))
    return sha256_text(body)


def classify(data: bytes) -> tuple[FileKind, int, str]:
    """(kind, lines, encoding): a file with a NUL byte near its start is binary; UTF-8 is text; a mostly ASCII
    file is text in the first single-byte encoding of TEXT_ENCODINGS that decodes it; anything else (EBCDIC
    data) is non_utf8 and left unread."""
    if b"\0" in data[:8192]:
        return "binary", 0, "utf-8"
    try:
        return "text", len(data.decode("utf-8").splitlines()), "utf-8"
    except UnicodeDecodeError:
        pass
    if sum(1 for b in data if b in _ASCII_TEXT) < _MIN_ASCII_SHARE * len(data):
        return "non_utf8", 0, "utf-8"
    for encoding in TEXT_ENCODINGS[1:]:
        try:
            return "text", len(data.decode(encoding).splitlines()), encoding
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte")


def _objects_dir() -> Path:
    return home() / "objects"


def _object_file(objects: str, digest: str) -> str:
    """Where the object with this digest lives under objects (the store's objects directory)."""
    return os.path.join(objects, digest[:2], digest[2:])


def _object_path(digest: str) -> Path:
    return Path(_object_file(str(_objects_dir()), digest))


def _manifest_path(name: str) -> Path:
    return home() / "snapshots" / f"{name}.json"


def _walk(root: Path) -> tuple[list[Path], list[SkippedEntry]]:
    """Regular files under root, never following a link out of it, nor into a directory loop."""
    files: list[Path] = []
    skipped: list[SkippedEntry] = []
    real_root = root.resolve()
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        for d in list(dirnames):
            if (here / d).is_symlink():
                dirnames.remove(d)
                skipped.append(SkippedEntry(path=(here / d).relative_to(root).as_posix(), reason="symlinked directory"))
        for name in sorted(filenames):
            p = here / name
            rel = p.relative_to(root).as_posix()
            if p.is_symlink():
                try:
                    target = p.resolve()
                except (RuntimeError, OSError):  # a link to itself, or a chain back to itself (RuntimeError before 3.13)
                    skipped.append(SkippedEntry(path=rel, reason="symlink loop"))
                    continue
                if not target.is_relative_to(real_root):
                    skipped.append(SkippedEntry(path=rel, reason="symlink out of the corpus root"))
                    continue
                if not target.is_file():
                    skipped.append(SkippedEntry(path=rel, reason="symlink to a non-file"))
                    continue
            elif not p.is_file():
                skipped.append(SkippedEntry(path=rel, reason="not a regular file"))
                continue
            files.append(p)
    return files, skipped


def _store_object(objects: str, data: bytes, digest: str) -> None:
    target = Path(_object_file(objects, digest))
    # A damaged object is rewritten rather than trusted because its name says it is right.
    if not target.exists() or sha256_bytes(target.read_bytes()) != digest:
        atomic_write_bytes(target, data)


def snapshot_directory(src: str | Path, name: str | None = None, replace: bool = True) -> Snapshot:
    """Record every regular file under src in the store; returns the loaded snapshot.

    replace=False refuses to repoint a name that already holds another tree (the CLI's default: a name
    that silently comes to mean other files turns every later result that uses it into a different one).
    The same tree under its own name again is no change, and always allowed."""
    root = Path(src)
    if not root.exists():
        raise UserError("corpus directory does not exist", root)
    if not root.is_dir():
        raise UserError("corpus is not a directory", root)
    paths, skipped = _walk(root)
    entries: list[FileEntry] = []
    objects = str(_objects_dir())  # once: home() makes sure the store exists, a system call per file otherwise
    for p in paths:
        data = p.read_bytes()
        digest = sha256_bytes(data)
        kind, lines, encoding = classify(data)
        _store_object(objects, data, digest)
        entries.append(
            FileEntry(
                path=p.relative_to(root).as_posix(), sha256=digest, size=len(data), lines=lines, kind=kind, encoding=encoding
            )
        )
    entries.sort(key=lambda e: e.path)
    th = tree_hash(entries)
    if name is None:
        name = f"{_safe_dir_name(root)}-{th[:12]}"
    elif not _NAME_RE.match(name):
        raise UserError(f"invalid snapshot name {name!r} (letters, digits, '.', '_', '-')")
    if not replace:
        _refuse_repointing(root, name, th)
    manifest = Manifest(
        name=name, tree_hash=th, source=str(root.resolve()), tool_version=__version__, files=entries, skipped=skipped
    )
    write_model(_manifest_path(name), manifest)
    return Snapshot(manifest)


def _refuse_repointing(root: Path, name: str, th: str) -> None:
    path = _manifest_path(name)
    if not path.exists():
        return
    try:
        old = read_model(path, Manifest)
    except UserError:
        raise UserError(
            f"snapshot {name!r} exists and its manifest {path} is unreadable: give --replace to overwrite it", root
        ) from None
    if old.tree_hash != th:
        raise UserError(
            f"snapshot {name!r} already holds another tree ({old.tree_hash[:12]}, from {old.source}), not this one "
            f"({th[:12]}): give --replace to repoint the name, or choose another --name",
            root,
        )


def _fix(manifest: Manifest) -> str:
    """The command that rebuilds a snapshot's manifest and objects from its source."""
    return f"run `groundjudge corpus snapshot {shlex.quote(manifest.source)} --name {manifest.name} --replace` again"


def _safe_dir_name(root: Path) -> str:
    base = re.sub(r"[^A-Za-z0-9._-]", "_", root.resolve().name) or "corpus"
    return base.lstrip("._-")[:60] or "corpus"


def list_snapshots() -> list[Manifest]:
    folder = home() / "snapshots"
    return [read_model(p, Manifest) for p in sorted(folder.glob("*.json"))] if folder.exists() else []


def load_snapshot(name: str, verify: bool = True) -> Snapshot:
    path = _manifest_path(name)
    if not _NAME_RE.match(name) or not path.exists():
        raise UserError(f"no stored snapshot named {name!r} and no such directory")
    manifest = read_model(path, Manifest)
    # The tree hash names the index and every result; entries that no longer hash to it (two digests
    # swapped, a path edited) would be believed, and the index of the recorded hash reused for other files.
    if tree_hash(manifest.files) != manifest.tree_hash:
        raise UserError(
            f"manifest entries do not hash to its tree hash {manifest.tree_hash[:12]} (edited or damaged): {_fix(manifest)}", path
        )
    snap = Snapshot(manifest)
    if verify:
        snap.verify()
    return snap


def open_corpus(spec: str | Path, verify: bool = True) -> Snapshot:
    """A stored snapshot name or a plain directory (snapshotted on the fly)."""
    p = Path(spec)
    if p.is_dir():
        return snapshot_directory(p)
    if p.exists() and not (_NAME_RE.match(str(spec)) and _manifest_path(str(spec)).exists()):
        raise UserError("corpus is not a directory", spec)
    if os.sep in str(spec) or str(spec).startswith("."):
        raise UserError("corpus directory does not exist", spec)
    return load_snapshot(str(spec), verify=verify)


# the same few paths are asked about thousands of times while an answer is verified
@lru_cache(maxsize=65536)
def normalize_relpath(cited: str) -> str | None:
    """A cited path as a snapshot-relative POSIX path, or None when it would leave the root."""
    cited = cited.strip().replace("\\", "/")
    if not cited or cited.startswith("/") or re.match(r"^[A-Za-z]:/", cited) or cited.startswith("~"):
        return None
    parts: list[str] = []
    for part in PurePosixPath(cited).parts:
        if part in ("", "."):
            continue
        if part == "..":
            if not parts:
                return None
            parts.pop()
            continue
        parts.append(part)
    return "/".join(parts) or None


class Snapshot:
    """Read-only view of one manifest; file contents come from the object store."""

    def __init__(self, manifest: Manifest):
        self.manifest = manifest
        self._by_path = {e.path: e for e in manifest.files}
        self._objects = str(_objects_dir())  # once, as snapshot_directory does

    @property
    def name(self) -> str:
        return self.manifest.name

    @property
    def tree_hash(self) -> str:
        return self.manifest.tree_hash

    @property
    def files(self) -> list[FileEntry]:
        return self.manifest.files

    def entry(self, relpath: str) -> FileEntry | None:
        exact = self._by_path.get(relpath)  # a path from the manifest itself needs no normalising
        if exact is not None:
            return exact
        norm = normalize_relpath(relpath)
        return self._by_path.get(norm) if norm else None

    def read_bytes(self, relpath: str, verify: bool = False) -> bytes:
        """The file's stored content; with verify, re-hashed first (see verify)."""
        entry = self.entry(relpath)
        if entry is None:
            raise UserError(f"not in snapshot {self.name}", relpath)
        return self._stored(entry, verify)

    def read_text(self, relpath: str, verify: bool = False) -> str:
        entry = self.entry(relpath)
        if entry is None or entry.kind != "text":
            raise UserError(f"not a text file in snapshot {self.name}", relpath)
        return self._stored(entry, verify).decode(entry.encoding)

    def verify(self) -> None:
        """Re-hash every stored object; refuse on the first that no longer matches its manifest entry."""
        for e in self.manifest.files:
            self._stored(e, verify=True)

    def _stored(self, entry: FileEntry, verify: bool) -> bytes:
        obj = _object_file(self._objects, entry.sha256)
        try:
            with open(obj, "rb") as fh:
                data = fh.read()
        except FileNotFoundError:
            if verify:
                raise self._damaged(obj, entry, "is missing") from None
            raise
        if verify and sha256_bytes(data) != entry.sha256:
            raise self._damaged(obj, entry, "is damaged (sha256 mismatch)")
        return data

    def _damaged(self, obj: str, entry: FileEntry, problem: str) -> UserError:
        # the store, not the corpus, is at fault: snapshotting the source again rewrites the object
        return UserError(f"object {obj} ({entry.path} in snapshot {self.name}) {problem}: {_fix(self.manifest)} to rewrite it")
