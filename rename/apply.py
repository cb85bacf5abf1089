"""Apply an identifier map to a snapshot: new contents and paths in memory, collision checks, then an
atomic write of the whole tree (built in a temporary directory beside OUT, then renamed)."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from groundjudge.errors import UserError
from groundjudge.grounding.snapshot import FileEntry, Snapshot, classify, tree_hash
from groundjudge.hashing import sha256_bytes
from groundjudge.rename.lexer import sniff, substitute
from groundjudge.rename.mapping import Lookup
from groundjudge.rename.models import PHRASE_CLASS
from groundjudge.rename.phrase import Phrases


@dataclass
class RenamedTree:
    files: dict[str, bytes]  # new relative path -> content
    renamed_paths: dict[str, str]  # old -> new, where they differ
    copied_verbatim: list[str]
    occurrences: dict[str, int]
    tree_hash: str


def rewrite(text: str, lang: str, lookup: Lookup, phrases: Phrases) -> str:
    """``text`` renamed: its phrases word by word, then its tokens."""
    text, n = phrases.apply(text, lang, lookup.replaced)
    if n:
        lookup.counts[PHRASE_CLASS] = lookup.counts.get(PHRASE_CLASS, 0) + n
    return substitute(text, lang, lookup)


def rename_path(path: str, lookup: Lookup, phrases: Phrases) -> str:
    return "/".join(rewrite(part, "text", lookup, phrases) for part in path.split("/"))


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
    files: dict[str, bytes] = {}
    renamed: dict[str, str] = {}
    verbatim: list[str] = []
    folded: dict[str, str] = {}
    for entry in snapshot.files:
        new_path = rename_path(entry.path, lookup, finder)
        key = new_path.casefold()
        if new_path in files or (key in folded and folded[key] != entry.path.casefold()):
            raise UserError(f"path collision: {entry.path} would be written as {new_path}, which another file also becomes")
        folded[key] = entry.path.casefold()
        if new_path != entry.path:
            renamed[entry.path] = new_path
        data = snapshot.read_bytes(entry.path)
        if entry.kind == "text":
            text = data.decode("utf-8")
            data = rewrite(text, sniff(entry.path, text), lookup, finder).encode("utf-8")
        else:
            verbatim.append(entry.path)
        files[new_path] = data
    entries = []
    for path, data in files.items():
        kind, lines = classify(data)
        entries.append(FileEntry(path=path, sha256=sha256_bytes(data), size=len(data), lines=lines, kind=kind))
    return RenamedTree(files, renamed, verbatim, dict(sorted(lookup.counts.items())), tree_hash(entries))


def write_tree(files: dict[str, bytes], out: Path, force: bool) -> None:
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
