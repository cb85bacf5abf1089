"""The words a renamer keeps besides every language's reserved words (grounding/index/registry.py): system
prefixes and dataset qualifiers, and the ordinary English words (``english_words.txt``) that an
identifier is kept for by default."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from groundjudge.storage import read_input_text

ENGLISH_FILE = Path(__file__).resolve().parent / "english_words.txt"

# Module prefixes IBM reserves for its products' names (CICS DFH and EIB, SQL, DB2 DSN, IMS DFS, MQ
# CSQ, CICSPlex SM EYU, Language Environment CEE, Enterprise COBOL IGY): a name starting with one is
# IBM-supplied (DSNTEP2, CEEDAYS), is never renamed or scrubbed, and a generated name must not read as one.
SYSTEM_PREFIXES = ("DFH", "EIB", "SQL", "DSN", "DFS", "CSQ", "EYU", "CEE", "IGY")


def ibm_supplied(word: str) -> bool:
    """``word`` (upper case) carries an IBM product prefix, or is one of the product's target libraries,
    which SMP/E names S + prefix (SDFHAUTH, SDSNLOAD, SCEERUN, SEYUAUTH, SCSQLOAD)."""
    return word.startswith(SYSTEM_PREFIXES) or (word[:1] == "S" and word[1:].startswith(SYSTEM_PREFIXES))


# The symbolic-map names BMS derives from a map's label (+I, +O) and from a field's (+L length, +F
# flag, +A attribute, +C +P +H +V +U +M +T extended attributes, +I input, +O output).
BMS_MAP_SUFFIXES = "IO"
BMS_FIELD_SUFFIXES = "LFACPHVUMTIO"

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
