"""BMS map definitions by rules: DFHMSD mapsets, DFHMDI maps and named DFHMDF fields."""

from __future__ import annotations

import re

from groundjudge.grounding.index.model import SymbolKind
from groundjudge.grounding.index.registry import Kind
from groundjudge.grounding.index.store import RefRow, SymbolRow, symbol_row

LANG = Kind.BMS
_MACRO = re.compile(r"^([A-Z0-9@#$]{1,8})?\s+(DFHMSD|DFHMDI|DFHMDF)\b\s*(.*)$", re.I)


def _statements(text: str) -> list[tuple[int, int, str | None, str, str]]:
    """Assembler statements: a non-blank column 72 continues the statement on the next line."""
    out: list[list] = []
    continuing = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if continuing and out:
            out[-1][1] = number
            out[-1][4] += raw[:71].strip()
            continuing = len(raw) >= 72 and raw[71] != " "
            continue
        if raw.startswith("*"):
            continue
        m = _MACRO.match(raw[:71])
        continuing = len(raw) >= 72 and raw[71] != " "
        if m:
            out.append([number, number, (m.group(1) or "").upper() or None, m.group(2).upper(), m.group(3).strip()])
        else:
            continuing = False
    return [tuple(s) for s in out]


def _operand(operands: str, key: str) -> str | None:
    m = re.search(rf"\b{key}=(\([^)]*\)|'(?:[^']|'')*'|[^,\s]+)", operands, re.I)
    return m.group(1) if m else None


def extract(path: str, text: str) -> tuple[list[SymbolRow], list[RefRow]]:
    stmts = _statements(text)
    n_lines = max(len(text.splitlines()), 1)
    symbols: list[SymbolRow] = []
    final = next((s[0] for s in stmts if s[3] == "DFHMSD" and (_operand(s[4], "TYPE") or "").upper() == "FINAL"), n_lines + 1)
    mapset: str | None = None
    current_map: str | None = None
    for k, (start, end, name, macro, operands) in enumerate(stmts):
        detail: dict[str, str] = {}
        if macro == "DFHMSD" and name:
            mapset = name
            symbols.append(symbol_row(SymbolKind.MAPSET, name, path, start, min(final, n_lines), LANG, "lexical"))
        elif macro == "DFHMDI" and name:
            current_map = name
            nxt = next((s[0] for s in stmts[k + 1 :] if s[3] in ("DFHMDI", "DFHMSD")), n_lines + 1)
            if mapset:
                detail["mapset"] = mapset
            symbols.append(symbol_row(SymbolKind.MAP, name, path, start, nxt - 1, LANG, "lexical", detail))
        elif macro == "DFHMDF" and name:
            if current_map:
                detail["map"] = current_map
            for key in ("POS", "LENGTH", "INITIAL"):
                val = _operand(operands, key)
                if val:
                    detail[key.lower()] = val
            symbols.append(symbol_row(SymbolKind.FIELD, name, path, start, end, LANG, "lexical", detail))
    return symbols, []
