"""The renamer on the project's sample corpora and question sets."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from groundjudge.cli import app

REPO = Path(__file__).resolve().parent.parent
BANK = REPO / "corpora" / "cobol-bank"
LEDGER = REPO / "corpora" / "pyledger"
runner = CliRunner()

pytestmark = pytest.mark.skipif(not (BANK / "cbl").is_dir(), reason="sample corpus not present")


def _run(*args):
    res = runner.invoke(app, [str(a) for a in args])
    return res


def test_cobol_bank_renames_and_verifies_clean_with_its_questions(tmp_path):
    out, m = tmp_path / "bank", tmp_path / "bank.json"
    assert _run("rename", BANK, "--out", out, "--map-out", m, "--seed", 11).exit_code == 0
    rmap = json.loads(m.read_text())
    by_class: dict[str, set[str]] = {}
    for name, cls in rmap["classes"].items():
        by_class.setdefault(cls, set()).add(name)
    # hand-checked against the corpus tree and its SYMBOLS.md
    assert by_class["program"] == {p.stem for p in (BANK / "cbl").glob("*.cbl")}
    assert by_class["copybook"] == {p.stem for p in (BANK / "cpy").glob("*.cpy")} - {"BKSET01"}
    assert by_class["bms_mapset"] == {"BKSET01"} and by_class["bms_map"] == {"ACTMAP", "MNUMAP"}
    assert by_class["bms_symbolic_map"] == {"ACTMAPI", "ACTMAPO", "MNUMAPI", "MNUMAPO"}
    assert by_class["jcl_job"] == {"BKACTMNT", "BKDAILY", "BKDEFVSM"} and by_class["jcl_proc"] == {"BKPOST"}
    assert {"ACCTDAT", "DALYTRAN", "TRANHIST"} <= by_class["dataset"]
    assert rmap["copied_verbatim"] == ["data/ACCTUPD.dat"]
    new_path = rmap["renamed_paths"]["data/ACCTUPD.dat"]  # ACCTUPD is a dataset name: the file moves
    assert new_path == f"data/{rmap['identifiers']['ACCTUPD']}.dat"
    assert (out / new_path).read_bytes() == (BANK / "data/ACCTUPD.dat").read_bytes()

    q1 = REPO / "questions" / "cobol-bank.jsonl"
    q2 = tmp_path / "q2.jsonl"
    assert _run("rename-questions", q1, "--map", m, "--out", q2).exit_code == 0
    res = _run("rename-verify", BANK, out, "--map", m, "--questions", q1, q2)
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert rep["ok"] and rep["files"] == len([p for p in BANK.rglob("*") if p.is_file()])
    assert rep["question_occurrences_per_class"]["program"] > 0
    renamed_text = q2.read_text()
    for name in by_class["program"]:
        assert name not in renamed_text


def test_cobol_bank_all_classes_verifies_clean(tmp_path):
    out, m = tmp_path / "bank", tmp_path / "bank.json"
    assert _run("rename", BANK, "--out", out, "--map-out", m, "--seed", 5, "--classes", "default,paragraph,data_name,jcl_step,jcl_dd,transaction").exit_code == 0
    classes = json.loads(m.read_text())["classes"]
    assert classes.get("3400-UPDATE-ACCOUNT") == "paragraph"
    assert classes.get("ACCT-CURR-BAL") == "data_name"
    res = _run("rename-verify", BANK, out, "--map", m)
    assert res.exit_code == 0, res.output


@pytest.mark.skipif(not (LEDGER / "pyledger").is_dir(), reason="sample Python corpus not present")
def test_pyledger_code_classes_from_the_index_and_the_renamed_package_still_runs(tmp_path):
    out, m = tmp_path / "ledger", tmp_path / "ledger.json"
    res = _run("rename", LEDGER, "--out", out, "--map-out", m, "--seed", 3, "--classes", "module,class,function,method")
    assert res.exit_code == 0, res.output
    rmap = json.loads(m.read_text())
    classes = rmap["classes"]
    assert classes["Ledger"] == "class" and classes["load_journal"] == "function" and classes["ledger"] == "module"
    assert classes["debit_normal"] == "method"
    assert "__main__" not in classes and "__init__" not in classes  # dunder names are protocol
    assert rmap["kept"].get("main") == "reserved word" or "main" not in classes
    assert _run("rename-verify", LEDGER, out, "--map", m).exit_code == 0
    q2 = tmp_path / "q.jsonl"
    assert _run("rename-questions", REPO / "questions" / "pyledger.jsonl", "--map", m, "--out", q2).exit_code == 0
    assert _run("rename-verify", LEDGER, out, "--map", m, "--questions", REPO / "questions" / "pyledger.jsonl", q2).exit_code == 0
    # the renamed package is still a working program
    run = subprocess.run([sys.executable, "-m", "pyledger", "--help"], cwd=out, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0 and rmap["identifiers"]["transfer"] in run.stdout
