"""What the index records, and the query interface the verifier and the renamer use."""

from __future__ import annotations

from enum import StrEnum
from typing import Literal, NamedTuple

from pydantic import BaseModel

Source = Literal["tree-sitter", "lexical", "both"]
ParseStatus = Literal["ok", "errors", "timeout", "lexical", "skipped"]
_NO_DETAIL: dict[str, str] = {}


class SymbolKind(StrEnum):
    """What a definition is. A StrEnum: the index stores and the JSON shows the plain value."""

    # COBOL
    PROGRAM = "program"
    COPYBOOK = "copybook"  # a copybook file as a whole
    SECTION = "section"
    PARAGRAPH = "paragraph"
    DATA_ITEM = "data_item"
    CONDITION = "condition"  # a level-88 condition name
    FD = "fd"
    SELECT = "select"
    # JCL
    JOB = "job"
    STEP = "step"
    PROC = "proc"
    DD = "dd"
    # BMS
    MAPSET = "mapset"
    MAP = "map"
    FIELD = "field"
    # tag languages (tags.py: a query's `@definition.<kind>` capture)
    FUNCTION = "function"
    METHOD = "method"
    CLASS = "class"
    CONSTANT = "constant"


class RefKind(StrEnum):
    """What a use of a name does. A StrEnum: the index stores and the JSON shows the plain value."""

    # COBOL statements
    PERFORM = "perform"
    CALL = "call"  # also a call in a tag language (`@reference.call`)
    COPY = "copy"
    GOTO = "goto"
    FILE_OPEN = "file_open"
    FILE_READ = "file_read"
    FILE_WRITE = "file_write"
    SQL_TABLE = "sql_table"
    # EXEC CICS commands
    CICS_READ = "cics_read"
    CICS_WRITE = "cics_write"
    CICS_REWRITE = "cics_rewrite"
    CICS_DELETE = "cics_delete"
    CICS_STARTBR = "cics_startbr"
    CICS_READNEXT = "cics_readnext"
    CICS_READPREV = "cics_readprev"
    CICS_FILE = "cics_file"  # ENDBR, UNLOCK, RESETBR, INQUIRE: a file named without reading or writing it
    XCTL = "xctl"
    LINK = "link"
    CICS_PROGRAM = "cics_program"  # LOAD, RELEASE, INQUIRE, HANDLE ABEND: a program named without passing control
    CICS_TRANSID = "cics_transid"
    CICS_SEND_MAP = "cics_send_map"
    CICS_RECEIVE_MAP = "cics_receive_map"
    # JCL
    EXEC_PGM = "exec_pgm"
    EXEC_PROC = "exec_proc"
    DSN = "dsn"
    CONTROL_DSN = "control_dsn"  # a dataset named in a utility's in-stream control statements
    # tag languages (tags.py: a query's `@reference.<kind>` capture)
    IMPORT = "import"
    RAISE = "raise"
    EXCEPT = "except"


DATA_KINDS = frozenset({SymbolKind.DATA_ITEM, SymbolKind.CONDITION})  # COBOL data names
PROCEDURE_KINDS = frozenset({SymbolKind.PARAGRAPH, SymbolKind.SECTION})  # the named parts of a COBOL procedure division
FUNCTION_KINDS = frozenset({SymbolKind.FUNCTION, SymbolKind.METHOD})  # code with a body of its own in a tag language


class Symbol(NamedTuple):
    """A definition: a program, section, paragraph, data item, function, class, JCL job ...

    A query result, never stored as it is (the index keeps rows): a named tuple, because verification reads
    tens of thousands of them and a validated model per row, with the objects the garbage collector then
    walks, was a third of its time. detail is shared between equal rows: read it, never change it."""

    kind: SymbolKind
    name: str
    path: str
    start_line: int  # 1-based, inclusive
    end_line: int
    language: str
    source: Source
    detail: dict[str, str] = _NO_DETAIL  # e.g. level, pic, parent, dataset


class Ref(NamedTuple):
    """A use of a name: a PERFORM, a CALL, a COPY, a CICS command, a JCL EXEC or DSN, an import, a raise ...
    A query result like Symbol, and read-only like it."""

    kind: RefKind
    target: str
    path: str
    line: int
    language: str
    context: str | None = None  # the enclosing paragraph / function, when known
    # e.g. via (the variable a CICS/CALL target was resolved from), operand=data_name (the target is that variable's
    # own name, not a literal), mode, mapset
    detail: dict[str, str] = _NO_DETAIL


class FileInfo(BaseModel):
    path: str
    language: str  # cobol, python, java, javascript, typescript, go, c, cpp, jcl, bms, text
    lines: int
    status: ParseStatus
    note: str | None = None
