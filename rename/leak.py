"""The leak report: which distinctive tokens of the original corpus a renamed tree still holds.

A token is distinctive when it is frequent in the original (``MIN_COUNT`` occurrences or more) and
absent from a general vocabulary: the reserved words of every language (COBOL, JCL, CICS, SQL, ...,
grounding/index/registry.py), English (english_words.txt), Python's keywords, builtins and standard
library, generic abbreviations (abbreviations.txt) and mainframe tools' keywords (tool_words.txt:
CPSM, WSim, ISPF, JCL symbols, LISTCAT); a compound made only of such words
(POLICYNUMBER, COUNTVAL) is general too, and so are a lower camel-case compound of general words
(numberOfAccounts) and what a Java source imports from outside the corpus. What remains (GENAPOOL, LGACDB01, Hursley) can tie a renamed
tree back to its public original. The leak score is the number of distinctive original tokens left
per 1,000 tokens of the renamed tree.
"""

from __future__ import annotations

import builtins
import keyword
import re
import sys
from collections import Counter
from dataclasses import dataclass, field
from functools import cache
from itertools import takewhile
from pathlib import Path

from groundjudge.grounding.index.registry import reserved_words
from groundjudge.grounding.index.store import KIND, NAME
from groundjudge.grounding.snapshot import Snapshot
from groundjudge.rename.lexer import sniff, tokens
from groundjudge.rename.vocabulary import BMS_FIELD_SUFFIXES, BMS_MAP_SUFFIXES, english_words, ibm_supplied, parse_word_list

ABBREVIATIONS_FILE = Path(__file__).resolve().parent / "abbreviations.txt"
TOOL_WORDS_FILE = Path(__file__).resolve().parent / "tool_words.txt"
MIN_COUNT = 3  # rarer tokens are noise; the distinctive ones of an application recur
MIN_LENGTH = 4  # 3-character tokens are mostly abbreviations and codes (MSG, HX7)
PLACES = 5  # places listed per token
LISTED = 50  # tokens listed in the report

# a number, not a name: a hex constant of whole bytes (X'0D25', 'FFFF'x), a size (REGION=900M, 4K), or an
# IBM product's version and release level (V3R0, V5R4M0), the day and hour of an ISO 8601 time stamp
# (2016-06-30T15:02:45 gives the word 30T15)
# Numbers and number-like syntax: hex constants, sizes, release levels, ISO 8601 day-hour pieces, and an
# assembler DC/DS operand's duplication, type and length (`CL79`, `2XL4`, `PL8`: HLASM Language Reference).
NUMBER_RE = re.compile(
    r"(?=[0-9A-F]*[0-9])(?:[0-9A-F]{2}){1,4}|[0-9]+[KMG]B?|V[0-9]+R[0-9]+(?:M[0-9]+)?|[0-3][0-9]T[0-2][0-9]|"
    r"[0-9]*[ABCDEFGHPQRSVXYZ]L[0-9]+"
)
# the leak report counts words, not identifiers: WS-CUST-NAME holds WS, CUST and NAME
WORD_RE = re.compile(r"[A-Za-z0-9]+")


@cache
def tool_words() -> frozenset[str]:
    """Mainframe tools' keywords beside the languages' reserved words (tool_words.txt), upper-cased."""
    return frozenset(parse_word_list(TOOL_WORDS_FILE.read_text(encoding="utf-8")))


@cache
def general_words() -> frozenset[str]:
    python = set(keyword.kwlist) | set(dir(builtins)) | set(sys.stdlib_module_names)
    abbreviations = parse_word_list(ABBREVIATIONS_FILE.read_text(encoding="utf-8"))
    return reserved_words() | english_words() | {w.upper() for w in python} | tool_words() | frozenset(abbreviations)


@cache
def is_general(word: str) -> bool:
    """``word`` (upper case) is in the general vocabulary, or splits into pieces that all are (digits
    count as general): POLICYNUMBER, DB2DBID is not (DBID is nobody's word)."""
    vocab = general_words()
    if word in vocab or word.isdigit() or ibm_supplied(word) or NUMBER_RE.fullmatch(word):
        return True
    n = len(word)
    ok = [True] + [False] * n  # ok[i]: word[:i] splits into general pieces
    for j in range(1, n + 1):
        for i in range(max(0, j - 20), j):
            piece = word[i:j]
            if ok[i] and (piece.isdigit() or (len(piece) >= 3 and piece in vocab)):
                ok[j] = True
                break
    return ok[n]


def distinctive(counts: Counter[str], general_forms: set[str]) -> set[str]:
    candidates = {
        w
        for w, n in counts.items()
        if n >= MIN_COUNT
        and len(w) >= MIN_LENGTH
        and re.search("[A-Z]", w)
        and len(set(w)) > 1
        and not is_general(w)
        and w not in general_forms
    }
    return candidates - within_ibm_names(candidates, counts)


def within_ibm_names(words: set[str], counts: Counter[str]) -> set[str]:
    """Those of ``words`` that are an IBM-prefixed word of the corpus or part of one (FSVSAMP, a
    commented-out ``//*FSVSAMP DD`` beside IMS's DD DFSVSAMP; DSNTEP beside DSNTEP2): IBM's name, which
    the renamer pins, so renaming the word would leave it inside the pinned one."""
    ibm = [w for w in counts if ibm_supplied(w)]
    return {w for w in words if any(w in name for name in ibm)}


def bms_general_forms(snapshot: Snapshot) -> set[str]:
    """The symbolic-map names BMS derives from a map or field whose label is a general word (MESSAGEO,
    ACTIONI of the fields MESSAGE, ACTION). The renamer keeps such a label, so its derived names stay
    too (they must match the BMS source), and they say no more than the word and a suffix BMS fixes."""
    from groundjudge.grounding.index import bms

    vocab = general_words()
    forms: set[str] = set()
    for entry in snapshot.files:
        if entry.kind != "text":
            continue
        text = snapshot.read_text(entry.path)
        if sniff(entry.path, text) != "bms":
            continue
        symbols, _refs = bms.extract(entry.path, text)
        for row in symbols:
            kind, label = row[KIND], row[NAME].upper()
            if kind in ("map", "field") and label in vocab:
                forms.update(label + s for s in (BMS_MAP_SUFFIXES if kind == "map" else BMS_FIELD_SUFFIXES))
    return forms


# a Java import of one class or member (not a wildcard): import a.b.C; import static a.b.C.m;
JAVA_IMPORT_RE = re.compile(r"^\s*import\s+(?:static\s+)?([\w.]+)\s*;", re.M)
# the humps of a camel-case identifier: number Of Accounts, get XML Data
CAMEL_RE = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+")


def camel_general(word: str) -> bool:
    """``word`` is a lower camel-case identifier (a Java or JavaScript field, method or variable:
    numberOfAccounts) whose humps are all general words. Like POLICYNUMBER it says no more than its
    words, and the case marks where they end, so a two-letter word (Of, To) counts too. A capitalised
    compound (CardDemo) is left out: products and classes are named that way."""
    parts = CAMEL_RE.findall(word)
    return (
        word[:1].islower()
        and len(parts) > 1
        and "".join(parts) == word
        and all(p.isdigit() or (len(p) > 1 and is_general(p.upper())) for p in parts)
    )


def imported_names(text: str, own_dirs: set[str]) -> set[str]:
    """The classes and members a Java source imports from a package outside the corpus (``own_dirs``:
    the corpus's directories as a/b/c): the library's names (com.ibm.cics.server.NotAuthorisedException),
    which the renamer cannot rename and which name the library, not the corpus. Upper-cased."""
    names: set[str] = set()
    for m in JAVA_IMPORT_RE.finditer(text):
        parts = m.group(1).split(".")
        package = list(takewhile(lambda p: p[:1].islower(), parts[:-1]))
        if "/".join(package) not in own_dirs:
            names.update(p.upper() for p in parts[len(package) :])
    return names


def code_general_forms(snapshot: Snapshot) -> set[str]:
    """Words of the corpus that are general although the vocabulary lacks them: lower camel-case
    compounds of general words (``camel_general``) and what Java sources import from outside the
    corpus (``imported_names``); never the product's name (``readme_title_words``)."""
    own_dirs = {d for e in snapshot.files for d in _suffix_dirs(e.path)}
    forms: set[str] = set()
    for entry in snapshot.files:
        if entry.kind != "text":
            continue
        text = snapshot.read_text(entry.path)
        forms.update(w.upper() for w in set(WORD_RE.findall(text)) if camel_general(w))
        if entry.path.endswith(".java"):
            forms |= imported_names(text, own_dirs)
    return forms - readme_title_words(snapshot)


def _suffix_dirs(path: str) -> list[str]:
    """Every run of directories of ``path`` that ends at its folder: src/com/x/A.java gives com/x, x, ..."""
    dirs = path.split("/")[:-1]
    return ["/".join(dirs[i:]) for i in range(len(dirs))]


def general_forms(snapshot: Snapshot) -> set[str]:
    return bms_general_forms(snapshot) | code_general_forms(snapshot)


def distinctive_words(snapshot: Snapshot) -> set[str]:
    return distinctive(word_counts(snapshot), general_forms(snapshot))


def word_counts(snapshot: Snapshot) -> Counter[str]:
    counts: Counter[str] = Counter()
    for entry in snapshot.files:
        counts.update(w.upper() for w in WORD_RE.findall(entry.path))
        if entry.kind == "text":
            counts.update(w.upper() for w in WORD_RE.findall(snapshot.read_text(entry.path)))
    return counts


@dataclass
class Leak:
    words: int = 0  # every word of the renamed tree, paths included
    left: Counter[str] = field(default_factory=Counter)  # distinctive original word -> occurrences left
    places: dict[str, list[str]] = field(default_factory=dict)

    @property
    def score(self) -> float:
        return round(1000 * sum(self.left.values()) / self.words, 3) if self.words else 0.0


def measure(original: Snapshot, renamed: Snapshot) -> tuple[set[str], Leak]:
    """The distinctive words of ``original`` and what ``renamed`` still holds of them."""
    marks = distinctive_words(original)
    leak = Leak()
    for entry in renamed.files:
        texts = [(f"path {entry.path}", entry.path)]
        if entry.kind == "text":
            texts.append((entry.path, renamed.read_text(entry.path)))
        for where, text in texts:
            for n, line in enumerate(text.splitlines(), start=1):
                for w in WORD_RE.findall(line):
                    leak.words += 1
                    up = w.upper()
                    if up in marks:
                        leak.left[up] += 1
                        places = leak.places.setdefault(up, [])
                        if len(places) < PLACES:
                            places.append(f"{where}:{n}" if where == entry.path else where)
    return marks, leak


URL_RE = re.compile(r"\b(?:https?|ftp)://[^\s)>\]\"']+|\bwww\.[^\s)>\]\"']+", re.I)
COPYRIGHT_RE = re.compile(r"(?:copyright|\(c\)|©|property\s+of)((?:[\s,.-]*(?:\(c\)|©|\d{4}|[A-Z][\w&-]*))+)", re.I)
URL_COMMON = frozenset(
    {"HTTP", "HTTPS", "FTP", "WWW", "COM", "ORG", "NET", "IO", "HTML", "HTM", "BLOB", "TREE", "MAIN", "MASTER"}
)
# Hosts of standards bodies: http://www.w3.org/2001/XMLSchema and http://schemas.xmlsoap.org/soap/envelope/ are
# namespace names that SOAP, XML and JSON processing compare byte for byte, and identify no corpus.
STANDARD_URL_RE = re.compile(
    r"^(?:[a-z]+://)?(?:[\w-]+\.)*(?:w3\.org|xmlsoap\.org|oasis-open\.org|ietf\.org|iana\.org|json-schema\.org|"
    r"purl\.org|schema\.org|openapis\.org|xml\.org)(?:[/:]|$)",
    re.I,
)
DOCUMENT_EXT = (".md", ".markdown", ".rst", ".adoc", ".txt", ".html", ".htm")
DOCUMENT_NAMES = ("README", "LICENSE", "NOTICE", "CHANGES", "CHANGELOG", "AUTHORS", "CONTRIBUTING", "MAINTAINERS")
# a comment line of a script or data-like text file (REXX /* */, shell #, assembler and WSim *)
COMMENT_LINE_RE = re.compile(r"^\s*(?:\*|#|/\*|;|--)")
# a string literal on one line: COBOL, JCL, SQL, REXX, WSim and BMS quote alike
LITERAL_RE = re.compile(r"'[^'\n]*'|\"[^\"\n]*\"")
# a Markdown or reStructuredText title: "# Title", or a line underlined with = or -
TITLE_RE = re.compile(r"^#+\s+(.+)$|^(.+)\n[=-]{3,}\s*$", re.M)
COMMENT_ENTRY_RE = re.compile(r"\s*(?:AUTHOR|INSTALLATION|DATE-WRITTEN|DATE-COMPILED|SECURITY|REMARKS)\s*\.", re.I)
# a scheduler's or a job's owner: a person or a user id (Control-M CREATED_BY="XUEMINGH" RUN_AS="xuemingh")
# a CSD listing's CHANGEUSRID(AWSUSER)
OWNER_RE = re.compile(
    r"\b(?:OWNER|CREATED_BY|RUN_AS|AUTHOR|USERID)\s*=\s*\"([A-Za-z0-9_.@-]+)\"|\b(?:CHANGEUSRID|USERID)\(([A-Za-z0-9_@#$]+)\)",
    re.I,
)
# the JOB statement's positional fields: accounting information and the programmer's name
JOB_CARD_RE = re.compile(r"^//\S+\s+JOB\s+((?:\([^)]*\)|'[^']*'|[^\s,])*)(?:,((?:'[^']*'|[^\s,])*))?", re.I | re.M)
DATA_MIN_LINES = 3


def is_document(path: str) -> bool:
    """README, LICENSE, ``.md``, ``.rst``, ...: written for people, whole."""
    base = path.rsplit("/", 1)[-1]
    return base.lower().endswith(DOCUMENT_EXT[:-3]) or base.upper().startswith(DOCUMENT_NAMES)


def is_data(text: str) -> bool:
    """Fixed-length records (every line as long as the first, a few lines at least): sample data
    written for a load job, not a program or a script."""
    lines = text.splitlines()
    return len(lines) >= DATA_MIN_LINES and len(lines[0]) > 1 and all(len(ln) == len(lines[0]) for ln in lines)


def prose(snapshot: Snapshot) -> tuple[list[str], list[str]]:
    """The comments, documents, sample data and string literals of the corpus, and apart from them its
    code's tokens. Prose: documents and data files whole, comment lines (COBOL ``*``, ``*>``, JCL ``//*``,
    scripts), and the literals of COBOL and BMS code, of JCL's in-stream data (the rows of an SQL
    INSERT) and of WSim scripts (the messages they print and send). Code: the statements of COBOL,
    BMS, JCL (``//`` lines) and REXX, whose words are keywords or names discovery reads; a REXX
    exec's strings are host commands (``'ISPEXEC LMINIT ...'``), a JCL statement's are parameters
    (``PARM='XREF'``). In-stream data and other scripts mix keywords with data, so they are neither.
    Code files of the tag languages are left to their own rules."""
    from groundjudge.rename.toolnames import is_rexx, is_wsim

    out: list[str] = []
    code: list[str] = []
    for entry in snapshot.files:
        if entry.kind != "text":
            continue
        text = snapshot.read_text(entry.path)
        lang = sniff(entry.path, text)
        lines = text.splitlines()
        words_of = lang  # the code's whole tokens: VIRGINIA-CLIENTS is a data name, not the word VIRGINIA
        if lang == "text" and (is_document(entry.path) or is_data(text)):
            out.append(text)
            continue
        quoted = [lang in ("cobol", "bms") or (lang == "text" and is_wsim(text))] * len(lines)
        statements = [lang in ("cobol", "bms") or (lang == "text" and is_rexx(entry.path, text))] * len(lines)
        if lang == "text":
            comment = [bool(COMMENT_LINE_RE.match(ln)) for ln in lines]
        elif lang == "cobol":
            # a comment line, or a comment-entry of the identification division (AUTHOR. Otto B. Boolean.)
            comment = [len(ln) > 6 and (ln[6] in "*/" or COMMENT_ENTRY_RE.match(ln[7:]) is not None) for ln in lines]
            out += [ln.split("*>", 1)[1] for ln in lines if "*>" in ln]
            lines = [ln.split("*>", 1)[0] for ln in lines]
        elif lang == "jcl":
            comment = [ln.startswith("//*") for ln in lines]
            quoted = [not ln.startswith("//") for ln in lines]  # in-stream data
            statements = [ln.startswith("//") for ln in lines]
        elif lang == "bms":
            comment = [ln.startswith("*") for ln in lines]
        else:
            continue
        for ln, c, q, st in zip(lines, comment, quoted, statements):
            if c:
                out.append(ln)
                continue
            if q:
                out += LITERAL_RE.findall(ln)
            if st:
                code += tokens(LITERAL_RE.sub(" ", ln) if q else ln, words_of)
    return out, code


def job_owners(snapshot: Snapshot) -> set[str]:
    """Words of the JOB statements' accounting and programmer-name fields and of a scheduler's owner
    attributes: a person or a site."""
    words: set[str] = set()
    for entry in snapshot.files:
        if entry.kind != "text":
            continue
        text = snapshot.read_text(entry.path)
        fields = [m.group(1) or m.group(2) for m in OWNER_RE.finditer(text)]
        if sniff(entry.path, text) == "jcl":
            fields += [f for m in JOB_CARD_RE.finditer(text) for f in m.groups() if f and "=" not in f]
        words.update(w.upper() for f in fields for w in WORD_RE.findall(f) if re.search("[A-Za-z]", w))
    return words


def prose_names(snapshot: Snapshot, defined: frozenset[str] | set[str] = frozenset()) -> set[str]:
    """What ``--scrub-prose`` renames: in comments, documents, sample data and literals (``prose``),
    the distinctive words (as the leak report counts them) and capitalised words of 4+ characters
    outside the general vocabulary whatever their count (product and place names: SupportPac,
    Hursley), unless the code uses them (below); and, wherever they occur, what names the product,
    its owners and its people: the words of URLs that are not English (cicsdev in
    github.com/cicsdev/cics-genapp), of a README's title, the owners named by copyright notices (IBM,
    Corp) and the people and sites of JOB statements and schedulers (``job_owners``). Upper-cased."""
    counts = word_counts(snapshot)
    forms = general_forms(snapshot)
    marks = distinctive(counts, forms)
    names: set[str] = set()
    owners: set[str] = set()
    english = english_words()
    texts, code = prose(snapshot)
    for text in texts:
        for w in WORD_RE.findall(text):
            up = w.upper()
            capitalised = len(w) >= MIN_LENGTH and re.fullmatch("[A-Z][A-Za-z]*[0-9]*", w) is not None
            if up in marks or (capitalised and not is_general(up) and up not in forms):
                names.add(up)
        for url in URL_RE.findall(text):
            if STANDARD_URL_RE.search(url):
                continue  # an XML namespace or a standard's address names the standard, and code depends on it verbatim
            owners.update(w.upper() for w in WORD_RE.findall(url) if w.upper() not in URL_COMMON and not w.isdigit())
        for m in COPYRIGHT_RE.finditer(text):
            owners.update(w.upper() for w in WORD_RE.findall(m.group(1)) if re.search("[A-Za-z]", w) and w.upper() != "C")
    owners |= readme_title_words(snapshot) | job_owners(snapshot)
    # a word the code uses as a whole token is the language's or a tool's (CCSID in DDL, LMINIT in a
    # REXX command, the step LKED of IBM's compile procedure), unless the corpus defines it
    # (``defined``: every name discovery found, upper-cased, whatever its class); the product's and
    # its owners' names are scrubbed wherever the code spells them
    names -= {t.upper() for t in code} - defined
    names |= {w for w in owners if w not in english}
    vocab = general_words()
    names -= within_ibm_names(names, counts)
    # a placeholder (XXXXXXX) is no name, as discovery has it
    return {n for n in names if len(n) >= 3 and n not in vocab and not n.isdigit() and len(set(n)) > 1}


def readme_titles(snapshot: Snapshot) -> list[str]:
    """The first heading of each README."""
    titles = []
    for entry in snapshot.files:
        readme = entry.kind == "text" and entry.path.rsplit("/", 1)[-1].upper().startswith("README")
        if readme and (m := TITLE_RE.search(snapshot.read_text(entry.path))):
            titles.append(m.group(1) or m.group(2))
    return titles


def readme_title_words(snapshot: Snapshot) -> set[str]:
    """The product's name: the first word of each README's first heading that is no English and no
    general word (GenApp in "General insurance application (GenApp) for IBM CICS TS"; the platform
    named after it is not the product)."""
    words: set[str] = set()
    english = english_words()
    for title in readme_titles(snapshot):
        upper = [w.upper() for w in WORD_RE.findall(title)]
        words.update([w for w in upper if w not in english and not is_general(w)][:1])
    return words
