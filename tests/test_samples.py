"""The bundled sample corpora and question sets are internally consistent.

Other tests take their hand-checked expectations from corpora/*/SYMBOLS.md, so every line number
there is checked here against the files, and every symbol the files define is listed there.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from groundjudge.grounding.snapshot import classify, normalize_relpath
from groundjudge.questions import BUNDLED, load_questions

REPO = Path(__file__).resolve().parent.parent
CORPORA = REPO / "corpora"
COBOL = CORPORA / "cobol-bank"
PYLEDGER = CORPORA / "pyledger"
SYSTEM_COPYBOOKS = {"DFHAID", "DFHBMSCA"}
PARAGRAPH_RE = re.compile(r"^([0-9A-Z][0-9A-Z-]*)( SECTION)?\.\s*$")


def _table_rows(markdown: str, header: str) -> list[list[str]]:
    """Cells of the markdown table whose header row starts with ``header``."""
    rows: list[list[str]] = []
    inside = False
    for line in markdown.splitlines():
        if line.startswith(header):
            inside = True
            continue
        if inside:
            if not line.startswith("|"):
                if rows:
                    break
                continue
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if set(cells[0]) <= {"-", ":"}:
                continue
            rows.append(cells)
    return rows


def _cobol_sources() -> list[Path]:
    return sorted(p for p in COBOL.rglob("*") if p.suffix in (".cbl", ".cpy"))


def _cobol_paragraphs(path: Path) -> list[tuple[int, str, str]]:
    """(line, name, 'paragraph'|'section') for headers in Area A of the procedure division."""
    found: list[tuple[int, str, str]] = []
    in_procedure = False
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if len(line) < 8 or line[6] != " ":
            continue
        if "PROCEDURE DIVISION" in line:
            in_procedure = True
            continue
        if in_procedure and line[7] != " ":
            match = PARAGRAPH_RE.match(line[7:72])
            if match:
                found.append((number, match.group(1), "section" if match.group(2) else "paragraph"))
    return found


def _text_files(root: Path) -> dict[Path, str]:
    texts = {}
    for path in sorted(root.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            kind, _, encoding = classify(path.read_bytes())
            if kind == "text":
                texts[path] = path.read_text(encoding=encoding)
    return texts


# --- question sets -------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "count"), [("cobol-bank", 12), ("pyledger", 7)])
def test_question_set_loads(name: str, count: int) -> None:
    questions = load_questions(BUNDLED / f"{name}.jsonl")
    assert len(questions) == count
    assert [q.id for q in questions] == [f"q{i:02d}" for i in range(1, count + 1)]
    for q in questions:
        assert q.difficulty in {"easy", "medium", "hard"}
        assert q.category in {"architecture", "data-flow", "business-rule", "navigation", "batch-jobs"}
        assert q.text.endswith("?")
        assert q.must_touch, q.id


@pytest.mark.parametrize("name", ["cobol-bank", "pyledger"])
def test_every_must_touch_item_exists_in_the_corpus(name: str) -> None:
    root = CORPORA / name
    texts = _text_files(root)
    for q in load_questions(BUNDLED / f"{name}.jsonl"):
        for item in q.must_touch:
            relpath = normalize_relpath(item)
            assert relpath == item, f"{q.id}: {item!r} is not a clean relative path or name"
            if (root / item).is_file():
                continue
            word = re.compile(rf"(?<![\w-]){re.escape(item)}(?![\w-])")
            parts = [re.compile(rf"(?<![\w-]){re.escape(p)}(?![\w-])") for p in item.split(".")]
            assert any(word.search(t) or all(p.search(t) for p in parts) for t in texts.values()), (
                f"{q.id}: {item!r} is neither a file nor a word of {name}"
            )


# --- COBOL corpus: fixed format ------------------------------------------------------------------


def test_cobol_corpus_has_the_promised_parts() -> None:
    programs = sorted(p.stem for p in (COBOL / "cbl").glob("*.cbl"))
    assert programs == ["BKACT01C", "BKAUD04C", "BKDTE01S", "BKMNU01C", "BKRPT03C", "BKSGN00C", "BKTRN02C", "BKUPD02C"]
    assert len(list((COBOL / "cpy").glob("*.cpy"))) >= 4
    assert len(list((COBOL / "jcl").rglob("*.jcl"))) >= 3
    assert [p.name for p in (COBOL / "bms").glob("*.bms")] == ["BKSET01.bms"]
    bms = (COBOL / "bms" / "BKSET01.bms").read_text()
    assert re.findall(r"^(\w+)\s+DFHMDI", bms, re.M) == ["MNUMAP", "ACTMAP"]


def test_cobol_lines_fit_in_80_columns_and_use_valid_indicators() -> None:
    for path in _cobol_sources():
        for number, line in enumerate(path.read_text().splitlines(), start=1):
            where = f"{path.relative_to(COBOL)}:{number}"
            assert len(line) <= 80, where
            assert line[:6].isdigit() or line[:6].strip() == "", where
            assert len(line) < 7 or line[6] in " */-D", where
    for path in [*(COBOL / "jcl").rglob("*.jcl"), COBOL / "bms" / "BKSET01.bms"]:
        assert max(len(line) for line in path.read_text().splitlines()) <= 80, path


def test_program_ids_match_file_names() -> None:
    for path in (COBOL / "cbl").glob("*.cbl"):
        assert re.search(rf"PROGRAM-ID\. {path.stem}\.", path.read_text()), path


def test_cobol_sequence_areas_are_numbered_or_blank_per_file() -> None:
    blank, numbered = [], []
    for path in _cobol_sources():
        lines = path.read_text().splitlines()
        if all(line[:6] == "      " for line in lines):
            blank.append(path.name)
        else:
            # numbered files count 000100, 000200, ... so the number is the line number times 100
            assert all(int(line[:6]) == n * 100 for n, line in enumerate(lines, start=1)), path
            numbered.append(path.name)
    assert sorted(blank) == ["BKAUD04C.cbl", "BKAUDR.cpy", "BKDTE01S.cbl"]
    assert len(numbered) == 12


def test_cobol_corpus_contains_the_awkward_constructs() -> None:
    def line(rel: str, number: int) -> str:
        return (COBOL / rel).read_text().splitlines()[number - 1]

    first, cont = line("cbl/BKUPD02C.cbl", 99), line("cbl/BKUPD02C.cbl", 100)
    assert len(first) == 72 and first.count("'") == 1  # literal runs to column 72, still open
    assert cont[6] == "-" and cont[7:].lstrip().startswith("'")
    assert line("cbl/BKTRN02C.cbl", 190)[6] == "D"
    assert "\t" in line("cbl/BKRPT03C.cbl", 133)
    assert line("cbl/BKACT01C.cbl", 57)[72:80] == "CHG0212"
    assert line("cbl/BKUPD02C.cbl", 21)[72:80] == "CHG0307"
    assert "ASSIGN TO S-RPTOUT" in (COBOL / "cbl" / "BKRPT03C.cbl").read_text()
    assert "FROM ACCOUNT_TABLE" in (COBOL / "cbl" / "BKRPT03C.cbl").read_text()


def test_every_copy_resolves_to_a_corpus_copybook_or_a_system_one() -> None:
    copybooks = {p.stem for p in (COBOL / "cpy").glob("*.cpy")}
    used = set()
    for path in (COBOL / "cbl").glob("*.cbl"):
        used |= set(re.findall(r"\bCOPY (\w+)", path.read_text()))
    assert used - copybooks == SYSTEM_COPYBOOKS
    assert copybooks - used == set()


def test_every_called_or_transferred_to_program_exists() -> None:
    programs = {p.stem for p in (COBOL / "cbl").glob("*.cbl")}
    targets = set()
    for path in (COBOL / "cbl").glob("*.cbl"):
        text = path.read_text()
        targets |= set(re.findall(r"CALL '(\w+)'", text))
        targets |= set(re.findall(r"(?:XCTL|LINK) PROGRAM\('(\w+)'\)", text))
    assert targets == {"BKDTE01S", "BKSGN00C", "BKMNU01C", "BKUPD02C", "BKAUD04C"}
    assert targets <= programs
    for path in (COBOL / "jcl").rglob("*.jcl"):
        for pgm in re.findall(r"EXEC PGM=(BK\w+)", path.read_text()):
            assert pgm in programs, path


def test_data_file_is_ebcdic_not_utf8() -> None:
    data = (COBOL / "data" / "ACCTUPD.dat").read_bytes()
    assert classify(data) == ("non_utf8", 0, "utf-8")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    assert len(data) == 6 * 80
    first = data[:80].decode("cp037")
    # hand-decoded first request: ADD account 10000000101 for customer 100000101, limit 5000.00
    assert first[:32] == "ADD" + "10000000101" + "100000101" + "000500000"


# --- SYMBOLS.md ----------------------------------------------------------------------------------


def test_cobol_symbols_paragraph_lines_match_the_files() -> None:
    rows = _table_rows((COBOL / "SYMBOLS.md").read_text(), "| File | Line | Paragraph or section |")
    assert len(rows) == 59
    listed = set()
    for rel, number, name, kind in rows:
        line = (COBOL / rel).read_text().splitlines()[int(number) - 1]
        header = f"{name} SECTION." if kind == "section" else f"{name}."
        assert line[7:72].rstrip() == header, f"{rel}:{number} is not the header of {name}"
        listed.add((rel, int(number), name, kind))
    actual = {(f"cbl/{p.name}", n, name, kind) for p in (COBOL / "cbl").glob("*.cbl") for n, name, kind in _cobol_paragraphs(p)}
    assert listed == actual


def test_cobol_symbols_copybook_records_match_the_files() -> None:
    rows = _table_rows((COBOL / "SYMBOLS.md").read_text(), "| File | Line | Record (level 01) |")
    assert len(rows) == 10
    for rel, number, name in rows:
        line = (COBOL / rel).read_text().splitlines()[int(number) - 1]
        assert re.match(rf" 01  {re.escape(name)}[ .]", line[6:]), f"{rel}:{number}"


def test_cobol_symbols_program_table_line_references_match() -> None:
    rows = _table_rows((COBOL / "SYMBOLS.md").read_text(), "| Program | Kind | Source |")
    assert [r[0] for r in rows] == [
        "BKACT01C",
        "BKTRN02C",
        "BKRPT03C",
        "BKDTE01S",
        "BKSGN00C",
        "BKMNU01C",
        "BKUPD02C",
        "BKAUD04C",
    ]
    checked = 0
    for program, _kind, source, *rest in rows:
        lines = (COBOL / source).read_text().splitlines()
        assert f"PROGRAM-ID. {program}." in "\n".join(lines)
        cells = " ".join(rest)
        # "XCTL BKMNU01C (line 68)", "CALL 'BKDTE01S' (line 134)", "RECEIVE line 54", "lines 59/83/145"
        for verb, target, number in re.findall(r"(XCTL|LINK|CALL) '?(\w+)'? \(line (\d+)\)", cells):
            line = lines[int(number) - 1]
            assert verb in line and target in line, f"{source}:{number}"
            checked += 1
        for verb, numbers in re.findall(r"`?(RECEIVE|SEND|REWRITE|DELETE|READ DATASET|WRITE DATASET)`? lines? ([\d/]+)", cells):
            for number in numbers.split("/"):
                assert verb in lines[int(number) - 1], f"{source}:{number}"
                checked += 1
        for transid, number in re.findall(r"RETURN TRANSID\('(\w+)'\) \(line (\d+)\)", cells):
            assert f"RETURN TRANSID('{transid}')" in lines[int(number) - 1]
            checked += 1
    assert checked == 19  # 1 BKTRN02C + 1 BKSGN00C + 5 BKMNU01C + 11 BKUPD02C + 1 BKAUD04C


def _python_symbols(path: Path) -> set[tuple[int, str, str]]:
    found = set()
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ClassDef):
            found.add((node.lineno, node.name, "class"))
            for sub in node.body:
                if isinstance(sub, ast.FunctionDef):
                    found.add((sub.lineno, f"{node.name}.{sub.name}", "method"))
        elif isinstance(node, ast.FunctionDef):
            found.add((node.lineno, node.name, "function"))
        elif isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            # constants: UPPER_CASE names and module metadata (`__version__`, `__all__`)
            if name.isupper() or (name.startswith("__") and name.endswith("__")):
                found.add((node.lineno, name, "constant"))
    return found


def test_pyledger_symbols_match_the_files() -> None:
    rows = _table_rows((PYLEDGER / "SYMBOLS.md").read_text(), "| File | Line | Symbol | Kind |")
    listed: dict[str, set[tuple[int, str, str]]] = {}
    for rel, number, quoted, kind in rows:
        name = quoted.strip("`")
        line = (PYLEDGER / rel).read_text().splitlines()[int(number) - 1]
        short = name.split(".")[-1]
        expected = {"class": f"class {short}", "method": f"def {short}(", "function": f"def {short}(", "constant": f"{short} ="}
        assert expected[kind] in line, f"{rel}:{number} does not define {name}"
        listed.setdefault(rel, set()).add((int(number), name, kind))
    modules = sorted((PYLEDGER / "pyledger").glob("*.py"))
    assert len(modules) == 7
    for path in modules:
        rel = path.relative_to(PYLEDGER).as_posix()
        assert listed.get(rel, set()) == _python_symbols(path), rel


def test_pyledger_runs_a_hand_worked_example(tmp_path: Path) -> None:
    journal = tmp_path / "books.jsonl"
    env = {**os.environ, "PYTHONPATH": str(PYLEDGER), "PYTHONDONTWRITEBYTECODE": "1"}

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pyledger", str(journal), *args], env=env, capture_output=True, text=True, check=False
        )

    for code, name in [("1000", "Cash"), ("4000", "Sales"), ("5000", "Rent")]:
        assert cli("open", code, name).returncode == 0
    assert cli("transfer", "1000", "4000", "1,250.50", "Invoice 1", "--date", "2024-01-05").stdout == "posted 1,250.50\n"
    assert cli("transfer", "5000", "1000", "400", "Rent", "--date", "2024-01-06").returncode == 0
    # cash 1,250.50 - 400.00 = 850.50 (debit); sales 1,250.50 (credit); rent 400.00 (debit);
    # debits 850.50 + 400.00 = 1,250.50 = credits; net income 1,250.50 - 400.00 = 850.50
    trial = cli("trial").stdout.splitlines()
    assert trial[2].split() == ["1000", "Cash", "850.50"]
    assert trial[3].split() == ["4000", "Sales", "1,250.50"]
    assert trial[-1].split() == ["TOTAL", "1,250.50", "1,250.50"]
    assert cli("income").stdout == "850.50\n"
    refused = cli("transfer", "1000", "4000", "1.234", "bad")
    assert refused.returncode == 1 and "not an amount" in refused.stderr
    assert not list(PYLEDGER.rglob("__pycache__"))
