"""The words a renamer keeps besides every language's reserved words (grounding/index/registry.py): system
prefixes and dataset qualifiers, and the ordinary English words (``english_words.txt``) that an
identifier is kept for by default."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from groundjudge.storage import read_input_text

ENGLISH_FILE = Path(__file__).resolve().parent / "english_words.txt"

# A generated program name must not read as an IBM-supplied one.
SYSTEM_PREFIXES = ("DFH", "EIB", "SQL")

# A dataset name with one of these qualifiers belongs to the system (CICS, IMS, DB2, LE, compiler
# libraries), not to the repository: none of its qualifiers is renamed.
SYSTEM_QUALIFIERS = frozenset(
    [
        "SYS1",
        "SYS2",
        "SYS3",
        "SYS",
        "SYSX",
        "CEE",
        "CICS",
        "CICSTS",
        "DFH",
        "IGY",
        "ISP",
        "ISF",
        "IMS",
        "DB2",
        "DSN",
        "TCPIP",
        "SDFHLOAD",
        "SDFHCOB",
        "SDFHMAC",
        "SDFHEXCI",
        "SCEERUN",
        "SCEERUN2",
        "SCEELKED",
        "SCEELKEX",
        "SDSNLOAD",
        "SDSNEXIT",
        "DSNLOAD",
        "SIGYCOMP",
        "SDFSRESL",
        "SEZARNT1",
        "DBDLIB",
        "PSBLIB",
        "ACBLIB",
        "RESLIB",
        "MACLIB",
        "LINKLIB",
        "PARMLIB",
    ]
)


def parse_word_list(text: str) -> list[str]:
    """Whitespace-separated words, '#' to end of line is a comment; upper-cased, sorted, unique."""
    words: set[str] = set()
    for line in text.splitlines():
        words.update(w.upper() for w in line.split("#", 1)[0].split())
    return sorted(words)


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """Upper-cased. An identifier spelled as one of these (``BANK``, ``ledger``) is the kind of system's
    vocabulary, and renaming it would also rewrite the word wherever prose uses it."""
    return frozenset(parse_word_list(ENGLISH_FILE.read_text(encoding="utf-8")))


def read_word_file(path: str | Path) -> list[str]:
    """A user's --keep / --include / --exclude list; a missing or non-text file is a one-line error."""
    path = Path(path)
    return parse_word_list(read_input_text(path, "word list"))
