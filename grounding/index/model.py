"""What the index records, and the query interface the verifier and the renamer use."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

Source = Literal["tree-sitter", "lexical", "both"]
ParseStatus = Literal["ok", "errors", "timeout", "lexical", "skipped"]


class Symbol(BaseModel):
    """A definition: a program, section, paragraph, data item, function, class, JCL job ..."""

    kind: str  # program, section, paragraph, data_item, condition, fd, select, function, class, method, job, step, proc, dd, map, mapset, ...
    name: str
    path: str
    start_line: int  # 1-based, inclusive
    end_line: int
    language: str
    source: Source
    detail: dict[str, str] = {}  # e.g. level, pic, parent, dataset


class Ref(BaseModel):
    """A use of a name: perform, call, copy, cics_read/write/rewrite/delete, cics_file (ENDBR, UNLOCK ...), xctl, link,
    cics_program (LOAD, RELEASE ...), sql_table, import, file_read/file_write, dsn, control_dsn, exec_pgm ..."""

    kind: str
    target: str
    path: str
    line: int
    context: str | None = None  # the enclosing paragraph / function, when known
    language: str
    # e.g. via (the variable a CICS/CALL target was resolved from), operand=data_name (the target is that variable's
    # own name, not a literal), mode, mapset
    detail: dict[str, str] = {}


class FileInfo(BaseModel):
    path: str
    language: str  # cobol, python, java, javascript, typescript, go, c, cpp, jcl, bms, text
    lines: int
    status: ParseStatus
    note: str | None = None
