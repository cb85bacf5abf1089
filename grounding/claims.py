"""Claim extraction: a Markdown answer -> claim units, each with the references a snapshot can check.

A claim unit is a sentence of a paragraph, a list item, or a table row; a fenced code block goes with
the unit that introduces it; headings are not claims but set the context (the program or file a
following unit talks about when it names none itself). Everything here is shape-based and needs no
index: deciding whether a name exists is the verifier's job.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol, runtime_checkable

from groundjudge.grounding.facts import CELL_SEPARATOR, extract_facts
from groundjudge.grounding.index.registry import Kind, is_document_or_config, language, source_extensions, special_names
from groundjudge.grounding.models import Claim, ClaimRef, Relation
from groundjudge.grounding.snapshot import normalize_relpath


@runtime_checkable
class ClaimExtractor(Protocol):
    @property
    def name(self) -> str: ...

    def extract(self, answer_text: str) -> list[Claim]: ...


# --- word lists -------------------------------------------------------------------------------------

# With COBOL's reserved words, the words an answer uses as plain vocabulary: mainframe terms (CICS, JCL,
# SQL) and tech acronyms written in capitals. None of them may become a reference (an unresolved one would
# wrongly count against a claim). Not every language's reserved words: IDCAMS's KEYS or a utility such as
# IKJEFT01 is something an answer states and the snapshot can confirm.
PROSE_WORDS = frozenset(
    [
        "COMMIT",
        "CICS",
        "XCTL",
        "LINK",
        "MAP",
        "MAPSET",
        "DATASET",
        "RIDFLD",
        "RESP",
        "RESP2",
        "COMMAREA",
        "TRANSID",
        "HANDLE",
        "ABEND",
        "SYNCPOINT",
        "STARTBR",
        "READNEXT",
        "READPREV",
        "ENDBR",
        "UPDATE",
        "ERASE",
        "FREEKB",
        "DFHRESP",
        "NORMAL",
        "NOTFND",
        "SQLCODE",
        "SQLCA",
        "INCLUDE",
        "DECLARE",
        "FETCH",
        "WHERE",
        "CREATE",
        "DROP",
        "ROLLBACK",
        "JCL",
        "JOB",
        "STEP",
        "PROC",
        "PEND",
        "DD",
        "DSN",
        "DISP",
        "PGM",
        "PARM",
        "SYSPRINT",
        "COND",
        "MSGCLASS",
        "NOTIFY",
        "REGION",
        "RECFM",
        "LRECL",
        "BLKSIZE",
        "VOL",
        "SHR",
        "OLD",
        "NEW",
        "CATLG",
        "KEEP",
        "PASS",
        "IEFBR14",
        "IDCAMS",
        "IEBGENER",
        "BMS",
        "DFHMSD",
        "DFHMDI",
        "DFHMDF",
        "VSAM",
        "KSDS",
        "ESDS",
        "RRDS",
        "QSAM",
        "DB2",
        "IMS",
        "MVS",
        "ZOS",
        "TSO",
        "ISPF",
        "IBM",
        "JES",
        "SMS",
        "RACF",
        "ASCII",
        "API",
        "APIS",
        "CLI",
        "CSV",
        "YAML",
        "TOML",
        "HTML",
        "HTTP",
        "HTTPS",
        "URL",
        "URI",
        "ORM",
        "UTF",
        "UTC",
        "GMT",
        "ISO",
        "CPU",
        "RAM",
        "OS",
        "IDS",
        "OK",
        "EOF",
        "IO",
        "I/O",
        "NA",
        "TBD",
        "TODO",
        "FIXME",
        "NOTE",
        "README",
        "PR",
        "CI",
        "CRUD",
        "YES",
        "THE",
        "A",
        "AN",
        "READ-ONLY",
        "READ-WRITE",
        "NON-CICS",
        "NON-VSAM",
        "ONLINE",
        "BATCH",
        "CICS-TS",
        "Z-OS",
        "IBM-037",
        "IBM-1047",
        "CP-037",
        "CP-1047",
        "X-REF",
        "JES2",
        "JES3",
        "S390",
        "Z390",
        "CP037",
        "CP1047",
        "UTF8",
        "UTF16",
        "UTF-16",
        "ISO-8601",
        "ISO8601",
        "RFC3339",
        "IEEE-754",
        "SHA1",
        "SHA256",
        "SHA-1",
        "SHA-224",
        "SHA-256",
        "SHA-384",
        "SHA-512",
        "SHA224",
        "SHA384",
        "SHA512",
        "CRC32",
        "CRC-32",
        "HMAC",
        "MD5",
        "IPV4",
        "IPV6",
        "HTTP2",
        "OAUTH2",
        "X86",
        "X86-64",
        "ARM64",
        "AMD64",
        "PY3",
        "ES6",
        "CSS3",
        "HTML5",
        "Y2K",
    ]
)
RESERVED = language(Kind.COBOL).reserved | PROSE_WORDS

# self and cls are no keywords, but no reference either.
PY_KEYWORDS = language(Kind.PYTHON).reserved | {"self", "cls"}

# Mixed-case words that look like CamelCase identifiers but are product names in prose.
CAMEL_WORDS = frozenset(
    [
        "JavaScript",
        "TypeScript",
        "GitHub",
        "GitLab",
        "PostgreSQL",
        "MySQL",
        "SQLite",
        "NoSQL",
        "YouTube",
        "MacOS",
        "macOS",
        "iOS",
        "OAuth",
        "GnuCOBOL",
        "OpenCOBOL",
        "PyPI",
        "NumPy",
        "SciPy",
        "FastAPI",
        "PyTest",
        "DevOps",
        "LinkedIn",
        "PowerShell",
        "WebSphere",
    ]
)

SOURCE_EXTENSIONS = source_extensions()
_EXT = "|".join(sorted(SOURCE_EXTENSIONS, key=len, reverse=True))

# --- regular expressions ----------------------------------------------------------------------------

_FENCE = re.compile(r"^\s*(```+|~~~+)")  # any indent: a fence inside a list item is still a fence
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")
_LIST_ITEM = re.compile(r"^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(.*)$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_QUOTE_PREFIX = re.compile(r"^\s{0,3}>\s?")
_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)

_BACKTICK = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"\[([^\]]+)\]\(([^)\s]+)\)")

_LINE_SUFFIX = r"(?:(?::|#L)(\d+)(?:\s*[-–]\s*L?(\d+))?)?"
_PATH_EXT = re.compile(
    r"(?<![\w/.\\-])((?:\.{1,2}/|/|~/)?(?:[\w.$#@-]+/)*[\w$#@-][\w.$#@-]*\.(?:" + _EXT + r"))(?![\w])" + _LINE_SUFFIX,
    re.I,
)
# Any extension will do when the name has a directory: data/ACCTUPD.dat
_PATH_SLASHED = re.compile(
    r"(?<![\w/.\\-])((?:\.{1,2}/)?(?:[\w.$#@-]+/)+[\w$#@-][\w.$#@-]*\.[A-Za-z0-9]{1,8})(?![\w])" + _LINE_SUFFIX
)
# Inside backticks a path may hold spaces and '#' (a directory "Course #2 - Labs"); it still needs a
# directory and a file extension, so a sentence in backticks is not taken for one.
_SPACED_PATH = re.compile(r"((?:[^`/:\s][^`/:\n]*[^`/:\s]/)+[^`/:\s][^`/:\n]*\.[A-Za-z0-9]{1,8})" + _LINE_SUFFIX)
# A file name with spaces and no directory (`VSAM FILES.jcl`), with an extension a source or data file has
_SPACED_NAME = re.compile(r"([\w#$@][\w#$@ .-]*\.(?:" + _EXT + r"))" + _LINE_SUFFIX, re.I)
# A file with no extension, or one no language lists, cited by its lines (`README:21-26`, `compileall:1-53`,
# `meson.build:34-52`), in backticks; loose, since `localhost:8000` has the same shape and names no file
_BARE_FILE_CITE = re.compile(r"([A-Za-z][\w.-]*):(\d+)(?:\s*[-–]\s*(\d+))?")
_PATH_ROOTED = re.compile(r"(?<![\w/.-])((?:\.{1,2}/|/|~/)[\w.$#@/-]*[\w$#@-])" + _LINE_SUFFIX)
_LINE_CITE = re.compile(r"\b(?:lines?|ll?\.)\s+(\d+)(?:\s*(?:-|–|—|to|through|thru|and)\s*(\d+))?\b", re.I)
# A picture string alone, with a repeat count so it cannot be a number or a word
_BARE_PIC = re.compile(r"S?[XA9]\(\d+\)(?:V?9(?:\(\d+\))?)*|S?9\(\d+\)V9+")
_PIC = re.compile(
    r"\bPIC(?:TURE)?\s+(?:IS\s+)?([-+SsVvXxAaZz9PpBb0/,.*$()\d]*[XxAa9Zz*$][-+SsVvXxAaZz9PpBb0/,.*$()\d]*)"
    r"(?:\s+(?:USAGE\s+(?:IS\s+)?)?(COMP(?:UTATIONAL)?(?:-[1-5])?|PACKED-DECIMAL|BINARY))?",
    re.I,
)
_VALUE_CLAUSE = re.compile(r"\bVALUES?\s+(?:IS\s+|ARE\s+)?('[^']*'|\"[^\"]*\"|[-+]?\d[\d.]*|[A-Z][\w-]*)", re.I)
_DQ_STRING = re.compile(r"[\"“]([^\"“”\n]{1,120})[\"”]")
_SQ_STRING = re.compile(r"(?<![\w'])'([^'\n]{1,80})'(?![\w'])")
_COBOL_NAME = re.compile(r"(?<![\w-])([A-Z0-9][A-Z0-9]*(?:-[A-Z0-9]+)+)(?![\w-])")
_ALLCAPS = re.compile(r"(?<![\w$#@-])([A-Z][A-Z0-9$#@]{2,29})(?![\w$#@-])")
_CAMEL = re.compile(r"(?<![\w.])([A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+)(?![\w])")
_SNAKE = re.compile(r"(?<![\w.])(_{0,2}[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+_{0,2}|__\w+__)(?![\w])")
_DOTTED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)(\(\))?(?![\w])")
_CALL_PARENS = re.compile(r"(?<![\w.])([A-Za-z_]\w*)\(\)")
# 50,000.00 is one number (thousands separators), 1,2 and 3 are three
_NUMBER = re.compile(r"(?<![\w.$,-])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w-]|[.,]\d)")
_LEVEL_WORDS = re.compile(r"\b\d{2}-levels?\b|\blevel[- ]\d{1,2}\b|\b\d{2}\s+levels?\b", re.I)
_ABBREV = re.compile(r"\b(?:e\.g|i\.e|etc|vs|cf|approx|no|fig|resp)\.$", re.I)

_COBOL_STATEMENT = re.compile(
    r"(?:EXEC\s+(?:CICS|SQL)|CALL|PERFORM|MOVE|COPY|READ|WRITE|REWRITE|OPEN|CLOSE|SET|EVALUATE|COMPUTE|DISPLAY|"
    r"GO\s+TO|STOP\s+RUN|INITIALIZE|DELETE|START|SELECT\s+[A-Z0-9-]+\s+ASSIGN|SORT|MERGE|SEARCH|INSPECT|UNSTRING|"
    r"(?:ASCENDING|DESCENDING)\s+KEY|FUNCTION)\s+\S"
)
_LOWER_COBOL_STATEMENT = re.compile(_COBOL_STATEMENT.pattern, re.I)
# what tells a lower-case statement (`perform write-report-line`, `copy checkfilestatus.`) for COBOL, as
# free-format GnuCOBOL writes it, from a shell or SQL command: a hyphenated name, or the closing period
_LOWER_COBOL_SIGN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)+|\.$")
# Notations that name nothing in the code: a date or time picture (`YYYY-MM-DD`, `DD/Mon/YYYY:HH:MM:SS +0000`),
# a terminal escape sequence as written in prose (`ESC[0m`, `\x1b[31m`) and a number's base prefix (`0x`)
_DATE_PART = r"(?:YYYY|YY|CC|MM|MMM|Mon|DD|DDD|HH|hh|mm|SS|ss|[+-]\d{4})"
# a date picture written without separators: `YYYYMMDD`, `CCYYMMDD`, `YYDDD`, `HHMMSS`
_COMPACT_DATE = r"(?:CC)?(?:YYYY|YY)(?:MMM|MM|DDD)(?:DD)?(?:HHMMSS(?:ss|hh)?)?|HHMMSS(?:ss|hh)?"
_NOTATION = re.compile(
    rf"{_DATE_PART}(?:[-/:. T]+{_DATE_PART})+|{_COMPACT_DATE}|(?:ESC|\\e|\\x1[bB]|\\033|\\u001[bB]|\^\[)\[[\d;]*[A-Za-z]?|0[xXbBoO]"
)
# a version, as a sample input (`1.0.0-alpha`, `0.0.1-SNAPSHOT`): numbers joined by dots with a pre-release or
# build tag, whose tag is no name of the code (before, `1-SNAPSHOT` was read as a COBOL name)
_VERSION = re.compile(r"v?\d+(?:\.\d+){1,3}(?:[-+][0-9A-Za-z][0-9A-Za-z.-]*)?")
_PROTOCOL = re.compile(r"(?:HTTP|HTTPS|SMTP|FTP|SIP|RTSP)/\d(?:\.\d)?", re.I)
# a number with a unit of time or size, written as a duration or a size prints (Go's `1500ns`, `2.5s`)
_QUANTITY = re.compile(r"(\d+(?:\.\d+)?)(?:ns|us|µs|ms|s|m|h|B|KB|MB|GB|KiB|MiB|GiB)")
# a command line (`cobc -x -free cgiform.cob -o cgiform.exe`): a program, then words of which one is an option
_COMMAND = re.compile(r"[a-z][\w.+-]*(?: +[^ =()]+)*? +--?[A-Za-z][^ =()]*(?: +[^ =()]+)*")
_PLACEHOLDER_NAME = re.compile(r":[A-Za-z0-9-]+:(?:-[A-Za-z0-9]+)+")
# a name the code makes, with its number written as a placeholder (`RULnnnn.`, `ENDnnnn`, `TMPxxx`): generated
# code's template, which no file spells
_TEMPLATE_NAME = re.compile(r"[A-Z][A-Z0-9-]*(?:n{3,}|x{3,})(?![\w-])")
# a COBOL procedure name may start with digits (`1000-PRICE`): one token, not "PRICE"
# a backslash before a word makes it an escape sequence (`\xHH`, `\n`), no name
_THRU = re.compile(r"(?<![\w-])(?:thru|through)(?![\w-])", re.I)
_CODE_TOKEN = re.compile(r"(?<![\w$#@\\-])(?:\d+-)*[A-Za-z_$#@][\w$#@-]*(?:\.[A-Za-z_]\w*)*")


class Stemmed:
    """A case-blind pattern every match of which holds one of a few stems (lower case): a text that holds none
    is not searched. Most claims hold none of most cue words, and such a regex (a look-behind first, re.I) tries
    every position of the text in turn. Only an ASCII text is ruled out so: re.I folds the long s and the Kelvin
    sign to s and k, which lower() does not."""

    def __init__(self, pattern: str, stems: tuple[str, ...]):
        self.pattern = re.compile(pattern, re.I)
        self.stems = stems  # looked for in the text lower-cased

    def _may_match(self, text: str) -> bool:
        if not text.isascii():
            return True
        # a substring test per stem, not one regex of them all: a regex search's set-up alone costs more than
        # the few substring tests, and this runs a dozen times per claim (a loop: any() of a generator costs
        # twice as much again, measured)
        lowered = text.lower()
        for stem in self.stems:  # noqa: SIM110
            if stem in lowered:
                return True
        return False

    def search(self, text: str) -> re.Match[str] | None:
        return self.pattern.search(text) if self._may_match(text) else None

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        return self.pattern.finditer(text) if self._may_match(text) else iter(())


# Relation cues. Each is (relation, pattern); a cue followed by "by"/"from" is passive: the object comes first.
_CUES: list[tuple[Relation, Stemmed]] = [
    ("defines", Stemmed(r"(?<![\w-])(?:defin(?:es|ed|e|ing)|declar(?:es|ed|e|ing))(?![\w-])", ("defin", "declar"))),
    (
        "transfers",
        Stemmed(
            r"(?<![\w-])(?:XCTLs?|XCTL(?:ed|s)?|transfers?\s+control|transferr?(?:ed|ing)\s+control|"
            r"hands?\s+(?:off\s+)?control|LINKs?\s+to|link(?:s|ed|ing)?\s+to)(?![\w-])",
            ("xctl", "transfer", "hand", "link"),
        ),
    ),
    (
        "copies",
        Stemmed(
            r"(?<![\w-])(?:cop(?:y|ies|ied|ying)|includ(?:es|ed|e|ing)|import(?:s|ed|ing)?)(?![\w-])", ("cop", "includ", "import")
        ),
    ),
    (
        "calls",
        Stemmed(
            r"(?<![\w-])(?:call(?:s|ed|ing)?|invok(?:es|ed|e|ing)|perform(?:s|ed|ing)?|runs?|execut(?:es|ed|e|ing)|"
            # "hands the new handle to `P`", "passes `A` to `f`": what is handed is no object, P is called
            r"(?:hands?|hand(?:ed|ing)|pass(?:es|ed|ing)?)\s+(?:[\w'-]+\s+|\s+){1,6}?to(?=\s+\s))(?![\w-])",
            ("call", "invok", "perform", "run", "execut", "hand", "pass"),
        ),
    ),
    (
        "reads",
        Stemmed(
            r"(?<![\w-])(?:reads?|reading|brows(?:es|ed|e|ing)|fetch(?:es|ed|ing)?|quer(?:ies|ied|y))(?![\w-])",
            ("read", "brows", "fetch", "quer"),
        ),
    ),
    (
        "writes",
        Stemmed(
            r"(?<![\w-])(?:writ(?:es|e|ing|ten)|wrote|rewrit(?:es|e|ing|ten)|updat(?:es|ed|ing)|"
            r"delet(?:es|ed|ing)|insert(?:s|ed|ing)|stor(?:es|ed|ing))(?![\w-])",
            ("writ", "wrote", "updat", "delet", "insert", "stor"),
        ),
    ),
]
# "the call", and "the right call": a noun, an adjective of judgement between (not "the first `X` call", whose
# code span may be what calls)
_DETERMINER = re.compile(
    r"\b(?:the|a|an|each|every|this|that|its|their|one|any)\s+(?:(?:right|wrong|good|bad|better|best|worse|worst)\s+)?$",
    re.I,
)
_NEGATED = re.compile(
    r"\b(?:not|never|n't|no\s+longer|rather\s+than|instead\s+of|without"
    r"|nothing|no\s+(?:other\s+)?(?:code|one|program|paragraph|function|method|caller))\s+(?:\w+ly\s+|ever\s+|else\s+)?$",
    re.I,
)
_NO_OBJECT = re.compile(r"\s+(?:no|nothing|none)\b", re.I)
# "for people who call the inner `cors`", "if you pass it to `f`": a person acts, no code does
_PERSON_ACTS = re.compile(
    r"(?<![\w-])(?:people|users?|callers?|clients?|you|developers?|programmers?|readers?|someone|anyone)\s+"
    r"(?:(?:who|that)\s+)?(?:(?:can|could|should|must|may|might|will|would|do|does|only|also|still|first|then|just)\s+){0,2}$",
    re.I,
)
# "..., calling `Validate` first is the safer choice": a gerund opening a clause and then its subject
_GERUND_SUBJECT = re.compile(r"(?:^|[,;:]\s*|\b(?:and|but|so|because|since)\s+)$", re.I)
# its verb, before any clause of its own ("calling it first when it is callable": a participle's condition)
_GERUND_VERB = re.compile(
    r"(?:(?!(?<![\w-])(?:once|while|when|whenever|if|unless|until|after|before|because|since|that|which|who|whose|where)"
    r"(?![\w-]))[^,;:.]){0,60}?\s(?:is|are|was|were)\b",
    re.I,
)
_ALIAS = re.compile(r"\s+as\b", re.I)
_RUNS_WHEN = re.compile(
    r"\s+(?:right\s+|just\s+|only\s+|immediately\s+|directly\s+)?(?:after|before|when|whenever|once|until|while|first|last)\b",
    re.I,
)
_PASSIVE_TAIL = re.compile(r"\s+(?:by|from)\b", re.I)
# "is performed (with THRU X) from Y", "are read by": an auxiliary before a participle cue
_PASSIVE_HEAD = re.compile(r"\b(?:is|are|was|were|be|been|being|gets?|got)\s+(?:\w+ly\s+|not\s+|also\s+|only\s+)?$", re.I)
_PARTICIPLE = re.compile(r"(?:ed|en|read|run)$", re.I)


@dataclass(frozen=True)
class Cue:
    relation: Relation
    start: int
    end: int
    passive: bool


# The extractor and the verifier both read a claim's cues; cues are frozen, so one reading serves both.
@lru_cache(maxsize=4096)
def relation_cues(text: str) -> tuple[Cue, ...]:
    """Relation cue words in a claim's text, by position (the verifier uses them for subject/object)."""
    cues: list[Cue] = []
    taken: list[tuple[int, int]] = []
    masked = mask_code(text)
    for relation, pattern in _CUES:
        for m in pattern.finditer(masked):
            if any(a < m.end() and m.start() < b for a, b in taken):
                continue
            noun = _DETERMINER.search(masked, 0, m.start()) and not m.group(0).isupper()  # "the COPY of X" is the statement
            gerund = m.group(0).lower().endswith("ing") and _GERUND_SUBJECT.search(masked, 0, m.start())
            if (
                noun
                or _NEGATED.search(masked, 0, m.start())
                or _NO_OBJECT.match(masked, m.end())
                or _PERSON_ACTS.search(masked, 0, m.start())
                or (gerund and _GERUND_VERB.match(masked, m.end()))
            ):
                # "times the call", "a read": a noun; "does not write", "writes no print file": a negation, which
                # the relation checks would read as the relation itself; "people who call", "calling `V` first is
                # safer": an act no code of the claim does
                taken.append((m.start(), m.end()))
                continue
            if relation == "copies" and _ALIAS.match(masked, m.end()):
                continue  # "imported as `BaseHTTPError`": an alias, not what is imported
            if relation == "calls" and _RUNS_WHEN.match(masked, m.end()) and re.match(r"run|execut", m.group(0), re.I):
                taken.append((m.start(), m.end()))
                continue  # "`validateEncoding` runs right after `validateTimeout`": it is run, it runs nothing
            taken.append((m.start(), m.end()))
            # on the text itself: "reads `X` from `Y`" is active (X is read from Y), "is read from `Y`" passive
            passive = bool(_PASSIVE_TAIL.match(text, m.end())) or (
                bool(_PARTICIPLE.search(m.group(0))) and bool(_PASSIVE_HEAD.search(masked[: m.start()]))
            )
            cues.append(Cue(relation, m.start(), m.end(), passive))
    return tuple(sorted(cues, key=lambda c: c.start))


def mask_code(text: str) -> str:
    """Backtick spans blanked (same length), so cue words inside code are not read as prose."""
    return _BACKTICK.sub(lambda m: " " * len(m.group(0)), text)


# --- references -------------------------------------------------------------------------------------


def is_reserved(word: str) -> bool:
    return word.upper() in RESERVED


def is_program_shaped(word: str) -> bool:
    """All-caps 4-8 character name with a digit, like BKACT01C or COSGN00C."""
    return bool(re.fullmatch(r"[A-Z][A-Z0-9$#@]{3,7}", word)) and any(c.isdigit() for c in word) and not is_reserved(word)


def is_cobol_shaped(word: str) -> bool:
    return bool(re.fullmatch(r"[A-Z0-9]+(?:-[A-Z0-9]+)+", word)) and any(c.isalpha() for c in word) and not is_reserved(word)


# "prefixes such as `0x1F`", "`getURL` can be found as `get-url`", "`MultiWordACR` becomes `MULTI_WORD_ACR`",
# "even `shutters`": a name given as a sample input or a worked-out result, which the code need not spell
_EXAMPLE_CUE = re.compile(
    r"(?<![\w-])(?:such\s+as|as\s+in|e\.g\.,?|for\s+(?:example|instance),?|even(?:\s+as)?|becomes?|became|turn(?:s|ed)?\s+into|"
    r"(?:reported|found)\s+as|comes?\s+out\s+as|ends?\s+up\s+as)\s*$",
    re.I,
)
# the code's own kinds of things, right before an example cue: "table-driven tests such as", "one-line wrappers e.g."
_CODE_THINGS = re.compile(
    r"(?i)\b(?:tests?|functions?|methods?|class(?:es)?|helpers?|constants?|fields?|wrappers?|modules?|macros?|"
    r"paragraphs?|sections?|copybooks?|programs?|types?|structs?|interfaces?|enums?|hooks?|handlers?|decorators?|"
    r"subcommands?|exceptions?)\s+(?:\w+\s+){0,2}$"
)
_EARLIER_ITEMS = re.compile(r"(?:`[^`]*`\s*(?:,|\band\b|\bor\b)\s*)+$")  # "such as `-5`, `x` or ..."
# "instead of a `console_scripts` entry point", "tools like `getopt`", "modelled on `database/sql`'s `NullString`",
# "faster than ElementTree-based converters": a thing the claim sets the code against, which the code need not have
_CONTRAST_CUE = re.compile(
    r"(?<![\w-])(?:instead\s+of|rather\s+than|other\s+than|(?:faster|slower|simpler|better|cheaper)\s+than|like|"
    r"modell?ed\s+on|replacing|without|not\s+needing)\s+(?:(?:a|an|the)\s+)?(?:\w+\s+){0,4}?(?:`[^`]*`'s\s+)?$",
    re.I,
)


def given_as_example(text: str, ref: ClaimRef) -> bool:
    """Does the claim give the name as an example or a result it works out, or as a thing it sets the code
    against ("instead of `X`"), not as a name of the code? An example of the code's own things ("tests such as
    `X`", "helpers such as `Y`") is a name it says the code has."""
    before = text[: ref.start]
    items = _EARLIER_ITEMS.search(before)
    cue = _EXAMPLE_CUE.search(before) or (items and _EXAMPLE_CUE.search(before, 0, items.start()))
    if cue and _CODE_THINGS.search(before, 0, cue.start()):
        return False
    return bool(cue or _CONTRAST_CUE.search(before.rstrip("`")) or _assigned_in_sample(text, ref.value))


def _assigned_in_sample(text: str, value: str) -> bool:
    """Does a sample input the claim quotes give the name as a parameter's value (`attachment;
    filename=a.txt`, `filename="a.txt"junk`) or as a literal argument of a call (`Load("a.env", "b.env")`)?
    The claim made up the input, and what it says of the value ("keeps only `a.txt`", "lets `b.env` win") is
    about that input, not a file or name of the code."""
    v = re.escape(value)
    sample = re.compile(rf"=\s*[\"']?{v}(?![\w.])|\w\s*\([^()`]*[\"']{v}[\"']")
    return any(sample.search(m.group(2)) for m in _BACKTICK.finditer(text))


# "`receivers_for` is at `base.py:280-300`", "The procedure division of `GETSCODE` is at ...", "`A` and `B`, the
# header lines, are declared in the copybook (`x.cpy:94-103`)": a claim whose one statement is where names are
_W = r"[A-Za-z][\w-]*"
_NAMES = r"C(?:(?:,|,? and| through| or) C)*"
_PLACE_ONLY = re.compile(
    rf"(?:(?:(?:the|its) )?(?:(?:{_W} ){{0,3}}(?:of|in|for) )?(?:(?:the|its) )?(?:{_W} ){{0,2}}{_NAMES}(?: (?:{_W} ){{0,2}}?{_W})?"
    rf"(?:, [^,]+,)?|(?:(?:the|its) )?(?:{_W} ){{0,2}}{_W}, {_NAMES},) (?:is|are) (?:(?:defined|declared|implemented|located|written) )?(?:at|in) "
    rf"(?:(?:the|its) (?:{_W} ){{0,2}})?\(?{_NAMES}\)?(?: next to (?:the )?C(?: {_W})?)?",
    re.I,
)


def states_only_place(text: str) -> bool:
    """Does the claim say nothing but where its names are (a file, lines)? What it gives wrong can then be only
    the place, a qualifier, once its names are found: the verdict rule's PARTIALLY_SUPPORTED."""
    shape = _BACKTICK.sub("C", text.strip())
    shape = _LIST_ITEM.sub(r"\2", shape).rstrip(". ")
    return bool(_PLACE_ONLY.fullmatch(shape))


def names_file_or_program(ref: ClaimRef) -> bool:
    """Does the reference name a program or file (and so set the context for the units after it)?"""
    if ref.kind == "path":
        return normalize_relpath(ref.value) is not None
    return ref.kind == "identifier" and ref.strict and is_program_shaped(ref.value)


def normalize_pic(pic: str) -> str:
    """Upper case, without sentence punctuation or a closing parenthesis that belongs to the prose."""
    pic = pic.upper().rstrip(".,;:")
    while pic.endswith(")") and pic.count(")") > pic.count("("):
        pic = pic[:-1].rstrip(".,;:")
    return pic


def _ref_key(ref: ClaimRef) -> tuple:
    # COBOL's names (upper case, or hyphenated in any case) are one name in any case; elsewhere case tells
    # names apart (Go's exported `Sprintln` and its helper `sprintln`)
    caseless = ref.kind == "identifier" and (ref.value.isupper() or "-" in ref.value)
    return (ref.kind, ref.value.upper() if caseless else ref.value, ref.start_line, ref.end_line, ref.value_kind)


class _Collector:
    """References of one unit, kept with their position so line cites can attach to the nearest path."""

    def __init__(self) -> None:
        self.items: list[tuple[int, ClaimRef]] = []

    def add(self, pos: int, ref: ClaimRef) -> None:
        key = _ref_key(ref)
        for i, (p, old) in enumerate(self.items):
            if _ref_key(old) == key:
                if ref.strict and not old.strict:  # a repeated name may upgrade a loose mention to a strict one
                    self.items[i] = (p, old.model_copy(update={"strict": True}))
                return
        self.items.append((pos, ref))

    def refs(self) -> list[ClaimRef]:
        ordered = sorted(self.items, key=lambda t: t[0])
        return [r.model_copy(update={"start": p, "end": p + len(r.text)}) for p, r in ordered]


def _path_ref(text: str, raw: str, start: str | None, end: str | None, strict: bool = True) -> ClaimRef:
    cleaned = raw.strip().strip("'\"").rstrip(".,;:")
    norm = normalize_relpath(cleaned)
    s = int(start) if start else None
    e = int(end) if end else s
    return ClaimRef(kind="path", text=text, value=norm if norm is not None else cleaned, start_line=s, end_line=e, strict=strict)


def _blank(text: str, spans: list[tuple[int, int]]) -> str:
    chars = list(text)
    for a, b in spans:
        for i in range(a, b):
            if chars[i] != "\n":
                chars[i] = " "
    return "".join(chars)


def _called(tok: str, code: str, end: int) -> bool:
    """`sdsfree(s)`: what a quoted call calls is a name of the code. Not a COBOL table's subscript
    (`routing-destiny(ctr)`, hyphenated) nor a language's own function (`getattr(self, name)`), which no file of
    the snapshot defines."""
    return len(tok) >= 3 and "-" not in tok and code.startswith("(", end) and tok.upper() not in special_names()


def _code_span_refs(content: str, pos: int, out: _Collector) -> None:
    """References inside one backtick span: everything in code is meant literally, so all are strict."""
    c = content.strip()
    if not c:
        return
    whole = f"`{content}`"
    pic = _PIC.match(c)
    if pic:
        out.add(pos, ClaimRef(kind="value", text=whole, value=normalize_pic(pic.group(1)), value_kind="pic"))
        if pic.group(2):
            out.add(pos, ClaimRef(kind="value", text=whole, value=pic.group(2).upper(), value_kind="usage"))
        initial = _VALUE_CLAUSE.search(c, pic.end())
        if initial:  # `PIC S9(4) COMP VALUE IS 10`: the item's initial value is stated too
            out.add(pos, ClaimRef(kind="value", text=whole, value=initial.group(1), value_kind="initial"))
        return
    if _BARE_PIC.fullmatch(c):  # a table's PIC column: `X(20)`, `9(8)`, `S9(4)V99` without the keyword
        out.add(pos, ClaimRef(kind="value", text=whole, value=normalize_pic(c), value_kind="pic"))
        return
    m = re.fullmatch(r"[\"'](.+)[\"']", c)
    if m:
        out.add(pos, ClaimRef(kind="value", text=whole, value=m.group(1), value_kind="string"))
        return
    if re.fullmatch(r"[-+]?(?:\d+(?:_\d+)*(?:\.\d+)?|\.\d+)(?:[eE][-+]?\d+)?", c):  # `10_000`, `1e6`, COBOL's `.72700`
        out.add(pos, ClaimRef(kind="value", text=whole, value=c.lstrip("+"), value_kind="number"))
        return
    if _NOTATION.fullmatch(c) or _TEMPLATE_NAME.fullmatch(c.rstrip(".")) or _VERSION.fullmatch(c) or c in ("./", "../"):
        return  # `./` alone is the prefix a path starts with, no path
    if _PROTOCOL.fullmatch(c):  # `HTTP/1.1`: a protocol and its version, which the code spells in a string
        out.add(pos, ClaimRef(kind="value", text=whole, value=c, value_kind="string"))
        return
    if q := _QUANTITY.fullmatch(c):  # `1500ns`, `64KB`: a value the code may write as `1500` and a unit type
        out.add(pos, ClaimRef(kind="value", text=whole, value=q.group(1), value_kind="number"))
        return
    if _COMMAND.fullmatch(c):  # its files are cited; its program and options are no names of the snapshot
        for word in c.split():
            if pm := _PATH_EXT.fullmatch(word):
                out.add(pos, _path_ref(whole, pm.group(1), pm.group(2), pm.group(3)))
        return
    spaced = (_SPACED_PATH.fullmatch(c) or _SPACED_NAME.fullmatch(c)) if " " in c else None
    if spaced:  # `COBOL Programming Course #2 - Learning COBOL/Labs/cbl/CBL0006.cobol:14-15`
        out.add(pos, _path_ref(whole, spaced.group(1), spaced.group(2), spaced.group(3)))
        return
    if " " not in c:
        pm = _PATH_EXT.fullmatch(c) or (_PATH_ROOTED.fullmatch(c) if "/" in c else None)
        if pm is None and "/" in c and re.fullmatch(r"[\w.$#@/-]+" + _LINE_SUFFIX, c):
            pm = re.fullmatch(r"([\w.$#@/-]+?)" + _LINE_SUFFIX, c)
        if pm:
            out.add(pos, _path_ref(whole, pm.group(1), pm.group(2), pm.group(3)))
            return
        if bare := _BARE_FILE_CITE.fullmatch(c):
            out.add(pos, _path_ref(whole, bare.group(1), bare.group(2), bare.group(3), strict=False))
            return
        if _PLACEHOLDER_NAME.fullmatch(c):  # a copybook's name as written before COPY REPLACING fills it in
            out.add(pos, ClaimRef(kind="identifier", text=whole, value=c.upper()))
            return
        if "*" in c and re.fullmatch(r"[\w.*-]+", c):
            return  # `LIGHT*_EX`: a pattern for names, which the code spells in full
        ident = re.sub(r"\(\)$", "", c).rstrip(".:,;")
        if len(ident) < 2:
            return  # `D`, `*`: a character being talked about, not a name
        if re.fullmatch(r"[A-Za-z_]\w*(?:::[A-Za-z_]\w*)+", ident):
            # `LevelFilter::Info`, `Level::max`, `std::runtime_error`: a Rust or C++ path is a dotted name
            out.add(pos, ClaimRef(kind="identifier", text=whole, value=ident.replace("::", ".")))
            return
        if re.fullmatch(r"[A-Za-z_$#@0-9][\w$#@-]*(?:\.[A-Za-z_]\w*)*", ident) and any(ch.isalpha() for ch in ident):
            # A backticked COBOL word (`GOBACK`, `CURRENCY`) is meant literally too: it must be in the code.
            if ident not in PY_KEYWORDS:
                out.add(pos, ClaimRef(kind="identifier", text=whole, value=ident))
            return
    # A code fragment: a COBOL statement quoted inline must be in the code as written; its names and
    # literals are checked one by one as well.
    if not _TEMPLATE_NAME.search(c) and (
        _COBOL_STATEMENT.match(c) or (c.islower() and _LOWER_COBOL_STATEMENT.match(c) and _LOWER_COBOL_SIGN.search(c))
    ):
        out.add(pos, ClaimRef(kind="value", text=whole, value=re.sub(r"\s+", " ", c).rstrip(". "), value_kind="code"))
    for sm in _DQ_STRING.finditer(c):
        out.add(pos, ClaimRef(kind="value", text=whole, value=sm.group(1), value_kind="string"))
    for sm in _SQ_STRING.finditer(c):
        out.add(pos, ClaimRef(kind="value", text=whole, value=sm.group(1), value_kind="string"))
        if is_program_shaped(sm.group(1)):  # PROGRAM('BKUPD02C'): the literal names a program
            out.add(pos, ClaimRef(kind="identifier", text=whole, value=sm.group(1)))
    inner_pic = _PIC.search(c)
    if inner_pic:
        out.add(pos, ClaimRef(kind="value", text=whole, value=normalize_pic(inner_pic.group(1)), value_kind="pic"))
    stripped = _DQ_STRING.sub(" ", _SQ_STRING.sub(" ", _PIC.sub(" ", c)))
    # `dl-delete-file thru dl-exit`: a PERFORM range in lower case names two paragraphs
    perform_range = bool(_THRU.search(stripped))
    for tm in _CODE_TOKEN.finditer(stripped):
        tok = tm.group(0).rstrip(".-")
        if not tok or is_reserved(tok) or tok in PY_KEYWORDS or _TEMPLATE_NAME.fullmatch(tok):
            continue
        meaningful = (
            is_cobol_shaped(tok)
            or (perform_range and is_cobol_shaped(tok.upper()))
            or is_program_shaped(tok)
            or "_" in tok.strip("_")
            or "." in tok
            or bool(_CAMEL.fullmatch(tok))
            or (tok.isupper() and len(tok) >= 3)
            or _called(tok, stripped, tm.end())
        )
        if meaningful:
            out.add(pos, ClaimRef(kind="identifier", text=whole, value=tok))


def extract_refs(text: str, context: str | None = None) -> list[ClaimRef]:
    """The checkable references in one unit's text, in order of appearance."""
    out = _Collector()
    masked_spans: list[tuple[int, int]] = []
    path_positions: list[tuple[int, int]] = []  # (position, index into out.items) for line cites

    for m in _LINK.finditer(text):
        target = m.group(2)
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # a relative link is a path citation
            pm = re.fullmatch(r"([^#]+?)(?:#L(\d+)(?:-L?(\d+))?)?", target)
            if pm:
                out.add(m.start(), _path_ref(m.group(0), pm.group(1), pm.group(2), pm.group(3)))
                path_positions.append((m.start(), len(out.items) - 1))
        masked_spans.append((m.start(2) - 1, m.end()))  # keep the link text, hide the target

    for m in _BACKTICK.finditer(text):
        before = len(out.items)
        _code_span_refs(m.group(2), m.start(), out)
        for i in range(before, len(out.items)):
            if out.items[i][1].kind == "path":
                path_positions.append((m.start(), i))
        masked_spans.append((m.start(), m.end()))

    prose = _blank(text, masked_spans)

    spans: list[tuple[int, int]] = []
    for pattern in (_PATH_EXT, _PATH_SLASHED, _PATH_ROOTED):
        for m in pattern.finditer(prose):
            if any(a < m.end() and m.start() < b for a, b in spans):
                continue
            if _PROTOCOL.fullmatch(m.group(0)):  # "a peer on HTTP/1.1": a protocol, in prose plain English
                spans.append((m.start(), m.end()))
                continue
            out.add(m.start(), _path_ref(m.group(0), m.group(1), m.group(2), m.group(3)))
            path_positions.append((m.start(), len(out.items) - 1))
            spans.append((m.start(), m.end()))
    prose = _blank(prose, spans)

    cites = list(_LINE_CITE.finditer(prose))
    prose = _blank(prose, [(m.start(), m.end()) for m in cites] + [(m.start(), m.end()) for m in _LEVEL_WORDS.finditer(prose)])

    for m in _PIC.finditer(prose):
        out.add(m.start(), ClaimRef(kind="value", text=m.group(0), value=normalize_pic(m.group(1)), value_kind="pic"))
        if m.group(2):
            out.add(m.start(), ClaimRef(kind="value", text=m.group(0), value=m.group(2).upper(), value_kind="usage"))
    prose = _PIC.sub(lambda m: " " * len(m.group(0)), prose)

    for pattern in (_DQ_STRING, _SQ_STRING):
        for m in pattern.finditer(prose):
            # a message quoted with code inside ("`min_val` cannot be greater than `max_val`") is quoted whole,
            # its code spans as written, not as the blanks they are in the prose
            value = text[m.start(1) : m.end(1)]
            out.add(m.start(), ClaimRef(kind="value", text=text[m.start() : m.end()], value=value, value_kind="string"))
        prose = pattern.sub(lambda m: " " * len(m.group(0)), prose)

    for m in _COBOL_NAME.finditer(prose):
        if is_cobol_shaped(m.group(1)):
            out.add(m.start(), ClaimRef(kind="identifier", text=m.group(1), value=m.group(1)))
    prose = _COBOL_NAME.sub(lambda m: " " * len(m.group(0)), prose)

    for m in _DOTTED.finditer(prose):
        name = m.group(1)
        if _ABBREV.search(name + ".") or (not any(c.isupper() or c == "_" for c in name) and not m.group(2)):
            continue  # "e.g", "i.e" and plain lower-case dotted prose are not names
        out.add(m.start(), ClaimRef(kind="identifier", text=m.group(0), value=name))
        prose = prose[: m.start()] + " " * len(m.group(0)) + prose[m.end() :]
    for m in _CALL_PARENS.finditer(prose):
        if m.group(1) not in PY_KEYWORDS:
            out.add(m.start(), ClaimRef(kind="identifier", text=m.group(0), value=m.group(1)))
    prose = _CALL_PARENS.sub(lambda m: " " * len(m.group(0)), prose)

    for m in _SNAKE.finditer(prose):
        out.add(m.start(), ClaimRef(kind="identifier", text=m.group(1), value=m.group(1)))
    prose = _SNAKE.sub(lambda m: " " * len(m.group(0)), prose)
    for m in _CAMEL.finditer(prose):
        if m.group(1) not in CAMEL_WORDS and not m.group(1).isupper():
            out.add(m.start(), ClaimRef(kind="identifier", text=m.group(1), value=m.group(1)))
    prose = _CAMEL.sub(lambda m: " " * len(m.group(0)) if m.group(1) not in CAMEL_WORDS else m.group(0), prose)

    for m in _ALLCAPS.finditer(prose):
        word = m.group(1)
        if is_reserved(word):
            continue
        out.add(m.start(), ClaimRef(kind="identifier", text=word, value=word, strict=is_program_shaped(word)))
    prose = _ALLCAPS.sub(lambda m: " " * len(m.group(0)), prose)

    for m in _NUMBER.finditer(prose):
        value = m.group(1).replace(",", "")
        out.add(m.start(), ClaimRef(kind="value", text=m.group(1), value=value, value_kind="number", strict=False))

    for cite in cites:
        start = int(cite.group(1))
        end = int(cite.group(2)) if cite.group(2) else start
        _attach_line_cite(out, path_positions, cite.start(), cite.group(0), start, end, context)
    return out.refs()


def _attach_line_cite(
    out: _Collector, path_positions: list[tuple[int, int]], pos: int, text: str, start: int, end: int, context: str | None
) -> None:
    """'line 12' / 'lines 10-40' belongs to the nearest path in the unit; else to a program the unit names;
    else to the context file or program; else to the nearest identifier (whose definition must then lie
    in the range, in whatever file)."""
    if path_positions:
        free = [(p, i) for p, i in path_positions if out.items[i][1].start_line is None]
        p, i = min(free or path_positions, key=lambda t: abs(t[0] - pos))
        ref = out.items[i][1]
        if ref.start_line is None:
            out.items[i] = (out.items[i][0], ref.model_copy(update={"start_line": start, "end_line": end}))
        else:
            out.add(pos, ref.model_copy(update={"text": text, "start_line": start, "end_line": end}))
        return
    program = next((r for _, r in out.items if r.kind == "identifier" and r.strict and is_program_shaped(r.value)), None)
    anchor = program.value if program is not None else context
    if anchor:
        out.add(pos, ClaimRef(kind="path", text=text, value=anchor, start_line=start, end_line=end))
        return
    idents = [(p, i) for i, (p, r) in enumerate(out.items) if r.kind == "identifier" and r.start_line is None]
    if idents:
        p, i = min(idents, key=lambda t: abs(t[0] - pos))
        ref = out.items[i][1]
        out.items[i] = (p, ref.model_copy(update={"start_line": start, "end_line": end}))


# --- Markdown -> units ------------------------------------------------------------------------------


@dataclass
class _Unit:
    text: str
    line: int
    code: list[str]
    is_heading: bool = False


def _opaque(inner: str) -> str:
    """A quote's text as one token, keeping a stop that ends it."""
    end = inner[-1] if inner[-1] in ".!?" else "x"
    return "x" * (len(inner) - 1) + end


def _split_sentences(text: str, first_line: int, line_starts: list[int]) -> list[tuple[str, int]]:
    """Sentences of a paragraph with their answer line. Code spans and abbreviations never split."""
    # A code span stands as one opaque token (so a sentence may start with one), its dots never split; so does
    # a quoted message ("I SMELL A WUMPUS! " ends no sentence), but for a stop that closes it ("... it said "stop.")
    masked = _BACKTICK.sub(lambda m: "`" + "x" * (len(m.group(0)) - 2) + "`", text)
    masked = _DQ_STRING.sub(lambda m: m.group(0)[0] + _opaque(m.group(1)) + m.group(0)[-1], masked)
    pieces: list[tuple[int, int]] = []
    start = 0
    for m in re.finditer(r"(?<=[.!?])([\"')\]]?)\s+(?=[A-Z0-9`\"'(\[*_])", masked):
        head = masked[start : m.start()].rstrip()
        if _ABBREV.search(head) or (re.search(r"\b[A-Z]\.$", head) and len(head) > 1 and head[-3:-2] == "."):
            continue
        if m.group(1) in ('"', "'") and masked[m.end()] == "(":
            continue  # a quoted message's own stop, then the citation of the sentence it is in: `says "Done." (`a.py:4`)`
        pieces.append((start, m.end(1)))  # with the quote or bracket the stop closes
        start = m.end()
    pieces.append((start, len(text)))
    result: list[tuple[str, int]] = []
    for a, b in pieces:
        sentence = text[a:b].strip()
        if not sentence:
            continue
        line = first_line + sum(1 for s in line_starts if s <= a) - 1
        result.append((sentence, line))
    return result


def _table_cells(row: str) -> list[str]:
    inner = row.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") else inner
    cells = re.split(r"(?<!\\)\|", inner)
    return [c.strip() for c in cells]


def _row_text(cells: list[str], header: list[str] | None) -> str:
    """A table row as one unit: "Header: cell | Header: cell", so a column header such as "Calls" or
    "Transfers control to" stands right before the names it governs. A bare number or range under a
    "Line(s)" header is a line citation."""
    parts = []
    for i, cell in enumerate(cells):
        if not cell:
            continue
        head = header[i].strip() if header and i < len(header) else ""
        if re.fullmatch(r"(?i)lines?", _clean_inline(head)) and re.fullmatch(r"\d+(?:\s*[-–]\s*\d+)?", cell):
            parts.append(f"lines {cell}")
        elif head and i > 0:
            parts.append(f"{head}: {cell}")
        else:
            parts.append(cell)
    return CELL_SEPARATOR.join(parts)


def _clean_inline(text: str) -> str:
    text = _HTML_COMMENT.sub(" ", text)
    text = re.sub(r"\*\*(.+?)\*\*", r"\1", text)
    # spacing inside code is the code's ('ENABLE  A Y B'); only a line break in it is the answer's
    return re.sub(r"(`[^`]*`)|\s+", lambda m: m.group(1).replace("\n", " ") if m.group(1) else " ", text).strip()


def _units(answer_text: str) -> list[_Unit]:
    """Units in answer order; headings are returned flagged, not as claims."""
    lines = answer_text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    units: list[_Unit] = []
    para: list[tuple[int, str]] = []
    item: list[tuple[int, str]] = []
    table: list[tuple[int, str]] = []
    fence: str | None = None
    code: list[str] = []
    in_comment = False

    def flush_para() -> None:
        if not para:
            return
        texts = [t.strip() for _, t in para]
        joined = ""
        starts: list[int] = []
        for t in texts:
            starts.append(len(joined))
            joined += t + " "
        for sentence, line in _split_sentences(joined.rstrip(), para[0][0], starts):
            units.append(_Unit(_clean_inline(sentence), line, []))
        para.clear()

    def flush_item() -> None:
        if item:
            units.append(_Unit(_clean_inline(" ".join(t.strip() for _, t in item)), item[0][0], []))
            item.clear()

    def flush_table() -> None:
        if not table:
            return
        rows = list(table)
        table.clear()
        header: list[str] | None = None
        if len(rows) >= 2 and _TABLE_SEP.match(rows[1][1]):
            header = _table_cells(rows[0][1])
            rows = rows[2:]
        for number, row in rows:
            if _TABLE_SEP.match(row):
                continue
            cells = _table_cells(row)
            if not any(cells):
                continue
            units.append(_Unit(_clean_inline(_row_text(cells, header)), number, []))

    def flush_all() -> None:
        flush_para()
        flush_item()
        flush_table()

    for number, raw in enumerate(lines, start=1):
        line = raw.expandtabs(4)
        if fence is not None:
            if re.match(r"^\s*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}\s*$", line):
                fence = None
                if units and not units[-1].is_heading:
                    units[-1].code.append("\n".join(code))
                code = []
            else:
                code.append(raw)
            continue
        if in_comment:
            if "-->" in line:
                in_comment = False
            continue
        if line.lstrip().startswith("<!--") and "-->" not in line:
            in_comment = True
            continue
        fm = _FENCE.match(line)
        if fm:
            flush_all()
            fence = fm.group(1)
            code = []
            continue
        if not line.strip():
            flush_all()
            continue
        line = _QUOTE_PREFIX.sub("", line)
        hm = _HEADING.match(line)
        if hm:
            flush_all()
            units.append(_Unit(_clean_inline(hm.group(2)), number, [], is_heading=True))
            continue
        if _SETEXT.match(line) and para and len(para) == 1 and not item and not table:
            heading_line, heading_text = para[0]
            para.clear()
            units.append(_Unit(_clean_inline(heading_text), heading_line, [], is_heading=True))
            continue
        if _RULE.match(line):
            flush_all()
            continue
        if _TABLE_ROW.match(line):
            flush_para()
            flush_item()
            table.append((number, line))
            continue
        flush_table()
        lm = _LIST_ITEM.match(line)
        if lm:
            flush_para()
            flush_item()
            item.append((number, lm.group(2)))
            continue
        if item:
            item.append((number, line))
            continue
        para.append((number, line))
    if fence is not None and code and units and not units[-1].is_heading:
        units[-1].code.append("\n".join(code))  # an unclosed fence runs to the end of the answer
    flush_all()
    return [u for u in units if u.text]


def in_code_fragment(ref: ClaimRef) -> bool:
    """Was the reference pulled out of a quoted multi-word code span (`EXEC CICS XCTL PROGRAM('X')`)?"""
    return ref.text.startswith("`") and " " in ref.text.strip("`").strip()


# Words after which a program-shaped name is a transaction, abend or return code, not a program.
_NOT_A_PROGRAM = re.compile(
    r"(?:\btransactions?|\btrans(?:action)?[- ]?ids?|\btran(?:id)?s?|\babend(?:\s+code)?|\babcode|\bcodes?|"
    r"\bmaps?|\bmapsets?|\bscreens?|\bdatasets?|\bdd(?:\s+name)?|\bfields?)[\s`'\"(:]*$",
    re.I,
)


def _can_set_context(text: str, ref: ClaimRef) -> bool:
    """A name in a quoted code fragment (`XCTL PROGRAM('BKUPD02C')`) is what the code points at, and a
    name after "transaction" is a transaction ID: neither is what the unit is about."""
    if not names_file_or_program(ref) or (ref.kind == "path" and is_document_or_config(ref.value)):
        return False  # "points at `tabulate.cli:_main` (`pyproject.toml:32-33`)": the next unit is not about it
    if ref.kind == "identifier" and len(ref.value) <= 4:  # BK01, CC00: CICS transaction IDs are 1-4 characters
        return False
    if in_code_fragment(ref):
        return False
    return not (ref.kind == "identifier" and _NOT_A_PROGRAM.search(text[: ref.start]))


# "sent to `P`", "with `P`": a program after a preposition is where something goes, not a subject
OBJECT_BEFORE = re.compile(r"\b(?:to|into|from|by|with|via)\s+(?:the\s+)?(?:program\s+)?$", re.I)


def _subject(text: str, refs: list[ClaimRef]) -> ClaimRef | None:
    """The program or file a unit is about: the first one named before its first relation cue
    ("CBACT01C copies CVACT01Y" is about CBACT01C), else a cited file path; with no cue, the first one not
    named after a preposition."""
    cues = relation_cues(text)
    named = [r for r in refs if _can_set_context(text, r)]
    if not named:
        return None
    if cues:
        before = [r for r in named if r.start < cues[0].start]
        # A cited file is the topic wherever it stands ("is written by `f` in `a/b.py`").
        return before[0] if before else next((r for r in named if r.kind == "path"), None)
    # "Admins are sent to `COADM01C`": a program after a preposition is where something goes, not the subject
    return next((r for r in named if r.kind == "path" or not OBJECT_BEFORE.search(text, 0, r.start)), None)


class MarkdownClaimExtractor:
    """The default, deterministic extractor."""

    @property
    def name(self) -> str:
        return "markdown-v1"

    def extract(self, answer_text: str) -> list[Claim]:
        claims: list[Claim] = []
        context: str | None = None
        topic: str | None = None  # what the nearest heading that named a program or file is about
        context_from: str | None = None  # the claim that named the current context, if not a heading
        for unit in _units(answer_text):
            refs = extract_refs(unit.text, context=None if unit.is_heading else context)
            named = _subject(unit.text, refs)
            if unit.is_heading:
                if named is not None:
                    context = topic = named.value
                    context_from = None
                continue
            cues = relation_cues(unit.text)
            relations = list(dict.fromkeys(c.relation for c in cues))
            claims.append(
                Claim(
                    id=f"c{len(claims) + 1}",
                    text=unit.text,
                    answer_line=unit.line,
                    code="\n\n".join(unit.code) if unit.code else None,
                    context=context,
                    topic=topic if topic != context else None,
                    refs=refs,
                    relations=relations,
                    facts=extract_facts(unit.text, refs, cues),
                    context_from=context_from if context != topic else None,
                )
            )
            if named is not None:
                context = named.value
                context_from = claims[-1].id
        return claims
