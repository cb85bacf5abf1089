"""The leak report: which distinctive tokens of the original corpus a renamed tree still holds.

A token is distinctive when it is frequent in the original (``MIN_COUNT`` occurrences or more) and
absent from a general vocabulary: the reserved words of every language (COBOL, JCL, CICS, SQL, ...,
grounding/index/registry.py), English (english_words.txt), Python's keywords, builtins and standard
library, generic abbreviations (abbreviations.txt) and mainframe tools' keywords (tool_words.txt:
CPSM, WSim, ISPF, JCL symbols, LISTCAT); a compound made only of such words
(POLICYNUMBER, COUNTVAL) is general too. What remains (GENAPOOL, LGACDB01, Hursley) can tie a renamed
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
from pathlib import Path

from groundjudge.grounding.index.registry import reserved_words
from groundjudge.grounding.snapshot import Snapshot
from groundjudge.rename.lexer import sniff
from groundjudge.rename.vocabulary import SYSTEM_PREFIXES, english_words, parse_word_list

ABBREVIATIONS_FILE = Path(__file__).resolve().parent / "abbreviations.txt"
TOOL_WORDS_FILE = Path(__file__).resolve().parent / "tool_words.txt"
MIN_COUNT = 3  # rarer tokens are noise; the distinctive ones of an application recur
MIN_LENGTH = 4  # 3-character tokens are mostly abbreviations and codes (MSG, HX7)
PLACES = 5  # places listed per token
LISTED = 50  # tokens listed in the report

# the leak report counts words, not identifiers: WS-CUST-NAME holds WS, CUST and NAME
WORD_RE = re.compile(r"[A-Za-z0-9]+")


@cache
def general_words() -> frozenset[str]:
    python = set(keyword.kwlist) | set(dir(builtins)) | set(sys.stdlib_module_names)
    lists = (ABBREVIATIONS_FILE, TOOL_WORDS_FILE)
    listed = {w for f in lists for w in parse_word_list(f.read_text(encoding="utf-8"))}
    return reserved_words() | english_words() | {w.upper() for w in python} | frozenset(listed)


@cache
def is_general(word: str) -> bool:
    """``word`` (upper case) is in the general vocabulary, or splits into pieces that all are (digits
    count as general): POLICYNUMBER, DB2DBID is not (DBID is nobody's word)."""
    vocab = general_words()
    if word in vocab or word.isdigit() or word.startswith(SYSTEM_PREFIXES):
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


def distinctive(counts: Counter[str]) -> set[str]:
    return {
        w
        for w, n in counts.items()
        if n >= MIN_COUNT and len(w) >= MIN_LENGTH and re.search("[A-Z]", w) and len(set(w)) > 1 and not is_general(w)
    }


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
    marks = distinctive(word_counts(original))
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
DOCUMENT_EXT = (".md", ".markdown", ".rst", ".adoc", ".txt", ".html", ".htm")
DOCUMENT_NAMES = ("README", "LICENSE", "NOTICE", "CHANGES", "CHANGELOG", "AUTHORS", "CONTRIBUTING", "MAINTAINERS")
# a comment line of a script or data-like text file (REXX /* */, shell #, assembler and WSim *)
COMMENT_LINE_RE = re.compile(r"^\s*(?:\*|#|/\*|;|--)")


def prose(snapshot: Snapshot) -> list[str]:
    """The comments and documents of the corpus: text files whole, COBOL comment lines and inline
    ``*>`` comments, JCL ``//*`` lines. Code files' comments are left to their own languages."""
    out = []
    for entry in snapshot.files:
        if entry.kind != "text":
            continue
        text = snapshot.read_text(entry.path)
        lang = sniff(entry.path, text)
        base = entry.path.rsplit("/", 1)[-1]
        if lang == "text" and (base.lower().endswith(DOCUMENT_EXT[:-3]) or base.upper().startswith(DOCUMENT_NAMES)):
            out.append(text)
        elif lang == "text":
            out += [ln for ln in text.splitlines() if COMMENT_LINE_RE.match(ln)]
        elif lang == "cobol":
            out += [ln[7:] for ln in text.splitlines() if len(ln) > 6 and ln[6] in "*/"]
            out += [ln.split("*>", 1)[1] for ln in text.splitlines() if "*>" in ln]
        elif lang == "jcl":
            out += [ln for ln in text.splitlines() if ln.startswith("//*")]
    return out


def prose_names(snapshot: Snapshot) -> set[str]:
    """What ``--scrub-prose`` renames: in comments and documents, the distinctive words (as the leak
    report counts them), capitalised words of 4+ characters outside the general vocabulary whatever
    their count (product and place names: SupportPac, Hursley), the words of URLs that are not
    English (cicsdev in github.com/cicsdev/cics-genapp) and the owners named by copyright notices
    (IBM, Corp). Upper-cased."""
    marks = distinctive(word_counts(snapshot))
    names: set[str] = set()
    english = english_words()
    for text in prose(snapshot):
        for w in WORD_RE.findall(text):
            up = w.upper()
            if up in marks or (len(w) >= MIN_LENGTH and re.fullmatch("[A-Z][A-Za-z]*[0-9]*", w) and not is_general(up)):
                names.add(up)
        for url in URL_RE.findall(text):
            names.update(
                w.upper()
                for w in WORD_RE.findall(url)
                if w.upper() not in URL_COMMON and w.upper() not in english and not w.isdigit()
            )
        for m in COPYRIGHT_RE.finditer(text):
            names.update(
                w.upper()
                for w in WORD_RE.findall(m.group(1))
                if re.search("[A-Za-z]", w) and w.upper() not in english and w.upper() != "C"
            )
    vocab = general_words()
    # a placeholder (XXXXXXX) is no name, as discovery has it
    return {n for n in names if len(n) >= 3 and n not in vocab and not n.isdigit() and len(set(n)) > 1}
