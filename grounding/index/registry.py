"""What the project knows about each language, read from one data file per language in languages/.

The index, the claim extractor, the verifier and the renamer all ask here, so that a file is COBOL (or
JCL, or Python) for all of them alike, and a reserved word is reserved for all of them alike.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from pathlib import Path

_DATA = Path(__file__).parent / "languages"


class Kind(StrEnum):
    """A language as stored in the index (files.language, symbols.language, refs.language)."""

    COBOL = "cobol"
    JCL = "jcl"
    BMS = "bms"
    PYTHON = "python"
    JAVA = "java"
    JAVASCRIPT = "javascript"
    TYPESCRIPT = "typescript"
    GO = "go"
    C = "c"
    CPP = "cpp"
    RUST = "rust"
    KOTLIN = "kotlin"
    CSHARP = "csharp"
    SQL = "sql"
    TEXT = "text"


@dataclass(frozen=True)
class Language:
    kind: Kind
    extensions: tuple[str, ...]
    case_sensitive: bool
    hyphen_in_names: bool  # COBOL, JCL, BMS and prose: ACCT-ID is one name; in code, - is an operator
    parser: str  # "cobol", "tags" (tree-sitter tag query), "rules" (jcl.py, bms.py) or "none"
    grammars: dict[str, str]  # extension -> tree-sitter grammar, where it is not the kind's own name
    leading_text: str | None  # a file of no known extension that starts with this is of this language
    sniff: re.Pattern[str] | None  # found in the first lines of a file whose extension no language names
    line_comments: tuple[str, ...]
    reserved: frozenset[str]  # as written: upper case for the case-insensitive languages
    vocabulary: frozenset[str]  # embedded languages and system names (COBOL: CICS, SQL; JCL: VSAM, system datasets)
    # a type's definition holds its methods (a Python or Java class); false where they live apart, in impl
    # blocks or receiver functions anywhere (Rust, Go, C)
    members_inside_types: bool = True
    data: dict = field(default_factory=dict)  # the file's language-specific tables ([comments], [assign], ...)


def _words(text: str) -> frozenset[str]:
    """Whitespace-separated words; '#' to end of line is a comment."""
    return frozenset(w for line in text.splitlines() for w in line.split("#", 1)[0].split())


def _load(kind: Kind) -> Language:
    path = _DATA / f"{kind.value}.toml"
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return Language(
        kind=kind,
        extensions=tuple(data["extensions"]),
        case_sensitive=data["case_sensitive"],
        hyphen_in_names=data["hyphen_in_names"],
        parser=data["parser"],
        grammars=data.get("grammars", {}),
        leading_text=data.get("leading_text"),
        sniff=re.compile(data["sniff"]) if "sniff" in data else None,
        line_comments=tuple(data.get("comments", {}).get("line", ())),
        reserved=_words(data.get("reserved", {}).get("words", "")),
        vocabulary=frozenset().union(*(_words(v) for v in data.get("vocabulary", {}).values())),
        members_inside_types=data.get("members_inside_types", True),
        data=data,
    )


@cache
def languages() -> dict[Kind, Language]:
    return {kind: _load(kind) for kind in Kind}


def language(kind: str) -> Language:
    return languages()[Kind(kind)]


@cache
def _by_extension() -> dict[str, Kind]:
    table: dict[str, Kind] = {}
    for lang in languages().values():
        for ext in lang.extensions:
            if ext in table:
                raise ValueError(f"extension {ext} is claimed by both {table[ext]} and {lang.kind}")
            table[ext] = lang.kind
    return table


def extension(path: str) -> str:
    """The file name's extension, lower-case with its dot ('' when it has none)."""
    name = path.rsplit("/", 1)[-1]
    return name[name.rfind(".") :].lower() if "." in name else ""


def kind_of_path(path: str) -> Kind:
    """The language a file name says (TEXT when its extension names none)."""
    return _by_extension().get(extension(path), Kind.TEXT)


SNIFFED_CHARS = 8000  # about the first hundred lines: where a program's header or a copybook's first entry stands


@cache
def _listed(key: str) -> frozenset[str]:
    """What the language files list under key: the extensions `sniffed_extensions` (names that say plain text
    but not which), `documents` (documents and configuration), `stubs` (declaration files) and `scripts`, and
    the file names `script_names` (scripts and build files without an extension)."""
    return frozenset(entry for lang in languages().values() for entry in lang.data.get(key, ()))


def is_document_or_config(path: str) -> bool:
    """A document or configuration file (text.toml's documents), which describes the code but never acts.
    Not the renamer's documents (rename.leak.is_document): those are prose written for people, `.txt` too."""
    return extension(path) in _listed("documents")


def is_script(path: str) -> bool:
    """A script or build file (text.toml's scripts and script_names): plain text that acts."""
    name = path.rsplit("/", 1)[-1].lower()
    return extension(path) in _listed("scripts") or name in _listed("script_names")


def is_stub(path: str) -> bool:
    """A declaration file (a language's `stubs`: Python's `.pyi`, TypeScript's `.d.ts`), whose functions have
    no bodies: what a name does is read in the file that runs it."""
    return path.lower().endswith(tuple(_listed("stubs")))


def kind_of(path: str, text: str) -> Kind:
    """The language of a file from its name, else from how its text starts (JCL's `//`), else, when no
    language names its extension or it names plain text only (`.txt`), from what its first lines hold (a
    COBOL member without an extension, or saved as `.txt`)."""
    kind = kind_of_path(path)
    if kind is Kind.TEXT:
        for lang in languages().values():
            if lang.leading_text and text.startswith(lang.leading_text):
                return lang.kind
        if extension(path) not in _by_extension() or extension(path) in _listed("sniffed_extensions"):
            head = text[:SNIFFED_CHARS]
            for lang in languages().values():
                if lang.sniff is not None and lang.sniff.search(head):
                    return lang.kind
    return kind


def source_extensions() -> list[str]:
    """Every extension the registry knows, without its dot: the file names an answer may cite."""
    return sorted(ext[1:] for ext in _by_extension())


@cache
def case_insensitive() -> frozenset[Kind]:
    return frozenset(k for k, lang in languages().items() if not lang.case_sensitive)


@cache
def members_outside_types() -> frozenset[Kind]:
    """Languages whose types do not hold their methods (see Language.members_inside_types)."""
    return frozenset(k for k, lang in languages().items() if not lang.members_inside_types)


def needs_parser(kind: str) -> bool:
    """Languages parsed by tree-sitter, hence in a worker process under a time limit."""
    return language(kind).parser in ("cobol", "tags")


def grammar_for(path: str, kind: str) -> str | None:
    """The tree-sitter grammar of a tag-query language, or None (COBOL has its own path)."""
    lang = language(kind)
    if lang.parser != "tags":
        return None
    return lang.grammars.get(extension(path), lang.kind.value)


def tag_kinds() -> tuple[Kind, ...]:
    return tuple(k for k, lang in languages().items() if lang.parser == "tags")


@cache
def comment_starts(kind: str) -> tuple[str, ...] | None:
    """What a comment line of the language starts with, leading blanks aside: its line markers, its block
    comments' openers and closers, and the `* ` that continues a block comment's lines. None for a language
    with no comment table (prose) or one the registry does not know."""
    if kind not in Kind.__members__.values() or "comments" not in language(kind).data:
        return None
    lang = language(kind)
    blocks = lang.data["comments"].get("block", [])
    continued = ("* ",) if blocks else ()
    return lang.line_comments + tuple(mark for pair in blocks for mark in pair) + continued


@cache
def keywords() -> frozenset[str]:
    """Upper-cased: every language's reserved words alone (READ, CLOSE, return), without the vocabulary of
    the products a language embeds (CICS, DB2, Language Environment routines)."""
    return frozenset(w.upper() for lang in languages().values() for w in lang.reserved)


@cache
def reserved_words() -> frozenset[str]:
    """Upper-cased: every language's reserved words and vocabulary, the words that name no repository's
    own thing."""
    return frozenset(w.upper() for lang in languages().values() for w in lang.reserved | lang.vocabulary)


@cache
def special_names() -> frozenset[str]:
    """Upper-cased: names a language supplies without any file declaring them (COBOL's special registers,
    CICS attention keys), from each language's [special] table."""
    return frozenset(
        w.upper() for lang in languages().values() for words in lang.data.get("special", {}).values() for w in _words(words)
    )


def copybook_extensions() -> tuple[str, ...]:
    return tuple(language(Kind.COBOL).data["copybook_extensions"])


def cobol_indicators(*roles: str) -> frozenset[str]:
    """Column-7 indicator characters of the given roles ("comment", "debug", "continuation")."""
    comments = language(Kind.COBOL).data["comments"]
    return frozenset("".join(comments[f"{role}_indicators"] for role in roles))


@cache
def _assign_prefix() -> re.Pattern[str]:
    assign = language(Kind.COBOL).data["assign"]
    devices = "|".join(re.escape(p) for p in assign["device_classes"])
    organisations = "|".join(re.escape(p) for p in assign["organisations"])
    return re.compile(rf"^((?:{devices})?(?:{organisations}))(.+)$", re.I)


def split_assign(name: str) -> tuple[str, str] | None:
    """(prefix, DD name) of an ASSIGN name that carries a device/organisation prefix (``UT-S-RPTOUT`` ->
    ``("UT-S-", "RPTOUT")``), or None."""
    m = _assign_prefix().match(name)
    return (m.group(1), m.group(2)) if m else None


def assign_dd(name: str) -> str:
    """The DD name an ASSIGN name refers to: the name without its prefix."""
    split = split_assign(name)
    return split[1] if split else name
