"""Identifiers spelled as ordinary English words (a dataset qualifier LEDGER, a module ``ledger``) are the
domain's vocabulary: kept by default everywhere, renamed everywhere only on --include."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import groundjudge.rename.generate as gen
from groundjudge.cli import app
from groundjudge.grounding.snapshot import open_corpus
from groundjudge.rename.discover import discover
from groundjudge.rename.mapping import plan_map
from groundjudge.rename.models import DEFAULT_CLASSES
from groundjudge.rename.vocabulary import english_words

runner = CliRunner()
ENGLISH = "English word (rename/english_words.txt; --include renames it)"

PROGRAM = """000100 IDENTIFICATION DIVISION.
000200 PROGRAM-ID. LEDGPGM.
000300* LEDGPGM POSTS THE DAY'S JOURNAL TO THE LEDGER.
000400 PROCEDURE DIVISION.
000500     DISPLAY 'LEDGER UPDATED'
000600     GOBACK.
"""
JOB = """//LEDGJOB  JOB (ACCT),'NIGHTLY LEDGER',CLASS=A
//* NIGHTLY LEDGER RUN OF LEDGPGM
//STEP1    EXEC PGM=LEDGPGM
//JRNL     DD DSN=LEDGER.ACMEPRD.JRNLDAT,DISP=SHR
"""
QUESTION = {"id": "q1", "text": "How does LEDGPGM update the ledger?", "category": "flow", "difficulty": "easy"}


@pytest.fixture
def corpus(tmp_path) -> Path:
    root = tmp_path / "c"
    (root / "cbl").mkdir(parents=True)
    (root / "jcl").mkdir()
    (root / "cbl/LEDGPGM.cbl").write_text(PROGRAM)
    (root / "jcl/LEDGJOB.jcl").write_text(JOB)
    (tmp_path / "q.jsonl").write_text(json.dumps(QUESTION) + "\n")
    return root


def _rename(corpus: Path, tmp: Path, *extra) -> tuple[dict, dict[str, str]]:
    out, m, q2 = tmp / "out", tmp / "m.json", tmp / "q2.jsonl"
    res = runner.invoke(app, [str(a) for a in ("rename", corpus, "--out", out, "--map-out", m, "--seed", 2, *extra)])
    assert res.exit_code == 0, res.output
    assert runner.invoke(app, ["rename-questions", str(tmp / "q.jsonl"), "--map", str(m), "--out", str(q2)]).exit_code == 0
    res = runner.invoke(
        app, ["rename-verify", str(corpus), str(out), "--map", str(m), "--questions", str(tmp / "q.jsonl"), str(q2)]
    )
    assert res.exit_code == 0, res.output
    rmap = json.loads(m.read_text())
    new = rmap["identifiers"]
    texts = {
        "job": (out / f"jcl/{new['LEDGJOB']}.jcl").read_text(),
        "program": (out / f"cbl/{new['LEDGPGM']}.cbl").read_text(),
        "question": json.loads(q2.read_text())["text"],
    }
    return rmap, texts


def test_the_bundled_list_is_ordinary_lower_case_words():
    words = english_words()
    assert {"BANK", "LEDGER", "ACCOUNT", "TRANSFER", "POSTING"} <= words
    assert not {"BKACT01C", "ACCTDAT", "DALYTRAN", "LEDGPGM", "CARDDEMO"} & words
    assert len(words) > 30_000 and all(w.isalpha() and len(w) >= 3 for w in words)


def test_an_english_word_identifier_is_kept_in_code_prose_and_questions(corpus, tmp_path):
    rmap, t = _rename(corpus, tmp_path)
    new = rmap["identifiers"]
    assert rmap["kept"]["LEDGER"] == ENGLISH and "LEDGER" not in new
    assert rmap["classes"] == {
        "LEDGPGM": "program",
        "LEDGJOB": "jcl_job",
        "ACMEPRD": "dataset",
        "JRNLDAT": "dataset",
        "STEP1": "jcl_step",
        "JRNL": "jcl_dd",
    }
    assert f"DSN=LEDGER.{new['ACMEPRD']}.{new['JRNLDAT']}," in t["job"]
    assert f"//* NIGHTLY LEDGER RUN OF {new['LEDGPGM']}" in t["job"] and "'NIGHTLY LEDGER'" in t["job"]
    assert f"{new['LEDGPGM']} POSTS THE DAY'S JOURNAL TO THE LEDGER." in t["program"]
    assert "DISPLAY 'LEDGER UPDATED'" in t["program"]
    assert t["question"] == f"How does {new['LEDGPGM']} update the ledger?"


def test_include_renames_an_english_word_everywhere_with_its_discovered_class(corpus, tmp_path):
    (tmp_path / "inc.txt").write_text("ledger\n")
    rmap, t = _rename(corpus, tmp_path, "--include", tmp_path / "inc.txt")
    new = rmap["identifiers"]
    assert rmap["classes"]["LEDGER"] == "dataset" and "LEDGER" not in rmap["kept"]
    L = new["LEDGER"]
    assert f"DSN={L}.{new['ACMEPRD']}.{new['JRNLDAT']}," in t["job"] and f"'NIGHTLY {L}'" in t["job"]
    # the price of renaming a word: the prose that uses it changes too
    assert t["question"] == f"How does {new['LEDGPGM']} update the {L.lower()}?"
    assert f"DISPLAY '{L} UPDATED'" in t["program"]


def test_a_new_token_never_spells_a_kept_english_word(corpus, monkeypatch):
    # the generator's first candidate for LEDGPGM is LEDGERQ: it must be refused, since LEDGER stays
    # in the corpus and a token containing it would tie the renamed program back to the word
    real = gen.draw
    forced = iter(["LEDGERQ"])

    def draw(original, rng, letters):
        return next(forced, None) or real(original, rng, letters) if original == "LEDGPGM" else real(original, rng, letters)

    monkeypatch.setattr(gen, "draw", draw)
    plan = plan_map(discover(open_corpus(corpus)), 2, list(DEFAULT_CLASSES))
    assert [(r.original, r.candidate, r.reason) for r in plan.rejections][:1] == [
        ("LEDGPGM", "LEDGERQ", "contains keep term LEDGER")
    ]
    assert "LEDGER" not in plan.identifiers["LEDGPGM"] and len(plan.identifiers["LEDGPGM"]) == 7
