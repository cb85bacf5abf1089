"""rename / rename-questions / rename-verify end to end on the hand-built mini corpus."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from _rename_helpers import BINARY_BYTES, LEGACY_BYTES, make_bank, write_questions
from grounding.snapshot import open_corpus
from groundjudge.cli import app
from groundjudge.errors import UserError
from rename.apply import check_map

runner = CliRunner()


def _run(*args: str):
    return runner.invoke(app, [str(a) for a in args])


@pytest.fixture
def bank(tmp_path) -> Path:
    return make_bank(tmp_path)


def _rename(bank: Path, tmp: Path, seed: int = 7, *extra: str, name: str = "out") -> tuple[Path, dict]:
    out, m = tmp / name, tmp / f"{name}.json"
    res = _run("rename", bank, "--out", out, "--map-out", m, "--seed", seed, *extra)
    assert res.exit_code == 0, res.output
    return out, json.loads(m.read_text())


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_default_classes_and_what_is_never_renamed(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    classes = m["classes"]
    assert classes == {
        "ACCTPGM": "program", "ACCTSUB": "program",
        "ACCTSET": "bms_mapset", "ACCTMAP": "bms_map", "ACCTMAPI": "bms_symbolic_map", "ACCTMAPO": "bms_symbolic_map",
        "ACCTREC": "copybook", "ACCTTAG": "copybook", "ACCTLDG": "copybook",
        "ACCTPRC": "jcl_proc", "ACCTJOB": "jcl_job",
        "ACCTFIL": "dataset", "ACCTFIL2": "dataset", "BANKX": "dataset", "PRODA": "dataset", "ACCTMAST": "dataset",
    }
    assert m["derived_from"] == {"ACCTMAPI": "ACCTMAP", "ACCTMAPO": "ACCTMAP"}
    # names defined outside the repository and system datasets stay
    for kept in ("CEEDAYS", "DFHAID", "IEFBR14", "SYS1", "LINKLIB"):
        assert kept not in m["identifiers"]
    new = m["identifiers"]
    pgm = (out / f"cbl/{new['ACCTPGM']}.cbl").read_text()
    assert "CEEDAYS" in pgm and "COPY DFHAID." in pgm
    assert "SYS1.LINKLIB" in next((out / "jcl").iterdir()).read_text()


def test_every_occurrence_moves_comments_literals_case_and_derived_names(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    new = m["identifiers"]
    P, S, MAP, SET = new["ACCTPGM"], new["ACCTSUB"], new["ACCTMAP"], new["ACCTSET"]
    pgm = (out / f"cbl/{P}.cbl").read_text().splitlines()
    assert pgm[0][72:] == P  # identification area
    assert pgm[1] == f"000200  PROGRAM-ID. {P}."
    assert pgm[2] == f"000300*{P} reads the account master; see also {S.lower()}."  # comment, lower case
    assert f"CALL '{S}' USING ACCT" in pgm[17]
    assert f"LINK PROGRAM('{S}')" in pgm[19] and f"XCTL PROGRAM('{S}')" in pgm[28]
    assert f"DATASET('{new['ACCTFIL']}')" in pgm[20]
    assert f"VALUE '{new['ACCTFIL2']}'" in pgm[8]
    assert f"MAP('{MAP}') MAPSET('{SET}')" in pgm[24]
    assert f"ACCTNMO OF {MAP}O" in pgm[23] and f"FROM({MAP}O)" in pgm[25]
    assert f"COPY {SET}." in pgm[13]
    assert f"'{P[0]}{P[1:].lower()} done'" in pgm[26]  # mixed case kept per occurrence
    assert f"INTO({MAP}I)" in pgm[27]
    # data names are opt-in: untouched by default, hyphenated relatives too
    assert "MOVE ACCT-ID TO WS-ACCT-ID" in pgm[16]
    jcl = (out / f"jcl/{new['ACCTJOB']}.jcl").read_text()
    assert f"//{new['ACCTJOB']}  JOB" in jcl and f"EXEC PGM={P}" in jcl and f"EXEC {new['ACCTPRC']}" in jcl
    assert f"DSN={new['BANKX']}.{new['PRODA']}.{new['ACCTMAST']},DISP=SHR" in jcl
    bms = (out / f"bms/{SET}.bms").read_text()
    assert bms.startswith(f"{SET}  DFHMSD") and f"\n{MAP}  DFHMDI" in bms
    csd = (out / "csd/BANK.csd").read_text()
    assert f"PROGRAM({P})" in csd and f"FILE({new['ACCTFIL']})" in csd


def test_file_and_directory_names_and_verbatim_files(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    new = m["identifiers"]
    files = _tree(out)
    assert f"{new['ACCTSUB']}/notes.md" in files  # directory named after a program
    assert f"cbl/{new['ACCTPGM']}.cbl" in files and f"cpy/{new['ACCTREC']}.cpy" in files
    assert files["data/legacy.dat"] == LEGACY_BYTES
    assert files[f"data/{new['ACCTPGM']}.bin"] == BINARY_BYTES  # renamed path, identical bytes
    assert sorted(m["copied_verbatim"]) == ["data/ACCTPGM.bin", "data/legacy.dat"]
    assert len(files) == len(_tree(bank))


def test_rerun_is_byte_identical_and_another_seed_differs(bank, tmp_path):
    a, ma = _rename(bank, tmp_path, 7, name="a")
    b, mb = _rename(bank, tmp_path, 7, name="b")
    c, mc = _rename(bank, tmp_path, 8, name="c")
    assert _tree(a) == _tree(b) and ma == mb
    assert (tmp_path / "a.json").read_bytes() == (tmp_path / "b.json").read_bytes()
    assert ma["identifiers"] != mc["identifiers"]
    assert ma["corpus_tree_hash"] == open_corpus(bank).tree_hash == mc["corpus_tree_hash"]
    assert ma["renamed_tree_hash"] == open_corpus(a).tree_hash


def test_several_seeds_in_one_call(bank, tmp_path):
    res = _run("rename", bank, "--out", tmp_path / "r", "--map-out", tmp_path / "m.json", "--seeds", "1,2,3")
    assert res.exit_code == 0, res.output
    maps = [json.loads((tmp_path / f"m-{s}.json").read_text()) for s in (1, 2, 3)]
    assert [m["seed"] for m in maps] == [1, 2, 3]
    assert len({m["identifiers"]["ACCTPGM"] for m in maps}) == 3
    for s in (1, 2, 3):
        res = _run("rename-verify", bank, tmp_path / f"r-{s}", "--map", tmp_path / f"m-{s}.json")
        assert res.exit_code == 0, res.output


def test_existing_output_is_refused_unless_force(bank, tmp_path):
    out, _ = _rename(bank, tmp_path)
    (out / "stale.txt").write_text("old")
    res = _run("rename", bank, "--out", out, "--map-out", tmp_path / "m2.json", "--seed", 9)
    assert res.exit_code == 2 and "output exists" in res.output and not (tmp_path / "m2.json").exists()
    res = _run("rename", bank, "--out", out, "--map-out", tmp_path / "m2.json", "--seed", 9, "--force")
    assert res.exit_code == 0 and not (out / "stale.txt").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]  # no temp dirs left behind


def test_a_colliding_map_is_refused_before_anything_is_written(bank, tmp_path, monkeypatch):
    with pytest.raises(UserError, match="both become"):
        check_map({"ACCTPGM": "QQQQQQQ", "ACCTSUB": "QQQQQQQ"}, set())
    with pytest.raises(UserError, match="a token already in the corpus"):
        check_map({"ACCTPGM": "ACCTJOB"}, {"ACCTJOB"})
    with pytest.raises(UserError, match="itself a renamed original"):
        check_map({"ACCTPGM": "ACCTSUB", "ACCTSUB": "QWERTYU"}, set())
    # force the generator to hand two programs the same token: the CLI stops with one line, writes nothing
    import rename.mapping as mapping

    monkeypatch.setattr(mapping, "generate", lambda originals, *a, **k: ({n: "QZQZQZQ" for n, _, _ in originals}, []))
    res = _run("rename", bank, "--out", tmp_path / "x", "--map-out", tmp_path / "x.json", "--seed", 1)
    assert res.exit_code == 2 and "map collision" in res.output
    assert not (tmp_path / "x").exists() and not (tmp_path / "x.json").exists()


def test_verify_is_clean_and_counts_per_class(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json", "--report", tmp_path / "rep.json")
    assert res.exit_code == 0, res.output
    rep = json.loads((tmp_path / "rep.json").read_text())
    assert rep["ok"] and all(c["ok"] for c in rep["checks"])
    assert rep["files"] == 13 and rep["copied_verbatim"] == ["data/ACCTPGM.bin", "data/legacy.dat"]
    assert rep["identifiers_per_class"]["program"] == 2 and rep["identifiers_per_class"]["bms_symbolic_map"] == 2
    # ACCTPGM: hand count of its occurrences in contents and paths of the mini corpus
    # cbl/ACCTPGM.cbl: ident area, PROGRAM-ID, comment, 'Acctpgm done' = 4; file name = 1;
    # jcl: comment + PGM= = 2; csd: 1; notes.md: 4 (ACCTPGM twice, acctpgm, Acctpgm);
    # data/ACCTPGM.bin path = 1 (contents are binary, untouched)  -> 13
    text = "".join(t.decode("latin-1") for t in _tree(bank).values() if b"\0" not in t)
    paths = "\n".join(_tree(bank))
    in_files = len(re.findall(r"(?<![A-Za-z0-9_-])acctpgm(?![A-Za-z0-9_-])", text, re.I)) - 1  # minus legacy.dat
    in_paths = len(re.findall(r"ACCTPGM", paths))
    assert in_files + in_paths == 13
    # ACCTSUB: ACCTPGM.cbl comment, CALL, LINK, XCTL = 4; ACCTSUB.cbl ident area, PROGRAM-ID, file
    # name = 3; proc PGM= = 1; notes.md text and its directory = 2  -> 10; programs 13 + 10 = 23
    assert rep["occurrences_per_class"]["program"] == 23 == m["occurrences"]["program"]


@pytest.mark.parametrize(
    "tamper, failing",
    [
        (lambda t: t.replace("MOVE ACCT-ID", "MOVE ACCT-XD"), "only_mapped_tokens_differ"),
        (lambda t: t.replace("DATA DIVISION.", "DATA DIVISION. "), "line_lengths"),
        (lambda t: t + "000999 EXTRA LINE.\n", "line_counts"),
    ],
)
def test_verify_catches_a_tampered_tree(bank, tmp_path, tamper, failing):
    out, m = _rename(bank, tmp_path)
    f = out / f"cbl/{m['identifiers']['ACCTPGM']}.cbl"
    f.write_text(tamper(f.read_text()))
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json")
    assert res.exit_code == 1
    rep = json.loads(res.stdout)
    assert not rep["ok"] and failing in [c["name"] for c in rep["checks"] if not c["ok"]]


def test_verify_catches_an_original_left_behind(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    f = out / f"ACCTSUB/notes.md".replace("ACCTSUB", m["identifiers"]["ACCTSUB"])
    f.write_text(f.read_text().replace(m["identifiers"]["ACCTPGM"], "ACCTPGM", 1))
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json")
    rep = json.loads(res.stdout)
    assert res.exit_code == 1
    bad = {c["name"]: c["failures"] for c in rep["checks"] if not c["ok"]}
    assert list(bad) == ["mapped_tokens_replaced", "no_original_left"]
    where = "ACCTSUB/notes.md:3"  # failures name the original file and line
    assert bad["mapped_tokens_replaced"] == [f"{where}: 'ACCTPGM' became 'ACCTPGM', expected '{m['identifiers']['ACCTPGM']}'"]
    assert bad["no_original_left"] == [f"{where}: 'ACCTPGM' is a mapped original"]


def test_verify_refuses_a_map_for_another_corpus(bank, tmp_path):
    out, _ = _rename(bank, tmp_path)
    (bank / "extra.txt").write_text("x\n")
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json")
    rep = json.loads(res.stdout)
    assert res.exit_code == 1 and {"map_matches_corpus", "file_count", "paths"} <= {c["name"] for c in rep["checks"] if not c["ok"]}


def test_opt_in_classes_and_copy_replacing(bank, tmp_path):
    out, m = _rename(bank, tmp_path, 7, "--classes", "default,paragraph,data_name,jcl_step,jcl_dd,transaction")
    new, cls = m["identifiers"], m["classes"]
    assert cls["MAIN-PARA"] == cls["1000-INIT"] == "paragraph" and cls["ACT1"] == "transaction"
    assert cls["STEP1"] == "jcl_step" and cls["ACCTDD"] == "jcl_dd" and cls["S-ACCTDD"] == "assign_name"
    assert "STEP$3" not in new and m["kept"]["STEP$3"].startswith("contains $, # or @")
    assert new["S-ACCTDD"] == "S-" + new["ACCTDD"]
    assert re.fullmatch(r"\d{4}-[A-Z]{4}", new["1000-INIT"])
    for name in ("ACCT", "ACCT-ID", "WS-ACCT-ID"):
        assert cls[name] == "data_name"
    assert len({new["ACCT"], new["ACCT-ID"], new["WS-ACCT-ID"]}) == 3
    # a LEADING partial-word REPLACING operand pins the names that carry it
    assert "LDG-ACCT-NAME" not in new and m["kept"]["LDG-ACCT-NAME"].startswith("partial-word COPY ACCTLDG")
    pgm = (out / f"cbl/{new['ACCTPGM']}.cbl").read_text()
    assert f"MOVE {new['ACCT-ID']} TO {new['WS-ACCT-ID']}" in pgm
    # :TAG: pseudo-text: the copybook keeps ':TAG:-' and its fragment, the operands stay consistent
    tag = (out / f"cpy/{new['ACCTTAG']}.cpy").read_text()
    assert ":TAG:-ACCT-ID" in tag and f"COPY {new['ACCTTAG']} REPLACING ==:TAG:== BY ==WS==." in pgm
    sub = (out / f"cbl/{new['ACCTSUB']}.cbl").read_text()
    assert f"ASSIGN TO S-{new['ACCTDD']}." in sub
    # symbolic-map data names move with the BMS map and field they are made from, even though they
    # are also data names defined in a copybook
    assert cls["ACCTMAPI"] == "bms_symbolic_map" and new["ACCTMAPI"] == new["ACCTMAP"] + "I"
    assert cls["ACCTNM"] == "bms_field"
    for suffix in "LFIO":
        assert cls[f"ACCTNM{suffix}"] == "bms_field_suffixed" and new[f"ACCTNM{suffix}"] == new["ACCTNM"] + suffix
    assert "ACCTNMA" not in new  # not in the corpus, so no entry
    bms = (out / f"bms/{new['ACCTSET']}.bms").read_text()
    assert f"\n{new['ACCTNM']}   DFHMDF" in bms
    # USERID is CICS vocabulary, so the field keeps its name and so does its symbolic-map name
    assert "USERIDI" not in new and m["kept"]["USERIDI"] == "symbolic-map name of USERID, which is not renamed"
    assert "\nUSERID   DFHMDF" in bms
    jcl = (out / f"jcl/{new['ACCTJOB']}.jcl").read_text()
    assert f"//{new['ACCTDD']}   DD DSN" in jcl and f"//{new['STEP1']}    EXEC PGM=" in jcl
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json")
    assert res.exit_code == 0, res.output


def test_symbolic_map_names_stay_when_their_map_is_not_renamed(bank, tmp_path):
    _, m = _rename(bank, tmp_path, 7, "--classes", "data_name")
    assert "ACCTMAP" not in m["identifiers"] and "ACCTMAPI" not in m["identifiers"]
    assert m["kept"]["ACCTMAPO"] == "symbolic-map name of ACCTMAP, which is not renamed"
    assert m["classes"]["ACCTNMI"] == "bms_field_suffixed"  # data_name brings the BMS fields along


def test_keep_include_exclude(bank, tmp_path):
    (tmp_path / "keep.txt").write_text("# domain words\nACCTMAST\n")
    (tmp_path / "inc.txt").write_text("ACCT-BAL\nMOVE\n")
    (tmp_path / "exc.txt").write_text("acctsub\n")
    _, m = _rename(bank, tmp_path, 7, "--keep", tmp_path / "keep.txt", "--include", tmp_path / "inc.txt", "--exclude", tmp_path / "exc.txt")
    assert m["kept"]["ACCTMAST"] == "--keep" and m["kept"]["ACCTSUB"] == "--exclude"
    assert m["kept"]["MOVE"].startswith("reserved word")
    assert m["classes"]["ACCT-BAL"] == "data_name"  # included, class known from discovery
    assert set(m["inputs_sha256"]) == {"keep", "include", "exclude"}
    assert not any("ACCTMAST" in t.upper() for t in m["identifiers"].values())


def test_bad_inputs_are_one_line_errors(bank, tmp_path):
    res = _run("rename", tmp_path / "nope", "--out", tmp_path / "o", "--map-out", tmp_path / "m.json", "--seed", 1)
    assert res.exit_code == 2 and "does not exist" in res.output
    res = _run("rename", bank, "--out", tmp_path / "o", "--map-out", tmp_path / "m.json", "--seed", 1, "--classes", "programs")
    assert res.exit_code == 2 and "unknown class 'programs'" in res.output
    res = _run("rename", bank, "--out", tmp_path / "o", "--map-out", tmp_path / "m.json", "--seed", 1, "--seeds", "1,2")
    assert res.exit_code == 2 and "not both" in res.output
    (tmp_path / "bad.json").write_text("{}")
    res = _run("rename-verify", bank, bank, "--map", tmp_path / "bad.json")
    assert res.exit_code == 2 and "invalid RenameMap" in res.output


def test_questions_are_renamed_with_the_same_map(bank, tmp_path):
    out, m = _rename(bank, tmp_path)
    q1 = write_questions(tmp_path / "q.jsonl")
    q2 = tmp_path / "q2.jsonl"
    res = _run("rename-questions", q1, "--map", tmp_path / "out.json", "--out", q2)
    assert res.exit_code == 0, res.output
    a = [json.loads(x) for x in q1.read_text().splitlines()]
    b = [json.loads(x) for x in q2.read_text().splitlines()]
    new = m["identifiers"]
    assert b[0]["text"] == f"What does {new['ACCTPGM']} do with ACCT-ID before it calls {new['ACCTSUB']}?"
    assert b[0]["must_touch"] == [f"cbl/{new['ACCTPGM']}.cbl", new["ACCTSUB"]]
    assert b[1]["text"] == f"Which job runs {new['ACCTPGM'].lower()}, and which dataset does the ACCTDD DD read?"
    for qa, qb in zip(a, b):
        assert {k: v for k, v in qa.items() if k not in ("text", "must_touch")} == {k: v for k, v in qb.items() if k not in ("text", "must_touch")}
        assert list(qa) == list(qb)
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json", "--questions", q1, q2)
    assert res.exit_code == 0, res.output
    rep = json.loads(res.stdout)
    assert {"question_ids", "question_labels", "question_text_lengths"} <= {c["name"] for c in rep["checks"]}
    # a label changed in the renamed set fails verification
    b[1]["difficulty"] = "hard"
    q2.write_text("".join(json.dumps(x) + "\n" for x in b))
    res = _run("rename-verify", bank, out, "--map", tmp_path / "out.json", "--questions", q1, q2)
    assert res.exit_code == 1 and "question_labels" in [c["name"] for c in json.loads(res.stdout)["checks"] if not c["ok"]]


def test_an_interrupted_write_leaves_neither_tree_nor_temp_dir(bank, tmp_path, monkeypatch):
    calls = {"n": 0}
    real = Path.write_bytes

    def failing(self, data):
        calls["n"] += 1
        if calls["n"] == 4:
            raise OSError("disk full")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", failing)
    with pytest.raises(OSError):
        runner.invoke(app, ["rename", str(bank), "--out", str(tmp_path / "out"), "--map-out", str(tmp_path / "m.json"), "--seed", "1"], catch_exceptions=False)
    assert calls["n"] == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bank"]


def test_output_inside_the_corpus_is_refused(bank, tmp_path):
    res = _run("rename", bank, "--out", bank / "renamed", "--map-out", tmp_path / "m.json", "--seed", 1)
    assert res.exit_code == 2 and "inside the corpus" in res.output and not (bank / "renamed").exists()
