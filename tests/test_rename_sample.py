"""The renamer on the project's sample corpora and question sets."""

from __future__ import annotations

import json
import re
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
    # the DB2 plan is named after its program: it moves too, or PLAN(BKRPT03) would name BKRPT03C
    assert by_class["db2_plan"] == {"BKRPT03"}
    new = rmap["identifiers"]
    assert (
        f"RUN PROGRAM({new['BKRPT03C']}) PLAN({new['BKRPT03']})" in (out / rmap["renamed_paths"]["jcl/BKDAILY.jcl"]).read_text()
    )
    # the high-level qualifier BANK is an English word: kept, so prose and screen text stay readable
    assert "BANK" not in rmap["identifiers"] and rmap["kept"]["BANK"].startswith("English word")
    assert "account / card bank application" in (out / "README.md").read_text()
    assert "INITIAL='BANK  MAIN  MENU'" in (out / rmap["renamed_paths"]["bms/BKSET01.bms"]).read_text()
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
    # independent count: whole-token mentions of the programs in the question texts and must_touch lists
    qs = [json.loads(x) for x in q1.read_text().splitlines()]
    strings = [q["text"] for q in qs] + [m for q in qs for m in q.get("must_touch", [])]
    expected = sum(
        len(re.findall(rf"(?<![A-Za-z0-9_-]){n}(?![A-Za-z0-9_-])", x, re.I)) for n in by_class["program"] for x in strings
    )
    assert rep["question_occurrences_per_class"]["program"] == expected == 22
    renamed_text = q2.read_text()
    for name in by_class["program"]:
        assert name not in renamed_text


def test_cobol_bank_all_classes_verifies_clean(tmp_path):
    out, m = tmp_path / "bank", tmp_path / "bank.json"
    assert (
        _run(
            "rename",
            BANK,
            "--out",
            out,
            "--map-out",
            m,
            "--seed",
            5,
            "--classes",
            "default,paragraph,data_name,jcl_step,jcl_dd,transaction",
        ).exit_code
        == 0
    )
    classes = json.loads(m.read_text())["classes"]
    assert classes.get("3400-UPDATE-ACCOUNT") == "paragraph"
    assert classes.get("ACCT-CURR-BAL") == "data_name"
    res = _run("rename-verify", BANK, out, "--map", m)
    assert res.exit_code == 0, res.output


ENGLISH = "English word (rename/english_words.txt; --include renames it)"


@pytest.mark.skipif(not (LEDGER / "pyledger").is_dir(), reason="sample Python corpus not present")
def test_pyledger_code_classes_keep_english_words_and_the_questions_stay_readable(tmp_path):
    out, m = tmp_path / "ledger", tmp_path / "ledger.json"
    res = _run("rename", LEDGER, "--out", out, "--map-out", m, "--seed", 3, "--classes", "module,class,function,method")
    assert res.exit_code == 0, res.output
    rmap = json.loads(m.read_text())
    classes, kept = rmap["classes"], rmap["kept"]
    assert classes["load_journal"] == "function" and classes["debit_normal"] == "method" and classes["LedgerError"] == "class"
    assert "__main__" not in classes and "__init__" not in classes  # dunder names are protocol
    # names spelled as ordinary English words are the domain's vocabulary: kept, with the reason
    for word in ("Ledger", "ledger", "Account", "accounts", "transfer", "post", "balance", "money"):
        assert kept[word] == ENGLISH and word not in rmap["identifiers"]
    assert _run("rename-verify", LEDGER, out, "--map", m).exit_code == 0
    q1, q2 = REPO / "questions" / "pyledger.jsonl", tmp_path / "q.jsonl"
    assert _run("rename-questions", q1, "--map", m, "--out", q2).exit_code == 0
    assert _run("rename-verify", LEDGER, out, "--map", m, "--questions", q1, q2).exit_code == 0
    # the prose of every question is unchanged: none of them names a non-word identifier
    assert [json.loads(x)["text"] for x in q2.read_text().splitlines()] == [
        json.loads(x)["text"] for x in q1.read_text().splitlines()
    ]
    # no new token spells a word the corpus keeps
    assert not any(w.upper() in new.upper() for new in rmap["identifiers"].values() for w in kept if kept[w] == ENGLISH)


@pytest.mark.skipif(not (LEDGER / "pyledger").is_dir(), reason="sample Python corpus not present")
def test_pyledger_english_words_renamed_on_request_and_the_package_still_runs(tmp_path):
    (tmp_path / "inc.txt").write_text("ledger Ledger transfer\n")
    out, m = tmp_path / "ledger", tmp_path / "ledger.json"
    res = _run(
        "rename",
        LEDGER,
        "--out",
        out,
        "--map-out",
        m,
        "--seed",
        3,
        "--classes",
        "module,class,function,method",
        "--include",
        tmp_path / "inc.txt",
    )
    assert res.exit_code == 0, res.output
    rmap = json.loads(m.read_text())
    classes = rmap["classes"]
    # --include restores the discovered class (matching ignores case, so it takes ledger and Ledger)
    assert classes["Ledger"] == "class" and classes["ledger"] == "module" and classes["transfer"] == "method"
    # the package's own name is renamed too (issue M; it used to stay pyledger)
    pkg = rmap["identifiers"]["pyledger"]
    assert rmap["renamed_paths"]["pyledger/ledger.py"] == f"{pkg}/{rmap['identifiers']['ledger']}.py"
    assert _run("rename-verify", LEDGER, out, "--map", m).exit_code == 0
    # the renamed package is still a working program; its command words are what a user types, data
    # the renamer keeps (rename/pystrings.py), though the method behind ``transfer`` is renamed
    run = subprocess.run([sys.executable, "-m", pkg, "--help"], cwd=out, capture_output=True, text=True, timeout=30)
    assert run.returncode == 0 and "{open,transfer,trial,statement,income}" in run.stdout


@pytest.mark.skipif(not (LEDGER / "pyledger").is_dir(), reason="sample Python corpus not present")
def test_a_rename_that_would_change_nothing_is_refused(tmp_path):
    res = _run("rename", LEDGER, "--out", tmp_path / "o", "--map-out", tmp_path / "m.json", "--seed", 1)
    assert res.exit_code == 2 and "nothing to rename: no identifier of the classes program," in res.output
    assert "--classes module,class,function,method" in res.output and not (tmp_path / "o").exists()
