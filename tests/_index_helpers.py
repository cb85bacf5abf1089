"""Shared set-up for the index tests: snapshot a fixture folder, a parse step that really hangs, and extractor
rows read as the models the index answers with."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

from groundjudge.grounding.index.extract import extract_file
from groundjudge.grounding.index.store import ref_of, symbol_of
from groundjudge.grounding.snapshot import snapshot_directory

FIXTURES = Path(__file__).parent / "fixtures" / "index"


def snapshot_of(tmp_path: Path, *folders: str, extra: dict[str, bytes] | None = None):
    """A snapshot holding the named fixture folders (under their own names) plus extra files."""
    root = tmp_path / "corpus"
    for folder in folders:
        shutil.copytree(FIXTURES / folder, root / folder)
    for rel, data in (extra or {}).items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return snapshot_directory(root)


def raw_cobol_parse(source: str) -> str:
    """Parse exactly the given text, without the index's padding: the grammar loops forever on `x`."""
    from tree_sitter import Parser
    from tree_sitter_language_pack import get_language

    tree = Parser(get_language("cobol")).parse(source.encode())
    return tree.root_node.type


def parse_hanging_on_hang_files(path: str, language: str, text: str):
    """The real worker step, except that files named HANG* go to the grammar unpadded, where they hang."""
    if Path(path).name.startswith("HANG"):
        raw_cobol_parse(text)
    return extract_file(path, language, text)


def as_models(found) -> SimpleNamespace:
    """What an extractor found (rows in .symbols and .refs) as the Symbol and Ref models the index returns for them."""
    return SimpleNamespace(symbols=[symbol_of(r) for r in found.symbols], refs=[ref_of(r) for r in found.refs])


# A free-format program (GnuCOBOL directive on line 1); line numbers as written.
FREE_FORMAT = """>>SOURCE FORMAT IS FREE
IDENTIFICATION DIVISION.
PROGRAM-ID. FREEPGM.
*> a comment line, then a debug line
>>D DISPLAY "TRACE"
DATA DIVISION.
WORKING-STORAGE SECTION.
01 WS-COUNTER PIC 9(4) VALUE 0.  *> a floating comment
PROCEDURE DIVISION.
MAIN-PARA.
    PERFORM WORK-PARA 3 TIMES
    PERFORM WORK-PARA
    DISPLAY "A LITERAL THAT RUNS WELL PAST COLUMN SEVENTY-TWO OF A CARD IMAGE, WHERE FIXED FORMAT STOPS" WS-COUNTER
    STOP RUN.
WORK-PARA.
    ADD 1 TO WS-COUNTER.
"""
