"""The index against the project's sample corpora: every row of their hand-checked SYMBOLS.md tables
(written independently of the index) must be found, at the stated line, with the stated kind."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from groundjudge.grounding.index import load_index
from groundjudge.grounding.snapshot import snapshot_directory

CORPORA = Path(__file__).resolve().parent.parent / "corpora"


def table(md: Path, heading: str) -> list[list[str]]:
    """Rows (cells stripped of backticks) of the first table after a heading."""
    lines = md.read_text().splitlines()
    start = next(i for i, text in enumerate(lines) if text.startswith("#") and heading in text)
    rows = []
    for line in lines[start + 1 :]:
        if line.startswith("|"):
            cells = [c.strip().strip("`") for c in line.strip().strip("|").split("|")]
            if not set("".join(cells)) <= set("-: "):
                rows.append(cells)
        elif rows:
            break
    return rows[1:]  # without the header row


@pytest.fixture(scope="module")
def bank():
    idx = load_index(snapshot_directory(CORPORA / "cobol-bank"))
    yield idx
    idx.close()


@pytest.fixture(scope="module")
def ledger():
    idx = load_index(snapshot_directory(CORPORA / "pyledger"))
    yield idx
    idx.close()


BANK = CORPORA / "cobol-bank" / "SYMBOLS.md"


def test_every_paragraph_and_section_and_no_other(bank):
    want = sorted((path, int(line), name, kind) for path, line, name, kind in table(BANK, "Paragraphs and sections"))
    got = sorted((s.path, s.start_line, s.name, s.kind) for s in bank.definitions() if s.kind in ("paragraph", "section"))
    assert got == want


def test_paragraph_ranges_tile_the_procedure_division(bank):
    # a paragraph ends on the line before the next paragraph or section header (or at the end of the
    # file: no program here has END PROGRAM); a section on the line before the next section
    for path in sorted({s.path for s in bank.definitions() if s.kind in ("paragraph", "section")}):
        n = bank.file_info(path).lines
        headers = [s for s in bank.definitions(path=path) if s.kind in ("paragraph", "section")]
        sections = [s for s in headers if s.kind == "section"]
        for k, h in enumerate(headers):
            if h.kind == "paragraph":
                nxt = headers[k + 1].start_line - 1 if k + 1 < len(headers) else n
            else:
                later = [s.start_line for s in sections if s.start_line > h.start_line]
                nxt = later[0] - 1 if later else n
            assert h.end_line == nxt, (path, h.name)


def test_copybook_records(bank):
    for path, line, name in table(BANK, "Copybook records"):
        hits = bank.definitions(name, kind="data_item", path=path)
        assert [(s.start_line, s.detail["level"], s.detail["copybook"]) for s in hits] == [(int(line), "01", Path(path).stem)]


def _names(cell: str) -> set[str]:
    return {m for m in re.findall(r"\b[A-Z][A-Z0-9]{3,7}\b", re.sub(r"\([^)]*\)", "", cell))}


def test_programs_copybooks_and_control_transfers(bank):
    for program, _, source, copies, _, transfers in table(BANK, "Programs"):
        assert [s.path for s in bank.definitions(program, kind="program")] == [source]
        copied = {r.target for r in bank.references(kind="copy", path=source)}
        assert copied == _names(copies) - {"EXEC", "SQL", "INCLUDE", "REPLACING"}, program
        for verb, target, line in re.findall(r"\b(XCTL|LINK|CALL) '?([A-Z0-9]+)'? \(line (\d+)\)", transfers):
            kind = {"XCTL": "xctl", "LINK": "link", "CALL": "call"}[verb]
            assert [r.line for r in bank.references(target, kind=kind, path=source)] == [int(line)], (program, verb, target)
        for transid, line in re.findall(r"RETURN TRANSID\('(\w+)'\) \(line (\d+)\)", transfers):
            assert [r.line for r in bank.references(transid, kind="cics_transid", path=source)] == [int(line)]


def test_cics_dataset_and_map_lines(bank):
    upd = "cbl/BKUPD02C.cbl"
    assert [r.line for r in bank.references("ACCTDAT", kind="cics_read", path=upd)] == [59, 83, 145]
    assert [r.line for r in bank.references("ACCTDAT", kind="cics_rewrite", path=upd)] == [119]
    assert [r.line for r in bank.references("ACCTDAT", kind="cics_delete", path=upd)] == [160]
    assert [(r.kind, r.line) for r in bank.references("ACTMAP", path=upd)] == [("cics_receive_map", 69), ("cics_send_map", 191)]
    assert [(r.kind, r.line) for r in bank.references("MNUMAP", path="cbl/BKMNU01C.cbl")] == [
        ("cics_receive_map", 54),
        ("cics_send_map", 115),
    ]
    assert [r.line for r in bank.references("AUDITLG", kind="cics_write", path="cbl/BKAUD04C.cbl")] == [39]


def test_sql_tables_and_batch_files(bank):
    rpt = {r.target for r in bank.references(kind="sql_table", path="cbl/BKRPT03C.cbl")}
    assert rpt == {"ACCOUNT_TABLE", "CUSTOMER_TABLE"}
    opens = {(r.target, r.detail["mode"]) for r in bank.references(kind="file_open", path="cbl/BKTRN02C.cbl")}
    assert ("TRAN-HIST-FILE", "EXTEND") in opens
    assert {s.detail["assign"] for s in bank.definitions(kind="select", path="cbl/BKRPT03C.cbl")} == {"S-RPTOUT"}


def test_jcl_runs(bank):
    runs = {(r.path, r.target) for r in bank.references(kind="exec_pgm")}
    assert {("jcl/BKACTMNT.jcl", "BKACT01C"), ("jcl/proc/BKPOST.jcl", "BKTRN02C"), ("jcl/BKDAILY.jcl", "BKRPT03C")} <= runs
    assert [r.target for r in bank.references(kind="exec_proc", path="jcl/BKDAILY.jcl")] == ["BKPOST"]
    assert [s.name for s in bank.definitions(kind="step", path="jcl/proc/BKPOST.jcl")] == ["SORTTRN", "POSTTRN"]


def test_bms_maps_and_fields(bank):
    for map_name, _, fields in table(BANK, "Maps"):
        (m,) = bank.definitions(map_name, kind="map")
        assert m.detail == {"mapset": "BKSET01"}
        named = {s.name for s in bank.definitions(kind="field", path=m.path) if s.detail.get("map") == map_name}
        assert named == {f.strip() for f in fields.split(",")}


def test_the_ebcdic_file_is_listed_and_skipped(bank):
    info = bank.file_info("data/ACCTUPD.dat")
    assert (info.status, info.lines) == ("skipped", 0)


def test_pyledger_symbols(ledger):
    want = set()
    for path, line, symbol, kind in table(CORPORA / "pyledger" / "SYMBOLS.md", "Symbols"):
        parent, _, name = symbol.rpartition(".")
        want.add((path, int(line), name, kind, parent or None))
    got = {(s.path, s.start_line, s.name, s.kind, s.detail.get("parent")) for s in ledger.definitions()}
    assert want == got
