"""JCL by rules (no grammar exists): jobs, steps, PROCs and DDs, and the programs, PROCs and datasets they name."""

from __future__ import annotations

import re

from groundjudge.grounding.index.model import RefKind, SymbolKind
from groundjudge.grounding.index.registry import Kind, language
from groundjudge.grounding.index.store import RefRow, SymbolRow, ref_row, symbol_row

LANG = Kind.JCL
_COMMENTS = language(Kind.JCL).line_comments
_STATEMENT = re.compile(r"^//([A-Z0-9@#$][A-Z0-9@#$.]*)?\s+(JOB|EXEC|DD|PROC|PEND)\b\s*(.*)$", re.I)
_PGM = re.compile(r"\bPGM=([A-Z0-9@#$*.]+)", re.I)
_PROC = re.compile(r"^(?:PROC=)?([A-Z0-9@#$]+)", re.I)
# <...> admits an installer's placeholder qualifier (DSN=<USRHLQ>.APP.DATA): the dataset is still named
_DSN = re.compile(r"\bDSN(?:AME)?=([A-Z0-9@#$.&()+<>-]+)", re.I)
# A utility's control statements in in-stream data (IDCAMS DEFINE CLUSTER NAME(...), REPRO INDATASET(...),
# DFDSS DATASET(...)) name datasets the job works on that no DD statement does
_CONTROL_DSN = re.compile(r"\b(?:DSN|DSNAME|DATASET|INDATASET|OUTDATASET|NAME|IDS|ODS)\s*[=(]\s*'?([A-Z0-9$#@&.<>]+)", re.I)


def _statements(text: str) -> list[tuple[int, int, str | None, str, str]]:
    """(first line, last line, name, operation, operands) with continuation lines joined."""
    out: list[list] = []
    continuing = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw[:72].rstrip()
        if line.startswith(_COMMENTS) or not line.startswith("//"):
            continuing = False
            continue
        if continuing and out and re.match(r"^//\s+\S", line) and not _STATEMENT.match(line):
            out[-1][1] = number
            out[-1][4] += line[2:].strip().split(" ")[0]
            continuing = out[-1][4].endswith(",")
            continue
        m = _STATEMENT.match(line)
        if not m:
            continuing = False
            continue
        operands = m.group(3).split(" ")[0] if m.group(3) else ""
        out.append([number, number, (m.group(1) or "").upper() or None, m.group(2).upper(), operands])
        continuing = operands.endswith(",")
    return [tuple(s) for s in out]


_DSN_RUN = re.compile(r"^\s*RUN\s+PROG(?:RAM)?\(([A-Z0-9@#$]+)\)", re.I)


def _instream_runs(text: str) -> list[tuple[int, str]]:
    """Programs run through the DB2 DSN command processor from in-stream SYSTSIN data (not `//` lines)."""
    return [
        (n, m.group(1).upper())
        for n, raw in enumerate(text.splitlines(), start=1)
        if not raw.startswith("//") and (m := _DSN_RUN.match(raw))
    ]


def _control_datasets(text: str) -> list[tuple[int, str]]:
    """Qualified dataset names in in-stream data (lines not starting with `//`)."""
    return [
        (n, m.group(1).upper())
        for n, raw in enumerate(text.splitlines(), start=1)
        if not raw.startswith("//")
        for m in _CONTROL_DSN.finditer(raw)
        if "." in m.group(1)
    ]


def extract(path: str, text: str) -> tuple[list[SymbolRow], list[RefRow]]:
    stmts = _statements(text)
    n_lines = max(len(text.splitlines()), 1)
    symbols: list[SymbolRow] = []
    refs: list[RefRow] = []
    steps: list[tuple[int, int, str]] = []  # (start, end, name)
    step: str | None = None
    last_dd = ""

    def sym(kind: SymbolKind, name: str, start: int, end: int, detail: dict[str, str]) -> None:
        symbols.append(symbol_row(kind, name, path, start, end, LANG, "lexical", detail))

    def ref(kind: RefKind, target: str, line: int, detail: dict[str, str] | None = None) -> None:
        refs.append(ref_row(kind, target.upper(), path, line, step, LANG, detail))

    def end_before(k: int, ops: tuple[str, ...]) -> int:
        nxt = next((s[0] for s in stmts[k + 1 :] if s[3] in ops), None)
        return nxt - 1 if nxt else n_lines

    for k, (start, end, name, op, operands) in enumerate(stmts):
        if op == "JOB" and name:
            sym(SymbolKind.JOB, name, start, end_before(k, ("JOB",)), {})
            step = None
        elif op == "PROC" and name:
            nxt = next((s for s in stmts[k + 1 :] if s[3] in ("PEND", "JOB", "PROC")), None)
            end = n_lines if nxt is None else nxt[0] if nxt[3] == "PEND" else nxt[0] - 1
            sym(SymbolKind.PROC, name, start, end, {})
            step = None
        elif op == "EXEC":
            step = name
            pgm = _PGM.search(operands)
            detail: dict[str, str]
            if pgm:
                detail = {"pgm": pgm.group(1).upper()}
                ref(RefKind.EXEC_PGM, pgm.group(1), start)
            else:
                proc = _PROC.match(operands)
                detail = {"proc": proc.group(1).upper()} if proc else {}
                if proc:
                    ref(RefKind.EXEC_PROC, proc.group(1), start)
            if name:
                last = end_before(k, ("EXEC", "JOB", "PROC", "PEND"))
                steps.append((start, last, name))
                sym(SymbolKind.STEP, name, start, last, detail)
        elif op == "DD":
            dsn = _DSN.search(operands)
            detail = {}
            if step:
                detail["step"] = step
            if dsn:
                dataset = dsn.group(1).upper()
                member = re.search(r"\(([^)]*)\)$", dataset)
                dataset = dataset[: member.start()] if member else dataset
                detail["dsn"] = dataset
                qualifier = {}
                if member:
                    # DSN=LIB(MEM) names a member; DSN=GDG(+1) a generation
                    qualifier = {"generation" if re.match(r"^[+-]?\d+$", member.group(1)) else "member": member.group(1)}
                ref(RefKind.DSN, dataset, start, {"dd": name or last_dd, **qualifier})
            if name:
                dd_name = name.split(".")[-1]
                if "." in name:  # //STEP.DD overrides or adds a DD of a step in the PROC the job runs
                    detail["step"] = name.split(".")[0]
                    detail["override"] = "yes"
                sym(SymbolKind.DD, dd_name, start, end, detail)
                last_dd = dd_name
    for line, program in _instream_runs(text):
        step = next((name for start, end, name in steps if start <= line <= end), None)
        ref(RefKind.EXEC_PGM, program, line, {"via": "DSN RUN"})
    for line, dataset in _control_datasets(text):
        step = next((name for start, end, name in steps if start <= line <= end), None)
        ref(RefKind.CONTROL_DSN, dataset, line)
    return symbols, refs
