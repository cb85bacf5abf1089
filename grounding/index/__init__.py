"""The grounding index: definitions, references and a full-text table per snapshot, cached by tree hash.

from groundjudge.grounding.index import load_index
idx = load_index(snapshot)        # builds once per tree hash, then reopens the cached SQLite file
idx.definitions(name="2000-PROCESS", kind=SymbolKind.PARAGRAPH)
"""

from __future__ import annotations

from groundjudge.grounding.index.build import build_index, open_cached
from groundjudge.grounding.index.model import FileInfo, Ref, RefKind, Symbol, SymbolKind
from groundjudge.grounding.index.store import Index
from groundjudge.grounding.snapshot import Snapshot

__all__ = ["FileInfo", "Index", "Ref", "RefKind", "Symbol", "SymbolKind", "load_index"]


def load_index(snapshot: Snapshot, progress: bool = False, workers: int | None = None, verify: bool = False) -> Index:
    """The index of snapshot; `idx.cached` says whether it was reused rather than built now.

    verify: re-hash the snapshot's stored files first (for one loaded with verify=False), refusing a
    moved corpus; on a build this runs while the parse workers start.
    """
    idx = open_cached(snapshot.tree_hash)
    if idx is not None:
        if verify:
            try:
                snapshot.verify()
            except BaseException:
                idx.close()
                raise
        idx.cached = True
        return idx
    return Index(build_index(snapshot, progress=progress, workers=workers, verify=verify))
