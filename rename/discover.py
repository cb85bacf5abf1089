"""Find the repository-specific identifiers of a corpus, each with its class.

COBOL, JCL and BMS names come from the grounding index, as Python/Java/... names do (those for opt-in
classes only), so the renamer and the verifier read these statements one way. The CICS CSD and DB2 plans
are still read by lexical rules, and so is what the installation kit defines (rename/toolnames.py). Only names the repository itself defines are candidates: ``CALL 'CEEDAYS'``
or ``COPY DFHAID`` name nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from groundjudge.grounding.index.cobol_lexical import CICS_FILE_REFS
from groundjudge.grounding.index.cobol_source import is_free_format
from groundjudge.grounding.index.model import DATA_KINDS, PROCEDURE_KINDS, RefKind, SymbolKind
from groundjudge.grounding.index.registry import assign_dd, reserved_words, tag_kinds
from groundjudge.grounding.snapshot import Snapshot
from groundjudge.rename.leak import is_document, tool_words
from groundjudge.rename.lexer import language_of, sniff, tokens
from groundjudge.rename.models import CASE_SENSITIVE_CLASSES, CLASS_ORDER
from groundjudge.rename.pyowned import code_words, own_packages
from groundjudge.rename.pyscope import borrowed_names
from groundjudge.rename.toolnames import is_script, tool_names
from groundjudge.rename.vocabulary import BMS_FIELD_SUFFIXES, SYSTEM_QUALIFIERS, ibm_supplied

if TYPE_CHECKING:
    from groundjudge.grounding.index.model import Symbol
    from groundjudge.grounding.index.store import Index

MIN_LENGTH = 3  # shorter names are too often ordinary words in comments and prose

_NAME = r"[A-Za-z0-9][A-Za-z0-9_-]*"
_I = re.IGNORECASE
LEADING_TRAILING_RE = re.compile(r"\b(LEADING|TRAILING)\s+==\s*([^=]+?)\s*==", _I)
PSEUDO_PAIR_RE = re.compile(r"==\s*([^=]*?)\s*==\s*BY\s*==\s*([^=]*?)\s*==", _I)
TAG_RE = re.compile(r"\(\s*[A-Za-z0-9_-]+\s*\)|:[A-Za-z0-9_-]+:")  # (TESTVAR1), :TAG:
NOT_PROGRAM_SOURCE = (".md", ".txt", ".rst", ".adoc", ".html", ".htm", ".json", ".yaml", ".yml", ".xml", ".csv", ".log")
# what the corpus only uses is kept, and listed in the map so a reader sees why it still reads IEFBR14
NOT_DEFINED = "{} but not defined in the corpus ({})"


JCL_CLASS = {SymbolKind.JOB: "jcl_job", SymbolKind.STEP: "jcl_step", SymbolKind.DD: "jcl_dd"}  # index kind -> class
# names defined in JCL and the tools' inputs, where the tools' own keywords (tool_words.txt) sit beside
# them; COBOL and BMS names meet only COBOL's and CICS's keywords, which are reserved words
TOOL_INPUT_CLASSES = frozenset({"dataset", "resource", "sql_name", "variable", "jcl_step", "jcl_dd"})
PROGRAM_REFS = frozenset(
    {RefKind.CALL, RefKind.LINK, RefKind.XCTL, RefKind.CICS_PROGRAM}
)  # a literal target of one names a program
DATA_LEVELS = frozenset([f"{n:02d}" for n in range(1, 50)] + ["66", "77", "88"])
BMS_CLASS = {SymbolKind.MAPSET: "bms_mapset", SymbolKind.MAP: "bms_map", SymbolKind.FIELD: "bms_field"}  # index kind -> class
PLAN_RE = re.compile(r"\bPLAN\s*[(=]\s*'?([A-Za-z0-9$#@]+)", _I)  # DSN RUN / BIND / CSD TRANSACTION
CSD_RE = re.compile(rf"\bDEFINE\s+(TRANSACTION|TRANS|FILE|PROGRAM|MAPSET)\s*\(\s*({_NAME})\s*\)", _I)


@dataclass
class Discovery:
    """Everything the generator and the applier need to know about the corpus."""

    found: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (name as first seen, class)
    kept: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (why it is not renamed, class)
    corpus_tokens: set[str] = field(default_factory=set)  # every token, upper-cased
    program_names: set[str] = field(default_factory=set)  # upper-cased, renamed or not
    bms_labels: dict[str, str] = field(default_factory=dict)  # upper-cased map/field label -> bms_map/bms_field
    own_names: frozenset[str] = frozenset()  # the Python package named as the distribution: renamed even if English
    code_words: frozenset[str] = frozenset()  # identifiers of Python code: never prose words

    def add(self, name: str, cls: str) -> None:
        key = name if cls in CASE_SENSITIVE_CLASSES else name.upper()
        old = self.found.get(key)
        if old is None or CLASS_ORDER.index(cls) < CLASS_ORDER.index(old[1]):
            self.found[key] = (old[0] if old else name, cls)


def code_area(text: str) -> list[str]:
    """Columns 8-72 of every non-comment COBOL line (a blank line for a comment, so indexes are line
    numbers - 1). Free-format sources (``>>SOURCE FORMAT FREE``) keep the whole line."""
    lines = text.splitlines()
    free = is_free_format(text)
    out = []
    for line in lines:
        if free:
            out.append("" if line.lstrip().startswith("*>") else line.split("*>", 1)[0])
        elif len(line) > 6 and line[6] in "*/Dd":
            out.append("")
        else:
            out.append(line[7:72].split("*>", 1)[0])
    return out


def _cobol_class(s: Symbol) -> str | None:
    """A data item of a level that names one, an FD or a SELECT is a data name; the index records paragraphs
    and sections only in a procedure division or a copybook."""
    if s.kind in DATA_KINDS:
        return "data_name" if s.detail.get("level") in DATA_LEVELS else None
    if s.kind in (SymbolKind.FD, SymbolKind.SELECT):
        return "data_name"
    if s.kind in PROCEDURE_KINDS:
        return "paragraph"
    return None


def _pseudo_text(replacing: str) -> str:
    """A COPY's REPLACING operands as the index holds them, one token apart (``= = ( TAG ) = =``), with
    the pseudo-text delimiters and a parenthesised tag closed up again as written (``==(TAG)==``)."""
    text = re.sub(r"=\s=", "==", replacing)
    return re.sub(r"\(\s*([A-Za-z0-9_-]+)\s*\)", r"(\1)", text)


def _stem(path: str) -> str:
    base = path.rsplit("/", 1)[-1]
    return base.rsplit(".", 1)[0] if "." in base else base


def _dataset_qualifiers(dsn: str) -> Iterable[str]:
    parts = [q.split("(", 1)[0].upper() for q in dsn.split(".")]
    if any(q in SYSTEM_QUALIFIERS or ibm_supplied(q) for q in parts):
        return
    for q in dsn.split("."):
        q = q.split("(", 1)[0]
        if q.startswith("&&"):  # a temporary data set: the job names it
            q = q[2:]
        if q and not q.startswith(("&", "<")) and re.search("[A-Za-z]", q) and not re.fullmatch(r"G\d{4}V\d{2}", q, _I):
            yield q


def discover(snapshot: Snapshot, index_classes: Iterable[str] = ()) -> Discovery:
    """Every lexical class is discovered (``--include`` needs to know a name's class even when the class
    is not selected); the index is only consulted for the ``index_classes`` asked for."""
    wanted = set(index_classes)
    d = Discovery()
    texts: dict[str, tuple[str, str]] = {}  # path -> (lang, text)
    for entry in snapshot.files:
        for tok in tokens(entry.path, "text"):
            d.corpus_tokens.add(tok.upper())
        if entry.kind != "text":
            continue
        text = snapshot.read_text(entry.path)
        lang = sniff(entry.path, text)
        texts[entry.path] = (lang, text)
        d.corpus_tokens.update(t.upper() for t in tokens(text, lang))

    from groundjudge.grounding.index import load_index

    idx = load_index(snapshot, progress=False)
    split_lines: dict[str, list[str]] = {}

    def written(path: str, line: int, name: str) -> str:
        """The index holds COBOL, JCL and BMS names upper-cased; the map keeps a name as the corpus first
        spells it, here at the index's line or the nearest after it (a continued statement's)."""
        if path not in split_lines:
            split_lines[path] = texts[path][1].splitlines()
        word = re.compile(rf"(?<![A-Za-z0-9_$#@-]){re.escape(name)}(?![A-Za-z0-9_$#@-])", re.I)
        for text in split_lines[path][max(line - 1, 0) :]:
            if m := word.search(text):
                return m.group()
        return name

    cobol = {p: code_area(t) for p, (lang, t) in texts.items() if lang == "cobol"}
    stems: dict[str, str] = {}
    sources = set()  # stems of files that can hold a program: not a JCL member, a document or data
    for p in snapshot.files:
        stems.setdefault(_stem(p.path).upper(), _stem(p.path))
        if language_of(p.path) != "jcl" and not p.path.lower().endswith(NOT_PROGRAM_SOURCE):
            sources.add(_stem(p.path).upper())

    # Programs first: CALL/LINK/XCTL/PGM= targets count only when they name a file of the corpus.
    programs: dict[str, str] = {}
    copybook_files: dict[str, str] = {}
    # Procedure-division copybooks have no PROCEDURE DIVISION header: area-A words there are paragraphs.
    copybook_paths: set[str] = set()
    for path in cobol:
        ids = [written(path, s.start_line, s.name) for s in idx.definitions(kind=SymbolKind.PROGRAM, path=path)]
        for name in ids:
            programs.setdefault(name.upper(), name)
        if ids:
            programs.setdefault(_stem(path).upper(), _stem(path))
        else:
            copybook_files.setdefault(_stem(path).upper(), _stem(path))
            copybook_paths.add(path)
    # A routine written in another language (asm/COBDATFT.asm) is a program of the repository when a
    # CALL, LINK/XCTL or PGM= names it and a source file of the corpus carries its name. A JCL member
    # sharing a utility's name (cntl/itpll.jcl running PGM=ITPLL) defines a job, not the program.
    for target in _call_targets(cobol, texts, idx, written):
        up = target.upper()
        if up in programs or up in copybook_files:
            continue
        if up in sources:
            programs[up] = stems[up]
        elif re.fullmatch(r"[A-Za-z$#@][A-Za-z0-9$#@]{0,7}", target):  # a program name, not a data name
            d.kept.setdefault(target, (NOT_DEFINED.format("called", "system utility or vendor program"), "program"))
    d.program_names = set(programs)

    procs: dict[str, str] = {}
    for path, (lang, _text) in texts.items():
        if lang == "jcl":
            for s in idx.definitions(kind=SymbolKind.PROC, path=path):
                procs.setdefault(s.name, written(path, s.start_line, s.name))
            if path.lower().endswith((".proc", ".prc")):
                procs.setdefault(_stem(path).upper(), _stem(path))

    candidates: list[tuple[str, str]] = [(n, "program") for n in programs.values()]
    candidates += [(n, "copybook") for n in copybook_files.values()]
    candidates += [(n, "jcl_proc") for n in procs.values()]
    partial_word: list[tuple[str, str, str]] = []  # (copybook, LEADING/TRAILING, operand)
    tagged: list[tuple[str, str, str]] = []  # (copybook, tag, operand) of ==(TAG)== BY ==X==

    for path in cobol:
        copies = idx.references(kind=RefKind.COPY, path=path)
        for r in copies:
            if "via" in r.detail:
                continue
            book = written(path, r.line, r.target)
            if r.target in stems:
                candidates.append((book, "copybook"))
            else:
                d.kept.setdefault(book, (NOT_DEFINED.format("copied", "vendor or system copybook"), "copybook"))
            replacing = _pseudo_text(r.detail.get("replacing", ""))
            for lt in LEADING_TRAILING_RE.finditer(replacing):
                partial_word.append((r.target, lt.group(1).upper(), lt.group(2).upper()))
            for pair in PSEUDO_PAIR_RE.finditer(replacing):
                if TAG_RE.fullmatch(pair.group(1)):
                    # the tag is the program's and the copybook's own placeholder, a whole token in both
                    candidates.append((pair.group(1).strip("():"), "variable"))
                    if re.fullmatch(_NAME, pair.group(2)):
                        tagged.append((r.target, pair.group(1), pair.group(2)))
        for r in copies:  # EXEC SQL INCLUDE
            if "via" in r.detail and r.target in stems and r.target not in ("SQLCA", "SQLDA"):
                candidates.append((written(path, r.line, r.target), "copybook"))
        candidates += [(name, "dataset") for name in _cics_files(idx, path, written)]
        symbols = idx.definitions(path=path)
        for s in symbols:
            if s.kind == SymbolKind.SELECT and "assign" in s.detail:
                candidates.append((assign_dd(s.detail["assign"]), "jcl_dd"))
        for s in symbols:
            cls = _cobol_class(s)
            if cls and re.fullmatch(_NAME, s.name):
                candidates.append((written(path, s.start_line, s.name), cls))

    for path, (lang, text) in texts.items():
        if lang == "jcl":
            candidates += _jcl_names(idx, path, written, programs, procs)
        elif lang == "bms":
            for s in idx.definitions(path=path):
                cls = BMS_CLASS[s.kind]
                candidates.append((written(path, s.start_line, s.name), cls))
                if cls != "bms_mapset":
                    d.bms_labels[s.name] = cls
        if lang != "code":
            for m in PLAN_RE.finditer(text):
                if m.group(1).upper().startswith("DSN"):  # DSNTIAUL, DSNTEP2: IBM-supplied programs' plans
                    d.kept.setdefault(m.group(1), ("IBM-supplied DB2 plan (DSN prefix)", "db2_plan"))
                else:
                    candidates.append((m.group(1), "db2_plan"))
        for m in CSD_RE.finditer(text):
            kind, name = m.group(1).upper(), m.group(2)
            if kind in ("TRANSACTION", "TRANS"):
                candidates.append((name, "transaction"))
            elif kind == "FILE":
                candidates.append((name, "dataset"))

    called_only = {n.upper() for n in d.kept}  # a utility the corpus runs is not its own, whatever names it
    for path, (lang, text) in texts.items():
        code = "\n".join(cobol[path]) if lang == "cobol" else text
        found = tool_names(path, lang, code, is_document(path))
        if lang in ("cobol", "jcl", "bms") or (lang == "text" and is_script(path, text)):
            # a member of the kit (an exec, a script, a job): other members call it by this name
            found.append((_stem(path).lstrip("#@$"), "member"))
        candidates += [(n, c) for n, c in found if n.upper() not in called_only]

    if wanted and any(language_of(e.path) == "code" for e in snapshot.files):
        borrowed = borrowed_names(snapshot)
        d.own_names = own_packages(snapshot)
        for name, kind in _from_index(idx, wanted):
            if name in borrowed:
                d.kept.setdefault(name, (borrowed[name], kind))
            else:
                candidates.append((name, kind))

    reserved = reserved_words()
    keywords = tool_words()
    for name, cls in candidates:
        upper = name.upper()
        if upper in reserved:
            d.kept.setdefault(name, ("reserved word", cls))
        elif upper in keywords and cls in TOOL_INPUT_CLASSES:
            # a JCL symbol AMODE or a library ADATA spells a binder's or compiler's option: renaming the
            # name would rename the option wherever the tool reads it (PARM='AMODE(31)')
            d.kept.setdefault(name, ("tool keyword (rename/tool_words.txt)", cls))
        elif len(name) < MIN_LENGTH:
            d.kept.setdefault(name, (f"shorter than {MIN_LENGTH} characters", cls))
        elif not re.search("[A-Za-z]", name):
            d.kept.setdefault(name, ("no letter", cls))
        elif len(set(upper)) == 1:
            # CATALOG.XXXXXXXX.YYYY: a placeholder, and the same token can be a PICTURE string
            d.kept.setdefault(name, ("placeholder (one repeated character)", cls))
        elif not re.fullmatch(r"[A-Za-z0-9_-]+", name):
            d.kept.setdefault(name, ("contains $, # or @: never a whole token under the text rules", cls))
        elif ibm_supplied(upper):
            d.kept.setdefault(name, ("system prefix", cls))
        else:
            d.add(name, cls)

    # COPY ... REPLACING LEADING/TRAILING rewrites part of a word when the copybook is expanded; a name
    # carrying that part must keep it, or the expanded names would no longer match the program's.
    for copybook, how, operand in partial_word:
        for key, (name, cls) in list(d.found.items()):
            up = key.upper()
            if (how == "LEADING" and up.startswith(operand)) or (how == "TRAILING" and up.endswith(operand)):
                del d.found[key]
                d.kept[name] = (f"partial-word COPY {copybook} REPLACING {how} =={operand}==", cls)
    areas = {_stem(p).upper(): "\n".join(cobol[p]) for p in copybook_paths}
    _pin_tag_built_names(d, tagged, areas)
    d.code_words = code_words(snapshot)
    return d


def _pin_tag_built_names(d: Discovery, tagged: list[tuple[str, str, str]], areas: dict[str, str]) -> None:
    """``COPY CSSETATY REPLACING ==(TESTVAR1)== BY ==ACCT-STATUS==`` over a copybook line
    ``IF FLG-(TESTVAR1)-NOT-OK`` builds the name FLG-ACCT-STATUS-NOT-OK from a fixed part and the
    operand. Renaming either on its own would leave the expanded copybook naming something the program
    no longer defines, so the operand and the built names are kept. A BMS map or field glued to one
    of its symbolic-map suffixes (``(SCRNVAR2)C``) needs nothing: the suffixed name moves with it."""
    found_upper = {k.upper(): k for k in d.found}
    for copybook, tag, operand in tagged:
        area = areas.get(copybook)
        if area is None:
            continue
        op_key = found_upper.get(operand.upper())
        op_cls = d.found[op_key][1] if op_key else None
        for m in re.finditer(rf"([A-Za-z0-9_-]*){re.escape(tag)}([A-Za-z0-9_-]*)", area, re.IGNORECASE):
            prefix, suffix = m.group(1), m.group(2)
            if not prefix and not suffix:
                continue  # the tag is a whole word: the operand is an ordinary token there
            if not prefix and suffix.upper() in BMS_FIELD_SUFFIXES and op_cls in ("bms_map", "bms_field"):
                continue
            why = f"built by COPY {copybook} REPLACING =={tag}== BY =={operand}=="
            # the fixed parts beside the tag are tokens of their own (-ACCT-ID): renaming a name
            # inside one would change what the expansion builds, so they are pinned whatever the classes
            for fragment in (prefix, suffix):
                if fragment:
                    d.kept.setdefault(fragment, (f"fragment of a name {why}", "fragment"))
            built = found_upper.get(f"{prefix}{operand}{suffix}".upper())
            if built and built in d.found:
                name, cls = d.found.pop(built)
                d.kept[name] = (why, cls)
            if op_key and op_key in d.found:
                name, cls = d.found.pop(op_key)
                d.kept[name] = (f"glued into names of COPY {copybook} by REPLACING =={tag}==", cls)


def _call_targets(
    cobol: dict[str, list[str]], texts: dict[str, tuple[str, str]], idx: Index, written: Callable[[str, int, str], str]
) -> Iterable[str]:
    """Literal targets of CALL and of a CICS command's PROGRAM(...), and what a labelled JCL step runs. A data
    name holding the target is no program name, and what it holds is read from a VALUE only for files."""
    for path in cobol:
        for r in idx.references(path=path):
            if r.kind in PROGRAM_REFS and "via" not in r.detail and "operand" not in r.detail:
                yield written(path, r.line, r.target)
    for path, (lang, _text) in texts.items():
        if lang == "jcl":
            for r in idx.references(kind=RefKind.EXEC_PGM, path=path):
                if r.context and "via" not in r.detail:
                    yield written(path, r.line, r.target)


def _cics_files(idx: Index, path: str, written: Callable[[str, int, str], str]) -> Iterable[str]:
    """The files a CICS command of path names: a literal, or the literal VALUE of the data name given (spelled
    as that VALUE clause writes it), not a literal the program only MOVEs there."""
    for r in idx.references(path=path):
        if r.kind not in CICS_FILE_REFS or "operand" in r.detail or "moved_at" in r.detail:
            continue
        name = r.target.strip()  # VALUE 'ACCTDAT ' pads the file name to its field
        if not re.fullmatch(_NAME, name):
            continue
        if via := r.detail.get("via"):
            items = idx.definitions(name=via, path=path)
            yield written(path, items[0].start_line, name) if items else name
        else:
            yield written(path, r.line, name)


def _jcl_names(
    idx: Index, path: str, written: Callable[[str, int, str], str], programs: dict[str, str], procs: dict[str, str]
) -> list[tuple[str, str]]:
    """Jobs, steps and DDs, what a step runs when the corpus defines it, and the qualifiers of every dataset
    named, in line order. Only a labelled EXEC is read for its target, as only a step has a name."""
    rows: list[tuple[int, int, list[tuple[str, str]]]] = []
    for s in idx.definitions(path=path):
        cls = JCL_CLASS.get(s.kind)
        if cls and "override" not in s.detail:  # //STEP.DD names the DD of a PROC's step, read where it is defined
            rows.append((s.start_line, 0, [(written(path, s.start_line, s.name), cls)]))
    for r in idx.references(path=path):
        if r.kind in (RefKind.EXEC_PGM, RefKind.EXEC_PROC) and r.context and "via" not in r.detail:
            target = written(path, r.line, r.target)
            cls = "program" if r.target in programs else "jcl_proc" if r.target in procs else None
            if cls:
                rows.append((r.line, 1, [(target, cls)]))
        elif r.kind in (RefKind.DSN, RefKind.CONTROL_DSN):
            rows.append((r.line, 2, [(q, "dataset") for q in _dataset_qualifiers(written(path, r.line, r.target))]))
    return [c for *_, names in sorted(rows, key=lambda row: row[:2]) for c in names]


def _python_vocabulary() -> frozenset[str]:
    """Keywords, builtins and standard-library module names: renaming one would rename uses of the
    language itself (``open``, ``json``), not of the repository."""
    import builtins
    import keyword
    import sys

    return frozenset(keyword.kwlist) | frozenset(dir(builtins)) | frozenset(sys.stdlib_module_names)


def _from_index(idx: Index, wanted: set[str]) -> list[tuple[str, str]]:
    """Python/Java/JS/Go/C names the repository defines, from the grounding index. Dunder names are
    protocol, not repository vocabulary, and are never candidates."""
    found: list[tuple[str, str]] = []
    code_kinds = tag_kinds()  # the languages with classes, functions and importable modules
    for kind in (SymbolKind.CLASS, SymbolKind.FUNCTION, SymbolKind.METHOD):
        if kind in wanted:  # the identifier class is spelled as the index kind
            found += [(s.name, kind.value) for s in idx.definitions(kind=kind) if s.language in code_kinds]
    if "module" in wanted:
        for info in idx.files():
            if info.language in code_kinds and language_of(info.path) == "code":
                stem = _stem(info.path)
                if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", stem):
                    found.append((stem, "module"))
                if info.path.endswith("/__init__.py"):  # the package's own name, which every import spells
                    found.append((info.path.split("/")[-2], "module"))
    python = _python_vocabulary()
    return [(n, k) for n, k in found if not (n.startswith("__") and n.endswith("__")) and n not in python]
