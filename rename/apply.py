"""Apply an identifier map to a snapshot: new contents and paths in memory, collision checks, then an
atomic write of the whole tree (built in a temporary directory beside OUT, then renamed)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from groundjudge.errors import UserError
from groundjudge.grounding.snapshot import FileEntry, Snapshot, classify, tree_hash
from groundjudge.hashing import sha256_bytes
from groundjudge.rename.lexer import language_of, sniff, substitute
from groundjudge.rename.mapping import Lookup
from groundjudge.rename.models import PHRASE_CLASS
from groundjudge.rename.phrase import Phrases
from groundjudge.rename.pystrings import StringData


@dataclass
class RenamedTree:
    files: dict[str, bytes]  # new relative path -> content
    renamed_paths: dict[str, str]  # old -> new, where they differ
    copied_verbatim: list[str]
    occurrences: dict[str, int]
    tree_hash: str
    links: dict[str, str] = field(default_factory=dict)  # new path of a directory link -> its target


def rewrite(
    text: str,
    lang: str,
    lookup: Lookup,
    phrases: Phrases,
    data: Sequence[tuple[int, int]] = (),
    data_lookup: Lookup | None = None,
) -> str:
    """``text`` renamed: its phrases word by word, then its tokens (``data_lookup`` inside ``data``)."""
    text, n = phrases.apply(text, lang, lookup, data, data_lookup)
    if n:
        lookup.counts[PHRASE_CLASS] = lookup.counts.get(PHRASE_CLASS, 0) + n
    return substitute(text, lang, lookup, data, data_lookup)


def rename_path(path: str, lookup: Lookup, phrases: Phrases, code_dirs: frozenset[str]) -> str:
    return rewrite(path, "text", lookup, phrases, path_data(path, code_dirs), lookup.path_view)


def code_directories(paths: Iterable[str]) -> frozenset[str]:
    """Directories holding a source file of a case-sensitive language (Python, Java, ...), at any depth."""
    dirs: set[str] = set()
    for path in paths:
        if language_of(path) == "code":
            parts = path.split("/")[:-1]
            dirs.update("/".join(parts[: i + 1]) for i in range(len(parts)))
    return frozenset(dirs)


def path_data(path: str, code_dirs: frozenset[str]) -> list[tuple[int, int]]:
    """Spans of the parts of ``path`` that name no code: a directory without source files under it, the
    name of a file that is not source. A Python or Java name is renamed there only as data is (not at
    all): code opens such files by literal paths (``"tests/certs/ca.crt"``), which are data."""
    spans: list[tuple[int, int]] = []
    start = 0
    parts = path.split("/")
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        if not ("/".join(parts[: i + 1]) in code_dirs or (last and language_of(path) == "code")):
            spans.append((start, start + len(part)))
        start += len(part) + 1
    return spans


def check_map(identifiers: dict[str, str], corpus_tokens: set[str], source: str | Path | None = None) -> None:
    """Refuse a map that could merge two names or turn a name into one already in use."""
    seen: dict[str, str] = {}
    originals = {o.upper() for o in identifiers}
    for orig, new in identifiers.items():
        up = new.upper()
        if up in seen and seen[up].upper() != orig.upper():
            raise UserError(f"map collision: {seen[up]!r} and {orig!r} would both become {new!r}", source)
        seen[up] = orig
        if up in originals and up != orig.upper():
            raise UserError(f"map collision: {orig!r} would become {new!r}, itself a renamed original", source)
        if up in corpus_tokens and up not in originals:
            raise UserError(f"map collision: {orig!r} would become {new!r}, a token already in the corpus", source)


def build(
    snapshot: Snapshot,
    identifiers: dict[str, str],
    classes: dict[str, str],
    corpus_tokens: set[str],
    kept: dict[str, str],
    phrases: dict[str, str],
) -> RenamedTree:
    """Everything the output tree will hold, computed before a byte is written."""
    check_map(identifiers, corpus_tokens)
    lookup = Lookup(identifiers, classes, kept)
    finder = Phrases(phrases)
    code_dirs = code_directories(e.path for e in snapshot.files)
    strings = StringData(snapshot)
    files: dict[str, bytes] = {}
    renamed: dict[str, str] = {}
    verbatim: list[str] = []
    folded: dict[str, str] = {}
    for entry in snapshot.files:
        new_path = rename_path(entry.path, lookup, finder, code_dirs)
        key = new_path.casefold()
        if new_path in files or (key in folded and folded[key] != entry.path.casefold()):
            raise UserError(f"path collision: {entry.path} would be written as {new_path}, which another file also becomes")
        folded[key] = entry.path.casefold()
        if new_path != entry.path:
            renamed[entry.path] = new_path
        data = snapshot.read_bytes(entry.path)
        if entry.kind == "text":
            text = data.decode(entry.encoding)
            spans = strings.spans(entry.path, text)
            # written back in the file's own encoding: a Latin-1 source stays Latin-1
            data = rewrite(text, sniff(entry.path, text), lookup, finder, spans, lookup.data_view).encode(entry.encoding)
        else:
            verbatim.append(entry.path)
        files[new_path] = data
    entries = []
    for path, data in files.items():
        kind, lines, encoding = classify(data)
        entries.append(FileEntry(path=path, sha256=sha256_bytes(data), size=len(data), lines=lines, kind=kind, encoding=encoding))
    links = directory_links(snapshot, lambda p: rename_path(p, lookup, finder, code_dirs))
    return RenamedTree(files, renamed, verbatim, dict(sorted(lookup.counts.items())), tree_hash(entries), links)


def directory_links(snapshot: Snapshot, rename: Callable[[str], str]) -> dict[str, str]:
    """The corpus's links to its own directories (a snapshot skips them), as new path -> new relative
    target: tests reach fixtures through them (``certs/valid/ca -> ../expired/ca``). Read from the
    snapshot's source directory while it exists; a link leaving the corpus is no part of it."""
    root = Path(snapshot.manifest.source)
    links: dict[str, str] = {}
    for skipped in snapshot.manifest.skipped:
        link = root / skipped.path
        if not (link.is_symlink() and link.is_dir()):
            continue
        target = os.path.normpath(os.path.join(os.path.dirname(skipped.path), os.readlink(link)))
        if os.path.isabs(target) or target.split("/")[0] == "..":
            continue
        new_link = rename(skipped.path)
        links[new_link] = os.path.relpath(rename(target), os.path.dirname(new_link) or ".")
    return dict(sorted(links.items()))


def write_tree(files: dict[str, bytes], out: Path, force: bool, links: dict[str, str] | None = None) -> None:
    """Write into a temporary directory beside ``out``, then rename it into place: a failure leaves
    either the old ``out`` or nothing, never a partial tree."""
    out = Path(out)
    if out.exists() and not force:
        raise UserError("output exists (use --force to replace it)", out)
    if out.exists() and not out.is_dir():
        raise UserError("output exists and is not a directory", out)
    ensure_parent(out)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        for rel, data in sorted(files.items()):
            target = tmp / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data)
        for rel, link_target in (links or {}).items():
            (tmp / rel).parent.mkdir(parents=True, exist_ok=True)
            os.symlink(link_target, tmp / rel, target_is_directory=True)
        if out.exists():
            old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
            os.replace(out, old / "tree")
            os.replace(tmp, out)
            shutil.rmtree(old)
        else:
            os.replace(tmp, out)
    except OSError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise UserError(f"cannot write the renamed tree ({exc.strerror or exc})", out) from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def ensure_parent(path: Path) -> None:
    """Create the directory ``path`` will be written in; a path that cannot be is a one-line error, and
    is found before any output is written."""
    try:
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UserError(f"cannot create its directory ({exc.strerror or exc})", path) from None
